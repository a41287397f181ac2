//! What the solver and the checker both speak: a position's [`Value`], the errors
//! ([`SolveError`]), positions as keys, and the values the rules and the endgame tables give at
//! once. Below the search and its solved-position table, so that the checker needs neither.

use crate::tablebase::{Tablebase, TbError, Wdl};
use ludus_rules::alquerque::{FULL, Position};
use ludus_rules::{GamePosition, Side};
use std::fmt;

/// The value of a position with best play (the no-capture counter ignored).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Value {
    /// White can force a win.
    WhiteWins,
    /// Black can force a win.
    BlackWins,
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The value with `winner` winning (`None`: a draw).
    pub fn from_winner(winner: Option<Side>) -> Value {
        match winner {
            Some(Side::First) => Value::WhiteWins,
            Some(Side::Second) => Value::BlackWins,
            None => Value::Draw,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Side> {
        match self {
            Value::WhiteWins => Some(Side::First),
            Value::BlackWins => Some(Side::Second),
            Value::Draw => None,
        }
    }

    /// `white-wins`, `black-wins` or `draw`, as certificates write it.
    pub fn name(self) -> &'static str {
        match self {
            Value::WhiteWins => "white-wins",
            Value::BlackWins => "black-wins",
            Value::Draw => "draw",
        }
    }

    /// Reads [`Value::name`].
    pub fn parse(s: &str) -> Option<Value> {
        [Value::WhiteWins, Value::BlackWins, Value::Draw].into_iter().find(|v| v.name() == s)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::WhiteWins => "White wins",
            Value::BlackWins => "Black wins",
            Value::Draw => "draw",
        })
    }
}

/// What went wrong while solving or checking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// A table could not be read.
    Tablebase(String),
    /// A state file or certificate could not be read or written, or is malformed.
    File(String),
    /// A certificate does not prove its claim; the text names the position.
    Check(String),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Tablebase(s) | SolveError::File(s) | SolveError::Check(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<TbError> for SolveError {
    fn from(e: TbError) -> SolveError {
        SolveError::Tablebase(e.to_string())
    }
}

/// A position as a 64-bit key: White's points, Black's points (25 bits each) and the side to
/// move. Exact: two positions have the same key only when they are the same position.
#[inline]
pub fn key(pos: &Position) -> u64 {
    u64::from(pos.pieces(Side::First))
        | u64::from(pos.pieces(Side::Second)) << 25
        | (pos.side_to_move().index() as u64) << 50
}

/// The position of a key (its counter 0), `None` for a key that is no position.
pub fn position_of(key: u64) -> Option<Position> {
    if key >> 51 != 0 {
        return None;
    }
    let white = (key & u64::from(FULL)) as u32;
    let black = ((key >> 25) & u64::from(FULL)) as u32;
    let side = if key >> 50 & 1 == 0 { Side::First } else { Side::Second };
    Position::from_bitboards(white, black, side, 0)
}

/// The position with its no-capture counter set to 0 (the solver ignores the counter).
#[inline]
pub fn without_counter(pos: &Position) -> Position {
    Position::from_bitboards(pos.pieces(Side::First), pos.pieces(Side::Second), pos.side_to_move(), 0)
        .expect("a valid position stays valid")
}

/// The exact value of `pos` when the rules or the tables give it at once: the game is over
/// (the winner: `Some(Some(side))`), or a table covers it (`Some(None)` for a draw). `None`
/// when neither does. The counter is ignored.
pub fn exact_value(pos: &Position, tb: Option<&Tablebase>) -> Result<Option<Option<Side>>, SolveError> {
    let pos = without_counter(pos);
    if let Some(outcome) = pos.outcome(false) {
        return Ok(Some(outcome.winner));
    }
    let Some(tb) = tb else { return Ok(None) };
    let Some(probe) = tb.try_probe(&pos)? else { return Ok(None) };
    let side = pos.side_to_move();
    Ok(Some(match probe.wdl {
        Wdl::Win => Some(side),
        Wdl::Loss => Some(side.opponent()),
        Wdl::Draw => None,
    }))
}
