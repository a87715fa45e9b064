//! Texel tuning of the hand-crafted evaluation: fit every weight of a
//! [`Params`] set so that `sigmoid(K · eval)` predicts the results of the
//! games the positions come from.
//!
//! 1. **Data**: marlinformat files (our `datagen` output: the result is the
//!    game's, the score the search's) or EPD/FEN lines carrying a result
//!    (`c9 "1-0";`, `"1/2-1/2"`, `[0.5]`, `[1.0]`, … anywhere after the
//!    position). Only quiet positions are kept: not in check, with legal
//!    moves, and no capture that wins material by static exchange nor any
//!    promotion (the static evaluation cannot see those); dead draws by
//!    material are dropped too (no weight changes their score).
//! 2. **Traces**: each position is evaluated once with
//!    [`fianchetto_eval::trace`], which records how often every weight
//!    counts; from then on a position's score under any weights is a sparse
//!    dot product, and so is its gradient (the few non-linear terms, the
//!    king attack product and the endgame scale, are differentiated exactly;
//!    the weights that decide the game phase are held constant).
//! 3. **K**: the scaling constant of the sigmoid is fitted first, by a
//!    coarse scan then a golden-section search over log K, minimising the
//!    error of the starting weights ([`fit_k`]).
//! 4. **Weights**: the mean squared error
//!    `mean((sigmoid(K · eval(w)) − result)²)` is minimised by Adam over
//!    mini-batches, every epoch visiting every position once in a seeded
//!    random order, the learning rate falling linearly to a tenth over the
//!    run. The tuned weights are rounded to integers.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::Params;
//! use fianchetto_tune::texel::{self, Sample, TexelConfig};
//!
//! // Two positions, white a rook up: the game results say white won.
//! let params = Params::classical();
//! let samples: Vec<Sample> = ["4k3/8/8/8/8/8/PPP5/R3K3 w - - 0 1", "4k3/8/8/8/8/8/PP6/R3K3 b - - 0 1"]
//!     .iter()
//!     .map(|fen| Sample::new(&params, &Bitboards::from_fen(fen).unwrap(), 1.0))
//!     .collect();
//! let config = TexelConfig { epochs: 20, k: Some(0.004), ..TexelConfig::default() };
//! let tuned = texel::train(&samples, &params, &config, |_| {});
//! assert!(tuned.final_error < tuned.initial_error);
//! ```

use fianchetto_board::{Bitboards, Board};
use fianchetto_data::marlin::Wdl;
use fianchetto_data::positions::{for_each_position, Annotation, PositionsError};
use fianchetto_eval::trace::{is_fixed, trace, EvalTrace};
use fianchetto_eval::Params;
use fianchetto_movegen::MoveGen;
use fianchetto_search::see::see_ge;
use indicatif::{ProgressBar, ProgressStyle};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};

/// What went wrong reading Texel data.
#[derive(Debug, thiserror::Error)]
pub enum TexelError {
    /// A data file could not be read, or holds something that is not a
    /// position (the error names the file and the record or line).
    #[error(transparent)]
    Positions(#[from] PositionsError),
    /// No quiet position with a result was found.
    #[error(
        "no usable position in the data (every position was filtered out or the files are empty)"
    )]
    Empty,
}

/// One training position: its trace, the game's result and (from
/// marlinformat data) the search score, all from white's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The evaluation's trace.
    pub trace: EvalTrace,
    /// The result: 1 white won, 0.5 draw, 0 black won.
    pub result: f32,
    /// The search score in centipawns, when the data has one.
    pub score: Option<f32>,
}

impl Sample {
    /// A sample of `board` with `result` (white's view), traced under `params`.
    pub fn new<B: Board>(params: &Params, board: &B, result: f32) -> Sample {
        Sample {
            trace: trace(params, board),
            result,
            score: None,
        }
    }
}

/// How data files are read.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Stop after this many usable positions (over all files).
    pub max_positions: Option<usize>,
    /// Keep only quiet positions (see the [module documentation](self)).
    pub quiet_only: bool,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            max_positions: None,
            quiet_only: true,
        }
    }
}

/// What loading did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    /// Positions read.
    pub read: u64,
    /// Dropped as not quiet (check, winning capture, promotion, no moves).
    pub not_quiet: u64,
    /// Dropped as dead draws by material.
    pub dead_draws: u64,
    /// Kept.
    pub kept: u64,
}

/// Whether `board` is quiet enough for a static evaluation to stand for it.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_tune::texel::is_quiet;
/// assert!(is_quiet(&Bitboards::startpos()));
/// // The d5 queen hangs to the e4 pawn.
/// assert!(!is_quiet(&Bitboards::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1")?));
/// # Ok::<(), fianchetto_board::FenError>(())
/// ```
pub fn is_quiet(board: &Bitboards) -> bool {
    if board.in_check() {
        return false;
    }
    let moves = board.legal_moves();
    !moves.is_empty()
        && !moves
            .iter()
            .any(|&mv| mv.is_promotion() || (!mv.is_quiet() && see_ge(board, mv, 1)))
}

/// A game result among the words after a position: `"1-0"`, `0-1`,
/// `1/2-1/2` (quoted or not, `;` allowed), or a number in brackets
/// (`[1.0]`, `[0.5]`, `[0]`, also `[1-0]`), white's point of view.
///
/// ```
/// use fianchetto_tune::texel::parse_result;
/// assert_eq!(parse_result(r#"c9 "1-0";"#), Some(1.0));
/// assert_eq!(parse_result("[0.5]"), Some(0.5));
/// assert_eq!(parse_result(r#"bm e4; c9 "1/2-1/2";"#), Some(0.5));
/// assert_eq!(parse_result("[0-1]"), Some(0.0));
/// assert_eq!(parse_result("bm e4;"), None);
/// ```
pub fn parse_result(text: &str) -> Option<f32> {
    let named = |t: &str| match t {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" | "½-½" => Some(0.5),
        _ => None,
    };
    if let Some(open) = text.find('[') {
        let inner = text[open + 1..].split(']').next().unwrap_or("").trim();
        if let Some(r) = named(inner) {
            return Some(r);
        }
        if let Ok(v) = inner.parse::<f32>() {
            if (0.0..=1.0).contains(&v) {
                return Some(v);
            }
        }
    }
    text.split(|c: char| c.is_whitespace() || c == ';' || c == '"' || c == ',')
        .find_map(named)
}

/// Loads the samples of the data files `paths` (marlinformat or EPD, told
/// apart by content), traced under `params`.
///
/// ```
/// use fianchetto_eval::Params;
/// use fianchetto_tune::texel::{load, LoadOptions};
///
/// let path = std::env::temp_dir().join(format!("texel-doc-{}.epd", std::process::id()));
/// std::fs::write(&path, "4k3/8/8/8/8/8/PPP5/R3K3 w - - c9 \"1-0\";\n4k3/pp6/8/8/8/8/8/4K3 w - - [0.0]\n")?;
/// let (samples, stats) = load(&[path.clone()], &Params::classical(), &LoadOptions::default())?;
/// assert_eq!((samples.len(), stats.read), (2, 2));
/// assert_eq!((samples[0].result, samples[1].result), (1.0, 0.0));
/// # std::fs::remove_file(path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn load(
    paths: &[PathBuf],
    params: &Params,
    options: &LoadOptions,
) -> Result<(Vec<Sample>, LoadStats), TexelError> {
    let mut samples = Vec::new();
    let mut stats = LoadStats::default();
    let full = |samples: &Vec<Sample>| options.max_positions.is_some_and(|m| samples.len() >= m);
    // Keeps `board` if it passes the filters.
    let consider = |board: Bitboards,
                    result: f32,
                    score: Option<f32>,
                    samples: &mut Vec<Sample>,
                    stats: &mut LoadStats| {
        stats.read += 1;
        if options.quiet_only && !is_quiet(&board) {
            stats.not_quiet += 1;
            return;
        }
        let t = trace(params, &board);
        if t.draw {
            stats.dead_draws += 1;
            return;
        }
        stats.kept += 1;
        samples.push(Sample {
            trace: t,
            result,
            score,
        });
    };
    for path in paths {
        if full(&samples) {
            break;
        }
        for_each_position(path, |board, annotation| {
            let (result, score) = match annotation {
                Annotation::Text { line, rest } => {
                    let result = parse_result(rest).ok_or_else(|| {
                        PositionsError::line(
                            path,
                            line,
                            "no game result (expected e.g. c9 \"1-0\"; or [0.5])",
                        )
                    })?;
                    (result, None)
                }
                Annotation::Record { score, wdl } => {
                    let result = match wdl {
                        Wdl::WhiteWin => 1.0,
                        Wdl::Draw => 0.5,
                        Wdl::BlackWin => 0.0,
                    };
                    (result, Some(f32::from(score)))
                }
            };
            consider(board, result, score, &mut samples, &mut stats);
            Ok(!full(&samples))
        })?;
    }
    if samples.is_empty() {
        return Err(TexelError::Empty);
    }
    Ok((samples, stats))
}

/// The logistic function `1 / (1 + e^(−k·x))`.
///
/// ```
/// use fianchetto_tune::texel::sigmoid;
/// assert_eq!(sigmoid(0.005, 0.0), 0.5);
/// assert!((sigmoid(0.005, 200.0) + sigmoid(0.005, -200.0) - 1.0).abs() < 1e-12);
/// ```
#[inline]
pub fn sigmoid(k: f64, x: f64) -> f64 {
    1.0 / (1.0 + (-k * x).exp())
}

/// Runs `f` on `threads` chunks of `items` and sums what they return.
fn par_sum<T: Sync, R: Send + Default + std::ops::AddAssign>(
    items: &[T],
    threads: usize,
    f: impl Fn(&[T]) -> R + Sync,
) -> R {
    let threads = threads.clamp(1, 64);
    if threads == 1 || items.len() < 4096 {
        return f(items);
    }
    let chunk = items.len().div_ceil(threads);
    let mut total = R::default();
    std::thread::scope(|s| {
        let handles: Vec<_> = items.chunks(chunk).map(|c| s.spawn(|| f(c))).collect();
        for h in handles {
            if let Ok(r) = h.join() {
                total += r;
            }
        }
    });
    total
}

/// The training targets: the result, mixed with the search score's
/// prediction where `lambda` < 1 and the sample has a score.
fn targets(samples: &[Sample], k: f64, lambda: f64) -> Vec<f64> {
    samples
        .iter()
        .map(|s| match s.score {
            Some(score) if lambda < 1.0 => {
                lambda * s.result as f64 + (1.0 - lambda) * sigmoid(k, score as f64)
            }
            _ => s.result as f64,
        })
        .collect()
}

/// The mean squared error of `sigmoid(k · eval(weights))` against the
/// samples' results.
pub fn mean_squared_error(samples: &[Sample], weights: &[f64], k: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum = par_sum(samples, threads, |chunk| {
        chunk
            .iter()
            .map(|s| {
                let d = sigmoid(k, s.trace.white_eval(weights)) - s.result as f64;
                d * d
            })
            .sum::<f64>()
    });
    sum / samples.len() as f64
}

/// The K that minimises [`mean_squared_error`] for `weights`: a scan of
/// log K over [1e−4, 0.1], then a golden-section search around the best.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_eval::{Params, Preset};
/// use fianchetto_tune::texel::{fit_k, mean_squared_error, sigmoid, Sample};
///
/// // Results drawn exactly from sigmoid(0.004 * eval): the fit finds 0.004.
/// let params = Params::classical();
/// let samples: Vec<Sample> = ["4k3/8/8/8/8/8/PPP5/R3K3 w - - 0 1", "4k3/pp6/8/8/8/8/8/4K3 w - - 0 1",
///                             "4k3/8/8/8/8/8/P7/4K3 w - - 0 1"]
///     .iter()
///     .map(|fen| {
///         let b = Bitboards::from_fen(fen).unwrap();
///         let e = Preset::Classical.breakdown(&b).white_score as f64;
///         Sample::new(&params, &b, sigmoid(0.004, e) as f32)
///     })
///     .collect();
/// let w: Vec<f64> = params.to_vec().into_iter().map(f64::from).collect();
/// let k = fit_k(&samples, &w, 1);
/// assert!((k / 0.004 - 1.0).abs() < 0.05, "{k}");
/// assert!(mean_squared_error(&samples, &w, k, 1) < 1e-4);
/// ```
pub fn fit_k(samples: &[Sample], weights: &[f64], threads: usize) -> f64 {
    // The evaluations do not change with K: compute them once.
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (s.trace.white_eval(weights), s.result as f64))
        .collect();
    let error = |log_k: f64| {
        let k = 10f64.powf(log_k);
        par_sum(&evals, threads, |c| {
            c.iter()
                .map(|&(e, r)| (sigmoid(k, e) - r).powi(2))
                .sum::<f64>()
        })
    };
    let (lo, hi, steps) = (-4.0, -1.0, 60);
    let step = (hi - lo) / steps as f64;
    let best = (0..=steps)
        .map(|i| lo + step * i as f64)
        .map(|x| (x, error(x)))
        .fold((lo, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a });
    let (mut a, mut b) = (best.0 - step, best.0 + step);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (error(c), error(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = error(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = error(d);
        }
    }
    10f64.powf((a + b) / 2.0)
}

/// The settings of a Texel run.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelConfig {
    /// Passes over the data.
    pub epochs: usize,
    /// Adam's step size at the start, in centipawns (it falls linearly to a
    /// tenth of this by the last epoch).
    pub learning_rate: f64,
    /// Positions per gradient step (0: all of them, plain gradient descent).
    pub batch_size: usize,
    /// Threads computing gradients and errors.
    pub threads: usize,
    /// The sigmoid's scale; `None`: fitted first with [`fit_k`].
    pub k: Option<f64>,
    /// Weight of the game result in the target (1: the result alone, the
    /// classic Texel method; below 1, marlinformat samples mix in the
    /// search score's prediction).
    pub lambda: f64,
    /// Which weights may change, by flat index (`None`: every weight but
    /// the phase weights the trace holds constant).
    pub trainable: Option<Vec<bool>>,
    /// Seed of the batch order.
    pub seed: u64,
    /// Draw a progress bar on standard error.
    pub progress: bool,
}

impl Default for TexelConfig {
    fn default() -> TexelConfig {
        TexelConfig {
            epochs: 200,
            learning_rate: 1.0,
            batch_size: 16_384,
            threads: 1,
            k: None,
            lambda: 1.0,
            trainable: None,
            seed: 0,
            progress: false,
        }
    }
}

/// One epoch's report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// 1-based epoch number.
    pub epoch: usize,
    /// The mean squared error over all training samples after the epoch
    /// (against the training targets).
    pub error: f64,
    /// The error on the validation samples (against their results), when
    /// there are any.
    pub validation: Option<f64>,
}

/// What a Texel run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelOutcome {
    /// The tuned weights, rounded.
    pub params: Params,
    /// The tuned weights before rounding.
    pub weights: Vec<f64>,
    /// The sigmoid's scale used.
    pub k: f64,
    /// The error of the starting weights.
    pub initial_error: f64,
    /// The error after each epoch.
    pub errors: Vec<f64>,
    /// The error of the rounded weights.
    pub final_error: f64,
    /// The validation error before training and after each epoch (empty
    /// without validation samples).
    pub validation_errors: Vec<f64>,
    /// The epoch whose weights were kept: the last one, or with validation
    /// samples the one with the lowest validation error (0: the starting
    /// weights were best).
    pub best_epoch: usize,
}

/// The weights that always stay as they are: the phase weights, and the
/// endgame scales are kept within 0..=128.
fn default_trainable() -> Vec<bool> {
    (0..Params::LEN).map(|i| !is_fixed(i)).collect()
}

/// Tunes `init` on `samples`; `on_epoch` hears the error after each epoch.
pub fn train(
    samples: &[Sample],
    init: &Params,
    config: &TexelConfig,
    on_epoch: impl FnMut(Epoch),
) -> TexelOutcome {
    train_validated(samples, &[], init, config, on_epoch)
}

/// [`train`] with held-out samples: their error (against their game
/// results) is measured after every epoch, and the weights of the epoch
/// where it was lowest are the ones returned (early stopping), so that a
/// tune that starts to fit the training games' noise keeps its best point.
pub fn train_validated(
    samples: &[Sample],
    validation: &[Sample],
    init: &Params,
    config: &TexelConfig,
    mut on_epoch: impl FnMut(Epoch),
) -> TexelOutcome {
    let mut w: Vec<f64> = init.to_vec().into_iter().map(f64::from).collect();
    let threads = config.threads.max(1);
    let k = config.k.unwrap_or_else(|| fit_k(samples, &w, threads));
    let target = targets(samples, k, config.lambda);
    let trainable = match &config.trainable {
        Some(t) if t.len() == Params::LEN => t
            .iter()
            .zip(default_trainable())
            .map(|(&a, b)| a && b)
            .collect(),
        _ => default_trainable(),
    };
    let scale_weights: Vec<usize> = (0..Params::LEN)
        .filter(|&i| Params::name(i).is_some_and(|n| n.starts_with("scale_")))
        .collect();
    let error_of = |w: &[f64]| -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let indexed: Vec<usize> = (0..samples.len()).collect();
        par_sum(&indexed, threads, |c| {
            c.iter()
                .map(|&i| (sigmoid(k, samples[i].trace.white_eval(w)) - target[i]).powi(2))
                .sum::<f64>()
        }) / samples.len() as f64
    };
    let initial_error = error_of(&w);
    let validate = |w: &[f64]| mean_squared_error(validation, w, k, threads);
    let mut validation_errors = Vec::new();
    let mut best = (0, f64::INFINITY, w.clone());
    if !validation.is_empty() {
        let v = validate(&w);
        validation_errors.push(v);
        best = (0, v, w.clone());
    }

    let bar = if config.progress {
        let bar = ProgressBar::new(config.epochs as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} epoch {pos}/{len} ETA {eta} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };

    let n = samples.len();
    let batch = if config.batch_size == 0 {
        n.max(1)
    } else {
        config.batch_size.min(n.max(1))
    };
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let (beta1, beta2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; Params::LEN];
    let mut v = vec![0.0; Params::LEN];
    let mut t = 0i32;
    let mut errors = Vec::with_capacity(config.epochs);
    let total_steps = (config.epochs * n.div_ceil(batch)).max(1) as f64;
    for epoch in 1..=config.epochs {
        // Fisher-Yates with the seeded generator.
        for i in (1..n).rev() {
            let j = ((rng.next_u64() as u128 * (i as u128 + 1)) >> 64) as usize;
            order.swap(i, j);
        }
        for chunk in order.chunks(batch) {
            let grad = {
                let w = &w;
                let target = &target;
                par_sum(chunk, threads, |c| {
                    let mut g = GradSum(vec![0.0; Params::LEN]);
                    for &i in c {
                        let s = &samples[i];
                        let p = sigmoid(k, s.trace.white_eval(w));
                        // d/d eval of (p − y)²: 2 (p − y) · p (1 − p) · k.
                        let factor = 2.0 * (p - target[i]) * p * (1.0 - p) * k;
                        s.trace.add_gradient(w, factor, &mut g.0);
                    }
                    g
                })
                .0
            };
            t += 1;
            let progress = t as f64 / total_steps;
            let lr = config.learning_rate * (1.0 - 0.9 * progress);
            let scale = 1.0 / chunk.len() as f64;
            let (c1, c2) = (1.0 - beta1.powi(t), 1.0 - beta2.powi(t));
            for i in 0..Params::LEN {
                if !trainable[i] || grad.len() != Params::LEN {
                    continue;
                }
                let g = grad[i] * scale;
                m[i] = beta1 * m[i] + (1.0 - beta1) * g;
                v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
                w[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
            for &i in &scale_weights {
                w[i] = w[i].clamp(0.0, 128.0);
            }
        }
        let error = error_of(&w);
        errors.push(error);
        let v = (!validation.is_empty()).then(|| validate(&w));
        if let Some(v) = v {
            validation_errors.push(v);
            if v < best.1 {
                best = (epoch, v, w.clone());
            }
        }
        bar.set_position(epoch as u64);
        bar.set_message(format!("error {error:.6}"));
        on_epoch(Epoch {
            epoch,
            error,
            validation: v,
        });
    }
    let best_epoch = if validation.is_empty() {
        config.epochs
    } else {
        w = best.2;
        best.0
    };
    bar.finish_and_clear();
    let mut params = init.clone();
    for (i, &x) in w.iter().enumerate() {
        if trainable[i] {
            params.set(i, x.round().clamp(i32::MIN as f64, i32::MAX as f64) as i32);
        }
    }
    let rounded: Vec<f64> = params.to_vec().into_iter().map(f64::from).collect();
    let final_error = error_of(&rounded);
    TexelOutcome {
        params,
        weights: w,
        k,
        initial_error,
        errors,
        final_error,
        validation_errors,
        best_epoch,
    }
}

/// A gradient being summed over threads.
#[derive(Default)]
struct GradSum(Vec<f64>);

impl std::ops::AddAssign for GradSum {
    fn add_assign(&mut self, other: GradSum) {
        if self.0.is_empty() {
            self.0 = other.0;
        } else {
            for (a, b) in self.0.iter_mut().zip(other.0) {
                *a += b;
            }
        }
    }
}

/// Which weights a list of names selects: each entry a weight name
/// (`bishop_pair[0]`), a group (`psqt`, every weight of the field) or a
/// group prefix with `*` (`mobility_*`). Unknown entries are returned as
/// the error.
///
/// ```
/// use fianchetto_eval::Params;
/// use fianchetto_tune::texel::select_weights;
/// let mask = select_weights("bishop_pair,mobility_*")?;
/// assert!(mask[Params::index_of("bishop_pair[1]").unwrap()]);
/// assert!(mask[Params::index_of("mobility_queen[3][0]").unwrap()]);
/// assert!(!mask[Params::index_of("psqt[0][8][0]").unwrap()]);
/// assert!(select_weights("bishop_pairs").is_err());
/// # Ok::<(), String>(())
/// ```
pub fn select_weights(list: &str) -> Result<Vec<bool>, String> {
    let mut mask = vec![false; Params::LEN];
    let groups = Params::groups();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let mut hit = false;
        if let Some(i) = Params::index_of(item) {
            mask[i] = true;
            hit = true;
        }
        for &(name, start, len) in &groups {
            let matches = match item.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => name == item,
            };
            if matches {
                mask[start..start + len].iter_mut().for_each(|m| *m = true);
                hit = true;
            }
        }
        if !hit {
            return Err(item.to_string());
        }
    }
    Ok(mask)
}

/// Writes the weights as `name value` lines (what [`Params::from_text`]
/// reads), with a header comment.
///
/// ```
/// use fianchetto_eval::Params;
/// use fianchetto_tune::texel::write_weights;
/// let path = std::env::temp_dir().join(format!("weights-doc-{}.txt", std::process::id()));
/// write_weights(&path, &Params::classical(), "tuned\nby hand")?;
/// let text = std::fs::read_to_string(&path)?;
/// assert!(text.starts_with("# tuned\n# by hand\npiece_value[0][0] "));
/// assert_eq!(Params::from_text(Params::zero(), &text)?, Params::classical());
/// # std::fs::remove_file(path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_weights(path: &Path, params: &Params, header: &str) -> std::io::Result<()> {
    let mut text = String::new();
    for line in header.lines() {
        text.push_str("# ");
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&params.to_text());
    std::fs::write(path, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_parse() {
        // (Splitting the line and telling text from records: `positions`.)
        assert_eq!(parse_result("c9 \"1-0\";"), Some(1.0));
        assert_eq!(parse_result("[0.0]"), Some(0.0));
        assert_eq!(parse_result("[2.0]"), None);
        assert_eq!(parse_result("1/2-1/2"), Some(0.5));
    }

    #[test]
    fn quiet_filter() {
        let quiet = Bitboards::startpos();
        assert!(is_quiet(&quiet));
        // White can take a free queen.
        let b = Bitboards::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").expect("valid");
        assert!(!is_quiet(&b));
        // In check.
        let b = Bitboards::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").expect("valid");
        assert!(!is_quiet(&b));
    }

    #[test]
    fn selection_by_group_and_prefix() {
        let all = select_weights("psqt").expect("known");
        assert_eq!(all.iter().filter(|&&m| m).count(), 6 * 64 * 2);
        assert_eq!(select_weights("nope"), Err("nope".to_string()));
    }
}
