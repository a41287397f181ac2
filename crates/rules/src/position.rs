//! What both games share: sides, outcomes, and the [`GamePosition`] trait that search, perft and
//! the game record are written against.

use crate::error::{ParseError, PlayError};
pub use crate::side::Side;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Reason {
    /// Latrunculi: a king has no empty orthogonal neighbour after a move.
    KingImmobilised,
    /// Latrunculi: the loser has only the king left.
    OnlyKingLeft,
    /// Alquerque: the loser has no pieces.
    NoPieces,
    /// The player to move has no legal move and loses.
    NoLegalMove,
    /// Threefold repetition: Latrunculi, the player who repeated loses; Alquerque, a draw.
    Repetition,
    /// Too many plies without a capture: Latrunculi 100 (decided on material), Alquerque 50 (draw).
    NoCaptureLimit,
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    Timeout,
    /// A player left the game and did not come back in time.
    Abandoned,
    /// Both players agreed to a draw (online play: one offered it, the other accepted).
    Agreement,
}

impl Reason {
    /// A stable English identifier, such as `KingImmobilised`.
    pub fn name(self) -> &'static str {
        match self {
            Reason::KingImmobilised => "KingImmobilised",
            Reason::OnlyKingLeft => "OnlyKingLeft",
            Reason::NoPieces => "NoPieces",
            Reason::NoLegalMove => "NoLegalMove",
            Reason::Repetition => "Repetition",
            Reason::NoCaptureLimit => "NoCaptureLimit",
            Reason::Resignation => "Resignation",
            Reason::Timeout => "Timeout",
            Reason::Abandoned => "Abandoned",
            Reason::Agreement => "Agreement",
        }
    }
}

/// How a game ended: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// `side` wins for `reason`.
    pub const fn win(side: Side, reason: Reason) -> Outcome {
        Outcome { winner: Some(side), reason }
    }

    /// A draw for `reason`.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome { winner: None, reason }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(Side::First) => write!(f, "1-0 {}", self.reason.name()),
            Some(Side::Second) => write!(f, "0-1 {}", self.reason.name()),
            None => write!(f, "1/2-1/2 {}", self.reason.name()),
        }
    }
}

/// A position of one of the games: the board, the side to move and the no-capture counter.
///
/// A position knows nothing of the game's history; [`crate::Game`] and [`crate::perft`] add
/// repetition. Move generation ignores whether the game is over; [`GamePosition::outcome`]
/// says that.
pub trait GamePosition: Copy + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// The game's move type.
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static;

    /// Clears `out` and fills it with every legal move (no allocation once `out` has grown).
    fn generate_moves(&self, out: &mut Vec<Self::Move>);

    /// Every legal move, in a new vector.
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut v = Vec::new();
        self.generate_moves(&mut v);
        v
    }

    /// The number of legal moves (perft's bulk count; games may make it faster than generating).
    fn count_moves(&self) -> u64 {
        self.legal_moves().len() as u64
    }

    /// Whether the side to move has at least one legal move.
    fn has_legal_move(&self) -> bool {
        self.count_moves() > 0
    }

    /// Plays a move that must be legal in this position (debug builds check it).
    fn play_unchecked(&self, mv: &Self::Move) -> Self;

    /// Plays `mv` if it is legal here; otherwise returns the unchanged position with the error.
    fn play(self, mv: &Self::Move) -> Result<Self, PlayError<Self>> {
        match self.try_play(mv) {
            Ok(p) => Ok(p),
            Err(error) => Err(PlayError { position: self, error }),
        }
    }

    /// Plays `mv` if it is legal here.
    fn try_play(&self, mv: &Self::Move) -> Result<Self, crate::IllegalMove> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        if moves.contains(mv) {
            Ok(self.play_unchecked(mv))
        } else {
            Err(crate::IllegalMove { notation: self.move_to_string(mv), position: self.to_string() })
        }
    }

    /// The Zobrist hash of the board and side to move (not of the no-capture counter).
    fn hash(&self) -> u64;

    /// The side to move.
    fn side_to_move(&self) -> Side;

    /// Plies since the last capture.
    fn clock(&self) -> u16;

    /// Whether the two positions have the same pieces on the same squares and the same side to
    /// move (the counter is not compared): the equality that repetition uses.
    fn same_position(&self, other: &Self) -> bool;

    /// Whether `mv` captures anything.
    fn is_capture(mv: &Self::Move) -> bool;

    /// The game's end as decided by every rule but "no legal move", judged as if the side not to
    /// move had just moved into this position; `threefold` says whether that move produced a
    /// third occurrence of this position.
    fn rule_outcome(&self, threefold: bool) -> Option<Outcome>;

    /// The game's end, if this position ends it (all rules, in the order of
    /// `crates/rules/RULES.md`).
    fn outcome(&self, threefold: bool) -> Option<Outcome> {
        self.rule_outcome(threefold).or_else(|| {
            if self.has_legal_move() {
                None
            } else {
                Some(Outcome::win(!self.side_to_move(), Reason::NoLegalMove))
            }
        })
    }

    /// Writes a move in the notation of `crates/rules/RULES.md`.
    fn move_to_string(&self, mv: &Self::Move) -> String;

    /// Reads a move in notation and checks it against the legal moves of this position.
    fn parse_move(&self, s: &str) -> Result<Self::Move, ParseError>;

    /// Reads a position in notation.
    fn parse(s: &str) -> Result<Self, ParseError>;
}
