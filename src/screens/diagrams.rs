//! Small board diagrams for the rules page, drawn with egui's painter in the board theme's
//! colours.

use crate::board::palette::Colors;
use crate::game::settings::Theme;
use crate::i18n::Lang;
use crate::ui::theme::egui_color;
use bevy_egui::egui::{self, Color32, Pos2, Stroke, Vec2};
use ludus_rules::Side;

/// A diagram's colours, from the board theme: the squares, the lines, the pieces (rim, body) of
/// each side in each game, a king's emblem, the move's arrow and the captured piece's cross.
pub struct Ink {
    light: Color32,
    dark: Color32,
    line: Color32,
    /// `[latrunculi, alquerque][side]`: rim and body.
    pieces: [[[Color32; 2]; 2]; 2],
    emblem: Color32,
    arrow: Color32,
    gone: Color32,
}

impl Ink {
    /// The colours of the board theme `theme`.
    pub fn of(theme: Theme) -> Ink {
        let c = Colors::of(theme);
        let piece = |alquerque: bool, side: Side| {
            let [rim, body, _] = c.piece(alquerque, side, false);
            [egui_color(rim), egui_color(body)]
        };
        Ink {
            light: egui_color(c.light_square),
            dark: egui_color(c.dark_square),
            line: egui_color(c.line),
            pieces: [false, true]
                .map(|alquerque| [Side::First, Side::Second].map(|side| piece(alquerque, side))),
            emblem: egui_color(c.emblem),
            arrow: egui_color(c.selected),
            gone: egui_color(c.danger),
        }
    }
}

struct Grid {
    origin: Pos2,
    cell: f32,
    height: u8,
}

impl Grid {
    fn at(&self, file: u8, rank: u8) -> Pos2 {
        self.origin
            + Vec2::new(
                (f32::from(file) + 0.5) * self.cell,
                (f32::from(self.height - rank) - 0.5) * self.cell,
            )
    }
}

/// A Latrunculi piece (`red`: the first side's), or with `alquerque` an Alquerque one.
fn piece(p: &egui::Painter, ink: &Ink, at: Pos2, r: f32, (alquerque, red): (bool, bool), king: bool) {
    let side = if red { 0 } else { 1 };
    let [rim, body] = ink.pieces[usize::from(alquerque)][side];
    p.circle_filled(at, r, rim);
    p.circle_filled(at, r * 0.86, body);
    if king {
        p.text(at, egui::Align2::CENTER_CENTER, "♔", egui::FontId::proportional(r * 1.2), ink.emblem);
    }
}

fn arrow(p: &egui::Painter, ink: &Ink, from: Pos2, to: Pos2) {
    p.arrow(from, to - from, Stroke::new(3.0, ink.arrow));
}

fn cross(p: &egui::Painter, ink: &Ink, at: Pos2, r: f32) {
    let s = Stroke::new(3.0, ink.gone);
    p.line_segment([at + Vec2::new(-r, -r), at + Vec2::new(r, r)], s);
    p.line_segment([at + Vec2::new(-r, r), at + Vec2::new(r, -r)], s);
}

fn squares(ui: &mut egui::Ui, ink: &Ink, w: u8, h: u8, caption: &str) -> (egui::Painter, Grid) {
    let cell = 34.0;
    ui.label(egui::RichText::new(caption).italics());
    let (rect, _) =
        ui.allocate_exact_size(Vec2::new(f32::from(w) * cell, f32::from(h) * cell), egui::Sense::hover());
    let p = ui.painter_at(rect);
    for f in 0..w {
        for r in 0..h {
            let min = rect.min + Vec2::new(f32::from(f) * cell, f32::from(h - 1 - r) * cell);
            let color = if (f + r) % 2 == 0 { ink.dark } else { ink.light };
            p.rect_filled(egui::Rect::from_min_size(min, Vec2::splat(cell)), 0.0, color);
        }
    }
    (p, Grid { origin: rect.min, cell, height: h })
}

/// Red slides to close the line; the black soldier between is removed.
pub fn sandwich(ui: &mut egui::Ui, lang: Lang, ink: &Ink) {
    let (p, g) = squares(ui, ink, 5, 3, lang.t("rules-diagram-sandwich"));
    let r = g.cell * 0.4;
    piece(&p, ink, g.at(0, 1), r, (false, true), false);
    piece(&p, ink, g.at(1, 1), r, (false, false), false);
    piece(&p, ink, g.at(2, 1), r, (false, true), false);
    arrow(&p, ink, g.at(2, 2), g.at(2, 1) + Vec2::new(0.0, -r * 0.2));
    cross(&p, ink, g.at(1, 1), r * 0.7);
    ui.add_space(8.0);
}

/// The black king in a corner with no free neighbour.
pub fn immobilised_king(ui: &mut egui::Ui, lang: Lang, ink: &Ink) {
    let (p, g) = squares(ui, ink, 4, 3, lang.t("rules-diagram-king"));
    let r = g.cell * 0.4;
    piece(&p, ink, g.at(0, 2), r, (false, false), true);
    piece(&p, ink, g.at(0, 1), r, (false, true), false);
    piece(&p, ink, g.at(1, 2), r, (false, true), false);
    arrow(&p, ink, g.at(3, 2), g.at(1, 2) + Vec2::new(r, 0.0));
    p.circle_stroke(g.at(0, 2), r * 1.2, Stroke::new(3.0, ink.gone));
    ui.add_space(8.0);
}

/// A two-jump Alquerque chain that turns.
pub fn chain(ui: &mut egui::Ui, lang: Lang, ink: &Ink) {
    let cell = 40.0;
    ui.label(egui::RichText::new(lang.t("rules-diagram-chain")).italics());
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(cell * 5.0), egui::Sense::hover());
    let p = ui.painter_at(rect);
    p.rect_filled(rect, 4.0, ink.light);
    let at = |f: i32, r: i32| rect.min + Vec2::new((f as f32 + 0.5) * cell, (4.5 - r as f32) * cell);
    let s = Stroke::new(2.0, ink.line);
    for i in 0..5 {
        p.line_segment([at(i, 0), at(i, 4)], s);
        p.line_segment([at(0, i), at(4, i)], s);
    }
    for (a, b) in [
        ((0, 0), (4, 4)),
        ((0, 4), (4, 0)),
        ((0, 2), (2, 4)),
        ((2, 4), (4, 2)),
        ((4, 2), (2, 0)),
        ((2, 0), (0, 2)),
    ] {
        p.line_segment([at(a.0, a.1), at(b.0, b.1)], s);
    }
    let r = cell * 0.32;
    piece(&p, ink, at(0, 0), r, (true, true), false);
    piece(&p, ink, at(1, 1), r, (true, false), false);
    piece(&p, ink, at(2, 3), r, (true, false), false);
    // a1xc3xc5: over b2, then turn north over c4.
    arrow(&p, ink, at(0, 0), at(2, 2));
    arrow(&p, ink, at(2, 2), at(2, 4));
    cross(&p, ink, at(1, 1), r * 0.7);
    cross(&p, ink, at(2, 3), r * 0.7);
    ui.add_space(8.0);
}
