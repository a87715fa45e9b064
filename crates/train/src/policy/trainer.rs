//! [`PolicyTrainer`]: the validation split, the epochs of shuffled
//! multi-threaded batches, AdamW, the validation of the float and the
//! quantized network, and the export.

use super::config::PolicyTrainConfig;
use super::data::{encode, mirrored, Examples, PolicyData};
use super::model::{self, Layout, Moments, Scratch};
use super::worker::{ValPosition, Worker};
use super::PolicyCheckpoint;
use crate::loader::rng;
use crate::optim::learning_rate;
use crate::progress::Progress;
use crate::TrainError;
use arrayvec::ArrayVec;
use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_eval::policy::{PolicyArch, PolicyNet};
use fianchetto_movegen::MoveGen;
use rand_xoshiro::rand_core::RngCore;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The most held-out positions kept and evaluated after each epoch (about
/// 190 bytes each); games held out beyond them are still never trained on.
pub const MAX_POLICY_VAL_POSITIONS: usize = 1 << 18;

/// Random-number streams of the split and of the epochs' orders (the
/// initial weights use the crate's `STREAM_INIT`).
const STREAM_SPLIT: u64 = 5 << 40;
const STREAM_ORDER: u64 = 6 << 40;

/// How the network did on the held-out games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolicyValidation {
    /// Mean cross-entropy of the float network against the targets (the
    /// move played, or the root visit distribution).
    pub loss: f64,
    /// Mean cross-entropy of the quantized network (what the engine runs).
    pub quantized_loss: f64,
    /// How often the quantized network's first choice is the move played
    /// (for root visits: the most visited move).
    pub top1: f64,
    /// How often that move is among its first three (ties count against
    /// it).
    pub top3: f64,
}

/// What one epoch did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolicyEpochStats {
    /// The epoch's number, from 1.
    pub epoch: u32,
    /// Mean cross-entropy over the training positions, averaged over the
    /// epoch's batches as the weights moved.
    pub train_loss: f64,
    /// The validation after the epoch (`None` when nothing is held out).
    pub val: Option<PolicyValidation>,
    /// Training positions seen.
    pub positions: u64,
    /// Seconds spent training (validation excluded; summed over the runs of
    /// an epoch that was interrupted and resumed).
    pub seconds: f64,
}

impl PolicyEpochStats {
    /// Training positions per second.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }
}

/// Which games are held out: the `fraction` of them with the smallest
/// hashes of the seed and their number (at least one where a fraction is
/// asked for and there are two games or more).
fn held_out_games(games: usize, seed: u64, fraction: f32) -> Vec<bool> {
    let mut wanted = (games as f64 * fraction.clamp(0.0, 1.0) as f64).round() as usize;
    if fraction > 0.0 && games > 1 {
        wanted = wanted.max(1);
    }
    let mut held = vec![false; games];
    if wanted == 0 {
        return held;
    }
    let mut keys: Vec<(u64, usize)> = (0..games)
        .map(|g| (rng(seed, STREAM_SPLIT.wrapping_add(g as u64)).next_u64(), g))
        .collect();
    keys.select_nth_unstable(wanted - 1);
    for &(_, g) in &keys[..wanted] {
        held[g] = true;
    }
    held
}

/// Fisher–Yates with the multiply-shift draw.
fn shuffle(r: &mut impl RngCore, v: &mut [u32]) {
    for i in (1..v.len()).rev() {
        let j = ((r.next_u64() as u128 * (i + 1) as u128) >> 64) as usize;
        v.swap(i, j);
    }
}

/// The policy trainer: owns the data's encoded examples, the float
/// network, the optimiser state and the progress of the run.
///
/// Each epoch visits the training examples in an order drawn from (seed,
/// epoch), in batches of [`PolicyTrainConfig::batch_size`]; each batch is
/// one AdamW step. A batch is split among [`PolicyTrainConfig::threads`]
/// threads whose gradients are added in thread order: a run depends only on
/// the settings, the data and the number of threads.
pub struct PolicyTrainer {
    config: PolicyTrainConfig,
    arch: PolicyArch,
    layout: Layout,
    data: PolicyData,
    train: Examples,
    val: Vec<ValPosition>,
    val_len: u64,
    total_steps: u64,
    pub(super) params: Vec<f32>,
    pub(super) moments: Moments,
    pub(super) progress: Progress<PolicyEpochStats>,
    workers: Vec<Worker>,
    /// The current epoch's order of the examples, and which epoch it is.
    order: Vec<u32>,
    order_epoch: Option<u32>,
}

impl std::fmt::Debug for PolicyTrainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PolicyTrainer")
            .field("config", &self.config)
            .field("positions", &self.data.len())
            .field("epoch", &self.progress.epoch)
            .field("step", &self.progress.step)
            .finish()
    }
}

impl PolicyTrainer {
    /// A trainer at the start of a run, with fresh weights drawn from the
    /// seed.
    ///
    /// # Errors
    ///
    /// A setting out of range, or no training position left after the
    /// validation split.
    pub fn new(config: PolicyTrainConfig, data: PolicyData) -> Result<PolicyTrainer, TrainError> {
        config.validate()?;
        let layout = Layout::new(&config.arch()?);
        let params = model::random_weights(layout, config.seed);
        Self::assemble(config, data, params, None)
    }

    /// A trainer that continues the run saved in `checkpoint` on `data`,
    /// with `config` (which may raise the number of epochs and change the
    /// threads; every other setting must be the checkpoint's, and so must
    /// the data).
    ///
    /// # Errors
    ///
    /// [`TrainError::Resume`] naming what differs.
    pub fn resume(
        checkpoint: PolicyCheckpoint,
        config: PolicyTrainConfig,
        data: PolicyData,
    ) -> Result<PolicyTrainer, TrainError> {
        config.validate()?;
        let saved = checkpoint.saved;
        saved.check_fits(
            checkpoint.config.differences(&config),
            data.len(),
            data.fingerprint(),
        )?;
        let moments = Moments {
            m: saved.m,
            v: saved.v,
        };
        let mut trainer = Self::assemble(config, data, saved.params, Some(moments))?;
        trainer.progress = saved.progress.fitting(trainer.train_len())?;
        Ok(trainer)
    }

    /// Splits the games, encodes the training examples and keeps the
    /// held-out boards.
    fn assemble(
        config: PolicyTrainConfig,
        data: PolicyData,
        params: Vec<f32>,
        moments: Option<Moments>,
    ) -> Result<PolicyTrainer, TrainError> {
        let arch = config.arch()?;
        let layout = Layout::new(&arch);
        let held = held_out_games(data.game_count(), config.seed, config.val_fraction);
        let mut train = Examples::new();
        let mut val = Vec::new();
        let mut val_len = 0u64;
        let (mut feats, mut codes) = (ArrayVec::new(), ArrayVec::new());
        for (g, &held) in held.iter().enumerate() {
            // Checked when the data was made: this does not fail.
            data.examples_of_game(g, |board, moves, targets| {
                if held {
                    val_len += 1;
                    if val.len() < MAX_POLICY_VAL_POSITIONS {
                        val.push(ValPosition {
                            board: board.clone(),
                            targets: targets.to_vec(),
                        });
                    }
                } else {
                    let mut add = |board: &Bitboards, moves: &[Move]| {
                        encode(board, moves, &mut feats, &mut codes);
                        train.push(&feats, &codes, targets);
                    };
                    add(board, moves);
                    // The same example seen in a mirror, where the position has one.
                    if let Some((board, moves)) =
                        config.mirror.then(|| mirrored(board, moves)).flatten()
                    {
                        add(&board, &moves);
                    }
                }
            })?;
        }
        if train.len() == 0 {
            return Err(TrainError::NoTrainingData(data.len()));
        }
        if train.len() > u32::MAX as usize {
            return Err(TrainError::Config(format!(
                "{} training positions: at most {} fit one run",
                train.len(),
                u32::MAX
            )));
        }
        let batches = (train.len() as u64).div_ceil(config.batch_size as u64);
        let moments = moments.unwrap_or_else(|| Moments {
            m: vec![0.0; layout.len()],
            v: vec![0.0; layout.len()],
        });
        let workers = (0..config.threads).map(|_| Worker::new(layout)).collect();
        Ok(PolicyTrainer {
            total_steps: batches * u64::from(config.epochs),
            arch,
            layout,
            data,
            train,
            val,
            val_len,
            params,
            moments,
            progress: Progress::default(),
            workers,
            order: Vec::new(),
            order_epoch: None,
            config,
        })
    }

    /// The settings.
    pub fn config(&self) -> &PolicyTrainConfig {
        &self.config
    }

    /// The network's shape.
    pub fn arch(&self) -> &PolicyArch {
        &self.arch
    }

    /// The data.
    pub fn data(&self) -> &PolicyData {
        &self.data
    }

    /// Examples in the training split (each trained on once an epoch): its
    /// positions, and with [`PolicyTrainConfig::mirror`] the mirror of each
    /// one without castling rights.
    pub fn train_len(&self) -> u64 {
        self.train.len() as u64
    }

    /// Positions held out for validation (of which at most
    /// [`MAX_POLICY_VAL_POSITIONS`] are evaluated).
    pub fn val_len(&self) -> u64 {
        self.val_len
    }

    /// Epochs completed.
    pub fn epochs_done(&self) -> u32 {
        self.progress.epoch
    }

    /// Whether [`PolicyTrainConfig::epochs`] epochs are done.
    pub fn is_finished(&self) -> bool {
        self.progress.epoch >= self.config.epochs
    }

    /// Positions of the current epoch already trained on (non-zero only
    /// after an interrupted [`train_epoch_with`](Self::train_epoch_with)).
    pub fn epoch_progress(&self) -> u64 {
        self.progress.cursor
    }

    /// Optimiser steps taken (one per batch).
    pub fn steps(&self) -> u64 {
        self.progress.step
    }

    /// The learning rate of the next step.
    pub fn learning_rate(&self) -> f32 {
        let c = &self.config;
        learning_rate(
            c.lr,
            c.lr_schedule,
            0,
            self.progress.step,
            self.total_steps,
            self.progress.epoch,
        )
    }

    /// The statistics of every epoch completed, in order.
    pub fn history(&self) -> &[PolicyEpochStats] {
        &self.progress.history
    }

    /// The float parameters in the policy file's order (feature weights,
    /// feature biases, from-square rows, destination rows).
    pub fn parameters(&self) -> &[f32] {
        &self.params
    }

    /// Changes the number of threads (results then differ from a run with
    /// the old number in the last bits of the floats).
    ///
    /// # Errors
    ///
    /// A count out of range.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), TrainError> {
        let config = PolicyTrainConfig {
            threads,
            ..self.config.clone()
        };
        config.validate()?;
        self.config = config;
        self.workers = (0..threads).map(|_| Worker::new(self.layout)).collect();
        Ok(())
    }

    /// Trains one whole epoch (or what is left of an interrupted one) and
    /// returns its statistics.
    pub fn train_epoch(&mut self) -> PolicyEpochStats {
        loop {
            // Without a stop flag the first call completes the epoch.
            if let Some(stats) = self.train_epoch_with(None, &mut |_| {}) {
                return stats;
            }
        }
    }

    /// Trains the rest of the current epoch, calling `on_batch` with the
    /// positions of the epoch done after each batch. When `stop` is raised
    /// the call returns `None` at the end of the batch in progress; the
    /// trainer is then in a consistent state (save a checkpoint, or carry
    /// on with another call). Returns the epoch's statistics, also appended
    /// to [`history`](Self::history), once it completes.
    pub fn train_epoch_with(
        &mut self,
        stop: Option<&AtomicBool>,
        on_batch: &mut dyn FnMut(u64),
    ) -> Option<PolicyEpochStats> {
        let len = self.train.len();
        if self.order_epoch != Some(self.progress.epoch) {
            self.order.clear();
            self.order.extend(0..len as u32);
            let stream = STREAM_ORDER.wrapping_add(u64::from(self.progress.epoch));
            shuffle(&mut rng(self.config.seed, stream), &mut self.order);
            self.order_epoch = Some(self.progress.epoch);
        }
        while (self.progress.cursor as usize) < len {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return None;
            }
            let started = Instant::now();
            let from = self.progress.cursor as usize;
            let to = (from + self.config.batch_size).min(len);
            self.train_batch(from, to);
            self.progress.cursor = to as u64;
            self.progress.epoch_seconds += started.elapsed().as_secs_f64();
            on_batch(self.progress.cursor);
        }
        let stats = PolicyEpochStats {
            epoch: self.progress.epoch + 1,
            train_loss: self.progress.epoch_loss / len as f64,
            val: self.validate(),
            positions: len as u64,
            seconds: self.progress.epoch_seconds,
        };
        Some(self.progress.end_epoch(stats))
    }

    /// One batch: examples `order[from..to]`, split among the threads, then
    /// one AdamW step.
    fn train_batch(&mut self, from: usize, to: usize) {
        let lr = self.learning_rate();
        let part = &self.order[from..to];
        // The mean over the batch: each example's gradient scaled by 1/len.
        let scale = 1.0 / part.len().max(1) as f32;
        let (layout, params, train) = (self.layout, &self.params[..], &self.train);
        if self.workers.len() == 1 {
            self.workers[0].train(layout, params, train, part, scale);
        } else {
            let chunk = part.len().div_ceil(self.workers.len()).max(1);
            std::thread::scope(|s| {
                for (worker, part) in self.workers.iter_mut().zip(part.chunks(chunk)) {
                    s.spawn(move || worker.train(layout, params, train, part, scale));
                }
            });
        }
        let (first, rest) = self.workers.split_at_mut(1);
        let total = &mut first[0];
        self.progress.epoch_loss += std::mem::take(&mut total.loss);
        for worker in rest {
            self.progress.epoch_loss += std::mem::take(&mut worker.loss);
            for (t, g) in total.grad.iter_mut().zip(worker.grad.iter_mut()) {
                *t += std::mem::take(g);
            }
        }
        self.progress.step += 1;
        model::adamw_step(
            self.layout,
            &mut self.params,
            &total.grad,
            &mut self.moments,
            self.progress.step,
            lr,
            self.config.weight_decay,
        );
        total.grad.fill(0.0);
    }

    /// The float and the quantized network's loss and accuracy on the
    /// held-out positions (`None` when there are none), computed on the
    /// configured threads.
    pub fn validate(&mut self) -> Option<PolicyValidation> {
        if self.val.is_empty() {
            return None;
        }
        let net = self.export();
        let (layout, params, val) = (self.layout, &self.params[..], &self.val[..]);
        let chunk = val.len().div_ceil(self.workers.len()).max(1);
        let net = &net;
        std::thread::scope(|s| {
            for (worker, part) in self.workers.iter_mut().zip(val.chunks(chunk)) {
                s.spawn(move || worker.validate(layout, params, net, part));
            }
        });
        let mut sums = [0.0f64; 4];
        for worker in &mut self.workers {
            for (s, w) in sums.iter_mut().zip(std::mem::take(&mut worker.sums)) {
                *s += w;
            }
        }
        let n = val.len() as f64;
        Some(PolicyValidation {
            loss: sums[0] / n,
            quantized_loss: sums[1] / n,
            top1: sums[2] / n,
            top3: sums[3] / n,
        })
    }

    /// What a policy that knows nothing (every legal move equally likely,
    /// the first choice drawn at random) scores on the held-out positions:
    /// the baseline a trained network must beat. `None` when there are
    /// none.
    pub fn uniform_validation(&self) -> Option<PolicyValidation> {
        if self.val.is_empty() {
            return None;
        }
        let mut sums = [0.0f64; 3];
        for pos in &self.val {
            let n = pos.board.legal_moves().len() as f64;
            sums[0] += n.ln();
            sums[1] += 1.0 / n;
            sums[2] += n.min(3.0) / n;
        }
        let n = self.val.len() as f64;
        Some(PolicyValidation {
            loss: sums[0] / n,
            quantized_loss: sums[0] / n,
            top1: sums[1] / n,
            top3: sums[2] / n,
        })
    }

    /// The float network's logit of each of `moves` (legal in `board`)
    /// into `out` (as long as `moves`): what the quantized network
    /// approximates. Allocates its buffers: meant for checks and tools,
    /// not for a search.
    pub fn logits<B: Board>(&self, board: &B, moves: &[Move], out: &mut [f32]) {
        let (mut feats, mut codes) = (ArrayVec::new(), ArrayVec::new());
        let moves = &moves[..moves.len().min(256)];
        encode(board, moves, &mut feats, &mut codes);
        let mut scratch = Scratch::new(self.layout);
        let n = codes.len().min(out.len());
        model::logits(
            self.layout,
            &self.params,
            &feats,
            &codes[..n],
            &mut scratch,
            &mut out[..n],
        );
    }

    /// The quantized network ([`PolicyNet::quantize`]): feature weights and
    /// biases × QA, move rows × QB, rounded. Training keeps every weight
    /// within the clips the file format accepts.
    pub fn export(&self) -> PolicyNet {
        match PolicyNet::quantize(self.arch, &self.params) {
            Ok(net) => net,
            // The parameters always have the architecture's length.
            Err(e) => unreachable!("the policy export breaks its own shape: {e}"),
        }
    }
}
