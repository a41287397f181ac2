//! Where the board is on screen: the area the interface leaves it, and the geometry that maps
//! squares to pixels and back. The board's meshes, the pointer and keys, and the screens that draw
//! over the board (coordinates, counts) all read it; it reads nothing of the board's drawing.

use bevy::prelude::*;
use ludus_rules::Square;

/// The part of the window (logical pixels, origin top left) the board may use; set by the
/// interface after it lays out its panels.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct BoardArea(pub Rect);

impl Default for BoardArea {
    fn default() -> Self {
        BoardArea(Rect::new(0.0, 0.0, 1280.0, 800.0))
    }
}

/// Where the board is on screen: used to draw it, to read taps and to place labels.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct BoardLayout {
    /// The board's centre in logical pixels (origin top left).
    pub center: Vec2,
    /// One square (or the distance between two points) in logical pixels.
    pub cell: f32,
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// Whether the board is turned (the second side at the bottom).
    pub flipped: bool,
    /// Whether this is the Alquerque board of points.
    pub points: bool,
}

impl Default for BoardLayout {
    fn default() -> Self {
        BoardLayout {
            center: Vec2::new(640.0, 400.0),
            cell: 60.0,
            width: 12,
            height: 8,
            flipped: false,
            points: false,
        }
    }
}

impl BoardLayout {
    /// The layout that fits a board of `width` x `height` into `area`.
    pub fn fit(area: Rect, width: u8, height: u8, points: bool, flipped: bool) -> BoardLayout {
        // Latrunculi squares span `width` cells; Alquerque points span `width - 1` gaps. Keep a
        // margin for the frame and the coordinates.
        let (span_w, span_h) = if points {
            (f32::from(width - 1) + 1.7, f32::from(height - 1) + 1.7)
        } else {
            (f32::from(width) + 1.2, f32::from(height) + 1.2)
        };
        let cell = (area.width() / span_w).min(area.height() / span_h).max(4.0);
        BoardLayout { center: area.center(), cell, width, height, flipped, points }
    }

    /// The same board fitted into `area`.
    pub fn refit(&self, area: Rect) -> BoardLayout {
        BoardLayout::fit(area, self.width, self.height, self.points, self.flipped)
    }

    /// Whether this layout is the one [`BoardLayout::fit`] gives for `area`: false when the
    /// interface has given the board another place since the layout was made.
    pub fn fits(&self, area: Rect) -> bool {
        *self == self.refit(area)
    }

    /// A square's centre in board units (y up, the board's centre at 0).
    pub fn local(&self, sq: Square) -> Vec2 {
        let f = f32::from(sq.file(self.width)) - f32::from(self.width - 1) / 2.0;
        let r = f32::from(sq.rank(self.width)) - f32::from(self.height - 1) / 2.0;
        if self.flipped { Vec2::new(-f, -r) } else { Vec2::new(f, r) }
    }

    /// A point in board units to logical window pixels.
    pub fn local_to_screen(&self, p: Vec2) -> Vec2 {
        Vec2::new(self.center.x + p.x * self.cell, self.center.y - p.y * self.cell)
    }

    /// A square's centre in logical window pixels.
    pub fn to_screen(&self, sq: Square) -> Vec2 {
        self.local_to_screen(self.local(sq))
    }

    /// Logical window pixels to board units.
    pub fn screen_to_local(&self, screen: Vec2) -> Vec2 {
        Vec2::new((screen.x - self.center.x) / self.cell, -(screen.y - self.center.y) / self.cell)
    }

    /// The square (or point) under a screen position, if any.
    pub fn square_at(&self, screen: Vec2) -> Option<Square> {
        let p = self.screen_to_local(screen);
        let (p_f, p_r) = if self.flipped { (-p.x, -p.y) } else { (p.x, p.y) };
        let f = (p_f + f32::from(self.width - 1) / 2.0).round();
        let r = (p_r + f32::from(self.height - 1) / 2.0).round();
        if f < 0.0 || r < 0.0 || f >= f32::from(self.width) || r >= f32::from(self.height) {
            return None;
        }
        let sq = Square::new(f as u8, r as u8, self.width);
        // Alquerque: a point answers within a generous radius, not in the corners between.
        if self.points && (self.local(sq) - p).length() > 0.48 {
            return None;
        }
        Some(sq)
    }

    /// The piece's radius in board units.
    pub fn piece_radius(&self) -> f32 {
        if self.points { 0.36 } else { 0.42 }
    }
}
