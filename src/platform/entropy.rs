//! A seed that differs from one run of the game to the next, for the computer's choice between
//! moves of equal worth (so that two games against the same level do not repeat each other).
//! Not for secrets: the server makes those.

use ludus_rules::splitmix;

/// A seed that differs between runs: the operating system's hash keys and the clock on the
/// desktop, the page's random numbers and clock in the browser.
pub fn run_seed() -> u64 {
    mix(platform_bits())
}

#[cfg(not(target_arch = "wasm32"))]
fn platform_bits() -> [u64; 2] {
    use std::hash::{BuildHasher, RandomState};
    // `RandomState` is keyed from the operating system's random source once per process.
    let keyed = RandomState::new().hash_one(std::process::id());
    let clock = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or_default();
    [keyed, clock]
}

#[cfg(target_arch = "wasm32")]
fn platform_bits() -> [u64; 2] {
    // `Math.random` gives 52 random bits a call; `Date.now` separates pages opened together.
    let random = (js_sys::Math::random() * (1u64 << 52) as f64) as u64;
    let random2 = (js_sys::Math::random() * (1u64 << 52) as f64) as u64;
    [random ^ (random2 << 12), js_sys::Date::now() as u64]
}

/// SplitMix64's finaliser over the two words, so that close clocks give unrelated seeds.
fn mix([a, b]: [u64; 2]) -> u64 {
    splitmix::mix(a ^ b.rotate_left(32) ^ splitmix::GAMMA)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_inputs_give_unrelated_seeds() {
        let a = mix([1, 1_000_000]);
        let b = mix([1, 1_000_001]);
        assert_ne!(a, b);
        assert!((a ^ b).count_ones() > 10, "{a:x} {b:x}");
    }

    #[test]
    fn two_runs_differ() {
        // Two seeds taken in one process differ too (the clock moves, and the keys are drawn
        // anew for each `RandomState` after the first).
        assert_ne!(run_seed(), run_seed());
    }
}
