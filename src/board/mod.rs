//! The board on screen: its view and animations (2D meshes), the colours and surfaces (wood,
//! marble, granite, made by code) of each theme, and the pointer and keyboard on it.

pub mod input;
pub mod materials;
pub mod palette;
pub mod view;

use bevy::prelude::*;

/// The board view and its input.
pub fn plugin(app: &mut App) {
    app.add_plugins((view::plugin, input::plugin));
}
