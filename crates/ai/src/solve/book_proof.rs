//! The proof of a book of proven values ([`super::book`]): the strategies that back every
//! entry, written so that [`super::check::check_book`] can replay them with only the rules
//! crate and the endgame tables, as it replays a certificate.
//!
//! An entry (a position, its value, the moves that keep it) is backed by strategies from the
//! positions [`super::check::book_roots`] names: for a win, the winner's win strategy from the
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

use super::book::{Book, BuildLimits, BuildStats, solve_a_little};
use super::certificate::{
    Line, Lines, RULES_LINE, STRATEGIES, Strategy, checksum, seal, slot, strategy_into, write_strategies,
};
use super::check::book_roots;
use super::table::SolvedTable;
use super::{SolveError, position_of};
use crate::tablebase::Tablebase;
use ludus_rules::alquerque::Position;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::Arc;

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

/// Counts of a [`prove`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProveStats {
    /// Entries proven so far.
    pub entries: u64,
    /// Entries left out so far: no strategy backs them within the budget.
    pub left_out: u64,
    /// Solver runs started for strategies the solved-position table did not hold whole.
    pub solves: u64,
    /// Positions written, over all strategies.
    pub positions: u64,
}

/// Writes the proof of `book` from the solver's results in `table` and the tables `tb`. Where
/// the table does not hold a whole strategy, the solver runs on its root for
/// `limits.solve_nodes` nodes (its results go into `table`), and the strategy is read again;
/// then for ten and a hundred times as many nodes. An entry that still cannot be backed is
/// left out (a book's entries come from the solver's results, so this happens only with a
/// table other than the book's, or too few nodes): the proof is then of the book of the other
/// entries, which is returned with it. `progress` is called after each entry.
pub fn prove(
    book: &Book,
    tb: Option<Arc<Tablebase>>,
    table: &mut SolvedTable,
    limits: &BuildLimits,
    mut progress: impl FnMut(&ProveStats),
) -> Result<(BookProof, Book, ProveStats), SolveError> {
    let mut seen: [HashSet<u64>; 4] = Default::default();
    let mut nodes: [Vec<(Position, Line)>; 4] = Default::default();
    let mut stats = ProveStats::default();
    let mut proven = Vec::with_capacity(book.len());
    'entries: for &(k, entry) in book.entries() {
        let pos =
            position_of(k).ok_or_else(|| SolveError::File(format!("book key {k:#x} is no position")))?;
        for (root, side, kind) in book_roots(&pos, &entry)? {
            let i = slot(side, kind);
            let mut tried =
                strategy_into(&root, side, kind, table, tb.as_deref(), &mut seen[i], &mut nodes[i]);
            // Solving with the budget, then ten and a hundred times more: the book's own
            // solves had the results of the positions its walk had solved before.
            let mut budget = *limits;
            for _ in 0..3 {
                if tried.is_ok() {
                    break;
                }
                let mut build = BuildStats::default();
                solve_a_little(&root, &tb, table, &budget, &mut build)?;
                stats.solves += build.solves;
                tried = strategy_into(&root, side, kind, table, tb.as_deref(), &mut seen[i], &mut nodes[i]);
                budget.solve_nodes = budget.solve_nodes.saturating_mul(10);
            }
            if let Err(e) = tried {
                // A tables' error is no reason to leave an entry out.
                if matches!(e, SolveError::Tablebase(_)) {
                    return Err(e);
                }
                stats.left_out += 1;
                progress(&stats);
                continue 'entries;
            }
        }
        proven.push((k, entry));
        stats.entries += 1;
        stats.positions = nodes.iter().map(|n| n.len() as u64).sum();
        progress(&stats);
    }
    let book = Book::from_entries(proven);
    let strategies: Vec<Strategy> = STRATEGIES
        .into_iter()
        .zip(nodes)
        .filter(|(_, n)| !n.is_empty())
        .map(|((side, kind), nodes)| Strategy { side, kind, nodes })
        .collect();
    let proof = BookProof {
        book_entries: book.len() as u64,
        book_checksum: book_checksum(&book),
        tables: tb.as_deref().map_or(0, Tablebase::max_pieces),
        strategies,
    };
    Ok((proof, book, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Value;
    use crate::solve::book::{Entry, build};
    use crate::solve::check::check_book;
    use crate::tablebase;
    use ludus_rules::GamePosition;

    fn limits(max_plies: u32) -> BuildLimits {
        BuildLimits {
            max_plies,
            max_entries: 1000,
            after_mistake: 2,
            solve_nodes: 1 << 20,
            max_graph: 1 << 20,
        }
    }

    /// A book of a drawn and of a won 5-piece position, with 3-piece tables as leaves.
    fn book(tb: &Arc<Tablebase>) -> Book {
        let mut entries = Vec::new();
        for text in ["B3B/5/2W2/5/W3B w", "5/2B2/1BW2/5/W3W w"] {
            let pos = Position::parse(text).unwrap();
            let (b, _) = build(&pos, Some(tb.clone()), &mut SolvedTable::new(), limits(4), |_| {}).unwrap();
            entries.extend_from_slice(b.entries());
        }
        Book::from_entries(entries)
    }

    /// `book` without the entry of key `k`.
    fn fewer_than(book: &Book, k: u64) -> Book {
        Book::from_entries(book.entries().iter().copied().filter(|&(x, _)| x != k))
    }

    fn proof_of(book: &Book, tb: &Arc<Tablebase>) -> BookProof {
        // A fresh table: every strategy is solved again by the prover.
        let (proof, proven, stats) =
            prove(book, Some(tb.clone()), &mut SolvedTable::new(), &limits(0), |_| {}).unwrap();
        assert_eq!((stats.entries, stats.left_out), (book.len() as u64, 0));
        assert_eq!(&proven, book);
        assert!(stats.solves > 0);
        proof
    }

    #[test]
    fn a_book_is_proven_and_the_proof_checked() {
        let tb = Arc::new(tablebase::generate(3, None, |_| {}).unwrap());
        let book = book(&tb);
        let values: Vec<Value> = book.entries().iter().map(|(_, e)| e.value).collect();
        assert!(values.contains(&Value::Draw) && values.contains(&Value::WhiteWins), "{values:?}");
        let proof = proof_of(&book, &tb);
        let text = proof.to_text();
        assert_eq!(BookProof::parse(&text).unwrap(), proof);
        let report = check_book(&book, &proof, Some(&tb)).unwrap();
        assert_eq!(report.entries, book.len() as u64);
        assert!(report.strategies.positions > 0 && report.strategies.table_leaves > 0, "{report:?}");
        // Without the tables the leaves are gone: refused, not believed.
        assert!(check_book(&book, &proof, None).is_err());
    }

    #[test]
    fn a_wrong_proof_or_a_wrong_book_is_refused() {
        let tb = Arc::new(tablebase::generate(3, None, |_| {}).unwrap());
        let book = book(&tb);
        let proof = proof_of(&book, &tb);
        let check = |b: &Book, p: &BookProof| check_book(b, p, Some(&tb)).unwrap_err().to_string();

        // The proof of another book.
        let fewer = Book::from_entries(book.entries()[1..].iter().copied());
        assert!(check(&fewer, &proof).contains("another book"));

        // A changed move: every strategy's first choice replaced by another legal move.
        let mut refused = 0;
        for s in 0..proof.strategies.len() {
            let mut bad = proof.clone();
            let Some((pos, line)) = bad.strategies[s]
                .nodes
                .iter_mut()
                .find(|(p, l)| matches!(l, Line::Choice(_)) && p.legal_moves().len() > 1)
            else {
                continue;
            };
            let Line::Choice(m) = line else { unreachable!() };
            let other =
                pos.legal_moves().into_iter().map(|mv| pos.move_to_string(&mv)).find(|o| o != m).unwrap();
            *m = other;
            let bad = BookProof::parse(&bad.to_text()).unwrap();
            if check_book(&book, &bad, Some(&tb)).is_err() {
                refused += 1;
            }
        }
        assert!(refused > 0, "a changed move is refused somewhere");

        // A missing reply.
        let mut bad = proof.clone();
        let (_, line) = bad
            .strategies
            .iter_mut()
            .flat_map(|s| s.nodes.iter_mut())
            .find(|(_, l)| matches!(l, Line::Replies(r) if r.len() > 1))
            .unwrap();
        let Line::Replies(r) = line else { unreachable!() };
        r.pop();
        assert!(check(&book, &bad).contains("is missing"));

        // A position left out of a strategy.
        let mut bad = proof.clone();
        let biggest = bad.strategies.iter_mut().max_by_key(|s| s.nodes.len()).unwrap();
        biggest.nodes.pop();
        assert!(check(&book, &bad).contains("is not in the"));

        // A book that keeps a move throwing a draw away, with a proof bound to it: refused, and
        // the prover cannot back it either.
        let (k, _) = *book
            .entries()
            .iter()
            .find(|(k, e)| {
                e.value == Value::Draw
                    && e.keep.count_ones() < position_of(*k).unwrap().legal_moves().len() as u32
            })
            .expect("a draw with a move dropped");
        let moves = position_of(k).unwrap().legal_moves().len() as u32;
        let all = if moves >= 32 { u32::MAX } else { (1 << moves) - 1 };
        let greedy = Book::from_entries(
            book.entries().iter().copied().chain([(k, Entry { value: Value::Draw, keep: all })]),
        );
        let mut bound = proof.clone();
        bound.book_checksum = book_checksum(&greedy);
        assert!(check_book(&greedy, &bound, Some(&tb)).is_err());
        let (_, proven, stats) =
            prove(&greedy, Some(tb.clone()), &mut SolvedTable::new(), &limits(0), |_| {}).unwrap();
        assert_eq!(stats.left_out, 1);
        assert_eq!(proven, fewer_than(&greedy, k));

        // A value that is not the position's: a draw called a win.
        let (k, _) = *book.entries().iter().find(|(_, e)| e.value == Value::Draw).unwrap();
        let liar = Book::from_entries(
            book.entries().iter().copied().chain([(k, Entry { value: Value::WhiteWins, keep: 1 })]),
        );
        let mut bound = proof.clone();
        bound.book_checksum = book_checksum(&liar);
        assert!(check_book(&liar, &bound, Some(&tb)).is_err());
    }
}
