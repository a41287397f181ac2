//! Latrunculi (ludus latrunculorum): rook moves, custodian (sandwich) captures, and a king that
//! is lost when it cannot move. Any board from 3x3 to 16x16 squares with at most 128 squares.

use crate::error::{Family, ParseError, Problem};
use crate::notation::{Fields, parse_rank_runs};
use crate::position::{GamePosition, Outcome, Reason, Side};
use crate::square::{Bits, Square};
use crate::zobrist;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

/// Plies without a capture after which the game is decided on material.
pub const NO_CAPTURE_LIMIT: u16 = 100;
pub use crate::limits::{MAX_DIM, MAX_SQUARES, MIN_DIM};

const NONE: u8 = u8::MAX;
/// Directions: north (up the board), east, south, west.
const DIRS: usize = 4;

/// The precomputed tables of one board size.
#[derive(Debug)]
pub struct Geometry {
    width: u8,
    height: u8,
    full: u128,
    not_first_file: u128,
    not_last_file: u128,
    neighbours: [u128; 128],
    steps: [[u8; DIRS]; 128],
}

impl Geometry {
    fn build(width: u8, height: u8) -> Geometry {
        let n = u32::from(width) * u32::from(height);
        let full = if n == 128 { u128::MAX } else { (1u128 << n) - 1 };
        let mut not_first_file = 0u128;
        let mut not_last_file = 0u128;
        let mut neighbours = [0u128; 128];
        let mut steps = [[NONE; DIRS]; 128];
        for rank in 0..height {
            for file in 0..width {
                let sq = Square::new(file, rank, width);
                let i = sq.index();
                if file != 0 {
                    not_first_file |= sq.bit();
                }
                if file != width - 1 {
                    not_last_file |= sq.bit();
                }
                let targets = [
                    (rank + 1 < height).then(|| Square::new(file, rank + 1, width)),
                    (file + 1 < width).then(|| Square::new(file + 1, rank, width)),
                    (rank > 0).then(|| Square::new(file, rank.wrapping_sub(1), width)),
                    (file > 0).then(|| Square::new(file.wrapping_sub(1), rank, width)),
                ];
                for (d, t) in targets.into_iter().enumerate() {
                    if let Some(t) = t {
                        steps[i][d] = t.0;
                        neighbours[i] |= t.bit();
                    }
                }
            }
        }
        Geometry { width, height, full, not_first_file, not_last_file, neighbours, steps }
    }

    /// The table for a board size, built once per size. Fails for unsupported sizes.
    pub fn get(width: u8, height: u8) -> Result<&'static Geometry, ParseError> {
        check_size(width, height)?;
        static CACHE: [OnceLock<Geometry>; 17 * 17] = [const { OnceLock::new() }; 17 * 17];
        let slot = &CACHE[usize::from(width) * 17 + usize::from(height)];
        Ok(slot.get_or_init(|| Geometry::build(width, height)))
    }

    /// Number of files.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Number of ranks.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Every square of the board.
    pub fn full(&self) -> u128 {
        self.full
    }

    /// The orthogonal neighbours of a square.
    #[inline]
    pub fn neighbours(&self, sq: Square) -> u128 {
        self.neighbours[sq.index()]
    }

    /// The neighbour of `sq` in direction `d` (0 north, 1 east, 2 south, 3 west), if any.
    #[inline]
    pub fn step(&self, sq: Square, d: usize) -> Option<Square> {
        let t = self.steps[sq.index()][d];
        (t != NONE).then_some(Square(t))
    }

    /// Every square orthogonally adjacent to some square of `set`.
    #[inline]
    pub fn adjacent(&self, set: u128) -> u128 {
        let w = u32::from(self.width);
        ((set << w) & self.full)
            | (set >> w)
            | ((set << 1) & self.not_first_file & self.full)
            | ((set >> 1) & self.not_last_file)
    }

    /// The squares a rook-moving piece of `movers` can reach in direction `d` through `empty`.
    /// Each target is reached by exactly one mover (the nearest one behind it), so the
    /// population count of the result is the number of moves in that direction.
    #[inline]
    fn slide_targets(&self, movers: u128, empty: u128, d: usize) -> u128 {
        let w = u32::from(self.width);
        let (shift, left, mask, span) = match d {
            0 => (w, true, self.full, self.height),
            1 => (1, true, self.not_first_file, self.width),
            2 => (w, false, self.full, self.height),
            _ => (1, false, self.not_last_file, self.width),
        };
        let sh = |x: u128, n: u32| -> u128 {
            if n >= 128 {
                0
            } else if left {
                x << n
            } else {
                x >> n
            }
        };
        // Kogge-Stone occluded fill.
        let mut fill = movers;
        let mut pro = empty & mask;
        let mut step = 1u32;
        while step < u32::from(span) {
            fill |= pro & sh(fill, shift * step);
            pro &= sh(pro, shift * step);
            step *= 2;
        }
        sh(fill, shift) & mask & empty
    }
}

fn check_size(width: u8, height: u8) -> Result<(), ParseError> {
    if !(MIN_DIM..=MAX_DIM).contains(&width) || !(MIN_DIM..=MAX_DIM).contains(&height) {
        return Err(ParseError::new(Problem::BoardSize { width: width.into(), height: height.into() }));
    }
    if u32::from(width) * u32::from(height) > MAX_SQUARES {
        return Err(ParseError::new(Problem::TooManySquares { width: width.into(), height: height.into() }));
    }
    Ok(())
}

/// A Latrunculi move: a rook slide from one square to another, with the soldiers it captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    from: Square,
    to: Square,
    /// Captured squares; unused slots hold `u8::MAX`.
    captured: [u8; 3],
}

impl Move {
    /// The square the piece leaves.
    pub fn from(&self) -> Square {
        self.from
    }

    /// The square the piece lands on.
    pub fn to(&self) -> Square {
        self.to
    }

    /// The enemy soldiers this move removes (up to three).
    pub fn captured(&self) -> impl Iterator<Item = Square> + '_ {
        self.captured.iter().filter(|&&c| c != NONE).map(|&c| Square(c))
    }

    /// How many soldiers this move removes.
    pub fn capture_count(&self) -> usize {
        self.captured.iter().filter(|&&c| c != NONE).count()
    }

    /// Whether this move removes anything.
    pub fn is_capture(&self) -> bool {
        self.captured[0] != NONE
    }
}

/// A Latrunculi position: the board, the side to move, and plies since the last capture.
#[derive(Clone, Copy)]
pub struct Position {
    geo: &'static Geometry,
    /// Every piece of each side, kings included.
    pieces: [u128; 2],
    kings: [Square; 2],
    side: Side,
    clock: u16,
    hash: u64,
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.same_position(other) && self.clock == other.clock
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "latrunculi::Position({self})")
    }
}

#[inline]
fn zkey(side: Side, king: bool, sq: Square) -> u64 {
    zobrist::LATRUNCULI[(side.index() * 2 + usize::from(king)) * 128 + sq.index()]
}

impl Position {
    /// The standard 12x8 start: `bbbbbbbbbbbb/5B6/12/12/12/12/6R5/rrrrrrrrrrrr r`.
    pub fn standard() -> Position {
        Position::start(12, 8).expect("12x8 is supported")
    }

    /// The quick 8x8 start: `bbbbbbbb/3B4/8/8/8/8/4R3/rrrrrrrr r`.
    pub fn quick() -> Position {
        Position::start(8, 8).expect("8x8 is supported")
    }

    /// The start position on a board of any supported size with at least 4 ranks: soldiers on
    /// the first and last ranks, Red's king on rank 2 at file `width / 2`, Black's on the
    /// second-last rank at file `width / 2 - 1`.
    pub fn start(width: u8, height: u8) -> Result<Position, ParseError> {
        let geo = Geometry::get(width, height)?;
        if height < 4 {
            return Err(ParseError::new(Problem::TooFewRanks));
        }
        let first_rank: u128 = (1u128 << width) - 1;
        let red_king = Square::new(width / 2, 1, width);
        let black_king = Square::new(width / 2 - 1, height - 2, width);
        let red = first_rank | red_king.bit();
        let black = (first_rank << (u32::from(width) * u32::from(height - 1))) | black_king.bit();
        Ok(Position::from_parts(geo, [red, black], [red_king, black_king], Side::First, 0))
    }

    fn from_parts(
        geo: &'static Geometry,
        pieces: [u128; 2],
        kings: [Square; 2],
        side: Side,
        clock: u16,
    ) -> Position {
        let mut p = Position { geo, pieces, kings, side, clock, hash: 0 };
        p.hash = p.compute_hash();
        p
    }

    /// The hash computed from scratch (equal to the incrementally updated one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for side in [Side::First, Side::Second] {
            for sq in Bits(self.pieces[side.index()]) {
                h ^= zkey(side, sq == self.kings[side.index()], sq);
            }
        }
        if self.side == Side::Second {
            h ^= zobrist::SIDE;
        }
        h
    }

    /// The board's tables.
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// Number of files.
    pub fn width(&self) -> u8 {
        self.geo.width
    }

    /// Number of ranks.
    pub fn height(&self) -> u8 {
        self.geo.height
    }

    /// Every piece of `side`, king included.
    #[inline]
    pub fn pieces(&self, side: Side) -> u128 {
        self.pieces[side.index()]
    }

    /// The soldiers of `side` (its pieces but the king).
    #[inline]
    pub fn soldiers(&self, side: Side) -> u128 {
        self.pieces[side.index()] & !self.kings[side.index()].bit()
    }

    /// The square of `side`'s king.
    #[inline]
    pub fn king(&self, side: Side) -> Square {
        self.kings[side.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.pieces[0] | self.pieces[1]
    }

    /// Every empty square.
    #[inline]
    pub fn empty(&self) -> u128 {
        self.geo.full & !self.occupied()
    }

    /// What stands on `sq`: the side and whether it is the king.
    pub fn piece_at(&self, sq: Square) -> Option<(Side, bool)> {
        [Side::First, Side::Second]
            .into_iter()
            .find(|s| self.pieces[s.index()] & sq.bit() != 0)
            .map(|s| (s, self.kings[s.index()] == sq))
    }

    /// Whether `side`'s king has no empty orthogonal neighbour.
    #[inline]
    pub fn king_immobilised(&self, side: Side) -> bool {
        self.geo.neighbours(self.kings[side.index()]) & self.empty() == 0
    }

    /// The number of empty squares next to `side`'s king.
    pub fn king_liberties(&self, side: Side) -> u32 {
        (self.geo.neighbours(self.kings[side.index()]) & self.empty()).count_ones()
    }

    /// The soldiers that a piece of the mover landing on `to` would capture, as a bitboard.
    #[inline]
    fn captures_at(&self, from: Square, to: Square) -> [u8; 3] {
        let us = self.side.index();
        let own_after = (self.pieces[us] & !from.bit()) | to.bit();
        let enemy_soldiers = self.soldiers(self.side.opponent());
        let mut out = [NONE; 3];
        let mut n = 0;
        for d in 0..DIRS {
            let n1 = self.geo.steps[to.index()][d];
            if n1 == NONE || enemy_soldiers & (1u128 << n1) == 0 {
                continue;
            }
            let n2 = self.geo.steps[usize::from(n1)][d];
            if n2 != NONE && own_after & (1u128 << n2) != 0 {
                out[n] = n1;
                n += 1;
            }
        }
        out
    }

    /// The move from `from` to `to` if it is a legal slide here.
    pub fn move_between(&self, from: Square, to: Square) -> Option<Move> {
        let w = self.geo.width;
        let size = u32::from(w) * u32::from(self.geo.height);
        if u32::from(from.0) >= size || u32::from(to.0) >= size || from == to {
            return None;
        }
        if self.pieces[self.side.index()] & from.bit() == 0 {
            return None;
        }
        let d = if from.file(w) == to.file(w) {
            if to.0 > from.0 { 0 } else { 2 }
        } else if from.rank(w) == to.rank(w) {
            if to.0 > from.0 { 1 } else { 3 }
        } else {
            return None;
        };
        let empty = self.empty();
        let mut t = self.geo.steps[from.index()][d];
        while t != NONE && empty & (1u128 << t) != 0 {
            if t == to.0 {
                return Some(Move { from, to, captured: self.captures_at(from, to) });
            }
            t = self.geo.steps[usize::from(t)][d];
        }
        None
    }

    /// Number of pieces (kings included) of each side.
    pub fn material(&self) -> [u32; 2] {
        [self.pieces[0].count_ones(), self.pieces[1].count_ones()]
    }

    /// The squares `side` could reach with one slide (each target once).
    pub fn mobility_targets(&self, side: Side) -> [u128; 4] {
        let empty = self.empty();
        let own = self.pieces[side.index()];
        [0, 1, 2, 3].map(|d| self.geo.slide_targets(own, empty, d))
    }

    /// The number of moves `side` would have if it were to move.
    pub fn mobility(&self, side: Side) -> u32 {
        self.mobility_targets(side).iter().map(|b| b.count_ones()).sum()
    }
}

impl GamePosition for Position {
    type Move = Move;

    fn generate_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let empty = self.empty();
        for from in Bits(self.pieces[self.side.index()]) {
            for d in 0..DIRS {
                let mut t = self.geo.steps[from.index()][d];
                while t != NONE && empty & (1u128 << t) != 0 {
                    let to = Square(t);
                    out.push(Move { from, to, captured: self.captures_at(from, to) });
                    t = self.geo.steps[usize::from(t)][d];
                }
            }
        }
    }

    fn count_moves(&self) -> u64 {
        u64::from(self.mobility(self.side))
    }

    fn has_legal_move(&self) -> bool {
        self.geo.adjacent(self.pieces[self.side.index()]) & self.empty() != 0
    }

    fn try_play(&self, mv: &Move) -> Result<Position, crate::IllegalMove> {
        match self.move_between(mv.from, mv.to) {
            Some(legal) if legal == *mv => Ok(self.play_unchecked(mv)),
            _ => Err(crate::IllegalMove { notation: self.move_to_string(mv), position: self.to_string() }),
        }
    }

    #[inline]
    fn play_unchecked(&self, mv: &Move) -> Position {
        debug_assert_eq!(self.move_between(mv.from, mv.to), Some(*mv), "illegal move in {self}");
        let us = self.side;
        let them = us.opponent();
        let mut p = *self;
        let is_king = p.kings[us.index()] == mv.from;
        p.pieces[us.index()] ^= mv.from.bit() | mv.to.bit();
        p.hash ^= zkey(us, is_king, mv.from) ^ zkey(us, is_king, mv.to);
        if is_king {
            p.kings[us.index()] = mv.to;
        }
        let mut captured = false;
        for c in mv.captured() {
            p.pieces[them.index()] &= !c.bit();
            p.hash ^= zkey(them, false, c);
            captured = true;
        }
        p.clock = if captured { 0 } else { self.clock.saturating_add(1) };
        p.side = them;
        p.hash ^= zobrist::SIDE;
        p
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    fn clock(&self) -> u16 {
        self.clock
    }

    fn same_position(&self, other: &Self) -> bool {
        self.geo.width == other.geo.width
            && self.geo.height == other.geo.height
            && self.pieces == other.pieces
            && self.kings == other.kings
            && self.side == other.side
    }

    #[inline]
    fn is_capture(mv: &Move) -> bool {
        mv.is_capture()
    }

    fn rule_outcome(&self, threefold: bool) -> Option<Outcome> {
        let opponent = self.side; // the side that did not just move
        let mover = opponent.opponent();
        if self.king_immobilised(opponent) {
            return Some(Outcome::win(mover, Reason::KingImmobilised));
        }
        if self.king_immobilised(mover) {
            return Some(Outcome::win(opponent, Reason::KingImmobilised));
        }
        if self.soldiers(opponent) == 0 {
            return Some(Outcome::win(mover, Reason::OnlyKingLeft));
        }
        if threefold {
            return Some(Outcome::win(opponent, Reason::Repetition));
        }
        if self.clock >= NO_CAPTURE_LIMIT {
            let [a, b] = self.material();
            return Some(match a.cmp(&b) {
                std::cmp::Ordering::Greater => Outcome::win(Side::First, Reason::NoCaptureLimit),
                std::cmp::Ordering::Less => Outcome::win(Side::Second, Reason::NoCaptureLimit),
                std::cmp::Ordering::Equal => Outcome::draw(Reason::NoCaptureLimit),
            });
        }
        None
    }

    fn move_to_string(&self, mv: &Move) -> String {
        let w = self.geo.width;
        format!("{}-{}", mv.from.name(w), mv.to.name(w))
    }

    fn parse_move(&self, s: &str) -> Result<Move, ParseError> {
        let (w, h) = (self.geo.width, self.geo.height);
        let Some((a, b)) = s.split_once('-') else {
            return Err(ParseError::new(Problem::NotAMove {
                text: s.to_string(),
                family: Family::Latrunculi,
            }));
        };
        let from = Square::parse(a, w, h).ok_or_else(|| {
            ParseError::at(1, Problem::NotASquare { text: a.to_string(), width: w, height: h })
        })?;
        let to = Square::parse(b, w, h).ok_or_else(|| {
            ParseError::at(
                a.chars().count() + 2,
                Problem::NotASquare { text: b.to_string(), width: w, height: h },
            )
        })?;
        match self.piece_at(from) {
            None => return Err(ParseError::at(1, Problem::NoPiece { square: a.to_string() })),
            Some((side, _)) if side != self.side => {
                return Err(ParseError::at(1, Problem::NotYourPiece { square: a.to_string() }));
            }
            _ => {}
        }
        self.move_between(from, to)
            .ok_or_else(|| ParseError::new(Problem::NotARookMove { text: s.to_string() }))
    }

    fn parse(s: &str) -> Result<Position, ParseError> {
        let mut fields = Fields::new(s);
        let (board_col, board) = fields.next().ok_or_else(|| ParseError::new(Problem::EmptyPosition))?;
        let mut rows: Vec<Vec<Option<(Side, bool)>>> = Vec::new();
        parse_rank_runs(
            board,
            board_col,
            &mut rows,
            |c| match c {
                'r' => Some(Some((Side::First, false))),
                'R' => Some(Some((Side::First, true))),
                'b' => Some(Some((Side::Second, false))),
                'B' => Some(Some((Side::Second, true))),
                _ => None,
            },
            Family::Latrunculi,
        )?;
        let height = rows.len();
        let width = rows[0].len();
        if width > usize::from(MAX_DIM) || height > usize::from(MAX_DIM) {
            return Err(ParseError::at(board_col, Problem::BoardSize { width, height }));
        }
        let geo = Geometry::get(width as u8, height as u8)
            .map_err(|e| ParseError { column: Some(board_col), ..e })?;
        let mut pieces = [0u128; 2];
        let mut kings: [Option<Square>; 2] = [None, None];
        for (row_idx, row) in rows.iter().enumerate() {
            let rank = (height - 1 - row_idx) as u8;
            for (file, cell) in row.iter().enumerate() {
                let Some((side, king)) = *cell else { continue };
                let sq = Square::new(file as u8, rank, width as u8);
                pieces[side.index()] |= sq.bit();
                if king {
                    if kings[side.index()].is_some() {
                        return Err(ParseError::at(
                            board_col,
                            Problem::TwoKings { side, square: sq.name(width as u8).to_string() },
                        ));
                    }
                    kings[side.index()] = Some(sq);
                }
            }
        }
        let (Some(rk), Some(bk)) = (kings[0], kings[1]) else {
            let side = if kings[0].is_none() { Side::First } else { Side::Second };
            return Err(ParseError::at(board_col, Problem::NoKing { side }));
        };
        let (side_col, side_str) = fields.next().ok_or_else(|| {
            ParseError::at(s.chars().count() + 1, Problem::MissingSide { family: Family::Latrunculi })
        })?;
        let side = match side_str {
            "r" => Side::First,
            "b" => Side::Second,
            other => {
                return Err(ParseError::at(
                    side_col,
                    Problem::BadSide { text: other.to_string(), family: Family::Latrunculi },
                ));
            }
        };
        let clock = fields.clock()?;
        fields.finish()?;
        Ok(Position::from_parts(geo, pieces, [rk, bk], side, clock))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, h) = (self.geo.width, self.geo.height);
        let cells = (0..h).rev().map(|rank| {
            (0..w)
                .map(|file| {
                    self.piece_at(Square::new(file, rank, w)).map(|(side, king)| match (side, king) {
                        (Side::First, false) => 'r',
                        (Side::First, true) => 'R',
                        (Side::Second, false) => 'b',
                        (Side::Second, true) => 'B',
                    })
                })
                .collect::<Vec<_>>()
        });
        crate::notation::write_board(f, cells)?;
        f.write_str(if self.side == Side::First { " r" } else { " b" })?;
        if self.clock != 0 {
            write!(f, " {}", self.clock)?;
        }
        Ok(())
    }
}

crate::notation::text_form!(Position);
