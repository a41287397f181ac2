//! The two players, below everything that names them (positions, outcomes, errors).

use serde::{Deserialize, Serialize};

/// A player. `First` moves first and sits at the bottom: Red in Latrunculi, White in Alquerque.
/// `Second` is Black in both games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// Red (Latrunculi) or White (Alquerque); moves first, starts at the bottom.
    First,
    /// Black; moves second, starts at the top.
    Second,
}

impl Side {
    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl std::ops::Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.opponent()
    }
}
