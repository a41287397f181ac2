//! Zobrist keys, generated at compile time from a fixed seed (the same on every platform).

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
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
