//! Building the proven-value book ([`super::book`]) from the solver's results.
//!
//! # Which positions
//!
//! [`build`] walks the game from a root (the start) breadth first, up to a number of plies. A
//! position is written when its value is known and at least one of its moves is known to keep
//! it. The walk follows the play of a game in which *one* side (either: Hard may play White or
//! Black) has kept the value so far: from a position it goes on through every move of the side
//! to move when the other side has kept the value, and through the side to move's keeping
//! moves when only that side has, and stops a few plies after the first move that threw the
//! value away ([`BuildLimits::after_mistake`]: the side then ahead wins by its own search and
//! the tables). The walk can also run the solver on positions whose value is not yet known, a
//! few nodes each.
//!
//! # Which moves keep the value
//!
//! A move keeps a win when its position is proven won for the mover; a draw when the opponent
//! cannot force a win there (the mover cannot force one either, or the position would not be a
//! draw); and every move "keeps" a loss (the search then finds the longest defence).
//!

use super::book::{Book, Entry};
use super::table::{SolvedTable, Status};
use super::value::{SolveError, Value, exact_value, key, without_counter};
use super::{SolveStatus, Solver};
use crate::tablebase::Tablebase;
use ludus_rules::alquerque::{Move, Position};
use ludus_rules::{GamePosition, Side};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// How far [`build`] goes.
#[derive(Clone, Copy, Debug)]
pub struct BuildLimits {
    /// The deepest ply from the root whose positions are written.
    pub max_plies: u32,
    /// The most positions written.
    pub max_entries: usize,
    /// Plies the walk goes on after a side first fails to keep the value (the other side is
    /// then winning, or drawing a game it was losing).
    pub after_mistake: u32,
    /// Nodes of solving for a position whose value (or a child's) the table does not give yet
    /// (0: use only what is known).
    pub solve_nodes: u64,
    /// The most nodes in a solving search's graph.
    pub max_graph: usize,
}

/// Counts of a [`build`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Positions visited by the walk.
    pub visited: u64,
    /// Positions written.
    pub written: u64,
    /// Positions visited whose value stayed unknown.
    pub unknown: u64,
    /// Solver runs started for positions not known yet.
    pub solves: u64,
    /// The deepest ply written.
    pub deepest: u32,
}

/// What the solver knows of a position (counter ignored) without searching: the game's end,
/// the tables, then the solved-position table (both attackers for a draw).
fn known_value(
    pos: &Position,
    tb: Option<&Tablebase>,
    table: &SolvedTable,
) -> Result<Option<Value>, SolveError> {
    if let Some(w) = exact_value(pos, tb)? {
        return Ok(Some(Value::from_winner(w)));
    }
    let k = key(&without_counter(pos));
    let (white, black) = (table.status(k, Side::First), table.status(k, Side::Second));
    Ok(match (white, black) {
        (Status::Proven, _) => Some(Value::WhiteWins),
        (_, Status::Proven) => Some(Value::BlackWins),
        (Status::Disproven, Status::Disproven) => Some(Value::Draw),
        _ => None,
    })
}

/// Whether `side` can force a win at `pos` (`None`: not known).
fn can_win(
    pos: &Position,
    side: Side,
    tb: Option<&Tablebase>,
    table: &SolvedTable,
) -> Result<Option<bool>, SolveError> {
    if let Some(w) = exact_value(pos, tb)? {
        return Ok(Some(w == Some(side)));
    }
    Ok(match table.status(key(&without_counter(pos)), side) {
        Status::Proven => Some(true),
        Status::Disproven => Some(false),
        Status::Unknown => None,
    })
}

/// Whether a move to `child` keeps `value` for `mover` (`None`: not known).
fn keeps(
    value: Value,
    mover: Side,
    child: &Position,
    tb: Option<&Tablebase>,
    table: &SolvedTable,
) -> Result<Option<bool>, SolveError> {
    match value.winner() {
        Some(w) if w == mover => can_win(child, mover, tb, table),
        Some(_) => Ok(Some(true)),
        // The opponent cannot win there: the child is a draw (a win for the mover would make
        // the parent one).
        None => Ok(can_win(child, mover.opponent(), tb, table)?.map(|wins| !wins)),
    }
}

/// Runs the solver on `pos` for `limits.solve_nodes` nodes, sharing `table`.
pub(super) fn solve_a_little(
    pos: &Position,
    tb: &Option<Arc<Tablebase>>,
    table: &mut SolvedTable,
    limits: &BuildLimits,
    stats: &mut BuildStats,
) -> Result<(), SolveError> {
    if limits.solve_nodes == 0 {
        return Ok(());
    }
    stats.solves += 1;
    let mut solver = Solver::new(pos, tb.clone(), std::mem::take(table), limits.max_graph);
    let mut status = SolveStatus::Running;
    while status == SolveStatus::Running && solver.stats().nodes < limits.solve_nodes {
        status = solver.step(limits.solve_nodes - solver.stats().nodes)?;
    }
    *table = solver.into_table();
    // A search stopped on its budget leaves its graph; nothing of it is final.
    table.graph = None;
    Ok(())
}

/// What the solver says of one move: the position's value and whether the move keeps it
/// (`None` where the budget did not settle it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The value of the position before the move.
    pub value: Option<Value>,
    /// Whether the move keeps it (known only with the value).
    pub keeps: Option<bool>,
    /// The value after the move, when known.
    pub after: Option<Value>,
}

/// Judges the move `mv` at `pos` by the solver's results in `table` and the tables `tb`,
/// solving for `limits.solve_nodes` nodes where they say nothing yet (the counter ignored).
pub fn judge(
    pos: &Position,
    mv: &Move,
    tb: Option<Arc<Tablebase>>,
    table: &mut SolvedTable,
    limits: &BuildLimits,
) -> Result<Judged, SolveError> {
    let mut stats = BuildStats::default();
    let pos = without_counter(pos);
    let child = without_counter(&pos.play_unchecked(mv));
    let mut value = known_value(&pos, tb.as_deref(), table)?;
    if value.is_none() {
        solve_a_little(&pos, &tb, table, limits, &mut stats)?;
        value = known_value(&pos, tb.as_deref(), table)?;
    }
    let mut after = known_value(&child, tb.as_deref(), table)?;
    let keeps = match value {
        None => None,
        Some(v) => {
            let mut k = keeps(v, pos.side_to_move(), &child, tb.as_deref(), table)?;
            if k.is_none() || after.is_none() {
                solve_a_little(&child, &tb, table, limits, &mut stats)?;
                k = keeps(v, pos.side_to_move(), &child, tb.as_deref(), table)?;
                after = known_value(&child, tb.as_deref(), table)?;
            }
            k
        }
    };
    Ok(Judged { value, keeps, after })
}

/// Builds a book from `root` (see the module documentation) with the tables `tb` and the
/// solver's results in `table` (which the walk's own solving adds to). `progress` is called
/// with the counts at every position visited and at the end.
pub fn build(
    root: &Position,
    tb: Option<Arc<Tablebase>>,
    table: &mut SolvedTable,
    limits: BuildLimits,
    mut progress: impl FnMut(&BuildStats),
) -> Result<(Book, BuildStats), SolveError> {
    /// Which sides have kept the value on the way: bit 0 White, bit 1 Black.
    const BOTH: u8 = 3;
    let side_bit = |s: Side| 1u8 << s.index();
    let root = without_counter(root);
    let mut stats = BuildStats::default();
    let mut entries: Vec<(u64, Entry)> = Vec::new();
    let mut seen: HashMap<u64, u8> = HashMap::new();
    // A position, the sides that kept the value on the way there, its ply, and the ply of the
    // first move that did not keep it.
    let mut queue: VecDeque<(Position, u8, u32, Option<u32>)> = VecDeque::new();
    seen.insert(key(&root), BOTH);
    queue.push_back((root, BOTH, 0, None));
    while let Some((pos, kept, ply, mistake)) = queue.pop_front() {
        if entries.len() >= limits.max_entries {
            break;
        }
        stats.visited += 1;
        progress(&stats);
        if pos.outcome(false).is_some()
            || tb.as_deref().map(|t| t.try_probe(&pos)).transpose()?.flatten().is_some()
        {
            // The tables and the rules answer these positions already.
            continue;
        }
        let mut value = known_value(&pos, tb.as_deref(), table)?;
        if value.is_none() {
            solve_a_little(&pos, &tb, table, &limits, &mut stats)?;
            value = known_value(&pos, tb.as_deref(), table)?;
        }
        let Some(value) = value else {
            stats.unknown += 1;
            continue;
        };
        let mover = pos.side_to_move();
        let moves = pos.legal_moves();
        let mut keep = 0u32;
        for (i, mv) in moves.iter().enumerate().take(32) {
            let child = without_counter(&pos.play_unchecked(mv));
            let mut k = keeps(value, mover, &child, tb.as_deref(), table)?;
            if k.is_none() {
                solve_a_little(&child, &tb, table, &limits, &mut stats)?;
                k = keeps(value, mover, &child, tb.as_deref(), table)?;
            }
            if k == Some(true) {
                keep |= 1 << i;
            }
        }
        if keep == 0 {
            stats.unknown += 1;
            continue;
        }
        entries.push((key(&pos), Entry { value, keep }));
        stats.written += 1;
        stats.deepest = stats.deepest.max(ply);
        if ply >= limits.max_plies || mistake.is_some_and(|m| ply - m >= limits.after_mistake) {
            continue;
        }
        for (i, mv) in moves.iter().enumerate() {
            let keeping = i < 32 && keep >> i & 1 == 1;
            let next = if keeping { kept } else { kept & !side_bit(mover) };
            if next == 0 {
                continue;
            }
            let mistake = mistake.or((!keeping).then_some(ply + 1));
            let child = without_counter(&pos.play_unchecked(mv));
            let ck = key(&child);
            let before = seen.get(&ck).copied().unwrap_or(0);
            if before | next != before {
                seen.insert(ck, before | next);
                if before == 0 {
                    queue.push_back((child, next, ply + 1, mistake));
                }
            }
        }
    }
    progress(&stats);
    Ok((Book::from_entries(entries), stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase;

    fn solved(pos: &Position, tb: &Arc<Tablebase>, table: SolvedTable) -> (Value, SolvedTable) {
        let mut s = Solver::new(pos, Some(tb.clone()), table, 1 << 20);
        loop {
            match s.step(1 << 20).unwrap() {
                SolveStatus::Solved(v) => return (v, s.into_table()),
                SolveStatus::Running => {}
                SolveStatus::Full => panic!("graph full"),
            }
        }
    }

    /// A five-piece position (beyond tables of three pieces) solved, then booked: every move
    /// the book keeps has the value the tables give it, and no dropped move does.
    #[test]
    fn the_book_keeps_exactly_the_moves_the_tables_value() {
        let small = Arc::new(tablebase::generate(3, None, |_| {}).unwrap());
        let full = tablebase::generate(5, None, |_| {}).unwrap();
        // (win, draw, loss) positions in which some move throws the value away.
        let mut dropped = [0; 3];
        for text in [
            "5/1B3/2W2/1W1B1/W4 w",
            "5/1B3/2W2/1W1B1/W4 b",
            "B4/5/2W2/3B1/W3W b",
            "5/2B2/1BW2/5/W3W w",
            "1B3/5/2W2/1B3/W3W w",
            "1B3/5/2W2/1B3/W3W b",
            "B3B/5/2W2/5/W3B w",
            "B3B/5/2W2/5/W3B b",
            "2B2/1W3/5/3B1/W2W1 b",
            "2B2/1W3/5/3B1/W2W1 w",
        ] {
            let pos = Position::parse(text).unwrap();
            let (value, mut table) = solved(&pos, &small, SolvedTable::new());
            let limits = BuildLimits {
                max_plies: 0,
                max_entries: 10,
                after_mistake: 0,
                solve_nodes: 1 << 20,
                max_graph: 1 << 20,
            };
            let (book, _) = build(&pos, Some(small.clone()), &mut table, limits, |_| {}).unwrap();
            let probe = full.probe(&pos).unwrap();
            let expected = Value::from_winner(probe.winner(pos.side_to_move()));
            assert_eq!(value, expected, "{text}");
            let (v, keep) = book.keeping_moves(&pos).expect("the root is booked");
            assert_eq!(v, expected, "{text}");
            for mv in pos.legal_moves() {
                let child = pos.play_unchecked(&mv);
                let child_value = match child.outcome(false) {
                    Some(o) => Value::from_winner(o.winner),
                    None => Value::from_winner(full.probe(&child).unwrap().winner(child.side_to_move())),
                };
                let keeps = child_value == value || value.winner() == Some(pos.side_to_move().opponent());
                assert_eq!(keep.contains(&mv), keeps, "{text}: {}", pos.move_to_string(&mv));
            }
            if keep.len() < pos.legal_moves().len() {
                let slot: usize = value.winner().map_or(1, |w| if w == pos.side_to_move() { 0 } else { 2 });
                dropped[slot] += 1;
            }
        }
        assert!(
            dropped[0] > 0 && dropped[1] > 0,
            "the cases test wins and draws with moves dropped: {dropped:?}"
        );
    }

    /// Hard searches only the moves the book keeps, and says the value; the tables' own root
    /// filter still applies beside it.
    #[test]
    fn hard_plays_only_what_the_book_keeps() {
        use crate::{AnySearch, Level, Limits};
        use ludus_rules::{AnyGame, AnyPosition, Variant};
        let pos = Position::start();
        let moves = pos.legal_moves();
        for (only, expected) in moves.iter().enumerate() {
            let book = Book::from_entries([(key(&pos), Entry { value: Value::Draw, keep: 1 << only })]);
            let game = AnyGame::new(Variant::Alquerque);
            let mut search = AnySearch::new(&game, Level::Hard, Limits::depth(3), 1).with_book(&book);
            let mv = search.run_to_end().unwrap();
            assert_eq!(mv, ludus_rules::AnyMove::Alquerque(*expected));
            assert_eq!(search.info().proven, Some(Value::Draw));
        }
        // A position the book does not have: no value, every move open.
        let book = Book::from_entries([(key(&pos), Entry { value: Value::Draw, keep: 1 })]);
        let other = AnyGame::from_position(AnyPosition::Alquerque(pos.play_unchecked(&moves[0])));
        let mut search = AnySearch::new(&other, Level::Hard, Limits::depth(2), 1).with_book(&book);
        assert!(search.run_to_end().is_some());
        assert_eq!(search.info().proven, None);
    }
}
