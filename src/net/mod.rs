//! Online and LAN play without any screen: server addresses, the link to a server, the server's
//! views (lobby, profiles, leaderboard, archives, refusals), the player's intents turned into the
//! server's messages, the server's messages turned into the game's commands, going online at
//! start, hosting on this network.

pub mod address;
pub mod autostart;
pub mod connection;
pub mod intents;
#[cfg(not(target_arch = "wasm32"))]
pub mod lan;
pub mod servers;
pub mod sync;
pub mod views;

use bevy::prelude::*;

/// The connection and the online game on the board (tests run this headless).
pub fn plugin(app: &mut App) {
    app.add_plugins((
        connection::plugin,
        views::plugin,
        intents::plugin,
        sync::plugin,
        autostart::plugin,
        servers::plugin,
    ));
    #[cfg(not(target_arch = "wasm32"))]
    app.add_plugins(lan::plugin);
}
