//! SPSA (Spall's simultaneous perturbation stochastic approximation) over
//! any named integer parameters: evaluation weights ([`Params`](fianchetto_eval::Params)), search
//! margins, anything implementing [`Tunable`].
//!
//! Each iteration `k` (0-based) draws a sign `Δᵢ = ±1` for every parameter
//! at once, builds two engines at `θ + c_k·Δ` and `θ − c_k·Δ`, lets them
//! play each other (game pairs from random openings, each engine playing
//! both colours; see [`crate::matches`]) and moves every parameter by
//!
//! ```text
//! θᵢ ← θᵢ + a_k · r / (2 · c_k · Δᵢ)
//! a_k = a / (A + k + 1)^α        c_k = c / (k + 1)^γ
//! ```
//!
//! where `r` is θ+'s score minus θ−'s over the iteration's games (each game
//! +1, 0 or −1): Spall's gradient estimate, ascended since we maximise the
//! match score. Values are clamped to each parameter's range; integer
//! parameters are rounded stochastically for the games (θ± share one random
//! offset, as OpenBench does), while θ itself stays fractional.
//!
//! **Exponents.** α = 0.602 and γ = 0.101 by default: the values Spall
//! recommends for practical use (the smallest that keep the asymptotic
//! guarantees), and what Fishtest and OpenBench use. Zanin's thesis writes
//! α = 0.601 and γ = 1/6, the theoretically optimal pair for the rate of
//! convergence; with the few thousand iterations a chess tune affords,
//! the slower-decaying 0.602/0.101 keeps the steps and perturbations larger
//! for longer, which is why practice prefers it. Both are settable.
//!
//! **Scales.** Each parameter has OpenBench's `c_end` (the perturbation at
//! the last iteration) and `r_end` (the learning rate there). With `N`
//! iterations and `A` = 0.1·N by default: `c = c_end · N^γ` (so that
//! `c_{N−1} = c_end`) and `a = 2 · r_end · c_end² · (A + N)^α`, the factor
//! 2 making our step (which divides by `2c_k`) equal to OpenBench's
//! `r_k · c_k · r · Δ` with `r_k = a_k / c_k²`. A global `a` or `c` given
//! in [`SpsaConfig`] replaces the per-parameter values.
//!
//! ```
//! use fianchetto_tune::spsa::{parse_params, Objective, Spsa, SpsaConfig};
//!
//! /// A noiseless toy: θ+ wins every game when it is nearer 7 than θ−.
//! struct NearSeven;
//! impl Objective for NearSeven {
//!     fn compare(&self, plus: &[f64], minus: &[f64], pairs: u32, _: u64) -> f64 {
//!         let d = (minus[0] - 7.0).abs() - (plus[0] - 7.0).abs();
//!         2.0 * pairs as f64 * d.signum()
//!     }
//! }
//!
//! let params = parse_params("x, int, 40, 0, 100, 2, 0.05")?;
//! let config = SpsaConfig { iterations: 300, pairs_per_iteration: 4, ..SpsaConfig::default() };
//! let mut spsa = Spsa::new(params, config)?;
//! spsa.run(&NearSeven, |_| {});
//! assert!((spsa.values()[0] - 7.0).abs() < 3.0);
//! # Ok::<(), fianchetto_tune::spsa::SpsaError>(())
//! ```

use crate::matches::{play_pair_games, MatchConfig, Openings};
use crate::plot::{write_svg_line_chart, PlotError, Series};
use fianchetto_board::Bitboards;
use fianchetto_eval::{Tunable, TunableError};
use fianchetto_search::Search;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// What is wrong with an SPSA input or setting.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    /// A line of the parameter file is malformed.
    #[error("line {line}: {why}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The parameter file lists no parameter.
    #[error("the parameter file lists no parameter")]
    Empty,
    /// A setting is impossible.
    #[error("{0}")]
    Config(String),
    /// The engine refused a parameter.
    #[error(transparent)]
    Tunable(#[from] TunableError),
}

/// One tuned parameter, as OpenBench's SPSA input describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// The parameter's name (what [`Tunable::set_value`] takes).
    pub name: String,
    /// Whether it is an integer (`int`) rather than a `float`.
    pub integer: bool,
    /// The current value θ.
    pub value: f64,
    /// The smallest value allowed.
    pub min: f64,
    /// The largest value allowed.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration.
    pub r_end: f64,
}

/// Parses an SPSA parameter file: one parameter per line in OpenBench's
/// format `name, int, value, min, max, c_end, r_end` (`float` instead of
/// `int` for a fractional parameter), or the same without the type
/// (`name, value, min, max, c_end, r_end`, taken as `int`). Blank lines and
/// `#` comments are skipped; an error names the line.
///
/// ```
/// use fianchetto_tune::spsa::parse_params;
/// let p = parse_params("# eval\nbishop_pair[0], int, 25, 0, 80, 4, 0.002\ntempo[0], 10, 0, 40, 2, 0.002\n")?;
/// assert_eq!((p[0].name.as_str(), p[0].value, p[1].max), ("bishop_pair[0]", 25.0, 40.0));
/// assert!(parse_params("x, int, 5, 10, 0, 1, 0.002").unwrap_err().to_string().starts_with("line 1:"));
/// # Ok::<(), fianchetto_tune::spsa::SpsaError>(())
/// ```
pub fn parse_params(text: &str) -> Result<Vec<SpsaParam>, SpsaError> {
    let mut out: Vec<SpsaParam> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let bad = |why: String| SpsaError::Line { line, why };
        let fields: Vec<&str> = body.split(',').map(str::trim).collect();
        let (name, integer, numbers) = match fields.len() {
            7 => {
                let integer = match fields[1].to_ascii_lowercase().as_str() {
                    "int" => true,
                    "float" => false,
                    other => return Err(bad(format!("type `{other}` is neither int nor float"))),
                };
                (fields[0], integer, &fields[2..])
            }
            6 => (fields[0], true, &fields[1..]),
            k => {
                return Err(bad(format!(
                    "expected `name, int, value, min, max, c_end, r_end`, found {k} fields"
                )))
            }
        };
        if name.is_empty() {
            return Err(bad("empty name".into()));
        }
        let mut v = [0.0; 5];
        for (slot, (text, what)) in v.iter_mut().zip(
            numbers
                .iter()
                .zip(["value", "min", "max", "c_end", "r_end"]),
        ) {
            *slot = text
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(format!("{what} `{text}` is not a number")))?;
        }
        let [value, min, max, c_end, r_end] = v;
        if min > max {
            return Err(bad(format!("min {min} is above max {max}")));
        }
        if !(min..=max).contains(&value) {
            return Err(bad(format!("value {value} is outside {min}..={max}")));
        }
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(bad("c_end and r_end must be positive".into()));
        }
        if out.iter().any(|p| p.name == name) {
            return Err(bad(format!("`{name}` is listed twice")));
        }
        out.push(SpsaParam {
            name: name.to_string(),
            integer,
            value,
            min,
            max,
            c_end,
            r_end,
        });
    }
    if out.is_empty() {
        return Err(SpsaError::Empty);
    }
    Ok(out)
}

/// The parameters in OpenBench's format, one `name, int, value, min, max,
/// c_end, r_end` line each (what [`parse_params`] reads; integer values
/// rounded).
pub fn format_params(params: &[SpsaParam]) -> String {
    let mut out = String::new();
    for p in params {
        let value = if p.integer {
            format!("{}", p.value.round())
        } else {
            format!("{}", p.value)
        };
        let _ = writeln!(
            out,
            "{}, {}, {}, {}, {}, {}, {}",
            p.name,
            if p.integer { "int" } else { "float" },
            value,
            p.min,
            p.max,
            p.c_end,
            p.r_end
        );
    }
    out
}

/// The settings of an SPSA run.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaConfig {
    /// Iterations N.
    pub iterations: u64,
    /// Game pairs per iteration (each pair: one opening, both colours).
    pub pairs_per_iteration: u32,
    /// The step's decay exponent α (Spall: 0.602).
    pub alpha: f64,
    /// The perturbation's decay exponent γ (Spall: 0.101).
    pub gamma: f64,
    /// The stability constant A (`None`: a tenth of the iterations).
    pub big_a: Option<f64>,
    /// A global step numerator a (`None`: per parameter, from `r_end`).
    pub a: Option<f64>,
    /// A global perturbation numerator c (`None`: per parameter, from `c_end`).
    pub c: Option<f64>,
    /// Seed of the signs, the roundings and the openings.
    pub seed: u64,
}

impl Default for SpsaConfig {
    fn default() -> SpsaConfig {
        SpsaConfig {
            iterations: 1_000,
            pairs_per_iteration: 8,
            alpha: 0.602,
            gamma: 0.101,
            big_a: None,
            a: None,
            c: None,
            seed: 0,
        }
    }
}

/// What an iteration measures: θ+ against θ−.
pub trait Objective: Sync {
    /// Plays `pairs` game pairs between an engine at `plus` and one at
    /// `minus` (values in the parameters' order) and returns θ+'s score
    /// minus θ−'s, summed over the games (each game +1, 0 or −1). `seed`
    /// differs from iteration to iteration.
    fn compare(&self, plus: &[f64], minus: &[f64], pairs: u32, seed: u64) -> f64;
}

/// One iteration's record.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The iteration number k (0-based).
    pub k: u64,
    /// The signs Δ.
    pub delta: Vec<i8>,
    /// The values θ+ played with.
    pub plus: Vec<f64>,
    /// The values θ− played with.
    pub minus: Vec<f64>,
    /// θ+'s score minus θ−'s.
    pub result: f64,
    /// θ after the update.
    pub values: Vec<f64>,
}

/// An SPSA run in progress.
#[derive(Clone, Debug)]
pub struct Spsa {
    params: Vec<SpsaParam>,
    config: SpsaConfig,
    a: Vec<f64>,
    c: Vec<f64>,
    big_a: f64,
    k: u64,
    rng: Xoshiro256PlusPlus,
}

impl Spsa {
    /// A run over `params` with `config`.
    pub fn new(params: Vec<SpsaParam>, config: SpsaConfig) -> Result<Spsa, SpsaError> {
        if params.is_empty() {
            return Err(SpsaError::Empty);
        }
        if config.iterations == 0 || config.pairs_per_iteration == 0 {
            return Err(SpsaError::Config(
                "iterations and games per iteration must be at least 1".into(),
            ));
        }
        let positive = |x: Option<f64>| x.is_none_or(|v| v.is_finite() && v > 0.0);
        if !(config.alpha.is_finite()
            && config.alpha > 0.0
            && config.gamma.is_finite()
            && config.gamma > 0.0
            && positive(config.a)
            && positive(config.c)
            && config.big_a.is_none_or(|v| v.is_finite() && v >= 0.0))
        {
            return Err(SpsaError::Config(
                "alpha, gamma, a and c must be positive numbers and A not negative".into(),
            ));
        }
        let n = config.iterations as f64;
        let big_a = config.big_a.unwrap_or(0.1 * n);
        let c = params
            .iter()
            .map(|p| config.c.unwrap_or(p.c_end * n.powf(config.gamma)))
            .collect();
        let a = params
            .iter()
            .map(|p| {
                config
                    .a
                    .unwrap_or(2.0 * p.r_end * p.c_end * p.c_end * (big_a + n).powf(config.alpha))
            })
            .collect();
        let rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
        Ok(Spsa {
            params,
            config,
            a,
            c,
            big_a,
            k: 0,
            rng,
        })
    }

    /// The parameters, with their current values.
    pub fn params(&self) -> &[SpsaParam] {
        &self.params
    }

    /// The current values θ.
    pub fn values(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.value).collect()
    }

    /// The next iteration's number (iterations done so far).
    pub fn iteration(&self) -> u64 {
        self.k
    }

    /// Whether every iteration has run.
    pub fn done(&self) -> bool {
        self.k >= self.config.iterations
    }

    /// Parameter `i`'s perturbation at iteration `k`.
    pub fn c_k(&self, i: usize, k: u64) -> f64 {
        self.c[i] / ((k + 1) as f64).powf(self.config.gamma)
    }

    /// Parameter `i`'s step numerator at iteration `k`.
    pub fn a_k(&self, i: usize, k: u64) -> f64 {
        self.a[i] / (self.big_a + (k + 1) as f64).powf(self.config.alpha)
    }

    /// Runs one iteration against `objective`.
    ///
    /// ```
    /// use fianchetto_tune::spsa::{parse_params, Objective, Spsa, SpsaConfig};
    /// /// θ+ always wins: every parameter moves along its sign Δ.
    /// struct PlusWins;
    /// impl Objective for PlusWins {
    ///     fn compare(&self, _: &[f64], _: &[f64], pairs: u32, _: u64) -> f64 { 2.0 * pairs as f64 }
    /// }
    /// let params = parse_params("x, float, 50, 0, 100, 2, 0.01")?;
    /// let mut spsa = Spsa::new(params, SpsaConfig { iterations: 10, ..SpsaConfig::default() })?;
    /// let step = spsa.step(&PlusWins);
    /// assert_eq!(step.result, 16.0);
    /// assert_eq!((step.plus[0] > 50.0), step.delta[0] > 0);
    /// assert_eq!((step.values[0] > 50.0), step.delta[0] > 0);
    /// # Ok::<(), fianchetto_tune::spsa::SpsaError>(())
    /// ```
    pub fn step(&mut self, objective: &dyn Objective) -> Step {
        let k = self.k;
        let n = self.params.len();
        let mut delta = Vec::with_capacity(n);
        let mut plus = Vec::with_capacity(n);
        let mut minus = Vec::with_capacity(n);
        for (i, p) in self.params.iter().enumerate() {
            let d: i8 = if self.rng.next_u64() & 1 == 0 { 1 } else { -1 };
            let ck = self.c_k(i, k) * d as f64;
            let (mut hi, mut lo) = (p.value + ck, p.value - ck);
            if p.integer {
                // One random offset for both: floor(x + u) rounds x up with
                // probability frac(x), and keeps θ± symmetric around θ.
                let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                hi = (hi + u).floor();
                lo = (lo + u).floor();
            }
            delta.push(d);
            plus.push(hi.clamp(p.min, p.max));
            minus.push(lo.clamp(p.min, p.max));
        }
        let seed = self.rng.next_u64();
        let result = objective.compare(&plus, &minus, self.config.pairs_per_iteration, seed);
        for (i, &d) in delta.iter().enumerate() {
            let step = self.a_k(i, k) * result / (2.0 * self.c_k(i, k) * d as f64);
            let p = &mut self.params[i];
            p.value = (p.value + step).clamp(p.min, p.max);
        }
        self.k += 1;
        Step {
            k,
            delta,
            plus,
            minus,
            result,
            values: self.values(),
        }
    }

    /// Runs the remaining iterations; `on_step` hears each.
    pub fn run(&mut self, objective: &dyn Objective, mut on_step: impl FnMut(&Step)) {
        while !self.done() {
            let s = self.step(objective);
            on_step(&s);
        }
    }
}

/// The values of every iteration, for the CSV file and the plot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trajectory {
    /// The parameter names, in column order.
    pub names: Vec<String>,
    /// `(iteration, values)`: row 0 holds the starting values.
    pub rows: Vec<(u64, Vec<f64>)>,
}

impl Trajectory {
    /// A trajectory starting at the current values of `spsa`.
    pub fn start(spsa: &Spsa) -> Trajectory {
        Trajectory {
            names: spsa.params().iter().map(|p| p.name.clone()).collect(),
            rows: vec![(spsa.iteration(), spsa.values())],
        }
    }

    /// Records the values after iteration `step.k`.
    pub fn push(&mut self, step: &Step) {
        self.rows.push((step.k + 1, step.values.clone()));
    }

    /// The CSV text: a header `iteration,name…` and one row per iteration.
    ///
    /// ```
    /// use fianchetto_tune::spsa::Trajectory;
    /// let t = Trajectory { names: vec!["a".into(), "b[1]".into()], rows: vec![(0, vec![1.0, 2.5])] };
    /// assert_eq!(t.to_csv(), "iteration,a,\"b[1]\"\n0,1,2.5\n");
    /// ```
    pub fn to_csv(&self) -> String {
        let quote = |n: &str| {
            if n.contains([',', '"', '[', ' ']) {
                format!("\"{}\"", n.replace('"', "\"\""))
            } else {
                n.to_string()
            }
        };
        let mut out = String::from("iteration");
        for n in &self.names {
            out.push(',');
            out.push_str(&quote(n));
        }
        out.push('\n');
        for (k, values) in &self.rows {
            let _ = write!(out, "{k}");
            for v in values {
                let _ = write!(out, ",{}", (v * 1e4).round() / 1e4);
            }
            out.push('\n');
        }
        out
    }

    /// Draws the trajectory as an SVG chart: the raw values when there are
    /// at most six parameters, otherwise each parameter's drift from its
    /// start in units of its `c_end` (the twelve that moved most).
    pub fn plot(&self, path: &Path, params: &[SpsaParam]) -> Result<(), PlotError> {
        let Some((_, first)) = self.rows.first() else {
            return write_svg_line_chart(path, "SPSA", "iteration", "value", &[]);
        };
        let column = |i: usize, f: &dyn Fn(f64) -> f64| -> Vec<(f64, f64)> {
            self.rows
                .iter()
                .filter_map(|(k, v)| v.get(i).map(|&x| (*k as f64, f(x))))
                .collect()
        };
        if self.names.len() <= 6 {
            let series: Vec<Series> = self
                .names
                .iter()
                .enumerate()
                .map(|(i, n)| Series::new(n.clone(), column(i, &|x| x)))
                .collect();
            return write_svg_line_chart(path, "SPSA trajectory", "iteration", "value", &series);
        }
        let last = self.rows.last().map(|r| &r.1).unwrap_or(first);
        let scale = |i: usize| params.get(i).map_or(1.0, |p| p.c_end.max(1e-9));
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| {
            let drift = |i: usize| (last[i] - first[i]).abs() / scale(i);
            drift(b).total_cmp(&drift(a))
        });
        let series: Vec<Series> = order
            .into_iter()
            .take(12)
            .map(|i| {
                let (x0, s) = (first[i], scale(i));
                Series::new(self.names[i].clone(), column(i, &|x| (x - x0) / s))
            })
            .collect();
        write_svg_line_chart(
            path,
            "SPSA trajectory (largest drifts)",
            "iteration",
            "(value - start) / c_end",
            &series,
        )
    }
}

/// A searcher of any kind, as SPSA's engines are held.
pub type BoxedSearch = Box<dyn Search<Bitboards> + Send>;

/// Builds an engine from parameter values: what [`EngineMatch`] calls for
/// θ+ and θ−.
pub type EngineBuilder = dyn Fn(&[(String, i32)]) -> Result<BoxedSearch, TunableError> + Sync;

/// An engine builder for a [`Tunable`]: a copy of `base` with the values set,
/// turned into a searcher by `make`.
///
/// ```
/// use fianchetto_eval::{Classical, Params};
/// use fianchetto_search::pvs::Pvs;
/// use fianchetto_tune::spsa::tunable_engine;
///
/// let build = tunable_engine(Params::classical(), |p: &Params| Pvs::new(Classical::with_params(p.clone())));
/// assert!(build(&[("bishop_pair[0]".to_string(), 40)]).is_ok());
/// assert!(build(&[("no_such".to_string(), 1)]).is_err());
/// ```
pub fn tunable_engine<T, S, F>(
    base: T,
    make: F,
) -> impl Fn(&[(String, i32)]) -> Result<BoxedSearch, TunableError> + Sync
where
    T: Tunable + Clone + Sync,
    S: Search<Bitboards> + Send + 'static,
    F: Fn(&T) -> S + Sync,
{
    move |values: &[(String, i32)]| {
        let mut t = base.clone();
        for (name, v) in values {
            t.set_value(name, *v)?;
        }
        Ok(Box::new(make(&t)) as BoxedSearch)
    }
}

/// The objective of a real tune: θ+ and θ− as two searchers in this
/// process, playing game pairs on `threads` threads.
pub struct EngineMatch<'a> {
    names: Vec<String>,
    build: &'a EngineBuilder,
    config: MatchConfig,
    openings: Openings,
    threads: usize,
    next_opening: AtomicU64,
    /// Games played, and θ+'s wins, draws and losses.
    tally: Mutex<[u64; 3]>,
}

impl<'a> EngineMatch<'a> {
    /// A match objective for the parameters `params` (their names go to
    /// `build`). Every parameter's range is tried once here, so that a
    /// name the engine does not know is an error now rather than mid-run.
    pub fn new(
        params: &[SpsaParam],
        build: &'a EngineBuilder,
        config: MatchConfig,
        openings: Openings,
        threads: usize,
    ) -> Result<EngineMatch<'a>, SpsaError> {
        let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
        for pick in [|p: &SpsaParam| p.min, |p: &SpsaParam| p.max] {
            let values: Vec<(String, i32)> = params
                .iter()
                .map(|p| (p.name.clone(), pick(p).round() as i32))
                .collect();
            build(&values)?;
        }
        Ok(EngineMatch {
            names,
            build,
            config,
            openings,
            threads: threads.max(1),
            next_opening: AtomicU64::new(0),
            tally: Mutex::new([0; 3]),
        })
    }

    /// θ+'s wins, draws and losses so far.
    pub fn tally(&self) -> [u64; 3] {
        self.tally.lock().map(|t| *t).unwrap_or([0; 3])
    }

    fn named(&self, values: &[f64]) -> Vec<(String, i32)> {
        self.names
            .iter()
            .cloned()
            .zip(values.iter().map(|v| v.round() as i32))
            .collect()
    }
}

impl Objective for EngineMatch<'_> {
    fn compare(&self, plus: &[f64], minus: &[f64], pairs: u32, _seed: u64) -> f64 {
        let (plus, minus) = (self.named(plus), self.named(minus));
        let remaining = AtomicU64::new(pairs as u64);
        let total = Mutex::new(0.0);
        std::thread::scope(|s| {
            for _ in 0..self.threads.min(pairs as usize) {
                s.spawn(|| {
                    // Ranges were checked in `new`; a refusal now plays nothing.
                    let (Ok(mut a), Ok(mut b)) = ((self.build)(&plus), (self.build)(&minus)) else {
                        return;
                    };
                    let mut sum = 0.0;
                    let mut wdl = [0u64; 3];
                    while remaining
                        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |r| r.checked_sub(1))
                        .is_ok()
                    {
                        let opening = self
                            .openings
                            .get(self.next_opening.fetch_add(1, Ordering::Relaxed));
                        for points in play_pair_games(&mut *a, &mut *b, &opening, &self.config) {
                            // θ+ scored `points`, θ− the rest.
                            sum += 2.0 * points - 1.0;
                            wdl[if points > 0.75 {
                                0
                            } else if points > 0.25 {
                                1
                            } else {
                                2
                            }] += 1;
                        }
                    }
                    if let Ok(mut t) = total.lock() {
                        *t += sum;
                    }
                    if let Ok(mut t) = self.tally.lock() {
                        for i in 0..3 {
                            t[i] += wdl[i];
                        }
                    }
                });
            }
        });
        total.into_inner().unwrap_or(0.0)
    }
}
