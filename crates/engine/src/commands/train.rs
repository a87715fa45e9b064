//! `fianchetto train`: the NNUE trainer (fianchetto-train) on marlinformat data,
//! from options or a run file; with `--policy`, the policy network's trainer
//! on games files (the moves played) or visits files (root visit
//! distributions).

use super::CommandError;
use crate::say;
use fianchetto_board::{Bitboards, Board};
use fianchetto_data::games::Filter;
use fianchetto_eval::nnue::KingBuckets;
use fianchetto_eval::{Classical, Evaluator};
use fianchetto_train::policy::{self, PolicyCheckpoint, PolicyData, PolicyTrainConfig};
use fianchetto_train::{
    self as train, ConfigRequest, LrSchedule, RunFile, RunOutcome, TrainData, TrainError,
};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Arguments of `fianchetto train`. Settings left out take the run
/// file's (`--config`), or the defaults (shown), or on `--resume` the
/// checkpoint's.
#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    /// Train the policy network (for the MCTS search) instead of the NNUE:
    /// on games files, from the moves their searches played, and on visits
    /// files (`datagen --mcts`), from each position's root visit
    /// distribution (cross-entropy against the visits' shares). It takes
    /// --data, --out, --hidden, --epochs, --batch, --lr, --lr-schedule,
    /// --threads, --seed, --val-fraction (of the games), --no-mirror,
    /// --resume and --quiet; the NNUE's other options are refused.
    #[arg(long)]
    pub policy: bool,
    /// A run file (`key = value` lines, what every run writes to NET.run):
    /// its data, network file and settings; options given here override it.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Training data: games files (what `datagen` writes; one it is still
    /// writing gives its whole games) or marlinformat files, told apart by
    /// content, streamed from disk in shuffled chunks; with --policy, games
    /// or visits files, held in memory.
    #[arg(long, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The network file to write after every epoch; the checkpoint goes to
    /// NET.ckpt, the loss curve to NET.svg and the run file to NET.run.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Hidden neurons per perspective, a multiple of 16 [default: 256; with --policy: 64].
    #[arg(long)]
    pub hidden: Option<usize>,
    /// King buckets of the inputs: plain, mirrored, mirrored-4 or
    /// mirrored-9 [default: plain].
    #[arg(long, value_parser = parse_buckets)]
    pub king_buckets: Option<KingBuckets>,
    /// Output buckets, chosen by the number of pieces, 1 to 16 [default: 1].
    #[arg(long)]
    pub output_buckets: Option<usize>,
    /// Epochs (passes over the data); on --resume, raise it to train longer [default: 10].
    #[arg(long)]
    pub epochs: Option<u32>,
    /// Positions per optimiser step [default: 16384; with --policy: 256].
    #[arg(long)]
    pub batch: Option<usize>,
    /// Learning rate after the warm-up [default: 0.001; with --policy: 0.005].
    #[arg(long)]
    pub lr: Option<f32>,
    /// Learning-rate schedule: cosine:FINAL (annealed to FINAL x lr) or
    /// steps:EVERY:GAMMA (x GAMMA every EVERY epochs) [default: cosine:0.1].
    #[arg(long, value_parser = parse_schedule)]
    pub lr_schedule: Option<LrSchedule>,
    /// Steps of linear learning-rate warm-up [default: 0].
    #[arg(long)]
    pub warmup: Option<u64>,
    /// Weight of the game result in the target at the start (0: search score only) [default: 0.3].
    #[arg(long)]
    pub wdl: Option<f32>,
    /// Weight of the game result at the end of the run, linear in between [default: --wdl].
    #[arg(long)]
    pub wdl_end: Option<f32>,
    /// Threads sharing each batch [default: 1].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Fraction of the positions held out for validation [default: 0.01;
    /// with --policy: 0.05 of the games].
    #[arg(long)]
    pub val_fraction: Option<f32>,
    /// Seed of the initial weights, the validation split and the shuffles [default: 0].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Positions per chunk, the unit the data is shuffled and read in [default: 1048576].
    #[arg(long)]
    pub chunk: Option<u64>,
    /// Chunks held in memory and shuffled together (about 36 bytes a position) [default: 8].
    #[arg(long)]
    pub window: Option<usize>,
    /// Which positions of games-format data files are trained on: rules
    /// `check`, `tactical`, `mates`, `first=N`, `max-score=CP`,
    /// comma-separated, or `none` (marlinformat records are all used)
    /// [default: check,tactical,mates].
    #[arg(long)]
    pub filter: Option<Filter>,
    /// Start from this network's weights instead of random ones (fine-tuning):
    /// a network file of the run's architecture, e.g. the shipped net, or a
    /// narrower form of it (widening): one plain king bucket and/or one set
    /// of output weights, which are copied into every bucket, and/or fewer
    /// hidden neurons, the added ones starting with no say in the output.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Do not also show positions without castling rights mirrored left to
    /// right (by default half of them are, each epoch; with --policy, each
    /// one is also trained mirrored, its moves mirrored with it).
    #[arg(long)]
    pub no_mirror: bool,
    /// Continue the run saved in NET.ckpt (same data, same settings).
    #[arg(long)]
    pub resume: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_buckets(text: &str) -> Result<KingBuckets, String> {
    KingBuckets::named(text).ok_or_else(|| {
        let names: Vec<&str> = KingBuckets::NAMED.iter().map(|(n, _)| *n).collect();
        format!("expected one of {}", names.join(", "))
    })
}

fn parse_schedule(text: &str) -> Result<LrSchedule, String> {
    text.parse()
}

fn usage(e: TrainError) -> CommandError {
    CommandError::Usage(e.to_string())
}

/// Runs `train` until its epochs are done or Ctrl-C (which stops at the end
/// of the batch in progress, after saving everything).
pub fn run(args: &TrainArgs) -> Result<(), CommandError> {
    if args.policy {
        return run_policy(args);
    }
    let given = ConfigRequest {
        hidden: args.hidden,
        king_buckets: args.king_buckets,
        output_buckets: args.output_buckets,
        epochs: args.epochs,
        batch_size: args.batch,
        lr: args.lr,
        lr_schedule: args.lr_schedule,
        warmup: args.warmup,
        wdl: args.wdl,
        wdl_end: args.wdl_end,
        val_fraction: args.val_fraction,
        seed: args.seed,
        threads: args.threads,
        mirror: args.no_mirror.then_some(false),
        chunk: args.chunk,
        window: args.window,
        filter: args.filter,
        init: args.init.clone(),
        ..ConfigRequest::default()
    };
    let file = match &args.config {
        Some(path) => RunFile::read(path).map_err(|e| usage(e.into()))?,
        None => RunFile::default(),
    };
    let request = given.or(&file.request);
    let data = if args.data.is_empty() {
        file.data.clone()
    } else {
        args.data.clone()
    };
    if data.is_empty() {
        return Err(CommandError::Usage(
            "no training data: give --data FILE... or a --config run file with data lines".into(),
        ));
    }
    let Some(out) = args.out.clone().or(file.out.clone()) else {
        return Err(CommandError::Usage(
            "no network file: give --out NET or a --config run file with an out line".into(),
        ));
    };
    // Settings are checked before the (possibly long) load.
    if !args.resume {
        request.fresh().map_err(usage)?;
    }
    // A resumed run reads its data with the filter it started with (its run
    // file says which), unless one is given.
    let mut filter = request.filter;
    if args.resume && filter.is_none() {
        if let Ok(saved) = RunFile::read(&train::run_path(&out)) {
            filter = saved.request.filter;
        }
    }
    let data = TrainData::load_filtered(&data, &filter.unwrap_or_default()).map_err(usage)?;
    for cut in data.cut_short() {
        say!("cut short: {cut}");
    }
    let mut trainer = train::start(&request, data, &out, args.resume).map_err(usage)?;
    let c = trainer.config().clone();
    say!(
        "training {} on {} positions ({} held out) | epochs {} batch {} lr {} {} warm-up {} wdl {}..{} threads {} seed {} mirror {} chunk {} window {}",
        c.arch,
        trainer.train_len(),
        trainer.val_len(),
        c.epochs,
        c.batch_size,
        c.lr,
        c.lr_schedule,
        c.warmup,
        c.wdl,
        c.wdl_end,
        c.threads,
        c.seed,
        c.mirror,
        c.chunk,
        c.window
    );
    let val = trainer.validation_records().to_vec();
    if !val.is_empty() {
        say!(
            "validation loss of the best constant prediction (a baseline): {:.6}",
            trainer.constant_loss(&val)
        );
        let mut classical = Classical::default();
        let loss = trainer.baseline_loss(&val, |record| {
            let board = Bitboards::from_setup(&record.unpack().ok()?.setup).ok()?;
            Some(classical.evaluate(&board).0 as f32)
        });
        say!("validation loss of the classical evaluation (static, no search): {loss:.6}");
        if let Some(init) = c.init.as_ref().filter(|_| !args.resume) {
            if let Some(loss) = trainer.validation_loss() {
                say!(
                    "validation loss of the starting network {}: {loss:.6}",
                    init.display()
                );
            }
        }
    }
    let resumed = args
        .resume
        .then(|| (trainer.epochs_done(), trainer.epoch_progress()));
    let stop = start_epochs(resumed)?;
    let outcome = train::run(&mut trainer, &out, !args.quiet, &stop, &mut |e| {
        let val = e
            .val_loss
            .map_or_else(|| "-".to_string(), |v| format!("{v:.6}"));
        let line = format!(
            "epoch {:>3}  train {:.6}  val {}  {:.0} positions/s",
            e.epoch,
            e.train_loss,
            val,
            e.positions_per_second()
        );
        // A closed standard output must not stop the training.
        let _ = writeln!(std::io::stdout().lock(), "{line}");
    })
    .map_err(usage)?;
    let written = [
        train::checkpoint_path(&out),
        train::plot_path(&out),
        train::run_path(&out),
    ];
    say_outcome(outcome, &out, trainer.epochs_done(), &written)
}

/// Says where a resumed run goes on (`resumed`: its epochs done and
/// positions of the next), and returns the flag Ctrl-C raises: the
/// trainers stop at the end of the batch in progress and save everything.
fn start_epochs(resumed: Option<(u32, u64)>) -> Result<Arc<AtomicBool>, CommandError> {
    if let Some((epochs, positions)) = resumed {
        say!("resuming after {epochs} epochs and {positions} positions");
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        eprintln!("\nstopping at the end of this batch (--resume continues from the checkpoint)");
        flag.store(true, Ordering::Relaxed);
    });
    Ok(stop)
}

/// Says how a run that writes its network to `out` ended: after
/// `epochs_done` epochs with the files `written` beside the network, or
/// stopped.
fn say_outcome(
    outcome: RunOutcome,
    out: &Path,
    epochs_done: u32,
    written: &[PathBuf],
) -> Result<(), CommandError> {
    let out_name = out.display();
    match outcome {
        RunOutcome::Finished => {
            let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
            let files = match names.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            };
            say!("wrote {out_name} ({epochs_done} epochs), {files}")
        }
        RunOutcome::Interrupted {
            epochs_done,
            positions,
        } => say!(
            "stopped after {epochs_done} epochs and {positions} positions; saved {} and {out_name}: --resume continues",
            train::checkpoint_path(out).display()
        ),
    }
    Ok(())
}

/// The options of `train` that mean nothing to the policy trainer, given.
fn nnue_only_options(args: &TrainArgs) -> Vec<&'static str> {
    [
        ("--config", args.config.is_some()),
        ("--king-buckets", args.king_buckets.is_some()),
        ("--output-buckets", args.output_buckets.is_some()),
        ("--warmup", args.warmup.is_some()),
        ("--wdl", args.wdl.is_some()),
        ("--wdl-end", args.wdl_end.is_some()),
        ("--chunk", args.chunk.is_some()),
        ("--window", args.window.is_some()),
        ("--filter", args.filter.is_some()),
        ("--init", args.init.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, given)| given.then_some(name))
    .collect()
}

/// `train --policy`: the policy trainer on games or visits files, until its epochs
/// are done or Ctrl-C (which stops at the end of the batch in progress,
/// after saving everything).
fn run_policy(args: &TrainArgs) -> Result<(), CommandError> {
    let refused = nnue_only_options(args);
    if !refused.is_empty() {
        return Err(CommandError::Usage(format!(
            "{} {} not apply to --policy (it trains on games or visits files with --data, --out, --hidden, \
             --epochs, --batch, --lr, --lr-schedule, --threads, --seed, --val-fraction, --no-mirror, --resume, --quiet)",
            refused.join(", "),
            if refused.len() == 1 { "does" } else { "do" }
        )));
    }
    if args.data.is_empty() {
        return Err(CommandError::Usage(
            "no training data: give --data FILE... (games files written by datagen, or visits \
             files written by datagen --mcts)"
                .into(),
        ));
    }
    let Some(out) = args.out.clone() else {
        return Err(CommandError::Usage(
            "no network file: give --out NET.policy".into(),
        ));
    };
    // A resumed run keeps its settings, but for those given again.
    let ckpt = train::checkpoint_path(&out);
    let mut config = if args.resume {
        if !ckpt.exists() {
            return Err(usage(TrainError::NoCheckpoint(ckpt)));
        }
        PolicyCheckpoint::read(&ckpt)
            .map_err(usage)?
            .config()
            .clone()
    } else {
        PolicyTrainConfig::default()
    };
    let c = &mut config;
    c.hidden = args.hidden.unwrap_or(c.hidden);
    c.epochs = args.epochs.unwrap_or(c.epochs);
    c.batch_size = args.batch.unwrap_or(c.batch_size);
    c.lr = args.lr.unwrap_or(c.lr);
    c.lr_schedule = args.lr_schedule.unwrap_or(c.lr_schedule);
    c.threads = args.threads.unwrap_or(c.threads);
    c.seed = args.seed.unwrap_or(c.seed);
    c.val_fraction = args.val_fraction.unwrap_or(c.val_fraction);
    if args.no_mirror {
        c.mirror = false;
    }
    // Settings are checked before the (possibly long) load.
    config.validate().map_err(usage)?;
    let data = PolicyData::load(&args.data).map_err(usage)?;
    for cut in data.cut_short() {
        say!("cut short: {cut}");
    }
    for cut in data.visits_cut_short() {
        say!("cut short: {cut}");
    }
    let games = data.game_count();
    let mut trainer = policy::start(config, data, &out, args.resume).map_err(usage)?;
    let c = trainer.config().clone();
    say!(
        "training policy {} on {} examples of {games} games ({} positions held out) | epochs {} batch {} lr {} {} threads {} seed {} mirror {}",
        trainer.arch(),
        trainer.train_len(),
        trainer.val_len(),
        c.epochs,
        c.batch_size,
        c.lr,
        c.lr_schedule,
        c.threads,
        c.seed,
        c.mirror
    );
    if let Some(u) = trainer.uniform_validation() {
        say!(
            "validation of a uniform policy (a baseline): loss {:.4}, top-1 {:.1}%, top-3 {:.1}%",
            u.loss,
            100.0 * u.top1,
            100.0 * u.top3
        );
    }
    let resumed = args
        .resume
        .then(|| (trainer.epochs_done(), trainer.epoch_progress()));
    let stop = start_epochs(resumed)?;
    let outcome = policy::run(&mut trainer, &out, !args.quiet, &stop, &mut |e| {
        let val = e.val.map_or_else(
            || "val -".to_string(),
            |v| {
                format!(
                    "val {:.4} (quantized {:.4})  top-1 {:.1}%  top-3 {:.1}%",
                    v.loss,
                    v.quantized_loss,
                    100.0 * v.top1,
                    100.0 * v.top3
                )
            },
        );
        let line = format!(
            "epoch {:>3}  train {:.4}  {val}  {:.1} s  {:.0} positions/s",
            e.epoch,
            e.train_loss,
            e.seconds,
            e.positions_per_second()
        );
        // A closed standard output must not stop the training.
        let _ = writeln!(std::io::stdout().lock(), "{line}");
    })
    .map_err(usage)?;
    let written = [train::checkpoint_path(&out), train::plot_path(&out)];
    say_outcome(outcome, &out, trainer.epochs_done(), &written)
}
