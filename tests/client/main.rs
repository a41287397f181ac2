//! The game's client tests, in one binary (each test binary links Bevy): selection and taps,
//! undo and redo, game over, saves, the text tables, the post-game analysis, and online play
//! against a real server.

mod access;
mod analysis;
mod app;
mod board_place;
mod draws;
mod endgames;
mod fonts;
mod game_puzzles;
mod imports;
mod intents;
mod language;
mod layout;
mod lessons;
mod marks;
mod moments;
mod online;
mod puzzles;
mod saves;
mod selection;
mod session;
mod sources;
mod surfaces;
mod texts;
mod title;
mod warmup;

use std::cell::{Cell, RefCell};
use std::sync::{Mutex, MutexGuard};

thread_local! {
    /// Whether this test's thread holds [`data_dir_lock`].
    static HOLDS_DATA_DIR: Cell<bool> = const { Cell::new(false) };
    /// The directories this test's [`fresh_data_dir`] made: removed with its guard.
    static MADE_DIRS: RefCell<Vec<std::path::PathBuf>> = const { RefCell::new(Vec::new()) };
}

/// The data directory held by one test (see [`data_dir_lock`]). Dropped at the test's end
/// (after the apps it made, which were declared after it), it removes the directories that
/// [`fresh_data_dir`] made and leaves the game without a data directory.
pub struct DataDirGuard {
    _lock: MutexGuard<'static, ()>,
}

impl Drop for DataDirGuard {
    fn drop(&mut self) {
        ludus::platform::storage::set_data_dir(None);
        for dir in MADE_DIRS.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
        HOLDS_DATA_DIR.set(false);
    }
}

/// Tests that use the data directory take this lock: it is global to the process. Every app of
/// the game's plugins reads and writes it (the unfinished game, the recent games, the lessons,
/// the online settings), so [`headless`] requires it.
pub fn data_dir_lock() -> DataDirGuard {
    static LOCK: Mutex<()> = Mutex::new(());
    let lock = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    HOLDS_DATA_DIR.set(true);
    DataDirGuard { _lock: lock }
}

/// A fresh, empty data directory for this process, made the game's data directory (under
/// [`data_dir_lock`]).
pub fn fresh_data_dir(name: &str) -> std::path::PathBuf {
    assert!(HOLDS_DATA_DIR.get(), "take data_dir_lock() before fresh_data_dir({name:?})");
    let dir = std::env::temp_dir().join(format!("ludus-client-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    ludus::platform::storage::set_data_dir(Some(dir.clone()));
    MADE_DIRS.with_borrow_mut(|made| made.push(dir.clone()));
    dir
}

/// The game's core plugins in a headless App (no window, no rendering). The caller holds
/// [`data_dir_lock`] and has made a [`fresh_data_dir`]: the app reads and writes it.
pub fn headless() -> bevy::prelude::App {
    use bevy::prelude::*;
    assert!(
        HOLDS_DATA_DIR.get(),
        "take data_dir_lock() and fresh_data_dir() before headless(): the app reads and writes the data directory"
    );
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    app.insert_resource(ludus::game::settings::Settings::default());
    app.add_plugins(ludus::core_plugin);
    app
}

/// A square by name on a board `width` x `height`.
pub fn sq(name: &str, width: u8, height: u8) -> ludus_rules::Square {
    ludus_rules::Square::parse(name, width, height).expect("square")
}
