//! The game's outer edge: the browser page's view of the game (wasm), screenshots from the
//! command line, sound effects.

pub mod screenshot;
pub mod sound;
#[cfg(target_arch = "wasm32")]
pub mod web;

use bevy::prelude::*;

/// Screenshots, sound and, in the browser, the page's view of the game.
pub fn plugin(app: &mut App) {
    app.add_plugins((screenshot::plugin, sound::plugin));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(web::plugin);
}
