//! How long a search may run: depth, nodes and time, any combination (the first reached stops it).

use serde::{Deserialize, Serialize};

/// The most plies the search looks ahead in its main search (iterative deepening stops there).
pub const MAX_DEPTH: u32 = 64;

/// Search limits. `None` means no limit of that kind; with none at all, the search goes to
/// [`MAX_DEPTH`] (or to the level's own default, see [`crate::Level`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// The most nodes (positions visited, quiescence included).
    pub nodes: Option<u64>,
    /// The most time, in milliseconds, from the first call to `step`.
    pub time_ms: Option<u64>,
}

impl Limits {
    /// No limit at all.
    pub const NONE: Limits = Limits { depth: None, nodes: None, time_ms: None };

    /// Only a depth limit.
    pub const fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), nodes: None, time_ms: None }
    }

    /// Only a node limit.
    pub const fn nodes(n: u64) -> Limits {
        Limits { depth: None, nodes: Some(n), time_ms: None }
    }

    /// Only a time limit.
    pub const fn time_ms(ms: u64) -> Limits {
        Limits { depth: None, nodes: None, time_ms: Some(ms) }
    }

    /// The limits a level plays with when the caller sets none: Hard thinks for
    /// [`crate::level::HARD_DEFAULT_TIME_MS`], Medium searches [`crate::level::MEDIUM_MAX_DEPTH`]
    /// plies at most (then [`crate::Level::limits_for`] applies the game's own depth), Easy and
    /// Random choose at once.
    pub fn for_level(level: crate::Level) -> Limits {
        level.limits(Limits::NONE)
    }

    /// Whether no limit is set.
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time_ms.is_none()
    }

    /// The tighter of two limits, kind by kind.
    pub fn min(self, other: Limits) -> Limits {
        fn m<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, None) => a,
                (None, b) => b,
            }
        }
        Limits {
            depth: m(self.depth, other.depth),
            nodes: m(self.nodes, other.nodes),
            time_ms: m(self.time_ms, other.time_ms),
        }
    }

    /// The depth the search may reach.
    pub fn max_depth(&self) -> u32 {
        self.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }
}
