//! Proofs written from the solver's results: a certificate of a solved position ([`extract`])
//! and the proof of a book of proven values ([`prove`]), their strategies read out of the
//! solved-position table. The formats are [`super::certificate`] and [`super::book_proof`];
//! [`super::check`] replays them without this file or the table.

use super::book::Book;
use super::book_proof::{BookProof, book_checksum, book_roots};
use super::build::{BuildLimits, BuildStats, solve_a_little};
use super::certificate::{Certificate, Kind, Line, STRATEGIES, Strategy, side_name, slot};
use super::table::{NO_MOVE, SolvedTable, Status};
use super::value::{SolveError, Value, exact_value, key, position_of, without_counter};
use crate::tablebase::Tablebase;
use ludus_rules::alquerque::Position;
use ludus_rules::{GamePosition, Side};
use std::collections::HashSet;
use std::sync::Arc;

/// The strategy of `side` read from the solved-position table: a win (`side` proven as the
/// attacker, every proof is stored with its winning move) or a non-losing one (the other side
/// disproven as the attacker, every disproof is stored with the defender's holding move). Fails
/// if the table does not hold a whole strategy from `root` (it always does after the solver
/// has solved `root`).
pub fn strategy(
    root: &Position,
    side: Side,
    kind: Kind,
    table: &SolvedTable,
    tb: Option<&Tablebase>,
) -> Result<Strategy, SolveError> {
    let mut nodes = Vec::new();
    strategy_into(root, side, kind, table, tb, &mut HashSet::new(), &mut nodes)?;
    Ok(Strategy { side, kind, nodes })
}

/// Adds the strategy of `side` from `root` (as [`strategy`] reads it) to `nodes`, leaving out
/// the positions in `seen` (those of the same side and kind already written, with everything
/// they lead to) and adding the new ones to it. On an error, `nodes` and `seen` are as they
/// were.
pub fn strategy_into(
    root: &Position,
    side: Side,
    kind: Kind,
    table: &SolvedTable,
    tb: Option<&Tablebase>,
    seen: &mut HashSet<u64>,
    nodes: &mut Vec<(Position, Line)>,
) -> Result<(), SolveError> {
    let before = nodes.len();
    let mut add = || -> Result<(), SolveError> {
        let attacker = if kind == Kind::Win { side } else { side.opponent() };
        let wanted = if kind == Kind::Win { Status::Proven } else { Status::Disproven };
        let mut stack = vec![without_counter(root)];
        let mut leaves = HashSet::new();
        let mut moves = Vec::new();
        while let Some(pos) = stack.pop() {
            let k = key(&pos);
            if seen.contains(&k) || leaves.contains(&k) {
                continue;
            }
            if exact_value(&pos, tb)?.is_some() {
                leaves.insert(k);
                continue;
            }
            let (status, mv) = table.get(k, attacker);
            if status != wanted {
                return Err(SolveError::Check(format!(
                    "the solved-position table has no {} result for {pos} with {} attacking",
                    if wanted == Status::Proven { "proven" } else { "disproven" },
                    side_name(attacker)
                )));
            }
            pos.generate_moves(&mut moves);
            if pos.side_to_move() == side {
                let m = (mv != NO_MOVE).then(|| moves.get(usize::from(mv))).flatten().ok_or_else(|| {
                    SolveError::Check(format!("the solved-position table has no move for {pos}"))
                })?;
                nodes.push((pos, Line::Choice(pos.move_to_string(m))));
                stack.push(without_counter(&pos.play_unchecked(m)));
            } else {
                nodes.push((pos, Line::Replies(moves.iter().map(|m| pos.move_to_string(m)).collect())));
                for m in moves.iter().rev() {
                    stack.push(without_counter(&pos.play_unchecked(m)));
                }
            }
            // Only now: an error before leaves no key in `seen` without its line in `nodes`.
            seen.insert(k);
        }
        Ok(())
    };
    let result = add();
    if result.is_err() {
        for (pos, _) in nodes.drain(before..) {
            seen.remove(&key(&pos));
        }
    }
    result
}

/// The certificate of `value` for `root` from the solved-position table.
pub fn extract(
    root: &Position,
    value: Value,
    table: &SolvedTable,
    tb: Option<&Tablebase>,
) -> Result<Certificate, SolveError> {
    let strategies = match value.winner() {
        Some(w) => vec![strategy(root, w, Kind::Win, table, tb)?],
        None => vec![
            strategy(root, Side::First, Kind::NonLosing, table, tb)?,
            strategy(root, Side::Second, Kind::NonLosing, table, tb)?,
        ],
    };
    Ok(Certificate {
        root: without_counter(root),
        claim: value,
        tables: tb.map_or(0, Tablebase::max_pieces),
        strategies,
    })
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
    use crate::solve::book::Entry;
    use crate::solve::book_proof::book_checksum;
    use crate::solve::build::{BuildLimits, build};
    use crate::solve::check::check_book;
    use crate::solve::value::position_of;
    use crate::solve::{SolveStatus, Solver};
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

    /// A book made from a solved position agrees with the position's certificate; a book
    /// that calls the position lost for a side whose non-losing strategy reaches it does not.
    #[test]
    fn a_book_is_compared_with_a_certificate() {
        let small = Arc::new(tablebase::generate(3, None, |_| {}).unwrap());
        let pos = Position::parse("B3B/5/2W2/5/W3B w").unwrap();
        let mut solver = Solver::new(&pos, Some(small.clone()), SolvedTable::new(), 1 << 20);
        let value = loop {
            match solver.step(1 << 20).unwrap() {
                SolveStatus::Solved(v) => break v,
                SolveStatus::Running => {}
                SolveStatus::Full => panic!("graph full"),
            }
        };
        let mut table = solver.into_table();
        assert_eq!(value, Value::Draw);
        let cert = extract(&pos, value, &table, Some(&small)).unwrap();
        let limits = BuildLimits {
            max_plies: 4,
            max_entries: 1000,
            after_mistake: 2,
            solve_nodes: 1 << 20,
            max_graph: 1 << 20,
        };
        let (book, _) = build(&pos, Some(small.clone()), &mut table, limits, |_| {}).unwrap();
        assert!(book.agrees_with(&cert).unwrap() > 1);
        let wrong = Book::from_entries([(key(&pos), Entry { value: Value::BlackWins, keep: 1 })]);
        let err = wrong.agrees_with(&cert).unwrap_err().to_string();
        assert!(err.contains("non-losing strategy for White"), "{err}");
    }
}
