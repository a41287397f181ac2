//! Playing levels: from random moves for a first game to the full search.

use crate::eval::SearchGame;
use crate::limits::Limits;
use crate::params::Params;
use ludus_rules::repetition::is_threefold;
use ludus_rules::splitmix;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How strongly the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Level {
    /// A uniformly random legal move.
    Random,
    /// Mostly random, with some greed: it usually takes what it can and always takes a win in
    /// one, but looks no further (it leaves its pieces where they can be taken).
    Easy,
    /// A short search (a few plies and the captures after them) with a little noise: it never
    /// misses a win in one or a capture that wins material safely.
    Medium,
    /// The full search, as deep as its time allows (2 s a move unless limited otherwise).
    Hard,
}

/// The time Hard takes for a move when no limit is given.
pub const HARD_DEFAULT_TIME_MS: u64 = 2000;
/// Hard's variety margin in centi-soldiers (see [`crate::params::SearchParams::variety`]).
pub const HARD_VARIETY: i32 = 10;
/// Hard's variety margin in Alquerque over the first [`HARD_OPENING_PLIES`] plies of a game
/// from the start, for a side that is not behind by more than it (see
/// [`crate::params::AlquerqueParams::opening_variety`]): at its in-game time Hard's search
/// separates the first free choices by about its usual margin, and with that alone most
/// Alquerque games followed the same line for 18 plies. Latrunculi keeps the usual margin: its
/// games part from the first moves with it, and there the wider margin cost strength (from the
/// start of 8x8 at 200 ms a move, Hard with it scored 43.8% in 40 games against Hard without
/// variety, and 48.8% with the usual margin only).
pub const HARD_OPENING_VARIETY: i32 = 40;
/// How many plies [`HARD_OPENING_VARIETY`] lasts: the first ten moves of each side.
pub const HARD_OPENING_PLIES: u32 = 20;
/// Medium's variety margin in centi-soldiers (it also has evaluation noise).
pub const MEDIUM_VARIETY: i32 = 25;
/// Medium's search depth (Latrunculi; see [`MEDIUM_DEPTH_ALQUERQUE`]).
pub const MEDIUM_DEPTH: u32 = 2;
/// Medium's search depth in Alquerque (then quiescence follows every forced capture sequence to
/// its end), with Hard's evaluation and, in the game, the endgame tables. A one-ply Medium with a
/// plain evaluation lost nearly every game to plain Monte-Carlo with 5,000 playouts; two plies
/// scored 41.2% against it from the start (5% as Black). Four plies with the 6-piece tables
/// score 64.0% from the start over 200 games and 61.3% from random openings over 80, and Hard
/// still wins every game against it as White from the start and loses none as Black.
pub const MEDIUM_DEPTH_ALQUERQUE: u32 = 4;
/// The deepest Medium searches in any game ([`Level::limits`]; [`Level::limits_for`] then
/// applies the game's own depth).
pub const MEDIUM_MAX_DEPTH: u32 =
    if MEDIUM_DEPTH > MEDIUM_DEPTH_ALQUERQUE { MEDIUM_DEPTH } else { MEDIUM_DEPTH_ALQUERQUE };

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Random, Level::Easy, Level::Medium, Level::Hard];

    /// The lower-case name: `random`, `easy`, `medium`, `hard`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// Reads a name (as [`Level::name`] writes it, any case).
    pub fn parse(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }

    /// Whether this level searches (Medium and Hard) rather than picking at once.
    pub fn searches(self) -> bool {
        matches!(self, Level::Medium | Level::Hard)
    }

    /// The search parameters of the level (for the levels that search), with its variety
    /// margin (see [`Level::params_fixed`] for the same without variety).
    pub fn params(self) -> Params {
        let mut p = Params::default();
        match self {
            Level::Medium => {
                p.search.noise = 12;
                p.search.lmr = false;
                p.search.root_capture_bonus = 50;
                p.search.greedy_root = true;
                p.search.variety = MEDIUM_VARIETY;
                p.tt_mb = p.tt_mb.min(4);
                // Alquerque: Hard's evaluation, but a few plies only (see
                // [`MEDIUM_DEPTH_ALQUERQUE`]) and the greedy root.
            }
            Level::Hard => {
                p.search.contempt = 15;
                p.search.variety = HARD_VARIETY;
                p.alquerque.opening_variety = HARD_OPENING_VARIETY;
                p.alquerque.opening_plies = HARD_OPENING_PLIES;
            }
            Level::Random | Level::Easy => {
                p.tt_mb = 1;
            }
        }
        p
    }

    /// [`Level::params`] without variety (in the opening too): the level always plays the move
    /// it scores best.
    pub fn params_fixed(self) -> Params {
        let mut p = self.params();
        p.search.variety = 0;
        p.alquerque.opening_variety = 0;
        p
    }

    /// The limits a search of this level runs with, given the caller's: Medium never goes
    /// deeper than [`MEDIUM_MAX_DEPTH`]; Hard without any limit takes [`HARD_DEFAULT_TIME_MS`].
    /// See [`Level::limits_for`] for the game's own depth.
    pub fn limits(self, given: Limits) -> Limits {
        match self {
            Level::Medium => given.min(Limits::depth(MEDIUM_MAX_DEPTH)),
            Level::Hard if given.is_unlimited() => Limits::time_ms(HARD_DEFAULT_TIME_MS),
            _ => given,
        }
    }
}

impl Level {
    /// [`Level::limits`] for a game: Medium searches [`MEDIUM_DEPTH_ALQUERQUE`] plies in
    /// Alquerque and [`MEDIUM_DEPTH`] in Latrunculi.
    pub fn limits_for(self, given: Limits, alquerque: bool) -> Limits {
        let l = self.limits(given);
        match self {
            Level::Medium if alquerque => l.min(Limits::depth(MEDIUM_DEPTH_ALQUERQUE)),
            Level::Medium => l.min(Limits::depth(MEDIUM_DEPTH)),
            _ => l,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A small deterministic generator ([`splitmix`]), the same on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x6C75_6475_735F_6169)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        splitmix::next(&mut self.0)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// A uniformly random legal move of `pos`.
pub fn random_move<P: SearchGame>(pos: &P, seed: u64) -> Option<P::Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut rng = Rng::new(seed ^ pos.hash());
    Some(moves[rng.below(moves.len() as u64) as usize])
}

/// Easy's move: a win in one if there is one; otherwise captures are likely (bigger ones more
/// so) but not certain, and everything else is random. `history` is the game's positions
/// before `pos` (for repetitions).
pub fn easy_move<P: SearchGame>(pos: &P, history: &[P], seed: u64) -> Option<P::Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut rng = Rng::new(seed ^ pos.hash().rotate_left(17));
    let keep = usize::from(pos.clock()).min(history.len());
    let mut stack: Vec<P> = history[history.len() - keep..].to_vec();
    if !stack.last().is_some_and(|p| p.same_position(pos)) {
        stack.push(*pos);
    }
    let me = pos.side_to_move();
    let mut best = None;
    let mut best_score = i64::MIN;
    let mut replies = Vec::new();
    for mv in &moves {
        let child = pos.play_unchecked(mv);
        stack.push(child);
        let outcome = child.rule_outcome(is_threefold(&stack));
        stack.pop();
        let mut score = rng.below(120) as i64 + 100 * i64::from(P::capture_count(mv));
        match outcome {
            Some(o) if o.winner == Some(me) => score += 1_000_000,
            Some(o) if o.winner.is_some() => score -= 1_000,
            Some(_) => {}
            None => {
                // A glance at the reply, three times in four: the biggest capture it allows.
                if rng.below(4) != 0 {
                    child.generate_moves(&mut replies);
                    let worst = replies.iter().map(|r| P::capture_count(r)).max().unwrap_or(0);
                    score -= 90 * i64::from(worst);
                }
            }
        }
        if score > best_score {
            best_score = score;
            best = Some(*mv);
        }
    }
    best
}

/// A level name [`Level::parse`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown level '{0}': expected random, easy, medium or hard")]
pub struct UnknownLevel(pub String);
