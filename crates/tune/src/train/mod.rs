//! The NNUE trainer: learns the network of
//! [`fianchetto_eval::nnue`] from marlinformat data, on the CPU.
//!
//! **The network.** For each perspective p (the side to move, then the
//! other side), `h_p = SCReLU(b + Σ W[f])` over the ~32 active features
//! `f = feature(p, piece, square)`, with `SCReLU(x) = clamp(x, 0, 1)²`; the
//! output is `out = h_stm · w[0..H] + h_nstm · w[H..2H] + c`, and the
//! evaluation `out × 400` centipawns.
//!
//! **The loss.** The mean squared error between `sigmoid(out)` and
//! `(1 − wdl) · sigmoid(score / 400) + wdl · result`, where the record's
//! score and result (stored from white's point of view) are turned to the
//! side to move's.
//!
//! **The optimisation.** Mini-batches of [`TrainConfig::batch_size`]
//! positions, each one AdamW step (β₁ 0.9, β₂ 0.999, ε 10⁻⁸, decoupled
//! weight decay on the weights, not the biases; bias-corrected moments).
//! The learning rate follows a **cosine schedule** from
//! [`TrainConfig::lr`] down to `lr × final_lr_factor` (a tenth by default)
//! over every step of the run; a run resumed with more epochs stretches
//! the rest of the curve. Every parameter is clipped to ±1.98 after each
//! step, so the quantized net cannot overflow `i16` inference.
//! The forward and backward passes are sparse (only the rows of the active
//! features are read and written), and each batch is split among
//! [`TrainConfig::threads`] threads, each with its own gradient, which are
//! added in thread order: a run is deterministic for a given seed, data and
//! thread count.
//!
//! **The data.** All records are held in memory (32 bytes each). A fixed
//! fraction is held out for validation, in blocks of [`VAL_BLOCK`]
//! consecutive records drawn from the seed (so that a self-play game's
//! positions mostly fall on one side); the rest is visited in a new seeded
//! order every epoch.
//!
//! **The outputs.** After every epoch [`run`] writes a [checkpoint]
//! (`NET.ckpt`, everything needed to continue exactly), the quantized
//! network (`NET`, [`Network::to_bytes`](fianchetto_eval::nnue::Network::to_bytes))
//! and the loss curve (`NET.svg`).
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::nnue::Network;
//! use fianchetto_tune::marlin::{PackedBoard, Wdl};
//! use fianchetto_tune::train::{TrainConfig, TrainData, Trainer};
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
//!     hidden: 16,
//!     epochs: 40,
//!     batch_size: 16,
//!     lr: 0.01,
//!     val_fraction: 0.0,
//!     ..TrainConfig::default()
//! };
//! let mut trainer = Trainer::new(config, data)?;
//! while !trainer.is_finished() {
//!     let stats = trainer.train_epoch();
//!     assert!(stats.train_loss.is_finite());
//! }
//! assert!(trainer.predict(&records[0]) > 300.0); // white to move, a queen up
//! assert!(trainer.predict(&records[1]) < -300.0); // black to move, a queen down
//!
//! let net = trainer.export();
//! assert_eq!(Network::from_bytes(&net.to_bytes())?, net);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod checkpoint;
mod data;
mod model;
mod optim;
pub mod plot;
mod trainer;

pub use checkpoint::{Checkpoint, CheckpointError};
pub use data::{TrainData, MAX_POSITIONS};
pub use optim::WEIGHT_CLIP;
pub use trainer::{EpochStats, Trainer, VAL_BLOCK};

use crate::marlin::DataError;
use fianchetto_eval::nnue::MAX_HIDDEN;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Hidden neurons per perspective: a multiple of 16 from 16 to 4096.
    pub hidden: usize,
    /// Epochs to train (passes over the training split).
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch_size: usize,
    /// The starting learning rate.
    pub lr: f32,
    /// The learning rate at the end of the run, as a fraction of `lr`
    /// (cosine annealing in between).
    pub final_lr_factor: f32,
    /// AdamW's decoupled weight decay (applied to the weights only).
    pub weight_decay: f32,
    /// How much of the target is the game's result (0: the search score
    /// only, 1: the result only).
    pub wdl: f32,
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
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 256,
            epochs: 10,
            batch_size: 16_384,
            lr: 0.001,
            final_lr_factor: 0.1,
            weight_decay: 0.01,
            wdl: 0.3,
            val_fraction: 0.01,
            seed: 0,
            threads: 1,
            mirror: true,
        }
    }
}

impl TrainConfig {
    /// Checks every setting, naming the first that is out of range.
    pub fn validate(&self) -> Result<(), TrainError> {
        let bad = |msg: String| Err(TrainError::Config(msg));
        if !(16..=MAX_HIDDEN).contains(&self.hidden) || self.hidden % 16 != 0 {
            return bad(format!(
                "hidden size {} must be a multiple of 16 from 16 to {MAX_HIDDEN}",
                self.hidden
            ));
        }
        if self.epochs == 0 {
            return bad("epochs must be at least 1".into());
        }
        if self.batch_size == 0 || self.batch_size > u32::MAX as usize {
            return bad(format!("batch size {} must be at least 1", self.batch_size));
        }
        if !(self.lr.is_finite() && self.lr > 0.0 && self.lr <= 1.0) {
            return bad(format!("learning rate {} must be in (0, 1]", self.lr));
        }
        if !(0.0..=1.0).contains(&self.final_lr_factor) {
            return bad(format!(
                "final learning-rate factor {} must be in [0, 1]",
                self.final_lr_factor
            ));
        }
        if !(self.weight_decay.is_finite()
            && self.weight_decay >= 0.0
            && self.weight_decay * self.lr < 1.0)
        {
            return bad(format!(
                "weight decay {} must be at least 0 and below 1/lr",
                self.weight_decay
            ));
        }
        if !(0.0..=1.0).contains(&self.wdl) {
            return bad(format!("wdl weight {} must be in [0, 1]", self.wdl));
        }
        if !(0.0..=0.5).contains(&self.val_fraction) {
            return bad(format!(
                "validation fraction {} must be in [0, 0.5]",
                self.val_fraction
            ));
        }
        if !(1..=1024).contains(&self.threads) {
            return bad(format!("threads {} must be 1 to 1024", self.threads));
        }
        Ok(())
    }
}

/// Settings as a command line gives them: `None` where the user said
/// nothing. [`fresh`](Self::fresh) fills the gaps with the defaults;
/// [`resume`](Self::resume) with a checkpoint's settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigRequest {
    /// [`TrainConfig::hidden`].
    pub hidden: Option<usize>,
    /// [`TrainConfig::epochs`].
    pub epochs: Option<u32>,
    /// [`TrainConfig::batch_size`].
    pub batch_size: Option<usize>,
    /// [`TrainConfig::lr`].
    pub lr: Option<f32>,
    /// [`TrainConfig::wdl`].
    pub wdl: Option<f32>,
    /// [`TrainConfig::val_fraction`].
    pub val_fraction: Option<f32>,
    /// [`TrainConfig::seed`].
    pub seed: Option<u64>,
    /// [`TrainConfig::threads`].
    pub threads: Option<usize>,
    /// [`TrainConfig::mirror`].
    pub mirror: Option<bool>,
}

impl ConfigRequest {
    /// The settings for a new run: the given ones, defaults elsewhere.
    pub fn fresh(&self) -> Result<TrainConfig, TrainError> {
        let d = TrainConfig::default();
        let config = TrainConfig {
            hidden: self.hidden.unwrap_or(d.hidden),
            epochs: self.epochs.unwrap_or(d.epochs),
            batch_size: self.batch_size.unwrap_or(d.batch_size),
            lr: self.lr.unwrap_or(d.lr),
            wdl: self.wdl.unwrap_or(d.wdl),
            val_fraction: self.val_fraction.unwrap_or(d.val_fraction),
            seed: self.seed.unwrap_or(d.seed),
            threads: self.threads.unwrap_or(d.threads),
            mirror: self.mirror.unwrap_or(d.mirror),
            ..d
        };
        config.validate()?;
        Ok(config)
    }

    /// The settings for continuing the run saved with `saved`: its own,
    /// except the number of epochs (which may be raised to train longer)
    /// and the threads, when given. Any other setting given must agree
    /// with the checkpoint's.
    pub fn resume(&self, saved: &TrainConfig) -> Result<TrainConfig, TrainError> {
        let mut clashes = Vec::new();
        fn check<T: PartialEq + std::fmt::Display>(
            clashes: &mut Vec<String>,
            name: &str,
            given: Option<T>,
            saved: T,
        ) {
            if let Some(g) = given {
                if g != saved {
                    clashes.push(format!("--{name} {g} (the checkpoint's is {saved})"));
                }
            }
        }
        check(&mut clashes, "hidden", self.hidden, saved.hidden);
        check(&mut clashes, "batch", self.batch_size, saved.batch_size);
        check(&mut clashes, "lr", self.lr, saved.lr);
        check(&mut clashes, "wdl", self.wdl, saved.wdl);
        check(
            &mut clashes,
            "val-fraction",
            self.val_fraction,
            saved.val_fraction,
        );
        check(&mut clashes, "seed", self.seed, saved.seed);
        check(&mut clashes, "mirror", self.mirror, saved.mirror);
        if !clashes.is_empty() {
            return Err(TrainError::Resume(format!(
                "a resumed run keeps its settings; drop or correct {}",
                clashes.join(", ")
            )));
        }
        let config = TrainConfig {
            epochs: self.epochs.unwrap_or(saved.epochs),
            threads: self.threads.unwrap_or(saved.threads),
            ..saved.clone()
        };
        config.validate()?;
        Ok(config)
    }
}

/// What went wrong in training.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A data file is missing, truncated or holds a bad record.
    #[error(transparent)]
    Data(#[from] DataError),
    /// More positions than the trainer indexes.
    #[error("the data hold {0} positions; the trainer takes at most {MAX_POSITIONS}")]
    TooManyPositions(u64),
    /// A setting is out of range.
    #[error("invalid training setting: {0}")]
    Config(String),
    /// Nothing left to train on after the validation split.
    #[error("{0} positions leave none to train on after the validation split (add data or lower --val-fraction)")]
    NoTrainingData(usize),
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
    /// A checkpoint that does not fit the run it should continue.
    #[error("cannot resume: {0}")]
    Resume(String),
    /// A new run would overwrite another run's checkpoint.
    #[error("{0} exists: pass --resume to continue that run, or remove it to start afresh")]
    CheckpointExists(PathBuf),
    /// `--resume` without a checkpoint.
    #[error("{0} does not exist: nothing to resume (leave out --resume to start a run)")]
    NoCheckpoint(PathBuf),
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

/// Writes the checkpoint, the quantized network and the loss curve of
/// `trainer` next to `out`.
pub fn save_outputs(trainer: &Trainer, out: &Path) -> Result<(), TrainError> {
    trainer.save_checkpoint(&checkpoint_path(out))?;
    write_atomic(out, &trainer.export().to_bytes())?;
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
    while !trainer.is_finished() {
        let bar = if progress {
            let bar = ProgressBar::new(trainer.train_len() as u64)
                .with_position(trainer.epoch_progress());
            bar.set_style(
                ProgressStyle::with_template(
                    "epoch {prefix} {bar:40} {human_pos}/{human_len} positions, {msg}, ETA {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_prefix(format!(
                "{}/{}",
                trainer.epochs_done() + 1,
                trainer.config().epochs
            ));
            bar.reset_eta();
            bar
        } else {
            ProgressBar::hidden()
        };
        let (started, from) = (std::time::Instant::now(), trainer.epoch_progress());
        let done = trainer.train_epoch_with(Some(stop), &mut |p| {
            bar.set_position(p);
            let rate = p.saturating_sub(from) as f64 / started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!("{rate:.0} positions/s"));
        });
        bar.finish_and_clear();
        match done {
            Some(stats) => {
                save_outputs(trainer, out)?;
                on_epoch(&stats);
            }
            None => {
                save_outputs(trainer, out)?;
                return Ok(RunOutcome::Interrupted {
                    epochs_done: trainer.epochs_done(),
                    positions: trainer.epoch_progress(),
                });
            }
        }
    }
    save_outputs(trainer, out)?;
    Ok(RunOutcome::Finished)
}
