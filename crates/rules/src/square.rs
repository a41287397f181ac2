//! Squares (points) as indices into a board of a given width, rank 1 first.

use serde::{Deserialize, Serialize};

/// A square (a point in Alquerque): `rank * width + file`, with `a1` = 0 at the bottom left.
///
/// A square does not know the board's width; functions that name it take the width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square(pub u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = rank 1) on a board `width` files wide.
    pub const fn new(file: u8, rank: u8, width: u8) -> Square {
        Square(rank * width + file)
    }

    /// The index of this square, `rank * width + file`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 for `a`.
    pub const fn file(self, width: u8) -> u8 {
        self.0 % width
    }

    /// The rank, 0 for rank 1.
    pub const fn rank(self, width: u8) -> u8 {
        self.0 / width
    }

    /// This square's bit in a bitboard.
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// The square's name, such as `g2`, on a board `width` files wide.
    pub fn name(self, width: u8) -> String {
        let file = (b'a' + self.file(width)) as char;
        format!("{file}{}", self.rank(width) + 1)
    }

    /// Reads a square name such as `g2` on a board of the given size; `None` if it is not a
    /// square of that board.
    pub fn parse(s: &str, width: u8, height: u8) -> Option<Square> {
        let mut chars = s.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let file = f as u8 - b'a';
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if digits.starts_with('0') {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        if file >= width || rank == 0 || rank > height {
            return None;
        }
        Some(Square::new(file, rank - 1, width))
    }
}

/// Iterates over the set bits of a bitboard, lowest first.
pub(crate) struct Bits(pub u128);

impl Iterator for Bits {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square(sq))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for w in 3..=16u8 {
            for h in 3..=16u8 {
                if u32::from(w) * u32::from(h) > 128 {
                    continue;
                }
                for i in 0..w * h {
                    let sq = Square(i);
                    assert_eq!(Square::parse(&sq.name(w), w, h), Some(sq));
                }
            }
        }
        assert_eq!(Square::parse("g2", 12, 8), Some(Square(18)));
        assert_eq!(Square::parse("m1", 12, 8), None);
        assert_eq!(Square::parse("a9", 12, 8), None);
        assert_eq!(Square::parse("a0", 12, 8), None);
        assert_eq!(Square::parse("a01", 12, 8), None);
        assert_eq!(Square::parse("A1", 12, 8), None);
        assert_eq!(Square::parse("", 12, 8), None);
    }
}
