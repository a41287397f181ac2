//! Move ordering: the transposition table's move, then captures (bigger first), then the two
//! killer moves of the ply, then quiet moves by their history score.

use crate::eval::{HISTORY_SIZE, SearchGame};
use ludus_rules::Side;

/// The ordering score of the transposition table's move.
pub const TT_MOVE: i32 = 1 << 30;
/// The base ordering score of a capture; each captured piece adds [`CAPTURE_STEP`].
pub const CAPTURE: i32 = 1 << 24;
/// What each captured piece adds to a capture's ordering score.
pub const CAPTURE_STEP: i32 = 1 << 16;
/// The ordering score of the first killer; the second gets one less.
pub const KILLER: i32 = 1 << 20;
/// The ordering score of a quiet move that presses the enemy king (see
/// [`SearchGame::press_mask`]): after the killers, before the history, and never reduced.
pub const PRESS: i32 = KILLER - 2;
/// History scores stay within plus or minus this.
pub const HISTORY_MAX: i32 = 1 << 14;

/// Killer moves (two per ply) and the history table (per side, from and to squares).
#[derive(Clone, Debug)]
pub struct Ordering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

impl<M: Copy + Eq> Ordering<M> {
    /// Empty tables for searches up to `max_ply` plies.
    pub fn new(max_ply: usize) -> Ordering<M> {
        Ordering { killers: vec![[None, None]; max_ply + 1], history: vec![0; 2 * HISTORY_SIZE] }
    }

    /// The ordering score of `mv` at `ply` for `side`, given the table move's tag.
    #[inline]
    pub fn score<P: SearchGame<Move = M>>(&self, mv: &M, ply: usize, side: Side, tt_tag: u32) -> i32 {
        if tt_tag != 0 && P::move_tag(mv) == tt_tag {
            return TT_MOVE;
        }
        let n = P::capture_count(mv);
        if n > 0 {
            return CAPTURE + CAPTURE_STEP * n as i32;
        }
        let k = &self.killers[ply];
        if k[0] == Some(*mv) {
            return KILLER;
        }
        if k[1] == Some(*mv) {
            return KILLER - 1;
        }
        self.history[side.index() * HISTORY_SIZE + P::history_index(mv)]
    }

    /// Killer `i` (0 or 1) of `ply`.
    #[inline]
    pub fn killer(&self, ply: usize, i: usize) -> Option<M> {
        self.killers[ply][i]
    }

    /// Whether `mv` is one of the killers of `ply`.
    #[inline]
    pub fn is_killer(&self, mv: &M, ply: usize) -> bool {
        self.killers[ply].contains(&Some(*mv))
    }

    /// The history score of a quiet move.
    #[inline]
    pub fn history<P: SearchGame<Move = M>>(&self, mv: &M, side: Side) -> i32 {
        self.history[side.index() * HISTORY_SIZE + P::history_index(mv)]
    }

    /// Records a quiet move that refuted a node at `ply` after `tried` quiet moves failed.
    pub fn reward<P: SearchGame<Move = M>>(
        &mut self,
        mv: &M,
        tried: &[(i32, M)],
        ply: usize,
        side: Side,
        depth: i32,
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(*mv) {
            k[1] = k[0];
            k[0] = Some(*mv);
        }
        let bonus = (depth * depth).min(400);
        let base = side.index() * HISTORY_SIZE;
        update(&mut self.history[base + P::history_index(mv)], bonus);
        for (_, m) in tried {
            if m != mv && P::capture_count(m) == 0 {
                update(&mut self.history[base + P::history_index(m)], -bonus);
            }
        }
    }

    /// Clears the killers of the ply below a node (they belong to other positions).
    #[inline]
    pub fn clear_killers(&mut self, ply: usize) {
        if let Some(k) = self.killers.get_mut(ply) {
            *k = [None, None];
        }
    }
}

/// History with gravity: scores approach the bounds ever more slowly.
#[inline]
fn update(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}
