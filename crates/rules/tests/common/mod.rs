//! Shared by the integration tests: the data-file readers, random positions, and the
//! bridge between the library's types and the naive reference's.
#![allow(dead_code)]

pub mod naive;

use ludus_rules::{AnyMove, AnyPosition, Square, Variant};
use naive::{Board, Kind, Piece, RefMove, Sq};
use rand::Rng;
use std::path::PathBuf;

/// The path of a file under `tests/data`.
pub fn data_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("data").join(file)
}

/// The meaningful lines of a data file: (1-based line number, text), without blank lines and
/// `#` comment lines.
pub fn data_lines(file: &str) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(data_path(file))
        .unwrap_or_else(|e| panic!("cannot read tests/data/{file}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// One line of a perft table: `name ; position ; perft(1) perft(2) ...`.
#[derive(Clone, Debug)]
pub struct PerftEntry {
    pub line: usize,
    pub name: String,
    pub position: String,
    pub counts: Vec<u64>,
}

pub fn read_perft(file: &str) -> Vec<PerftEntry> {
    data_lines(file)
        .into_iter()
        .map(|(line, l)| {
            let f: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(f.len(), 3, "{file}:{line}: expected 3 fields separated by ';'");
            let counts = f[2]
                .split_whitespace()
                .map(|n| n.parse().unwrap_or_else(|_| panic!("{file}:{line}: bad count '{n}'")))
                .collect::<Vec<u64>>();
            assert!(!counts.is_empty(), "{file}:{line}: no counts");
            PerftEntry { line, name: f[0].to_string(), position: f[1].to_string(), counts }
        })
        .collect()
}

/// One line of the game table:
/// `variant ; name ; start ; moves ; outcome after the last move ; position after it`.
#[derive(Clone, Debug)]
pub struct GameEntry {
    pub line: usize,
    pub variant: Variant,
    pub name: String,
    pub start: String,
    pub moves: Vec<String>,
    /// `None` for a game that goes on, else the outcome in `Outcome`'s display form.
    pub outcome: Option<String>,
    /// The position after the last move, if given.
    pub after: Option<String>,
}

pub fn read_games(file: &str) -> Vec<GameEntry> {
    data_lines(file)
        .into_iter()
        .map(|(line, l)| {
            let f: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(f.len(), 6, "{file}:{line}: expected 6 fields separated by ';'");
            GameEntry {
                line,
                variant: Variant::parse(f[0]).unwrap(),
                name: f[1].to_string(),
                start: f[2].to_string(),
                moves: f[3].split_whitespace().map(str::to_string).collect(),
                outcome: (f[4] != "none").then(|| f[4].to_string()),
                after: (f[5] != "-").then(|| f[5].to_string()),
            }
        })
        .collect()
}

pub fn kind_of(variant: Variant) -> Kind {
    if variant.is_latrunculi() { Kind::Latrunculi } else { Kind::Alquerque }
}

pub fn variant_of(kind: Kind) -> Variant {
    match kind {
        Kind::Latrunculi => Variant::Latrunculi,
        Kind::Alquerque => Variant::Alquerque,
    }
}

/// The library's position for a reference board, read from the reference's own notation.
pub fn lib_position(b: &Board) -> AnyPosition {
    let s = b.notation();
    AnyPosition::parse(variant_of(b.kind), &s).unwrap_or_else(|e| panic!("the library rejects {s}: {e}"))
}

pub fn sq_of(pos: &AnyPosition, s: Square) -> Sq {
    let w = pos.width();
    (usize::from(s.file(w)), usize::from(s.rank(w)))
}

/// A library move in the reference's terms.
pub fn to_ref(pos: &AnyPosition, m: &AnyMove) -> RefMove {
    let mut captured: Vec<Sq> = m.captured().into_iter().map(|s| sq_of(pos, s)).collect();
    captured.sort();
    RefMove {
        from: sq_of(pos, m.from()),
        path: m.path().into_iter().map(|s| sq_of(pos, s)).collect(),
        captured,
    }
}

/// Every legal move of the library's position, in the reference's terms, sorted.
pub fn lib_moves(pos: &AnyPosition) -> Vec<RefMove> {
    let mut v: Vec<RefMove> = pos.legal_moves().iter().map(|m| to_ref(pos, m)).collect();
    v.sort();
    v
}

/// Checks square by square that the library's position shows the reference's board.
pub fn assert_same_board(pos: &AnyPosition, b: &Board, context: &str) {
    assert_eq!((usize::from(pos.width()), usize::from(pos.height())), (b.w, b.h), "{context}: size");
    for sq in b.squares() {
        let lib = pos
            .piece_at(Square::new(sq.0 as u8, sq.1 as u8, b.w as u8))
            .map(|p| Piece { side: p.side.index(), king: p.king });
        assert_eq!(lib, b.at(sq), "{context}: square {} of {pos} / {}", naive::sq_name(sq), b.notation());
    }
    assert_eq!(pos.side_to_move().index(), b.side, "{context}: side to move");
    assert_eq!(u32::from(pos.clock()), b.clock, "{context}: counter");
}

/// A reference start position for Latrunculi on any board at least 4 ranks high, built from the
/// description of the standard and quick starts in `crates/rules/RULES.md` (Red's king on rank 2 at
/// file `w / 2`, Black's on the second-last rank at file `w / 2 - 1`).
pub fn latrunculi_start(w: usize, h: usize) -> Board {
    let mut b = Board::empty(Kind::Latrunculi, w, h);
    for f in 0..w {
        b.set((f, 0), Some(Piece { side: 0, king: false }));
        b.set((f, h - 1), Some(Piece { side: 1, king: false }));
    }
    b.set((w / 2, 1), Some(Piece { side: 0, king: true }));
    b.set((w / 2 - 1, h - 2), Some(Piece { side: 1, king: true }));
    b
}

pub fn alquerque_start() -> Board {
    Board::parse(Kind::Alquerque, "BBBBB/BBBBB/BB1WW/WWWWW/WWWWW w")
}

/// A random Latrunculi position on a `w` x `h` board: two kings anywhere, soldiers scattered with
/// a random density, a random side to move, and sometimes a counter close to the 100-ply limit.
pub fn random_latrunculi(rng: &mut impl Rng, w: usize, h: usize) -> Board {
    let mut b = Board::empty(Kind::Latrunculi, w, h);
    let squares = b.squares();
    let density = rng.random_range(0.05..0.5);
    for &sq in &squares {
        if rng.random_bool(density) {
            let side = rng.random_range(0..2);
            b.set(sq, Some(Piece { side, king: false }));
        }
    }
    for side in 0..2 {
        let sq = squares[rng.random_range(0..squares.len())];
        if b.at(sq).is_some_and(|p| p.king) {
            // Both kings drawn on the same square: put this one anywhere else.
            let other = squares.iter().copied().find(|&s| b.at(s).is_none_or(|p| !p.king)).unwrap();
            b.set(other, Some(Piece { side, king: true }));
        } else {
            b.set(sq, Some(Piece { side, king: true }));
        }
    }
    b.side = rng.random_range(0..2);
    b.clock = if rng.random_bool(0.4) { rng.random_range(85..100) } else { rng.random_range(0..20) };
    b
}

/// A random Alquerque position: 1 to 12 pieces per side anywhere, a random side to move, and
/// sometimes a counter close to the 50-ply limit.
pub fn random_alquerque(rng: &mut impl Rng) -> Board {
    let mut b = Board::empty(Kind::Alquerque, 5, 5);
    let mut squares = b.squares();
    for side in 0..2 {
        let n = rng.random_range(1..=12);
        for _ in 0..n {
            let i = rng.random_range(0..squares.len());
            let sq = squares.swap_remove(i);
            b.set(sq, Some(Piece { side, king: false }));
        }
    }
    b.side = rng.random_range(0..2);
    b.clock = if rng.random_bool(0.3) { rng.random_range(40..50) } else { rng.random_range(0..10) };
    b
}
