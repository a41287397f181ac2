//! The solved-position table: every position a search has proven or finally disproven, for each
//! attacker, with the move that goes with the result; and its state file, which lets a later
//! run continue where an earlier one stopped.
//!
//! A position's entry holds, for each attacker (White, Black), one of unknown, proven (the
//! attacker can force a win) or disproven (the defender can avoid losing for ever), and a move
//! of the side to move as an index into the rules crate's legal moves of the position, in
//! their order: the winning move when the side to move is the proven attacker, the defender's
//! holding move when the side to move is the defender of a disproof. Only final results are
//! stored (see the module [`super`]); a proof for one attacker is also a disproof for the other.
//!
//! # State file (version 1), numbers little-endian
//!
//! | bytes | what |
//! | --- | --- |
//! | 0..8 | magic `LUDUSSV` and byte 0x1A |
//! | 8..10 | format version, 1 |
//! | 10..16 | zero |
//! | 16..24 | number of entries `n` |
//! | 24.. | `n` entries of 13 bytes: key (8, see [`super::key`]), status (1: bits 0-1 White as attacker, bits 2-3 Black, 1 proven, 2 disproven), move for White as attacker (2), move for Black (2) |
//! | then 17 | the search under way: its root's key (8), its attacker (1: 0 none, 1 White, 2 Black), the number `m` of its expanded positions (8) |
//! | then | `m` keys of 8 bytes: the positions the search had expanded, so that a later run rebuilds its graph |
//! | last 8 | checksum: 64-bit FNV-1a over every byte before it |
//!
//! A file with a wrong magic, version, length, checksum, key or status is refused with an error.

use super::{SolveError, position_of};
use ludus_rules::Side;
use std::collections::HashMap;
use std::path::Path;

/// A stored result for one attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Nothing final is known.
    Unknown,
    /// The attacker can force a win.
    Proven,
    /// The defender can avoid losing for ever.
    Disproven,
}

/// No move stored.
pub const NO_MOVE: u16 = u16::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    bits: u8,
    moves: [u16; 2],
}

/// Counts of a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableCounts {
    /// Positions stored.
    pub entries: u64,
    /// Results "proven" (a position proven for one attacker counts once).
    pub proven: u64,
    /// Results "disproven" stored as such.
    pub disproven: u64,
}

/// The graph of a search under way, as a state file keeps it: the search's root and attacker
/// and the positions it had expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGraph {
    /// The key of the search's root.
    pub root: u64,
    /// The attacker.
    pub attacker: Side,
    /// The keys of the positions expanded (unsolved ones).
    pub expanded: Vec<u64>,
}

/// Final results of positions, for both attackers, and the graph of a search under way when
/// read from a state file.
#[derive(Clone, Debug, Default)]
pub struct SolvedTable {
    map: HashMap<u64, Entry>,
    /// The graph of the search under way when the state was saved, if any.
    pub graph: Option<SavedGraph>,
    proven: u64,
    disproven: u64,
}

const MAGIC: [u8; 8] = *b"LUDUSSV\x1a";
const VERSION: u16 = 1;
const HEADER: usize = 24;
const ENTRY: usize = 13;

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

impl SolvedTable {
    /// An empty table.
    pub fn new() -> SolvedTable {
        SolvedTable::default()
    }

    /// The result stored for `key` with `attacker` attacking, and its move (or [`NO_MOVE`]). A
    /// proof for the other side reads as a disproof, with that side's winning move.
    pub fn get(&self, key: u64, attacker: Side) -> (Status, u16) {
        let Some(e) = self.map.get(&key) else { return (Status::Unknown, NO_MOVE) };
        let a = attacker.index();
        match (e.bits >> (2 * a)) & 3 {
            1 => return (Status::Proven, e.moves[a]),
            2 => return (Status::Disproven, e.moves[a]),
            _ => {}
        }
        if (e.bits >> (2 * (1 - a))) & 3 == 1 {
            return (Status::Disproven, e.moves[1 - a]);
        }
        (Status::Unknown, NO_MOVE)
    }

    /// The result stored for `key` with `attacker` attacking.
    pub fn status(&self, key: u64, attacker: Side) -> Status {
        self.get(key, attacker).0
    }

    /// Stores a final result; a result already stored for that attacker is kept (the first
    /// result, and its move, stay).
    pub fn set(&mut self, key: u64, attacker: Side, status: Status, mv: u16) {
        let bits = match status {
            Status::Unknown => return,
            Status::Proven => 1u8,
            Status::Disproven => 2u8,
        };
        let a = attacker.index();
        let e = self.map.entry(key).or_insert(Entry { bits: 0, moves: [NO_MOVE; 2] });
        if (e.bits >> (2 * a)) & 3 != 0 {
            return;
        }
        e.bits |= bits << (2 * a);
        e.moves[a] = mv;
        if bits == 1 {
            self.proven += 1;
        } else {
            self.disproven += 1;
        }
    }

    /// Counts of entries and results.
    pub fn counts(&self) -> TableCounts {
        TableCounts { entries: self.map.len() as u64, proven: self.proven, disproven: self.disproven }
    }

    /// Positions stored.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// An estimate of the memory the table takes, in bytes.
    pub fn memory_bytes(&self) -> u64 {
        // A hash map slot: the key and the entry (16 bytes) and a control byte.
        self.map.capacity() as u64 * 17
    }

    /// The table as a state file's bytes, with the graph of a search under way (entries in key
    /// order, so that equal tables give equal files).
    pub fn to_bytes(&self, graph: Option<&SavedGraph>) -> Vec<u8> {
        let mut keys: Vec<&u64> = self.map.keys().collect();
        keys.sort_unstable();
        let m = graph.map_or(0, |g| g.expanded.len());
        let mut out = Vec::with_capacity(HEADER + keys.len() * ENTRY + 17 + 8 * m + 8);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&[0; 6]);
        out.extend_from_slice(&(keys.len() as u64).to_le_bytes());
        for k in keys {
            let e = self.map[k];
            out.extend_from_slice(&k.to_le_bytes());
            out.push(e.bits);
            out.extend_from_slice(&e.moves[0].to_le_bytes());
            out.extend_from_slice(&e.moves[1].to_le_bytes());
        }
        out.extend_from_slice(&graph.map_or(0, |g| g.root).to_le_bytes());
        out.push(graph.map_or(0, |g| 1 + g.attacker.index() as u8));
        out.extend_from_slice(&(m as u64).to_le_bytes());
        for k in graph.iter().flat_map(|g| &g.expanded) {
            out.extend_from_slice(&k.to_le_bytes());
        }
        let sum = fnv(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a state file's bytes (see the module documentation); `name` labels the errors.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<SolvedTable, SolveError> {
        let bad = |what: String| SolveError::File(format!("{name}: {what}"));
        if bytes.len() < HEADER + 17 + 8 {
            return Err(bad(format!("truncated: {} bytes, not a solver state file", bytes.len())));
        }
        if bytes[..8] != MAGIC {
            return Err(bad("not a solver state file (wrong magic)".into()));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(bad(format!("state format version {version}, this program reads version {VERSION}")));
        }
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let n = u64_at(16);
        let graph_at = (HEADER as u64).saturating_add(n.saturating_mul(ENTRY as u64));
        if graph_at.saturating_add(17 + 8) > bytes.len() as u64 {
            return Err(bad(format!("truncated: {} bytes for {n} entries", bytes.len())));
        }
        let g = graph_at as usize;
        let m = u64_at(g + 9);
        let expected = graph_at.saturating_add(17).saturating_add(m.saturating_mul(8)).saturating_add(8);
        if bytes.len() as u64 != expected {
            let what = if (bytes.len() as u64) < expected { "truncated" } else { "too long" };
            return Err(bad(format!("{what}: {} bytes, {expected} expected", bytes.len())));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(bad("checksum mismatch: the file is corrupt".into()));
        }
        let mut table = SolvedTable::new();
        for (i, rec) in body[HEADER..g].chunks_exact(ENTRY).enumerate() {
            let key = u64::from_le_bytes(rec[..8].try_into().expect("8 bytes"));
            let bits = rec[8];
            if position_of(key).is_none() {
                return Err(bad(format!("entry {i}: key {key:#x} is not a position")));
            }
            if bits & 0xF0 != 0 || bits & 3 == 3 || (bits >> 2) & 3 == 3 || bits == 0 {
                return Err(bad(format!("entry {i}: invalid status byte {bits:#x}")));
            }
            let moves = [u16::from_le_bytes([rec[9], rec[10]]), u16::from_le_bytes([rec[11], rec[12]])];
            for (a, side) in [Side::First, Side::Second].into_iter().enumerate() {
                let status = match (bits >> (2 * a)) & 3 {
                    1 => Status::Proven,
                    2 => Status::Disproven,
                    _ => continue,
                };
                table.set(key, side, status, moves[a]);
            }
        }
        let attacker = match body[g + 8] {
            0 => None,
            1 => Some(Side::First),
            2 => Some(Side::Second),
            x => return Err(bad(format!("invalid attacker byte {x}"))),
        };
        if let Some(attacker) = attacker {
            let root = u64_at(g);
            let expanded: Vec<u64> = body[g + 17..]
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect();
            if let Some(k) = std::iter::once(&root).chain(&expanded).find(|&&k| position_of(k).is_none()) {
                return Err(bad(format!("graph key {k:#x} is not a position")));
            }
            table.graph = Some(SavedGraph { root, attacker, expanded });
        }
        Ok(table)
    }

    /// Writes the state file with the graph of a search under way (to a temporary file first,
    /// then renamed over `path`, so that a run stopped while writing leaves the previous state
    /// whole).
    pub fn save(&self, path: &Path, graph: Option<&SavedGraph>) -> Result<(), SolveError> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes(graph))
            .map_err(|e| SolveError::File(format!("cannot write {}: {e}", tmp.display())))?;
        std::fs::rename(&tmp, path).map_err(|e| {
            SolveError::File(format!("cannot rename {} to {}: {e}", tmp.display(), path.display()))
        })
    }

    /// Reads a state file written by [`SolvedTable::save`].
    pub fn load(path: &Path) -> Result<SolvedTable, SolveError> {
        let bytes = std::fs::read(path)
            .map_err(|e| SolveError::File(format!("cannot read {}: {e}", path.display())))?;
        SolvedTable::from_bytes(&bytes, &path.display().to_string())
    }
}
