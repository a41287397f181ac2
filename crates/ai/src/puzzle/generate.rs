//! The puzzle generator: candidate positions from games (engine self-play at mixed levels, so
//! that mistakes happen, and recorded games), kept when the engine's deep search, or in
//! Alquerque with few pieces the endgame tables, shows a unique winning first move.
//!
//! Every decision depends on depth and node limits only (never on the clock), so the same
//! configuration and seed give the same puzzles on every machine.
//!
//! For each candidate (no history; the no-capture counter set to 0):
//!
//! 1. With the endgame tables covering it (Alquerque): a win within [`MAX_WIN_PLIES`] plies
//!    whose fastest winning move is unique (apart from other moves just as fast; a slower win
//!    rejects the position), or a draw that exactly one move holds while the others lose.
//! 2. Otherwise a screening search of [`Config::screen_depth`] plies: a forced win within
//!    [`MAX_WIN_PLIES`] plies makes it a win candidate; in Latrunculi, a position where the
//!    opponent, were it to move, would win within three plies a defence candidate; a principal
//!    variation that wins a piece a material candidate.
//! 3. Each move is then valued by a search of its position [`Config::depth`]` - 1` plies deep
//!    (a move's value), and the candidate is kept when:
//!    - win: the best move wins within [`MAX_WIN_PLIES`], moves as fast are alternatives (at
//!      most two), and no other move wins at all;
//!    - material: the best move's value is not a game end, every other move scores at least
//!      [`MARGIN`] (a soldier) less, apart from at most one alternative within
//!      [`ALT_TOLERANCE`], and the line (the opponent's best replies by the search) wins a piece
//!      or more net within [`super::MAX_STEPS`] player moves, ending where the opponent has no
//!      capture;
//!    - defence: exactly one move does not lose by force, at least two others do, and it
//!      scores no worse than [`DEFENCE_FLOOR`].
//!
//!    Wins in one move make at most a quarter of a set, and puzzles that every level finds
//!    every time (the base rating, see [`rating`]) at most half; after a puzzle, the positions
//!    of its line are not looked at again.
//!
//!    Later player steps of a line list as alternatives the moves that do as well (win within
//!    the plies left; score within [`ALT_TOLERANCE`] of the best).

use super::searches::Searches;
use super::{Kind, MAX_STEPS, Puzzle, PuzzleGame, puzzle_fen, rating, side_letter, themes};
use crate::level::Rng;
use crate::score::{WIN, is_decisive, loss_in, win_in};
use crate::tablebase::{Tablebase, Wdl, best_of_generic};
use crate::{AnySearch, Level, Limits, Params, Search};
use ludus_rules::repetition::is_threefold;
use ludus_rules::{AnyGame, AnyMove, AnyPosition, Variant};
use std::collections::HashSet;
use std::sync::Arc;

/// How much worse (centi-soldiers) every other first move of a material puzzle must score:
/// one soldier. (A piece and a half kept almost nothing in Latrunculi: on 170 material
/// candidates of 8x8 self-play, the gap between the best move and the next clustered at 75 to
/// 125, the value of the one soldier a capture takes, and none reached 150.)
pub const MARGIN: i32 = 100;
/// How close (centi-soldiers) to the best a move must score to be listed as an alternative.
pub const ALT_TOLERANCE: i32 = 20;
/// The longest forced win a puzzle shows, in plies: five player moves.
pub const MAX_WIN_PLIES: usize = 2 * MAX_STEPS - 1;
/// The saving move of a defence puzzle scores at least this (centi-soldiers).
pub const DEFENCE_FLOOR: i32 = -250;
/// The searches' seed.
pub const SEED: u64 = 0x5055_5A5A_4C45;
/// The transposition table's size, in MB.
const TT_MB: usize = 8;
/// The longest self-play game, in plies.
const MAX_GAME_PLIES: usize = 220;
/// Hard's budget per move in self-play, in nodes.
const SELF_PLAY_HARD_NODES: u64 = 3_000;

/// How to generate.
#[derive(Clone)]
pub struct Config {
    /// The game.
    pub variant: Variant,
    /// How many puzzles.
    pub count: usize,
    /// The seed of the self-play games.
    pub seed: u64,
    /// The deep search's depth: a move's value is its position searched one ply less.
    pub depth: u32,
    /// The screening search's depth.
    pub screen_depth: u32,
    /// The node limit of every search.
    pub nodes: u64,
    /// The most self-play games.
    pub max_games: usize,
    /// The most puzzles taken from one game.
    pub per_game: usize,
    /// Skip the first plies of each game (their positions are rarely tactical).
    pub skip_plies: usize,
    /// The Alquerque endgame tables, if any.
    pub tablebase: Option<Arc<Tablebase>>,
    /// Whether to rate the puzzles (a few short searches each; off in quick tests).
    pub rate: bool,
}

impl Config {
    /// The defaults for `variant`: 12x8 depth 4 (screen 3), 8x8 depth 5 (screen 4), Alquerque
    /// depth 8 (screen 6), 300,000 nodes a search, at most 3 puzzles a game.
    pub fn new(variant: Variant, count: usize, seed: u64) -> Config {
        let (depth, screen_depth) = match variant {
            Variant::Latrunculi => (4, 3),
            Variant::LatrunculiQuick => (5, 3),
            Variant::Alquerque => (8, 6),
        };
        Config {
            variant,
            count,
            seed,
            depth,
            screen_depth,
            nodes: 300_000,
            max_games: 100_000,
            per_game: 3,
            skip_plies: 4,
            tablebase: None,
            rate: true,
        }
    }
}

/// The prefix of the ids of a game's puzzles: `l12`, `l8`, `alq`.
pub fn id_prefix(variant: Variant) -> &'static str {
    match variant {
        Variant::Latrunculi => "l12",
        Variant::LatrunculiQuick => "l8",
        Variant::Alquerque => "alq",
    }
}

/// Counts of a generation run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games looked at (recorded and self-play).
    pub games: usize,
    /// Distinct positions looked at.
    pub positions: usize,
    /// Positions that passed the screen and were searched move by move.
    pub candidates: usize,
    /// Puzzles kept.
    pub kept: usize,
    /// Puzzles made but refused by the caller's check.
    pub refused: usize,
}

/// A puzzle before its id, themes and rating.
pub(super) struct Draft {
    /// The solution.
    pub(super) line: Vec<String>,
    /// The alternatives at each player step.
    pub(super) alts: Vec<Vec<String>>,
    /// What the line achieves.
    pub(super) kind: Kind,
    /// The pieces won net (material).
    pub(super) gain: u32,
}

/// Generates `cfg.count` puzzles: from the positions of `games` first (recorded games of
/// `cfg.variant`; others are skipped), then from self-play games. `accept` has the last word
/// on each puzzle (the command line passes the verifier; `|_| true` keeps everything);
/// `progress` hears of each puzzle kept.
pub fn generate(
    cfg: &Config,
    games: &[AnyGame],
    mut accept: impl FnMut(&Puzzle) -> bool,
    mut progress: impl FnMut(&Stats, &Puzzle),
) -> (Vec<Puzzle>, Stats) {
    let mut g = Generator {
        cfg,
        seen: HashSet::new(),
        out: Vec::new(),
        stats: Stats::default(),
        one_move_wins: 0,
        trivial: 0,
    };
    for game in games.iter().filter(|game| game.variant() == cfg.variant) {
        if g.out.len() >= cfg.count {
            break;
        }
        g.game(game, &mut accept, &mut progress);
    }
    let mut index = 0;
    while g.out.len() < cfg.count && index < cfg.max_games {
        let game = self_play(cfg.variant, cfg.seed, index as u64);
        g.game(&game, &mut accept, &mut progress);
        index += 1;
    }
    (g.out, g.stats)
}

/// A self-play game: a few random moves, then each side at a level drawn from Easy, Medium and
/// Hard (a short node budget).
pub fn self_play(variant: Variant, seed: u64, index: u64) -> AnyGame {
    let mut rng = Rng::new(seed ^ (index + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let levels = [Level::Easy, Level::Medium, Level::Hard];
    let sides = [levels[rng.below(3) as usize], levels[rng.below(3) as usize]];
    let opening = 2 + rng.below(7) as usize;
    let mut game = AnyGame::new(variant);
    for ply in 0..MAX_GAME_PLIES {
        if game.is_over() {
            break;
        }
        let mv = if ply < opening {
            let moves = game.legal_moves();
            moves.get(rng.below(moves.len().max(1) as u64) as usize).copied()
        } else {
            let level = sides[game.side_to_move().index()];
            let limits =
                if level == Level::Hard { Limits::nodes(SELF_PLAY_HARD_NODES) } else { Limits::NONE };
            AnySearch::new(&game, level, limits, rng.next_u64()).run_to_end()
        };
        match mv {
            Some(mv) if game.play(&mv).is_ok() => {}
            _ => break,
        }
    }
    game
}

struct Generator<'a> {
    cfg: &'a Config,
    seen: HashSet<String>,
    out: Vec<Puzzle>,
    stats: Stats,
    one_move_wins: usize,
    trivial: usize,
}

impl Generator<'_> {
    fn game(
        &mut self,
        game: &AnyGame,
        accept: &mut impl FnMut(&Puzzle) -> bool,
        progress: &mut impl FnMut(&Stats, &Puzzle),
    ) {
        self.stats.games += 1;
        let mut from_this = 0;
        let mut next_ply = self.cfg.skip_plies;
        for ply in self.cfg.skip_plies..=game.ply() {
            if self.out.len() >= self.cfg.count || from_this >= self.cfg.per_game {
                return;
            }
            // Not the positions of a puzzle's own line again.
            if ply < next_ply {
                continue;
            }
            let fen = puzzle_fen(&game.position_at(ply));
            if !self.seen.insert(fen.clone()) {
                continue;
            }
            let Ok(pos) = AnyPosition::parse(self.cfg.variant, &fen) else { continue };
            if AnyGame::from_position(pos).is_over() {
                continue;
            }
            self.stats.positions += 1;
            let Some(draft) = analyze_any(&pos, self.cfg, &mut self.stats) else { continue };
            // Wins in one move: at most a quarter of the set.
            let one_move_win = draft.kind.is_win() && draft.line.len() == 1;
            if one_move_win && 4 * (self.one_move_wins + 1) > self.cfg.count.max(4) {
                continue;
            }
            next_ply = ply + draft.line.len() + 1;
            let Some(puzzle) = self.finish(pos, fen, draft) else { continue };
            // Puzzles that every level solves every time: at most half of the set.
            let trivial = self.cfg.rate && puzzle.rating <= rating::BASE;
            if trivial && 2 * (self.trivial + 1) > self.cfg.count.max(2) {
                continue;
            }
            if !accept(&puzzle) {
                self.stats.refused += 1;
                continue;
            }
            self.one_move_wins += usize::from(one_move_win);
            self.trivial += usize::from(trivial);
            from_this += 1;
            self.stats.kept += 1;
            progress(&self.stats, &puzzle);
            self.out.push(puzzle);
        }
    }

    fn finish(&self, pos: AnyPosition, fen: String, d: Draft) -> Option<Puzzle> {
        let id = format!("{}-{:04}", id_prefix(self.cfg.variant), self.out.len() + 1);
        puzzle_of(id, self.cfg.variant, pos, fen, d, self.cfg.rate)
    }
}

/// The puzzle `id` of a draft found at `pos` (notation `fen`), rated or at the base rating.
pub(super) fn puzzle_of(
    id: String,
    variant: Variant,
    pos: AnyPosition,
    fen: String,
    d: Draft,
    rate: bool,
) -> Option<Puzzle> {
    let mut moves = Vec::new();
    let mut p = pos;
    for s in &d.line {
        let mv = p.parse_move(s).ok()?;
        p = p.try_play(&mv).ok()?;
        moves.push(mv);
    }
    let mut accepted: Vec<AnyMove> = vec![*moves.first()?];
    for s in d.alts.first().into_iter().flatten() {
        accepted.push(pos.parse_move(s).ok()?);
    }
    let rating = if rate { rating::estimate(&pos, &accepted) } else { rating::BASE };
    let alts = if d.alts.iter().all(Vec::is_empty) { Vec::new() } else { d.alts };
    Some(Puzzle {
        id,
        game: variant,
        fen,
        side: side_letter(variant, pos.side_to_move()).to_string(),
        themes: themes::of_line(variant, &pos, &moves, d.kind),
        line: d.line,
        alts,
        kind: d.kind,
        gain: d.gain,
        rating,
    })
}

/// The same position with the other side to move (Latrunculi), for the threat screen.
pub(super) fn flipped(pos: &AnyPosition) -> Option<AnyPosition> {
    let AnyPosition::Latrunculi(_) = pos else { return None };
    let s = puzzle_fen(pos);
    let (board, side) = s.split_once(' ')?;
    let other = if side == "r" { "b" } else { "r" };
    let v = if pos.width() == 8 { Variant::LatrunculiQuick } else { Variant::Latrunculi };
    AnyPosition::parse(v, &format!("{board} {other}")).ok()
}

fn analyze_any(pos: &AnyPosition, cfg: &Config, stats: &mut Stats) -> Option<Draft> {
    match (pos, flipped(pos)) {
        (AnyPosition::Latrunculi(p), Some(AnyPosition::Latrunculi(f))) => {
            analyze(p, Some(f), cfg, stats, &mut Engine::new(cfg))
        }
        (AnyPosition::Latrunculi(p), _) => analyze(p, None, cfg, stats, &mut Engine::new(cfg)),
        (AnyPosition::Alquerque(p), _) => analyze(p, None, cfg, stats, &mut Engine::new(cfg)),
    }
}

/// The searches (one table reused from search to search), run now or a slice at a time.
pub(super) struct Engine<P: PuzzleGame> {
    searches: Searches<P>,
    params: Params,
    nodes: u64,
    tb: Option<Arc<Tablebase>>,
}

impl<P: PuzzleGame> Engine<P> {
    fn with(cfg: &Config, searches: Searches<P>) -> Engine<P> {
        Engine { searches, params: Level::Hard.params_fixed(), nodes: cfg.nodes, tb: cfg.tablebase.clone() }
    }

    /// Every search runs when asked.
    fn new(cfg: &Config) -> Engine<P> {
        Engine::with(cfg, Searches::now(TT_MB))
    }

    /// The searches run by [`Engine::step`] (see [`Searches`]).
    pub(super) fn sliced(cfg: &Config) -> Engine<P> {
        Engine::with(cfg, Searches::sliced(TT_MB))
    }

    /// See [`Searches::waiting`].
    pub(super) fn waiting(&self) -> bool {
        self.searches.waiting()
    }

    /// See [`Searches::step`].
    pub(super) fn step(&mut self, budget: u64) -> bool {
        self.searches.step(budget)
    }

    /// See [`Searches::replay`].
    pub(super) fn replay(&mut self) {
        self.searches.replay();
    }

    /// The raw score (for `root`'s side to move) and principal variation of a search (`None`:
    /// not finished yet).
    fn search(&mut self, root: &P, history: &[P], depth: u32) -> Option<(i32, Vec<P::Move>)> {
        let limits = Limits { depth: Some(depth.max(1)), nodes: Some(self.nodes), time_ms: None };
        let (params, tb) = (&self.params, &self.tb);
        self.searches.search(|tt| {
            let mut s = Search::with_table(*root, history, limits, params.clone(), SEED, tt);
            if let Some(tb) = tb {
                s.set_tablebase(tb.clone());
            }
            s
        })
    }

    /// The value of `mv` for `root`'s side to move: the game's end, the tables' value, or
    /// minus the search of its position `depth - 1` plies deep; `history` holds the line's
    /// positions before `root`.
    fn value(&mut self, root: &P, history: &[P], mv: &P::Move, depth: u32) -> Option<i32> {
        let me = root.side_to_move();
        let child = root.play_unchecked(mv);
        let mut stack: Vec<P> = history.to_vec();
        stack.push(*root);
        stack.push(child);
        if let Some(o) = child.rule_outcome(is_threefold(&stack)) {
            return Some(match o.winner {
                Some(w) if w == me => win_in(1),
                Some(_) => loss_in(1),
                None => 0,
            });
        }
        stack.pop();
        if let Some(tb) = &self.tb
            && let Some(p) = child.tablebase_probe(tb)
            && p.holds_with_clock(child.clock())
        {
            return Some(-p.score(1));
        }
        let (r, _) = self.search(&child, &stack, depth.saturating_sub(1))?;
        Some(from_child(r))
    }

    /// Every legal move with its value, best first (the rules' order among equals).
    fn values(&mut self, root: &P, history: &[P], depth: u32) -> Option<Vec<(P::Move, i32)>> {
        self.scan(root, history, depth, None, |_| true)
    }

    /// [`Engine::values`], `first` valued first, stopping early (`None`) as soon as
    /// `go_on` (given the values so far) says the position cannot be a puzzle.
    fn scan(
        &mut self,
        root: &P,
        history: &[P],
        depth: u32,
        first: Option<P::Move>,
        mut go_on: impl FnMut(&[(P::Move, i32)]) -> bool,
    ) -> Option<Vec<(P::Move, i32)>> {
        let mut moves = root.legal_moves();
        if let Some(f) = first
            && let Some(i) = moves.iter().position(|m| *m == f)
        {
            moves[..=i].rotate_right(1);
        }
        let mut v: Vec<(P::Move, i32)> = Vec::with_capacity(moves.len());
        for m in moves {
            let value = self.value(root, history, &m, depth)?;
            v.push((m, value));
            if !go_on(&v) {
                return None;
            }
        }
        v.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        Some(v)
    }
}

/// A child's raw score (for its side to move) as the parent's.
fn from_child(r: i32) -> i32 {
    if r >= WIN - 1000 {
        -r + 1
    } else if r <= -(WIN - 1000) {
        -r - 1
    } else {
        -r
    }
}

/// Plies to the win of a winning value.
fn win_plies(v: i32) -> usize {
    (WIN - v) as usize
}

fn wins_within(v: i32, plies: usize) -> bool {
    v >= win_in(plies)
}

/// The puzzle of `root`, if any (`flipped`: the same position with the other side to move,
/// Latrunculi), by the searches of `e` (sliced: `None` while `e` is waiting for one).
pub(super) fn analyze<P: PuzzleGame>(
    root: &P,
    flipped: Option<P>,
    cfg: &Config,
    stats: &mut Stats,
    e: &mut Engine<P>,
) -> Option<Draft> {
    if root.legal_moves().len() < 2 {
        return None;
    }
    if let Some(tb) = cfg.tablebase.clone()
        && root.tablebase_probe(&tb).is_some()
    {
        stats.candidates += 1;
        return table_puzzle(root, &tb);
    }
    let (s, pv) = e.search(root, &[], cfg.screen_depth)?;
    if wins_within(s, MAX_WIN_PLIES) {
        stats.candidates += 1;
        return win_puzzle(e, root, pv.first().copied(), cfg);
    }
    if is_decisive(s) {
        return None;
    }
    if let Some(f) = flipped {
        let (threat, _) = e.search(&f, &[], 3)?;
        if wins_within(threat, 3) {
            stats.candidates += 1;
            if let Some(d) = defence_puzzle(e, root, pv.first().copied(), cfg) {
                return Some(d);
            }
        }
    }
    if pv_gain(root, &pv) >= 1 {
        stats.candidates += 1;
        return material_puzzle(e, root, pv.first().copied(), cfg);
    }
    None
}

/// The most material the side to move gains along a line, after any of its own moves.
fn pv_gain<P: PuzzleGame>(root: &P, pv: &[P::Move]) -> i32 {
    let me = root.side_to_move();
    let start = root.balance(me);
    let mut pos = *root;
    let mut best = 0;
    for (i, mv) in pv.iter().enumerate() {
        pos = pos.play_unchecked(mv);
        if i % 2 == 0 {
            best = best.max(pos.balance(me) - start);
        }
    }
    best
}

fn names<P: PuzzleGame>(pos: &P, moves: &[P::Move]) -> Vec<String> {
    moves.iter().map(|m| pos.move_to_string(m)).collect()
}

fn win_puzzle<P: PuzzleGame>(
    e: &mut Engine<P>,
    root: &P,
    first: Option<P::Move>,
    cfg: &Config,
) -> Option<Draft> {
    // Two wins of different lengths, or more than three wins: no puzzle.
    let vals = e.scan(root, &[], cfg.depth, first, |v| {
        let wins: Vec<i32> = v.iter().map(|(_, x)| *x).filter(|x| *x >= win_in(MAX_WIN_PLIES + 20)).collect();
        wins.len() <= 3 && wins.windows(2).all(|w| w[0] == w[1])
    })?;
    let (first, best) = vals[0];
    if !wins_within(best, MAX_WIN_PLIES) {
        return None;
    }
    let plies = win_plies(best);
    let winners: Vec<_> = vals.iter().filter(|(_, v)| *v >= win_in(MAX_WIN_PLIES + 20)).collect();
    // A slower win is neither as good nor clearly worse: no puzzle.
    if winners.iter().any(|(_, v)| *v < best) || winners.len() > 3 || winners.len() == vals.len() {
        return None;
    }
    let alts: Vec<P::Move> = winners[1..].iter().map(|(m, _)| *m).collect();
    let me = root.side_to_move();
    let mut line = vec![root.move_to_string(&first)];
    let mut all_alts = vec![names(root, &alts)];
    let mut history = vec![*root];
    let mut pos = root.play_unchecked(&first);
    loop {
        let mut stack = history.clone();
        stack.push(pos);
        if let Some(o) = pos.rule_outcome(is_threefold(&stack)) {
            let kind = Kind::of_win(o, me)?;
            return (line.len() <= plies).then_some(Draft { line, alts: all_alts, kind, gain: 0 });
        }
        if line.len() + 2 > plies {
            return None;
        }
        // The opponent's longest defence.
        let (_, pv) = e.search(&pos, &history, cfg.depth)?;
        let reply = *pv.first()?;
        line.push(pos.move_to_string(&reply));
        history.push(pos);
        let mine = pos.play_unchecked(&reply);
        let left = plies - line.len();
        let vals = e.values(&mine, &history, cfg.depth)?;
        let good: Vec<P::Move> =
            vals.iter().filter(|(_, v)| wins_within(*v, left)).map(|(m, _)| *m).collect();
        let (&next, others) = good.split_first()?;
        line.push(mine.move_to_string(&next));
        all_alts.push(names(&mine, others));
        history.push(mine);
        pos = mine.play_unchecked(&next);
    }
}

fn material_puzzle<P: PuzzleGame>(
    e: &mut Engine<P>,
    root: &P,
    first: Option<P::Move>,
    cfg: &Config,
) -> Option<Draft> {
    // Valuing the screen's move first: stop at the first move that is neither as good nor
    // clearly worse, or better.
    let vals = e.scan(root, &[], cfg.depth, first, |v| {
        let (lead, rest) = (v[0].1, &v[1..]);
        let close = rest.iter().filter(|(_, x)| *x >= lead - ALT_TOLERANCE).count();
        close <= 1
            && rest.iter().all(|(_, x)| {
                *x <= lead + ALT_TOLERANCE && (*x >= lead - ALT_TOLERANCE || *x <= lead - MARGIN)
            })
    })?;
    let (first, best) = vals[0];
    if is_decisive(best) {
        return None;
    }
    let alts: Vec<P::Move> =
        vals[1..].iter().filter(|(_, v)| *v >= best - ALT_TOLERANCE).map(|(m, _)| *m).collect();
    let rest = vals.get(1 + alts.len()).map_or(-WIN, |(_, v)| *v);
    if alts.len() > 1 || rest > best - MARGIN {
        return None;
    }
    let me = root.side_to_move();
    let start = root.balance(me);
    let mut line = vec![root.move_to_string(&first)];
    let mut all_alts = vec![names(root, &alts)];
    let mut history = vec![*root];
    let mut pos = root.play_unchecked(&first);
    loop {
        let mut stack = history.clone();
        stack.push(pos);
        if pos.rule_outcome(is_threefold(&stack)).is_some() {
            return None;
        }
        let gain = pos.balance(me) - start;
        let opponent_captures = pos.legal_moves().iter().any(P::is_capture);
        if gain >= 1 && !opponent_captures {
            return Some(Draft { line, alts: all_alts, kind: Kind::Material, gain: gain as u32 });
        }
        if line.len() / 2 + 1 >= MAX_STEPS {
            return None;
        }
        let (_, pv) = e.search(&pos, &history, cfg.depth)?;
        let reply = *pv.first()?;
        line.push(pos.move_to_string(&reply));
        history.push(pos);
        let mine = pos.play_unchecked(&reply);
        let mut stack = history.clone();
        stack.push(mine);
        if mine.rule_outcome(is_threefold(&stack)).is_some() {
            return None;
        }
        let vals = e.values(&mine, &history, cfg.depth)?;
        let (next, top) = vals[0];
        if is_decisive(top) {
            return None;
        }
        let others: Vec<P::Move> =
            vals[1..].iter().filter(|(_, v)| *v >= top - ALT_TOLERANCE).map(|(m, _)| *m).collect();
        line.push(mine.move_to_string(&next));
        all_alts.push(names(&mine, &others));
        history.push(mine);
        pos = mine.play_unchecked(&next);
    }
}

/// Whether a value loses by force.
fn loses(v: i32) -> bool {
    v <= -(WIN - 1000)
}

/// The only saving move of a position, if exactly one move does not lose and two or more do.
fn only_save<P: PuzzleGame>(
    e: &mut Engine<P>,
    pos: &P,
    history: &[P],
    first: Option<P::Move>,
    cfg: &Config,
) -> Option<P::Move> {
    let vals =
        e.scan(pos, history, cfg.depth, first, |v| v.iter().filter(|(_, x)| !loses(*x)).count() <= 1)?;
    let saving: Vec<_> = vals.iter().filter(|(_, v)| !loses(*v)).collect();
    let losing = vals.len() - saving.len();
    match saving.as_slice() {
        [(m, v)] if losing >= 2 && *v >= DEFENCE_FLOOR => Some(*m),
        _ => None,
    }
}

fn defence_puzzle<P: PuzzleGame>(
    e: &mut Engine<P>,
    root: &P,
    first: Option<P::Move>,
    cfg: &Config,
) -> Option<Draft> {
    let first = only_save(e, root, &[], first, cfg)?;
    let mut line = vec![root.move_to_string(&first)];
    let mut history = vec![*root];
    let mut pos = root.play_unchecked(&first);
    // Longer while the defence stays forced, up to three player moves.
    while line.len() < 5 {
        let (_, pv) = e.search(&pos, &history, cfg.depth)?;
        let Some(reply) = pv.first().copied() else { break };
        let mine = pos.play_unchecked(&reply);
        let mut hist = history.clone();
        hist.push(pos);
        let mut stack = hist.clone();
        stack.push(mine);
        if mine.rule_outcome(is_threefold(&stack)).is_some() {
            break;
        }
        let (_, pv) = e.search(&mine, &hist, cfg.screen_depth)?;
        let Some(next) = only_save(e, &mine, &hist, pv.first().copied(), cfg) else { break };
        line.push(pos.move_to_string(&reply));
        line.push(mine.move_to_string(&next));
        hist.push(mine);
        history = hist;
        pos = mine.play_unchecked(&next);
    }
    let steps = line.len().div_ceil(2);
    Some(Draft { line, alts: vec![Vec::new(); steps], kind: Kind::Defence, gain: 0 })
}

fn table_puzzle<P: PuzzleGame>(root: &P, tb: &Tablebase) -> Option<Draft> {
    let probe = root.tablebase_probe(tb)?;
    let vals = root.tablebase_moves(tb)?;
    let me = root.side_to_move();
    match probe.wdl {
        Wdl::Win if usize::from(probe.plies_to_end) <= MAX_WIN_PLIES && probe.holds_with_clock(0) => {
            let plies = probe.plies_to_end;
            let winners: Vec<_> = vals.iter().filter(|(_, p)| p.wdl == Wdl::Win).collect();
            if winners.iter().any(|(_, p)| p.plies_to_end > plies)
                || winners.len() > 3
                || winners.len() == vals.len()
            {
                return None;
            }
            let mut line = Vec::new();
            let mut all_alts = Vec::new();
            let mut pos = *root;
            loop {
                // The player: the fastest wins.
                let vals = pos.tablebase_moves(tb)?;
                let left = usize::from(plies) - line.len();
                let good: Vec<P::Move> = vals
                    .iter()
                    .filter(|(_, p)| p.wdl == Wdl::Win && usize::from(p.plies_to_end) <= left)
                    .map(|(m, _)| *m)
                    .collect();
                let (best, _) = best_of_generic(&vals)?;
                line.push(pos.move_to_string(&best));
                all_alts.push(names(&pos, &good.into_iter().filter(|m| *m != best).collect::<Vec<_>>()));
                pos = pos.play_unchecked(&best);
                if let Some(o) = pos.rule_outcome(false) {
                    let kind = Kind::of_win(o, me)?;
                    return Some(Draft { line, alts: all_alts, kind, gain: 0 });
                }
                // The opponent: the longest defence.
                let (reply, _) = best_of_generic(&pos.tablebase_moves(tb)?)?;
                line.push(pos.move_to_string(&reply));
                pos = pos.play_unchecked(&reply);
                if line.len() >= usize::from(plies) {
                    return None;
                }
            }
        }
        Wdl::Draw => {
            let draws = |vals: &[(P::Move, crate::Probe)]| -> Option<P::Move> {
                let drawing: Vec<_> = vals.iter().filter(|(_, p)| p.wdl != Wdl::Loss).collect();
                match drawing.as_slice() {
                    [(m, p)] if p.wdl == Wdl::Draw && vals.len() >= 2 => Some(*m),
                    _ => None,
                }
            };
            let first = draws(&vals)?;
            let mut line = vec![root.move_to_string(&first)];
            let mut pos = root.play_unchecked(&first);
            while line.len() < 5 {
                // The opponent's reply: a drawing move (the tables' first); then the player's
                // next move, if it is again the only one that holds.
                let Some(ovals) = pos.tablebase_moves(tb) else { break };
                let Some((reply, rp)) = best_of_generic(&ovals) else { break };
                if rp.wdl != Wdl::Draw {
                    break;
                }
                let mine = pos.play_unchecked(&reply);
                if mine.rule_outcome(false).is_some() {
                    break;
                }
                let Some(next) = mine.tablebase_moves(tb).and_then(|v| draws(&v)) else { break };
                line.push(pos.move_to_string(&reply));
                line.push(mine.move_to_string(&next));
                pos = mine.play_unchecked(&next);
            }
            let steps = line.len().div_ceil(2);
            Some(Draft { line, alts: vec![Vec::new(); steps], kind: Kind::Draw, gain: 0 })
        }
        _ => None,
    }
}
