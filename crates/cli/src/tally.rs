//! A match's score read as a strength difference: player A's wins, draws and losses, the score,
//! the Elo difference and its 95% interval (`arena` prints it for one match, `sum` for several).

/// Player A's results over a set of games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tally {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// A's mean points per game (0 to 1).
    pub score: f64,
    /// The 95% interval of the score: the normal approximation, or where every game went one
    /// way (it has no spread then) the exact (Clopper-Pearson) bound.
    pub low: f64,
    pub high: f64,
}

impl Tally {
    /// The tally of A's points in each game (1, 1/2 or 0). `None` without games.
    pub fn of(points: impl IntoIterator<Item = f64>) -> Option<Tally> {
        let points: Vec<f64> = points.into_iter().collect();
        if points.is_empty() {
            return None;
        }
        let n = points.len() as f64;
        let count = |p: f64| points.iter().filter(|&&x| x == p).count();
        let (wins, draws, losses) = (count(1.0), count(0.5), count(0.0));
        let score = points.iter().sum::<f64>() / n;
        let var = points.iter().map(|p| (p - score).powi(2)).sum::<f64>() / n;
        let se = (var / n).sqrt();
        let (low, high) = if wins == points.len() {
            (0.025f64.powf(1.0 / n), 1.0)
        } else if losses == points.len() {
            (0.0, 1.0 - 0.025f64.powf(1.0 / n))
        } else {
            ((score - 1.96 * se).max(0.0), (score + 1.96 * se).min(1.0))
        };
        Some(Tally { wins, draws, losses, score, low, high })
    }

    /// `+W =D -L  score S%  Elo E (95%: LO to HI)`.
    pub fn headline(&self) -> String {
        format!(
            "+{} ={} -{}  score {:.1}%  Elo {} (95%: {} to {})",
            self.wins,
            self.draws,
            self.losses,
            self.score * 100.0,
            fmt_elo(self.score),
            fmt_elo(self.low),
            fmt_elo(self.high)
        )
    }

    /// `E +/- M`: the Elo difference and half its interval (one-sided when a bound is infinite).
    pub fn margin(&self) -> String {
        if self.low > 0.0 && self.high < 1.0 {
            format!("{} +/- {:.0}", fmt_elo(self.score), (elo(self.high) - elo(self.low)) / 2.0)
        } else {
            format!("{} (one-sided)", fmt_elo(self.score))
        }
    }

    /// `+W =D -L`.
    pub fn wdl(&self) -> String {
        format!("+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// `by colour: A first +W =D -L; A second +W =D -L` for games given as A's points and whether A
/// had the first move.
pub fn by_colour(games: impl Iterator<Item = (f64, bool)> + Clone) -> String {
    let side = |a_first: bool| {
        Tally::of(games.clone().filter(|g| g.1 == a_first).map(|g| g.0))
            .map_or("+0 =0 -0".to_string(), |t| t.wdl())
    };
    format!("by colour: A first {}; A second {}", side(true), side(false))
}

/// The Elo difference of a score.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    // Plus zero: an even score reads +0, not -0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

fn fmt_elo(score: f64) -> String {
    if score >= 1.0 {
        "+inf".to_string()
    } else if score <= 0.0 {
        "-inf".to_string()
    } else {
        format!("{:+.0}", elo(score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_reads_a_score_as_elo() {
        // Three in four: +191.
        let t = Tally::of([1.0, 1.0, 1.0, 0.0].repeat(10)).unwrap();
        assert_eq!((t.wins, t.draws, t.losses), (30, 0, 10));
        assert!(t.headline().starts_with("+30 =0 -10  score 75.0%  Elo +191 (95%: +"), "{}", t.headline());
        assert!(t.low < 0.75 && t.high > 0.75);
        // Every game won: the exact bound, the upper end infinite.
        let all = Tally::of([1.0; 20]).unwrap();
        assert_eq!(all.high, 1.0);
        assert!(all.headline().ends_with("to +inf)"), "{}", all.headline());
        assert!(all.margin().ends_with("(one-sided)"));
        assert_eq!(Tally::of([0.5; 4]).unwrap().margin(), "+0 +/- 0");
        assert!(Tally::of([]).is_none());
        let games = [(1.0, true), (0.5, true), (0.0, false)];
        assert_eq!(by_colour(games.into_iter()), "by colour: A first +1 =1 -0; A second +0 =0 -1");
        assert_eq!(by_colour([(1.0, true)].into_iter()), "by colour: A first +1 =0 -0; A second +0 =0 -0");
    }
}
