//! Both games behind one type, for the game, the server and the command line.

use crate::level::Rng;
use crate::level::{Level, easy_move, random_move};
use crate::limits::Limits;
use crate::params::Params;
use crate::score::Score;
use crate::search::{Search, Status};
use crate::solve::Value;
use crate::solve::book::Book;
use crate::tablebase::{Probe, Tablebase, Wdl};
use crate::tt::TranspositionTable;
use ludus_rules::{AnyGame, AnyMove, AnyPosition, GamePosition, Side, Variant, alquerque, latrunculi};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What a search has found so far, with moves in notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnyInfo {
    /// The depth of the last completed iteration (0 for the levels that do not search).
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// The principal variation in notation, best move first.
    pub pv: Vec<String>,
    /// The endgame tablebase's value of the position, for its side to move, when a tablebase
    /// is attached and covers it (see [`crate::tablebase::Probe::describe`]: "White wins in 9
    /// plies").
    #[serde(default)]
    pub tablebase: Option<Probe>,
    /// The position's proven value, when a book of proven values ([`AnySearch::with_book`])
    /// has it (the no-capture counter ignored).
    #[serde(default)]
    pub proven: Option<Value>,
}

enum Inner {
    Latrunculi(Box<Search<latrunculi::Position>>),
    Alquerque(Box<Search<alquerque::Position>>),
    /// Random and Easy choose at once.
    Picked(Option<AnyMove>, Option<String>),
}

/// A search of the current position of a game of either kind, at a level.
pub struct AnySearch {
    inner: Inner,
    /// The root's proven value, from the book.
    proven: Option<Value>,
}

macro_rules! both {
    ($self:expr, $s:ident => $body:expr, $picked:pat => $other:expr) => {
        match $self {
            Inner::Latrunculi($s) => $body,
            Inner::Alquerque($s) => $body,
            $picked => $other,
        }
    };
}

impl AnySearch {
    /// A search of `game`'s current position at `level`, with the caller's limits (see
    /// [`Level::limits`]) and a seed (the same seed and limits give the same move, except
    /// under a time limit). The game's positions since the last capture count for
    /// repetitions. A finished game has no move.
    pub fn new(game: &AnyGame, level: Level, limits: Limits, seed: u64) -> AnySearch {
        AnySearch::with_params(game, level, limits, level.params(), seed)
    }

    /// Like [`AnySearch::new`] with explicit parameters (used by tuning and tests; the level
    /// still chooses random, greedy or search play, and its limits).
    pub fn with_params(game: &AnyGame, level: Level, limits: Limits, params: Params, seed: u64) -> AnySearch {
        AnySearch::build(game, level, limits, params, seed, None)
    }

    /// Like [`AnySearch::new`], reusing a transposition table (see [`AnySearch::into_table`]).
    pub fn with_table(
        game: &AnyGame,
        level: Level,
        limits: Limits,
        seed: u64,
        tt: TranspositionTable,
    ) -> AnySearch {
        AnySearch::build(game, level, limits, level.params(), seed, Some(tt))
    }

    /// Like [`AnySearch::with_params`], reusing a transposition table.
    pub fn with_params_table(
        game: &AnyGame,
        level: Level,
        limits: Limits,
        params: Params,
        seed: u64,
        tt: TranspositionTable,
    ) -> AnySearch {
        AnySearch::build(game, level, limits, params, seed, Some(tt))
    }

    fn build(
        game: &AnyGame,
        level: Level,
        limits: Limits,
        params: Params,
        seed: u64,
        tt: Option<TranspositionTable>,
    ) -> AnySearch {
        let limits = level.limits_for(limits, matches!(game, AnyGame::Alquerque(_)));
        // The ply of the game's root, when the game began at its variant's start position (a
        // position set up has no opening).
        let from_start = (game.start() == game.variant().start()).then_some(game.ply());
        fn make<P: crate::SearchGame>(
            positions: &[P],
            limits: Limits,
            params: Params,
            seed: u64,
            tt: Option<TranspositionTable>,
            from_start: Option<usize>,
        ) -> Box<Search<P>> {
            let (root, history) = positions.split_last().expect("a game has a position");
            let (_, opening_plies) = P::opening_variety(&params);
            let opening = from_start.is_some_and(|ply| ply < opening_plies as usize);
            let mut s = match tt {
                Some(tt) => Search::with_table(*root, history, limits, params, seed, tt),
                None => Search::new(*root, history, limits, params, seed),
            };
            s.set_opening(opening);
            Box::new(s)
        }
        if game.is_over() {
            return AnySearch { inner: Inner::Picked(None, None), proven: None };
        }
        let inner = match (level, game) {
            (Level::Random | Level::Easy, AnyGame::Latrunculi(g)) => {
                let (root, history) = g.positions().split_last().expect("a position");
                let mv = if level == Level::Random {
                    random_move(root, seed)
                } else {
                    easy_move(root, history, seed)
                };
                Inner::Picked(mv.map(AnyMove::Latrunculi), mv.map(|m| root.move_to_string(&m)))
            }
            (Level::Random | Level::Easy, AnyGame::Alquerque(g)) => {
                let (root, history) = g.positions().split_last().expect("a position");
                let mv = if level == Level::Random {
                    random_move(root, seed)
                } else {
                    easy_move(root, history, seed)
                };
                Inner::Picked(mv.map(AnyMove::Alquerque), mv.map(|m| root.move_to_string(&m)))
            }
            (_, AnyGame::Latrunculi(g)) => {
                Inner::Latrunculi(make(g.positions(), limits, params, seed, tt, from_start))
            }
            (_, AnyGame::Alquerque(g)) => {
                Inner::Alquerque(make(g.positions(), limits, params, seed, tt, from_start))
            }
        };
        AnySearch { inner, proven: None }
    }

    /// Attaches an Alquerque endgame tablebase to the search (Medium and Hard; Random and Easy,
    /// and Latrunculi, ignore it). Call it before the first [`AnySearch::step`]; what the
    /// search does with it is described at [`Search::set_tablebase`].
    ///
    /// ```
    /// use ludus_ai::{AnySearch, Level, Limits, tablebase};
    /// use ludus_rules::{AnyGame, AnyPosition, Variant};
    /// use std::sync::Arc;
    ///
    /// let tb = Arc::new(tablebase::generate(3, None, |_| {}).unwrap());
    /// let pos = AnyPosition::parse(Variant::Alquerque, "5/5/2B2/1W3/W4 w").unwrap();
    /// let game = AnyGame::from_position(pos);
    /// let mut search = AnySearch::new(&game, Level::Hard, Limits::depth(4), 1).with_tablebase(tb);
    /// let mv = search.run_to_end().unwrap();
    /// assert_eq!(game.position().move_to_string(&mv).unwrap(), "b2xd4");
    /// let probe = search.info().tablebase.unwrap();
    /// assert_eq!(probe.describe(ludus_rules::Side::First), "White wins in 1 ply");
    /// ```
    pub fn with_tablebase(mut self, tb: Arc<Tablebase>) -> AnySearch {
        if let Inner::Alquerque(s) = &mut self.inner {
            s.set_tablebase(tb);
        }
        self
    }

    /// Attaches Alquerque's book of proven values (levels that search; the game and the arena
    /// give it to Hard only, and Random, Easy and Latrunculi ignore it). Call it before the
    /// first [`AnySearch::step`], after [`AnySearch::with_tablebase`]: a position the tables
    /// cover is theirs. Where the book has the position, the search chooses among the moves
    /// that keep its proven value only, and [`AnyInfo::proven`] gives the value.
    pub fn with_book(mut self, book: &Book) -> AnySearch {
        if let Inner::Alquerque(s) = &mut self.inner
            && s.tablebase().is_none()
            && let Some((value, keep)) = book.keeping_moves(s.root())
        {
            s.keep_root_moves(|m| keep.contains(m));
            self.proven = Some(value);
        }
        self
    }

    /// Runs about `budget` nodes of the search, then returns.
    pub fn step(&mut self, budget: u64) -> Status {
        both!(&mut self.inner, s => s.step(budget), Inner::Picked(..) => Status::Done)
    }

    /// Runs the search to its end and returns the best move.
    pub fn run_to_end(&mut self) -> Option<AnyMove> {
        while self.step(1 << 20) == Status::Running {}
        self.best_move()
    }

    /// Whether the search is over.
    pub fn is_done(&self) -> bool {
        both!(&self.inner, s => s.is_done(), Inner::Picked(..) => true)
    }

    /// The best move so far (always one once the search has started, unless the game is over
    /// or the side to move has no legal move).
    pub fn best_move(&self) -> Option<AnyMove> {
        match &self.inner {
            Inner::Latrunculi(s) => s.best_move().map(AnyMove::Latrunculi),
            Inner::Alquerque(s) => s.best_move().map(AnyMove::Alquerque),
            Inner::Picked(m, _) => *m,
        }
    }

    /// The search's progress, moves in notation.
    pub fn info(&self) -> AnyInfo {
        fn convert<P: crate::SearchGame>(s: &Search<P>) -> AnyInfo {
            let i = s.info();
            let mut pos = *s.root();
            let mut pv = Vec::with_capacity(i.pv.len());
            for m in &i.pv {
                pv.push(pos.move_to_string(m));
                pos = pos.play_unchecked(m);
            }
            AnyInfo {
                depth: i.depth,
                seldepth: i.seldepth,
                score: i.score,
                nodes: i.nodes,
                time_ms: i.time_ms,
                pv,
                tablebase: s.tablebase(),
                proven: None,
            }
        }
        let mut info = match &self.inner {
            Inner::Latrunculi(s) => convert(s),
            Inner::Alquerque(s) => convert(s),
            Inner::Picked(_, notation) => AnyInfo {
                depth: 0,
                seldepth: 0,
                score: Score::Eval(0),
                nodes: 0,
                time_ms: 0,
                pv: notation.iter().cloned().collect(),
                tablebase: None,
                proven: None,
            },
        };
        info.proven = self.proven;
        info
    }

    /// The transposition table, to reuse for the next move (`None` for the levels that do not
    /// search).
    pub fn into_table(self) -> Option<TranspositionTable> {
        match self.inner {
            Inner::Latrunculi(s) => Some(s.into_table()),
            Inner::Alquerque(s) => Some(s.into_table()),
            Inner::Picked(..) => None,
        }
    }
}

/// The move `level` plays in `game`'s current position, in one go (see [`AnySearch::new`]).
pub fn best_move(game: &AnyGame, level: Level, limits: Limits, seed: u64) -> Option<AnyMove> {
    AnySearch::new(game, level, limits, seed).run_to_end()
}

/// The search's own noise (centi-soldiers): within it either way a game counts as level for a
/// draw offer ([`accepts_draw`]).
pub const DRAW_MARGIN: i32 = 25;

/// Whether `side` takes a draw offered in `game`. The endgame tables `tb`, when given and they
/// cover the position, decide: a draw or a loss for `side` is taken, a win is played on. Else a
/// search of `nodes` nodes with Hard's evaluation: `side` takes the draw when it is behind by
/// more than [`DRAW_MARGIN`], and in a level game (within the margin) only once the game has
/// gone half the no-capture limit without a capture; it plays on when ahead, and in a level
/// game still full of play (the opening, say). Never in a game that is over.
pub fn accepts_draw(game: &AnyGame, side: Side, nodes: u64, tb: Option<Arc<Tablebase>>, seed: u64) -> bool {
    if game.is_over() {
        return false;
    }
    let mut search = AnySearch::new(game, Level::Hard, Limits::nodes(nodes), seed);
    if let Some(tb) = tb {
        search = search.with_tablebase(tb);
    }
    search.run_to_end();
    let info = search.info();
    // The search's and the tables' values are the side to move's.
    let mine = game.side_to_move() == side;
    if let Some(probe) = info.tablebase {
        return match probe.wdl {
            Wdl::Draw => true,
            Wdl::Win => !mine,
            Wdl::Loss => mine,
        };
    }
    let for_mover = match info.score {
        Score::Eval(cp) => cp,
        Score::WinIn(_) => i32::MAX,
        Score::LossIn(_) => -i32::MAX,
    };
    let value = if mine { for_mover } else { -for_mover };
    let limit = match game {
        AnyGame::Latrunculi(_) => latrunculi::NO_CAPTURE_LIMIT,
        AnyGame::Alquerque(_) => alquerque::NO_CAPTURE_LIMIT,
    };
    let quiet = game.position().clock() >= limit / 2;
    value < -DRAW_MARGIN || (value <= DRAW_MARGIN && quiet)
}

/// A game of `variant` after `plies` random moves (from `seed`) that leave a balanced
/// position: the game goes on, material is equal, and a short search scores it within half a
/// soldier. For varied starts in matches between levels (each opening is then played once
/// with each colour).
pub fn balanced_opening(variant: Variant, plies: usize, seed: u64) -> AnyGame {
    let mut attempt = 0u64;
    loop {
        let mut rng = Rng::new(seed ^ attempt.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        attempt += 1;
        let mut game = AnyGame::new(variant);
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let _ = game.play(&mv);
        }
        if game.is_over() {
            continue;
        }
        if attempt > 1000 {
            return game;
        }
        let material = match game.position() {
            AnyPosition::Latrunculi(p) => p.material(),
            AnyPosition::Alquerque(p) => p.material(),
        };
        if material[0] != material[1] {
            continue;
        }
        let params = Params { tt_mb: 1, ..Params::default() };
        let mut search = AnySearch::with_params(&game, Level::Hard, Limits::depth(4), params, 0);
        search.run_to_end();
        if let Score::Eval(cp) = search.info().score
            && cp.abs() <= 50
        {
            return game;
        }
    }
}
