//! Small board diagrams for the rules page, drawn with egui's painter.

use crate::i18n::Lang;
use bevy_egui::egui::{self, Color32, Pos2, Stroke, Vec2};

const LIGHT: Color32 = Color32::from_rgb(222, 189, 138);
const DARK: Color32 = Color32::from_rgb(194, 153, 102);
const LINE: Color32 = Color32::from_rgb(77, 46, 23);
const RED: Color32 = Color32::from_rgb(204, 69, 51);
const BLACK: Color32 = Color32::from_rgb(31, 31, 36);
const MOVE: Color32 = Color32::from_rgb(26, 115, 217);
const GONE: Color32 = Color32::from_rgb(230, 30, 30);

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

fn piece(p: &egui::Painter, at: Pos2, r: f32, red: bool, king: bool) {
    let (rim, body) = if red { (Color32::from_rgb(250, 237, 214), RED) } else { (Color32::BLACK, BLACK) };
    p.circle_filled(at, r, rim);
    p.circle_filled(at, r * 0.86, body);
    if king {
        p.text(
            at,
            egui::Align2::CENTER_CENTER,
            "♔",
            egui::FontId::proportional(r * 1.2),
            Color32::from_rgb(250, 204, 64),
        );
    }
}

fn arrow(p: &egui::Painter, from: Pos2, to: Pos2) {
    p.arrow(from, to - from, Stroke::new(3.0, MOVE));
}

fn cross(p: &egui::Painter, at: Pos2, r: f32) {
    let s = Stroke::new(3.0, GONE);
    p.line_segment([at + Vec2::new(-r, -r), at + Vec2::new(r, r)], s);
    p.line_segment([at + Vec2::new(-r, r), at + Vec2::new(r, -r)], s);
}

fn squares(ui: &mut egui::Ui, w: u8, h: u8, caption: &str) -> (egui::Painter, Grid) {
    let cell = 34.0;
    ui.label(egui::RichText::new(caption).italics());
    let (rect, _) =
        ui.allocate_exact_size(Vec2::new(f32::from(w) * cell, f32::from(h) * cell), egui::Sense::hover());
    let p = ui.painter_at(rect);
    for f in 0..w {
        for r in 0..h {
            let min = rect.min + Vec2::new(f32::from(f) * cell, f32::from(h - 1 - r) * cell);
            let color = if (f + r) % 2 == 0 { DARK } else { LIGHT };
            p.rect_filled(egui::Rect::from_min_size(min, Vec2::splat(cell)), 0.0, color);
        }
    }
    (p, Grid { origin: rect.min, cell, height: h })
}

/// Red slides to close the line; the black soldier between is removed.
pub fn sandwich(ui: &mut egui::Ui, lang: Lang) {
    let (p, g) = squares(ui, 5, 3, lang.t("rules-diagram-sandwich"));
    let r = g.cell * 0.4;
    piece(&p, g.at(0, 1), r, true, false);
    piece(&p, g.at(1, 1), r, false, false);
    piece(&p, g.at(2, 1), r, true, false);
    arrow(&p, g.at(2, 2), g.at(2, 1) + Vec2::new(0.0, -r * 0.2));
    cross(&p, g.at(1, 1), r * 0.7);
    ui.add_space(8.0);
}

/// The black king in a corner with no free neighbour.
pub fn immobilised_king(ui: &mut egui::Ui, lang: Lang) {
    let (p, g) = squares(ui, 4, 3, lang.t("rules-diagram-king"));
    let r = g.cell * 0.4;
    piece(&p, g.at(0, 2), r, false, true);
    piece(&p, g.at(0, 1), r, true, false);
    piece(&p, g.at(1, 2), r, true, false);
    arrow(&p, g.at(3, 2), g.at(1, 2) + Vec2::new(r, 0.0));
    p.circle_stroke(g.at(0, 2), r * 1.2, Stroke::new(3.0, GONE));
    ui.add_space(8.0);
}

/// A two-jump Alquerque chain that turns.
pub fn chain(ui: &mut egui::Ui, lang: Lang) {
    let cell = 40.0;
    ui.label(egui::RichText::new(lang.t("rules-diagram-chain")).italics());
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(cell * 5.0), egui::Sense::hover());
    let p = ui.painter_at(rect);
    p.rect_filled(rect, 4.0, LIGHT);
    let at = |f: i32, r: i32| rect.min + Vec2::new((f as f32 + 0.5) * cell, (4.5 - r as f32) * cell);
    let s = Stroke::new(2.0, LINE);
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
    let white = |pos: Pos2| {
        p.circle_filled(pos, r, Color32::from_rgb(40, 30, 20));
        p.circle_filled(pos, r * 0.86, Color32::from_rgb(250, 244, 230));
    };
    white(at(0, 0));
    piece(&p, at(1, 1), r, false, false);
    piece(&p, at(2, 3), r, false, false);
    // a1xc3xc5: over b2, then turn north over c4.
    arrow(&p, at(0, 0), at(2, 2));
    arrow(&p, at(2, 2), at(2, 4));
    cross(&p, at(1, 1), r * 0.7);
    cross(&p, at(2, 3), r * 0.7);
    ui.add_space(8.0);
}
