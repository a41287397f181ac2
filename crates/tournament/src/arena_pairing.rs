//! Who plays whom among an arena's free players, as a pure function of them and the time.
//!
//! Two free players are *near* when their points differ by at most [`NEAR_POINTS`], widened by
//! [`WIDEN_POINTS`] for every [`WIDEN_AFTER_MS`] the longer-waiting of the two has waited: a
//! leader alone at the top is not left waiting for long. An *immediate rematch* is a game
//! against the opponent of one's last game.
//!
//! A pairing first makes as many games between near players without an immediate rematch as
//! can be made (a maximum matching), the highest-ranked free player choosing first the nearest
//! in points for whom that many games can still be made; then, among those still free, as many
//! immediate rematches between near players as can be made, the same way. So after a pairing
//! no two free players left are near, and a rematch is made only for players with no other
//! near partner left.

use crate::common::{PlayerId, PlayerResult};
use crate::matching::Graph;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;

/// Points within which two free players are near at once.
pub const NEAR_POINTS: u32 = 4;
/// How much "near" widens for every [`WIDEN_AFTER_MS`] of waiting.
pub const WIDEN_POINTS: u32 = 2;
/// The wait, in milliseconds, after which "near" widens by [`WIDEN_POINTS`] (and again after
/// each further such wait).
pub const WIDEN_AFTER_MS: u64 = 10_000;

/// What the arena pairing knows of a free player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FreePlayer {
    /// Who.
    pub id: PlayerId,
    /// Arena points so far.
    pub points: u32,
    /// Rating (orders players with equal points).
    pub rating: u32,
    /// When they became free (joined, came back, or ended a game), in milliseconds.
    pub free_since: u64,
    /// The opponent of their last game.
    pub last_opponent: Option<PlayerId>,
}

impl FreePlayer {
    fn rank_key(&self) -> (Reverse<u32>, Reverse<u32>, PlayerId) {
        (Reverse(self.points), Reverse(self.rating), self.id)
    }
}

/// How far apart in points two players may be to be near at `now` (see the module).
pub fn near_span(a: &FreePlayer, b: &FreePlayer, now: u64) -> u32 {
    let waited = now.saturating_sub(a.free_since.min(b.free_since));
    let steps = u32::try_from(waited / WIDEN_AFTER_MS).unwrap_or(u32::MAX);
    NEAR_POINTS.saturating_add(steps.saturating_mul(WIDEN_POINTS))
}

/// Whether `a` and `b` are near in points at `now`.
pub fn near(a: &FreePlayer, b: &FreePlayer, now: u64) -> bool {
    a.points.abs_diff(b.points) <= near_span(a, b, now)
}

/// Whether a game between `a` and `b` would repeat the last game of either.
pub fn immediate_rematch(a: &FreePlayer, b: &FreePlayer) -> bool {
    a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
}

/// The games to start now among `free` (each pair unordered; colours are the caller's).
pub fn pair_free(free: &[FreePlayer], now: u64) -> Vec<(PlayerId, PlayerId)> {
    let mut ranked: Vec<&FreePlayer> = free.iter().collect();
    ranked.sort_by_key(|p| p.rank_key());
    ranked.dedup_by_key(|p| p.id);
    let n = ranked.len();
    let mut pairs = Vec::new();
    let mut alive = vec![true; n];
    for rematches in [false, true] {
        let mut g = Graph::new(n);
        for a in 0..n {
            for b in a + 1..n {
                if near(ranked[a], ranked[b], now) && immediate_rematch(ranked[a], ranked[b]) == rematches {
                    g.add(a, b);
                }
            }
        }
        let mut target = g.max_matching_size(&alive);
        for p in 0..n {
            if target == 0 {
                break;
            }
            if !alive[p] {
                continue;
            }
            alive[p] = false;
            let mut options: Vec<usize> = (0..n).filter(|&q| alive[q] && g.has(p, q)).collect();
            options.sort_by_key(|&q| (ranked[p].points.abs_diff(ranked[q].points), q));
            let chosen = options.into_iter().find(|&q| {
                alive[q] = false;
                let ok = g.max_matching_size(&alive) + 1 == target;
                alive[q] = true;
                ok
            });
            match chosen {
                Some(q) => {
                    alive[q] = false;
                    target -= 1;
                    pairs.push((ranked[p].id, ranked[q].id));
                }
                // Nobody keeps the most games possible with `p`: `p` waits this time.
                None => alive[p] = true,
            }
        }
    }
    pairs
}

/// Arena points for one game: 2 a win, 1 a draw, 0 a loss; doubled when on fire (the two games
/// before were wins); one more for a win with berserk.
pub fn arena_points(result: PlayerResult, on_fire: bool, berserk: bool) -> u32 {
    let base = match result {
        PlayerResult::Win => 2,
        PlayerResult::Draw => 1,
        PlayerResult::Loss => 0,
    };
    let fire = if on_fire { base * 2 } else { base };
    fire + u32::from(berserk && result == PlayerResult::Win)
}
