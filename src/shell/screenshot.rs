//! `--screenshot PATH`: start straight into the game (or the screen or lesson asked for), wait
//! until the board, if any, has settled (and `--screenshot-after MS` more), save the frame as a
//! PNG, and exit.

use crate::app::Screen;
use crate::app::launch::Launch;
use crate::board::view::BoardView;
use crate::game::session::Session;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

#[derive(Default)]
struct Progress {
    settled_frames: u32,
    /// When the frame was first settled (real seconds).
    settled_at: Option<f64>,
    requested: bool,
}

fn take(
    mut commands: Commands,
    launch: Res<Launch>,
    session: Option<Res<Session>>,
    screen: Res<State<Screen>>,
    view: Res<BoardView>,
    time: Res<Time<Real>>,
    mut progress: Local<Progress>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let Some(path) = &launch.screenshot else {
        return;
    };
    if progress.requested {
        return;
    }
    let on_board = *screen.get() == Screen::Playing;
    if on_board && session.is_none() {
        return;
    }
    if !on_board || session.is_some_and(|s| view.settled(&s)) {
        progress.settled_frames += 1;
    } else {
        progress.settled_frames = 0;
    }
    // A few frames for the panels' layout and the fonts to settle, and the wait asked for from
    // the first settled frame.
    let now = time.elapsed_secs_f64();
    if progress.settled_frames == 0 {
        progress.settled_at = None;
        return;
    }
    let settled_at = *progress.settled_at.get_or_insert(now);
    if progress.settled_frames < 12 || (now - settled_at) * 1000.0 < launch.screenshot_after_ms as f64 {
        redraw.write(bevy::window::RequestRedraw);
        return;
    }
    progress.requested = true;
    info!("saving a screenshot to {}", path.display());
    commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone())).observe(
        |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            exit.write(AppExit::Success);
        },
    );
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Launch>().add_systems(Update, take);
}
