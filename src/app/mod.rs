//! The app's frame: the screens (states) and going between them (navigation), the order of work
//! within a frame (sets), and what the game was started with (launch options).

pub mod launch;
pub mod navigation;
pub mod version;

use bevy::prelude::*;

/// The order of the game's work within a frame.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSet {
    /// Pointer, keyboard and the server's messages.
    Input,
    /// Changes to the game.
    Apply,
    /// The computer player.
    Think,
    /// The board view.
    View,
}

/// Which screen is showing.
#[derive(States, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// The title and main menu.
    #[default]
    Title,
    /// Rules and tips for both games.
    Rules,
    /// Settings.
    Settings,
    /// A game on the board.
    Playing,
    /// Play online: the server, the lobby, rooms and live games.
    Online,
    /// A finished game analysed by the engine: the graph, the marked moves, any position.
    Analysis,
    /// "Analyse a game": the recent finished games and a box to paste a record.
    Records,
    /// The first start's language choice.
    Language,
    /// "Learn to play": the lessons of each game (a lesson itself plays on the game screen).
    Lessons,
    /// A player's profile (online): ratings, record, recent games to replay.
    Profile,
    /// The puzzle trainer's page: rating, filters, recent tries (a puzzle plays on the game
    /// screen).
    Puzzles,
}

impl Screen {
    /// Reads a screen's name for `--screen` / `?screen=`.
    pub fn parse(s: &str) -> Option<Screen> {
        Some(match s {
            "title" => Screen::Title,
            "language" => Screen::Language,
            "lessons" => Screen::Lessons,
            "rules" => Screen::Rules,
            "settings" => Screen::Settings,
            "records" => Screen::Records,
            "puzzles" => Screen::Puzzles,
            _ => return None,
        })
    }
}

/// Orders the sets (every app and headless test app does this once).
pub fn plugin(app: &mut App) {
    app.configure_sets(Update, (AppSet::Input, AppSet::Apply, AppSet::Think, AppSet::View).chain());
    app.add_plugins(navigation::plugin);
}
