//! Where the board is on screen: the area the interface leaves it, and the geometry that maps
//! squares to pixels and back. The board's meshes, the pointer and keys, and the screens that draw
//! over the board (coordinates, counts) all read it; it reads nothing of the board's drawing.

use bevy::prelude::*;
use ludus_rules::Square;

/// How much larger the squares must be for a long board to be drawn a quarter turn round.
const QUARTER_TURN_GAIN: f32 = 1.15;

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
    /// Whether the board is drawn a quarter turn clockwise: its files run down the screen and
    /// its ranks across (the first rank on the left), for a long board in a tall area.
    pub quarter_turn: bool,
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
            quarter_turn: false,
        }
    }
}

impl BoardLayout {
    /// The layout that fits a board of `width` x `height` into `area`: a long board is drawn a
    /// quarter turn round where that gives it clearly larger squares (a phone held upright).
    pub fn fit(area: Rect, width: u8, height: u8, points: bool, flipped: bool) -> BoardLayout {
        // Latrunculi squares span `width` cells; Alquerque points span `width - 1` gaps. Keep a
        // margin for the frame and the coordinates.
        let (span_w, span_h) = if points {
            (f32::from(width - 1) + 1.7, f32::from(height - 1) + 1.7)
        } else {
            (f32::from(width) + 1.2, f32::from(height) + 1.2)
        };
        let across = (area.width() / span_w).min(area.height() / span_h);
        let turned = (area.width() / span_h).min(area.height() / span_w);
        let quarter_turn = width != height && turned > across * QUARTER_TURN_GAIN;
        let cell = if quarter_turn { turned } else { across }.max(4.0);
        BoardLayout { center: area.center(), cell, width, height, flipped, points, quarter_turn }
    }

    /// The board's size on screen in board units, without its frame: the squares (or the
    /// distances between the outer points) across and down.
    pub fn extent(&self) -> Vec2 {
        let (w, h) = (f32::from(self.width), f32::from(self.height));
        let size = if self.points { Vec2::new(w - 1.0, h - 1.0) } else { Vec2::new(w, h) };
        if self.quarter_turn { Vec2::new(size.y, size.x) } else { size }
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
        self.grid_to_local(Vec2::new(f, r))
    }

    /// A point on the grid (files along x, ranks along y, the centre at 0) to board units on
    /// screen: turned over for a flipped board, a quarter turn clockwise for a turned one.
    fn grid_to_local(&self, g: Vec2) -> Vec2 {
        let g = if self.flipped { -g } else { g };
        if self.quarter_turn { Vec2::new(g.y, -g.x) } else { g }
    }

    /// Board units on screen back to the grid ([`BoardLayout::grid_to_local`] undone).
    fn local_to_grid(&self, p: Vec2) -> Vec2 {
        let g = if self.quarter_turn { Vec2::new(-p.y, p.x) } else { p };
        if self.flipped { -g } else { g }
    }

    /// A step on the screen (`dx` right, `dy` up) as a step on the board (files, ranks).
    pub fn board_step(&self, dx: i8, dy: i8) -> (i8, i8) {
        let (df, dr) = if self.quarter_turn { (-dy, dx) } else { (dx, dy) };
        if self.flipped { (-df, -dr) } else { (df, dr) }
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
        let g = self.local_to_grid(p);
        let f = (g.x + f32::from(self.width - 1) / 2.0).round();
        let r = (g.y + f32::from(self.height - 1) / 2.0).round();
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

    /// The coordinates around the board, each with where to write it (logical pixels): the
    /// files' letters under the board and the ranks' numbers left of it; on a board a quarter
    /// turned, the files' letters left of it and the ranks' numbers under it.
    pub fn coordinates(&self) -> Vec<(Vec2, String)> {
        let offset = if self.points { 0.72 } else { 0.62 } * self.cell;
        let (below, left) = (Vec2::new(0.0, offset), Vec2::new(-offset, 0.0));
        let (first_rank, first_file) = (0, 0);
        let (last_rank, last_file) = (self.height - 1, self.width - 1);
        // The rank along the files' labels and the file along the ranks' labels.
        let (label_rank, label_file, file_side, rank_side) = match (self.quarter_turn, self.flipped) {
            (false, false) => (first_rank, first_file, below, left),
            (false, true) => (last_rank, last_file, below, left),
            (true, false) => (first_rank, last_file, left, below),
            (true, true) => (last_rank, first_file, left, below),
        };
        let files = (0..self.width).map(|f| {
            (
                self.to_screen(Square::new(f, label_rank, self.width)) + file_side,
                ((b'a' + f) as char).to_string(),
            )
        });
        let ranks = (0..self.height).map(|r| {
            (self.to_screen(Square::new(label_file, r, self.width)) + rank_side, (r + 1).to_string())
        });
        files.chain(ranks).collect()
    }

    /// The piece's radius in board units.
    pub fn piece_radius(&self) -> f32 {
        if self.points { 0.36 } else { 0.42 }
    }
}
