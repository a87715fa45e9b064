//! The policy trainer: learns a [`PolicyNet`] of
//! [`fianchetto_eval::policy`] from self-play games, to tell Monte Carlo
//! tree search which moves deserve its playouts.
//!
//! **The network** ([`PolicyArch`]): `acc = b + Σ W[f]` over the position's
//! features (its pieces, from the side to move's point of view),
//! `h = clamp(acc, 0, 1)`, and for each legal move `m` the logit
//! `h · (F[from(m)] + T[to(m)])`; the policy is the softmax of the logits
//! over the legal moves. The float parameters are kept in the policy file's
//! order and quantized by [`PolicyNet::quantize`].
//!
//! **The data** ([`PolicyData`]): games files written by `fianchetto
//! datagen` and visits files written by `fianchetto datagen --mcts` (told
//! apart by content), held in memory. An example is a position with at
//! least two legal moves and a target distribution over them: from a games
//! file, the move the search played (all its probability on that move);
//! from a visits file, each root move's share of the visits. A fraction
//! of the games (in a visits file, runs of records with the same game
//! number), drawn from the seed, is held out whole for validation, so that
//! no position of a validation game is ever trained on. The training examples are encoded once (feature rows and a
//! code per legal move), so that an epoch neither decodes boards nor
//! generates moves.
//!
//! **The loss** is the cross-entropy between the policy and the target
//! distribution, `log Σ exp(z) − Σ t_m z_m` over the legal moves' logits
//! `z`: for the move played (a one-hot target) the classic `−log p`. One
//! code path serves both; its gradient `p − t` is computed exactly (checked
//! against finite differences in the tests, with hard and soft targets). **The optimisation**: mini-batches of
//! [`PolicyTrainConfig::batch_size`] positions, one AdamW step each (β₁ 0.9,
//! β₂ 0.999), the learning rate following
//! [`PolicyTrainConfig::lr_schedule`]; after each step the feature weights
//! and biases are clipped to ±[`PolicyQuant::FEATURE_CLIP`] and the move
//! rows to ±[`PolicyQuant::EMBEDDING_CLIP`], so that every export loads.
//! Each batch is split among [`PolicyTrainConfig::threads`] threads whose
//! gradients are added in thread order: a run is deterministic for a seed,
//! data and thread count.
//!
//! **The outputs.** After every epoch [`run`] writes the quantized network
//! (`NET`), a [`checkpoint`] (`NET.ckpt`, everything needed to
//! continue exactly) and the loss curve (`NET.svg`); the validation of each
//! epoch reports the float and the quantized network's loss and the
//! quantized network's top-1 and top-3 accuracy (against the move played,
//! or the most visited move).
//!
//! [`PolicyQuant::FEATURE_CLIP`]: fianchetto_eval::policy::PolicyQuant::FEATURE_CLIP
//! [`PolicyQuant::EMBEDDING_CLIP`]: fianchetto_eval::policy::PolicyQuant::EMBEDDING_CLIP
//! [`PolicyArch`]: fianchetto_eval::policy::PolicyArch
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_data::games::{Entry, GameRecord};
//! use fianchetto_eval::policy::PolicyNet;
//! use fianchetto_movegen::MoveGen;
//! use fianchetto_train::policy::{PolicyData, PolicyTrainConfig, PolicyTrainer};
//!
//! // Two short games in which the "search" always plays its last legal
//! // move: a habit a tiny network can learn.
//! let mut games = Vec::new();
//! for opening in 0..2 {
//!     let mut board = Bitboards::startpos();
//!     board.play_unchecked(board.legal_moves()[opening]);
//!     let mut game = GameRecord::new(&board, false);
//!     for _ in 0..30 {
//!         let moves = board.legal_moves();
//!         let Some(&mv) = moves.last() else { break };
//!         game.entries.push(Entry { mv, score: 0 });
//!         board.play_unchecked(mv);
//!     }
//!     games.push(game);
//! }
//! let data = PolicyData::from_games(games)?;
//! let config = PolicyTrainConfig {
//!     hidden: 16,
//!     epochs: 30,
//!     batch_size: 16,
//!     lr: 0.01,
//!     val_fraction: 0.0,
//!     ..PolicyTrainConfig::default()
//! };
//! let mut trainer = PolicyTrainer::new(config, data)?;
//! let first = trainer.train_epoch();
//! while !trainer.is_finished() {
//!     trainer.train_epoch();
//! }
//! let last = trainer.history().last().map_or(f64::NAN, |e| e.train_loss);
//! assert!(last < first.train_loss);
//!
//! // The quantized network the search loads, written and read back.
//! let net = trainer.export();
//! assert_eq!(PolicyNet::from_bytes(&net.to_bytes())?, net);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod checkpoint;
mod config;
mod data;
mod model;
mod trainer;
mod worker;

pub use checkpoint::{PolicyCheckpoint, PolicyCheckpointError};
pub use config::PolicyTrainConfig;
pub use data::PolicyData;
pub use fianchetto_eval::policy::PolicyNet;
pub use trainer::{PolicyEpochStats, PolicyTrainer, PolicyValidation, MAX_POLICY_VAL_POSITIONS};

use crate::{checkpoint_path, plot, plot_path, write_atomic, RunOutcome, TrainError};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The trainer for a run whose network goes to `out`: a new one with
/// `config` (refusing to overwrite another run's checkpoint), or with
/// `resume` the run saved in `out`'s checkpoint, continued with `config`
/// (which may differ from the saved settings in its epochs and threads
/// only). [`PolicyCheckpoint::read`] gives the saved settings to start
/// `config` from.
///
/// # Errors
///
/// A checkpoint that exists without `resume`, or is missing, damaged or
/// does not fit with it; settings out of range; no training data.
pub fn start(
    config: PolicyTrainConfig,
    data: PolicyData,
    out: &Path,
    resume: bool,
) -> Result<PolicyTrainer, TrainError> {
    let ckpt = checkpoint_path(out);
    if resume {
        if !ckpt.exists() {
            return Err(TrainError::NoCheckpoint(ckpt));
        }
        PolicyTrainer::resume(PolicyCheckpoint::read(&ckpt)?, config, data)
    } else {
        if ckpt.exists() {
            return Err(TrainError::CheckpointExists(ckpt));
        }
        PolicyTrainer::new(config, data)
    }
}

/// The loss curve of `history` as SVG text: the training loss and the
/// float network's validation loss per epoch.
///
/// # Errors
///
/// [`TrainError::Plot`] if drawing fails.
pub fn loss_curve_svg(history: &[PolicyEpochStats]) -> Result<String, TrainError> {
    plot::curve_svg(
        "Policy training: loss per epoch",
        "loss (cross-entropy)",
        history
            .iter()
            .map(|e| (e.epoch, e.train_loss, e.val.map(|v| v.loss))),
    )
}

/// Writes the checkpoint, the quantized network and the loss curve of
/// `trainer` next to `out` (each atomically).
///
/// # Errors
///
/// A file that cannot be written.
pub fn save_outputs(trainer: &PolicyTrainer, out: &Path) -> Result<(), TrainError> {
    trainer.save_checkpoint(&checkpoint_path(out))?;
    write_atomic(out, &trainer.export().to_bytes())?;
    let svg = loss_curve_svg(trainer.history())?;
    write_atomic(&plot_path(out), svg.as_bytes())
}

/// Trains until every epoch is done or `stop` is raised, writing the
/// outputs next to `out` after every epoch (and when stopped), showing a
/// progress bar per epoch unless `progress` is false, and calling
/// `on_epoch` after each epoch.
///
/// # Errors
///
/// An output that cannot be written.
pub fn run(
    trainer: &mut PolicyTrainer,
    out: &Path,
    progress: bool,
    stop: &AtomicBool,
    on_epoch: &mut dyn FnMut(&PolicyEpochStats),
) -> Result<RunOutcome, TrainError> {
    crate::epochs::run(trainer, out, progress, stop, on_epoch)
}

impl crate::epochs::Epochs for PolicyTrainer {
    type Stats = PolicyEpochStats;

    fn standing(&self) -> crate::epochs::Standing {
        crate::epochs::Standing::of(&self.progress, self.config().epochs, self.train_len())
    }

    fn train_or_stop(
        &mut self,
        stop: &AtomicBool,
        on_batch: &mut dyn FnMut(u64),
    ) -> Result<Option<PolicyEpochStats>, TrainError> {
        Ok(self.train_epoch_with(Some(stop), on_batch))
    }

    fn save(&self, out: &Path) -> Result<(), TrainError> {
        save_outputs(self, out)
    }
}
