//! `--screenshot PATH`: start straight into the game (or the screen or lesson asked for), wait
//! until the board, if any, has settled (and `--screenshot-after MS` more), save the frame as a
//! PNG, and exit. With `--play MOVES`, the moves are played first, each once the board has
//! settled, and the wait counts from the last one, in game time (so that a slow software-drawn
//! frame does not skip the effect being caught).

use crate::app::Screen;
use crate::app::launch::Launch;
use crate::board::view::BoardView;
use crate::game::session::{GameCommand, Session};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

#[derive(Default)]
struct Progress {
    settled_frames: u32,
    /// When the frame was first settled (real seconds).
    settled_at: Option<f64>,
    requested: bool,
    /// How many of the launch's `--play` moves were played, and when the last one was (game
    /// seconds).
    played: usize,
    played_at: Option<f64>,
}

fn take(
    mut commands: Commands,
    launch: Res<Launch>,
    session: Option<Res<Session>>,
    screen: Res<State<Screen>>,
    view: Res<BoardView>,
    real: Res<Time<Real>>,
    game_time: Res<Time>,
    mut progress: Local<Progress>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
    mut play: MessageWriter<GameCommand>,
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
    redraw.write(bevy::window::RequestRedraw);
    // The moves to play: each once the board has settled for a few frames.
    if progress.played < launch.play.len() {
        if progress.settled_frames >= 12 {
            play.write(GameCommand::Play(launch.play[progress.played]));
            progress.played += 1;
            progress.settled_frames = 0;
            if progress.played == launch.play.len() {
                progress.played_at = Some(game_time.elapsed_secs_f64());
            }
        }
        return;
    }
    let wait = launch.screenshot_after_ms as f64 / 1000.0;
    if let Some(played_at) = progress.played_at {
        // After the last move: its animation and what follows it are caught in flight.
        if game_time.elapsed_secs_f64() - played_at < wait {
            return;
        }
    } else {
        // A few frames for the panels' layout and the fonts to settle, and the wait asked for
        // from the first settled frame.
        let now = real.elapsed_secs_f64();
        if progress.settled_frames == 0 {
            progress.settled_at = None;
            return;
        }
        let settled_at = *progress.settled_at.get_or_insert(now);
        if progress.settled_frames < 12 || now - settled_at < wait {
            return;
        }
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
