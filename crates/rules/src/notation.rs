//! The position notation both games share: ranks from the top separated by `/`, digit runs for
//! empty squares, then the side to move and an optional no-capture counter.

use crate::error::{Family, ParseError, Problem};
use std::fmt;

/// Whitespace-separated fields with their 1-based character columns.
pub(crate) struct Fields<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(s: &'a str) -> Fields<'a> {
        Fields { s, pos: 0 }
    }

    fn column_of(&self, byte: usize) -> usize {
        self.s[..byte].chars().count() + 1
    }

    pub(crate) fn next(&mut self) -> Option<(usize, &'a str)> {
        let rest = &self.s[self.pos..];
        let start = self.pos + (rest.len() - rest.trim_start().len());
        if start >= self.s.len() {
            self.pos = self.s.len();
            return None;
        }
        let tail = &self.s[start..];
        let end = start + tail.find(char::is_whitespace).unwrap_or(tail.len());
        self.pos = end;
        Some((self.column_of(start), &self.s[start..end]))
    }

    /// The optional third field: plies since the last capture.
    pub(crate) fn clock(&mut self) -> Result<u16, ParseError> {
        match self.next() {
            None => Ok(0),
            Some((col, f)) => {
                if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(ParseError::at(col, Problem::BadClock { text: f.to_string() }));
                }
                f.parse::<u16>()
                    .ok()
                    .filter(|&n| n <= 10_000)
                    .ok_or_else(|| ParseError::at(col, Problem::ClockTooLarge { text: f.to_string() }))
            }
        }
    }

    pub(crate) fn finish(&mut self) -> Result<(), ParseError> {
        match self.next() {
            None => Ok(()),
            Some((col, f)) => Err(ParseError::at(col, Problem::Trailing { text: f.to_string() })),
        }
    }
}

/// Reads the board field into rows (top rank first) of cells; every row must have the same
/// number of squares. `piece` maps a letter to a cell, or `None` for a letter the game does not
/// use (then the error names the `family`'s letters).
pub(crate) fn parse_rank_runs<T: Copy>(
    board: &str,
    board_col: usize,
    rows: &mut Vec<Vec<Option<T>>>,
    piece: impl Fn(char) -> Option<Option<T>>,
    family: Family,
) -> Result<(), ParseError> {
    let mut col = board_col;
    for (i, rank) in board.split('/').enumerate() {
        let mut row = Vec::new();
        let rank_col = col;
        let mut chars = rank.chars().peekable();
        let mut c_col = col;
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let start_col = c_col;
                let mut n = c.to_digit(10).unwrap_or(0) as usize;
                while let Some(&d) = chars.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    chars.next();
                    c_col += 1;
                    n = n * 10 + d.to_digit(10).unwrap_or(0) as usize;
                    if n > 128 {
                        return Err(ParseError::at(start_col, Problem::RunTooLong));
                    }
                }
                if n == 0 {
                    return Err(ParseError::at(start_col, Problem::RunOfZero));
                }
                if c == '0' {
                    return Err(ParseError::at(start_col, Problem::RunLeadingZero { run: n }));
                }
                row.extend(std::iter::repeat_n(None, n));
            } else if let Some(cell) = piece(c) {
                row.push(cell);
            } else {
                return Err(ParseError::at(c_col, Problem::UnexpectedLetter { found: c, family }));
            }
            if row.len() > 128 {
                return Err(ParseError::at(rank_col, Problem::RankTooLong));
            }
            c_col += 1;
        }
        if row.is_empty() {
            return Err(ParseError::at(rank_col, Problem::EmptyRank { rank: i + 1 }));
        }
        if let Some(first) = rows.first()
            && first.len() != row.len()
        {
            return Err(ParseError::at(
                rank_col,
                Problem::UnevenRank { rank: i + 1, squares: row.len(), first: first.len() },
            ));
        }
        rows.push(row);
        if rows.len() > 128 {
            return Err(ParseError::at(board_col, Problem::TooManyRanks));
        }
        col = c_col + 1; // the '/'
    }
    Ok(())
}

/// Writes rows (top first) of optional piece letters with digit runs for empty squares.
pub(crate) fn write_board(
    f: &mut fmt::Formatter<'_>,
    rows: impl Iterator<Item = Vec<Option<char>>>,
) -> fmt::Result {
    for (i, row) in rows.enumerate() {
        if i > 0 {
            f.write_str("/")?;
        }
        let mut run = 0;
        for cell in row {
            match cell {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        write!(f, "{run}")?;
                        run = 0;
                    }
                    write!(f, "{c}")?;
                }
            }
        }
        if run > 0 {
            write!(f, "{run}")?;
        }
    }
    Ok(())
}

/// `FromStr`, `Serialize` and `Deserialize` through the position's notation: a position is
/// stored and sent as its text, and reading it back checks it like any other input.
macro_rules! text_form {
    ($t:ty) => {
        impl std::str::FromStr for $t {
            type Err = $crate::ParseError;
            fn from_str(s: &str) -> Result<Self, $crate::ParseError> {
                <$t as $crate::GamePosition>::parse(s)
            }
        }

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                <$t as $crate::GamePosition>::parse(&s).map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use text_form;
