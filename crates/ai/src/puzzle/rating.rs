//! A puzzle's starting rating, from how often the computer players find its first move.
//!
//! Each level plays the puzzle's start position with several seeds ([`SEEDS`]): Easy, Medium
//! (its own depth) and Hard with a short fixed budget of [`HARD_NODES`] nodes (so the rating is
//! the same on every machine). The share of runs that find the solution's first move or a
//! listed alternative is that level's solve rate; each miss adds to the rating:
//!
//! `rating = BASE + EASY_MISS * (1 - easy) + MEDIUM_MISS * (1 - medium) + HARD_MISS * (1 - hard)`
//!
//! rounded to tens: from [`BASE`] (800; every level finds it: a capture Easy takes) to 2,200
//! (no level finds it). Players' ratings (Glicko-2 in the game) then move it.

use crate::{AnySearch, Level, Limits};
use ludus_rules::{AnyGame, AnyMove, AnyPosition};

/// Seeds per level.
pub const SEEDS: u64 = 4;
/// Hard's budget per run, in nodes.
pub const HARD_NODES: u64 = 4_000;
/// The rating of a puzzle every level solves every time.
pub const BASE: u32 = 800;
/// What Easy's misses add at most.
pub const EASY_MISS: u32 = 300;
/// What Medium's misses add at most.
pub const MEDIUM_MISS: u32 = 500;
/// What Hard's misses add at most.
pub const HARD_MISS: u32 = 600;

/// The solve rates of Easy, Medium and Hard, in `SEEDS`-ths.
pub fn solve_counts(start: &AnyPosition, accepted: &[AnyMove]) -> [u64; 3] {
    let game = AnyGame::from_position(*start);
    let levels = [
        (Level::Easy, Limits::NONE),
        (Level::Medium, Limits::NONE),
        (Level::Hard, Limits::nodes(HARD_NODES)),
    ];
    levels.map(|(level, limits)| {
        (0..SEEDS)
            .filter(|&seed| {
                let mv = AnySearch::new(&game, level, limits, 0x5EED + seed * 7919).run_to_end();
                mv.is_some_and(|m| accepted.contains(&m))
            })
            .count() as u64
    })
}

/// The rating from solve counts (see the module's formula).
pub fn from_counts(counts: [u64; 3]) -> u32 {
    let miss = |found: u64, weight: u32| u64::from(weight) * (SEEDS - found.min(SEEDS)) / SEEDS;
    let r = u64::from(BASE)
        + miss(counts[0], EASY_MISS)
        + miss(counts[1], MEDIUM_MISS)
        + miss(counts[2], HARD_MISS);
    ((r + 5) / 10 * 10) as u32
}

/// The starting rating of a puzzle whose correct first moves are `accepted`.
pub fn estimate(start: &AnyPosition, accepted: &[AnyMove]) -> u32 {
    from_counts(solve_counts(start, accepted))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_ends() {
        assert_eq!(from_counts([SEEDS; 3]), BASE);
        assert_eq!(from_counts([0; 3]), BASE + EASY_MISS + MEDIUM_MISS + HARD_MISS);
        assert!(from_counts([0, SEEDS, SEEDS]) < from_counts([SEEDS, 0, SEEDS]));
    }
}
