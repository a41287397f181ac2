//! The unfinished game: saved after every change and when the game closes, offered on the next
//! start. A save that cannot be read is kept aside and reported, never trusted.

use crate::game::Notices;
use crate::game::session::{Seats, Session};
use crate::game::settings::Settings;
use crate::i18n;
use crate::platform::storage::{Document, DocumentError, Explain};
use bevy::prelude::*;
use ludus_rules::{AnyGame, GameRecord};
use serde::{Deserialize, Serialize};

const VERSION: u32 = 1;

/// What is written to disk.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedGame {
    /// The save format's version.
    pub version: u32,
    /// The game in notation.
    pub record: GameRecord,
    /// Who plays each side.
    pub seats: Seats,
}

impl SavedGame {
    /// The save of a session.
    pub fn of(session: &Session) -> SavedGame {
        SavedGame { version: VERSION, record: session.game.record(), seats: session.seats }
    }

    /// Encodes as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Decodes and checks every move.
    pub fn from_json(text: &str) -> Result<Session, SaveError> {
        let saved: SavedGame = serde_json::from_str(text).map_err(DocumentError::Json)?;
        if saved.version != VERSION {
            return Err(DocumentError::Version { found: saved.version, expected: VERSION }.into());
        }
        let game = AnyGame::from_record(&saved.record).map_err(SaveError::Game)?;
        Ok(Session::from_game(game, saved.seats))
    }
}

/// Why the saved game cannot be resumed: the document (see [`DocumentError`]), or the game it
/// holds (a move that is not legal, say). `Display` for the log, [`Explain`] for the player.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The document cannot be read.
    #[error(transparent)]
    Document(#[from] DocumentError),
    /// The game in it cannot be replayed.
    #[error("the saved game: {0}")]
    Game(#[source] ludus_rules::RecordError),
}

impl Explain for SaveError {
    fn text(&self, lang: i18n::Lang) -> String {
        match self {
            SaveError::Document(e) => e.text(lang),
            SaveError::Game(e) => i18n::problems::record_error(lang, e),
        }
    }
}

/// The state of the saved game at start-up.
#[derive(Resource, Default, Debug)]
pub enum Resumable {
    /// Nothing to resume.
    #[default]
    None,
    /// A game that can be resumed.
    Game(Box<Session>),
}

/// The unfinished game's document.
const DOCUMENT: Document =
    Document { name: "unfinished-game.json", corrupt: crate::i18n::id!("save-corrupt") };

/// Looks for an unfinished game; a save that cannot be read is set aside and reported.
pub fn load(lang: i18n::Lang) -> (Resumable, Option<String>) {
    match DOCUMENT.load(lang, SavedGame::from_json) {
        (Some(session), notice) if !session.game.is_over() => (Resumable::Game(Box::new(session)), notice),
        (Some(_), notice) => {
            DOCUMENT.remove();
            (Resumable::None, notice)
        }
        (None, notice) => (Resumable::None, notice),
    }
}

/// Writes the session (or removes the save once the game is over). Online games live on the
/// server and a position under review (the analysis) is no game: both leave the local save alone.
pub fn store(session: &Session) {
    if session.seats.is_online() || session.is_review() || session.is_lesson() {
        return;
    }
    if session.game.is_over() || session.game.ply() == 0 {
        DOCUMENT.remove();
        return;
    }
    if let Err(e) = DOCUMENT.save_json(&SavedGame::of(session)) {
        warn!("the game could not be saved: {e}");
    }
}

fn startup(mut commands: Commands, settings: Res<Settings>, mut notices: ResMut<Notices>) {
    let (resumable, notice) = load(settings.lang);
    commands.insert_resource(resumable);
    notices.0.extend(notice);
}

fn save_on_change(session: Option<Res<Session>>, mut last: Local<Option<u64>>) {
    let Some(session) = session else { return };
    if *last != Some(session.revision) || session.is_added() {
        *last = Some(session.revision);
        store(&session);
    }
}

fn save_on_exit(mut exit: MessageReader<AppExit>, session: Option<Res<Session>>) {
    if exit.read().next().is_some()
        && let Some(session) = session
    {
        store(&session);
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Notices>()
        .add_systems(Startup, startup)
        .add_systems(Last, (save_on_change, save_on_exit));
}
