//! The game's client tests, in one binary (each test binary links Bevy): selection and taps,
//! undo and redo, game over, saves, the text tables, the post-game analysis, and online play
//! against a real server.

mod analysis;
mod app;
mod draws;
mod endgames;
mod fonts;
mod language;
mod layout;
mod lessons;
mod moments;
mod online;
mod saves;
mod selection;
mod session;
mod surfaces;
mod texts;
mod title;

use std::sync::{Mutex, MutexGuard};

/// Tests that use the data directory take this lock: it is global to the process.
pub fn data_dir_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// A fresh, empty data directory for this process, made the game's data directory.
pub fn fresh_data_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-client-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    ludus::platform::storage::set_data_dir(Some(dir.clone()));
    dir
}

/// The game's core plugins in a headless App (no window, no rendering).
pub fn headless() -> bevy::prelude::App {
    use bevy::prelude::*;
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
