//! The proof of a book of proven values ([`super::book`]): the strategies that back every
//! entry, written (by [`super::prove::prove`]) so that [`super::check::check_book`] can replay
//! them with only the rules crate and the endgame tables, as it replays a certificate. This
//! file is the format and the roots of the strategies.
//!
//! An entry (a position, its value, the moves that keep it) is backed by strategies from the
//! positions [`book_roots`] names: for a win, the winner's win strategy from the
//! position and, when the winner is to move, from the position after each kept move; for a
//! draw, a non-losing strategy of each side from the position and the mover's non-losing
//! strategy after each kept move. The strategies of all entries are merged, one for each side
//! and kind, with one line for each position (the solver's results give one move a position).
//!
//! # Format (version 1): text lines
//!
//! ```text
//! ludus-alquerque-book-proof 1
//! rules no-capture-counter-ignored repetition-is-draw
//! book <entries> <16 hex digits: the checksum of the book file>
//! tables <pieces>
//! strategy <white|black> <win|non-losing> <nodes>
//! <position> : <move>
//! <position> = <reply> <reply> ...
//! end
//! checksum <16 hex digits>
//! ```
//!
//! The strategy sections are those of a certificate ([`super::certificate`]). The `book` line
//! binds the proof to one book: its number of entries and the 64-bit FNV-1a checksum of its
//! file's bytes, so that a proof is never taken for another book.

use super::book::{Book, Entry};
use super::certificate::{Kind, Lines, RULES_LINE, Strategy, checksum, seal, write_strategies};
use super::value::{SolveError, without_counter};
use ludus_rules::alquerque::Position;
use ludus_rules::{GamePosition, Side};
use std::fmt::Write as _;

/// The first line of every book proof of this version.
pub const FIRST_LINE: &str = "ludus-alquerque-book-proof 1";

/// A book's proof (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookProof {
    /// The number of entries of the book proven.
    pub book_entries: u64,
    /// The checksum of the book's file ([`book_checksum`]).
    pub book_checksum: u64,
    /// The largest piece count of the tables used as leaves (0: none).
    pub tables: u32,
    /// At most one strategy for each side and kind.
    pub strategies: Vec<Strategy>,
}

/// The checksum that binds a proof to `book`: 64-bit FNV-1a of its file's bytes.
pub fn book_checksum(book: &Book) -> u64 {
    checksum(&book.to_bytes())
}

impl BookProof {
    /// The proof's text, checksum included.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{FIRST_LINE}");
        let _ = writeln!(s, "{RULES_LINE}");
        let _ = writeln!(s, "book {} {:016x}", self.book_entries, self.book_checksum);
        let _ = writeln!(s, "tables {}", self.tables);
        write_strategies(&mut s, &self.strategies);
        seal(s)
    }

    /// Reads a proof's text; every problem is an error naming the line.
    pub fn parse(text: &str) -> Result<BookProof, SolveError> {
        let mut lines = Lines::open(text, "book proof", FIRST_LINE)?;
        const BOOK: &str = "expected 'book <entries> <checksum>'";
        let (book_entries, book_checksum) = lines.field("book", "the book line", BOOK, |r| {
            let read = || {
                let (e, c) = r.split_once(' ')?;
                Some((e.parse().ok()?, u64::from_str_radix(c, 16).ok()?))
            };
            read().ok_or_else(|| BOOK.to_string())
        })?;
        let tables = lines.tables()?;
        let strategies = lines.strategies()?;
        Ok(BookProof { book_entries, book_checksum, tables, strategies })
    }
}

/// The strategies that back a book's entry, as (position, side, kind): for a win, the winner's
/// win from the position and, when the winner is to move, from the position after each move
/// the entry keeps; for a draw, a non-losing strategy of each side from the position and the
/// mover's from the position after each kept move (its opponent cannot win there). A loss for
/// the mover needs nothing more: the winner's strategy answers every move. An entry whose
/// move set names a move the position lacks is an error.
pub fn book_roots(pos: &Position, entry: &Entry) -> Result<Vec<(Position, Side, Kind)>, SolveError> {
    let pos = without_counter(pos);
    let mover = pos.side_to_move();
    let moves = pos.legal_moves();
    if moves.len() < 32 && entry.keep >> moves.len() != 0 {
        return Err(SolveError::Check(format!(
            "the book's entry {pos} keeps a move it does not have (move set {:#x}, {} legal moves)",
            entry.keep,
            moves.len()
        )));
    }
    let kept = moves.iter().enumerate().filter(|&(i, _)| i < 32 && entry.keep >> i & 1 == 1);
    let children = |side: Side, kind: Kind| {
        kept.clone().map(move |(_, m)| (without_counter(&pos.play_unchecked(m)), side, kind))
    };
    Ok(match entry.value.winner() {
        Some(w) if w == mover => std::iter::once((pos, w, Kind::Win)).chain(children(w, Kind::Win)).collect(),
        Some(w) => vec![(pos, w, Kind::Win)],
        None => [(pos, Side::First, Kind::NonLosing), (pos, Side::Second, Kind::NonLosing)]
            .into_iter()
            .chain(children(mover, Kind::NonLosing))
            .collect(),
    })
}
