//! An Alquerque endgame tablebase: for every position with few pieces, the game-theoretic value
//! for the side to move (win, draw or loss) and the distance to the end in plies with best play
//! (the winner ends the game as fast as possible, the loser holds out as long as possible).
//!
//! Values ignore the 50-ply no-capture counter and repetitions: a position where both sides can
//! play on for ever without losing is a draw. They are computed by retrograde analysis
//! ([`generate`]) from the rules crate's own move generator and outcome.
//!
//! # Files
//!
//! One file per material signature, named `alq-<m>v<o>.ltb` for `m` pieces of the side to move
//! against `o` of the other side (whichever colour is to move: a position with Black to move is
//! stored upside down with the colours swapped, see [`index`]). The format and its checks are
//! described in [`table`]; a corrupt or truncated file gives a [`TbError`], never a panic or a
//! wrong value. Tables are loaded on demand, the first time a position of their material is
//! probed ([`Tablebase::open`]), or given in memory ([`Tablebase::from_bytes`],
//! [`Tablebase::from_tables`]) where there is no file system, as on the web. A file larger than
//! [`STREAM_ABOVE`] bytes (the biggest 9- and 10-piece tables) is checked whole when it is
//! first needed and then stays on disk: each probe reads the bytes it needs
//! ([`Tablebase::stream_above`] changes the size).
//!
//! ```
//! use ludus_ai::tablebase::{self, Wdl};
//! use ludus_rules::{alquerque::Position, GamePosition};
//!
//! let tb = tablebase::generate(3, None, |_| {}).unwrap(); // in memory, a fraction of a second
//! let pos = Position::parse("5/5/2B2/1W3/W4 w").unwrap();
//! let probe = tb.probe(&pos).unwrap();
//! assert_eq!(probe.wdl, Wdl::Win);
//! let best = tb.best_move(&pos).unwrap();
//! assert_eq!(pos.move_to_string(&best), "b2xd4");
//! assert_eq!(probe.describe(pos.side_to_move()), "White wins in 1 ply");
//! ```
//!
//! # In the search
//!
//! [`crate::AnySearch::with_tablebase`] attaches a tablebase to an Alquerque search; see
//! [`crate::Search::set_tablebase`] for what the search does with it.

mod generate;
pub mod index;
pub mod table;

pub use generate::{Generated, MAX_GENERATE, generate, generate_with_threads};
pub use index::Material;
pub use table::{Table, TableStats};

use crate::score::{loss_in, win_in};
use ludus_rules::alquerque::{Move, NO_CAPTURE_LIMIT, Position};
use ludus_rules::{GamePosition, Side};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The game-theoretic value of a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Wdl {
    /// The side to move wins with best play.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses against best play.
    Loss,
}

impl Wdl {
    /// The value for the other side.
    pub fn negate(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

/// A tablebase answer for the side to move of the probed position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Probe {
    /// Win, draw or loss.
    pub wdl: Wdl,
    /// Plies to the end of the game with best play: odd for a win, even for a loss (0 when the
    /// side to move has already lost), 0 for a draw.
    pub plies_to_end: u16,
}

impl Probe {
    /// The value, for the side to move, of a move that leads to a position of value `self`.
    pub fn before_move(self) -> Probe {
        match self.wdl {
            Wdl::Draw => self,
            w => Probe { wdl: w.negate(), plies_to_end: self.plies_to_end + 1 },
        }
    }

    /// The winner with best play, given the side to move (`None` for a draw).
    pub fn winner(self, side_to_move: Side) -> Option<Side> {
        match self.wdl {
            Wdl::Win => Some(side_to_move),
            Wdl::Draw => None,
            Wdl::Loss => Some(side_to_move.opponent()),
        }
    }

    /// A search score at `ply` plies from the root (see [`crate::score`]): a win or a loss at
    /// the end of the tablebase line, a draw as 0.
    pub fn score(self, ply: usize) -> i32 {
        let end = ply + usize::from(self.plies_to_end);
        match self.wdl {
            Wdl::Win => win_in(end),
            Wdl::Draw => 0,
            Wdl::Loss => loss_in(end),
        }
    }

    /// Whether the result holds under the no-capture counter too: a draw always does; a win or
    /// a loss when the game ends before the counter (at `clock` now) can reach its limit, even
    /// if no capture happens on the way.
    pub fn holds_with_clock(self, clock: u16) -> bool {
        self.wdl == Wdl::Draw || u32::from(clock) + u32::from(self.plies_to_end) < u32::from(NO_CAPTURE_LIMIT)
    }

    /// "White wins in 9 plies", "Black wins in 1 ply", "draw".
    pub fn describe(self, side_to_move: Side) -> String {
        let name = |s: Side| if s == Side::First { "White" } else { "Black" };
        match self.winner(side_to_move) {
            None => "draw".to_string(),
            Some(w) => {
                let n = self.plies_to_end;
                format!("{} wins in {n} {}", name(w), if n == 1 { "ply" } else { "plies" })
            }
        }
    }
}

/// What went wrong with a tablebase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbError {
    /// A file or directory could not be read or written.
    Io(String),
    /// A file is not a valid table: wrong magic, version, material, length or checksum.
    Corrupt(String),
    /// A request the tablebase cannot meet (a bad piece count, say).
    Invalid(String),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Io(s) | TbError::Corrupt(s) | TbError::Invalid(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for TbError {}

const SLOTS: usize = 12 * 12;

/// The size, in bytes, above which [`Tablebase::open`] leaves a table's file on disk instead of
/// reading it into memory: 256 MiB, which keeps every table of up to 8 pieces in memory.
pub const STREAM_ABOVE: u64 = 256 << 20;

fn slot(m: Material) -> usize {
    usize::from(m.mover - 1) * 12 + usize::from(m.other - 1)
}

/// A set of tables, probed by position. Tables from a directory are loaded (and checked) the
/// first time they are needed; it is safe to share between threads (`Arc<Tablebase>`).
pub struct Tablebase {
    dir: Option<PathBuf>,
    available: [bool; SLOTS],
    tables: Vec<OnceLock<Result<Arc<Table>, TbError>>>,
    max_pieces: u32,
    stream_above: u64,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase").field("dir", &self.dir).field("materials", &self.materials()).finish()
    }
}

impl Tablebase {
    fn empty(dir: Option<PathBuf>) -> Tablebase {
        Tablebase {
            dir,
            available: [false; SLOTS],
            tables: (0..SLOTS).map(|_| OnceLock::new()).collect(),
            max_pieces: 0,
            stream_above: STREAM_ABOVE,
        }
    }

    /// Leaves the files of tables larger than `bytes` on disk, read at each probe, instead of
    /// [`STREAM_ABOVE`] (tables already loaded stay as they are).
    pub fn stream_above(mut self, bytes: u64) -> Tablebase {
        self.stream_above = bytes;
        self
    }

    fn add(&mut self, table: Arc<Table>) {
        let m = table.material();
        self.available[slot(m)] = true;
        self.max_pieces = self.max_pieces.max(m.total());
        let cell = OnceLock::new();
        let _ = cell.set(Ok(table));
        self.tables[slot(m)] = cell;
    }

    /// The tables of directory `dir` (files named as [`Material::file_name`]), each read the
    /// first time a position of its material is probed. Fails if the directory cannot be read.
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebase, TbError> {
        let dir = dir.as_ref();
        let entries = std::fs::read_dir(dir)
            .map_err(|e| TbError::Io(format!("cannot read tablebase directory {}: {e}", dir.display())))?;
        let mut tb = Tablebase::empty(Some(dir.to_path_buf()));
        for entry in entries.flatten() {
            if let Some(m) = entry.file_name().to_str().and_then(Material::from_file_name) {
                tb.available[slot(m)] = true;
                tb.max_pieces = tb.max_pieces.max(m.total());
            }
        }
        Ok(tb)
    }

    /// Tables already in memory.
    pub fn from_tables(tables: impl IntoIterator<Item = Table>) -> Tablebase {
        Tablebase::from_arcs(tables.into_iter().map(Arc::new))
    }

    pub(crate) fn from_arcs(tables: impl IntoIterator<Item = Arc<Table>>) -> Tablebase {
        let mut tb = Tablebase::empty(None);
        for t in tables {
            tb.add(t);
        }
        tb
    }

    /// Tables from the bytes of their files (as embedded in a web build), each checked.
    pub fn from_bytes<'a>(files: impl IntoIterator<Item = &'a [u8]>) -> Result<Tablebase, TbError> {
        let mut tb = Tablebase::empty(None);
        for bytes in files {
            tb.add(Arc::new(Table::from_bytes(bytes)?));
        }
        Ok(tb)
    }

    /// The materials this tablebase has a table for (loaded or not), smallest first.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = (0..SLOTS)
            .filter(|&s| self.available[s])
            .map(|s| Material { mover: (s / 12 + 1) as u8, other: (s % 12 + 1) as u8 })
            .collect();
        v.sort_by_key(|m| (m.total(), m.mover));
        v
    }

    /// The most pieces of any table.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The table of `material`: `Ok(None)` when there is none, an error when its file is
    /// unreadable or corrupt (the error is kept: the file is not read again).
    pub fn table(&self, material: Material) -> Result<Option<Arc<Table>>, TbError> {
        let s = slot(material);
        if !self.available[s] {
            return Ok(None);
        }
        let loaded = self.tables[s].get_or_init(|| match &self.dir {
            Some(dir) => Table::open(&dir.join(material.file_name()), self.stream_above).and_then(|t| {
                if t.material() == material {
                    Ok(Arc::new(t))
                } else {
                    Err(TbError::Corrupt(format!(
                        "{}: holds material {}",
                        material.file_name(),
                        t.material()
                    )))
                }
            }),
            None => Err(TbError::Invalid(format!("no table {material}"))),
        });
        loaded.clone().map(Some)
    }

    /// The value of `pos` for its side to move, `Ok(None)` when no table covers it; an error
    /// when its table's file is unreadable or corrupt. The no-capture counter is ignored.
    pub fn try_probe(&self, pos: &Position) -> Result<Option<Probe>, TbError> {
        let m = pos.material();
        let us = pos.side_to_move().index();
        if m[us] == 0 {
            // Over already: the rules say the side without pieces has lost.
            return Ok(pos
                .rule_outcome(false)
                .filter(|o| o.winner == Some(pos.side_to_move().opponent()))
                .map(|_| Probe { wdl: Wdl::Loss, plies_to_end: 0 }));
        }
        if m[1 - us] == 0 || m[0] + m[1] > self.max_pieces {
            return Ok(None);
        }
        let Some(material) = Material::new(m[us], m[1 - us]) else { return Ok(None) };
        let Some(table) = self.table(material)? else { return Ok(None) };
        let (mover, other) = index::normalize(pos);
        table.try_get(index::index(mover, other))
    }

    /// The value of `pos` for its side to move, if a table covers it and can be read.
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        self.try_probe(pos).ok().flatten()
    }

    /// Every legal move of `pos` with its value for the side to move (the value of the
    /// position it leads to, seen from the mover), in the rules' move order; `None` unless
    /// every resulting position is covered.
    pub fn move_values(&self, pos: &Position) -> Option<Vec<(Move, Probe)>> {
        pos.legal_moves()
            .into_iter()
            .map(|mv| self.probe(&pos.play_unchecked(&mv)).map(|p| (mv, p.before_move())))
            .collect()
    }

    /// The best move of `pos` by the tables: the fastest win, else a drawing move, else the
    /// longest defence (the first in the rules' move order among equals). `None` when the side
    /// to move has no legal move or a resulting position is not covered.
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        best_of(&self.move_values(pos)?).map(|(m, _)| m)
    }

    /// The line of best moves from `pos` to the end of the game (at most `max_plies` moves;
    /// empty for a draw, whose line never ends).
    pub fn line(&self, pos: &Position, max_plies: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut p = *pos;
        while line.len() < max_plies {
            match self.probe(&p) {
                Some(v) if v.wdl != Wdl::Draw && v.plies_to_end > 0 => {}
                _ => break,
            }
            let Some(mv) = self.best_move(&p) else { break };
            line.push(mv);
            p = p.play_unchecked(&mv);
        }
        line
    }
}

/// How good a value is for the side to move: fast wins, then draws, then slow losses.
fn goodness(p: Probe) -> i32 {
    let d = i32::from(p.plies_to_end);
    match p.wdl {
        Wdl::Win => 100_000 - d,
        Wdl::Draw => 0,
        Wdl::Loss => -100_000 + d,
    }
}

/// The best of a list of moves with their values (the first among equals).
pub fn best_of(values: &[(Move, Probe)]) -> Option<(Move, Probe)> {
    best_of_generic(values)
}

/// [`best_of`] for any move type.
pub(crate) fn best_of_generic<M: Copy>(values: &[(M, Probe)]) -> Option<(M, Probe)> {
    let mut best: Option<(M, Probe)> = None;
    for &(m, p) in values {
        if best.is_none_or(|(_, b)| goodness(p) > goodness(b)) {
            best = Some((m, p));
        }
    }
    best
}
