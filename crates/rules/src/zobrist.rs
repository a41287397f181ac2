//! Zobrist keys, generated at compile time from a fixed seed by [`crate::splitmix`] (the same
//! on every platform).

use crate::splitmix;

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        out[i] = splitmix::next(&mut state);
        i += 1;
    }
    out
}

/// Latrunculi: 4 piece kinds (red soldier, red king, black soldier, black king) x 128 squares.
pub(crate) static LATRUNCULI: [u64; 512] = keys::<512>(0x4C41_5452_554E_4355);
/// Alquerque: 2 sides x 25 points.
pub(crate) static ALQUERQUE: [u64; 50] = keys::<50>(0x414C_5155_4552_5155);
/// XORed in when the second player is to move.
pub(crate) const SIDE: u64 = 0xF3B1_7A3C_9D2E_4B61;
