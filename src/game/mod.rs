//! The game itself, without drawing: the session and its commands, the player's intents, the
//! selection on the board, the player's settings, the unfinished game's save, the finished
//! games' records and the lessons.

pub mod describe;
pub mod intent;
pub mod lessons;
pub mod puzzles;
pub mod records;
pub mod save;
pub mod selection;
pub mod session;
pub mod settings;

use bevy::prelude::*;

/// The game's state and the documents it keeps (tests run it on `MinimalPlugins`).
pub fn plugin(app: &mut App) {
    app.add_plugins((
        settings::plugin,
        session::plugin,
        intent::plugin,
        save::plugin,
        records::plugin,
        lessons::plugin,
        puzzles::plugin,
    ));
}

/// Messages for the player about their documents (a file set aside, a finished game not kept),
/// shown on the title screen one at a time.
#[derive(Resource, Default, Debug)]
pub struct Notices(pub Vec<String>);
