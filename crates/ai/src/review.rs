//! The review of a finished game: the engine evaluates every position in turn, and each move is
//! marked a blunder, a mistake or fine. No Bevy, no threads: the caller runs [`Analyser::step`]
//! a slice at a time wherever it likes (the game runs it as background work).
//!
//! The engine is Hard with a fixed budget of [`NODES_PER_POSITION`] nodes per position, one
//! transposition table reused from one position to the next. Evaluations are from the first
//! side's point of view; wins found by the search count as [`CLAMP`], like any evaluation beyond
//! it, so that they compare.
//!
//! Exact values come first (see [`judge`]): where the rules (the game is over), the endgame
//! tables or the book of proven values know a position's value ([`Exact`]), a move that keeps
//! it (a win stays a win, a draw a draw) is never marked, and one that throws it away (a win
//! into a draw or a loss, a draw into a loss) is a blunder; the judgement names its [`Source`].
//! Only where no exact value decides does the search's evaluation mark the move.
//!
//! Marks by the search (see [`classify`]): a move is a **blunder** when it lowers the mover's evaluation by
//! [`BLUNDER_DROP`] or more (one and a half soldiers; a win thrown away for less than
//! [`DECIDED`] ahead, or a fair game turned into a forced loss, always does), a **mistake**
//! from [`MISTAKE_DROP`]. Never for a move the engine itself chose, for the only legal move, for
//! a move that leaves the mover [`DECIDED`] or more ahead (still winning), nor for one made
//! [`DECIDED`] or more behind (already lost).

use crate::solve::Value;
use crate::solve::book::Book;
use crate::tablebase::Tablebase;
use crate::{AnySearch, Level, Limits, Score, TranspositionTable};
use ludus_rules::{AnyGame, AnyMove, Side};
use std::sync::Arc;

/// The engine's budget for each position (Hard, nodes; the same on every platform, so the
/// evaluations are the same everywhere).
pub const NODES_PER_POSITION: u64 = 200_000;
/// Evaluations beyond this many centi-soldiers (and wins, losses) count as this much.
pub const CLAMP: i32 = 1000;
/// A move that costs the mover this many centi-soldiers or more is a blunder.
pub const BLUNDER_DROP: i32 = 150;
/// A move that costs the mover this many centi-soldiers or more is a mistake.
pub const MISTAKE_DROP: i32 = 60;
/// Five soldiers: a game this far ahead is decided; moves that keep it so, or moves in a game
/// already lost by this much, are not marked.
pub const DECIDED: i32 = 500;
/// The graph's scale: an evaluation of this many centi-soldiers is drawn about three quarters
/// of the way to the edge.
pub const GRAPH_SCALE: f32 = 400.0;
/// The search's seed (the evaluations do not depend on when they are run).
pub const SEED: u64 = 0x004C_7564_7573;

/// An evaluation of a position, from the first side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centi-soldiers (100 = one soldier), positive when the first side is better.
    Cp(i32),
    /// The search found a win for `side` in `plies` plies.
    Win {
        /// Who wins.
        side: Side,
        /// In how many plies (both sides' moves).
        plies: u32,
    },
    /// The game is over here: the winner, or a draw.
    Over(Option<Side>),
}

impl Eval {
    /// The search's score (for the side to move) as an evaluation for the first side.
    pub fn from_score(score: Score, to_move: Side) -> Eval {
        match score {
            Score::Eval(cp) => Eval::Cp(if to_move == Side::First { cp } else { -cp }),
            Score::WinIn(plies) => Eval::Win { side: to_move, plies },
            Score::LossIn(plies) => Eval::Win { side: !to_move, plies },
        }
    }

    /// The comparable value for the first side: centi-soldiers within ±[`CLAMP`], wins and
    /// losses at the ends, a draw 0.
    pub fn value(self) -> i32 {
        let sign = |side: Side| if side == Side::First { 1 } else { -1 };
        match self {
            Eval::Cp(cp) => cp.clamp(-CLAMP, CLAMP),
            Eval::Win { side, .. } | Eval::Over(Some(side)) => sign(side) * CLAMP,
            Eval::Over(None) => 0,
        }
    }

    /// [`Eval::value`] for `side`.
    pub fn value_for(self, side: Side) -> i32 {
        if side == Side::First { self.value() } else { -self.value() }
    }

    /// The height in the graph, from -1 (the second side wins) to 1 (the first side wins):
    /// evaluations on a soft curve that never quite reaches the ends, which belong to wins.
    pub fn graph(self) -> f32 {
        match self {
            Eval::Cp(cp) => 0.94 * (cp as f32 / GRAPH_SCALE).tanh(),
            _ => self.value() as f32 / CLAMP as f32,
        }
    }
}

/// How a move is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Nothing to say.
    Fine,
    /// Costs the mover [`MISTAKE_DROP`] or more.
    Mistake,
    /// Costs the mover [`BLUNDER_DROP`] or more.
    Blunder,
}

/// Marks a move by `mover` from a position evaluated `before` to one evaluated `after`.
/// `played_best`: the engine would have played it too; `forced`: it was the only legal move.
pub fn classify(before: Eval, after: Eval, mover: Side, played_best: bool, forced: bool) -> Mark {
    let (before, after) = (before.value_for(mover), after.value_for(mover));
    if played_best || forced || after >= DECIDED || before <= -DECIDED {
        return Mark::Fine;
    }
    let drop = before - after;
    if drop >= BLUNDER_DROP {
        Mark::Blunder
    } else if drop >= MISTAKE_DROP {
        Mark::Mistake
    } else {
        Mark::Fine
    }
}

/// What knows a position's value, or judged a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The rules: the game is over.
    Rules,
    /// The book of proven values (the solver's results).
    Book,
    /// The endgame tables.
    Tables,
    /// The server's value service (its tables, the book, its solver's proofs).
    Server,
    /// The engine's search (an evaluation, not a proof).
    Search,
}

/// A position's exact value and what knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exact {
    /// The value with best play.
    pub value: Value,
    /// The rules, the tables or the book.
    pub source: Source,
}

/// How a move was judged: its mark, what judged it and, when an exact value decided, the value
/// the move kept (`None` when it threw it away or the search judged).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The mark.
    pub mark: Mark,
    /// What judged: an exact value's source, or the search.
    pub source: Source,
    /// The exact value kept by the move.
    pub kept: Option<Value>,
}

/// How good a value is for `side`: 2 a win, 1 a draw, 0 a loss.
fn rank(value: Value, side: Side) -> u8 {
    match value.winner() {
        Some(w) if w == side => 2,
        None => 1,
        Some(_) => 0,
    }
}

/// Judges a move by `mover` from the position evaluated `before` to the one evaluated `after`:
/// by exact values where they are known (a value kept is never marked, a value thrown away is a
/// blunder; in a lost position nothing is marked), else by the search ([`classify`]).
pub fn judge(before: &PlyEval, after: &PlyEval, mover: Side, played_best: bool, forced: bool) -> Judgement {
    let by_search = || Judgement {
        mark: classify(before.eval, after.eval, mover, played_best, forced),
        source: Source::Search,
        kept: None,
    };
    let Some(was) = before.exact else { return by_search() };
    let keeps = |source| Judgement { mark: Mark::Fine, source, kept: Some(was.value) };
    if rank(was.value, mover) == 0 {
        return keeps(was.source);
    }
    if before.keeps == Some(true) {
        return keeps(was.source);
    }
    match after.exact {
        Some(now) if rank(now.value, mover) >= rank(was.value, mover) => keeps(now.source),
        Some(now) => Judgement {
            mark: if forced { Mark::Fine } else { Mark::Blunder },
            source: if now.source == Source::Rules { was.source } else { now.source },
            kept: None,
        },
        None => by_search(),
    }
}

/// The endgame tables' exact verdict on the game's current position, with their best move,
/// used instead of a search: Alquerque positions the tables cover, when the no-capture counter
/// cannot change the result ("White wins in 9").
pub fn tablebase_verdict(game: &AnyGame, tb: Option<&Tablebase>) -> Option<(Eval, Option<AnyMove>)> {
    let (ludus_rules::AnyPosition::Alquerque(pos), Some(tb)) = (game.position(), tb) else { return None };
    let probe = tb.probe(&pos)?;
    if !probe.holds_with_clock(ludus_rules::GamePosition::clock(&pos)) {
        return None;
    }
    let side = ludus_rules::GamePosition::side_to_move(&pos);
    let eval = match probe.winner(side) {
        Some(winner) => Eval::Win { side: winner, plies: u32::from(probe.plies_to_end) },
        None => Eval::Cp(0),
    };
    Some((eval, tb.best_move(&pos).map(AnyMove::Alquerque)))
}

/// What the engine says about one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlyEval {
    /// The evaluation.
    pub eval: Eval,
    /// The engine's move there (none once the game is over).
    pub best: Option<AnyMove>,
    /// The depth the search completed (0 when no search was needed).
    pub depth: u32,
    /// The position's proven value, when the book of proven values has it (Alquerque; the
    /// no-capture counter ignored).
    pub proven: Option<Value>,
    /// The position's exact value, when the rules, the tables or the book know it.
    pub exact: Option<Exact>,
    /// Whether the book lists the move played here among those known to keep
    /// [`PlyEval::exact`] (`Some(false)`: not listed, which proves nothing; `None`: the book
    /// has no word on it).
    pub keeps: Option<bool>,
}

/// The game up to `ply` moves (its ending kept only for the whole game).
pub fn prefix(game: &AnyGame, ply: usize) -> AnyGame {
    let mut g = game.clone();
    while g.ply() > ply {
        g.undo();
    }
    g
}

/// Evaluates every position of a game in turn, a slice at a time; no Bevy, no threads.
pub struct Analyser {
    moves: Vec<AnyMove>,
    /// The game up to the position being evaluated (its moves replayed, no outside ending).
    current: AnyGame,
    next: usize,
    search: Option<AnySearch>,
    table: Option<TranspositionTable>,
    nodes: u64,
    tb: Option<Arc<Tablebase>>,
    book: Option<Arc<Book>>,
    /// The exact value of the position being evaluated, found before its search.
    exact: Option<(Exact, Option<bool>)>,
}

impl Analyser {
    /// Uses the book of proven values where it has a position: the engine's move keeps the
    /// value, and the position's evaluation says it is proven.
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Analyser {
        self.book = book;
        self
    }

    /// Uses the endgame tables where they cover a position (exact, no search).
    pub fn with_tablebase(mut self, tb: Option<Arc<Tablebase>>) -> Analyser {
        self.tb = tb;
        self
    }

    /// An analysis of every position of `game`, with [`NODES_PER_POSITION`] nodes each.
    pub fn new(game: &AnyGame) -> Analyser {
        Analyser::with_nodes(game, NODES_PER_POSITION)
    }

    /// An analysis with another budget (for tests).
    pub fn with_nodes(game: &AnyGame, nodes: u64) -> Analyser {
        Analyser {
            moves: game.moves(),
            current: AnyGame::from_position(game.start()),
            next: 0,
            search: None,
            table: None,
            nodes,
            tb: None,
            book: None,
            exact: None,
        }
    }

    /// Whether every position has its evaluation.
    pub fn is_done(&self) -> bool {
        self.next > self.moves.len()
    }

    /// Runs about `budget` nodes; returns a position's evaluation when one is finished (the
    /// positions come in order: before the first move, ..., the final position).
    pub fn step(&mut self, budget: u64) -> Option<(usize, PlyEval)> {
        if self.is_done() {
            return None;
        }
        let ply = self.next;
        if self.search.is_none() {
            let known = match self.current.outcome() {
                Some(outcome) => Some((Eval::Over(outcome.winner), None)),
                None => tablebase_verdict(&self.current, self.tb.as_deref()),
            };
            self.exact = self.exact_here(known.map(|(eval, _)| eval));
            if let Some((eval, best)) = known {
                let (exact, keeps) = self.exact.take().unzip();
                self.advance();
                return Some((
                    ply,
                    PlyEval { eval, best, depth: 0, proven: None, exact, keeps: keeps.flatten() },
                ));
            }
            // Hard without variety: the review's move is the best by its search, in the opening
            // too.
            let level = Level::Hard;
            let limits = Limits::nodes(self.nodes);
            let params = level.params_fixed();
            let mut search = match self.table.take() {
                Some(tt) => AnySearch::with_params_table(&self.current, level, limits, params, SEED, tt),
                None => AnySearch::with_params(&self.current, level, limits, params, SEED),
            };
            if let Some(book) = &self.book {
                search = search.with_book(book);
            }
            self.search = Some(search);
        }
        let search = self.search.as_mut()?;
        search.step(budget);
        if !search.is_done() {
            return None;
        }
        let search = self.search.take()?;
        let info = search.info();
        let best = search.best_move();
        self.table = search.into_table();
        let eval = Eval::from_score(info.score, self.current.side_to_move());
        let (exact, keeps) = self.exact.take().unzip();
        self.advance();
        Some((
            ply,
            PlyEval { eval, best, depth: info.depth, proven: info.proven, exact, keeps: keeps.flatten() },
        ))
    }

    /// The current position's exact value, if known (`known`: the rules' or the tables'
    /// evaluation, exact), and whether the book says the move played from it keeps it.
    fn exact_here(&self, known: Option<Eval>) -> Option<(Exact, Option<bool>)> {
        if let Some(eval) = known {
            let (value, source) = match eval {
                Eval::Over(winner) => (Value::from_winner(winner), Source::Rules),
                Eval::Win { side, .. } => (Value::from_winner(Some(side)), Source::Tables),
                Eval::Cp(_) => (Value::Draw, Source::Tables),
            };
            return Some((Exact { value, source }, None));
        }
        let (ludus_rules::AnyPosition::Alquerque(pos), Some(book)) = (self.current.position(), &self.book)
        else {
            return None;
        };
        let entry = book.get(&pos)?;
        let keeps = match (self.moves.get(self.next), book.keeping_moves(&pos)) {
            (Some(AnyMove::Alquerque(mv)), Some((_, keeping))) => Some(keeping.contains(mv)),
            _ => None,
        };
        Some((Exact { value: entry.value, source: Source::Book }, keeps))
    }

    fn advance(&mut self) {
        // The moves come from a game that played them, so they replay.
        if let Some(mv) = self.moves.get(self.next) {
            let _ = self.current.play(mv);
        }
        self.next += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_rules::Variant;

    const W: Side = Side::First;
    const B: Side = Side::Second;

    #[test]
    fn scores_become_first_side_evaluations() {
        assert_eq!(Eval::from_score(Score::Eval(130), W), Eval::Cp(130));
        assert_eq!(Eval::from_score(Score::Eval(130), B), Eval::Cp(-130));
        assert_eq!(Eval::from_score(Score::WinIn(5), B), Eval::Win { side: B, plies: 5 });
        assert_eq!(Eval::from_score(Score::LossIn(4), B), Eval::Win { side: W, plies: 4 });
        assert_eq!(Eval::Win { side: W, plies: 3 }.value(), CLAMP);
        assert_eq!(Eval::Win { side: B, plies: 3 }.value(), -CLAMP);
        assert_eq!(Eval::Cp(5000).value(), CLAMP);
        assert_eq!(Eval::Cp(-5000).value(), -CLAMP);
        assert_eq!(Eval::Over(None).value(), 0);
        assert_eq!(Eval::Over(Some(B)).value_for(B), CLAMP);
    }

    #[test]
    fn graph_values_are_soft_and_bounded() {
        assert_eq!(Eval::Cp(0).graph(), 0.0);
        assert!(Eval::Cp(100).graph() > 0.2 && Eval::Cp(100).graph() < 0.3);
        assert!(Eval::Cp(100_000).graph() < 0.95);
        assert!(Eval::Cp(-300).graph() < -0.5);
        assert_eq!(Eval::Win { side: W, plies: 9 }.graph(), 1.0);
        assert_eq!(Eval::Over(Some(B)).graph(), -1.0);
        // Monotonic.
        let vals: Vec<f32> = (-20..=20).map(|i| Eval::Cp(i * 50).graph()).collect();
        assert!(vals.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn blunders_and_mistakes() {
        use Eval::*;
        // Hand-made sequences: (before, after, mover) -> mark.
        let cases = [
            (Cp(0), Cp(-20), W, Mark::Fine),
            (Cp(0), Cp(-70), W, Mark::Mistake),
            (Cp(0), Cp(-160), W, Mark::Blunder),
            // For the second side, lower is better.
            (Cp(0), Cp(160), B, Mark::Blunder),
            (Cp(0), Cp(-160), B, Mark::Fine),
            // Winning to merely better.
            (Win { side: W, plies: 7 }, Cp(300), W, Mark::Blunder),
            // Winning to still far ahead: no mark.
            (Win { side: W, plies: 7 }, Cp(900), W, Mark::Fine),
            // From a fair game into a forced loss.
            (Cp(40), Win { side: B, plies: 6 }, W, Mark::Blunder),
            // Lost either way.
            (Win { side: B, plies: 8 }, Win { side: B, plies: 4 }, W, Mark::Fine),
            (Cp(-1500), Cp(-3000), W, Mark::Fine),
            (Cp(-600), Win { side: B, plies: 4 }, W, Mark::Fine),
            // Still far ahead after a worse move: no mark; no longer: marked.
            (Cp(1000), Cp(600), W, Mark::Fine),
            (Cp(700), Cp(450), W, Mark::Blunder),
            (Cp(-400), Cp(-480), W, Mark::Mistake),
            // Improving is never marked.
            (Cp(-200), Cp(100), W, Mark::Fine),
            // A game-ending blunder: resigning is not a move, but stepping into a loss is.
            (Cp(0), Over(Some(B)), W, Mark::Blunder),
        ];
        for (i, (before, after, mover, mark)) in cases.into_iter().enumerate() {
            assert_eq!(classify(before, after, mover, false, false), mark, "case {i}");
        }
        // The engine's own move and the only legal move are never marked.
        assert_eq!(classify(Cp(0), Cp(-500), W, true, false), Mark::Fine);
        assert_eq!(classify(Cp(0), Cp(-500), W, false, true), Mark::Fine);
    }

    fn ply(eval: Eval, exact: Option<(Value, Source)>, keeps: Option<bool>) -> PlyEval {
        let exact = exact.map(|(value, source)| Exact { value, source });
        PlyEval { eval, best: None, depth: 0, proven: None, exact, keeps }
    }

    #[test]
    fn exact_values_judge_before_the_search() {
        use Eval::*;
        let draw = Some((Value::Draw, Source::Book));
        // The search sees a blunder, the book a draw kept: not marked, the book judged.
        let j = judge(&ply(Cp(0), draw, None), &ply(Cp(-400), draw, None), W, false, false);
        assert_eq!(j, Judgement { mark: Mark::Fine, source: Source::Book, kept: Some(Value::Draw) });
        // The book lists the move among those that keep the draw, the position after unknown.
        let j = judge(&ply(Cp(0), draw, Some(true)), &ply(Cp(-400), None, None), W, false, false);
        assert_eq!((j.mark, j.source), (Mark::Fine, Source::Book));
        // Not listed proves nothing: the search judges.
        let j = judge(&ply(Cp(0), draw, Some(false)), &ply(Cp(-400), None, None), W, false, false);
        assert_eq!((j.mark, j.source), (Mark::Blunder, Source::Search));
        // A draw thrown into a loss, a win into a draw: blunders, whatever the search says.
        let lost = Some((Value::BlackWins, Source::Tables));
        let j = judge(&ply(Cp(0), draw, None), &ply(Cp(10), lost, None), W, false, false);
        assert_eq!(j, Judgement { mark: Mark::Blunder, source: Source::Tables, kept: None });
        let won = Some((Value::WhiteWins, Source::Tables));
        let tables_draw = Some((Value::Draw, Source::Tables));
        let j = judge(&ply(Cp(900), won, None), &ply(Cp(900), tables_draw, None), W, false, false);
        assert_eq!(j.mark, Mark::Blunder);
        // A win kept, even slowly, and any move in a lost position: fine.
        let j = judge(&ply(Cp(900), won, None), &ply(Cp(100), won, None), W, false, false);
        assert_eq!(j, Judgement { mark: Mark::Fine, source: Source::Tables, kept: Some(Value::WhiteWins) });
        let j = judge(&ply(Cp(-900), lost, None), &ply(Cp(-100), None, None), W, false, false);
        assert_eq!(j.mark, Mark::Fine);
        // For the second side, a White win is its loss: a draw kept by Black is fine.
        let j = judge(&ply(Cp(0), draw, None), &ply(Cp(300), draw, None), B, false, false);
        assert_eq!(j.mark, Mark::Fine);
        // Nothing exact: the search's marks as before.
        let j = judge(&ply(Cp(0), None, None), &ply(Cp(-160), draw, None), W, false, false);
        assert_eq!((j.mark, j.source), (Mark::Blunder, Source::Search));
    }

    #[test]
    fn the_shipped_book_keeps_the_first_moves_draw() {
        let bytes = include_bytes!("../../../assets/books/alquerque.lbk");
        let book = Arc::new(Book::from_bytes(bytes, "the shipped book").expect("book"));
        for first in ["b2-c3", "c2-c3"] {
            let mut game = AnyGame::new(Variant::Alquerque);
            game.play_str(first).unwrap();
            let mut a = Analyser::with_nodes(&game, 2_000).with_book(Some(book.clone()));
            let mut evals = [None; 2];
            while !a.is_done() {
                if let Some((ply, e)) = a.step(1_000) {
                    evals[ply] = Some(e);
                }
            }
            let (before, after) = (evals[0].unwrap(), evals[1].unwrap());
            assert_eq!(before.exact.map(|e| e.value), Some(Value::Draw));
            let j = judge(&before, &after, W, false, false);
            assert_eq!((j.mark, j.source, j.kept), (Mark::Fine, Source::Book, Some(Value::Draw)), "{first}");
        }
    }

    #[test]
    fn analyser_evaluates_every_position_in_order() {
        let mut game = AnyGame::new(Variant::Alquerque);
        for s in ["c2-c3", "c4xc2"] {
            game.play_str(s).unwrap();
        }
        let mut a = Analyser::with_nodes(&game, 5_000);
        let mut seen = Vec::new();
        while !a.is_done() {
            if let Some((ply, e)) = a.step(1_000) {
                seen.push(ply);
                assert!(e.best.is_some());
            }
        }
        assert_eq!(seen, vec![0, 1, 2]);
    }

    #[test]
    fn prefixes() {
        let mut game = AnyGame::new(Variant::Alquerque);
        game.play_str("c2-c3").unwrap();
        game.play_str("c4xc2").unwrap();
        assert_eq!(prefix(&game, 1).move_strings(), vec!["c2-c3"]);
        assert_eq!(prefix(&game, 5).ply(), 2);
        assert_eq!(prefix(&game, 0).ply(), 0);
    }
}
