//! One look for every screen, drawn from the board's own materials: the chosen board theme
//! (Wood, Stone, High contrast) gives the panels their surface, the buttons their rim and
//! states, the text its colours and the accents their metal. egui draws every screen, so the
//! look is egui's [`egui::Visuals`] made here and set on the context whenever the theme changes.
//!
//! Every text colour is chosen against the surface it stands on with a contrast ratio of at
//! least 4.5:1 (WCAG AA); [`contrast`] measures it, and the tests hold each pair to it.

use crate::game::settings::Theme;
use bevy_egui::egui;
use egui::{Color32, CornerRadius, Shadow, Stroke};

/// The interface's colours for one board theme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Panels and the window's background behind menus.
    pub surface: Color32,
    /// Cards and windows raised above the panels.
    pub raised: Color32,
    /// A button at rest.
    pub button: Color32,
    /// A button under the pointer.
    pub button_hover: Color32,
    /// A button being pressed.
    pub button_pressed: Color32,
    /// The rim of buttons, cards and fields.
    pub rim: Color32,
    /// Text.
    pub text: Color32,
    /// Secondary text (descriptions, hints).
    pub text_weak: Color32,
    /// The accent: the selected choice's fill, headings' rule, focus.
    pub accent: Color32,
    /// Text on the accent.
    pub on_accent: Color32,
    /// A warning or a refusal.
    pub warn: Color32,
    /// A text field's well.
    pub field: Color32,
    /// Good news on the surface: connected, signed in.
    pub good: Color32,
    /// Something under way or to mind, on the surface: connecting, an opponent away, a password
    /// sent unencrypted.
    pub caution: Color32,
    /// The fill of a refusal's box (the server's, a document set aside).
    pub notice: Color32,
    /// Text on [`Palette::notice`].
    pub on_notice: Color32,
    /// The fill of a badge over the board: the spectators' count on a proposed move.
    pub badge: Color32,
    /// Text on [`Palette::badge`].
    pub on_badge: Color32,
    /// The fill of a jump's number over the board, while an Alquerque chain is played.
    pub jump: Color32,
    /// The rim of [`Palette::jump`] and its text.
    pub on_jump: Color32,
    /// The soft shadow under a piece drawn on a picture of the board.
    pub shadow: Color32,
}

/// The palette of a board theme.
pub fn palette(theme: Theme) -> Palette {
    let c = Color32::from_rgb;
    match theme {
        // Walnut panels, the board's light maple for the rims, parchment text, a gilt accent.
        Theme::Wood => Palette {
            surface: c(0x24, 0x19, 0x11),
            raised: c(0x30, 0x22, 0x17),
            button: c(0x4e, 0x33, 0x20),
            button_hover: c(0x63, 0x42, 0x2a),
            button_pressed: c(0x3a, 0x26, 0x18),
            rim: c(0xa8, 0x7b, 0x4f),
            text: c(0xf3, 0xe9, 0xd6),
            text_weak: c(0xd2, 0xbf, 0xa0),
            accent: c(0xd9, 0xa8, 0x3e),
            on_accent: c(0x24, 0x19, 0x11),
            warn: c(0xff, 0x9e, 0x80),
            field: c(0x1a, 0x12, 0x0c),
            good: c(0x6e, 0xc8, 0x6e),
            caution: c(0xe6, 0xbe, 0x5a),
            notice: c(0x5a, 0x28, 0x1e),
            on_notice: c(0xff, 0xff, 0xff),
            badge: c(0x28, 0x46, 0x78),
            on_badge: c(0xff, 0xff, 0xff),
            jump: c(0xfa, 0xc8, 0x40),
            on_jump: c(0x28, 0x14, 0x05),
            shadow: Color32::from_black_alpha(70),
        },
        // Slate panels, granite buttons, marble text, a pale bronze accent.
        Theme::Stone => Palette {
            surface: c(0x1b, 0x1e, 0x23),
            raised: c(0x25, 0x29, 0x30),
            button: c(0x3a, 0x40, 0x49),
            button_hover: c(0x4a, 0x51, 0x5c),
            button_pressed: c(0x2d, 0x32, 0x39),
            rim: c(0x8d, 0x95, 0xa0),
            text: c(0xee, 0xec, 0xe8),
            text_weak: c(0xbc, 0xc1, 0xc8),
            accent: c(0xc9, 0xa8, 0x72),
            on_accent: c(0x1b, 0x1e, 0x23),
            warn: c(0xff, 0xa0, 0x8a),
            field: c(0x13, 0x15, 0x19),
            good: c(0x7c, 0xcf, 0x7c),
            caution: c(0xe6, 0xc2, 0x6a),
            notice: c(0x5a, 0x28, 0x1e),
            on_notice: c(0xff, 0xff, 0xff),
            badge: c(0x28, 0x46, 0x78),
            on_badge: c(0xff, 0xff, 0xff),
            jump: c(0xfa, 0xc8, 0x40),
            on_jump: c(0x28, 0x14, 0x05),
            shadow: Color32::from_black_alpha(70),
        },
        // Black and white with a yellow accent: the strongest contrast.
        Theme::Contrast => Palette {
            surface: c(0x00, 0x00, 0x00),
            raised: c(0x0d, 0x0d, 0x0d),
            button: c(0x00, 0x00, 0x00),
            button_hover: c(0x26, 0x26, 0x26),
            button_pressed: c(0x40, 0x40, 0x40),
            rim: c(0xff, 0xff, 0xff),
            text: c(0xff, 0xff, 0xff),
            text_weak: c(0xe6, 0xe6, 0xe6),
            accent: c(0xff, 0xd4, 0x00),
            on_accent: c(0x00, 0x00, 0x00),
            warn: c(0xff, 0x8c, 0x8c),
            field: c(0x00, 0x00, 0x00),
            good: c(0x80, 0xff, 0x80),
            caution: c(0xff, 0xd4, 0x00),
            notice: c(0x60, 0x00, 0x00),
            on_notice: c(0xff, 0xff, 0xff),
            badge: c(0x00, 0x30, 0x80),
            on_badge: c(0xff, 0xff, 0xff),
            jump: c(0xff, 0xd4, 0x00),
            on_jump: c(0x00, 0x00, 0x00),
            shadow: Color32::from_black_alpha(70),
        },
    }
}

/// Colours that mean the same in every theme, on the dark panels every theme has: the
/// analysis's marks and graph, the end of a game. Each text colour here reads at 4.5:1 on every
/// theme's surface and raised panels (tested).
pub struct Marks {
    /// A blunder's mark ("??"), in the move list and on the graph.
    pub blunder: Color32,
    /// A mistake's mark ("?").
    pub mistake: Color32,
    /// A proven value (book or tables), and the engine's move.
    pub proven: Color32,
    /// A better move than the one played.
    pub better: Color32,
    /// A puzzle solved, a right move; a puzzle failed, a wrong move.
    pub right: Color32,
    pub wrong: Color32,
    /// The graph's well, its zero line, its curve and the position shown.
    pub graph_well: Color32,
    pub graph_axis: Color32,
    pub graph_curve: Color32,
    pub graph_cursor: Color32,
    /// The second side's area under the graph's zero line.
    pub graph_second: Color32,
    /// The shade over the part of the graph still to analyse.
    pub graph_pending: Color32,
    /// The veil over the window during the end-of-game moment.
    pub veil: Color32,
    /// The moment's band and title ink: the player won, lost, drew, or (two players, or a
    /// game watched) a side won; the reason's text under them.
    pub win: [Color32; 2],
    pub loss: [Color32; 2],
    pub draw: [Color32; 2],
    pub winner: [Color32; 2],
    pub reason: Color32,
    /// The winners' sparks: gold and laurel green.
    pub sparks: [Color32; 2],
}

/// The colours of [`Marks`].
pub const MARKS: Marks = Marks {
    blunder: Color32::from_rgb(255, 110, 95),
    mistake: Color32::from_rgb(240, 160, 40),
    proven: Color32::from_rgb(230, 200, 110),
    better: Color32::from_rgb(90, 200, 120),
    right: Color32::from_rgb(130, 210, 120),
    wrong: Color32::from_rgb(235, 130, 110),
    graph_well: Color32::from_gray(96),
    graph_axis: Color32::from_gray(150),
    graph_curve: Color32::from_rgb(235, 185, 60),
    graph_cursor: Color32::from_rgb(90, 170, 255),
    graph_second: Color32::from_gray(24),
    graph_pending: Color32::from_black_alpha(90),
    veil: Color32::from_black_alpha(110),
    win: [Color32::from_rgb(70, 48, 8), Color32::from_rgb(255, 215, 90)],
    loss: [Color32::from_rgb(48, 16, 16), Color32::from_rgb(230, 170, 160)],
    draw: [Color32::from_rgb(28, 32, 44), Color32::from_rgb(220, 225, 235)],
    winner: [Color32::from_rgb(40, 34, 20), Color32::from_rgb(250, 235, 200)],
    reason: Color32::WHITE,
    sparks: [Color32::from_rgb(255, 200, 60), Color32::from_rgb(120, 170, 70)],
};

/// An egui colour from a Bevy one (the board's palette).
pub fn egui_color(c: bevy::prelude::Color) -> Color32 {
    use bevy::color::ColorToPacked;
    let [r, g, b, a] = c.to_srgba().to_u8_array();
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

/// The relative luminance of a colour (WCAG 2), from 0 (black) to 1 (white).
pub fn luminance(c: Color32) -> f32 {
    let lin = |v: u8| {
        let v = f32::from(v) / 255.0;
        if v <= 0.040_45 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * lin(c.r()) + 0.7152 * lin(c.g()) + 0.0722 * lin(c.b())
}

/// The contrast ratio of two colours (WCAG 2), from 1 to 21.
pub fn contrast(a: Color32, b: Color32) -> f32 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// egui's visuals for a board theme: surfaces with depth (a rim and a soft shadow), buttons
/// whose rest, hover, pressed, selected and disabled states read apart.
pub fn visuals(theme: Theme) -> egui::Visuals {
    let p = palette(theme);
    let mut v = egui::Visuals::dark();
    let rim_width = if theme == Theme::Contrast { 2.0 } else { 1.0 };
    let round = CornerRadius::same(8);
    v.override_text_color = None;
    v.weak_text_color = Some(p.text_weak);
    v.panel_fill = p.surface;
    v.window_fill = p.raised;
    v.window_stroke = Stroke::new(rim_width, p.rim);
    v.window_corner_radius = CornerRadius::same(12);
    v.window_shadow = Shadow { offset: [0, 6], blur: 18, spread: 0, color: Color32::from_black_alpha(140) };
    v.popup_shadow = Shadow { offset: [0, 4], blur: 10, spread: 0, color: Color32::from_black_alpha(120) };
    v.menu_corner_radius = round;
    v.faint_bg_color = p.raised;
    v.extreme_bg_color = p.field;
    v.text_edit_bg_color = Some(p.field);
    v.code_bg_color = p.raised;
    v.warn_fg_color = p.warn;
    v.error_fg_color = p.warn;
    v.hyperlink_color = p.accent;
    v.selection.bg_fill = p.accent;
    v.selection.stroke = Stroke::new(1.5, p.on_accent);
    v.text_cursor.stroke = Stroke::new(2.0, p.accent);
    let w = &mut v.widgets;
    // Labels, separators, frames: the text on the surface.
    w.noninteractive.bg_fill = p.surface;
    w.noninteractive.weak_bg_fill = p.raised;
    w.noninteractive.bg_stroke = Stroke::new(1.0, p.rim.gamma_multiply(0.55));
    w.noninteractive.fg_stroke = Stroke::new(1.0, p.text);
    w.noninteractive.corner_radius = round;
    // Buttons at rest, under the pointer, pressed; "open" is a selected combo or menu.
    for (state, fill, rim_alpha, expansion) in [
        (&mut w.inactive, p.button, 0.75, 0.0),
        (&mut w.hovered, p.button_hover, 1.0, 1.0),
        (&mut w.active, p.button_pressed, 1.0, 0.0),
        (&mut w.open, p.button_pressed, 1.0, 0.0),
    ] {
        state.bg_fill = fill;
        state.weak_bg_fill = fill;
        state.bg_stroke = Stroke::new(rim_width, p.rim.gamma_multiply(rim_alpha));
        state.fg_stroke = Stroke::new(1.5, p.text);
        state.corner_radius = round;
        state.expansion = expansion;
    }
    w.hovered.bg_stroke = Stroke::new(rim_width + 0.5, p.accent);
    w.active.bg_stroke = Stroke::new(rim_width + 1.0, p.accent);
    v
}

/// A card: a raised surface with a rim and a soft shadow, for menus and dialogs.
pub fn card(ui: &egui::Ui) -> egui::Frame {
    let v = ui.visuals();
    egui::Frame::new()
        .fill(v.window_fill)
        .stroke(v.window_stroke)
        .corner_radius(v.window_corner_radius)
        .shadow(v.window_shadow)
        .inner_margin(egui::Margin::same(16))
}

/// Sets the theme's visuals on `ctx` (the screens' layout tests use it too).
pub fn apply(ctx: &egui::Context, theme: Theme) {
    let visuals = visuals(theme);
    ctx.global_style_mut(|style| style.visuals = visuals);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_reads_against_what_it_stands_on() {
        for theme in [Theme::Wood, Theme::Stone, Theme::Contrast] {
            let p = palette(theme);
            let pairs = [
                ("text on surface", p.text, p.surface),
                ("text on raised", p.text, p.raised),
                ("weak text on surface", p.text_weak, p.surface),
                ("weak text on raised", p.text_weak, p.raised),
                ("text on button", p.text, p.button),
                ("text on hovered button", p.text, p.button_hover),
                ("text on pressed button", p.text, p.button_pressed),
                ("text on accent", p.on_accent, p.accent),
                ("text in a field", p.text, p.field),
                ("warning on surface", p.warn, p.surface),
                ("accent on surface", p.accent, p.surface),
                ("warning on raised", p.warn, p.raised),
                ("accent on raised", p.accent, p.raised),
                ("good news on surface", p.good, p.surface),
                ("caution on surface", p.caution, p.surface),
                ("weak text (offline) on surface", p.text_weak, p.surface),
                ("text on a notice", p.on_notice, p.notice),
                ("text on a badge", p.on_badge, p.badge),
                ("text on a jump's number", p.on_jump, p.jump),
            ];
            for (what, fg, bg) in pairs {
                let ratio = contrast(fg, bg);
                assert!(ratio >= 4.5, "{theme:?}: {what} has a contrast of {ratio:.2}, below 4.5");
            }
        }
    }

    #[test]
    fn the_marks_read_on_every_theme_and_the_moment_on_its_band() {
        let m = &MARKS;
        for theme in [Theme::Wood, Theme::Stone, Theme::Contrast] {
            let p = palette(theme);
            for (what, fg) in [
                ("blunder", m.blunder),
                ("mistake", m.mistake),
                ("proven", m.proven),
                ("better", m.better),
                ("right", m.right),
                ("wrong", m.wrong),
            ] {
                for (on, bg) in [("surface", p.surface), ("raised", p.raised)] {
                    let ratio = contrast(fg, bg);
                    assert!(ratio >= 4.5, "{theme:?}: {what} on {on} has a contrast of {ratio:.2}");
                }
            }
        }
        for (what, [band, ink]) in [("win", m.win), ("loss", m.loss), ("draw", m.draw), ("winner", m.winner)]
        {
            let ratio = contrast(ink, band);
            assert!(ratio >= 4.5, "the {what} moment's title has a contrast of {ratio:.2}");
            let ratio = contrast(m.reason, band);
            assert!(ratio >= 4.5, "the {what} moment's reason has a contrast of {ratio:.2}");
        }
    }

    #[test]
    fn contrast_matches_the_standards_examples() {
        let ratio = contrast(Color32::WHITE, Color32::BLACK);
        assert!((ratio - 21.0).abs() < 0.01, "{ratio}");
        assert!((contrast(Color32::from_rgb(0x77, 0x77, 0x77), Color32::WHITE) - 4.48).abs() < 0.02);
    }
}
