//! Ludus: Latrunculi and Alquerque, two ancient capture games, as a Bevy game.
//!
//! One plugin per file; screens are states ([`screens::Screen`]). The rules live in
//! `ludus-rules`, the computer player in `ludus-ai`.

pub mod ai;
pub mod analysis;
pub mod background;
pub mod board;
pub mod diagrams;
#[cfg(not(target_arch = "wasm32"))]
pub mod host;
pub mod hud;
pub mod i18n;
pub mod input;
pub mod launch;
pub mod online;
pub mod records;
pub mod save;
pub mod screens;
pub mod screenshot;
pub mod selection;
pub mod session;
pub mod settings;
pub mod sound;
pub mod storage;
pub mod tablebase;
pub mod theme;
pub mod warmup;
#[cfg(target_arch = "wasm32")]
pub mod web;

use bevy::prelude::*;

/// The order of the game's work within a frame.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSet {
    /// Pointer and keyboard.
    Input,
    /// Changes to the game.
    Apply,
    /// The computer player.
    Think,
    /// The board view.
    View,
}

/// Everything but rendering and windows: session, settings, saves, finished games' records, the
/// analysis's background work. Tests run it on `MinimalPlugins`.
pub fn core_plugin(app: &mut App) {
    app.configure_sets(Update, (AppSet::Input, AppSet::Apply, AppSet::Think, AppSet::View).chain());
    app.add_plugins((
        settings::plugin,
        session::plugin,
        save::plugin,
        records::plugin,
        analysis::engine_plugin,
    ));
}

/// The whole game, for a window.
pub fn game_plugin(app: &mut App) {
    core_plugin(app);
    app.add_plugins((
        bevy_egui::EguiPlugin::default(),
        screens::plugin,
        board::plugin,
        hud::plugin,
        input::plugin,
        ai::plugin,
        screenshot::plugin,
        sound::plugin,
        online::plugin,
        tablebase::plugin,
        analysis::plugin,
        warmup::plugin,
    ));
    #[cfg(not(target_arch = "wasm32"))]
    app.add_plugins(host::plugin);
    #[cfg(target_arch = "wasm32")]
    app.add_plugins((web::plugin, background::plugin));
}
