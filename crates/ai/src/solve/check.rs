//! The certificate checker. It reads a certificate ([`super::certificate`]) and replays it with
//! nothing but the rules crate (legal moves, playing them, game ends) and the endgame tables;
//! it never calls the solver's search or reads its solved-position table.
//!
//! From the root, every strategy is followed through every position it reaches:
//!
//! - a position where the game is over (a side without pieces or without a legal move) is a
//!   leaf: its winner must be the strategy's side for a win, and must not be the opponent for a
//!   non-losing strategy;
//! - a position the tables cover is a leaf too, with the same test on the tables' value;
//! - any other position must have a line: at the strategy side's positions one move, which must
//!   be legal; at the opponent's positions a list of replies, which must be exactly the legal
//!   moves (a missing, illegal or repeated reply is an error);
//! - a win must not come back to a position on its own way (a cycle is a failure: a win must
//!   end); a non-losing strategy may (a repetition is a draw, and the strategy holds there).
//!
//! Every failure is an error that names the position (and where it was reached from), never
//! a panic. The no-capture counter is ignored, as by the solver.

use super::book::Book;
use super::book_proof::{BookProof, book_checksum, book_roots};
use super::certificate::{Certificate, Kind, Line, STRATEGIES, Strategy, slot};
use super::value::{SolveError, Value, position_of, without_counter};
use crate::tablebase::{Tablebase, Wdl};
use ludus_rules::alquerque::{Move, Position};
use ludus_rules::{GamePosition, Side};
use std::collections::HashMap;

/// What a check went through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// The value the certificate proves.
    pub claim: Option<Value>,
    /// Positions with a line that were followed, over all strategies.
    pub positions: u64,
    /// Leaves where the game is over.
    pub game_ends: u64,
    /// Leaves valued by the tables.
    pub table_leaves: u64,
    /// Returns to a position already on the way (repetitions) in non-losing strategies.
    pub repetitions: u64,
}

fn name(s: Side) -> &'static str {
    if s == Side::First { "White" } else { "Black" }
}

/// The winner of a leaf (`Some(None)`: a draw by the tables), or `None` when `pos` is no leaf.
fn leaf(pos: &Position, tb: Option<&Tablebase>) -> Result<Option<(Option<Side>, bool)>, SolveError> {
    if let Some(o) = pos.outcome(false) {
        return Ok(Some((o.winner, true)));
    }
    let Some(tb) = tb else { return Ok(None) };
    let probe = tb.try_probe(pos).map_err(|e| SolveError::Tablebase(e.to_string()))?;
    Ok(probe.map(|p| {
        let side = pos.side_to_move();
        let winner = match p.wdl {
            Wdl::Win => Some(side),
            Wdl::Loss => Some(side.opponent()),
            Wdl::Draw => None,
        };
        (winner, false)
    }))
}

/// Checks a certificate's text with the tables `tb` (those the solver used, or ones covering
/// the same positions).
pub fn check_text(text: &str, tb: Option<&Tablebase>) -> Result<CheckReport, SolveError> {
    check(&Certificate::parse(text)?, tb)
}

/// Checks a certificate (see the module documentation).
pub fn check(cert: &Certificate, tb: Option<&Tablebase>) -> Result<CheckReport, SolveError> {
    let fail = |s: String| Err(SolveError::Check(s));
    let find = |side: Side, kind: Kind| cert.strategies.iter().find(|s| s.side == side && s.kind == kind);
    let needed: Vec<&Strategy> = match cert.claim.winner() {
        Some(w) => match find(w, Kind::Win) {
            Some(s) => vec![s],
            None => {
                return fail(format!(
                    "the claim is a win for {} but there is no win strategy for it",
                    name(w)
                ));
            }
        },
        None => match (find(Side::First, Kind::NonLosing), find(Side::Second, Kind::NonLosing)) {
            (Some(a), Some(b)) => vec![a, b],
            _ => {
                return fail(
                    "the claim is a draw but a non-losing strategy of each side is not there".into(),
                );
            }
        },
    };
    let mut report = CheckReport { claim: Some(cert.claim), ..CheckReport::default() };
    for s in needed {
        check_strategy(std::slice::from_ref(&cert.root), s, tb, &mut report)?;
    }
    Ok(report)
}

/// What a book's check went through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookCheckReport {
    /// The book's entries, each backed by the strategies.
    pub entries: u64,
    /// The strategies' positions followed, game ends, table leaves and repetitions.
    pub strategies: CheckReport,
}

/// Checks that `proof` backs every entry of `book` (see [`super::book_proof`]): the proof is
/// the book's (its entry count and checksum), and each strategy is followed from every root
/// [`book_roots`] names for the entries, as a certificate's strategies are from their root
/// (a win strategy must not come back to a position on its way from any of its roots).
pub fn check_book(
    book: &Book,
    proof: &BookProof,
    tb: Option<&Tablebase>,
) -> Result<BookCheckReport, SolveError> {
    if proof.book_entries != book.len() as u64 || proof.book_checksum != book_checksum(book) {
        return Err(SolveError::Check(format!(
            "the proof is of another book ({} entries, checksum {:016x}; this book has {} entries, checksum {:016x})",
            proof.book_entries,
            proof.book_checksum,
            book.len(),
            book_checksum(book)
        )));
    }
    // The roots of each side and kind, in a fixed order so that a failure is the same every run.
    let mut roots: [Vec<Position>; 4] = Default::default();
    for &(k, entry) in book.entries() {
        let pos =
            position_of(k).ok_or_else(|| SolveError::Check(format!("book key {k:#x} is no position")))?;
        for (root, side, kind) in book_roots(&pos, &entry)? {
            roots[slot(side, kind)].push(root);
        }
    }
    let mut report = BookCheckReport { entries: book.len() as u64, ..BookCheckReport::default() };
    for (i, s) in proof.strategies.iter().enumerate() {
        if proof.strategies[..i].iter().any(|t| t.side == s.side && t.kind == s.kind) {
            return Err(SolveError::Check(format!(
                "the proof has two {} strategies for {}",
                s.kind.name(),
                name(s.side)
            )));
        }
    }
    for ((side, kind), rs) in STRATEGIES.iter().zip(&roots) {
        if rs.is_empty() {
            continue;
        }
        let Some(s) = proof.strategies.iter().find(|s| s.side == *side && s.kind == *kind) else {
            return Err(SolveError::Check(format!(
                "the book needs a {} strategy for {} (from {}) but the proof has none",
                kind.name(),
                name(*side),
                rs[0]
            )));
        };
        check_strategy(rs, s, tb, &mut report.strategies)?;
    }
    Ok(report)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    OnTheWay,
    Done,
}

struct Frame {
    pos: Position,
    children: Vec<(Position, Move)>,
    next: usize,
}

fn check_strategy(
    roots: &[Position],
    st: &Strategy,
    tb: Option<&Tablebase>,
    report: &mut CheckReport,
) -> Result<(), SolveError> {
    let side = st.side;
    let what = match st.kind {
        Kind::Win => format!("{}'s win", name(side)),
        Kind::NonLosing => format!("{}'s non-losing strategy", name(side)),
    };
    let mut lines: HashMap<Position, &Line> = HashMap::with_capacity(st.nodes.len());
    for (pos, line) in &st.nodes {
        if lines.insert(without_counter(pos), line).is_some() {
            return Err(SolveError::Check(format!("{what}: position {pos} has two lines")));
        }
    }
    let mut marks: HashMap<Position, Mark> = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    // Enters `pos` (reached from `from` by `mv`): a leaf is judged, a position with a line is
    // pushed with its children.
    let enter = |pos: Position,
                 from: Option<(&Position, &Move)>,
                 marks: &mut HashMap<Position, Mark>,
                 stack: &mut Vec<Frame>,
                 report: &mut CheckReport|
     -> Result<(), SolveError> {
        let reached = match from {
            Some((p, m)) => format!(" (reached from {p} by {})", p.move_to_string(m)),
            None => " (a root)".to_string(),
        };
        match marks.get(&pos) {
            Some(Mark::Done) => return Ok(()),
            Some(Mark::OnTheWay) => {
                if st.kind == Kind::Win {
                    return Err(SolveError::Check(format!(
                        "{what}: the play comes back to position {pos}{reached}: a cycle, so the win never ends"
                    )));
                }
                report.repetitions += 1;
                return Ok(());
            }
            None => {}
        }
        if let Some((winner, game_end)) = leaf(&pos, tb)? {
            let ok = match st.kind {
                Kind::Win => winner == Some(side),
                Kind::NonLosing => winner != Some(side.opponent()),
            };
            if !ok {
                let value = match winner {
                    Some(w) => format!("a win for {}", name(w)),
                    None => "a draw".to_string(),
                };
                let by = if game_end { "the game is over" } else { "the tables" };
                return Err(SolveError::Check(format!("{what}: position {pos}{reached} is {value} ({by})")));
            }
            if game_end {
                report.game_ends += 1;
            } else {
                report.table_leaves += 1;
            }
            marks.insert(pos, Mark::Done);
            return Ok(());
        }
        let Some(line) = lines.get(&pos) else {
            return Err(SolveError::Check(format!(
                "{what}: position {pos}{reached} is not in the certificate (and neither over nor in the tables)"
            )));
        };
        let legal = pos.legal_moves();
        let children: Vec<(Position, Move)> = if pos.side_to_move() == side {
            let Line::Choice(m) = line else {
                return Err(SolveError::Check(format!(
                    "{what}: position {pos}{reached} is {}'s move but its line lists replies",
                    name(side)
                )));
            };
            let mv = pos.parse_move(m).map_err(|e| {
                SolveError::Check(format!("{what}: position {pos}: move '{m}' is not legal: {e}"))
            })?;
            vec![(without_counter(&pos.play_unchecked(&mv)), mv)]
        } else {
            let Line::Replies(replies) = line else {
                return Err(SolveError::Check(format!(
                    "{what}: position {pos}{reached} is {}'s move but its line gives one move instead of every reply",
                    name(side.opponent())
                )));
            };
            let names: Vec<String> = legal.iter().map(|m| pos.move_to_string(m)).collect();
            for (i, r) in replies.iter().enumerate() {
                if !names.contains(r) {
                    return Err(SolveError::Check(format!(
                        "{what}: position {pos}: reply '{r}' is not legal"
                    )));
                }
                if replies[..i].contains(r) {
                    return Err(SolveError::Check(format!(
                        "{what}: position {pos}: reply '{r}' is listed twice"
                    )));
                }
            }
            if let Some(missing) = names.iter().find(|n| !replies.contains(n)) {
                return Err(SolveError::Check(format!(
                    "{what}: position {pos}{reached}: the legal reply '{missing}' is missing"
                )));
            }
            legal.iter().map(|m| (without_counter(&pos.play_unchecked(m)), *m)).collect()
        };
        report.positions += 1;
        marks.insert(pos, Mark::OnTheWay);
        stack.push(Frame { pos, children, next: 0 });
        Ok(())
    };
    for root in roots {
        enter(without_counter(root), None, &mut marks, &mut stack, report)?;
        while let Some(top) = stack.last_mut() {
            if top.next < top.children.len() {
                let (child, mv) = top.children[top.next];
                top.next += 1;
                let from = top.pos;
                enter(child, Some((&from, &mv)), &mut marks, &mut stack, report)?;
            } else {
                let done = stack.pop().expect("a frame");
                marks.insert(done.pos, Mark::Done);
            }
        }
    }
    Ok(())
}
