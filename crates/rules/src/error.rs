//! Errors: malformed notation, illegal moves, unreadable game records.

use std::fmt;

/// Malformed notation: what is wrong and where (a 1-based character column when known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong, in English.
    pub message: String,
    /// The 1-based character column of the problem in the input, when there is one.
    pub column: Option<usize>,
}

impl ParseError {
    pub(crate) fn at(column: usize, message: impl Into<String>) -> ParseError {
        ParseError { message: message.into(), column: Some(column) }
    }

    pub(crate) fn new(message: impl Into<String>) -> ParseError {
        ParseError { message: message.into(), column: None }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "at column {c}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move, in notation.
    pub notation: String,
    /// The position, in notation.
    pub position: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in position {}", self.notation, self.position)
    }
}

impl std::error::Error for IllegalMove {}

/// An illegal move, together with the position it was tried in (unchanged).
#[derive(Clone, Debug)]
pub struct PlayError<P> {
    /// The position, unchanged.
    pub position: P,
    /// What was wrong.
    pub error: IllegalMove,
}

impl<P> fmt::Display for PlayError<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl<P: fmt::Debug> std::error::Error for PlayError<P> {}

/// A game record (a save file, a network message) that cannot be read back as a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The start position is malformed.
    Position(ParseError),
    /// Move number `ply` (1-based) is malformed or illegal.
    Move {
        /// 1-based ply of the bad move.
        ply: usize,
        /// What was wrong.
        error: ParseError,
    },
    /// A move was recorded after the game had already ended.
    MoveAfterEnd {
        /// 1-based ply of the extra move.
        ply: usize,
    },
    /// The recorded ending cannot be applied (the game had already ended otherwise).
    Ending(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Position(e) => write!(f, "bad start position: {e}"),
            RecordError::Move { ply, error } => write!(f, "bad move at ply {ply}: {error}"),
            RecordError::MoveAfterEnd { ply } => {
                write!(f, "move at ply {ply} comes after the end of the game")
            }
            RecordError::Ending(s) => write!(f, "bad ending: {s}"),
        }
    }
}

impl std::error::Error for RecordError {}
