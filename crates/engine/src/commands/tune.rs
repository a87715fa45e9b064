//! `fianchetto tune texel` and `fianchetto tune spsa`: the front ends of
//! fianchetto-tune's Texel and SPSA tuners.

use super::flags::{EvalSelect, HashFlag, ThreadsFlag};
use super::CommandError;
use crate::evals::{EvalChoice, EvalName};
use crate::say;
use fianchetto_eval::nnue::Nnue;
use fianchetto_eval::{Classical, Params, Preset, Tunable, TunableError, TunableSpec};
use fianchetto_search::pvs::{Pvs, PvsConfig, SearchParams};
use fianchetto_tune::matches::{MatchConfig, Openings, TimeControl};
use fianchetto_tune::plot::{write_svg_line_chart, Series};
use fianchetto_tune::progress::Progress;
use fianchetto_tune::spsa::{
    format_params, parse_params, tunable_engine, BoxedSearch, EngineMatch, Spsa, SpsaConfig,
    Trajectory,
};
use fianchetto_tune::texel::{self, select_weights, LoadOptions, TexelConfig};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Arguments of `fianchetto tune`.
#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    /// The tuner.
    #[command(subcommand)]
    pub tuner: Tuner,
}

/// The tuners.
#[derive(Debug, clap::Subcommand)]
pub enum Tuner {
    /// Texel tuning of the classical evaluation's weights on game results.
    Texel(TexelArgs),
    /// SPSA tuning of named parameters by games between θ+ and θ−.
    Spsa(SpsaArgs),
}

/// Runs `tune`.
pub fn run(args: &TuneArgs) -> Result<(), CommandError> {
    match &args.tuner {
        Tuner::Texel(a) => run_texel(a),
        Tuner::Spsa(a) => run_spsa(a),
    }
}

/// Arguments of `fianchetto tune texel`. `--threads` is the search
/// flags' own (1 by default); here it counts the threads computing
/// gradients.
#[derive(Debug, clap::Args)]
#[command(mut_arg("threads", |a| a.help("Threads computing gradients")))]
pub struct TexelArgs {
    /// Data files: marlinformat (what `datagen` writes) or EPD/FEN lines
    /// with a result (`c9 "1-0";`, `[0.5]`, …); told apart by content.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The tuned weights, written as `name value` lines.
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub epochs: u32,
    /// Adam's starting step size in centipawns (it falls to a tenth by the end).
    #[arg(long, default_value_t = 1.0, value_parser = positive_f64)]
    pub lr: f64,
    /// Positions per step (0: the whole data, plain gradient descent).
    #[arg(long, default_value_t = 16_384)]
    pub batch_size: usize,
    /// Threads computing gradients (`--threads`).
    #[command(flatten)]
    pub parallel: ThreadsFlag,
    /// Use at most this many positions (after filtering).
    #[arg(long)]
    pub positions: Option<usize>,
    /// The sigmoid's scale K (default: fitted to the starting weights).
    #[arg(long, value_parser = positive_f64)]
    pub k: Option<f64>,
    /// Weight of the game result in the target; below 1 the marlinformat
    /// search score's prediction is mixed in.
    #[arg(long, default_value_t = 1.0, value_parser = unit_f64)]
    pub lambda: f64,
    /// Starting weights (`name value` lines over the preset's weights).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// The preset whose weights start the tune: classical or buhochess.
    #[arg(long = "eval", default_value = "classical", value_parser = super::analyse::parse_preset)]
    pub eval: Preset,
    /// Tune only these weights: names, groups (`psqt`) or prefixes (`mobility_*`), comma-separated.
    #[arg(long)]
    pub only: Option<String>,
    /// Never change these weights (same syntax as --only).
    #[arg(long)]
    pub freeze: Option<String>,
    /// Held-out data (same formats): its error (against the game results)
    /// is printed every epoch, and the weights of the epoch where it was
    /// lowest are the ones written (early stopping).
    #[arg(long, num_args = 1..)]
    pub validate: Vec<PathBuf>,
    /// Keep every position (no quietness filter).
    #[arg(long)]
    pub all_positions: bool,
    /// The error plot (SVG); default: the output file with `.svg`.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Seed of the batch order.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

fn positive_f64(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a positive number")),
    }
}

fn unit_f64(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("`{s}` is not a number from 0 to 1")),
    }
}

/// The starting weights: the preset's, with `init` applied.
fn base_params(preset: Preset, init: Option<&Path>) -> Result<Params, CommandError> {
    let base = preset.params();
    match init {
        None => Ok(base),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CommandError::Usage(format!("{}: {e}", path.display())))?;
            Params::from_text(base, &text)
                .map_err(|e| CommandError::Usage(format!("{}: {e}", path.display())))
        }
    }
}

fn with_extension(path: &Path, ext: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(ext);
    PathBuf::from(p)
}

fn run_texel(args: &TexelArgs) -> Result<(), CommandError> {
    if args.eval == Preset::Material {
        return Err(CommandError::Usage(
            "Texel tunes a parameter set: use --eval classical or --eval buhochess".into(),
        ));
    }
    let init = base_params(args.eval, args.init.as_deref())?;
    let mut trainable = match &args.only {
        Some(list) => select_weights(list)
            .map_err(|n| CommandError::Usage(format!("--only: no weight or group `{n}`")))?,
        None => vec![true; Params::LEN],
    };
    if let Some(list) = &args.freeze {
        let frozen = select_weights(list)
            .map_err(|n| CommandError::Usage(format!("--freeze: no weight or group `{n}`")))?;
        for (t, f) in trainable.iter_mut().zip(frozen) {
            *t &= !f;
        }
    }
    let options = LoadOptions {
        max_positions: args.positions,
        quiet_only: !args.all_positions,
    };
    say!("loading {} file(s) …", args.data.len());
    let (samples, stats) =
        texel::load(&args.data, &init, &options).map_err(|e| CommandError::Usage(e.to_string()))?;
    say!(
        "{} positions read, {} kept ({} not quiet, {} dead draws)",
        stats.read,
        stats.kept,
        stats.not_quiet,
        stats.dead_draws
    );
    let config = TexelConfig {
        epochs: args.epochs as usize,
        learning_rate: args.lr,
        batch_size: args.batch_size,
        threads: args.parallel.count as usize,
        k: args.k,
        lambda: args.lambda,
        trainable: Some(trainable),
        seed: args.seed,
        progress: false,
    };
    let weights: Vec<f64> = init.to_vec().into_iter().map(f64::from).collect();
    let k = match args.k {
        Some(k) => k,
        None => texel::fit_k(&samples, &weights, config.threads),
    };
    let config = TexelConfig {
        k: Some(k),
        ..config
    };
    let initial = texel::mean_squared_error(&samples, &weights, k, config.threads);
    say!("K = {k:.6} (sigmoid(K * eval)); error against the results {initial:.6}");
    let held_out = if args.validate.is_empty() {
        Vec::new()
    } else {
        let options = LoadOptions {
            max_positions: None,
            ..options
        };
        let (v, _) = texel::load(&args.validate, &init, &options)
            .map_err(|e| CommandError::Usage(e.to_string()))?;
        say!("validation: {} positions", v.len());
        v
    };
    let progress = Progress::new(args.epochs as u64, "epoch", !args.quiet);
    let mut lines = Vec::new();
    let mut valid_lines = Vec::new();
    let out = texel::train_validated(&samples, &held_out, &init, &config, |e| {
        let v = e
            .validation
            .map_or(String::new(), |v| format!(" validation {v:.6}"));
        progress.line(&format!("epoch {:>4} error {:.6}{v}", e.epoch, e.error));
        progress.inc(&format!("error {:.6}", e.error));
        lines.push((e.epoch as f64, e.error));
        if let Some(v) = e.validation {
            valid_lines.push((e.epoch as f64, v));
        }
    });
    progress.finish();
    say!(
        "training error {:.6} -> {:.6} after {} epochs",
        out.initial_error,
        out.errors.last().copied().unwrap_or(out.initial_error),
        args.epochs
    );
    if held_out.is_empty() {
        say!("rounded weights: training error {:.6}", out.final_error);
    } else {
        let tuned: Vec<f64> = out.params.to_vec().into_iter().map(f64::from).collect();
        say!(
            "kept the weights of epoch {} (lowest validation error): validation {:.6} -> {:.6}, training {:.6}",
            out.best_epoch,
            out.validation_errors.first().copied().unwrap_or(0.0),
            texel::mean_squared_error(&held_out, &tuned, k, config.threads),
            out.final_error
        );
    }
    let changed = (0..Params::LEN)
        .filter(|&i| init.get(i) != out.params.get(i))
        .count();
    let header = format!(
        "Texel-tuned weights (fianchetto tune texel): {} positions, {} epochs, K = {k:.6}\n\
         error {:.6} -> {:.6}; load with Params::from_text",
        samples.len(),
        args.epochs,
        out.initial_error,
        out.final_error
    );
    texel::write_weights(&args.out, &out.params, &header)
        .map_err(|e| CommandError::Usage(format!("{}: {e}", args.out.display())))?;
    say!(
        "{changed} weights changed; written to {}",
        args.out.display()
    );
    let plot = args
        .plot
        .clone()
        .unwrap_or_else(|| with_extension(&args.out, ".svg"));
    let mut points = vec![(0.0, out.initial_error)];
    points.extend(lines);
    let mut series = vec![Series::new("training error", points)];
    if let Some(&v0) = out.validation_errors.first() {
        let mut points = vec![(0.0, v0)];
        points.extend(valid_lines);
        series.push(Series::new("validation error", points));
    }
    write_svg_line_chart(
        &plot,
        "Texel tuning",
        "epoch",
        "mean squared error",
        &series,
    )
    .map_err(|e| CommandError::Usage(e.to_string()))?;
    say!("error plot: {}", plot.display());
    Ok(())
}

/// Arguments of `fianchetto tune spsa`. `--threads`, `--hash`, `--eval`,
/// `--evalfile` and `--weights` are the search flags' own, with SPSA's
/// meaning and defaults: games played at once, 8 MB per engine, an
/// evaluation that follows the parameters, and `--weights` as another name
/// for `--init`.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("threads", |a| a.help("Games played at once (each engine searches on one thread)")),
    mut_arg("hash", |a| a
        .default_value("8")
        .help("Hash table per engine, in MB (default 8, not the 16 of analyse and bench: \
               the games of a tune, and so its result for a seed, depend on it)")),
    mut_arg("eval", |a| a
        .default_value(None::<&'static str>)
        .help("Evaluation the games are played with. Default: nnue, the engine's own, so \
               search tunables are tuned for the evaluation that will use them; classical \
               when the parameters name evaluation weights, which only the classical \
               evaluation has")),
    mut_arg("weights", |a| a
        .conflicts_with("init")
        .help("The same as --init")),
)]
pub struct SpsaArgs {
    /// The parameters, one per line: `name, int, value, min, max, c_end,
    /// r_end` (OpenBench's format; `fianchetto spsa-params` prints it).
    #[arg(long)]
    pub params: PathBuf,
    /// Iterations.
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: u64,
    /// Games per iteration (even: pairs of games, each opening with both colours).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub games_per_iteration: u32,
    /// Time control BASE+INC in seconds (e.g. 2+0.02).
    #[arg(long, conflicts_with = "nodes")]
    pub tc: Option<String>,
    /// Nodes per move instead of a clock (default 20000 when no --tc).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Games played at once (`--threads`).
    #[command(flatten)]
    pub parallel: ThreadsFlag,
    /// Step numerator a for every parameter (default: from each r_end).
    #[arg(long, value_parser = positive_f64)]
    pub a: Option<f64>,
    /// Perturbation numerator c for every parameter (default: from each c_end).
    #[arg(long, value_parser = positive_f64)]
    pub c: Option<f64>,
    /// Stability constant A (default: a tenth of the iterations).
    #[arg(long = "A", value_parser = non_negative_f64)]
    pub big_a: Option<f64>,
    /// Step decay exponent α.
    #[arg(long, default_value_t = 0.602, value_parser = positive_f64)]
    pub alpha: f64,
    /// Perturbation decay exponent γ.
    #[arg(long, default_value_t = 0.101, value_parser = positive_f64)]
    pub gamma: f64,
    /// Openings (FEN/EPD lines); default: random balanced openings.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Evaluation weights the named parameters apply to (`name value` lines
    /// over the classical weights).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// The evaluation the games are played with (`--eval`, `--evalfile`;
    /// `--weights` is `--init`).
    #[command(flatten)]
    pub eval: EvalSelect,
    /// Hash table per engine (`--hash`).
    #[command(flatten)]
    pub table: HashFlag,
    /// Seed of the perturbations and openings.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output folder: trajectory.csv, trajectory.svg, final.txt (OpenBench
    /// format), weights.txt (the evaluation weights).
    #[arg(long, default_value = "spsa-out")]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

fn non_negative_f64(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a number >= 0")),
    }
}

/// Everything `tune spsa` can tune: the search's tunables (by their names
/// in [`SearchParams::ENTRIES`]) and the classical evaluation's weights.
#[derive(Clone, Debug)]
pub struct EngineTunables {
    /// The evaluation's weights.
    pub eval: Params,
    /// The search's tunables.
    pub search: SearchParams,
}

impl Tunable for EngineTunables {
    fn names(&self) -> Vec<String> {
        let mut names = self.search.names();
        names.extend(self.eval.names());
        names
    }

    fn value(&self, name: &str) -> Option<i32> {
        self.search.value(name).or_else(|| self.eval.value(name))
    }

    fn set_value(&mut self, name: &str, value: i32) -> Result<(), TunableError> {
        if SearchParams::info(name).is_some() {
            self.search.set_value(name, value)
        } else {
            self.eval.set_value(name, value)
        }
    }

    fn spec(&self, name: &str) -> Option<TunableSpec> {
        self.search.spec(name).or_else(|| self.eval.spec(name))
    }
}

fn run_spsa(args: &SpsaArgs) -> Result<(), CommandError> {
    let usage = |e: &dyn std::fmt::Display| CommandError::Usage(e.to_string());
    let text = std::fs::read_to_string(&args.params)
        .map_err(|e| CommandError::Usage(format!("{}: {e}", args.params.display())))?;
    let params = parse_params(&text)
        .map_err(|e| CommandError::Usage(format!("{}: {e}", args.params.display())))?;
    // `--weights` is another name for `--init` (clap refuses both).
    let init = args.init.as_deref().or(args.eval.weights.as_deref());
    let base = base_params(Preset::Classical, init)?;
    let time_control = match (&args.tc, args.nodes) {
        (Some(tc), _) => tc.parse::<TimeControl>().map_err(|e| usage(&e))?,
        (None, Some(n)) => TimeControl::Nodes(n),
        (None, None) => TimeControl::Nodes(20_000),
    };
    let openings = match &args.book {
        Some(path) => {
            Openings::Book(fianchetto_tune::datagen::read_book(path).map_err(|e| usage(&e))?)
        }
        None => Openings::Random { seed: args.seed },
    };
    let pvs_config = PvsConfig {
        threads: 1,
        hash_mb: args.table.mb as usize,
        ..PvsConfig::default()
    };
    // A name is a search tunable or an evaluation weight; evaluation
    // weights only mean something to the classical evaluation.
    let eval_weight = params
        .iter()
        .find(|p| SearchParams::info(&p.name).is_none())
        .map(|p| p.name.clone());
    let eval = match (args.eval.eval, &eval_weight) {
        (None, None) => EvalName::Nnue,
        (None | Some(EvalName::Classical), Some(_)) => EvalName::Classical,
        (Some(e), None) => e,
        (Some(e), Some(name)) => {
            return Err(CommandError::Usage(format!(
                "`{name}` is a weight of the classical evaluation, which --eval {e} does not use: \
                 tune it with --eval classical"
            )))
        }
    };
    let choice = EvalSelect {
        eval: Some(eval),
        evalfile: args.eval.evalfile.clone(),
        // The starting weights of a tune are `--init`'s.
        weights: None,
    }
    .choice()?;
    let tunables = EngineTunables {
        eval: base.clone(),
        search: SearchParams::default(),
    };
    let build = tunable_engine(tunables, move |t: &EngineTunables| -> BoxedSearch {
        let config = PvsConfig {
            params: t.search.clone(),
            ..pvs_config.clone()
        };
        match &choice {
            EvalChoice::Nnue(net) => Box::new(Pvs::with_config(Nnue::new(net.clone()), config)),
            EvalChoice::Preset(Preset::Classical) => Box::new(Pvs::with_config(
                Classical::with_params(t.eval.clone()),
                config,
            )),
            other => Box::new(Pvs::with_config(other.hand_crafted(), config)),
        }
    });
    let match_config = MatchConfig {
        time_control,
        ..MatchConfig::default()
    };
    let objective = EngineMatch::new(
        &params,
        &build,
        match_config,
        openings,
        args.parallel.count as usize,
    )
    .map_err(|e| usage(&e))?;
    let config = SpsaConfig {
        iterations: args.iterations,
        pairs_per_iteration: args.games_per_iteration.div_ceil(2),
        alpha: args.alpha,
        gamma: args.gamma,
        big_a: args.big_a,
        a: args.a,
        c: args.c,
        seed: args.seed,
    };
    let mut spsa = Spsa::new(params, config).map_err(|e| usage(&e))?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| CommandError::Usage(format!("{}: {e}", args.out.display())))?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        eprintln!("\nstopping after this iteration (the outputs are written)");
        flag.store(true, Ordering::Relaxed);
    });
    say!(
        "SPSA: {} parameters, {} iterations of {} games, {}, evaluation {eval}; outputs in {}",
        spsa.params().len(),
        args.iterations,
        2 * args.games_per_iteration.div_ceil(2),
        time_control,
        args.out.display()
    );
    let mut trajectory = Trajectory::start(&spsa);
    let progress = Progress::new(args.iterations, "iteration", !args.quiet);
    let shown = spsa.params().len().min(4);
    while !spsa.done() && !stop.load(Ordering::Relaxed) {
        let step = spsa.step(&objective);
        trajectory.push(&step);
        let [w, d, l] = objective.tally();
        let values: Vec<String> = spsa.params()[..shown]
            .iter()
            .map(|p| format!("{}={:.2}", p.name, p.value))
            .collect();
        progress.line(&format!(
            "iteration {:>5} result {:+} | θ+ W {w} D {d} L {l} | {}{}",
            step.k + 1,
            step.result,
            values.join(" "),
            if shown < spsa.params().len() {
                " …"
            } else {
                ""
            }
        ));
        progress.inc("");
        if step.k % 10 == 9 {
            write_spsa_outputs(&args.out, &spsa, &trajectory, &base)?;
        }
    }
    progress.finish();
    write_spsa_outputs(&args.out, &spsa, &trajectory, &base)?;
    say!("final values ({}/final.txt):", args.out.display());
    for p in spsa.params() {
        say!("  {:<28} {:>10.2}", p.name, p.value);
    }
    Ok(())
}

fn write_spsa_outputs(
    dir: &Path,
    spsa: &Spsa,
    trajectory: &Trajectory,
    base: &Params,
) -> Result<(), CommandError> {
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| CommandError::Usage(format!("{}: {e}", path.display())))
    };
    write("trajectory.csv", trajectory.to_csv())?;
    write("final.txt", format_params(spsa.params()))?;
    let mut weights = base.clone();
    for p in spsa.params() {
        weights.set_by_name(&p.name, p.value.round() as i32);
    }
    write(
        "weights.txt",
        format!(
            "# SPSA after {} iterations (fianchetto tune spsa)\n{}",
            spsa.iteration(),
            weights.to_text()
        ),
    )?;
    trajectory
        .plot(&dir.join("trajectory.svg"), spsa.params())
        .map_err(|e| CommandError::Usage(e.to_string()))
}
