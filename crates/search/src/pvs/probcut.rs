//! ProbCut's numbers: Buro's regression of a deep search's score on a
//! shallow one's, and the fixed margin that came before it.
//!
//! Buro (ProbCut, 1995; Multi-ProbCut, 1997) observed that a search's value
//! at depth `d` is well predicted by its value at a shallower depth `d'`:
//! `v_d ≈ a · v_d' + b`, with normally distributed residuals of standard
//! deviation `σ`. At a node searched to depth `d` with window bound β, if
//! the shallow value makes `v_d ≥ β` likely with probability at least `p`,
//! that is
//!
//! ```text
//! a · v_d' + b − t · σ ≥ β      with t = Φ⁻¹(p),
//! ⇔ v_d' ≥ (β + t · σ − b) / a
//! ```
//!
//! the node is cut after the shallow search alone. Multi-ProbCut keeps a
//! separate fit for each depth pair and game phase: [`ProbCut::fits`] holds
//! one [`ProbCutFit`] per (depth pair, phase bucket), as
//! `fianchetto fit-probcut` measures them on self-play positions.
//!
//! The search probes the way Stockfish does: it tries the captures that win
//! enough material by static exchange, each searched to the shallow depth
//! (less the ply of the capture) with a null window at the threshold. A
//! capture's shallow score is a lower bound of the node's shallow score, so
//! a capture reaching the threshold proves Buro's condition for the node;
//! not trying the quiet moves only makes the test cut less often.
//!
//! Before the fit, the threshold was a fixed margin: `β + 200` at a shallow
//! depth three plies less than the node's (from depth 5 on). That rule is
//! kept, and is still the default: [`PvsConfig::probcut_fitted`](super::PvsConfig)
//! switches to the fitted one, which has not (yet) shown a gain in games
//! against it (see `docs/tuning.md`, "ProbCut"). The margin rule's three
//! numbers are search tunables (`probcut_margin`, `probcut_depth`,
//! `probcut_reduction` in [`SearchParams`]), so SPSA tunes them with the rest.
//!
//! ```
//! use fianchetto_search::pvs::{probcut, ProbCut, SearchParams};
//!
//! // The fixed margin as first written: beta + 200, probing 3 plies
//! // shallower, from depth 5 (the defaults are tuned values).
//! let params = SearchParams {
//!     probcut_margin: 200,
//!     probcut_depth: 5,
//!     probcut_reduction: 3,
//!     ..SearchParams::default()
//! };
//! assert_eq!(probcut::margin_threshold(&params, 7, 50), Some((4, 250)));
//! assert_eq!(probcut::margin_threshold(&params, 4, 50), None);
//! // The fitted rule: a probe depth and a threshold above beta.
//! let pc = ProbCut::default();
//! let (shallow, threshold) = pc.fitted_threshold(8, 2, 50).expect("fitted at depth 8");
//! assert!(shallow < 8 && threshold > 50);
//! ```

use super::SearchParams;
use std::hash::{Hash, Hasher};

/// One regression `v_deep = a · v_shallow + b` (centipawns, side to move),
/// with the residual standard deviation `sigma`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCutFit {
    /// The shallow depth d'.
    pub shallow: i32,
    /// The deep depth d.
    pub deep: i32,
    /// The phase bucket (see [`phase_bucket`]).
    pub phase: u8,
    /// Slope.
    pub a: f32,
    /// Intercept, centipawns.
    pub b: f32,
    /// Residual standard deviation, centipawns.
    pub sigma: f32,
}

/// The number of phase buckets of Multi-ProbCut.
pub const PHASES: usize = 3;

/// The phase bucket of a position from its non-pawn material, both sides
/// together, counting knights and bishops 1, rooks 2, queens 4 (24 at the
/// start): 0 for 0–8 (endgames), 1 for 9–16, 2 for 17 and more (openings
/// and middlegames).
///
/// ```
/// use fianchetto_search::pvs::probcut::{phase_bucket, phase_of_counts};
/// use fianchetto_board::{Bitboards, Board};
/// assert_eq!(phase_bucket(&Bitboards::startpos()), 2);
/// assert_eq!(phase_of_counts(2, 0, 2, 0), 6);
/// ```
pub fn phase_bucket<B: fianchetto_board::Board>(board: &B) -> usize {
    use fianchetto_board::{Color, Role};
    let n = |r: Role| {
        (board.pieces(Color::White, r).count() + board.pieces(Color::Black, r).count()) as i32
    };
    let phase = phase_of_counts(
        n(Role::Knight),
        n(Role::Bishop),
        n(Role::Rook),
        n(Role::Queen),
    );
    bucket_of_phase(phase)
}

/// The phase (0–24) of these piece counts, both sides together.
pub fn phase_of_counts(knights: i32, bishops: i32, rooks: i32, queens: i32) -> i32 {
    (knights + bishops + 2 * rooks + 4 * queens).min(24)
}

/// The bucket of a phase 0–24.
pub fn bucket_of_phase(phase: i32) -> usize {
    match phase {
        i32::MIN..=8 => 0,
        9..=16 => 1,
        _ => 2,
    }
}

/// The fitted rule's settings (the margin rule's numbers are
/// [`SearchParams`] tunables: see [`margin_threshold`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ProbCut {
    /// Fitted rule: the probability `p` that a cut is right (t = Φ⁻¹(p)).
    pub confidence: f32,
    /// Fitted rule: the regressions, by depth pair and phase bucket. A node
    /// deeper than every fit uses the deepest fit of its phase, probing as
    /// many plies shallower as that fit does.
    pub fits: Vec<ProbCutFit>,
}

impl Eq for ProbCut {}

impl Hash for ProbCut {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.confidence.to_bits().hash(state);
        for f in &self.fits {
            (f.shallow, f.deep, f.phase).hash(state);
            (f.a.to_bits(), f.b.to_bits(), f.sigma.to_bits()).hash(state);
        }
    }
}

impl Default for ProbCut {
    fn default() -> ProbCut {
        ProbCut {
            confidence: DEFAULT_CONFIDENCE,
            fits: DEFAULT_FITS.to_vec(),
        }
    }
}

/// The default cut probability of the fitted rule.
pub const DEFAULT_CONFIDENCE: f32 = 0.85;

/// Shorthand for the table below.
const fn fit(shallow: i32, deep: i32, phase: u8, a: f32, b: f32, sigma: f32) -> ProbCutFit {
    ProbCutFit {
        shallow,
        deep,
        phase,
        a,
        b,
        sigma,
    }
}

/// The regressions `fianchetto fit-probcut` measured (see `docs/tuning.md` for
/// the run): positions of the project's Classical self-play data, searched
/// by PVS with the Classical evaluation and ProbCut off.
pub const DEFAULT_FITS: &[ProbCutFit] = &[
    // shallow, deep, phase, a, b, sigma
    fit(2, 5, 0, 0.9306, -38.08, 128.62), // R² 0.8892, n 1264
    fit(2, 5, 1, 0.8836, -44.31, 149.21), // R² 0.7948, n 520
    fit(2, 5, 2, 0.7934, -29.59, 134.50), // R² 0.6918, n 1020
    fit(3, 6, 0, 0.9387, -44.93, 137.27), // R² 0.8732, n 1253
    fit(3, 6, 1, 0.8488, -40.17, 145.15), // R² 0.7936, n 520
    fit(3, 6, 2, 0.7722, -30.71, 129.76), // R² 0.6907, n 1021
    fit(4, 7, 0, 1.0077, -34.70, 119.66), // R² 0.9088, n 1255
    fit(4, 7, 1, 0.8823, -42.28, 134.05), // R² 0.8310, n 524
    fit(4, 7, 2, 0.7550, -39.31, 123.69), // R² 0.6960, n 1021
    fit(5, 8, 0, 1.0390, -23.10, 93.52),  // R² 0.9440, n 1245
    fit(5, 8, 1, 0.9215, -33.97, 108.78), // R² 0.8827, n 519
    fit(5, 8, 2, 0.7604, -37.93, 113.80), // R² 0.7285, n 1026
    fit(6, 9, 0, 1.0498, -8.76, 74.98),   // R² 0.9648, n 1238
    fit(6, 9, 1, 0.9800, -27.16, 81.94),  // R² 0.9369, n 522
    fit(6, 9, 2, 0.8593, -30.75, 82.07),  // R² 0.8512, n 1025
    fit(7, 10, 0, 1.0446, -3.24, 55.30),  // R² 0.9810, n 1233
    fit(7, 10, 1, 1.0167, -18.88, 61.71), // R² 0.9646, n 520
    fit(7, 10, 2, 0.9369, -20.82, 72.86), // R² 0.8887, n 1028
    fit(8, 11, 0, 1.0520, -0.36, 50.09),  // R² 0.9846, n 1221
    fit(8, 11, 1, 1.0373, -5.12, 55.43),  // R² 0.9719, n 519
    fit(8, 11, 2, 1.0028, -4.99, 54.31),  // R² 0.9436, n 1031
];

/// The margin rule at `depth` with bound `beta`: the probe depth and the
/// score it must reach, `None` below `probcut_depth`.
pub fn margin_threshold(params: &SearchParams, depth: i32, beta: i32) -> Option<(i32, i32)> {
    (depth >= params.probcut_depth).then(|| {
        (
            depth - params.probcut_reduction,
            beta + params.probcut_margin,
        )
    })
}

impl ProbCut {
    /// The fit that applies at `depth` in `phase`: the one for that deep
    /// depth, else the deepest shallower one (its probe shifted down by the
    /// difference). `None` when no fit is as shallow as `depth`.
    pub fn fit_for(&self, depth: i32, phase: usize) -> Option<ProbCutFit> {
        let mut best: Option<ProbCutFit> = None;
        for f in self.fits.iter().filter(|f| f.phase as usize == phase) {
            if f.deep <= depth && f.shallow >= 1 && best.is_none_or_deeper(f) {
                best = Some(*f);
            }
        }
        best.map(|f| ProbCutFit {
            shallow: f.shallow + (depth - f.deep),
            deep: depth,
            ..f
        })
    }

    /// The fitted rule at `depth` in phase bucket `phase` with bound
    /// `beta`: the probe depth and the score the probe must reach,
    /// `ceil((β + t·σ − b) / a)` and never below β.
    pub fn fitted_threshold(&self, depth: i32, phase: usize, beta: i32) -> Option<(i32, i32)> {
        let f = self.fit_for(depth, phase)?;
        if f.a <= 0.0 || !f.a.is_finite() {
            return None;
        }
        let t = inverse_normal(self.confidence as f64);
        let x = (beta as f64 + t * f.sigma as f64 - f.b as f64) / f.a as f64;
        let threshold = x.ceil().clamp(-1e6, 1e6) as i32;
        Some((f.shallow, threshold.max(beta)))
    }

    /// `t = Φ⁻¹(confidence)`, the number of standard deviations of the cut.
    pub fn t(&self) -> f64 {
        inverse_normal(self.confidence as f64)
    }
}

/// A [`ProbCut`] ready for the search: the rule chosen, `t` computed once
/// and the fit of every depth and phase looked up in advance.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    fitted: bool,
    margin: i32,
    /// The shallowest depth either rule probes at.
    pub(crate) min_depth: i32,
    reduction: i32,
    /// `[depth][phase]`: probe depth, slope, and `t·σ − b`.
    table: Vec<[Option<(i32, f64, f64)>; PHASES]>,
}

/// Depths past this use the last row of the table.
const TABLE_DEPTHS: usize = 64;

impl Prepared {
    /// `pc` with the fitted rule (`fitted`) or the margin rule of `params`.
    pub(crate) fn new(pc: &ProbCut, fitted: bool, params: &SearchParams) -> Prepared {
        let t = if fitted { pc.t() } else { 0.0 };
        // The margin rule needs no table.
        let depths = if fitted { TABLE_DEPTHS as i32 } else { -1 };
        let table = (0..=depths)
            .map(|d| {
                let mut row = [None; PHASES];
                for (phase, slot) in row.iter_mut().enumerate() {
                    *slot = pc
                        .fit_for(d, phase)
                        .filter(|f| f.a > 0.0 && f.a.is_finite())
                        .map(|f| (f.shallow, f.a as f64, t * f.sigma as f64 - f.b as f64));
                }
                row
            })
            .collect();
        let min_depth = if fitted {
            pc.fits.iter().map(|f| f.deep).min().unwrap_or(i32::MAX)
        } else {
            params.probcut_depth
        };
        Prepared {
            fitted,
            margin: params.probcut_margin,
            min_depth,
            reduction: params.probcut_reduction,
            table,
        }
    }

    /// Whether the fitted rule needs the phase (the margin rule does not).
    #[inline]
    pub(crate) fn uses_phase(&self) -> bool {
        self.fitted
    }

    /// The probe depth and threshold at `depth` in `phase` with `beta`
    /// (see [`ProbCut::fitted_threshold`] and [`margin_threshold`]).
    #[inline]
    pub(crate) fn threshold(&self, depth: i32, phase: usize, beta: i32) -> Option<(i32, i32)> {
        if !self.fitted {
            return (depth >= self.min_depth)
                .then_some((depth - self.reduction, beta + self.margin));
        }
        let row = self.table.get((depth.max(0) as usize).min(TABLE_DEPTHS))?;
        let (shallow, a, offset) = row.get(phase).copied().flatten()?;
        let x = ((beta as f64 + offset) / a).ceil().clamp(-1e6, 1e6) as i32;
        // Beyond the table the fit's gap is kept.
        let shallow = shallow + (depth - TABLE_DEPTHS as i32).max(0);
        Some((shallow, x.max(beta)))
    }
}

/// `Option::is_none_or` spelled for the crate's minimum Rust version.
trait NoneOrDeeper {
    fn is_none_or_deeper(&self, f: &ProbCutFit) -> bool;
}

impl NoneOrDeeper for Option<ProbCutFit> {
    fn is_none_or_deeper(&self, f: &ProbCutFit) -> bool {
        match self {
            None => true,
            Some(b) => f.deep > b.deep,
        }
    }
}

/// The standard normal distribution function Φ(x), by the complementary
/// error function (Abramowitz and Stegun 7.1.26; absolute error < 1e−7).
pub fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-z * z).exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// Φ⁻¹(p) by bisection on [`normal_cdf`] (p clamped to [1e−6, 1 − 1e−6]).
///
/// ```
/// use fianchetto_search::pvs::probcut::inverse_normal;
/// assert!((inverse_normal(0.5)).abs() < 1e-6);
/// assert!((inverse_normal(0.975) - 1.959964).abs() < 1e-4);
/// ```
pub fn inverse_normal(p: f64) -> f64 {
    let p = if p.is_nan() {
        0.5
    } else {
        p.clamp(1e-6, 1.0 - 1e-6)
    };
    let (mut lo, mut hi) = (-6.0, 6.0);
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if normal_cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// A line of a ProbCut table file that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct ProbCutParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

/// Reads a table as `fianchetto fit-probcut` writes it: one fit per line,
/// `shallow deep phase a b sigma` followed by anything (R², sample count);
/// `#` comments and blank lines skipped; a phase of `all` is ignored (the
/// search uses the per-phase fits).
///
/// ```
/// use fianchetto_search::pvs::probcut::parse_fits;
/// let fits = parse_fits("# shallow deep phase a b sigma r2 n\n2 6 0 0.98 3.5 71.2 0.95 4000\n2 6 all 1 0 70 0.9 9000\n")?;
/// assert_eq!(fits.len(), 1);
/// assert_eq!((fits[0].shallow, fits[0].deep, fits[0].phase), (2, 6, 0));
/// assert!(parse_fits("2 6 0 x 1 1").is_err());
/// # Ok::<(), fianchetto_search::pvs::probcut::ProbCutParseError>(())
/// ```
pub fn parse_fits(text: &str) -> Result<Vec<ProbCutFit>, ProbCutParseError> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let bad = |why: &str| ProbCutParseError {
            line,
            why: why.to_string(),
        };
        let f: Vec<&str> = body.split_whitespace().collect();
        if f.len() < 6 {
            return Err(bad("expected `shallow deep phase a b sigma`"));
        }
        if f[2] == "all" {
            continue;
        }
        let int = |s: &str| {
            s.parse::<i32>()
                .map_err(|_| bad("depths and phase are integers"))
        };
        let real = |s: &str| {
            s.parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad("a, b and sigma are numbers"))
        };
        let (shallow, deep, phase) = (int(f[0])?, int(f[1])?, int(f[2])?);
        if shallow < 1 || deep <= shallow || deep > 64 {
            return Err(bad("need 1 <= shallow < deep <= 64"));
        }
        if !(0..PHASES as i32).contains(&phase) {
            return Err(bad("phase must be 0, 1 or 2"));
        }
        let (a, b, sigma) = (real(f[3])?, real(f[4])?, real(f[5])?);
        if a <= 0.0 || sigma < 0.0 {
            return Err(bad("need a > 0 and sigma >= 0"));
        }
        out.push(ProbCutFit {
            shallow,
            deep,
            phase: phase as u8,
            a,
            b,
            sigma,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_follow_the_formula() {
        let pc = ProbCut {
            confidence: 0.5,
            fits: vec![fit(2, 6, 1, 0.5, 10.0, 80.0), fit(3, 7, 1, 1.0, 0.0, 40.0)],
        };
        // p = 0.5: t = 0, threshold = (beta - b) / a, at least beta.
        assert_eq!(pc.fitted_threshold(6, 1, 110), Some((2, 200)));
        assert_eq!(pc.fitted_threshold(6, 1, -100), Some((2, -100)));
        // Deeper than every fit: the deepest, probing 4 plies shallower.
        assert_eq!(pc.fit_for(10, 1).map(|f| f.shallow), Some(6));
        assert_eq!(pc.fitted_threshold(5, 1, 0), None);
        assert_eq!(pc.fitted_threshold(7, 0, 0), None);
        let sure = ProbCut {
            confidence: 0.975,
            ..pc.clone()
        };
        let (_, t) = sure.fitted_threshold(7, 1, 100).expect("fitted");
        assert_eq!(t, (100.0f64 + 1.959_964 * 40.0).ceil() as i32);
    }

    #[test]
    fn normal_distribution() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.0) - 0.841_344_746).abs() < 1e-6);
        assert!((normal_cdf(-2.0) - 0.022_750_132).abs() < 1e-6);
        for p in [0.01, 0.2, 0.5, 0.8, 0.99] {
            assert!((normal_cdf(inverse_normal(p)) - p).abs() < 1e-6);
        }
    }

    #[test]
    fn phases() {
        assert_eq!(bucket_of_phase(phase_of_counts(4, 4, 4, 2)), 2);
        assert_eq!(bucket_of_phase(phase_of_counts(2, 2, 2, 2)), 1);
        assert_eq!(bucket_of_phase(phase_of_counts(0, 1, 2, 0)), 0);
        assert_eq!(bucket_of_phase(phase_of_counts(0, 0, 4, 0)), 0);
        assert_eq!(bucket_of_phase(phase_of_counts(1, 0, 4, 0)), 1);
    }
}
