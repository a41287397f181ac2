//! The board and the announcements for screen readers on the desktop, in egui's AccessKit tree
//! (egui owns the window's tree): the board as a grid, a row a rank from the top, each cell named
//! with its square and what stands on it ("d4, red soldier") and placed where it is drawn; and a
//! polite live region that reads the newest announcement (`ui::announce`). Nothing is drawn: a
//! sighted player sees no change.

use crate::app::Screen;
use crate::board::layout::BoardLayout;
use crate::game::describe;
use crate::game::session::Session;
use crate::game::settings::Settings;
use crate::i18n::Lang;
use crate::ui::announce::Announcement;
use crate::ui::widgets::variant_key;
use bevy::prelude::*;
use bevy_egui::egui::accesskit::{Live, Role};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use ludus_rules::{AnyPosition, Square};

/// What the tree shows this frame.
pub struct AccessView<'a> {
    pub lang: Lang,
    /// The position on the board and where the board is, on the game screen.
    pub board: Option<(&'a AnyPosition, &'a BoardLayout)>,
    /// The newest announcement, and its number.
    pub announcement: &'a str,
    pub serial: u64,
}

fn bounds(rect: egui::Rect) -> egui::accesskit::Rect {
    egui::accesskit::Rect {
        x0: rect.min.x.into(),
        y0: rect.min.y.into(),
        x1: rect.max.x.into(),
        y1: rect.max.y.into(),
    }
}

/// Adds the board's grid and the live region to `ctx`'s AccessKit tree (when AccessKit is on).
pub fn access_nodes(ctx: &egui::Context, view: &AccessView) {
    let layer = egui::Area::new(egui::Id::new("access"))
        .order(egui::Order::Background)
        .interactable(false)
        .fixed_pos(egui::Pos2::ZERO);
    layer.show(ctx, |ui| {
        // A node of its own for each announcement: screen readers speak a live region when it
        // appears or changes, so the same words said twice are heard twice; the text is both
        // the label and the value (macOS reads the value).
        let live = ui.new_child(egui::UiBuilder::new().id_salt(("announcement", view.serial)));
        ctx.accesskit_node_builder(live.unique_id(), |node| {
            node.set_role(Role::Status);
            node.set_live(Live::Polite);
            node.set_label(view.announcement);
            node.set_value(view.announcement);
        });
        let Some((pos, layout)) = view.board else { return };
        let variant = pos.variant();
        let (w, h) = (pos.width(), pos.height());
        let mut grid = ui.new_child(egui::UiBuilder::new().id_salt("board"));
        let z = ctx.zoom_factor();
        let half = egui::vec2(layout.cell, layout.cell) / (2.0 * z);
        let cell_rect = |sq: Square| {
            let c = crate::ui::to_points(ctx, layout.to_screen(sq));
            egui::Rect::from_min_max(c - half, c + half)
        };
        let whole = cell_rect(Square::new(0, 0, w)).union(cell_rect(Square::new(w - 1, h - 1, w)));
        let label = view.lang.fmt("a11y-board", [("game", view.lang.text(variant_key(variant)).into())]);
        ctx.accesskit_node_builder(grid.unique_id(), |node| {
            node.set_role(Role::Grid);
            node.set_label(label);
            node.set_row_count(usize::from(h));
            node.set_column_count(usize::from(w));
            node.set_bounds(bounds(whole));
        });
        for row in 0..h {
            let rank = h - 1 - row;
            let mut line = grid.new_child(egui::UiBuilder::new().id_salt(("rank", rank)));
            ctx.accesskit_node_builder(line.unique_id(), |node| {
                node.set_role(Role::Row);
                node.set_row_index(usize::from(row));
            });
            for file in 0..w {
                let sq = Square::new(file, rank, w);
                let cell = line.new_child(egui::UiBuilder::new().id_salt(("square", file)));
                let text = describe::square_text(view.lang, pos, sq);
                // Everything the node needs is read first: the builder holds the context's lock.
                let place = bounds(cell_rect(sq));
                ctx.accesskit_node_builder(cell.unique_id(), |node| {
                    node.set_role(Role::GridCell);
                    node.set_label(text);
                    node.set_row_index(usize::from(row));
                    node.set_column_index(usize::from(file));
                    node.set_bounds(place);
                });
            }
        }
    });
}

/// The tree of this frame: the board on the game screen, the live region everywhere.
fn access_tree(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    announcement: Res<Announcement>,
    session: Option<Res<Session>>,
    layout: Option<Res<BoardLayout>>,
    screen: Res<State<Screen>>,
    requested: Option<Res<bevy::a11y::AccessibilityRequested>>,
) -> Result {
    // Nothing to build until an assistive technology asks for the tree.
    if !requested.is_some_and(|r| r.get()) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let pos = session.as_ref().map(|s| s.game.position());
    let board = match (*screen.get(), pos.as_ref(), layout.as_deref()) {
        (Screen::Playing, Some(pos), Some(layout)) if layout.width == pos.width() => Some((pos, layout)),
        _ => None,
    };
    let view = AccessView {
        lang: settings.lang,
        board,
        announcement: &announcement.text,
        serial: announcement.serial,
    };
    access_nodes(ctx, &view);
    Ok(())
}

/// The screen reader's view of the board and the announcements.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, access_tree.in_set(crate::ui::UiSet::Screens));
}
