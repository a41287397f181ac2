//! The vocabulary every format shares: players, games, colours, results and points.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A player as the caller knows them (the server's account id). The crate only compares them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// An arena game, numbered by the arena from 1 in the order it pairs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameId(pub u64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.0)
    }
}

/// The side a player takes: `First` moves first (Red in Latrunculi, White in Alquerque).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// The side that moves first.
    First,
    /// The side that moves second.
    Second,
}

impl Colour {
    /// The other side.
    pub fn flip(self) -> Colour {
        match self {
            Colour::First => Colour::Second,
            Colour::Second => Colour::First,
        }
    }
}

/// How a game between two players ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// The player who had the first move won.
    FirstWins,
    /// The player who had the second move won.
    SecondWins,
    /// Neither won.
    Draw,
}

/// One player's result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlayerResult {
    /// Won.
    Win,
    /// Drew.
    Draw,
    /// Lost.
    Loss,
}

impl GameResult {
    /// The result as seen by the player of `colour`.
    pub fn for_colour(self, colour: Colour) -> PlayerResult {
        match (self, colour) {
            (GameResult::Draw, _) => PlayerResult::Draw,
            (GameResult::FirstWins, Colour::First) | (GameResult::SecondWins, Colour::Second) => {
                PlayerResult::Win
            }
            _ => PlayerResult::Loss,
        }
    }

    /// The game won by the player of `colour`.
    pub fn win_for(colour: Colour) -> GameResult {
        match colour {
            Colour::First => GameResult::FirstWins,
            Colour::Second => GameResult::SecondWins,
        }
    }
}

/// Points of a Swiss or round-robin table, kept exact in quarters of a point: a win is 1, a
/// draw ½, and Sonneborn-Berger adds halves of half points. Shown as a decimal ("2.5").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Points(pub u32);

impl Points {
    /// Nothing.
    pub const ZERO: Points = Points(0);
    /// A draw's half point.
    pub const HALF: Points = Points(2);
    /// A win's (or a bye's) point.
    pub const ONE: Points = Points(4);

    /// The points a player scores for `result`.
    pub fn of(result: PlayerResult) -> Points {
        match result {
            PlayerResult::Win => Points::ONE,
            PlayerResult::Draw => Points::HALF,
            PlayerResult::Loss => Points::ZERO,
        }
    }

    /// Half of these points (exact for anything made of whole and half points).
    pub fn half(self) -> Points {
        Points(self.0 / 2)
    }

    /// As a number of points.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 4.0
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl std::ops::Sub for Points {
    type Output = Points;
    fn sub(self, other: Points) -> Points {
        Points(self.0.saturating_sub(other.0))
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 4;
        match self.0 % 4 {
            0 => write!(f, "{whole}"),
            1 => write!(f, "{whole}.25"),
            2 => write!(f, "{whole}.5"),
            _ => write!(f, "{whole}.75"),
        }
    }
}

/// A player entering a tournament: who, and the rating that seeds them (higher is stronger).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entrant {
    /// Who.
    pub id: PlayerId,
    /// The rating at entry, used to order players with equal scores.
    pub rating: u32,
}

/// A game between two players, with colours: `first` has the first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// The player with the first move.
    pub first: PlayerId,
    /// The player with the second move.
    pub second: PlayerId,
}

impl Pairing {
    /// Whether `player` plays in this game.
    pub fn has(&self, player: PlayerId) -> bool {
        self.first == player || self.second == player
    }

    /// The opponent of `player` in this game, and `player`'s colour.
    pub fn opponent_of(&self, player: PlayerId) -> Option<(PlayerId, Colour)> {
        if self.first == player {
            Some((self.second, Colour::First))
        } else if self.second == player {
            Some((self.first, Colour::Second))
        } else {
            None
        }
    }

    /// Whether this game is between `a` and `b`, in either colour.
    pub fn between(&self, a: PlayerId, b: PlayerId) -> bool {
        (self.first == a && self.second == b) || (self.first == b && self.second == a)
    }
}

/// The ranks of an ordered table where `same(i - 1, i)` tells whether row `i` ties with the row
/// before it: tied rows share the rank of the first of them ("1, 2, 2, 4").
pub(crate) fn competition_ranks(len: usize, same: impl Fn(usize, usize) -> bool) -> Vec<u32> {
    let mut ranks = Vec::with_capacity(len);
    for i in 0..len {
        if i > 0 && same(i - 1, i) {
            let previous = ranks[i - 1];
            ranks.push(previous);
        } else {
            ranks.push(i as u32 + 1);
        }
    }
    ranks
}
