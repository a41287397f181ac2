//! Scores: centi-soldiers from the side to move's point of view, and game ends with their
//! distance in plies (a win sooner scores higher, a loss later scores higher).

use std::fmt;

/// The largest score magnitude; a win `n` plies from the root scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Any score at or above this (in magnitude) is a game end found by the search.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// Larger than any score: the initial search window.
pub const INFINITY: i32 = WIN + 1;

/// A win for the side to move at `ply` plies from the root.
#[inline]
pub const fn win_in(ply: usize) -> i32 {
    WIN - ply as i32
}

/// A loss for the side to move at `ply` plies from the root.
#[inline]
pub const fn loss_in(ply: usize) -> i32 {
    -WIN + ply as i32
}

/// Whether `score` is a game end (win or loss) rather than an evaluation.
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score >= WIN_BOUND || score <= -WIN_BOUND
}

/// Converts a root-relative decisive score to one relative to a node at `ply` (for the
/// transposition table), so that the same entry is right wherever the node is met.
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as people read it: an evaluation, or a win or loss in so many plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Score {
    /// An evaluation in centi-soldiers (100 = one soldier), positive when the side to move of
    /// the searched position is better.
    Eval(i32),
    /// The side to move wins in this many plies (its own moves and the opponent's).
    WinIn(u32),
    /// The side to move loses in this many plies.
    LossIn(u32),
}

impl Score {
    /// Reads a raw search score.
    pub fn from_raw(score: i32) -> Score {
        if score >= WIN_BOUND {
            Score::WinIn((WIN - score) as u32)
        } else if score <= -WIN_BOUND {
            Score::LossIn((WIN + score) as u32)
        } else {
            Score::Eval(score)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Eval(cp) => write!(f, "{:+.2}", f64::from(cp) / 100.0),
            Score::WinIn(n) => write!(f, "win in {n}"),
            Score::LossIn(n) => write!(f, "loss in {n}"),
        }
    }
}
