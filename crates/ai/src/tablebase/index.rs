//! Indexing: a perfect index of the positions of one material signature.
//!
//! Positions are stored from the point of view of the side to move (the *mover*), always as
//! if it were White moving up the board: a position with Black to move is turned upside down
//! (rank `r` becomes rank `4 - r`) and its colours swapped. The board of lines is symmetric
//! under that flip (a point with diagonals stays one), Black's "forward" becomes White's, and
//! captures go in every direction, so both positions have the same value. A table of material
//! `m`v`o` thus holds every position where the side to move has `m` pieces and the other side
//! `o`, whichever colour moves.
//!
//! The index of (mover set `M`, other set `O`) is `rank(M) * C(25 - m, o) + rank(O')`, where
//! `rank` is the combinatorial number system (colexicographic rank of a `k`-subset: the sum of
//! `C(p_i, i + 1)` over its points in increasing order) and `O'` is `O` with the points of `M`
//! taken out of the board (the other side's pieces among the `25 - m` free points). Every index
//! below `C(25, m) * C(25 - m, o)` is one position: the index is perfect.

use ludus_rules::alquerque::{FULL, MAX_PIECES, POINTS, Position};
use ludus_rules::{GamePosition, Side};
use std::fmt;

const N: usize = POINTS + 1;

const fn binomials() -> [[u64; N]; N] {
    let mut c = [[0u64; N]; N];
    let mut n = 0;
    while n < N {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

/// `BINOM[n][k]` = n choose k, for n, k up to 25.
static BINOM: [[u64; N]; N] = binomials();

/// n choose k (0 when k > n).
#[inline]
pub fn binomial(n: u32, k: u32) -> u64 {
    BINOM[n as usize][k as usize]
}

/// A material signature: the pieces of the side to move and of the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Pieces of the side to move (1 to 12).
    pub mover: u8,
    /// Pieces of the other side (1 to 12).
    pub other: u8,
}

impl Material {
    /// The signature, if both counts are from 1 to 12.
    pub fn new(mover: u32, other: u32) -> Option<Material> {
        let ok = (1..=MAX_PIECES).contains(&mover) && (1..=MAX_PIECES).contains(&other);
        ok.then_some(Material { mover: mover as u8, other: other as u8 })
    }

    /// The material of a position (`None` when a side has no piece).
    pub fn of(pos: &Position) -> Option<Material> {
        let m = pos.material();
        let us = pos.side_to_move().index();
        Material::new(m[us], m[1 - us])
    }

    /// Pieces on the board.
    pub fn total(self) -> u32 {
        u32::from(self.mover) + u32::from(self.other)
    }

    /// The material after the side to move has moved: the other side moves next.
    pub fn swapped(self) -> Material {
        Material { mover: self.other, other: self.mover }
    }

    /// Number of positions (the index range) of the table.
    pub fn positions(self) -> u64 {
        let (m, o) = (u32::from(self.mover), u32::from(self.other));
        binomial(POINTS as u32, m) * binomial(POINTS as u32 - m, o)
    }

    /// The table's file name, `alq-<mover>v<other>.ltb`.
    pub fn file_name(self) -> String {
        format!("alq-{}v{}.ltb", self.mover, self.other)
    }

    /// Reads a file name written by [`Material::file_name`].
    pub fn from_file_name(name: &str) -> Option<Material> {
        let rest = name.strip_prefix("alq-")?.strip_suffix(".ltb")?;
        let (m, o) = rest.split_once('v')?;
        Material::new(m.parse().ok()?, o.parse().ok()?)
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.mover, self.other)
    }
}

/// The board turned upside down (rank `r` to rank `4 - r`).
#[inline]
pub fn flip(b: u32) -> u32 {
    const ROW: u32 = 0x1F;
    (b & ROW) << 20 | ((b >> 5) & ROW) << 15 | (b & (ROW << 10)) | ((b >> 15) & ROW) << 5 | (b >> 20) & ROW
}

/// The position seen from its side to move: (mover's pieces, other side's pieces), with the
/// mover moving up the board as White does.
#[inline]
pub fn normalize(pos: &Position) -> (u32, u32) {
    let (w, b) = (pos.pieces(Side::First), pos.pieces(Side::Second));
    match pos.side_to_move() {
        Side::First => (w, b),
        Side::Second => (flip(b), flip(w)),
    }
}

/// The position (White to move, no-capture counter 0) of a normalized pair.
#[inline]
pub fn position(mover: u32, other: u32) -> Position {
    Position::from_bitboards(mover, other, Side::First, 0).expect("a normalized position is valid")
}

/// The colexicographic rank of a set among the sets of as many points.
#[inline]
pub fn rank_set(mut set: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        let p = set.trailing_zeros();
        set &= set - 1;
        r += binomial(p, i);
        i += 1;
    }
    r
}

/// The set of `k` points (among the first `n`) with colexicographic rank `r`.
#[inline]
pub fn unrank_set(mut r: u64, k: u32, n: u32) -> u32 {
    let mut set = 0;
    let mut p = n;
    for i in (1..=k).rev() {
        p -= 1;
        while binomial(p, i) > r {
            p -= 1;
        }
        r -= binomial(p, i);
        set |= 1 << p;
    }
    set
}

/// `set`'s points renumbered among the points not in `taken` (both within the board).
#[inline]
fn compress(set: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let p = s.trailing_zeros();
        s &= s - 1;
        let below = taken & ((1u32 << p) - 1);
        out |= 1 << (p - below.count_ones());
    }
    out
}

/// The inverse of [`compress`]: the `i`-th free point for each bit `i` of `set`.
#[inline]
fn expand(set: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut free = FULL & !taken;
    let mut i = 0;
    let mut s = set;
    while s != 0 {
        let want = s.trailing_zeros();
        while i < want {
            free &= free - 1;
            i += 1;
        }
        out |= 1 << free.trailing_zeros();
        s &= s - 1;
    }
    out
}

/// The index of a normalized position within its material's table.
#[inline]
pub fn index(mover: u32, other: u32) -> u64 {
    let m = mover.count_ones();
    let o = other.count_ones();
    rank_set(mover) * binomial(POINTS as u32 - m, o) + rank_set(compress(other, mover))
}

/// The normalized position of an index of `material`'s table.
#[inline]
pub fn unindex(idx: u64, material: Material) -> (u32, u32) {
    let (m, o) = (u32::from(material.mover), u32::from(material.other));
    let per = binomial(POINTS as u32 - m, o);
    let mover = unrank_set(idx / per, m, POINTS as u32);
    let other = expand(unrank_set(idx % per, o, POINTS as u32 - m), mover);
    (mover, other)
}

/// The next set of as many bits in increasing numeric order (Gosper's hack), which is the
/// next in colexicographic order; `set` must not be 0.
#[inline]
fn next_set(set: u32) -> u32 {
    let c = set & set.wrapping_neg();
    let r = set + c;
    (((r ^ set) >> 2) / c) | r
}

/// Calls `f(index, mover, other)` for every position of `material`'s table, in index order.
pub fn for_each_position(material: Material, f: impl FnMut(u64, u32, u32)) {
    let movers = binomial(POINTS as u32, u32::from(material.mover));
    for_each_position_in(material, 0..movers, f);
}

/// The positions of `material`'s table per set of the mover's pieces: `C(25 - m, o)`. The
/// positions of one mover set have consecutive indices.
pub fn per_mover_set(material: Material) -> u64 {
    binomial(POINTS as u32 - u32::from(material.mover), u32::from(material.other))
}

/// Like [`for_each_position`], for the mover sets of ranks `movers` only: the indices
/// `movers.start * per_mover_set(material)` to `movers.end * per_mover_set(material)`.
pub fn for_each_position_in(
    material: Material,
    movers: std::ops::Range<u64>,
    mut f: impl FnMut(u64, u32, u32),
) {
    let (m, o) = (u32::from(material.mover), u32::from(material.other));
    let others = per_mover_set(material);
    if movers.is_empty() {
        return;
    }
    let mut mover = unrank_set(movers.start, m, POINTS as u32);
    let mut idx = movers.start * others;
    for _ in movers {
        let mut oc = (1u32 << o) - 1;
        for _ in 0..others {
            f(idx, mover, expand(oc, mover));
            idx += 1;
            oc = next_set(oc);
        }
        mover = next_set(mover);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trip_and_order() {
        for material in [Material { mover: 1, other: 1 }, Material { mover: 2, other: 3 }] {
            let mut seen = 0;
            for_each_position(material, |idx, mover, other| {
                assert_eq!(idx, seen);
                seen += 1;
                assert_eq!(mover & other, 0);
                assert_eq!(index(mover, other), idx);
                assert_eq!(unindex(idx, material), (mover, other));
            });
            assert_eq!(seen, material.positions());
            let per = per_mover_set(material);
            let mut pieces = Vec::new();
            for_each_position_in(material, 7..19, |idx, mover, other| pieces.push((idx, mover, other)));
            assert_eq!(pieces.len() as u64, 12 * per);
            for (k, &(idx, mover, other)) in pieces.iter().enumerate() {
                assert_eq!(idx, 7 * per + k as u64);
                assert_eq!(unindex(idx, material), (mover, other));
            }
        }
    }

    #[test]
    fn flip_is_an_involution() {
        assert_eq!(flip(1), 1 << 20);
        assert_eq!(flip(1 << 12), 1 << 12);
        for b in [0x1234567u32 & FULL, FULL, 0b10101 << 5] {
            assert_eq!(flip(flip(b)), b);
            assert_eq!(flip(b).count_ones(), b.count_ones());
        }
    }

    #[test]
    fn file_names() {
        let m = Material::new(3, 2).unwrap();
        assert_eq!(m.file_name(), "alq-3v2.ltb");
        assert_eq!(Material::from_file_name("alq-3v2.ltb"), Some(m));
        assert_eq!(Material::from_file_name("alq-0v2.ltb"), None);
    }
}
