//! The trainer: data split, shuffling, multi-threaded sparse batches,
//! AdamW, evaluation, export.

use super::checkpoint::Checkpoint;
use super::data::{mirrorable, sigmoid, target, TrainData, MIRRORED};
use super::model::{self, Layout, Worker};
use super::optim::{adamw_step, learning_rate, WEIGHT_CLIP};
use super::{TrainConfig, TrainError};
use crate::marlin::PackedBoard;
use fianchetto_eval::nnue::{Network, INPUTS, QA, QB, SCALE};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What one epoch did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochStats {
    /// The epoch's number, from 1.
    pub epoch: u32,
    /// Mean squared error over the training positions, averaged over the
    /// epoch's batches as the weights moved.
    pub train_loss: f64,
    /// Mean squared error over the held-out positions after the epoch
    /// (`None` when the validation split is empty).
    pub val_loss: Option<f64>,
    /// Training positions seen.
    pub positions: u64,
    /// Seconds spent training (validation excluded; summed over the runs of
    /// an epoch that was interrupted and resumed).
    pub seconds: f64,
}

impl EpochStats {
    /// Training positions per second.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }
}

/// The validation split holds out blocks of this many consecutive records:
/// self-play writes a game's positions together, so a game mostly lands on
/// one side of the split, and the validation loss is not flattered by
/// near-copies of training positions.
pub const VAL_BLOCK: usize = 64;

/// Random-number streams derived from the seed, one per purpose.
const STREAM_INIT: u64 = 1;
const STREAM_SPLIT: u64 = 2;
const STREAM_EPOCH: u64 = 1 << 32;

/// The generator of `stream` under `seed` (SplitMix64 of both, so that
/// neighbouring seeds and streams are unrelated).
fn rng(seed: u64, stream: u64) -> Xoshiro256PlusPlus {
    let mut z = seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Xoshiro256PlusPlus::seed_from_u64(z ^ (z >> 31))
}

/// A number below `n` (> 0), by multiply-shift.
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// A uniform float in `-a..a`.
fn uniform(rng: &mut Xoshiro256PlusPlus, a: f32) -> f32 {
    let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (2.0 * unit - 1.0) * a
}

fn shuffle(rng: &mut Xoshiro256PlusPlus, v: &mut [u32]) {
    for i in (1..v.len()).rev() {
        v.swap(i, below(rng, i + 1));
    }
}

/// The NNUE trainer: owns the data, the float network, the optimiser state
/// and the progress of the run.
///
/// Each epoch visits the training split in an order drawn from
/// (seed, epoch), in batches of [`TrainConfig::batch_size`] positions; each
/// batch is one AdamW step. Results depend only on the configuration, the
/// data and the number of threads (threads split each batch into fixed
/// chunks whose gradients are added in thread order).
pub struct Trainer {
    pub(crate) config: TrainConfig,
    pub(crate) data: TrainData,
    layout: Layout,
    train: Vec<u32>,
    val: Vec<u32>,
    order: Vec<u32>,
    /// The epoch `order` was drawn for.
    order_epoch: Option<u32>,
    pub(crate) params: Vec<f32>,
    pub(crate) m: Vec<f32>,
    pub(crate) v: Vec<f32>,
    /// Optimiser steps taken.
    pub(crate) step: u64,
    /// Epochs completed.
    pub(crate) epoch: u32,
    /// Positions of the current epoch already trained on.
    pub(crate) cursor: u64,
    pub(crate) epoch_loss: f64,
    pub(crate) epoch_seconds: f64,
    pub(crate) history: Vec<EpochStats>,
    workers: Vec<Worker>,
}

impl std::fmt::Debug for Trainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trainer")
            .field("config", &self.config)
            .field("positions", &self.data.len())
            .field("epoch", &self.epoch)
            .field("step", &self.step)
            .finish()
    }
}

impl Trainer {
    /// A trainer with freshly initialised weights: feature weights uniform
    /// in ±0.1, output weights uniform in ±1/√(2H), biases 0 (all drawn
    /// from the seed).
    pub fn new(config: TrainConfig, data: TrainData) -> Result<Trainer, TrainError> {
        config.validate()?;
        let layout = Layout {
            hidden: config.hidden,
        };
        let mut params = vec![0.0f32; layout.len()];
        let mut r = rng(config.seed, STREAM_INIT);
        for w in &mut params[layout.ft_weights()] {
            *w = uniform(&mut r, 0.1);
        }
        let out_scale = 1.0 / (2.0 * config.hidden as f32).sqrt();
        for w in &mut params[layout.out_weights()] {
            *w = uniform(&mut r, out_scale);
        }
        Self::assemble(config, data, params, None)
    }

    /// A trainer that continues the run saved in `checkpoint` on `data`,
    /// with `config` (which may raise the number of epochs and change the
    /// threads; every other setting must be the checkpoint's, and so must
    /// the data).
    pub fn resume(
        checkpoint: Checkpoint,
        config: TrainConfig,
        data: TrainData,
    ) -> Result<Trainer, TrainError> {
        config.validate()?;
        let saved = &checkpoint.config;
        let mut differs = Vec::new();
        if saved.hidden != config.hidden {
            differs.push(format!("hidden {} vs {}", saved.hidden, config.hidden));
        }
        if saved.batch_size != config.batch_size {
            differs.push(format!(
                "batch {} vs {}",
                saved.batch_size, config.batch_size
            ));
        }
        if saved.lr != config.lr {
            differs.push(format!("lr {} vs {}", saved.lr, config.lr));
        }
        if saved.final_lr_factor != config.final_lr_factor {
            differs.push(format!(
                "final lr factor {} vs {}",
                saved.final_lr_factor, config.final_lr_factor
            ));
        }
        if saved.weight_decay != config.weight_decay {
            differs.push(format!(
                "weight decay {} vs {}",
                saved.weight_decay, config.weight_decay
            ));
        }
        if saved.wdl != config.wdl {
            differs.push(format!("wdl {} vs {}", saved.wdl, config.wdl));
        }
        if saved.val_fraction != config.val_fraction {
            differs.push(format!(
                "val fraction {} vs {}",
                saved.val_fraction, config.val_fraction
            ));
        }
        if saved.seed != config.seed {
            differs.push(format!("seed {} vs {}", saved.seed, config.seed));
        }
        if saved.mirror != config.mirror {
            differs.push(format!("mirror {} vs {}", saved.mirror, config.mirror));
        }
        if !differs.is_empty() {
            return Err(TrainError::Resume(format!(
                "the checkpoint was made with other settings ({}; checkpoint vs now)",
                differs.join(", ")
            )));
        }
        if checkpoint.positions != data.len() as u64 || checkpoint.fingerprint != data.fingerprint()
        {
            return Err(TrainError::Resume(format!(
                "the checkpoint was made on other data ({} positions, fingerprint {:016x}; \
                 now {} positions, fingerprint {:016x}): pass the same files in the same order",
                checkpoint.positions,
                checkpoint.fingerprint,
                data.len(),
                data.fingerprint()
            )));
        }
        let mut trainer = Self::assemble(
            config,
            data,
            checkpoint.params,
            Some((checkpoint.m, checkpoint.v)),
        )?;
        if checkpoint.cursor > trainer.train.len() as u64 {
            return Err(TrainError::Resume(format!(
                "the checkpoint is {} positions into an epoch of {}",
                checkpoint.cursor,
                trainer.train.len()
            )));
        }
        trainer.step = checkpoint.step;
        trainer.epoch = checkpoint.epoch;
        trainer.cursor = checkpoint.cursor;
        trainer.epoch_loss = checkpoint.epoch_loss;
        trainer.epoch_seconds = checkpoint.epoch_seconds;
        trainer.history = checkpoint.history;
        Ok(trainer)
    }

    fn assemble(
        config: TrainConfig,
        data: TrainData,
        params: Vec<f32>,
        moments: Option<(Vec<f32>, Vec<f32>)>,
    ) -> Result<Trainer, TrainError> {
        let layout = Layout {
            hidden: config.hidden,
        };
        let n = data.len();
        let val_len = ((n as f64 * config.val_fraction as f64).round() as usize).min(n);
        if n == val_len {
            return Err(TrainError::NoTrainingData(n));
        }
        // Whole blocks of consecutive records are held out, drawn from the
        // seed (the last one cut to the exact size).
        let mut blocks: Vec<u32> = (0..n.div_ceil(VAL_BLOCK) as u32).collect();
        shuffle(&mut rng(config.seed, STREAM_SPLIT), &mut blocks);
        let mut held = vec![false; n];
        let mut val = Vec::with_capacity(val_len);
        'blocks: for &b in &blocks {
            let start = b as usize * VAL_BLOCK;
            for (i, h) in held
                .iter_mut()
                .enumerate()
                .take((start + VAL_BLOCK).min(n))
                .skip(start)
            {
                if val.len() == val_len {
                    break 'blocks;
                }
                *h = true;
                val.push(i as u32);
            }
        }
        val.sort_unstable();
        let train: Vec<u32> = (0..n as u32).filter(|&i| !held[i as usize]).collect();
        drop(held);
        let (m, v) = moments.unwrap_or_else(|| (vec![0.0; layout.len()], vec![0.0; layout.len()]));
        let workers = (0..config.threads).map(|_| Worker::new(layout)).collect();
        Ok(Trainer {
            order: Vec::with_capacity(train.len()),
            order_epoch: None,
            layout,
            train,
            val,
            params,
            m,
            v,
            step: 0,
            epoch: 0,
            cursor: 0,
            epoch_loss: 0.0,
            epoch_seconds: 0.0,
            history: Vec::new(),
            workers,
            config,
            data,
        })
    }

    /// The settings.
    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// The data.
    pub fn data(&self) -> &TrainData {
        &self.data
    }

    /// Positions in the training split.
    pub fn train_len(&self) -> usize {
        self.train.len()
    }

    /// Positions held out for validation.
    pub fn val_len(&self) -> usize {
        self.val.len()
    }

    /// The held-out positions' indices into [`TrainData::records`]
    /// (ascending; blocks of [`VAL_BLOCK`] consecutive records drawn from
    /// the seed).
    pub fn validation_indices(&self) -> &[u32] {
        &self.val
    }

    /// Epochs completed.
    pub fn epochs_done(&self) -> u32 {
        self.epoch
    }

    /// Whether [`TrainConfig::epochs`] epochs are done.
    pub fn is_finished(&self) -> bool {
        self.epoch >= self.config.epochs
    }

    /// Positions of the current epoch already trained on (non-zero only
    /// after an interrupted [`train_epoch_with`](Self::train_epoch_with)).
    pub fn epoch_progress(&self) -> u64 {
        self.cursor
    }

    /// Optimiser steps taken (one per batch).
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// Batches in one epoch.
    pub fn batches_per_epoch(&self) -> u64 {
        self.train.len().div_ceil(self.config.batch_size) as u64
    }

    /// The learning rate of the next step (cosine from `lr` to
    /// `lr × final_lr_factor` over all the epochs' steps).
    pub fn learning_rate(&self) -> f32 {
        let total = self.batches_per_epoch() * self.config.epochs as u64;
        learning_rate(
            self.config.lr,
            self.config.final_lr_factor,
            self.step,
            total,
        )
    }

    /// The statistics of every epoch completed, in order.
    pub fn history(&self) -> &[EpochStats] {
        &self.history
    }

    /// Changes the number of threads (results then differ from a run with
    /// the old number in the last bits of the floats).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), TrainError> {
        let config = TrainConfig {
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
    pub fn train_epoch(&mut self) -> EpochStats {
        loop {
            // Without a stop flag the first call always completes the epoch.
            if let Some(stats) = self.train_epoch_with(None, &mut |_| {}) {
                return stats;
            }
        }
    }

    /// Trains the rest of the current epoch, calling `on_batch` with the
    /// positions of the epoch done after each batch. When `stop` is raised
    /// the call returns `None` at the end of the batch in progress; the
    /// trainer is then in a consistent state (save a
    /// [`checkpoint`](Self::checkpoint), or carry on with another call).
    /// Returns the epoch's statistics, also appended to
    /// [`history`](Self::history), once it completes.
    pub fn train_epoch_with(
        &mut self,
        stop: Option<&AtomicBool>,
        on_batch: &mut dyn FnMut(u64),
    ) -> Option<EpochStats> {
        if self.order_epoch != Some(self.epoch) {
            self.order.clear();
            self.order.extend_from_slice(&self.train);
            let mut r = rng(self.config.seed, STREAM_EPOCH + self.epoch as u64);
            shuffle(&mut r, &mut self.order);
            if self.config.mirror {
                // Each epoch sees about half of the mirrorable positions
                // mirrored, a different half each time.
                let mut bits = 0u64;
                for (k, i) in self.order.iter_mut().enumerate() {
                    if k % 64 == 0 {
                        bits = r.next_u64();
                    }
                    if bits >> (k % 64) & 1 == 1 && mirrorable(self.data.get(*i)) {
                        *i |= MIRRORED;
                    }
                }
            }
            self.order_epoch = Some(self.epoch);
        }
        let batch = self.config.batch_size;
        let len = self.order.len();
        while (self.cursor as usize) < len {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return None;
            }
            let started = Instant::now();
            let start = self.cursor as usize;
            let end = (start + batch).min(len);
            self.train_batch(start, end);
            self.cursor = end as u64;
            self.epoch_seconds += started.elapsed().as_secs_f64();
            on_batch(self.cursor);
        }
        let stats = EpochStats {
            epoch: self.epoch + 1,
            train_loss: self.epoch_loss / len as f64,
            val_loss: self.validation_loss(),
            positions: len as u64,
            seconds: self.epoch_seconds,
        };
        self.history.push(stats);
        self.epoch += 1;
        self.cursor = 0;
        self.epoch_loss = 0.0;
        self.epoch_seconds = 0.0;
        Some(stats)
    }

    /// One batch: `order[start..end]`, split among the threads, then one
    /// AdamW step.
    fn train_batch(&mut self, start: usize, end: usize) {
        let positions = &self.order[start..end];
        // The mean over the batch: each position's gradient scaled by 1/len.
        let scale = 1.0 / positions.len() as f32;
        let wdl = self.config.wdl;
        let chunk = positions.len().div_ceil(self.workers.len());
        let (params, data) = (&self.params[..], &self.data);
        if self.workers.len() == 1 {
            self.workers[0].train(params, data, positions, wdl, scale);
        } else {
            std::thread::scope(|s| {
                for (worker, part) in self.workers.iter_mut().zip(positions.chunks(chunk)) {
                    s.spawn(move || worker.train(params, data, part, wdl, scale));
                }
            });
        }
        let lr = self.learning_rate();
        let (first, rest) = self.workers.split_at_mut(1);
        let total = &mut first[0];
        for worker in rest {
            self.epoch_loss += std::mem::take(&mut worker.loss);
            worker.drain_into(total);
        }
        self.epoch_loss += std::mem::take(&mut total.loss);
        self.step += 1;
        adamw_step(
            self.layout,
            &mut self.params,
            &total.grad,
            &mut self.m,
            &mut self.v,
            self.step,
            lr,
            self.config.weight_decay,
        );
        total.clear();
    }

    /// The mean squared error over `indices` (into [`TrainData::records`]),
    /// computed on the configured threads. Indices past the data are
    /// ignored.
    pub fn loss_on(&mut self, indices: &[u32]) -> f64 {
        let n = self.data.len();
        if indices.iter().any(|&i| i as usize >= n) {
            let valid: Vec<u32> = indices
                .iter()
                .copied()
                .filter(|&i| (i as usize) < n)
                .collect();
            return self.loss_on(&valid);
        }
        if indices.is_empty() {
            return f64::NAN;
        }
        let wdl = self.config.wdl;
        let (params, data) = (&self.params[..], &self.data);
        let chunk = indices.len().div_ceil(self.workers.len());
        std::thread::scope(|s| {
            for (worker, part) in self.workers.iter_mut().zip(indices.chunks(chunk)) {
                s.spawn(move || worker.evaluate(params, data, part, wdl));
            }
        });
        let sum: f64 = self
            .workers
            .iter_mut()
            .map(|w| std::mem::take(&mut w.loss))
            .sum();
        sum / indices.len() as f64
    }

    /// The mean squared error over the validation split (`None` when it is
    /// empty).
    pub fn validation_loss(&mut self) -> Option<f64> {
        if self.val.is_empty() {
            return None;
        }
        let val = std::mem::take(&mut self.val);
        let loss = self.loss_on(&val);
        self.val = val;
        Some(loss)
    }

    /// The mean squared error of the best constant prediction over
    /// `indices`: the variance of the targets. A trained net should do
    /// much better.
    pub fn constant_loss(&self, indices: &[u32]) -> f64 {
        let targets: Vec<f64> = indices
            .iter()
            .filter_map(|&i| self.data.records().get(i as usize))
            .map(|r| target(r, self.config.wdl) as f64)
            .collect();
        let mean = targets.iter().sum::<f64>() / targets.len().max(1) as f64;
        targets.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / targets.len().max(1) as f64
    }

    /// The mean squared error over `indices` of another predictor of the
    /// same targets: `eval` gives a record's evaluation in centipawns from
    /// the side to move's point of view (`None`: the record is left out),
    /// read through the same sigmoid as the net's. With a hand-written
    /// evaluation this says whether the net has learned more than it.
    pub fn baseline_loss(
        &self,
        indices: &[u32],
        mut eval: impl FnMut(&PackedBoard) -> Option<f32>,
    ) -> f64 {
        let (mut sum, mut count) = (0.0f64, 0usize);
        for record in indices
            .iter()
            .filter_map(|&i| self.data.records().get(i as usize))
        {
            if let Some(cp) = eval(record) {
                let err = sigmoid(cp / SCALE as f32) - target(record, self.config.wdl);
                sum += (err * err) as f64;
                count += 1;
            }
        }
        if count == 0 {
            f64::NAN
        } else {
            sum / count as f64
        }
    }

    /// The float network's evaluation of `record` in centipawns, from the
    /// side to move's point of view (what the quantized net approximates).
    /// Allocates two accumulators of H floats: meant for checks and tools,
    /// not for a search's hot loop.
    pub fn predict(&self, record: &PackedBoard) -> f32 {
        let h = self.layout.hidden;
        let (mut acc_stm, mut acc_nstm) = (vec![0.0; h], vec![0.0; h]);
        model::output(
            self.layout,
            &self.params,
            record,
            &mut acc_stm,
            &mut acc_nstm,
        ) * SCALE as f32
    }

    /// The float network's win probability for the side to move
    /// (`sigmoid(predict / 400)`), what the loss compares with the target.
    pub fn predict_probability(&self, record: &PackedBoard) -> f32 {
        sigmoid(self.predict(record) / SCALE as f32)
    }

    /// The quantized network: weights clipped to ±1.98, feature weights and
    /// biases × QA (255) and output weights × QB (64) rounded to `i16`, the
    /// output bias × QA·QB rounded to `i32`.
    ///
    /// Rounding costs precision, mostly in the output weights (steps of
    /// 1/64): the quantized evaluation typically differs from
    /// [`predict`](Self::predict) by a few centipawns, by a few tens on
    /// rare positions.
    pub fn export(&self) -> Network {
        let l = self.layout;
        let q16 =
            |x: f32, scale: i32| (x.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * scale as f32).round() as i16;
        let ft_weights = self.params[l.ft_weights()]
            .iter()
            .map(|&w| q16(w, QA))
            .collect();
        let ft_bias = self.params[l.ft_bias()]
            .iter()
            .map(|&w| q16(w, QA))
            .collect();
        let out_weights = self.params[l.out_weights()]
            .iter()
            .map(|&w| q16(w, QB))
            .collect();
        let out_bias = (self.params[l.out_bias()].clamp(-WEIGHT_CLIP, WEIGHT_CLIP) as f64
            * (QA * QB) as f64)
            .round() as i32;
        debug_assert_eq!(self.params.len(), (INPUTS + 3) * l.hidden + 1);
        Network::from_parts(l.hidden, ft_weights, ft_bias, out_weights, out_bias)
            .expect("the hidden size was validated by TrainConfig::validate")
    }

    /// The float parameters in the flat layout the checkpoint stores:
    /// feature weights (768 × H, feature-major), feature biases (H), output
    /// weights (2H, side to move first), output bias.
    pub fn parameters(&self) -> &[f32] {
        &self.params
    }
}
