#![doc = include_str!("../RULES.md")]
//!
//! ## The crate
//!
//! The rules above, as code. No Bevy, no I/O. Each game has a bitboard [`GamePosition`] (a
//! `u128` for Latrunculi, a `u32` for Alquerque's 25 points), a small `Copy` move type that
//! records its captures (and, in Alquerque, its whole path), notation, and Zobrist hashing.
//! [`Game`] is the record of a game: moves, positions seen, repetition and the no-capture
//! counter, and its [`Outcome`]. [`AnyGame`], [`AnyPosition`] and [`AnyMove`] wrap both games
//! behind one type for the user interface, the network and the command line.
//!
//! ```
//! use ludus_rules::{latrunculi, GamePosition};
//! let start = latrunculi::Position::standard();
//! assert_eq!(start.legal_moves().len(), 81);
//! let mv = start.parse_move("g2-g5").unwrap();
//! let next = start.play(&mv).unwrap();
//! assert_eq!(next.to_string(), "bbbbbbbbbbbb/5B6/12/6R5/12/12/12/rrrrrrrrrrrr b 1");
//! ```

pub mod alquerque;
mod any;
mod error;
mod game;
pub mod latrunculi;
mod limits;
mod notation;
mod perft;
mod position;
pub mod repetition;
mod side;
pub mod splitmix;
mod square;
mod zobrist;

pub use any::{AnyGame, AnyMove, AnyPosition, GameRecord, Piece, Variant};
pub use error::{Family, IllegalMove, ParseError, PlayError, Problem, RecordError};
pub use game::Game;
pub use perft::{perft, perft_divide};
pub use position::{GamePosition, Outcome, Reason};
pub use side::Side;
pub use square::Square;
