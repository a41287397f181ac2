//! The proven-value book: for positions whose value the solver has settled, that value and the
//! moves that keep it, so that Hard never throws a known value away.
//!
//! A book is read from the solver's results (the solved-position table, the endgame tables and
//! the game's ends; [`super::build`]), never from an evaluation: an entry's value and its moves are proven. Values are the
//! solver's (see the module [`super`]): a repetition or endless play is a draw and the no-capture
//! counter is ignored. Under the full rules the counter can only turn a win into a draw, so a
//! move that keeps a draw, or a win, still never loses.
//!
//! # Format (versions 1 and 2), numbers little-endian
//!
//! | bytes | what |
//! | --- | --- |
//! | 0..8 | magic `LUDUSBK` and byte 0x1A |
//! | 8..10 | format version, 1 or 2 |
//! | 10..12 | zero |
//! | 12..16 | number of entries `n` |
//! | 16.. | `n` entries of 12 bytes, in increasing key order: key (7 bytes, see [`super::key`]), value (1: 0 White wins, 1 Black wins, 2 draw), the moves that keep it (4: bit `i` is the `i`-th legal move in the rules crate's order) |
//! | last 8 | checksum: 64-bit FNV-1a over every byte before it |
//!
//! Version 1 writes each entry's 12 bytes in turn ([`Book::to_bytes`], the form a proof's
//! checksum binds). Version 2, the form the game ships ([`Book::to_packed_bytes`]), writes the
//! same bytes column by column: the first byte of every entry, then the second, and so on. The
//! sorted keys' high bytes then stand in long runs that compression takes almost whole (the
//! shipped book: 51,585 bytes with brotli as version 1, 37,797 as version 2).
//!
//! A file with a wrong magic, version, length, checksum, key, value or move set is refused
//! with an error; nothing of it is used.

use super::value::{SolveError, Value, key, position_of, without_counter};
use ludus_rules::alquerque::{Move, Position};
use ludus_rules::{GamePosition, Side};
use std::collections::HashMap;

const MAGIC: [u8; 8] = *b"LUDUSBK\x1a";
const VERSION: u16 = 1;
/// The version whose entries are written column by column.
const VERSION_PACKED: u16 = 2;
const HEADER: usize = 16;
const ENTRY: usize = 12;

/// What the book knows of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's value with best play.
    pub value: Value,
    /// The moves that keep it: bit `i` is the `i`-th of the position's legal moves.
    pub keep: u32,
}

/// A book of proven values (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    /// Sorted by key, one entry a key.
    entries: Vec<(u64, Entry)>,
}

fn value_byte(v: Value) -> u8 {
    match v {
        Value::WhiteWins => 0,
        Value::BlackWins => 1,
        Value::Draw => 2,
    }
}

impl Book {
    /// A book of `entries` (keys of positions as [`super::key`] gives them; a later entry of a
    /// key replaces an earlier one).
    pub fn from_entries(entries: impl IntoIterator<Item = (u64, Entry)>) -> Book {
        let map: HashMap<u64, Entry> = entries.into_iter().collect();
        let mut entries: Vec<(u64, Entry)> = map.into_iter().collect();
        entries.sort_unstable_by_key(|&(k, _)| k);
        Book { entries }
    }

    /// The number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in key order.
    pub fn entries(&self) -> &[(u64, Entry)] {
        &self.entries
    }

    /// The entry of `pos` (its counter ignored), if the book has it.
    pub fn get(&self, pos: &Position) -> Option<Entry> {
        let k = key(&without_counter(pos));
        self.entries.binary_search_by_key(&k, |&(k, _)| k).ok().map(|i| self.entries[i].1)
    }

    /// The value of `pos` and the legal moves that keep it, if the book has the position.
    pub fn keeping_moves(&self, pos: &Position) -> Option<(Value, Vec<Move>)> {
        let e = self.get(pos)?;
        let moves = pos.legal_moves();
        let keep: Vec<Move> = moves
            .iter()
            .enumerate()
            .filter(|&(i, _)| i < 32 && e.keep >> i & 1 == 1)
            .map(|(_, m)| *m)
            .collect();
        (!keep.is_empty()).then_some((e.value, keep))
    }

    /// Compares the book with a certificate (one [`super::check`] accepted): wherever the book
    /// has a position of one of the certificate's strategies, its value must be one the
    /// strategy allows (the strategy's side wins in a win strategy, does not lose in a
    /// non-losing one). Returns how many positions were compared; an error names the first
    /// position where the two disagree.
    pub fn agrees_with(&self, cert: &super::certificate::Certificate) -> Result<u64, SolveError> {
        use super::certificate::Kind;
        let mut compared = 0;
        for strategy in &cert.strategies {
            for (pos, _) in &strategy.nodes {
                let Some(e) = self.get(pos) else { continue };
                compared += 1;
                let allowed = match strategy.kind {
                    Kind::Win => e.value.winner() == Some(strategy.side),
                    Kind::NonLosing => e.value.winner() != Some(strategy.side.opponent()),
                };
                if !allowed {
                    return Err(SolveError::Check(format!(
                        "{pos}: the book says {} but the certificate's {} strategy for {} reaches it",
                        e.value,
                        if strategy.kind == Kind::Win { "win" } else { "non-losing" },
                        if strategy.side == Side::First { "White" } else { "Black" }
                    )));
                }
            }
        }
        Ok(compared)
    }

    /// The book as a file of version 1, entry after entry (see the module documentation): the
    /// bytes a proof's checksum binds.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.file(VERSION, self.rows())
    }

    /// The book as a file of version 2, column by column: the same book in a form that
    /// compresses far better (the form the game ships).
    pub fn to_packed_bytes(&self) -> Vec<u8> {
        let rows = self.rows();
        let packed = (0..ENTRY).flat_map(|j| rows.chunks_exact(ENTRY).map(move |row| row[j])).collect();
        self.file(VERSION_PACKED, packed)
    }

    /// Every entry's 12 bytes, in key order.
    fn rows(&self) -> Vec<u8> {
        let mut rows = Vec::with_capacity(ENTRY * self.entries.len());
        for &(k, e) in &self.entries {
            rows.extend_from_slice(&k.to_le_bytes()[..7]);
            rows.push(value_byte(e.value));
            rows.extend_from_slice(&e.keep.to_le_bytes());
        }
        rows
    }

    /// The header, `entries` and the checksum.
    fn file(&self, version: u16, entries: Vec<u8>) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + entries.len() + 8);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        out.extend_from_slice(&entries);
        let sum = super::certificate::checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a book file; `name` names it in errors. Every entry is checked: a key that is no
    /// position or a game already over, keys out of order, an unknown value, or a move set
    /// that is empty or names a move the position does not have.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Book, SolveError> {
        let bad = |what: String| SolveError::File(format!("{name}: {what}"));
        if bytes.len() < HEADER + 8 {
            return Err(bad(format!("truncated: {} bytes, not a book", bytes.len())));
        }
        if bytes[..8] != MAGIC {
            return Err(bad("not a book (wrong magic)".into()));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION && version != VERSION_PACKED {
            return Err(bad(format!(
                "book format version {version}, this program reads versions {VERSION} and {VERSION_PACKED}"
            )));
        }
        let n = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as u64;
        let expected = (HEADER as u64).saturating_add(n.saturating_mul(ENTRY as u64)).saturating_add(8);
        if bytes.len() as u64 != expected {
            let what = if (bytes.len() as u64) < expected { "truncated" } else { "too long" };
            return Err(bad(format!("{what}: {} bytes, {expected} expected for {n} entries", bytes.len())));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if super::certificate::checksum(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(bad("checksum mismatch: the file is corrupt".into()));
        }
        let stored = &body[HEADER..];
        let rows: std::borrow::Cow<[u8]> = if version == VERSION_PACKED {
            // Column `j` holds byte `j` of every entry.
            let n = n as usize;
            (0..stored.len()).map(|b| stored[(b % ENTRY) * n + b / ENTRY]).collect::<Vec<u8>>().into()
        } else {
            stored.into()
        };
        let mut entries = Vec::with_capacity(n as usize);
        let mut last: Option<u64> = None;
        for (i, rec) in rows.chunks_exact(ENTRY).enumerate() {
            let mut k8 = [0u8; 8];
            k8[..7].copy_from_slice(&rec[..7]);
            let k = u64::from_le_bytes(k8);
            let Some(pos) = position_of(k) else {
                return Err(bad(format!("entry {i}: key {k:#x} is no position")));
            };
            if last.is_some_and(|l| l >= k) {
                return Err(bad(format!("entry {i}: keys out of order")));
            }
            last = Some(k);
            let value = match rec[7] {
                0 => Value::WhiteWins,
                1 => Value::BlackWins,
                2 => Value::Draw,
                b => return Err(bad(format!("entry {i}: unknown value {b}"))),
            };
            let keep = u32::from_le_bytes(rec[8..12].try_into().expect("4 bytes"));
            if pos.outcome(false).is_some() {
                return Err(bad(format!("entry {i}: {pos} is a finished game")));
            }
            let moves = pos.legal_moves().len();
            if keep == 0 || (moves < 32 && keep >> moves != 0) {
                return Err(bad(format!(
                    "entry {i}: {pos} has {moves} legal moves, the move set {keep:#x} does not fit"
                )));
            }
            entries.push((k, Entry { value, keep }));
        }
        Ok(Book { entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_book_survives_its_file_and_refuses_damage() {
        let pos = Position::start();
        let k = key(&pos);
        let book = Book::from_entries([(k, Entry { value: Value::Draw, keep: 0b11 })]);
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes, "b").unwrap(), book);
        assert_eq!(book.keeping_moves(&pos).unwrap().1.len(), 2);
        // Every single damaged byte is refused.
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(Book::from_bytes(&bad, "b").is_err(), "byte {i}");
        }
        assert!(Book::from_bytes(&bytes[..bytes.len() - 1], "b").is_err());
        // A move set naming a move the position does not have, with a valid checksum.
        let too_many = Book::from_entries([(k, Entry { value: Value::Draw, keep: 1 << 20 })]).to_bytes();
        let err = Book::from_bytes(&too_many, "b").unwrap_err().to_string();
        assert!(err.contains("does not fit"), "{err}");
        let unsorted = {
            let other = key(&pos.play_unchecked(&pos.legal_moves()[0]));
            let mut b = Book::from_entries([
                (k, Entry { value: Value::Draw, keep: 1 }),
                (other, Entry { value: Value::Draw, keep: 1 }),
            ]);
            b.entries.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
            b.to_bytes()
        };
        assert!(Book::from_bytes(&unsorted, "b").unwrap_err().to_string().contains("order"));
    }

    #[test]
    fn a_packed_book_reads_as_the_same_book_and_refuses_damage() {
        let mut pos = Position::start();
        let mut entries = Vec::new();
        for _ in 0..6 {
            let moves = pos.legal_moves();
            entries.push((key(&pos), Entry { value: Value::Draw, keep: (1 << moves.len()) - 1 }));
            pos = pos.play_unchecked(&moves[moves.len() / 2]);
        }
        let book = Book::from_entries(entries);
        let packed = book.to_packed_bytes();
        assert_eq!(packed.len(), book.to_bytes().len());
        assert_ne!(packed, book.to_bytes(), "column by column, not entry after entry");
        assert_eq!(Book::from_bytes(&packed, "b").unwrap(), book);
        for i in 0..packed.len() {
            let mut bad = packed.clone();
            bad[i] ^= 0x10;
            assert!(Book::from_bytes(&bad, "b").is_err(), "byte {i}");
        }
    }

    /// The game and the server ship the book packed; a proof binds the same book's entry
    /// after entry form, whatever the file's.
    #[test]
    fn the_shipped_book_is_packed() {
        let shipped = include_bytes!("../../../../assets/books/alquerque.lbk");
        let book = Book::from_bytes(shipped, "alquerque.lbk").expect("the shipped book reads");
        assert_eq!(u16::from_le_bytes([shipped[8], shipped[9]]), VERSION_PACKED);
        assert_eq!(book.to_packed_bytes(), shipped.as_slice());
        assert_eq!(Book::from_bytes(&book.to_bytes(), "v1").unwrap(), book);
    }
}
