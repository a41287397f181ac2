//! Colours of the board, the pieces and the highlights for each theme. The two sides differ in
//! lightness as well as hue, so that colour-blind players tell them apart at a glance.

use crate::board::materials::{Grain, Surfaces};
use crate::game::settings::Theme;
use bevy::prelude::*;

/// Every colour the board view uses.
#[derive(Clone, Copy, Debug)]
pub struct Colors {
    pub background: Color,
    pub frame: Color,
    pub light_square: Color,
    pub dark_square: Color,
    pub line: Color,
    pub point: Color,
    /// The pale groove Alquerque's lines and points are inlaid in (none: plain lines).
    pub inlay: Option<Color>,
    /// What the board is made of (none: flat colours).
    pub surfaces: Option<Surfaces>,
    /// `[first, second]` piece rims.
    pub rim: [Color; 2],
    /// `[first, second]` piece bodies.
    pub body: [Color; 2],
    /// `[first, second]` inner ring marks.
    pub mark: [Color; 2],
    /// Alquerque's white pieces: rim, body, mark (its black pieces use the Latrunculi ones).
    pub white: [Color; 3],
    pub emblem: Color,
    pub selected: Color,
    pub destination: Color,
    pub capture_destination: Color,
    pub glow: Color,
    /// The last move's origin and destination (filled) and path: unlike the selection's ring.
    pub last_move: Color,
    pub hint: Color,
    /// The move played from the position shown (the analysis), beside the engine's.
    pub played: Color,
    /// Spectators' proposals.
    pub proposal: Color,
    /// The dots that say the computer (or the hint) is thinking, beside the board.
    pub thinking: Color,
    pub danger: Color,
    /// The keyboard's cursor.
    pub focus: Color,
}

impl Colors {
    /// A piece's rim, body and inner mark: Latrunculi's red and black, or Alquerque's white
    /// and black. A king's rim is gold.
    pub fn piece(&self, alquerque: bool, side: ludus_rules::Side, king: bool) -> [Color; 3] {
        let s = side.index();
        let mut c = if alquerque && s == 0 { self.white } else { [self.rim[s], self.body[s], self.mark[s]] };
        if king {
            c[0] = self.emblem;
        }
        c
    }

    /// The colours of a theme.
    pub fn of(theme: Theme) -> Colors {
        let red_body = Color::srgb(0.80, 0.27, 0.20);
        let black_body = Color::srgb(0.12, 0.12, 0.14);
        match theme {
            Theme::Wood => Colors::wood(red_body, black_body),
            Theme::Stone => Colors::stone(red_body, black_body),
            Theme::Contrast => Colors::contrast(),
        }
    }

    /// Wood: walnut and maple, grained.
    fn wood(red_body: Color, black_body: Color) -> Colors {
        Colors {
            background: Color::srgb(0.16, 0.13, 0.11),
            frame: Color::srgb(0.36, 0.22, 0.12),
            light_square: Color::srgb(0.87, 0.74, 0.54),
            dark_square: Color::srgb(0.76, 0.60, 0.40),
            line: Color::srgb(0.30, 0.18, 0.09),
            point: Color::srgb(0.30, 0.18, 0.09),
            inlay: Some(Color::srgb(0.95, 0.86, 0.68)),
            surfaces: Some(Surfaces {
                frame: Grain::Wood,
                light: Grain::Wood,
                dark: Grain::Wood,
                dark_turned: true,
            }),
            rim: [Color::srgb(0.98, 0.93, 0.84), Color::srgb(0.02, 0.02, 0.03)],
            body: [red_body, black_body],
            mark: [Color::srgb(0.99, 0.88, 0.76), Color::srgb(0.62, 0.62, 0.66)],
            white: [
                Color::srgb(0.25, 0.17, 0.10),
                Color::srgb(0.97, 0.94, 0.87),
                Color::srgb(0.72, 0.62, 0.50),
            ],
            emblem: Color::srgb(0.98, 0.80, 0.25),
            selected: Color::srgb(0.15, 0.55, 0.95),
            destination: Color::srgba(0.10, 0.35, 0.80, 0.75),
            capture_destination: Color::srgba(0.85, 0.10, 0.55, 0.85),
            glow: Color::srgba(1.0, 0.85, 0.2, 0.9),
            last_move: Color::srgba(0.80, 0.88, 0.10, 0.55),
            hint: Color::srgba(0.10, 0.75, 0.35, 0.9),
            played: Color::srgba(0.55, 0.75, 1.0, 0.85),
            proposal: Color::srgba(0.62, 0.80, 1.0, 0.6),
            thinking: Color::srgb(0.95, 0.86, 0.68),
            danger: Color::srgba(0.95, 0.10, 0.10, 0.95),
            focus: Color::srgb(0.0, 0.80, 0.95),
        }
    }

    /// Stone: slate and marble.
    fn stone(red_body: Color, black_body: Color) -> Colors {
        Colors {
            background: Color::srgb(0.12, 0.13, 0.15),
            frame: Color::srgb(0.30, 0.31, 0.34),
            light_square: Color::srgb(0.82, 0.82, 0.80),
            dark_square: Color::srgb(0.64, 0.65, 0.66),
            line: Color::srgb(0.22, 0.23, 0.26),
            point: Color::srgb(0.22, 0.23, 0.26),
            inlay: Some(Color::srgb(0.93, 0.93, 0.91)),
            surfaces: Some(Surfaces {
                frame: Grain::Granite,
                light: Grain::Marble,
                dark: Grain::Granite,
                dark_turned: false,
            }),
            rim: [Color::srgb(0.99, 0.96, 0.90), Color::srgb(0.02, 0.02, 0.03)],
            body: [red_body, black_body],
            mark: [Color::srgb(0.99, 0.88, 0.76), Color::srgb(0.62, 0.62, 0.66)],
            white: [
                Color::srgb(0.20, 0.20, 0.22),
                Color::srgb(0.97, 0.96, 0.93),
                Color::srgb(0.70, 0.70, 0.72),
            ],
            emblem: Color::srgb(0.98, 0.80, 0.25),
            selected: Color::srgb(0.15, 0.55, 0.95),
            destination: Color::srgba(0.10, 0.35, 0.80, 0.75),
            capture_destination: Color::srgba(0.85, 0.10, 0.55, 0.85),
            glow: Color::srgba(1.0, 0.80, 0.1, 0.9),
            last_move: Color::srgba(0.80, 0.88, 0.10, 0.55),
            hint: Color::srgba(0.10, 0.70, 0.35, 0.9),
            played: Color::srgba(0.55, 0.75, 1.0, 0.85),
            proposal: Color::srgba(0.62, 0.80, 1.0, 0.6),
            thinking: Color::srgb(0.93, 0.93, 0.91),
            danger: Color::srgba(0.95, 0.10, 0.10, 0.95),
            focus: Color::srgb(0.0, 0.80, 0.95),
        }
    }

    /// Contrast: black and white, the strongest.
    fn contrast() -> Colors {
        Colors {
            background: Color::BLACK,
            frame: Color::srgb(0.5, 0.5, 0.5),
            light_square: Color::srgb(0.95, 0.95, 0.95),
            dark_square: Color::srgb(0.72, 0.72, 0.72),
            line: Color::BLACK,
            point: Color::BLACK,
            inlay: None,
            surfaces: None,
            rim: [Color::BLACK, Color::srgb(1.0, 1.0, 1.0)],
            // Red stays red (the game calls that side Red), strong against the pale squares,
            // with a black rim and a white mark.
            body: [Color::srgb(0.86, 0.0, 0.0), Color::BLACK],
            mark: [Color::srgb(1.0, 1.0, 1.0), Color::srgb(1.0, 0.85, 0.0)],
            white: [Color::BLACK, Color::srgb(1.0, 1.0, 1.0), Color::srgb(0.4, 0.4, 0.4)],
            emblem: Color::srgb(1.0, 0.75, 0.0),
            selected: Color::srgb(0.0, 0.45, 1.0),
            destination: Color::srgba(0.0, 0.35, 1.0, 0.9),
            capture_destination: Color::srgba(0.9, 0.0, 0.6, 0.95),
            glow: Color::srgba(1.0, 0.6, 0.0, 1.0),
            last_move: Color::srgba(0.45, 0.0, 0.80, 0.7),
            hint: Color::srgba(0.0, 0.7, 0.2, 1.0),
            played: Color::srgba(0.0, 0.75, 1.0, 1.0),
            proposal: Color::srgba(0.0, 0.75, 1.0, 0.8),
            thinking: Color::WHITE,
            danger: Color::srgba(1.0, 0.0, 0.0, 1.0),
            focus: Color::srgb(1.0, 0.0, 1.0),
        }
    }
}
