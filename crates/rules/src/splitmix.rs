//! SplitMix64, the one mixer of the workspace: the Zobrist keys (made at compile time), the
//! search's tie-breaks and small generator, the puzzles' choice and the game's run seed all use
//! it. The same numbers on every platform; not for secrets.

/// The golden-ratio increment SplitMix64 adds to its state before each output.
pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a bijection of 64-bit words in which close inputs give unrelated
/// outputs.
#[inline]
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step of the SplitMix64 generator: advances `state` by [`GAMMA`] and returns the mixed
/// new state.
#[inline]
pub const fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GAMMA);
    mix(*state)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference outputs of SplitMix64 from seed 0 (Vigna's `splitmix64.c`).
    #[test]
    fn the_generator_gives_splitmix64s_reference_outputs() {
        let mut state = 0;
        let out = [next(&mut state), next(&mut state), next(&mut state)];
        assert_eq!(out, [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F]);
    }

    #[test]
    fn the_mixer_is_usable_at_compile_time() {
        const KEY: u64 = mix(1);
        assert_eq!(KEY, mix(1));
        assert_ne!(mix(1), mix(2));
    }
}
