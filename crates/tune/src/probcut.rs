//! Fitting ProbCut as Buro did: search many positions to a shallow and a
//! deep depth, and fit `v_deep = a · v_shallow + b` by least squares, per
//! depth pair and (Multi-ProbCut) per game phase. The residuals' standard
//! deviation σ sets how far above β the shallow score must be for a cut
//! (see [`fianchetto_search::pvs::probcut`]).
//!
//! One search per position gives every depth: iterative deepening reports
//! the exact score of each completed iteration, and the score of iteration
//! `d` is the depth-`d` value (with the table and history of the shallower
//! iterations, as inside the real search). The searches run with ProbCut
//! off, so that the fit does not measure itself. Mate scores, and pairs
//! where either score is beyond ±[`FitConfig::max_score`], are left out:
//! ProbCut decides around ordinary values of β.
//!
//! ```
//! use fianchetto_tune::probcut::least_squares;
//! // Points on v = 0.9 x + 12 exactly.
//! let points: Vec<(f64, f64)> = (0..20).map(|i| (i as f64 * 10.0, i as f64 * 9.0 + 12.0)).collect();
//! let fit = least_squares(&points).unwrap();
//! assert!((fit.a - 0.9).abs() < 1e-9 && (fit.b - 12.0).abs() < 1e-9 && fit.sigma < 1e-9);
//! assert!((fit.r2 - 1.0).abs() < 1e-12);
//! ```

use crate::datagen::{play_game, DatagenConfig};
use fianchetto_board::{Bitboards, Board};
use fianchetto_data::games::Filter;
use fianchetto_data::positions::for_each_position;
pub use fianchetto_data::positions::PositionsError;
use fianchetto_eval::Classical;
use fianchetto_movegen::Game;
use fianchetto_search::pvs::probcut::{phase_bucket, ProbCutFit, PHASES};
use fianchetto_search::pvs::{Pvs, PvsConfig};
use fianchetto_search::{Bound, Limits, Search};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A least-squares line `y = a · x + b` and how well it fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineFit {
    /// Slope.
    pub a: f64,
    /// Intercept.
    pub b: f64,
    /// Standard deviation of the residuals (divided by n − 2).
    pub sigma: f64,
    /// Coefficient of determination.
    pub r2: f64,
    /// Number of points.
    pub n: usize,
}

/// The ordinary least-squares line through `points` (`(x, y)`); `None`
/// with fewer than 3 points or when every x is the same.
pub fn least_squares(points: &[(f64, f64)]) -> Option<LineFit> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let nf = n as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(sx, sy), &(x, y)| (sx + x / nf, sy + y / nf));
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for &(x, y) in points {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
        syy += (y - my) * (y - my);
    }
    if sxx <= 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let sse: f64 = points.iter().map(|&(x, y)| (y - a * x - b).powi(2)).sum();
    let sigma = (sse / (nf - 2.0)).sqrt();
    let r2 = if syy > 0.0 { 1.0 - sse / syy } else { 1.0 };
    Some(LineFit { a, b, sigma, r2, n })
}

/// What a fit run does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FitConfig {
    /// The depth pairs `(shallow, deep)`.
    pub pairs: Vec<(i32, i32)>,
    /// Scores beyond ± this (centipawns) are left out.
    pub max_score: i32,
    /// Hash table per searcher, MB.
    pub hash_mb: usize,
    /// Positions searched at once.
    pub threads: usize,
    /// Draw a progress bar on standard error.
    pub progress: bool,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            pairs: vec![(1, 4), (2, 5), (3, 6), (4, 7), (5, 8), (6, 9)],
            max_score: 1_000,
            hash_mb: 16,
            threads: 1,
            progress: false,
        }
    }
}

/// Parses `2:6,3:7,…` into depth pairs.
///
/// ```
/// use fianchetto_tune::probcut::parse_pairs;
/// assert_eq!(parse_pairs("2:6, 3:7"), Ok(vec![(2, 6), (3, 7)]));
/// assert!(parse_pairs("6:2").is_err());
/// assert!(parse_pairs("2-6").is_err());
/// ```
pub fn parse_pairs(text: &str) -> Result<Vec<(i32, i32)>, String> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let parsed = item.split_once(':').and_then(|(s, d)| {
            Some((s.trim().parse::<i32>().ok()?, d.trim().parse::<i32>().ok()?))
        });
        match parsed {
            Some((s, d)) if s >= 1 && d > s && d <= 40 => out.push((s, d)),
            _ => {
                return Err(format!(
                    "`{item}` is not a depth pair SHALLOW:DEEP with 1 <= SHALLOW < DEEP <= 40"
                ))
            }
        }
    }
    if out.is_empty() {
        return Err("no depth pair given".into());
    }
    Ok(out)
}

/// One position's scores: `scores[d]` the exact score (side to move,
/// centipawns) of iteration `d`, `None` for mates and missing depths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The phase bucket of the position.
    pub phase: u8,
    /// Score by depth (index 0 unused).
    pub scores: Vec<Option<i32>>,
}

/// The searcher used for fitting: the default PVS with ProbCut off.
pub fn fit_searcher(hash_mb: usize) -> Pvs<Classical> {
    Pvs::with_config(
        Classical::default(),
        PvsConfig {
            threads: 1,
            hash_mb,
            probcut: false,
            ..PvsConfig::default()
        },
    )
}

/// Searches `board` to `max_depth` with `pvs` (cleared first) and records
/// every iteration's exact score.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_tune::probcut::{fit_searcher, observe};
/// let o = observe(&mut fit_searcher(1), &Bitboards::startpos(), 4);
/// assert_eq!(o.phase, 2);
/// assert!(o.scores[1..].iter().all(|s| s.is_some_and(|v| v.abs() < 100)));
/// ```
pub fn observe<S: Search<Bitboards>>(
    pvs: &mut S,
    board: &Bitboards,
    max_depth: i32,
) -> Observation {
    let mut scores = vec![None; max_depth.max(0) as usize + 1];
    pvs.clear();
    let game = Game::new(board.clone());
    pvs.search(
        &game,
        &Limits::depth(max_depth.max(1) as u32),
        &mut |info| {
            if info.bound == Bound::Exact && !info.score.is_decisive() {
                if let Some(slot) = scores.get_mut(info.depth as usize) {
                    *slot = Some(info.score.value());
                }
            }
        },
    );
    Observation {
        phase: phase_bucket(board) as u8,
        scores,
    }
}

/// Observes every position on `config.threads` threads.
pub fn observe_all(positions: &[Bitboards], config: &FitConfig) -> Vec<Observation> {
    let max_depth = config.pairs.iter().map(|p| p.1).max().unwrap_or(1);
    let bar = if config.progress {
        let bar = ProgressBar::new(positions.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} positions ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<(usize, Observation)>> = Mutex::new(Vec::with_capacity(positions.len()));
    std::thread::scope(|s| {
        for _ in 0..config.threads.max(1) {
            s.spawn(|| {
                let mut pvs = fit_searcher(config.hash_mb);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(board) = positions.get(i) else {
                        break;
                    };
                    let o = observe(&mut pvs, board, max_depth);
                    if let Ok(mut v) = out.lock() {
                        v.push((i, o));
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut v = out.into_inner().unwrap_or_default();
    v.sort_by_key(|(i, _)| *i);
    v.into_iter().map(|(_, o)| o).collect()
}

/// The fit of one depth pair in one phase bucket (`None`: all phases).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairFit {
    /// The shallow depth.
    pub shallow: i32,
    /// The deep depth.
    pub deep: i32,
    /// The phase bucket, `None` for all positions together.
    pub phase: Option<u8>,
    /// The line.
    pub fit: LineFit,
}

/// Fits every pair of `pairs`, for each phase bucket and for all together.
///
/// ```
/// use fianchetto_tune::probcut::{fit, format_table, Observation};
/// // Three endgame positions whose depth-4 score is twice the depth-2 one, plus 5.
/// let obs: Vec<Observation> = [10, 20, 40]
///     .iter()
///     .map(|&v| Observation { phase: 0, scores: vec![None, None, Some(v), None, Some(2 * v + 5)] })
///     .collect();
/// let fits = fit(&obs, &[(2, 4)], 1000);
/// assert_eq!(fits.len(), 2); // phase 0, and all phases
/// assert!((fits[0].fit.a - 2.0).abs() < 1e-9 && (fits[0].fit.b - 5.0).abs() < 1e-9);
/// assert!(format_table(&fits).contains("\n2 4 0 2.0000 5.00 0.00 1.0000 3\n"));
/// ```
pub fn fit(observations: &[Observation], pairs: &[(i32, i32)], max_score: i32) -> Vec<PairFit> {
    let mut out = Vec::new();
    for &(shallow, deep) in pairs {
        let mut all = Vec::new();
        let mut by_phase: Vec<Vec<(f64, f64)>> = vec![Vec::new(); PHASES];
        for o in observations {
            let get = |d: i32| o.scores.get(d as usize).copied().flatten();
            if let (Some(x), Some(y)) = (get(shallow), get(deep)) {
                if x.abs() <= max_score && y.abs() <= max_score {
                    all.push((x as f64, y as f64));
                    if let Some(v) = by_phase.get_mut(o.phase as usize) {
                        v.push((x as f64, y as f64));
                    }
                }
            }
        }
        for (phase, points) in by_phase.iter().enumerate() {
            if let Some(f) = least_squares(points) {
                out.push(PairFit {
                    shallow,
                    deep,
                    phase: Some(phase as u8),
                    fit: f,
                });
            }
        }
        if let Some(f) = least_squares(&all) {
            out.push(PairFit {
                shallow,
                deep,
                phase: None,
                fit: f,
            });
        }
    }
    out
}

/// The fits as the search takes them (per phase only).
pub fn to_search_fits(fits: &[PairFit]) -> Vec<ProbCutFit> {
    fits.iter()
        .filter_map(|f| {
            f.phase.map(|phase| ProbCutFit {
                shallow: f.shallow,
                deep: f.deep,
                phase,
                a: f.fit.a as f32,
                b: f.fit.b as f32,
                sigma: f.fit.sigma as f32,
            })
        })
        .collect()
}

/// The table file: a header, then `shallow deep phase a b sigma r2 n` per
/// fit (phase `all` for every position together), the format
/// [`fianchetto_search::pvs::probcut::parse_fits`] reads.
pub fn format_table(fits: &[PairFit]) -> String {
    let mut s = String::from(
        "# ProbCut fit (fianchetto fit-probcut): v_deep = a * v_shallow + b, residual sd sigma\n\
         # phase: 0 endgame (non-pawn material 0-8), 1 (9-16), 2 opening/middlegame (17-24), all\n\
         # shallow deep phase a b sigma r2 n\n",
    );
    for f in fits {
        let phase = f.phase.map_or("all".to_string(), |p| p.to_string());
        let _ = writeln!(
            s,
            "{} {} {} {:.4} {:.2} {:.2} {:.4} {}",
            f.shallow, f.deep, phase, f.fit.a, f.fit.b, f.fit.sigma, f.fit.r2, f.fit.n
        );
    }
    s
}

/// Up to `count` positions spread evenly over a data file: marlinformat,
/// or FEN/EPD lines (anything after the position ignored), told apart by
/// content (see [`fianchetto_data::positions`]).
///
/// ```
/// use fianchetto_tune::probcut::read_positions;
/// let path = std::env::temp_dir().join(format!("positions-doc-{}.epd", std::process::id()));
/// std::fs::write(&path, "8/8/4k3/8/8/3NK3/8/8 w - - bm Nf4;\n4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\n")?;
/// assert_eq!(read_positions(&path, 10)?.len(), 2);
/// assert_eq!(read_positions(&path, 1)?.len(), 1);
/// # std::fs::remove_file(path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_positions(path: &Path, count: usize) -> Result<Vec<Bitboards>, PositionsError> {
    let mut all = Vec::new();
    for_each_position(path, |board, _| {
        all.push(board);
        Ok(true)
    })?;
    Ok(spread(all, count))
}

/// `count` items spread evenly over `all` (all of them if fewer).
fn spread<T>(all: Vec<T>, count: usize) -> Vec<T> {
    if all.len() <= count {
        return all;
    }
    let step = all.len() as f64 / count as f64;
    let mut picks = (0..count).map(|i| (i as f64 * step) as usize).peekable();
    all.into_iter()
        .enumerate()
        .filter_map(|(i, x)| {
            if picks.peek() == Some(&i) {
                picks.next();
                Some(x)
            } else {
                None
            }
        })
        .collect()
}

/// `count` positions of fresh self-play games (every fourth position of
/// games at a small node count, so that every phase is represented),
/// deterministic for a `seed`.
pub fn generate_positions(count: usize, seed: u64) -> Vec<Bitboards> {
    let config = DatagenConfig {
        soft_nodes: 2_000,
        hard_nodes: 40_000,
        hash_mb: 4,
        ..DatagenConfig::default()
    };
    let mut pvs = config.searcher(Classical::default());
    let mut out = Vec::with_capacity(count);
    let mut index = 0;
    while out.len() < count {
        let game = play_game(&mut pvs, &config, &[], None, seed, index, None);
        index += 1;
        let records = game.records(&Filter::default()).unwrap_or_default();
        for r in records.iter().step_by(4) {
            if let Ok(u) = r.unpack() {
                if let Ok(b) = Bitboards::from_setup(&u.setup) {
                    out.push(b);
                }
            }
        }
        if index > 10 * count as u64 + 10 {
            break;
        }
    }
    out.truncate(count);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate_inputs() {
        assert_eq!(least_squares(&[(1.0, 1.0), (2.0, 2.0)]), None);
        assert_eq!(least_squares(&[(1.0, 1.0), (1.0, 2.0), (1.0, 3.0)]), None);
        assert_eq!(spread(vec![1, 2, 3], 5), vec![1, 2, 3]);
        assert_eq!(spread((0..10).collect(), 5), vec![0, 2, 4, 6, 8]);
    }

    #[test]
    fn observations_and_table() {
        let boards = [
            Bitboards::startpos(),
            Bitboards::from_fen("8/5pk1/6p1/3R4/8/6P1/r4PK1/8 w - - 0 40").expect("valid"),
        ];
        let config = FitConfig {
            pairs: vec![(1, 3), (2, 4)],
            hash_mb: 1,
            ..FitConfig::default()
        };
        let obs = observe_all(&boards, &config);
        assert_eq!(obs.len(), 2);
        assert_eq!((obs[0].phase, obs[1].phase), (2, 0));
        assert!(obs
            .iter()
            .all(|o| o.scores[1..=4].iter().all(Option::is_some)));
        let text = format_table(&[PairFit {
            shallow: 2,
            deep: 6,
            phase: Some(1),
            fit: LineFit {
                a: 0.97,
                b: 3.0,
                sigma: 70.0,
                r2: 0.9,
                n: 100,
            },
        }]);
        let parsed = fianchetto_search::pvs::probcut::parse_fits(&text).expect("parses");
        assert_eq!(parsed.len(), 1);
        assert_eq!((parsed[0].deep, parsed[0].phase), (6, 1));
    }
}
