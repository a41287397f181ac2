//! Tuning the evaluation on played games (Texel's method): every quiet position of a set of
//! finished games is labelled with the game's result for its side to move (1 a win, 0.5 a
//! draw, 0 a loss), the evaluation is turned into an expected result by a logistic curve, and
//! the weights are moved one step at a time, one weight after another, for as long as a step
//! lowers the mean squared error between the expected and the real results.
//!
//! No I/O: the caller reads the games (`ludus-cli tune` reads `arena --moves` records) and
//! prints the result.

use crate::eval::SearchGame;
use crate::params::Params;
use ludus_rules::{Outcome, Side};

/// One labelled position.
#[derive(Clone, Copy, Debug)]
pub struct Sample<P> {
    /// The position (quiet: its side to move has no capture).
    pub pos: P,
    /// The game's result for the side to move: 1 a win, 0.5 a draw, 0 a loss.
    pub result: f64,
}

/// The result of a finished game for `side`: 1 a win, 0.5 a draw, 0 a loss.
pub fn result_for(outcome: &Outcome, side: Side) -> f64 {
    result_of(outcome.winner, side)
}

/// The result for `side` of a game won by `winner` (`None`: a draw), as [`result_for`].
pub fn result_of(winner: Option<Side>, side: Side) -> f64 {
    match winner {
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// Whether a position is quiet enough to label: nothing to capture for the side to move (the
/// static evaluation of a position in the middle of an exchange says little).
pub fn is_quiet<P: SearchGame>(pos: &P, ctx: &P::Context) -> bool {
    let mut noisy = Vec::new();
    !pos.generate_noisy(ctx, &mut noisy) && noisy.is_empty()
}

/// The expected result of an evaluation of `cp` centi-soldiers for the side to move, with the
/// curve's steepness `k` (per 400 centi-soldiers, as the Elo scale).
#[inline]
pub fn expected(cp: i32, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * f64::from(cp) / 400.0))
}

/// The mean squared error of the evaluation with `params` over `samples`.
pub fn error<P: SearchGame>(samples: &[Sample<P>], ctx: &P::Context, params: &Params, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = s.result - expected(s.pos.evaluate(ctx, params), k);
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The steepness that fits the evaluation with `params` best (a golden-section search over
/// 0.05 to 10): the tuning then moves the weights at that steepness.
pub fn fit_k<P: SearchGame>(samples: &[Sample<P>], ctx: &P::Context, params: &Params) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, ctx, params, a) < error(samples, ctx, params, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Which weights a tuning moves: the names of [`crate::params::AlquerqueParams::weights_mut`] or
/// [`crate::params::LatrunculiParams::weights_mut`], one game's.
pub type Weights = fn(&mut Params) -> Vec<(&'static str, &mut i32)>;

/// The weights of Alquerque's evaluation.
pub fn alquerque_weights(p: &mut Params) -> Vec<(&'static str, &mut i32)> {
    p.alquerque.weights_mut()
}

/// The weights of Latrunculi's evaluation.
pub fn latrunculi_weights(p: &mut Params) -> Vec<(&'static str, &mut i32)> {
    p.latrunculi.weights_mut()
}

/// What a tuning pass did.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    /// The pass, from 1.
    pub number: usize,
    /// The error after it.
    pub error: f64,
    /// How many steps it kept.
    pub changes: usize,
}

/// Texel's local search: for each weight in turn, one `step` up, else one down, kept when the
/// error falls; passes repeat until one keeps nothing or `max_passes` have run. `report` is
/// called after every pass. Returns the tuned parameters and their error.
pub fn tune<P: SearchGame>(
    samples: &[Sample<P>],
    ctx: &P::Context,
    start: &Params,
    weights: Weights,
    k: f64,
    step: i32,
    max_passes: usize,
    mut report: impl FnMut(&Pass),
) -> (Params, f64) {
    let mut best = start.clone();
    let mut best_error = error(samples, ctx, &best, k);
    let count = weights(&mut best).len();
    for number in 1..=max_passes {
        let mut changes = 0;
        for i in 0..count {
            for delta in [step, -step] {
                let mut trial = best.clone();
                *weights(&mut trial)[i].1 += delta;
                let e = error(samples, ctx, &trial, k);
                if e < best_error {
                    best = trial;
                    best_error = e;
                    changes += 1;
                    break;
                }
            }
        }
        report(&Pass { number, error: best_error, changes });
        if changes == 0 {
            break;
        }
    }
    (best, best_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludus_rules::Reason;
    use ludus_rules::alquerque::Position;

    fn sample(s: &str, result: f64) -> Sample<Position> {
        Sample { pos: s.parse().unwrap(), result }
    }

    #[test]
    fn the_expected_result_is_a_fair_curve() {
        assert!((expected(0, 1.0) - 0.5).abs() < 1e-12);
        assert!((expected(400, 1.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expected(-400, 1.0) + expected(400, 1.0) - 1.0).abs() < 1e-12);
        let won = Outcome { winner: Some(Side::First), reason: Reason::NoPieces };
        assert_eq!(result_for(&won, Side::First), 1.0);
        assert_eq!(result_for(&won, Side::Second), 0.0);
    }

    #[test]
    fn tuning_moves_a_weight_towards_the_results() {
        // Positions where the side to move has the more advanced pieces, one piece up: if the
        // side to move always wins them, advancing pays more than the start weights say.
        let samples = vec![
            sample("5/5/1WWW1/5/B4 w", 1.0),
            sample("4B/5/1BBB1/5/5 b", 1.0),
            sample("5/2W2/W3W/5/B4 w", 1.0),
            sample("B4/5/1W1W1/5/B4 w", 0.5),
        ];
        let ctx = samples[0].pos.context();
        let start = Params::default();
        assert!(samples.iter().all(|s| is_quiet(&s.pos, &ctx)));
        let k = fit_k(&samples, &ctx, &start);
        let before = error(&samples, &ctx, &start, k);
        let mut passes = 0;
        let (tuned, after) = tune(&samples, &ctx, &start, alquerque_weights, k, 4, 3, |_| passes += 1);
        assert!(after < before, "{after} < {before}");
        assert!((1..=3).contains(&passes));
        assert_ne!(tuned.alquerque, start.alquerque);
        assert_eq!(tuned.latrunculi, start.latrunculi);
        assert_eq!(tuned.alquerque.piece, start.alquerque.piece, "the piece fixes the scale");
        assert_eq!(error(&samples, &ctx, &tuned, k), after);
    }

    #[test]
    fn a_position_with_a_capture_is_not_quiet() {
        let p: Position = "5/5/2B2/2W2/5 b".parse().unwrap();
        assert!(!is_quiet(&p, &p.context()));
        let q: Position = "B4/5/5/5/4W w".parse().unwrap();
        assert!(is_quiet(&q, &q.context()));
    }
}
