//! The Alquerque oracle: the exact value of a position and of each of its moves, from what is
//! proven, never from an evaluation.
//!
//! Sources, in order:
//!
//! 1. the rules: a move that ends the game (the last enemy piece taken, the opponent left
//!    without a move) is a win at once;
//! 2. the endgame tables ([`Tablebase`]): win, draw or loss and the distance to the end in
//!    plies with best play;
//! 3. the book of proven values ([`Book`]): the value of a position it holds, and of the moves
//!    that keep it (every move of a lost position loses);
//! 4. a solved-position table given to it ([`SolvedTable`], the state of `ludus-cli solve`):
//!    the positions the solver proved;
//! 5. the values of the moves, one ply down: a position with a winning move is won, one whose
//!    moves are all known and none wins is drawn or lost (with the distance when every move
//!    has one: the fastest win, the longest defence);
//! 6. a short solve ([`Solver`], a bounded number of nodes with the tables as leaves) for what
//!    is still unknown.
//!
//! What none of them settles is unknown ([`Answer`] says `None`): never a guess.
//!
//! Every value is that of the game the tables and the solver define: the 50-ply no-capture
//! counter is ignored (the counter can only turn a win into a draw: the distance tells whether
//! the win comes first) and a repetition or endless play is a draw.

use crate::solve::book::Book;
use crate::solve::{SolveError, SolveStatus, SolvedTable, Solver, Status, Value, key, without_counter};
use crate::tablebase::{Tablebase, TbError, Wdl};
use ludus_rules::alquerque::{Move, Position};
use ludus_rules::{GamePosition, Outcome, Side};
use std::fmt;
use std::sync::Arc;

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The rules: the game is over after the move.
    Rules,
    /// The endgame tables.
    Tables,
    /// The book of proven values.
    Book,
    /// The solver: a short solve made for the question, or the solved-position table given
    /// to the oracle.
    Solver,
}

impl Source {
    /// `rules`, `tables`, `book` or `solver`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Rules => "rules",
            Source::Tables => "tables",
            Source::Book => "book",
            Source::Solver => "solver",
        }
    }
}

/// A proven value for the side to move (of a position, or of the position a move is made
/// from).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Known {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// Plies to the end with best play (the winner as fast as it can, the loser as slowly), when
    /// the source gives one: always `None` for a draw.
    pub plies: Option<u16>,
    /// Where it comes from.
    pub source: Source,
}

impl Known {
    /// The value for the mover of a move that leads to a position of value `self`.
    pub fn before_move(self) -> Known {
        match self.wdl {
            Wdl::Draw => self,
            w => {
                Known { wdl: w.negate(), plies: self.plies.map(|p| p.saturating_add(1)), source: self.source }
            }
        }
    }

    fn of_value(value: Value, side_to_move: Side, source: Source) -> Known {
        let wdl = match value.winner() {
            None => Wdl::Draw,
            Some(w) if w == side_to_move => Wdl::Win,
            Some(_) => Wdl::Loss,
        };
        Known { wdl, plies: None, source }
    }
}

/// One legal move and its value for the side that makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its value for the mover (`None`: unknown).
    pub value: Option<Known>,
}

/// What the oracle knows of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The position's value for its side to move (`None`: unknown).
    pub value: Option<Known>,
    /// Every legal move, best first: wins (fastest first), draws, moves of unknown value,
    /// losses (slowest first); the rules' order among equals.
    pub moves: Vec<MoveValue>,
}

/// Why the oracle gives no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OracleError {
    /// The game is over in the position: there is nothing to play.
    Finished(Outcome),
    /// A table could not be read (a file removed or damaged after it was checked).
    Tables(String),
}

impl fmt::Display for OracleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OracleError::Finished(outcome) => write!(f, "the game is over in this position ({outcome})"),
            OracleError::Tables(s) => write!(f, "the endgame tables could not be read: {s}"),
        }
    }
}

impl std::error::Error for OracleError {}

impl From<TbError> for OracleError {
    fn from(e: TbError) -> OracleError {
        OracleError::Tables(e.to_string())
    }
}

impl From<SolveError> for OracleError {
    fn from(e: SolveError) -> OracleError {
        OracleError::Tables(e.to_string())
    }
}

/// The sources of exact values (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Oracle {
    tables: Option<Arc<Tablebase>>,
    book: Option<Arc<Book>>,
    solved: Option<Arc<SolvedTable>>,
    solve_nodes: u64,
    max_graph: usize,
}

/// How good a value is for the side to move: fast wins, draws, unknown, slow losses.
fn rank(v: Option<Known>) -> i32 {
    match v {
        Some(Known { wdl: Wdl::Win, plies, .. }) => 200_000 - i32::from(plies.unwrap_or(u16::MAX / 2)),
        Some(Known { wdl: Wdl::Draw, .. }) => 1,
        None => 0,
        Some(Known { wdl: Wdl::Loss, plies, .. }) => -200_000 + i32::from(plies.unwrap_or(u16::MAX / 2)),
    }
}

impl Oracle {
    /// An oracle with the tables `tables` and the book `book` (either may be missing), and no
    /// solving.
    pub fn new(tables: Option<Arc<Tablebase>>, book: Option<Arc<Book>>) -> Oracle {
        Oracle { tables, book, solved: None, solve_nodes: 0, max_graph: 0 }
    }

    /// Answers the positions the solver proved in `table` too (after the tables and the book).
    pub fn with_solved(mut self, table: Option<Arc<SolvedTable>>) -> Oracle {
        self.solved = table;
        self
    }

    /// Solves what the tables and the book leave unknown for at most `nodes` nodes in all for
    /// one question (0: never): half for the position when its value is unknown, the rest
    /// shared by the moves whose values are.
    pub fn with_solve_nodes(mut self, nodes: u64) -> Oracle {
        self.solve_nodes = nodes;
        self.max_graph = usize::try_from(nodes).unwrap_or(usize::MAX).clamp(1_000, 1 << 22);
        self
    }

    /// The tables.
    pub fn tables(&self) -> Option<&Arc<Tablebase>> {
        self.tables.as_ref()
    }

    /// The book.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The node budget of a question's solving.
    pub fn solve_nodes(&self) -> u64 {
        self.solve_nodes
    }

    /// The value of `pos` for its side to move and of each of its legal moves (the no-capture
    /// counter ignored). An error for a finished game, or tables that cannot be read.
    pub fn answer(&self, pos: &Position) -> Result<Answer, OracleError> {
        let pos = without_counter(pos);
        if let Some(outcome) = pos.outcome(false) {
            return Err(OracleError::Finished(outcome));
        }
        let moves = pos.legal_moves();
        let book_entry = self.book.as_deref().and_then(|b| b.get(&pos));
        let mut values: Vec<Option<Known>> = Vec::with_capacity(moves.len());
        for (i, mv) in moves.iter().enumerate() {
            let child = pos.play_unchecked(mv);
            let mut v = self.known(&child)?.map(Known::before_move);
            if v.is_none()
                && let Some(e) = book_entry
                && i < 32
                && e.keep >> i & 1 == 1
            {
                // The book's keeping moves keep its value; every move of a lost position loses.
                v = Some(Known::of_value(e.value, pos.side_to_move(), Source::Book));
            }
            values.push(v);
        }
        let mut value = self.known(&pos)?.or_else(|| one_ply_down(&values));
        if self.solve_nodes > 0 && (value.is_none() || values.iter().any(Option::is_none)) {
            let mut table = SolvedTable::new();
            let for_position = if value.is_none() { self.solve_nodes / 2 } else { 0 };
            if for_position > 0 {
                self.solve(&pos, &mut table, for_position)?;
                value = solved(&pos, &table);
            }
            let unknown = values.iter().filter(|v| v.is_none()).count() as u64;
            let share = (self.solve_nodes - for_position).checked_div(unknown).unwrap_or(0);
            for (mv, v) in moves.iter().zip(values.iter_mut()) {
                if v.is_some() {
                    continue;
                }
                let child = pos.play_unchecked(mv);
                if solved(&child, &table).is_none() {
                    self.solve(&child, &mut table, share)?;
                }
                *v = solved(&child, &table).map(Known::before_move);
            }
            value = value.or_else(|| one_ply_down(&values));
        }
        let mut moves: Vec<MoveValue> =
            moves.into_iter().zip(values).map(|(mv, value)| MoveValue { mv, value }).collect();
        moves.sort_by_key(|m| std::cmp::Reverse(rank(m.value)));
        Ok(Answer { value, moves })
    }

    /// The value of a position (counter 0) from the rules, the tables, the book or the
    /// solved-position table.
    fn known(&self, pos: &Position) -> Result<Option<Known>, OracleError> {
        if let Some(outcome) = pos.outcome(false) {
            let wdl = match outcome.winner {
                None => Wdl::Draw,
                Some(w) if w == pos.side_to_move() => Wdl::Win,
                Some(_) => Wdl::Loss,
            };
            return Ok(Some(Known { wdl, plies: (wdl != Wdl::Draw).then_some(0), source: Source::Rules }));
        }
        if let Some(tb) = &self.tables
            && let Some(p) = tb.try_probe(pos)?
        {
            let plies = (p.wdl != Wdl::Draw).then_some(p.plies_to_end);
            return Ok(Some(Known { wdl: p.wdl, plies, source: Source::Tables }));
        }
        if let Some(e) = self.book.as_deref().and_then(|b| b.get(pos)) {
            return Ok(Some(Known::of_value(e.value, pos.side_to_move(), Source::Book)));
        }
        Ok(self.solved.as_deref().and_then(|t| solved(pos, t)))
    }

    /// Runs the solver on `pos` for about `nodes` nodes, its results into `table`.
    fn solve(&self, pos: &Position, table: &mut SolvedTable, nodes: u64) -> Result<(), OracleError> {
        if nodes == 0 {
            return Ok(());
        }
        let mut solver = Solver::new(pos, self.tables.clone(), std::mem::take(table), self.max_graph);
        let mut status = SolveStatus::Running;
        while status == SolveStatus::Running && solver.stats().nodes < nodes {
            status = solver.step(nodes - solver.stats().nodes)?;
        }
        *table = solver.into_table();
        // A search stopped on its budget leaves its graph behind: nothing of it is final.
        table.graph = None;
        Ok(())
    }
}

/// The value the solver proved for `pos`, if it did (a draw once both sides' wins are
/// disproven).
fn solved(pos: &Position, table: &SolvedTable) -> Option<Known> {
    let k = key(&without_counter(pos));
    let value = match (table.status(k, Side::First), table.status(k, Side::Second)) {
        (Status::Proven, _) => Value::WhiteWins,
        (_, Status::Proven) => Value::BlackWins,
        (Status::Disproven, Status::Disproven) => Value::Draw,
        _ => return None,
    };
    Some(Known::of_value(value, pos.side_to_move(), Source::Solver))
}

/// A position's value from its moves' values: won when a move wins, drawn or lost when every
/// move is known and none wins. The distance when every move has one; the source the least
/// direct of those that settled it (the rules, then the tables, the book, the solver).
fn one_ply_down(values: &[Option<Known>]) -> Option<Known> {
    let order = |s: Source| match s {
        Source::Rules => 0,
        Source::Tables => 1,
        Source::Book => 2,
        Source::Solver => 3,
    };
    let weakest = |vs: &mut dyn Iterator<Item = Known>| vs.map(|v| v.source).max_by_key(|&s| order(s));
    let all_known: Option<Vec<Known>> = values.iter().copied().collect();
    let best_win = values
        .iter()
        .flatten()
        .filter(|v| v.wdl == Wdl::Win)
        .min_by_key(|v| std::cmp::Reverse(rank(Some(**v))));
    if let Some(win) = best_win {
        // The fastest win is known only when every move is: an unknown one may win faster.
        let plies = match &all_known {
            Some(all) if all.iter().filter(|v| v.wdl == Wdl::Win).all(|v| v.plies.is_some()) => win.plies,
            _ => None,
        };
        let source = if plies.is_some() {
            weakest(&mut all_known.iter().flatten().copied().filter(|v| v.wdl == Wdl::Win))
        } else {
            weakest(&mut std::iter::once(*win))
        };
        return Some(Known { wdl: Wdl::Win, plies, source: source.unwrap_or(win.source) });
    }
    let all = all_known?;
    let source = weakest(&mut all.iter().copied())?;
    if all.iter().any(|v| v.wdl == Wdl::Draw) {
        return Some(Known { wdl: Wdl::Draw, plies: None, source });
    }
    let plies = all.iter().map(|v| v.plies).collect::<Option<Vec<u16>>>().and_then(|p| p.into_iter().max());
    Some(Known { wdl: Wdl::Loss, plies, source })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase;

    #[test]
    fn the_oracle_agrees_with_the_tables_and_says_unknown_beyond_them() {
        let tb = Arc::new(tablebase::generate(3, None, |_| {}).unwrap());
        let oracle = Oracle::new(Some(tb.clone()), None);
        let pos = Position::parse("5/5/2B2/1W3/W4 w").unwrap();
        let a = oracle.answer(&pos).unwrap();
        let v = a.value.unwrap();
        assert_eq!((v.wdl, v.plies, v.source), (Wdl::Win, Some(1), Source::Tables));
        // The winning capture first, valued by the rules (the game ends).
        assert_eq!(pos.move_to_string(&a.moves[0].mv), "b2xd4");
        assert_eq!(a.moves[0].value, Some(Known { wdl: Wdl::Win, plies: Some(1), source: Source::Rules }));
        // Five pieces far apart, no book, no solving: unknown, and so is every move.
        let far = Position::parse("BB3/B4/5/5/W3W w").unwrap();
        let a = oracle.answer(&far).unwrap();
        assert_eq!(a.value, None);
        assert!(!a.moves.is_empty() && a.moves.iter().all(|m| m.value.is_none()));
        // A finished game is refused.
        let over = Position::parse("5/5/5/1W3/W4 b").unwrap();
        assert!(matches!(oracle.answer(&over), Err(OracleError::Finished(_))));
    }

    #[test]
    fn one_ply_down_is_exact_or_nothing() {
        let t = |wdl, plies| Some(Known { wdl, plies, source: Source::Tables });
        let b = |wdl| Some(Known { wdl, plies: None, source: Source::Book });
        // A win among unknown moves: a win, its distance unknown.
        let v = one_ply_down(&[None, t(Wdl::Win, Some(5))]).unwrap();
        assert_eq!((v.wdl, v.plies), (Wdl::Win, None));
        // Every move known: the fastest win.
        let v = one_ply_down(&[t(Wdl::Win, Some(7)), t(Wdl::Win, Some(3)), t(Wdl::Loss, Some(2))]).unwrap();
        assert_eq!((v.wdl, v.plies, v.source), (Wdl::Win, Some(3), Source::Tables));
        // A draw needs every move known.
        assert_eq!(one_ply_down(&[t(Wdl::Draw, None), None]), None);
        let v = one_ply_down(&[t(Wdl::Draw, None), b(Wdl::Loss)]).unwrap();
        assert_eq!((v.wdl, v.source), (Wdl::Draw, Source::Book));
        // A loss: the longest defence.
        let v = one_ply_down(&[t(Wdl::Loss, Some(4)), t(Wdl::Loss, Some(8))]).unwrap();
        assert_eq!((v.wdl, v.plies), (Wdl::Loss, Some(8)));
        assert_eq!(one_ply_down(&[]), None);
    }

    #[test]
    fn what_the_solver_settles_beyond_the_tables_is_what_bigger_tables_say() {
        use crate::tablebase::index;
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let small = Arc::new(tablebase::generate(3, None, |_| {}).unwrap());
        let big = tablebase::generate(4, None, |_| {}).unwrap();
        let oracle = Oracle::new(Some(small), None).with_solve_nodes(4_000);
        let materials: Vec<_> = big.materials().into_iter().filter(|m| m.total() == 4).collect();
        let mut rng = SmallRng::seed_from_u64(7);
        let (mut positions, mut settled) = (0, 0);
        while positions < 60 {
            let m = materials[rng.random_range(0..materials.len())];
            let (mover, other) = index::unindex(rng.random_range(0..m.positions()), m);
            let pos = index::position(mover, other);
            if pos.outcome(false).is_some() {
                continue;
            }
            positions += 1;
            let a = oracle.answer(&pos).unwrap();
            if let Some(v) = a.value {
                settled += 1;
                assert_eq!(v.wdl, big.probe(&pos).unwrap().wdl, "{pos}");
                if v.source == Source::Solver {
                    assert_eq!(v.plies, None);
                }
            }
            for m in &a.moves {
                if let Some(v) = m.value {
                    let want = big.probe(&pos.play_unchecked(&m.mv)).unwrap().before_move();
                    assert_eq!(v.wdl, want.wdl, "{pos} {}", pos.move_to_string(&m.mv));
                }
            }
        }
        assert!(settled > 30, "the solver settled {settled} of 60");
    }
}
