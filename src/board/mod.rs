//! The board on screen, in files by job:
//!
//! - [`layout`]: where the board is in the window, squares to pixels and back (`BoardArea`,
//!   `BoardLayout`); read by the input and the screens too.
//! - [`meshes`]: the board and its pieces as 2D meshes, one shared material per colour.
//! - [`animation`]: a move in motion (slides, hops, captured pieces shrinking, bursts).
//! - [`overlay`]: the marks over the board (last move, selection, hint, captured pieces' traces,
//!   the computer thinking...).
//! - [`view`]: keeps the meshes in step with the session; the view's state (`BoardView`).
//! - [`input`]: the pointer, touch and keys on the board.
//! - [`palette`], [`materials`]: each theme's colours and its surfaces (made by code).
//!
//! Imports go one way: `layout` ← `meshes` ← `animation` ← `view` ← `overlay`, `input`.

pub mod animation;
pub mod input;
pub mod layout;
pub mod materials;
pub mod meshes;
pub mod overlay;
pub mod palette;
pub mod view;

pub use layout::{BoardArea, BoardLayout};
pub use overlay::Mark;
pub use view::{BoardView, Cursor, Drag};

use crate::app::{AppSet, Screen};
use bevy::prelude::*;

/// The board view and its input.
pub fn plugin(app: &mut App) {
    app.add_plugins((view_plugin, input::plugin));
}

/// The board drawn, without its input: the layout, meshes, animation and overlay.
pub fn view_plugin(app: &mut App) {
    let on_board = || in_state(Screen::Playing).or_else(in_state(Screen::Analysis));
    app.init_resource::<BoardArea>()
        .init_resource::<Drag>()
        .init_resource::<Cursor>()
        .init_resource::<BoardLayout>()
        .init_resource::<BoardView>()
        .init_resource::<crate::game::selection::Selected>()
        .init_resource::<meshes::SharedMaterials>()
        .init_resource::<overlay::Traces>()
        .add_systems(Startup, meshes::setup)
        .add_systems(Update, view::background)
        .add_systems(
            Update,
            (
                view::update_layout,
                view::sync_board,
                view::animate,
                overlay::sync_overlay,
                overlay::follow_captures,
                overlay::draw_traces,
                overlay::thinking,
                overlay::pulse_glow,
                view::drag_piece,
                view::draw_until_settled,
            )
                .chain()
                .in_set(AppSet::View)
                .run_if(on_board()),
        )
        // The panel gives the board its place in the interface's pass (in `PostUpdate`): the
        // board takes it in the same frame, before transforms propagate, so that no frame
        // draws it where it was (the first frame of a game, a resized window).
        .add_systems(
            PostUpdate,
            view::update_layout
                .after(bevy_egui::EguiPostUpdateSet::EndPass)
                .before(TransformSystems::Propagate)
                .run_if(on_board()),
        )
        .add_systems(OnExit(Screen::Playing), view::clear_board)
        .add_systems(OnExit(Screen::Analysis), view::clear_board);
}
