//! # fianchetto-train
//!
//! The NNUE trainer: learns a network of [`fianchetto_eval::nnue`], of any
//! architecture its [`Arch`] describes, from the training data of
//! `fianchetto-data` (marlinformat records or whole games filtered as they
//! are read, or any [`PositionSource`]), on the CPU. The [`policy`] module
//! trains the policy network of [`fianchetto_eval::policy`] (for the MCTS
//! search) from the moves self-play searches played. It depends on
//! `fianchetto-board`, `fianchetto-movegen`, `fianchetto-eval` and
//! `fianchetto-data` only, never on the search.
//!
//! **The network.** For each perspective p (the side to move, then the
//! other side), `h_p = SCReLU(b + Σ W[f])` over the ~32 active feature
//! rows `f` (768 per king bucket, read through p's king bucket and
//! mirroring exactly as the inference reads them), with
//! `SCReLU(x) = clamp(x, 0, 1)²`; the output is
//! `out = h_stm · w_o[0..H] + h_nstm · w_o[H..2H] + c_o` for the position's
//! output bucket `o`, and the evaluation `out × 400` centipawns.
//!
//! **The loss.** The mean squared error between `sigmoid(out)` and
//! `(1 − wdl) · sigmoid(score / 400) + wdl · result`, where the record's
//! score and result (stored from white's point of view) are turned to the
//! side to move's; `wdl` moves linearly from [`TrainConfig::wdl`] to
//! [`TrainConfig::wdl_end`] over the run.
//!
//! **The optimisation.** Mini-batches of [`TrainConfig::batch_size`]
//! positions, each one AdamW step (β₁ 0.9, β₂ 0.999, ε 10⁻⁸, decoupled
//! weight decay on the weights, not the biases; bias-corrected moments).
//! The first layer is **sparse**: the forward and backward passes read and
//! write only the rows of the active features, and the optimiser moves only
//! the rows active in the batch (the others keep their weights and
//! moments), so a net with many king buckets costs about what a plain one
//! of the same width does. The learning rate warms up linearly over
//! [`TrainConfig::warmup`] steps, then follows [`TrainConfig::lr_schedule`]
//! (cosine down to a fraction, or steps every few epochs). After each step
//! the feature layer is clipped to ±[`Quant::feature_clip`] and the output
//! weights to ±[`Quant::output_clip`], the bounds within which the
//! inference's integer arithmetic is exact, so every export loads. Each
//! batch is split among [`TrainConfig::threads`] threads, each with its own
//! gradient, added in thread order: a run is deterministic for a given
//! seed, data and thread count.
//!
//! **The data** are streamed from disk in shuffled chunks ([`loader`]):
//! only a window of them is in memory. A fixed fraction is held out for
//! validation, in blocks of [`VAL_BLOCK`] consecutive records drawn from
//! the seed (so that a self-play game's positions mostly fall on one
//! side). Every record is checked once, when the [`TrainData`] is made.
//!
//! **The outputs.** After every epoch [`run`] writes a [checkpoint]
//! (`NET.ckpt`, everything needed to continue exactly), the quantized
//! network (`NET`, [`Network::to_bytes`](fianchetto_eval::nnue::Network::to_bytes)),
//! the loss curve (`NET.svg`) and the run file (`NET.run`, the whole
//! configuration and the data files: [`runfile`]).
//!
//! [`Quant::feature_clip`]: fianchetto_eval::nnue::Quant::feature_clip
//! [`Quant::output_clip`]: fianchetto_eval::nnue::Quant::output_clip
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::nnue::{Arch, KingBuckets, Network};
//! use fianchetto_data::marlin::{PackedBoard, Wdl};
//! use fianchetto_train::{TrainConfig, TrainData, Trainer};
//!
//! // A queen up, a queen down, even: scores from white's point of view.
//! let mut records = Vec::new();
//! for (fen, score, wdl) in [
//!     ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 900, Wdl::WhiteWin),
//!     ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", 900, Wdl::WhiteWin),
//!     ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", -900, Wdl::BlackWin),
//!     ("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", 0, Wdl::Draw),
//! ] {
//!     records.push(PackedBoard::pack(&Bitboards::from_fen(fen)?, score, wdl));
//! }
//! let data = TrainData::from_records(records.repeat(16))?;
//! let config = TrainConfig {
//!     // Four mirrored king buckets, 16 neurons, 2 output buckets.
//!     arch: Arch::plain(16)
//!         .with_king_buckets(KingBuckets::MIRRORED_4)
//!         .with_output_buckets(2),
//!     epochs: 40,
//!     batch_size: 16,
//!     lr: 0.01,
//!     val_fraction: 0.0,
//!     ..TrainConfig::default()
//! };
//! let mut trainer = Trainer::new(config, data)?;
//! while !trainer.is_finished() {
//!     let stats = trainer.train_epoch()?;
//!     assert!(stats.train_loss.is_finite());
//! }
//! assert!(trainer.predict(&records[0]) > 300.0); // white to move, a queen up
//! assert!(trainer.predict(&records[1]) < -300.0); // black to move, a queen down
//!
//! let net = trainer.export();
//! assert_eq!(Network::from_bytes(&net.to_bytes())?, net);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod checkpoint;
mod data;
mod epochs;
mod fields;
pub mod loader;
mod model;
mod optim;
pub mod plot;
pub mod policy;
mod progress;
pub mod runfile;
mod trainer;

pub use checkpoint::{Checkpoint, CheckpointError};
pub use data::{MarlinFile, MemorySource, PositionSource, TrainData};
pub use loader::{MAX_VAL_POSITIONS, VAL_BLOCK};
pub use optim::LrSchedule;
pub use runfile::{RunFile, RunFileError};
pub use trainer::{EpochStats, Trainer};

use fianchetto_data::games::Filter;
use fianchetto_data::marlin::DataError;
use fianchetto_eval::nnue::{Arch, KingBuckets};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// The network to train: hidden size, king buckets and output buckets
    /// (the quantisation is [`Quant::DEFAULT`](fianchetto_eval::nnue::Quant::DEFAULT)).
    pub arch: Arch,
    /// Epochs to train (passes over the training split).
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch_size: usize,
    /// The learning rate after the warm-up.
    pub lr: f32,
    /// How the learning rate falls over the run.
    pub lr_schedule: LrSchedule,
    /// Steps of linear warm-up of the learning rate (0: none).
    pub warmup: u64,
    /// AdamW's decoupled weight decay (applied to the weights only).
    pub weight_decay: f32,
    /// How much of the target is the game's result at the start of the run
    /// (0: the search score only, 1: the result only).
    pub wdl: f32,
    /// The same at the end of the run (linear in between).
    pub wdl_end: f32,
    /// The fraction of the positions held out for validation (0 to 0.5).
    pub val_fraction: f32,
    /// Seeds the initial weights, the validation split and every epoch's
    /// order.
    pub seed: u64,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Whether positions without castling rights are also seen mirrored
    /// left to right (half of them each epoch, a different half each time):
    /// twice the examples from the same data, which small data sets need.
    pub mirror: bool,
    /// Positions per chunk: the unit in which the data is shuffled and read.
    pub chunk: u64,
    /// Chunks read and shuffled together (what is held in memory: about
    /// 36 bytes a position).
    pub window: usize,
    /// Which positions of games-format data are trained on (marlinformat
    /// records are taken as they are).
    pub filter: Filter,
    /// The network file whose weights the run starts from, to fine-tune it
    /// (`None`: random weights drawn from the seed). Its architecture must
    /// be [`arch`](Self::arch), or that architecture with one plain king
    /// bucket and/or one set of output weights, which the run copies into
    /// every bucket; a resumed run continues from its checkpoint instead.
    pub init: Option<PathBuf>,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            arch: Arch::plain(256),
            epochs: 10,
            batch_size: 16_384,
            lr: 0.001,
            lr_schedule: LrSchedule::default(),
            warmup: 0,
            weight_decay: 0.01,
            wdl: 0.3,
            wdl_end: 0.3,
            val_fraction: 0.01,
            seed: 0,
            threads: 1,
            mirror: true,
            chunk: 1 << 20,
            window: 8,
            filter: Filter::default(),
            init: None,
        }
    }
}

/// Checks the learning rate, its schedule and the weight decay, the
/// optimiser's settings both trainers share (with the same messages).
pub(crate) fn check_optimiser(
    lr: f32,
    schedule: LrSchedule,
    weight_decay: f32,
) -> Result<(), TrainError> {
    if !(lr.is_finite() && lr > 0.0 && lr <= 1.0) {
        return Err(TrainError::Config(format!(
            "learning rate {lr} must be in (0, 1]"
        )));
    }
    schedule.validate().map_err(TrainError::Config)?;
    if !(weight_decay.is_finite() && weight_decay >= 0.0 && weight_decay * lr < 1.0) {
        return Err(TrainError::Config(format!(
            "weight decay {weight_decay} must be at least 0 and below 1/lr"
        )));
    }
    Ok(())
}

/// Checks the validation fraction and the thread count, as both trainers
/// bound them.
pub(crate) fn check_split_and_threads(val_fraction: f32, threads: usize) -> Result<(), TrainError> {
    if !(0.0..=0.5).contains(&val_fraction) {
        return Err(TrainError::Config(format!(
            "validation fraction {val_fraction} must be in [0, 0.5]"
        )));
    }
    if !(1..=1024).contains(&threads) {
        return Err(TrainError::Config(format!(
            "threads {threads} must be 1 to 1024"
        )));
    }
    Ok(())
}

impl TrainConfig {
    /// Checks every setting, naming the first that is out of range.
    pub fn validate(&self) -> Result<(), TrainError> {
        let bad = |msg: String| Err(TrainError::Config(msg));
        if let Err(problem) = self.arch.check() {
            return bad(problem.to_string());
        }
        if self.arch.quant != fianchetto_eval::nnue::Quant::DEFAULT {
            return bad(
                "the trainer uses the default quantisation (QA 255, QB 64, scale 400)".into(),
            );
        }
        if self.epochs == 0 {
            return bad("epochs must be at least 1".into());
        }
        if self.batch_size == 0 || self.batch_size > u32::MAX as usize {
            return bad(format!("batch size {} must be at least 1", self.batch_size));
        }
        check_optimiser(self.lr, self.lr_schedule, self.weight_decay)?;
        for (name, w) in [("wdl", self.wdl), ("wdl-end", self.wdl_end)] {
            if !(0.0..=1.0).contains(&w) {
                return bad(format!("{name} weight {w} must be in [0, 1]"));
            }
        }
        check_split_and_threads(self.val_fraction, self.threads)?;
        if self.chunk == 0 || self.chunk > 1 << 32 {
            return bad(format!("chunk {} must be 1 to 2^32 positions", self.chunk));
        }
        if !(1..=4096).contains(&self.window) {
            return bad(format!("window {} must be 1 to 4096 chunks", self.window));
        }
        Ok(())
    }

    /// The settings in which `other` differs from this one, as
    /// `name this vs other`, apart from those a resumed run may change
    /// (epochs and threads).
    pub fn differences(&self, other: &TrainConfig) -> Vec<String> {
        let mine = runfile::settings(self);
        let theirs = runfile::settings(other);
        mine.iter()
            .zip(&theirs)
            .filter(|((key, a), (_, b))| a != b && *key != "epochs" && *key != "threads")
            .map(|((key, a), (_, b))| format!("{key} {a} vs {b}"))
            .collect()
    }
}

/// Settings as a command line or a run file gives them: `None` where
/// nothing was said. [`fresh`](Self::fresh) fills the gaps with the
/// defaults; [`resume`](Self::resume) with a checkpoint's settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigRequest {
    /// The hidden size of [`TrainConfig::arch`].
    pub hidden: Option<usize>,
    /// The king buckets of [`TrainConfig::arch`].
    pub king_buckets: Option<KingBuckets>,
    /// The output buckets of [`TrainConfig::arch`].
    pub output_buckets: Option<usize>,
    /// [`TrainConfig::epochs`].
    pub epochs: Option<u32>,
    /// [`TrainConfig::batch_size`].
    pub batch_size: Option<usize>,
    /// [`TrainConfig::lr`].
    pub lr: Option<f32>,
    /// [`TrainConfig::lr_schedule`].
    pub lr_schedule: Option<LrSchedule>,
    /// [`TrainConfig::warmup`].
    pub warmup: Option<u64>,
    /// [`TrainConfig::weight_decay`].
    pub weight_decay: Option<f32>,
    /// [`TrainConfig::wdl`].
    pub wdl: Option<f32>,
    /// [`TrainConfig::wdl_end`] (the start's when not given).
    pub wdl_end: Option<f32>,
    /// [`TrainConfig::val_fraction`].
    pub val_fraction: Option<f32>,
    /// [`TrainConfig::seed`].
    pub seed: Option<u64>,
    /// [`TrainConfig::threads`].
    pub threads: Option<usize>,
    /// [`TrainConfig::mirror`].
    pub mirror: Option<bool>,
    /// [`TrainConfig::chunk`].
    pub chunk: Option<u64>,
    /// [`TrainConfig::window`].
    pub window: Option<usize>,
    /// [`TrainConfig::filter`].
    pub filter: Option<Filter>,
    /// [`TrainConfig::init`].
    pub init: Option<PathBuf>,
}

impl ConfigRequest {
    /// This request, with `other`'s settings where this one says nothing
    /// (a command line over a run file).
    pub fn or(&self, other: &ConfigRequest) -> ConfigRequest {
        ConfigRequest {
            hidden: self.hidden.or(other.hidden),
            king_buckets: self.king_buckets.or(other.king_buckets),
            output_buckets: self.output_buckets.or(other.output_buckets),
            epochs: self.epochs.or(other.epochs),
            batch_size: self.batch_size.or(other.batch_size),
            lr: self.lr.or(other.lr),
            lr_schedule: self.lr_schedule.or(other.lr_schedule),
            warmup: self.warmup.or(other.warmup),
            weight_decay: self.weight_decay.or(other.weight_decay),
            wdl: self.wdl.or(other.wdl),
            wdl_end: self.wdl_end.or(other.wdl_end),
            val_fraction: self.val_fraction.or(other.val_fraction),
            seed: self.seed.or(other.seed),
            threads: self.threads.or(other.threads),
            mirror: self.mirror.or(other.mirror),
            chunk: self.chunk.or(other.chunk),
            window: self.window.or(other.window),
            filter: self.filter.or(other.filter),
            init: self.init.clone().or_else(|| other.init.clone()),
        }
    }

    /// The settings of `config`, every one given.
    pub fn from_config(config: &TrainConfig) -> ConfigRequest {
        ConfigRequest {
            hidden: Some(config.arch.hidden),
            king_buckets: Some(config.arch.king_buckets),
            output_buckets: Some(config.arch.output_buckets.count),
            epochs: Some(config.epochs),
            batch_size: Some(config.batch_size),
            lr: Some(config.lr),
            lr_schedule: Some(config.lr_schedule),
            warmup: Some(config.warmup),
            weight_decay: Some(config.weight_decay),
            wdl: Some(config.wdl),
            wdl_end: Some(config.wdl_end),
            val_fraction: Some(config.val_fraction),
            seed: Some(config.seed),
            threads: Some(config.threads),
            mirror: Some(config.mirror),
            chunk: Some(config.chunk),
            window: Some(config.window),
            filter: Some(config.filter),
            init: config.init.clone(),
        }
    }

    /// The settings this request gives over `base`.
    fn over(&self, base: &TrainConfig) -> TrainConfig {
        let arch = base
            .arch
            .with_king_buckets(self.king_buckets.unwrap_or(base.arch.king_buckets))
            .with_output_buckets(
                self.output_buckets
                    .unwrap_or(base.arch.output_buckets.count),
            );
        let wdl = self.wdl.unwrap_or(base.wdl);
        TrainConfig {
            arch: Arch {
                hidden: self.hidden.unwrap_or(base.arch.hidden),
                ..arch
            },
            epochs: self.epochs.unwrap_or(base.epochs),
            batch_size: self.batch_size.unwrap_or(base.batch_size),
            lr: self.lr.unwrap_or(base.lr),
            lr_schedule: self.lr_schedule.unwrap_or(base.lr_schedule),
            warmup: self.warmup.unwrap_or(base.warmup),
            weight_decay: self.weight_decay.unwrap_or(base.weight_decay),
            wdl,
            wdl_end: self.wdl_end.or(self.wdl).unwrap_or(base.wdl_end),
            val_fraction: self.val_fraction.unwrap_or(base.val_fraction),
            seed: self.seed.unwrap_or(base.seed),
            threads: self.threads.unwrap_or(base.threads),
            mirror: self.mirror.unwrap_or(base.mirror),
            chunk: self.chunk.unwrap_or(base.chunk),
            window: self.window.unwrap_or(base.window),
            filter: self.filter.unwrap_or(base.filter),
            init: self.init.clone().or_else(|| base.init.clone()),
        }
    }

    /// The settings for a new run: the given ones, defaults elsewhere.
    pub fn fresh(&self) -> Result<TrainConfig, TrainError> {
        let config = self.over(&TrainConfig::default());
        config.validate()?;
        Ok(config)
    }

    /// The settings for continuing the run saved with `saved`: its own,
    /// except the number of epochs (which may be raised to train longer)
    /// and the threads, when given. Any other setting given must agree
    /// with the checkpoint's.
    pub fn resume(&self, saved: &TrainConfig) -> Result<TrainConfig, TrainError> {
        let wanted = self.over(saved);
        let clashes = saved.differences(&wanted);
        if !clashes.is_empty() {
            return Err(TrainError::Resume(format!(
                "a resumed run keeps its settings; drop or correct: {} (the checkpoint's vs given)",
                clashes.join(", ")
            )));
        }
        wanted.validate()?;
        Ok(wanted)
    }
}

/// What went wrong in training.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A data file is missing, truncated or holds a bad record.
    #[error(transparent)]
    Data(#[from] DataError),
    /// A visits file (root visit distributions) is damaged or unreadable.
    #[error(transparent)]
    Visits(Box<fianchetto_data::visits::VisitsError>),
    /// A setting is out of range.
    #[error("invalid training setting: {0}")]
    Config(String),
    /// Nothing left to train on after the validation split.
    #[error("{0} positions leave none to train on after the validation split (add data or lower --val-fraction)")]
    NoTrainingData(u64),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A checkpoint file was refused.
    #[error("{path}: {error}")]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: CheckpointError,
    },
    /// A checkpoint's bytes were refused.
    #[error(transparent)]
    BadCheckpoint(#[from] CheckpointError),
    /// A policy trainer's checkpoint file was refused.
    #[error("{path}: {error}")]
    PolicyCheckpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: policy::PolicyCheckpointError,
    },
    /// A run file was refused.
    #[error(transparent)]
    RunFile(#[from] RunFileError),
    /// A checkpoint that does not fit the run it should continue.
    #[error("cannot resume: {0}")]
    Resume(String),
    /// A new run would overwrite another run's checkpoint.
    #[error("{0} exists: pass --resume to continue that run, or remove it to start afresh")]
    CheckpointExists(PathBuf),
    /// `--resume` without a checkpoint.
    #[error("{0} does not exist: nothing to resume (leave out --resume to start a run)")]
    NoCheckpoint(PathBuf),
    /// The network a run should start from was refused.
    #[error("{path}: {message}")]
    Init {
        /// The network file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// Drawing the loss curve failed.
    #[error("drawing the loss curve: {0}")]
    Plot(String),
}

/// Writes `bytes` to `path` through a temporary file renamed over it, so
/// that a reader (or a crash) never sees half a file.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| TrainError::Io { path, source }
    };
    std::fs::write(&tmp, bytes).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The checkpoint written next to the network `out`: `out` + `.ckpt`.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    with_suffix(out, ".ckpt")
}

/// The loss curve written next to the network `out`: `out` + `.svg`.
pub fn plot_path(out: &Path) -> PathBuf {
    with_suffix(out, ".svg")
}

/// The run file written next to the network `out`: `out` + `.run`
/// (`fianchetto train --config` runs it again).
pub fn run_path(out: &Path) -> PathBuf {
    with_suffix(out, ".run")
}

/// Builds the trainer for a run whose network goes to `out`: a new one
/// (refusing to overwrite an existing checkpoint), or with `resume` the one
/// saved in `out`'s checkpoint.
pub fn start(
    request: &ConfigRequest,
    data: TrainData,
    out: &Path,
    resume: bool,
) -> Result<Trainer, TrainError> {
    let ckpt = checkpoint_path(out);
    if resume {
        if !ckpt.exists() {
            return Err(TrainError::NoCheckpoint(ckpt));
        }
        let checkpoint = Checkpoint::read(&ckpt)?;
        let config = request.resume(checkpoint.config())?;
        Trainer::resume(checkpoint, config, data)
    } else {
        if ckpt.exists() {
            return Err(TrainError::CheckpointExists(ckpt));
        }
        Trainer::new(request.fresh()?, data)
    }
}

/// Writes the checkpoint, the quantized network, the loss curve and the
/// run file (the whole configuration, with the data's sources) of
/// `trainer` next to `out`.
pub fn save_outputs(trainer: &Trainer, out: &Path) -> Result<(), TrainError> {
    trainer.save_checkpoint(&checkpoint_path(out))?;
    write_atomic(out, &trainer.export().to_bytes())?;
    let run = RunFile::of(trainer.config(), &trainer.data().source_names(), out);
    write_atomic(&run_path(out), run.to_text().as_bytes())?;
    plot::write_loss_curve(&plot_path(out), trainer.history())
}

/// How a [`run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunOutcome {
    /// Every epoch is done.
    Finished,
    /// Stopped by the flag, at the end of a batch; everything is saved and
    /// `--resume` continues exactly there.
    Interrupted {
        /// Epochs completed.
        epochs_done: u32,
        /// Positions of the next epoch already trained on.
        positions: u64,
    },
}

/// Trains until every epoch is done or `stop` is raised, writing the
/// outputs next to `out` after every epoch (and when stopped), showing a
/// progress bar per epoch unless `progress` is false, and calling
/// `on_epoch` after each epoch.
pub fn run(
    trainer: &mut Trainer,
    out: &Path,
    progress: bool,
    stop: &AtomicBool,
    on_epoch: &mut dyn FnMut(&EpochStats),
) -> Result<RunOutcome, TrainError> {
    epochs::run(trainer, out, progress, stop, on_epoch)
}

impl epochs::Epochs for Trainer {
    type Stats = EpochStats;

    fn standing(&self) -> epochs::Standing {
        epochs::Standing::of(&self.progress, self.config.epochs, self.train_len())
    }

    fn train_or_stop(
        &mut self,
        stop: &AtomicBool,
        on_batch: &mut dyn FnMut(u64),
    ) -> Result<Option<EpochStats>, TrainError> {
        self.train_epoch_with(Some(stop), on_batch)
    }

    fn save(&self, out: &Path) -> Result<(), TrainError> {
        save_outputs(self, out)
    }
}

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
