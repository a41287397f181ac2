//! Ludus: Latrunculi and Alquerque, two ancient capture games, as a Bevy game.
//!
//! The code lives in wings, each a folder that imports only the wings listed above it here (a
//! test of the game's test binary, `tests/client/layout.rs`, checks it): the interface's texts;
//! what the device gives; the app's states, sets and launch options; the game without drawing;
//! the board on screen; the network; the engine at work; the interface's toolkit; the screens;
//! the outer edge. The rules live in `ludus-rules`, the computer player in `ludus-ai`.

pub mod app;
pub mod board;
pub mod game;
pub mod i18n;
pub mod net;
pub mod platform;
pub mod players;
pub mod screens;
pub mod shell;
pub mod ui;

use bevy::prelude::*;

/// Everything but rendering and windows: the frame's order, the game, its documents, the
/// analysis's background work. Tests run it on `MinimalPlugins`.
pub fn core_plugin(app: &mut App) {
    app.add_plugins((app::plugin, game::plugin, players::analysis::plugin));
}

/// The whole game, for a window.
pub fn game_plugin(app: &mut App) {
    core_plugin(app);
    app.add_plugins((
        bevy_egui::EguiPlugin::default(),
        ui::plugin,
        screens::plugin,
        board::plugin,
        net::plugin,
        players::analysis::archive_plugin,
        players::computer::plugin,
        players::endgames::plugin,
        players::warmup::plugin,
        shell::plugin,
    ));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(platform::background::plugin);
}
