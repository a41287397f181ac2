//! The search: iterative deepening, aspiration windows, principal variation search with late
//! move reductions and a transposition table, quiescence over captures, all written as an
//! explicit-stack machine so that it can stop after any node and resume later.
//!
//! # Resumable
//!
//! There is no recursion: each node of the tree is a frame on a stack, and [`Search::step`]
//! runs the machine for a budget of nodes, then returns with the stack intact. Nothing depends
//! on where the slices fall (the node limit and the depth limit are checked at the same places
//! whatever the budget), so a search run in slices gives exactly the same result as one run in
//! one go with the same node and depth limits. Only a time limit makes results depend on the
//! machine.
//!
//! # Game ends, repetition and the transposition table
//!
//! After every move the search asks the rules ([`ludus_rules::GamePosition::rule_outcome`])
//! whether the game is over, with the repetition flag computed from a stack of the positions of
//! the game since the last capture (given at the root) and of the current line. A win or loss
//! scores `WIN - plies` so that faster wins (and slower losses) are preferred; "no legal move"
//! is found when a node has no moves.
//!
//! Scores that come from a threefold repetition depend on the path, not only on the position.
//! The search marks them, and the mark travels up to every node whose result they touched;
//! marked results are never stored in the table (their best move still orders the moves of the
//! node, nothing more). The table therefore only holds path-independent scores, and a table
//! hit can never claim a repetition that is not there or miss one that is: positions whose
//! subtree meets a repetition are simply searched again.
//!
//! The no-capture counter is not part of the Zobrist hash either. It matters only when the
//! limit can be reached within the remaining depth, so the table key of a node whose counter is
//! that close to the limit includes the counter; further from it, positions that differ only in
//! the counter share entries.

use crate::eval::SearchGame;
use crate::limits::Limits;
use crate::ordering::{self, Ordering};
use crate::params::Params;
use crate::score::{self, INFINITY, Score, from_tt, is_decisive, loss_in, to_tt, win_in};
use crate::tablebase::{self, Probe, Tablebase, Wdl};
use crate::tt::{Bound, TranspositionTable};
use ludus_rules::repetition::{Repetition, is_threefold, repetition};
use ludus_rules::splitmix::mix;
use ludus_rules::{GamePosition, Outcome, Side};
use std::sync::Arc;
use web_time::Instant;

/// The deepest line (main search, extensions and quiescence) the search follows.
pub const MAX_PLY: usize = 128;

/// Nodes between two looks at the clock.
const TIME_CHECK: u64 = 256;

/// What a call to [`Search::step`] left behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The search has more to do: call `step` again.
    Running,
    /// The search is over; [`Search::best_move`] is its answer.
    Done,
}

/// What the search has found so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<M> {
    /// The depth of the last completed iteration (0 before the first).
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The score of the best move, from the root side to move's point of view.
    pub score: Score,
    /// The raw score (see [`crate::score`]).
    pub raw_score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds since the first step.
    pub time_ms: u64,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Main,
    Quiesce,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Enter,
    Next,
    Child,
}

/// Where a node is in its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The transposition table's move, before generating.
    TableMove,
    /// Generate the captures (games with staged generation).
    GenCaptures,
    /// Go through the captures, biggest first.
    Captures,
    /// The killers of the ply, if legal here.
    Killer(usize),
    /// Generate and order the other moves.
    Generate,
    /// Go through the ordered list.
    Rest,
}

/// How the current child of a frame is being searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Null window at reduced depth.
    Reduced,
    /// Null window at full depth.
    Zero,
    /// Full window at full depth.
    Full,
}

#[derive(Clone, Copy, Debug)]
struct Frame<P: GamePosition> {
    pos: P,
    key: u64,
    kind: Kind,
    state: State,
    depth: i32,
    alpha: i32,
    beta: i32,
    orig_alpha: i32,
    best: i32,
    best_move: Option<P::Move>,
    tainted: bool,
    pv_node: bool,
    ext: i32,
    /// Plies of extension along the line to this node.
    exts: u8,
    stage: Stage,
    tt_tag: u32,
    tt_move: Option<P::Move>,
    killers_tried: [Option<P::Move>; 2],
    next: usize,
    searched: u32,
    cur: Option<P::Move>,
    cur_quiet: bool,
    /// The root's bonus for the current move (searched with a window moved by as much).
    cur_adj: i32,
    cur_depth: i32,
    phase: Phase,
    /// Technique: the squares near the enemy king and soldiers, and the extra reduction of
    /// the quiet moves that land elsewhere (see [`SearchGame::near_mask`]).
    near: (u128, i32),
}

impl<P: GamePosition> Frame<P> {
    fn new(pos: P, depth: i32, alpha: i32, beta: i32) -> Frame<P> {
        Frame {
            pos,
            key: 0,
            kind: Kind::Main,
            state: State::Enter,
            depth,
            alpha,
            beta,
            orig_alpha: alpha,
            best: -INFINITY,
            best_move: None,
            tainted: false,
            pv_node: beta - alpha > 1,
            ext: 0,
            exts: 0,
            stage: Stage::Generate,
            tt_tag: 0,
            tt_move: None,
            killers_tried: [None, None],
            next: 0,
            searched: 0,
            cur: None,
            cur_quiet: false,
            cur_adj: 0,
            cur_depth: 0,
            phase: Phase::Full,
            near: (0, 0),
        }
    }
}

/// The result of the last completed iteration.
#[derive(Clone, Debug)]
struct Completed<M> {
    depth: u32,
    score: i32,
    best: M,
    pv: Vec<M>,
}

/// A resumable search of one position of one game.
pub struct Search<P: SearchGame> {
    root: P,
    ctx: P::Context,
    params: Params,
    limits: Limits,
    seed: u64,
    tt: TranspositionTable,
    ordering: Ordering<P::Move>,
    /// Positions since the last capture before the root, then the current line.
    stack: Vec<P>,
    root_stack_len: usize,
    root_side: Side,
    frames: Vec<Frame<P>>,
    /// Scratch space for move generation.
    gen_buf: Vec<P::Move>,
    /// Each ply's moves with their ordering scores.
    lists: Vec<Vec<(i32, P::Move)>>,
    pv: Vec<Vec<P::Move>>,
    /// The child's value and taint, handed from a finished frame to its parent.
    ret: (i32, bool),
    root_moves: Vec<P::Move>,
    fallback: Option<P::Move>,
    depth: u32,
    window: (i32, i32),
    delta: i32,
    completed: Option<Completed<P::Move>>,
    /// The best root move of the iteration in progress, with its score and line.
    partial: Option<Completed<P::Move>>,
    nodes: u64,
    seldepth: u32,
    start: Option<Instant>,
    next_time_check: u64,
    elapsed_ms: u64,
    done: bool,
    /// The endgame tablebase, if one is attached.
    tablebase: Option<Arc<Tablebase>>,
    /// The tablebase's value of the root.
    tb_root: Option<Probe>,
    /// Whether a drawn tablebase position inside the tree ends the line (not when the root is
    /// drawn itself: then the evaluation chooses among the drawing moves).
    tb_cut_draws: bool,
    /// Whether the root is in the opening of a game (see [`Search::set_opening`]).
    opening: bool,
}

impl<P: SearchGame> Search<P> {
    /// A search of `root`. `history` holds the game's positions before the root, oldest first
    /// (only those since the last capture matter; more are ignored, fewer is allowed); the
    /// root itself may be given as its last element or not at all.
    pub fn new(root: P, history: &[P], limits: Limits, params: Params, seed: u64) -> Search<P> {
        let tt = TranspositionTable::new(params.tt_mb);
        Search::with_table(root, history, limits, params, seed, tt)
    }

    /// Like [`Search::new`] but with a table to reuse (its entries stay useful from one move
    /// of a game to the next). Get it back with [`Search::into_table`].
    pub fn with_table(
        root: P,
        history: &[P],
        limits: Limits,
        params: Params,
        seed: u64,
        mut tt: TranspositionTable,
    ) -> Search<P> {
        let mut params = params;
        root.root_params(&mut params);
        tt.new_search();
        let mut hist: Vec<P> = history.to_vec();
        if hist.last().is_some_and(|p| p.same_position(&root)) {
            hist.pop();
        }
        // Only positions since the last capture can repeat.
        let keep = usize::from(root.clock()).min(hist.len());
        let mut stack: Vec<P> = hist[hist.len() - keep..].to_vec();
        stack.push(root);
        let root_stack_len = stack.len();
        let over = root.rule_outcome(is_threefold(&stack)).is_some();
        let mut root_moves = Vec::new();
        if !over {
            root.generate_moves(&mut root_moves);
        }
        let ctx = root.context();
        let mut s = Search {
            root,
            ctx,
            params,
            limits,
            seed,
            tt,
            ordering: Ordering::new(MAX_PLY),
            stack,
            root_stack_len,
            root_side: root.side_to_move(),
            frames: Vec::with_capacity(MAX_PLY),
            gen_buf: Vec::with_capacity(256),
            lists: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(16)).collect(),
            ret: (0, false),
            fallback: None,
            root_moves,
            depth: 0,
            window: (-INFINITY, INFINITY),
            delta: 0,
            completed: None,
            partial: None,
            nodes: 0,
            seldepth: 0,
            start: None,
            next_time_check: TIME_CHECK,
            elapsed_ms: 0,
            done: false,
            tablebase: None,
            tb_root: None,
            tb_cut_draws: true,
            opening: false,
        };
        if s.params.search.greedy_root && root.must_capture() {
            greedy_filter(&root, &mut s.root_moves);
        }
        if s.root_moves.is_empty() {
            s.done = true;
        } else {
            // Before any iteration completes, the answer is the most promising move by ordering.
            let side = s.root_side;
            s.fallback = s.root_moves.iter().max_by_key(|m| s.ordering.score::<P>(m, 0, side, 0)).copied();
        }
        s
    }

    /// Says whether the root is in the opening of a game (false unless told; the search does
    /// not know the game's ply): then the variety margin is the game's opening margin
    /// ([`crate::eval::SearchGame::opening_variety`]) if that is wider, unless the last
    /// completed iteration scored the side to move behind by more than it. Call it before the
    /// first [`Search::step`].
    pub fn set_opening(&mut self, opening: bool) {
        self.opening = opening;
    }

    /// Attaches an endgame tablebase (used by games that have one: Alquerque). Call it before
    /// the first [`Search::step`]; later, it is only used inside the tree.
    ///
    /// At the root, in a position the tablebase covers:
    /// - a win or a loss that ends before the no-capture counter can reach its limit (the
    ///   counter plus the distance below 50) is played at once: the fastest win or the longest
    ///   defence, without searching ([`Info::depth`] 0, the score a win or loss in the tablebase's
    ///   distance, the principal variation the tablebase's line);
    /// - a win the counter might cut short is searched, but only among the winning moves: the
    ///   search then prefers the wins it can prove within the counter (a capture resets it);
    /// - a draw is searched among the drawing moves only, by the evaluation (drawn positions in
    ///   the tree are not cut then), so that the opponent has the most chances to go wrong;
    /// - a loss the counter might save is searched among all moves, to find that draw.
    ///
    /// Inside the tree, a covered position ends the line with the tablebase's score (a win or
    /// loss scored by its distance like the search's own, so shorter wins are preferred) when
    /// the result holds under the counter; otherwise it is searched as usual.
    pub fn set_tablebase(&mut self, tb: Arc<Tablebase>) {
        if self.nodes == 0 && !self.done {
            self.tb_root = self.root.tablebase_probe(&tb);
            if let Some(root) = self.tb_root
                && let Some(values) = self.root.tablebase_moves(&tb)
            {
                let holds = root.holds_with_clock(self.root.clock());
                match root.wdl {
                    Wdl::Win | Wdl::Loss if holds => {
                        if let Some((best, value)) = tablebase::best_of_generic(&values) {
                            let mut pv = vec![best];
                            pv.extend(self.root.play_unchecked(&best).tablebase_line(&tb, MAX_PLY));
                            self.completed = Some(Completed { depth: 0, score: value.score(0), best, pv });
                            self.done = true;
                        }
                    }
                    Wdl::Loss => {}
                    Wdl::Win | Wdl::Draw => {
                        self.root_moves.retain(|m| values.iter().any(|(v, p)| v == m && p.wdl == root.wdl));
                        self.tb_cut_draws = root.wdl != Wdl::Draw;
                        let side = self.root_side;
                        self.fallback = self
                            .root_moves
                            .iter()
                            .max_by_key(|m| self.ordering.score::<P>(m, 0, side, 0))
                            .copied();
                    }
                }
            }
        }
        self.tablebase = Some(tb);
    }

    /// Searches the root among the moves `keep` accepts only (when it accepts at least one):
    /// the moves a proven value allows ([`crate::solve::book`]). Call it before the first
    /// [`Search::step`]; later it does nothing.
    pub fn keep_root_moves(&mut self, keep: impl Fn(&P::Move) -> bool) {
        if self.nodes > 0 || self.done || !self.root_moves.iter().any(&keep) {
            return;
        }
        self.root_moves.retain(|m| keep(m));
        let side = self.root_side;
        self.fallback =
            self.root_moves.iter().max_by_key(|m| self.ordering.score::<P>(m, 0, side, 0)).copied();
    }

    /// The attached tablebase's value of the root, if it covers it.
    pub fn tablebase(&self) -> Option<Probe> {
        self.tb_root
    }

    /// The table, for the next search.
    pub fn into_table(self) -> TranspositionTable {
        self.tt
    }

    /// The position searched.
    pub fn root(&self) -> &P {
        &self.root
    }

    /// Whether the search is over.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Runs the search to its end (its limits must end it: a search without any limit runs
    /// to the maximum depth).
    pub fn run_to_end(&mut self) -> Option<P::Move> {
        while self.step(1 << 20) == Status::Running {}
        self.best_move()
    }

    /// The best move found so far: that of the deepest completed iteration, or a better one
    /// found by the iteration in progress; before the first iteration completes, the most
    /// promising move by the ordering. `None` only when the root has no legal move or the game
    /// is over.
    pub fn best_move(&self) -> Option<P::Move> {
        self.partial.as_ref().or(self.completed.as_ref()).map(|c| c.best).or(self.fallback)
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The current state of the search.
    pub fn info(&self) -> Info<P::Move> {
        let best = self.partial.as_ref().or(self.completed.as_ref());
        let raw = best.map_or(0, |c| c.score);
        Info {
            depth: self.completed.as_ref().map_or(0, |c| c.depth),
            seldepth: self.seldepth,
            score: Score::from_raw(raw),
            raw_score: raw,
            nodes: self.nodes,
            time_ms: self.elapsed_ms(),
            pv: best.map_or_else(|| self.fallback.into_iter().collect(), |c| c.pv.clone()),
        }
    }

    fn elapsed_ms(&self) -> u64 {
        if self.done { self.elapsed_ms } else { self.start.map_or(0, |s| s.elapsed().as_millis() as u64) }
    }

    /// Runs about `budget` nodes (at least one), then returns.
    pub fn step(&mut self, budget: u64) -> Status {
        if self.done {
            return Status::Done;
        }
        let start = *self.start.get_or_insert_with(Instant::now);
        let pause_at = self.nodes + budget.max(1);
        loop {
            if self.frames.is_empty() && !self.next_iteration() {
                self.finish(start);
                return Status::Done;
            }
            let top = self.frames.len() - 1;
            match self.frames[top].state {
                State::Enter => {
                    if self.limit_reached(start) {
                        self.finish(start);
                        return Status::Done;
                    }
                    if self.nodes >= pause_at {
                        return Status::Running;
                    }
                    self.enter(top);
                }
                State::Next => self.next(top),
                State::Child => {
                    let (v, t) = self.ret;
                    self.after_child(top, v, t);
                }
            }
        }
    }

    fn finish(&mut self, start: Instant) {
        self.elapsed_ms = start.elapsed().as_millis() as u64;
        self.done = true;
        self.frames.clear();
        self.stack.truncate(self.root_stack_len);
    }

    fn limit_reached(&mut self, start: Instant) -> bool {
        if let Some(n) = self.limits.nodes
            && self.nodes >= n
        {
            return true;
        }
        if let Some(ms) = self.limits.time_ms
            && self.nodes >= self.next_time_check
        {
            self.next_time_check = self.nodes + TIME_CHECK;
            if start.elapsed().as_millis() as u64 >= ms {
                return true;
            }
        }
        false
    }

    /// Starts the next iteration (or re-searches this one with a wider window); false when the
    /// search is over.
    fn next_iteration(&mut self) -> bool {
        if self.depth == 0 {
            self.depth = 1;
            self.window = (-INFINITY, INFINITY);
        } else {
            let (alpha, beta) = self.window;
            let v = self.ret.0;
            if v <= alpha && alpha > -INFINITY {
                self.delta = self.delta.saturating_mul(2);
                self.window.0 = if self.delta > 400 { -INFINITY } else { (v - self.delta).max(-INFINITY) };
            } else if v >= beta && beta < INFINITY {
                self.delta = self.delta.saturating_mul(2);
                self.window.1 = if self.delta > 400 { INFINITY } else { (v + self.delta).min(INFINITY) };
            } else {
                // The iteration is complete.
                let best = self.frames_root_best();
                self.completed = Some(best);
                self.partial = None;
                if !self.continue_deepening() {
                    return false;
                }
                self.depth += 1;
                let prev = self.completed.as_ref().map_or(0, |c| c.score);
                let asp = self.params.search.aspiration;
                if asp > 0 && self.depth >= 4 && !is_decisive(prev) {
                    self.delta = asp;
                    self.window = (prev - asp, prev + asp);
                } else {
                    self.window = (-INFINITY, INFINITY);
                }
            }
        }
        let (alpha, beta) = self.window;
        self.stack.truncate(self.root_stack_len);
        self.frames.push(Frame::new(self.root, self.depth as i32, alpha, beta));
        true
    }

    /// The result of the iteration that just ended at the root.
    fn frames_root_best(&self) -> Completed<P::Move> {
        match &self.partial {
            // The score without the root's capture bonus (a level's taste, not an evaluation).
            Some(p) => Completed {
                depth: self.depth,
                score: if is_decisive(self.ret.0) { self.ret.0 } else { self.ret.0 - self.root_adj(&p.best) },
                best: p.best,
                pv: p.pv.clone(),
            },
            // Every move failed low against a full window: only possible when all lose
            // equally; keep the first move searched.
            None => {
                let best = self.root_pv_move().or(self.fallback).expect("a root move");
                Completed { depth: self.depth, score: self.ret.0, best, pv: vec![best] }
            }
        }
    }

    /// The root's bonus for `mv`: the level's taste for captures (see
    /// [`crate::params::SearchParams::root_capture_bonus`]) and its variety, a bonus from 0 to
    /// the margin ([`Search::variety_margin`]) fixed per move and seed. The search finds the
    /// move with the best score plus bonus, so the move played is never worse than the best by
    /// more than the margin by the search's own scores, and different seeds choose differently
    /// among the moves within it. Decisive scores get no bonus.
    fn root_adj(&self, mv: &P::Move) -> i32 {
        let capture = if P::capture_count(mv) > 0 { self.params.search.root_capture_bonus } else { 0 };
        let margin = self.variety_margin();
        let variety = if margin > 0 {
            (mix(self.seed ^ u64::from(P::move_tag(mv)).wrapping_mul(0xA076_1D64_78BD_642F))
                % (margin as u64 + 1)) as i32
        } else {
            0
        };
        capture + variety
    }

    /// The variety margin of this iteration: [`crate::params::SearchParams::variety`], or in
    /// the opening the game's opening margin ([`crate::eval::SearchGame::opening_variety`]) if
    /// wider, while the last completed iteration does not score the side to move behind by more
    /// than that margin (it stays the same through an iteration and its re-searches, so that
    /// the scores without the bonus are consistent).
    fn variety_margin(&self) -> i32 {
        let variety = self.params.search.variety;
        let (opening_variety, _) = P::opening_variety(&self.params);
        let behind = self.completed.as_ref().is_some_and(|c| c.score < -opening_variety);
        if self.opening && opening_variety > variety && !behind { opening_variety } else { variety }
    }

    fn root_pv_move(&self) -> Option<P::Move> {
        self.completed.as_ref().map(|c| c.best)
    }

    fn continue_deepening(&self) -> bool {
        let Some(c) = &self.completed else {
            return true;
        };
        if c.depth >= self.limits.max_depth() {
            return false;
        }
        if self.root_moves.len() == 1 {
            return false;
        }
        // A win is found: deeper iterations cannot find a faster one the reductions missed
        // often enough to be worth the time.
        if c.score >= score::WIN_BOUND && (score::WIN - c.score) as u32 + 2 <= c.depth {
            return false;
        }
        if c.score <= -score::WIN_BOUND && (score::WIN + c.score) as u32 + 4 <= c.depth {
            return false;
        }
        if let (Some(ms), Some(start)) = (self.limits.time_ms, self.start) {
            // The next iteration would take longer than all before it (the partial result of an
            // unfinished iteration is used, so starting one late is not wasted entirely).
            let soft = ms * u64::from(self.params.search.soft_time_percent) / 100;
            if start.elapsed().as_millis() as u64 >= soft {
                return false;
            }
        }
        true
    }

    #[inline]
    fn tt_key(pos: &P, depth: i32) -> u64 {
        let clock = pos.clock();
        // Extensions can add up to half the depth again; quiescence adds captures only.
        let depth = depth.max(0);
        if i32::from(clock) + depth + depth / 2 + 2 >= i32::from(P::no_capture_limit()) {
            pos.hash() ^ (u64::from(clock) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            pos.hash()
        }
    }

    #[inline]
    fn draw_score(&self, side: Side) -> i32 {
        let c = self.params.search.contempt;
        if side == self.root_side { -c } else { c }
    }

    /// A draw's score at `pos` for its side to move: the contempt, and with hope (see
    /// [`crate::params::AlquerqueParams::draw_hope`]) part of the position's evaluation.
    fn draw_value(&self, pos: &P) -> i32 {
        let d = self.draw_score(pos.side_to_move());
        let hope = P::draw_hope(&self.params);
        if hope == 0 {
            return d;
        }
        let e = pos.evaluate(&self.ctx, &self.params);
        let cap = self.params.alquerque.draw_hope_cap.max(0);
        d + (e * hope / 100).clamp(-cap, cap)
    }

    #[inline]
    fn evaluate(&self, pos: &P) -> i32 {
        let mut e = pos.evaluate(&self.ctx, &self.params);
        let c = self.params.search.complexity;
        if c != 0 {
            let (n, full) = pos.piece_count();
            let bonus = c * n as i32 / full.max(1) as i32;
            e += if pos.side_to_move() == self.root_side { bonus } else { -bonus };
        }
        let n = self.params.search.noise;
        if n > 0 {
            let h = mix(pos.hash() ^ self.seed);
            e + (h % (2 * n as u64 + 1)) as i32 - n
        } else {
            e
        }
    }

    /// The tablebase's score of a position at `ply`, if it covers it and the result holds
    /// under the no-capture counter, with whether it depends on the counter (then the
    /// transposition table, whose key leaves the counter out, must not keep it).
    #[inline]
    fn tablebase_score(&self, pos: &P, ply: usize) -> Option<(i32, bool)> {
        let p = pos.tablebase_probe(self.tablebase.as_deref()?)?;
        let clock = pos.clock();
        match p.wdl {
            Wdl::Draw => self.tb_cut_draws.then(|| (self.draw_value(pos), false)),
            _ if p.holds_with_clock(clock) => Some((p.score(ply), clock > 0)),
            _ => None,
        }
    }

    /// Pops the frame at `top` with a value for its parent (or the iteration's end).
    #[inline]
    fn ret_value(&mut self, top: usize, value: i32, tainted: bool) {
        debug_assert_eq!(top + 1, self.frames.len());
        self.frames.pop();
        self.ret = (value, tainted);
        if let Some(parent) = self.frames.last_mut() {
            parent.state = State::Child;
        }
    }

    fn enter(&mut self, ply: usize) {
        self.nodes += 1;
        self.pv[ply].clear();
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }
        let f = self.frames[ply];
        if ply >= MAX_PLY - 2 {
            let e = self.evaluate(&f.pos);
            self.ret_value(ply, e, false);
            return;
        }
        if ply > 0
            && let Some((v, tainted)) = self.tablebase_score(&f.pos, ply)
        {
            self.ret_value(ply, v, tainted);
            return;
        }
        if f.kind == Kind::Quiesce || f.depth <= 0 {
            if self.params.search.quiescence {
                self.enter_quiesce(ply);
            } else {
                let e = self.evaluate(&f.pos);
                self.ret_value(ply, e, false);
            }
            return;
        }
        let mut alpha = f.alpha;
        let mut beta = f.beta;
        if ply > 0 {
            // Mate distance pruning: nothing here can beat a win already found closer to the root.
            alpha = alpha.max(loss_in(ply));
            beta = beta.min(win_in(ply + 1));
            if alpha >= beta {
                self.ret_value(ply, alpha, false);
                return;
            }
        }
        if ply > 0 && f.pos.winning_move(&self.ctx).is_some() {
            self.ret_value(ply, win_in(ply + 1), false);
            return;
        }
        let key = Self::tt_key(&f.pos, f.depth);
        let mut tt_tag = 0;
        if ply == 0 {
            let prev = self.partial.as_ref().or(self.completed.as_ref());
            tt_tag = prev.map_or(0, |c| P::move_tag(&c.best));
        } else if let Some(e) = self.tt.probe(key) {
            tt_tag = e.tag;
            if !f.pv_node && e.depth >= f.depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    self.ret_value(ply, s, false);
                    return;
                }
            }
        }
        // Reverse futility pruning: far above beta near the leaves, a quiet position stays there.
        let margin = self.params.search.rfp_margin;
        if margin > 0
            && !f.pv_node
            && ply > 0
            && f.depth <= 3
            && !is_decisive(beta)
            && !f.pos.must_capture()
            && !f.pos.in_danger(&self.ctx)
        {
            let e = self.evaluate(&f.pos);
            if e - margin * f.depth >= beta {
                self.ret_value(ply, e, false);
                return;
            }
        }
        // The table's move is tried before any move is generated (staged games).
        let tt_move =
            if ply == 0 || tt_tag == 0 || !P::STAGED { None } else { P::move_from_tag(&f.pos, tt_tag) };
        self.ordering.clear_killers(ply + 1);
        self.lists[ply].clear();
        {
            let fr = &mut self.frames[ply];
            fr.key = key;
            fr.alpha = alpha;
            fr.beta = beta;
            fr.orig_alpha = alpha;
            fr.tt_tag = tt_tag;
            fr.tt_move = tt_move;
            fr.killers_tried = [None, None];
            fr.stage = Stage::TableMove;
            fr.state = State::Next;
        }
        // Games that generate everything at once do it now: the count decides an extension.
        let mut single = false;
        if !P::STAGED || ply == 0 {
            if !self.generate_all(ply) {
                self.ret_value(ply, loss_in(ply), false);
                return;
            }
            single = self.lists[ply].len() == 1;
        }
        // Extensions (a Latrunculi king about to be immobilised, a single legal reply), at most
        // half the iteration's depth along a line.
        if self.params.search.extensions
            && ply > 0
            && 2 * u32::from(f.exts) < self.depth
            && (single || f.pos.in_danger(&self.ctx))
        {
            self.frames[ply].ext = 1;
        }
    }

    /// Generates and orders every move of the node at `ply` but those already tried (the
    /// table move, captures and killers of staged games); false if the side to move has no
    /// legal move at all.
    fn generate_all(&mut self, ply: usize) -> bool {
        let f = &self.frames[ply];
        let (pos, tt_move, tt_tag, kt) = (f.pos, f.tt_move, f.tt_tag, f.killers_tried);
        let side = pos.side_to_move();
        if ply == 0 {
            self.gen_buf.clear();
            self.gen_buf.extend_from_slice(&self.root_moves);
        } else {
            pos.generate_moves(&mut self.gen_buf);
        }
        if self.gen_buf.is_empty() {
            return false;
        }
        let staged = P::STAGED && ply > 0;
        let press = pos.press_mask(&self.ctx, &self.params);
        let list = &mut self.lists[ply];
        list.clear();
        for mv in &self.gen_buf {
            let done =
                staged && (tt_move == Some(*mv) || P::capture_count(mv) > 0 || kt.contains(&Some(*mv)));
            if !done {
                let mut score = self.ordering.score::<P>(mv, ply, side, tt_tag);
                if score < ordering::PRESS && P::presses(mv, press) && P::capture_count(mv) == 0 {
                    score = ordering::PRESS;
                }
                list.push((score, *mv));
            }
        }
        let near = pos.near_mask(&self.ctx, &self.params);
        let fr = &mut self.frames[ply];
        fr.stage = Stage::Rest;
        fr.next = 0;
        fr.near = near;
        true
    }

    fn enter_quiesce(&mut self, ply: usize) {
        let f = self.frames[ply];
        if f.pos.winning_move(&self.ctx).is_some() {
            self.ret_value(ply, win_in(ply + 1), false);
            return;
        }
        let mut alpha = f.alpha;
        let beta = f.beta;
        let key = Self::tt_key(&f.pos, 0);
        let mut tt_tag = 0;
        if self.params.search.qsearch_tt
            && let Some(e) = self.tt.probe(key)
        {
            tt_tag = e.tag;
            if !f.pv_node {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    self.ret_value(ply, s, false);
                    return;
                }
            }
        }
        let forcing = f.pos.generate_noisy(&self.ctx, &mut self.gen_buf);
        let mut best = -INFINITY;
        if !forcing {
            if !f.pos.has_quiet_move(&self.ctx) {
                self.ret_value(ply, loss_in(ply), false);
                return;
            }
            let stand = self.evaluate(&f.pos);
            if stand >= beta || self.gen_buf.is_empty() {
                if self.params.search.qsearch_tt && stand >= beta {
                    self.tt.store(key, 0, to_tt(stand, ply), 0, Bound::Lower);
                }
                self.ret_value(ply, stand, false);
                return;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let side = f.pos.side_to_move();
        self.fill_list(ply, side, tt_tag, None);
        let fr = &mut self.frames[ply];
        fr.kind = Kind::Quiesce;
        fr.key = key;
        fr.alpha = alpha;
        fr.orig_alpha = f.alpha;
        fr.best = best;
        fr.stage = Stage::Rest;
        fr.state = State::Next;
    }

    /// Scores the moves of `gen_buf` into the list of `ply`, leaving out `skip`.
    fn fill_list(&mut self, ply: usize, side: Side, tt_tag: u32, skip: Option<P::Move>) {
        let list = &mut self.lists[ply];
        list.clear();
        for mv in &self.gen_buf {
            if skip != Some(*mv) {
                list.push((self.ordering.score::<P>(mv, ply, side, tt_tag), *mv));
            }
        }
    }

    /// The next move of the list of `ply` in order: the best three by selection, then the
    /// rest sorted once.
    #[inline]
    fn pick(&mut self, ply: usize, from: usize) -> Option<(P::Move, i32)> {
        let list = &mut self.lists[ply];
        if from >= list.len() {
            return None;
        }
        if from < 3 {
            let mut best = from;
            for i in from + 1..list.len() {
                if list[i].0 > list[best].0 {
                    best = i;
                }
            }
            list.swap(from, best);
        } else if from == 3 {
            list[3..].sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
        }
        let (s, m) = list[from];
        Some((m, s))
    }

    /// The next move to search at `ply`, generating moves when the stages call for it; `None`
    /// when every move has been searched. Sets the frame's result to a loss when the side to
    /// move has no legal move.
    fn next_move(&mut self, ply: usize) -> Option<(P::Move, i32)> {
        loop {
            let f = &self.frames[ply];
            let (stage, tt_move, pos) = (f.stage, f.tt_move, f.pos);
            match stage {
                Stage::TableMove => {
                    self.frames[ply].stage = if P::STAGED { Stage::GenCaptures } else { Stage::Generate };
                    if let Some(m) = tt_move {
                        return Some((m, ordering::TT_MOVE));
                    }
                }
                Stage::GenCaptures => {
                    pos.generate_noisy(&self.ctx, &mut self.gen_buf);
                    let side = pos.side_to_move();
                    let list = &mut self.lists[ply];
                    list.clear();
                    for mv in &self.gen_buf {
                        if P::capture_count(mv) > 0 && tt_move != Some(*mv) {
                            list.push((self.ordering.score::<P>(mv, ply, side, 0), *mv));
                        }
                    }
                    let fr = &mut self.frames[ply];
                    fr.stage = Stage::Captures;
                    fr.next = 0;
                }
                Stage::Captures => {
                    if let Some(r) = self.pick_next(ply) {
                        return Some(r);
                    }
                    self.frames[ply].stage = Stage::Killer(0);
                }
                Stage::Killer(i) => {
                    if i >= 2 {
                        self.frames[ply].stage = Stage::Generate;
                        continue;
                    }
                    self.frames[ply].stage = Stage::Killer(i + 1);
                    if let Some(k) = self.ordering.killer(ply, i)
                        && tt_move != Some(k)
                        && P::capture_count(&k) == 0
                        && pos.is_legal(&k)
                    {
                        self.frames[ply].killers_tried[i] = Some(k);
                        return Some((k, ordering::KILLER - i as i32));
                    }
                }
                Stage::Generate => {
                    if !self.generate_all(ply) {
                        // No legal move: the side to move loses.
                        self.frames[ply].best = loss_in(ply);
                        return None;
                    }
                }
                Stage::Rest => return self.pick_next(ply),
            }
        }
    }

    #[inline]
    fn pick_next(&mut self, ply: usize) -> Option<(P::Move, i32)> {
        let next = self.frames[ply].next;
        let r = self.pick(ply, next);
        if r.is_some() {
            self.frames[ply].next += 1;
        }
        r
    }

    fn next(&mut self, ply: usize) {
        let Some((mv, order)) = self.next_move(ply) else {
            self.finalize(ply);
            return;
        };
        let f = self.frames[ply];
        let child = f.pos.play_unchecked(&mv);
        self.stack.push(child);
        let repetition = repetition(&self.stack, self.root_stack_len - 1);
        let threefold = repetition == Repetition::Threefold;
        let quiet = P::capture_count(&mv) == 0;
        let adj = if ply == 0 { self.root_adj(&mv) } else { 0 };
        {
            let fr = &mut self.frames[ply];
            fr.cur = Some(mv);
            fr.cur_quiet = quiet;
            fr.cur_adj = adj;
        }
        // The child's window, moved by the root's bonus for this move.
        let (alpha, beta) = (f.alpha - adj, f.beta - adj);
        if let Some(outcome) = child.rule_outcome(threefold) {
            // The game ends with this move: a leaf.
            self.nodes += 1;
            self.pv[ply + 1].clear();
            let v = self.outcome_score(&outcome, &child, ply + 1);
            let tainted = outcome.reason == ludus_rules::Reason::Repetition;
            self.frames[ply].phase = Phase::Full;
            self.after_child(ply, v, tainted);
            return;
        }
        if repetition == Repetition::InLine && P::REPETITION_LOSES {
            // The line came back to a position it has been through: a draw by the search's
            // reckoning in the games where a threefold repetition loses. Whoever is ahead then
            // avoids going round in circles (a shuffle never makes progress, and a third time
            // would lose), and the side behind takes a repetition as the draw it can hope for.
            self.nodes += 1;
            self.pv[ply + 1].clear();
            let v = self.draw_score(child.side_to_move());
            self.frames[ply].phase = Phase::Full;
            self.after_child(ply, v, true);
            return;
        }
        if f.kind == Kind::Quiesce {
            let mut c = Frame::new(child, 0, -beta, -alpha);
            c.kind = Kind::Quiesce;
            c.exts = f.exts;
            self.frames[ply].phase = Phase::Full;
            self.frames[ply].state = State::Child;
            self.frames.push(c);
            return;
        }
        let new_depth = f.depth - 1 + f.ext;
        let exts = f.exts + f.ext as u8;
        let fr = &mut self.frames[ply];
        fr.cur_depth = new_depth;
        fr.state = State::Child;
        if f.searched == 0 {
            fr.phase = Phase::Full;
            let mut c = Frame::new(child, new_depth, -beta, -alpha);
            c.exts = exts;
            self.frames.push(c);
            return;
        }
        let mut r = 0;
        if self.params.search.lmr
            && P::allow_lmr()
            && quiet
            && f.depth >= 3
            && f.ext == 0
            && f.searched >= if f.pv_node { 3 } else { 2 }
            && order < ordering::PRESS
        {
            r = 1;
            if f.depth >= 6 {
                r += 1;
            }
            if f.searched >= 10 {
                r += 1;
            }
            if f.searched >= 24 && f.depth >= 8 {
                r += 1;
            }
            if f.pv_node {
                r -= 1;
            }
            if self.ordering.history::<P>(&mv, f.pos.side_to_move()) > ordering::HISTORY_MAX / 2 {
                r -= 1;
            }
            if f.near.1 > 0 && !P::presses(&mv, f.near.0) {
                r += f.near.1;
            }
            r = r.clamp(0, new_depth - 1);
        }
        let fr = &mut self.frames[ply];
        fr.phase = if r > 0 { Phase::Reduced } else { Phase::Zero };
        let mut c = Frame::new(child, new_depth - r, -alpha - 1, -alpha);
        c.exts = exts;
        self.frames.push(c);
    }

    fn after_child(&mut self, ply: usize, v: i32, tainted: bool) {
        let f = self.frames[ply];
        let mv = f.cur.expect("a move is being searched");
        let mut score = -v;
        if !is_decisive(score) {
            score += f.cur_adj;
        }
        self.frames[ply].tainted |= tainted;
        // Re-searches.
        match f.phase {
            Phase::Reduced if score > f.alpha => {
                let child = *self.stack.last().expect("the child is on the stack");
                self.frames[ply].phase = Phase::Zero;
                self.frames[ply].state = State::Child;
                let alpha = f.alpha - f.cur_adj;
                self.frames.push(Frame::new(child, f.cur_depth, -alpha - 1, -alpha));
                return;
            }
            Phase::Zero if score > f.alpha && score < f.beta && f.pv_node => {
                let child = *self.stack.last().expect("the child is on the stack");
                self.frames[ply].phase = Phase::Full;
                self.frames[ply].state = State::Child;
                let (alpha, beta) = (f.alpha - f.cur_adj, f.beta - f.cur_adj);
                self.frames.push(Frame::new(child, f.cur_depth, -beta, -alpha));
                return;
            }
            _ => {}
        }
        self.stack.pop();
        let fr = &mut self.frames[ply];
        fr.searched += 1;
        fr.state = State::Next;
        if score > fr.best {
            fr.best = score;
            if score > fr.alpha {
                fr.best_move = Some(mv);
                fr.alpha = score;
                if fr.pv_node || ply == 0 {
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&tail[0]);
                }
                if ply == 0 {
                    self.partial = Some(Completed {
                        depth: self.depth,
                        score: if is_decisive(score) { score } else { score - f.cur_adj },
                        best: mv,
                        pv: self.pv[0].clone(),
                    });
                }
                if score >= f.beta {
                    if f.cur_quiet && f.kind == Kind::Main {
                        let side = f.pos.side_to_move();
                        // The moves of the list before this one were tried and failed.
                        let tried = if f.stage == Stage::Rest { f.next.saturating_sub(1) } else { 0 };
                        let list = &self.lists[ply][..tried];
                        self.ordering.reward::<P>(&mv, list, ply, side, f.depth);
                    }
                    self.finalize(ply);
                }
            }
        }
    }

    fn finalize(&mut self, ply: usize) {
        let f = self.frames[ply];
        let best = f.best;
        if !f.tainted && (f.kind == Kind::Main || self.params.search.qsearch_tt) && ply > 0 {
            let bound = if best >= f.beta {
                Bound::Lower
            } else if f.best_move.is_some() && best > f.orig_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let depth = if f.kind == Kind::Main { f.depth } else { 0 };
            let tag = f.best_move.map_or(0, |m| P::move_tag(&m));
            self.tt.store(f.key, tag, to_tt(best, ply), depth, bound);
        }
        self.ret_value(ply, best, f.tainted);
    }

    /// The score of a game that ended in `pos` (at `ply`) for the side to move there.
    fn outcome_score(&self, outcome: &Outcome, pos: &P, ply: usize) -> i32 {
        let side = pos.side_to_move();
        let counter = self.params.search.counter_win;
        match outcome.winner {
            None => self.draw_value(pos),
            Some(w) if counter > 0 && outcome.reason == ludus_rules::Reason::NoCaptureLimit => {
                if w == side {
                    counter
                } else {
                    -counter
                }
            }
            Some(w) if w == side => win_in(ply),
            Some(_) => loss_in(ply),
        }
    }
}

/// Keeps, among `moves` of `root` (a position where the side to move must capture), those that
/// win the most material once the forced captures after them are over, when the best of them
/// wins material at all (a level's greed: see `SearchParams::greedy_root`).
fn greedy_filter<P: SearchGame>(root: &P, moves: &mut Vec<P::Move>) {
    let gains: Vec<i32> = moves
        .iter()
        .map(|m| P::capture_count(m) as i32 - forced_gain(&root.play_unchecked(m), GREEDY_PLIES))
        .collect();
    let Some(&best) = gains.iter().max() else {
        return;
    };
    if best <= 0 {
        return;
    }
    let mut i = 0;
    moves.retain(|_| {
        i += 1;
        gains[i - 1] == best
    });
}

/// How deep [`forced_gain`] follows forced captures.
const GREEDY_PLIES: u32 = 16;

/// The material the side to move of `pos` wins by its forced captures and the forced replies
/// (minimax over the captures while capturing is compulsory; 0 when it is not).
fn forced_gain<P: SearchGame>(pos: &P, plies: u32) -> i32 {
    if plies == 0 || !pos.must_capture() {
        return 0;
    }
    pos.legal_moves()
        .iter()
        .map(|m| P::capture_count(m) as i32 - forced_gain(&pos.play_unchecked(m), plies - 1))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_rules::alquerque::Position;

    #[test]
    fn greedy_root_keeps_the_captures_that_win_most() {
        // White must capture: a2xa4 is won back (a5xa3, or e3xe1 on the other side), e2xe4 is
        // safe (a3 cannot jump a2: a1 is taken).
        let p: Position = "B4/5/B3B/W3W/W4 w".parse().unwrap();
        let mut moves = p.legal_moves();
        let names = |ms: &[_]| ms.iter().map(|m| p.move_to_string(m)).collect::<Vec<_>>();
        assert_eq!(names(&moves).len(), 2, "{:?}", names(&moves));
        greedy_filter(&p, &mut moves);
        assert_eq!(names(&moves), ["e2xe4"]);
        // No capture wins material (a2xa4 a5xa3): every capture is kept.
        let p: Position = "B4/5/B4/W4/5 w".parse().unwrap();
        assert!(p.must_capture());
        let mut moves = p.legal_moves();
        let n = moves.len();
        greedy_filter(&p, &mut moves);
        assert_eq!(moves.len(), n);
    }

    #[test]
    fn a_draw_keeps_part_of_the_drawn_positions_evaluation() {
        let cap = crate::params::DRAW_HOPE_CAP;
        let mut params = Params::default();
        params.search.contempt = 0;
        // White is three pieces up: a draw here is worth the cap to White, minus it to Black.
        let white: Position = "5/5/2B2/WW1WW/5 w".parse().unwrap();
        let black: Position = "5/5/2B2/WW1WW/5 b".parse().unwrap();
        let s = Search::new(white, &[], Limits::depth(1), params.clone(), 0);
        assert_eq!(s.draw_value(&white), cap);
        assert_eq!(s.draw_value(&black), -cap);
        // A level position keeps its (small) evaluation as it is.
        let level: Position = "5/5/2B2/2W2/5 w".parse().unwrap();
        let e = level.evaluate(&s.ctx, &params);
        assert!(e.abs() < cap, "{e}");
        assert_eq!(s.draw_value(&level), e);
        // The cap is a parameter: twice as much lets three pieces count for more.
        params.alquerque.draw_hope_cap = 2 * cap;
        let s = Search::new(white, &[], Limits::depth(1), params.clone(), 0);
        let full = white.evaluate(&s.ctx, &params);
        assert!(full > cap, "{full}");
        assert_eq!(s.draw_value(&white), full.min(2 * cap));
        // Without hope every draw is the contempt.
        params.alquerque.draw_hope = 0;
        params.search.contempt = 15;
        let s = Search::new(white, &[], Limits::depth(1), params.clone(), 0);
        assert_eq!((s.draw_value(&white), s.draw_value(&black)), (-15, 15));
        // Latrunculi keeps none: a draw there is the contempt whatever the material.
        let mut params = Params::default();
        params.search.contempt = 15;
        let l: ludus_rules::latrunculi::Position = "r7/2R2r1B/b7/5r1r/8/2r2r2/8/6r1 r".parse().unwrap();
        let s = Search::new(l, &[], Limits::depth(1), params, 0);
        assert_eq!(s.draw_value(&l), -15);
    }
}
