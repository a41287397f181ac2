//! Alquerque (R. C. Bell's rules) on the 25 points of a 5x5 board of lines: steps forward or
//! sideways, compulsory capture by jumping, and chains that must go on while they can.

use crate::error::{Family, ParseError, Problem};
use crate::notation::{Fields, parse_rank_runs};
use crate::position::{GamePosition, Outcome, Reason, Side};
use crate::square::Square;
use crate::zobrist;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Files and ranks of the board.
pub const SIZE: u8 = 5;
/// Number of points.
pub const POINTS: usize = 25;
/// Every point of the board.
pub const FULL: u32 = (1 << POINTS) - 1;
/// Plies without a capture after which the game is drawn.
pub const NO_CAPTURE_LIMIT: u16 = 50;
pub use crate::limits::MAX_PIECES;
/// The most landing points a move can have: one per captured piece.
pub const MAX_PATH: usize = MAX_PIECES as usize;

const NONE: u8 = u8::MAX;

/// Directions as (file, rank) steps: N, NE, E, SE, S, SW, W, NW.
const DIRS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// Whether a point has diagonal lines: (file + rank) even, counting a1 as (0, 0).
pub const fn has_diagonals(p: Square) -> bool {
    (p.0 % SIZE + p.0 / SIZE).is_multiple_of(2)
}

struct Tables {
    /// `step[p][d]`: the neighbour of `p` along a drawn line in direction `d`.
    step: [[u8; 8]; POINTS],
    /// `land[p][d]`: two points away along the same line (the landing point of a jump).
    land: [[u8; 8]; POINTS],
    /// For each side, the directions it may step in: forward and sideways.
    step_dirs: [[bool; 8]; 2],
}

const fn build_tables() -> Tables {
    let mut step = [[NONE; 8]; POINTS];
    let mut land = [[NONE; 8]; POINTS];
    let mut p = 0;
    while p < POINTS {
        let f = (p % 5) as i8;
        let r = (p / 5) as i8;
        let diag = (f + r) % 2 == 0;
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            let diagonal = df != 0 && dr != 0;
            if !diagonal || diag {
                let (f1, r1) = (f + df, r + dr);
                if f1 >= 0 && f1 < 5 && r1 >= 0 && r1 < 5 {
                    step[p][d] = (r1 * 5 + f1) as u8;
                    let (f2, r2) = (f1 + df, r1 + dr);
                    if f2 >= 0 && f2 < 5 && r2 >= 0 && r2 < 5 {
                        land[p][d] = (r2 * 5 + f2) as u8;
                    }
                }
            }
            d += 1;
        }
        p += 1;
    }
    // White (First) steps up the board (N, NE, NW) or sideways (E, W); Black down or sideways.
    let step_dirs = [
        [true, true, true, false, false, false, true, true],
        [false, false, true, true, true, true, true, false],
    ];
    Tables { step, land, step_dirs }
}

static TABLES: Tables = build_tables();

/// The neighbour of `p` along a drawn line in direction `d` (0 = north, clockwise to 7 =
/// north-west), if there is one.
pub fn neighbour(p: Square, d: usize) -> Option<Square> {
    let t = TABLES.step[p.index()][d];
    (t != NONE).then_some(Square(t))
}

/// An Alquerque move: a step, or a capture identified by its whole path of landing points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    from: Square,
    /// Number of landing points (1 for a step or a single jump).
    len: u8,
    /// Landing points, 5 bits each, the first in the lowest bits.
    path: u64,
    /// The captured points.
    captured: u32,
}

impl Move {
    /// The point the piece starts from.
    pub fn from(&self) -> Square {
        self.from
    }

    /// The final landing point.
    pub fn to(&self) -> Square {
        // A forged move (from the network, say) may have no landing point; it is never legal.
        match self.len {
            0 => self.from,
            n => self.landing(usize::from(n.min(MAX_PATH as u8)) - 1),
        }
    }

    fn landing(&self, i: usize) -> Square {
        Square(((self.path >> (5 * i)) & 31) as u8)
    }

    /// Every landing point in order (one for a step).
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        (0..usize::from(self.len.min(MAX_PATH as u8))).map(|i| self.landing(i))
    }

    /// The captured points, as a bitboard.
    pub fn captured_set(&self) -> u32 {
        self.captured
    }

    /// The captured points, in the order they were jumped.
    pub fn captured(&self) -> Vec<Square> {
        let mut out = Vec::new();
        let mut at = self.from;
        for to in self.path() {
            if self.captured != 0 {
                // The jumped point lies midway between two landing points.
                out.push(Square((at.0 + to.0) / 2));
            }
            at = to;
        }
        out
    }

    /// Whether this move is a capture.
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Number of landing points.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Always false: every move has at least one landing point.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// An Alquerque position: the pieces, the side to move and plies since the last capture.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pieces: [u32; 2],
    side: Side,
    clock: u16,
    hash: u64,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "alquerque::Position({self})")
    }
}

#[inline]
fn zkey(side: Side, p: Square) -> u64 {
    zobrist::ALQUERQUE[side.index() * POINTS + p.index()]
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The start: `BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w`.
    pub fn start() -> Position {
        let white = 0b11111_11111 | (1 << 13) | (1 << 14);
        let black = (0b11111_11111 << 15) | (1 << 10) | (1 << 11);
        Position::from_parts([white, black], Side::First, 0)
    }

    /// A position from bitboards (bit `rank * 5 + file`, a1 = bit 0) of White's and Black's
    /// pieces, the side to move and the no-capture counter; `None` when a bit lies off the
    /// board, a point holds both colours, or a side has more than [`MAX_PIECES`] pieces.
    pub fn from_bitboards(white: u32, black: u32, side: Side, clock: u16) -> Option<Position> {
        let ok = (white | black) & !FULL == 0
            && white & black == 0
            && white.count_ones() <= MAX_PIECES
            && black.count_ones() <= MAX_PIECES;
        ok.then(|| Position::from_parts([white, black], side, clock))
    }

    fn from_parts(pieces: [u32; 2], side: Side, clock: u16) -> Position {
        let mut p = Position { pieces, side, clock, hash: 0 };
        p.hash = p.compute_hash();
        p
    }

    /// The hash computed from scratch (equal to the incrementally updated one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for side in [Side::First, Side::Second] {
            let mut b = self.pieces[side.index()];
            while b != 0 {
                h ^= zkey(side, Square(b.trailing_zeros() as u8));
                b &= b - 1;
            }
        }
        if self.side == Side::Second {
            h ^= zobrist::SIDE;
        }
        h
    }

    /// The pieces of `side`.
    #[inline]
    pub fn pieces(&self, side: Side) -> u32 {
        self.pieces[side.index()]
    }

    /// Every empty point.
    #[inline]
    pub fn empty(&self) -> u32 {
        FULL & !(self.pieces[0] | self.pieces[1])
    }

    /// Whose piece stands on `p`.
    pub fn piece_at(&self, p: Square) -> Option<Side> {
        [Side::First, Side::Second].into_iter().find(|s| self.pieces[s.index()] & (1 << p.0) != 0)
    }

    /// Calls `f` with every capture of the side to move; returns how many there were.
    fn for_each_capture(&self, side: Side, f: &mut impl FnMut(Move)) -> u32 {
        let own = self.pieces[side.index()];
        let enemy = self.pieces[side.opponent().index()];
        let mut count = 0;
        let mut b = own;
        while b != 0 {
            let from = b.trailing_zeros() as u8;
            b &= b - 1;
            let start = Move { from: Square(from), len: 0, path: 0, captured: 0 };
            count += chain(own & !(1 << from), enemy, from, start, f);
        }
        count
    }

    /// Calls `f` with every plain step of `side`; returns how many there were.
    fn for_each_step(&self, side: Side, f: &mut impl FnMut(Move)) -> u32 {
        let empty = self.empty();
        let dirs = &TABLES.step_dirs[side.index()];
        let mut count = 0;
        let mut b = self.pieces[side.index()];
        while b != 0 {
            let from = b.trailing_zeros() as u8;
            b &= b - 1;
            for (d, allowed) in dirs.iter().enumerate() {
                let t = TABLES.step[usize::from(from)][d];
                if *allowed && t != NONE && empty & (1 << t) != 0 {
                    f(Move { from: Square(from), len: 1, path: u64::from(t), captured: 0 });
                    count += 1;
                }
            }
        }
        count
    }

    /// Whether `side` has a capture available.
    pub fn can_capture(&self, side: Side) -> bool {
        let own = self.pieces[side.index()];
        let enemy = self.pieces[side.opponent().index()];
        let empty = self.empty();
        let mut b = own;
        while b != 0 {
            let p = b.trailing_zeros() as usize;
            b &= b - 1;
            for d in 0..8 {
                let (o, l) = (TABLES.step[p][d], TABLES.land[p][d]);
                if l != NONE && enemy & (1 << o) != 0 && empty & (1 << l) != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// The number of plain steps `side` has (whether or not a capture is compulsory).
    pub fn step_count(&self, side: Side) -> u32 {
        self.for_each_step(side, &mut |_| {})
    }

    /// Number of pieces of each side.
    pub fn material(&self) -> [u32; 2] {
        [self.pieces[0].count_ones(), self.pieces[1].count_ones()]
    }

    /// Every legal move from `from` to `to` (several capture paths may join the same points).
    pub fn moves_between(&self, from: Square, to: Square) -> Vec<Move> {
        self.legal_moves().into_iter().filter(|m| m.from == from && m.to() == to).collect()
    }
}

/// Extends a capture chain from `at`; emits every maximal chain. `own` excludes the mover.
fn chain(own: u32, enemy: u32, at: u8, mv: Move, f: &mut impl FnMut(Move)) -> u32 {
    let empty = FULL & !(own | enemy);
    let mut count = 0;
    for d in 0..8 {
        let land = TABLES.land[usize::from(at)][d];
        if land == NONE {
            continue;
        }
        let over = TABLES.step[usize::from(at)][d];
        if enemy & (1 << over) != 0 && empty & (1 << land) != 0 {
            let next = Move {
                from: mv.from,
                len: mv.len + 1,
                path: mv.path | (u64::from(land) << (5 * mv.len)),
                captured: mv.captured | (1 << over),
            };
            count += chain(own, enemy & !(1 << over), land, next, f);
        }
    }
    if count == 0 && mv.len > 0 {
        f(mv);
        count = 1;
    }
    count
}

impl GamePosition for Position {
    type Move = Move;

    fn generate_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.for_each_capture(self.side, &mut |m| out.push(m)) == 0 {
            self.for_each_step(self.side, &mut |m| out.push(m));
        }
    }

    fn count_moves(&self) -> u64 {
        let captures = self.for_each_capture(self.side, &mut |_| {});
        if captures > 0 { u64::from(captures) } else { u64::from(self.step_count(self.side)) }
    }

    fn has_legal_move(&self) -> bool {
        self.can_capture(self.side) || self.for_each_step(self.side, &mut |_| {}) > 0
    }

    #[inline]
    fn play_unchecked(&self, mv: &Move) -> Position {
        debug_assert!(self.legal_moves().contains(mv), "illegal move {mv:?} in {self}");
        let us = self.side;
        let them = us.opponent();
        let to = mv.to();
        let mut p = *self;
        // Clear, then set: a capture chain may end on its own start point (from == to), where
        // toggling both bits would remove the capturing piece.
        p.pieces[us.index()] = (p.pieces[us.index()] & !(1 << mv.from.0)) | (1 << to.0);
        p.hash ^= zkey(us, mv.from) ^ zkey(us, to);
        let mut c = mv.captured;
        while c != 0 {
            let sq = c.trailing_zeros() as u8;
            c &= c - 1;
            p.hash ^= zkey(them, Square(sq));
        }
        p.pieces[them.index()] &= !mv.captured;
        p.clock = if mv.captured != 0 { 0 } else { self.clock.saturating_add(1) };
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
        self.pieces == other.pieces && self.side == other.side
    }

    #[inline]
    fn is_capture(mv: &Move) -> bool {
        mv.is_capture()
    }

    fn rule_outcome(&self, threefold: bool) -> Option<Outcome> {
        let opponent = self.side;
        let mover = opponent.opponent();
        if self.pieces[opponent.index()] == 0 {
            return Some(Outcome::win(mover, Reason::NoPieces));
        }
        if threefold {
            return Some(Outcome::draw(Reason::Repetition));
        }
        if self.clock >= NO_CAPTURE_LIMIT {
            return Some(Outcome::draw(Reason::NoCaptureLimit));
        }
        None
    }

    fn move_to_string(&self, mv: &Move) -> String {
        let mut s = mv.from.name(SIZE);
        let sep = if mv.is_capture() { 'x' } else { '-' };
        for p in mv.path() {
            s.push(sep);
            s.push_str(&p.name(SIZE));
        }
        s
    }

    fn parse_move(&self, s: &str) -> Result<Move, ParseError> {
        let capture = s.contains('x');
        let parts: Vec<&str> = if capture { s.split('x').collect() } else { s.split('-').collect() };
        if parts.len() < 2 || (!capture && parts.len() != 2) {
            return Err(ParseError::new(Problem::NotAMove {
                text: s.to_string(),
                family: Family::Alquerque,
            }));
        }
        if parts.len() > MAX_PATH + 1 {
            return Err(ParseError::new(Problem::TooManyJumps { text: s.to_string() }));
        }
        let mut col = 1;
        let mut points = Vec::with_capacity(parts.len());
        for part in &parts {
            let p = Square::parse(part, SIZE, SIZE)
                .ok_or_else(|| ParseError::at(col, Problem::NotAPoint { text: part.to_string() }))?;
            points.push(p);
            col += part.chars().count() + 1;
        }
        let from = points[0];
        match self.piece_at(from) {
            None => {
                return Err(ParseError::at(1, Problem::NoPiece { square: parts[0].to_string() }));
            }
            Some(side) if side != self.side => {
                return Err(ParseError::at(1, Problem::NotYourPiece { square: parts[0].to_string() }));
            }
            _ => {}
        }
        let legal = self.legal_moves();
        if let Some(m) = legal.iter().find(|m| m.from == from && m.path().eq(points[1..].iter().copied())) {
            return Ok(*m);
        }
        let must_capture = legal.first().is_some_and(|m| m.is_capture());
        let text = s.to_string();
        Err(ParseError::new(if must_capture && !capture {
            Problem::CaptureCompulsory { text }
        } else if capture {
            Problem::CaptureNotFinished { text }
        } else {
            Problem::NotAStep { text }
        }))
    }

    fn parse(s: &str) -> Result<Position, ParseError> {
        let mut fields = Fields::new(s);
        let (board_col, board) = fields.next().ok_or_else(|| ParseError::new(Problem::EmptyPosition))?;
        let mut rows: Vec<Vec<Option<Side>>> = Vec::new();
        parse_rank_runs(
            board,
            board_col,
            &mut rows,
            |c| match c {
                'W' => Some(Some(Side::First)),
                'B' => Some(Some(Side::Second)),
                _ => None,
            },
            Family::Alquerque,
        )?;
        if rows.len() != 5 || rows[0].len() != 5 {
            return Err(ParseError::at(
                board_col,
                Problem::AlquerqueSize { width: rows[0].len(), height: rows.len() },
            ));
        }
        let mut pieces = [0u32; 2];
        for (row_idx, row) in rows.iter().enumerate() {
            for (file, cell) in row.iter().enumerate() {
                if let Some(side) = cell {
                    pieces[side.index()] |= 1 << ((4 - row_idx) * 5 + file);
                }
            }
        }
        for side in [Side::First, Side::Second] {
            let n = pieces[side.index()].count_ones();
            if n > MAX_PIECES {
                return Err(ParseError::at(board_col, Problem::TooManyPieces { side, count: n }));
            }
        }
        let (side_col, side_str) = fields.next().ok_or_else(|| {
            ParseError::at(s.chars().count() + 1, Problem::MissingSide { family: Family::Alquerque })
        })?;
        let side = match side_str {
            "w" => Side::First,
            "b" => Side::Second,
            other => {
                return Err(ParseError::at(
                    side_col,
                    Problem::BadSide { text: other.to_string(), family: Family::Alquerque },
                ));
            }
        };
        let clock = fields.clock()?;
        fields.finish()?;
        Ok(Position::from_parts(pieces, side, clock))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = (0..5u8).rev().map(|rank| {
            (0..5u8)
                .map(|file| {
                    self.piece_at(Square::new(file, rank, SIZE))
                        .map(|s| if s == Side::First { 'W' } else { 'B' })
                })
                .collect::<Vec<_>>()
        });
        crate::notation::write_board(f, rows)?;
        f.write_str(if self.side == Side::First { " w" } else { " b" })?;
        if self.clock != 0 {
            write!(f, " {}", self.clock)?;
        }
        Ok(())
    }
}

crate::notation::text_form!(Position);
