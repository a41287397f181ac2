//! Errors: malformed notation, illegal moves, unreadable game records.

use crate::side::Side;
use std::fmt;

/// Malformed notation: what is wrong and where (a 1-based character column when known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong, as data: an interface words it in its player's language.
    pub problem: Problem,
    /// What is wrong, in English (the [`Problem`]'s own text).
    pub message: String,
    /// The 1-based character column of the problem in the input, when there is one.
    pub column: Option<usize>,
}

impl ParseError {
    pub(crate) fn at(column: usize, problem: Problem) -> ParseError {
        ParseError { message: problem.to_string(), problem, column: Some(column) }
    }

    pub(crate) fn new(problem: Problem) -> ParseError {
        ParseError { message: problem.to_string(), problem, column: None }
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

/// Which game's notation a [`Problem`] is about: the two name their sides and pieces apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Latrunculi, on any board size: Red (`r`, king `R`) and Black (`b`, `B`).
    Latrunculi,
    /// Alquerque: White (`W`) and Black (`B`).
    Alquerque,
}

impl Family {
    fn side_name(self, side: Side) -> &'static str {
        match (self, side) {
            (Family::Latrunculi, Side::First) => "Red",
            (Family::Alquerque, Side::First) => "White",
            (_, Side::Second) => "Black",
        }
    }
}

/// What is wrong with a piece of notation (a position, a move or a game's name). The fields are
/// the text, squares and numbers the variant's documentation names.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The position is empty.
    EmptyPosition,
    /// The game's name is none of the known ones.
    UnknownGame { text: String },
    /// A letter that is no piece of the game, in the board.
    UnexpectedLetter { found: char, family: Family },
    /// A run of empty squares longer than any rank.
    RunTooLong,
    /// A run of empty squares written 0.
    RunOfZero,
    /// A run of empty squares written with a leading 0 (`run` is how to write it).
    RunLeadingZero { run: usize },
    /// A rank longer than any board.
    RankTooLong,
    /// Rank `rank` (1-based, from the top) is empty.
    EmptyRank { rank: usize },
    /// Rank `rank` (from the top) has `squares` squares where the first has `first`.
    UnevenRank { rank: usize, squares: usize, first: usize },
    /// More ranks than any board.
    TooManyRanks,
    /// A Latrunculi start position needs at least 4 ranks.
    TooFewRanks,
    /// A Latrunculi board of this size is not supported.
    BoardSize { width: usize, height: usize },
    /// A Latrunculi board with more squares than supported.
    TooManySquares { width: usize, height: usize },
    /// An Alquerque board is 5x5.
    AlquerqueSize { width: usize, height: usize },
    /// A Latrunculi side with a second king (on `square`).
    TwoKings { side: Side, square: String },
    /// A Latrunculi side without a king.
    NoKing { side: Side },
    /// An Alquerque side with more than 12 pieces.
    TooManyPieces { side: Side, count: u32 },
    /// No side to move after the board.
    MissingSide { family: Family },
    /// A side to move that is not one of the game's two letters.
    BadSide { text: String, family: Family },
    /// The third field (plies since the last capture) is not a whole number.
    BadClock { text: String },
    /// The third field is too large.
    ClockTooLarge { text: String },
    /// Something after the position's fields.
    Trailing { text: String },
    /// Not written as a move of the game.
    NotAMove { text: String, family: Family },
    /// An Alquerque path with more jumps than any move.
    TooManyJumps { text: String },
    /// Not a square of this Latrunculi board.
    NotASquare { text: String, width: u8, height: u8 },
    /// Not a point of the Alquerque board.
    NotAPoint { text: String },
    /// No piece on the square the move starts from.
    NoPiece { square: String },
    /// The piece on the starting square is the other side's.
    NotYourPiece { square: String },
    /// A Latrunculi move that is no rook move along empty squares.
    NotARookMove { text: String },
    /// An Alquerque step where a capture is compulsory.
    CaptureCompulsory { text: String },
    /// An Alquerque capture path that stops while the piece can still jump, or leads nowhere.
    CaptureNotFinished { text: String },
    /// An Alquerque step that is no step along a line, forward or sideways, to an empty point.
    NotAStep { text: String },
    /// A move after the end of the game.
    GameOver,
    /// A move the position does not allow.
    Illegal { notation: String },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::limits::{MAX_DIM, MAX_PIECES, MAX_SQUARES, MIN_DIM};
        match self {
            Problem::EmptyPosition => f.write_str("empty position: expected a board, then the side to move"),
            Problem::UnknownGame { text } => {
                write!(f, "unknown game '{text}': expected latrunculi, latrunculi-quick or alquerque")
            }
            Problem::UnexpectedLetter { found, family: Family::Latrunculi } => write!(
                f,
                "unexpected '{found}' in the board: Latrunculi pieces are r, R (red soldier, king) and b, B (black soldier, king)"
            ),
            Problem::UnexpectedLetter { found, family: Family::Alquerque } => {
                write!(f, "unexpected '{found}' in the board: Alquerque pieces are W (white) and B (black)")
            }
            Problem::RunTooLong => f.write_str("run of empty squares is too long"),
            Problem::RunOfZero => f.write_str("a run of empty squares must be at least 1"),
            Problem::RunLeadingZero { run } => {
                write!(f, "a run of empty squares cannot start with 0: write {run}")
            }
            Problem::RankTooLong => f.write_str("rank is too long"),
            Problem::EmptyRank { rank } => write!(f, "rank {rank} from the top is empty"),
            Problem::UnevenRank { rank, squares, first } => write!(
                f,
                "rank {rank} from the top has {squares} squares but the first has {first}: every rank must be as wide"
            ),
            Problem::TooManyRanks => f.write_str("too many ranks"),
            Problem::TooFewRanks => f.write_str("a start position needs at least 4 ranks"),
            Problem::BoardSize { width, height } => write!(
                f,
                "a {width}x{height} board is not supported: files and ranks must each be from {MIN_DIM} to {MAX_DIM}"
            ),
            Problem::TooManySquares { width, height } => write!(
                f,
                "a {width}x{height} board has {} squares; at most {MAX_SQUARES} are supported",
                width * height
            ),
            Problem::AlquerqueSize { width, height } => {
                write!(f, "an Alquerque board is 5x5, not {width}x{height}")
            }
            Problem::TwoKings { side, square } => {
                let name = Family::Latrunculi.side_name(*side);
                write!(f, "{name} has two kings (the second on {square})")
            }
            Problem::NoKing { side } => {
                let letter = if *side == Side::First { "R" } else { "B" };
                write!(f, "{} ({letter}) has no king", Family::Latrunculi.side_name(*side))
            }
            Problem::TooManyPieces { side, count } => write!(
                f,
                "{} has {count} pieces; a side has at most {}",
                Family::Alquerque.side_name(*side),
                MAX_PIECES
            ),
            Problem::MissingSide { family } => {
                let (a, b) = side_letters(*family);
                write!(f, "missing side to move: expected '{a}' or '{b}' after the board")
            }
            Problem::BadSide { text, family } => {
                let (a, b) = side_letters(*family);
                write!(f, "side to move must be '{a}' or '{b}', not '{text}'")
            }
            Problem::BadClock { text } => write!(
                f,
                "the third field is the number of plies since the last capture, a whole number, not '{text}'"
            ),
            Problem::ClockTooLarge { text } => {
                write!(f, "plies since the last capture '{text}' is too large")
            }
            Problem::Trailing { text } => write!(
                f,
                "unexpected '{text}' after the position (expected: board, side to move, optional counter)"
            ),
            Problem::NotAMove { text, family: Family::Latrunculi } => {
                write!(f, "'{text}' is not a Latrunculi move: expected two squares joined by '-', like g2-g5")
            }
            Problem::NotAMove { text, family: Family::Alquerque } => write!(
                f,
                "'{text}' is not an Alquerque move: expected a step like c2-c3 or a capture path like a1xc3xe5"
            ),
            Problem::TooManyJumps { text } => write!(f, "'{text}' has more jumps than a move can have"),
            Problem::NotASquare { text, width, height } => {
                write!(f, "'{text}' is not a square of this {width}x{height} board")
            }
            Problem::NotAPoint { text } => write!(f, "'{text}' is not a point of the board (a1 to e5)"),
            Problem::NoPiece { square } => write!(f, "there is no piece on {square}"),
            Problem::NotYourPiece { square } => write!(f, "the piece on {square} is not the side to move's"),
            Problem::NotARookMove { text } => {
                write!(f, "{text} is not legal: pieces move like rooks along empty squares of a rank or file")
            }
            Problem::CaptureCompulsory { text } => {
                write!(f, "{text} is not legal: a capture is compulsory here")
            }
            Problem::CaptureNotFinished { text } => write!(
                f,
                "{text} is not legal: no capture follows that path to its end (a capturing piece must keep jumping while it can)"
            ),
            Problem::NotAStep { text } => write!(
                f,
                "{text} is not legal: a piece steps to an adjacent empty point along a line, forward or sideways"
            ),
            Problem::GameOver => f.write_str("the game is over"),
            Problem::Illegal { notation } => write!(f, "{notation} is not legal here"),
        }
    }
}

/// The two letters of the side to move in a family's positions.
fn side_letters(family: Family) -> (char, char) {
    match family {
        Family::Latrunculi => ('r', 'b'),
        Family::Alquerque => ('w', 'b'),
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
