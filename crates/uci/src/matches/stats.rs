//! The numbers of a match: wins, draws and losses, game pairs (the
//! pentanomial count), the Elo difference with its 95% interval, and the
//! sequential probability ratio test on game pairs that fishtest and
//! OpenBench use.
//!
//! ```
//! use fianchetto_uci::matches::{Sprt, Tally};
//! let mut tally = Tally::default();
//! for (first, second) in [(1.0, 0.5), (0.5, 0.5), (1.0, 1.0), (0.0, 0.5)] {
//!     tally.add_pair(first, second);
//! }
//! assert_eq!((tally.wins, tally.draws, tally.losses), (3, 4, 1));
//! assert_eq!(tally.pairs, [0, 1, 1, 1, 1]);
//! assert!((tally.score() - 0.625).abs() < 1e-9);
//! let (elo, lo, hi) = tally.elo_interval();
//! assert!(lo < elo && elo < hi);
//! let sprt = Sprt::new(0.0, 10.0);
//! assert!(sprt.llr(&tally).is_finite());
//! ```

/// Wins, draws and losses from the first engine's point of view, and the
/// game pairs by their total (0, ½, 1, 1½ or 2 points).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the first engine lost.
    pub losses: u64,
    /// Complete pairs (one opening with each engine playing white once)
    /// by the first engine's points: `pairs[k]` holds the pairs it scored
    /// `k / 2` points in.
    pub pairs: [u64; 5],
}

impl Tally {
    /// Counts one game that the first engine scored `points` in (1, ½ or 0).
    pub fn add_game(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Counts both games of a pair.
    pub fn add_pair(&mut self, first: f64, second: f64) {
        self.add_game(first);
        self.add_game(second);
        self.add_pair_only(first + second);
    }

    /// Counts a pair whose games are counted already.
    pub fn add_pair_only(&mut self, points: f64) {
        let k = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pairs[k] += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's share of the points (½ with no games).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (self.wins as f64 + 0.5 * self.draws as f64) / n as f64,
        }
    }

    /// The Elo difference that the score means, with a 95% interval from
    /// the spread of the game results (as cutechess-cli and match.py
    /// compute it): `(elo, low, high)`.
    pub fn elo_interval(&self) -> (f64, f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let variance = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let margin = 1.96 * (variance / n).sqrt();
        (elo(s), elo(s - margin), elo(s + margin))
    }
}

/// The Elo difference of an expected score (logistic model), kept finite
/// at 0 and 1.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A sequential probability ratio test between H0: the Elo difference is
/// `elo0`, and H1: it is `elo1`, on game pairs (the generalised SPRT of
/// fishtest's `LLR_logistic`: a normal approximation of the pentanomial
/// distribution).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1: the first engine is better by about `elo1`.
    H1,
    /// H0: it is not better than `elo0`.
    H0,
    /// Not yet decided.
    Continue,
}

impl Sprt {
    /// A test of `elo0` against `elo1` with α = β = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The bounds of the log-likelihood ratio: below the first, H0; above
    /// the second, H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pairs counted in `tally`.
    pub fn llr(&self, tally: &Tally) -> f64 {
        let n: u64 = tally.pairs.iter().sum();
        if n == 0 {
            return 0.0;
        }
        // Empty outcomes get a tiny count, as fishtest regularises them, so
        // that a short one-sided run still has a spread.
        let counts: Vec<f64> = tally
            .pairs
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let total: f64 = counts.iter().sum();
        let score = |k: usize| k as f64 / 4.0;
        let mean: f64 = counts
            .iter()
            .enumerate()
            .map(|(k, c)| c * score(k))
            .sum::<f64>()
            / total;
        let variance: f64 = counts
            .iter()
            .enumerate()
            .map(|(k, c)| c * (score(k) - mean).powi(2))
            .sum::<f64>()
            / total;
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Pairs before the test may decide. The normal approximation of the
    /// pentanomial needs a spread: after one pair of two wins, the
    /// regularised counts alone gave an LLR past the H1 bound.
    pub const MIN_PAIRS: u64 = 10;

    /// What the test says about `tally` (always [`Verdict::Continue`]
    /// before [`Sprt::MIN_PAIRS`] pairs).
    pub fn verdict(&self, tally: &Tally) -> Verdict {
        if tally.pairs.iter().sum::<u64>() < Sprt::MIN_PAIRS {
            return Verdict::Continue;
        }
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.01);
        assert!((expected_score(elo(0.3)) - 0.3).abs() < 1e-9);
        assert!(elo(1.0).is_finite() && elo(0.0).is_finite());
    }

    #[test]
    fn one_or_a_few_pairs_never_decide() {
        let sprt = Sprt::new(0.0, 10.0);
        let mut t = Tally::default();
        for _ in 0..Sprt::MIN_PAIRS - 1 {
            t.add_game(1.0);
            t.add_game(1.0);
            t.add_pair_only(2.0);
            // One pair of two wins alone gave an LLR past the H1 bound.
            assert_eq!(sprt.verdict(&t), Verdict::Continue);
        }
        t.add_game(1.0);
        t.add_game(1.0);
        t.add_pair_only(2.0);
        assert_eq!(sprt.verdict(&t), Verdict::H1);
    }

    #[test]
    fn the_sprt_decides_clear_cases_and_waits_on_even_ones() {
        let sprt = Sprt::new(0.0, 10.0);
        assert_eq!(sprt.bounds().0, (0.05f64 / 0.95).ln());
        let mut strong = Tally::default();
        let mut even = Tally::default();
        for i in 0..400 {
            // 60% of pairs won 1.5-0.5, the rest drawn.
            strong.add_pair(1.0, if i % 5 < 3 { 0.5 } else { 0.0 });
            even.add_pair(if i % 2 == 0 { 1.0 } else { 0.0 }, 0.5);
        }
        assert_eq!(sprt.verdict(&strong), Verdict::H1);
        assert!(sprt.llr(&even).abs() < sprt.bounds().1);
        let mut weak = Tally::default();
        for _ in 0..400 {
            weak.add_pair(0.0, 0.5);
        }
        assert_eq!(sprt.verdict(&weak), Verdict::H0);
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
    }

    #[test]
    fn the_interval_narrows_with_games() {
        let mut few = Tally::default();
        let mut many = Tally::default();
        for _ in 0..10 {
            few.add_pair(1.0, 0.5);
        }
        for _ in 0..1000 {
            many.add_pair(1.0, 0.5);
        }
        let (e1, lo1, hi1) = few.elo_interval();
        let (e2, lo2, hi2) = many.elo_interval();
        assert!((e1 - e2).abs() < 1e-9);
        assert!(hi2 - lo2 < hi1 - lo1);
    }
}
