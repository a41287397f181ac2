//! The screens, one file each: the first start's language choice, title, settings, rules, lessons (with their diagrams), puzzles, the game (play and
//! the game-over card), online (the lobby and players' profiles), the analysis and "Analyse a game" (records).

// egui's AccessKit output is the desktop's (the browser's reader needs a document of its own).
#[cfg(not(target_arch = "wasm32"))]
pub mod access;
pub mod analysis;
pub mod diagrams;
pub mod game_over;
pub mod language;
pub mod lessons;
pub mod lobby;
pub mod play;
pub mod profile;
pub mod puzzles;
pub mod records;
pub mod rules;
pub mod settings;
pub mod title;

use crate::app::{AppSet, Screen};
use crate::board::view::{BoardArea, BoardLayout};
use crate::ui::UiSet;
use bevy::prelude::*;
use bevy_egui::{EguiPrimaryContextPass, egui};

/// Whether a window this size puts a screen's panel under the board (taller than wide) rather
/// than beside it.
pub(crate) fn portrait(viewport: egui::Rect) -> bool {
    viewport.width() < viewport.height() * 0.95
}

/// A share of the window for a screen's panel, between a least and a most (points).
#[derive(Clone, Copy)]
pub(crate) struct Share {
    pub share: f32,
    pub min: f32,
    pub max: f32,
}

/// The panel of a lesson or a puzzle: 40 % of a portrait window's height, 30 % of a wide one's
/// width.
pub(crate) const LESSON_PANEL: (Share, Share) =
    (Share { share: 0.4, min: 240.0, max: 460.0 }, Share { share: 0.3, min: 280.0, max: 420.0 });

/// Gives the board `new_area` (changed only when it moved, so that the board is laid out again
/// only then) and fits its layout into it at once: what the interface draws over the board in
/// this pass (the coordinates, spectators' counts) is then where the board is drawn in this
/// frame (its transform follows right after the pass, see `crate::board::view`).
pub(crate) fn give_board(area: &mut ResMut<BoardArea>, layout: &mut ResMut<BoardLayout>, new_area: Rect) {
    if area.0 != new_area {
        area.0 = new_area;
    }
    if !layout.fits(new_area) {
        **layout = layout.refit(new_area);
    }
}

/// Shows a screen's `panel` under the board in a portrait window (a `tall` share of its height)
/// or beside it (a `wide` share of its width), gives the board the rest of the window
/// ([`give_board`]), and draws the coordinates around the board when the player wants them.
pub(crate) fn panel_beside_board(
    root: &mut egui::Ui,
    id: &'static str,
    (tall, wide): (Share, Share),
    (area, layout): (&mut ResMut<BoardArea>, &mut ResMut<BoardLayout>),
    coordinates: bool,
    panel: impl FnOnce(&mut egui::Ui),
) {
    let ctx = root.ctx().clone();
    let viewport = ctx.viewport_rect();
    if portrait(viewport) {
        let height = (viewport.height() * tall.share).clamp(tall.min, tall.max);
        egui::Panel::bottom(id).exact_size(height).show(root, panel);
    } else {
        let width = (viewport.width() * wide.share).clamp(wide.min, wide.max);
        egui::Panel::right(id).exact_size(width).show(root, panel);
    }
    let rest = root.available_rect_before_wrap();
    give_board(area, layout, crate::ui::logical_rect(&ctx, rest));
    if coordinates {
        crate::ui::widgets::draw_coordinates(&ctx, layout);
    }
}

/// Every screen: each screen's own plugin, and the game screen's panels in their order (the
/// game's panel, a lesson's or a puzzle's, the spectators' counts, the end of the game).
pub fn plugin(app: &mut App) {
    #[cfg(not(target_arch = "wasm32"))]
    app.add_plugins(access::plugin);
    app.init_state::<Screen>()
        .init_resource::<play::OverCardHidden>()
        .init_resource::<play::TypedMove>()
        .init_resource::<game_over::EndMoment>()
        .add_plugins((
            title::plugin,
            settings::plugin,
            rules::plugin,
            language::plugin,
            lessons::plugin,
            lobby::plugin,
            profile::plugin,
            records::plugin,
        ))
        .add_systems(
            EguiPrimaryContextPass,
            (
                (
                    play::panel,
                    lessons::lesson_panel,
                    puzzles::puzzle_panel,
                    play::ghost_counts,
                    game_over::end_moment,
                    game_over::game_over_card,
                )
                    .chain()
                    .run_if(in_state(Screen::Playing)),
                analysis::analysis_screen.run_if(in_state(Screen::Analysis)),
                puzzles::puzzles_screen.run_if(in_state(Screen::Puzzles)),
            )
                .in_set(UiSet::Screens),
        )
        .add_systems(
            Update,
            (analysis::keys.in_set(AppSet::Input), analysis::show_selected.in_set(AppSet::Apply))
                .run_if(in_state(Screen::Analysis)),
        )
        .add_systems(
            Update,
            puzzles::drive.after(AppSet::Apply).before(AppSet::Think).run_if(in_state(Screen::Playing)),
        )
        .add_systems(OnExit(Screen::Playing), puzzles::leave);
}
