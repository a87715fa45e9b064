//! The trainer: streamed, shuffled windows of data, multi-threaded sparse
//! batches, AdamW, evaluation, export.

use crate::checkpoint::Checkpoint;
use crate::data::{sigmoid, target, TrainData};
use crate::loader::{rng, Plan, Window, STREAM_INIT};
use crate::model::{self, Layout, Worker};
use crate::optim::{adamw_step, learning_rate, wdl_weight, Step};
use crate::progress::Progress;
use crate::{TrainConfig, TrainError};
use fianchetto_data::marlin::PackedBoard;
use fianchetto_eval::nnue::format::output_weight_total;
use fianchetto_eval::nnue::{Arch, KingBuckets, Network, INPUTS};
use rand_xoshiro::rand_core::RngCore;
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

/// A uniform float in `-a..a`.
fn uniform(rng: &mut Xoshiro256PlusPlus, a: f32) -> f32 {
    let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (2.0 * unit - 1.0) * a
}

/// The NNUE trainer: reads the data, owns the float network, the optimiser
/// state and the progress of the run.
///
/// Each epoch visits the training split window by window in an order drawn
/// from (seed, epoch) (see [`crate::loader`]), in batches of
/// [`TrainConfig::batch_size`] positions; each batch is one AdamW step.
/// Results depend only on the configuration, the data and the number of
/// threads (threads split each batch into fixed chunks whose gradients are
/// added in thread order).
pub struct Trainer {
    pub(crate) config: TrainConfig,
    pub(crate) data: TrainData,
    layout: Layout,
    plan: Plan,
    val: Vec<PackedBoard>,
    /// Steps of the whole run (for the schedules).
    total_steps: u64,
    pub(crate) params: Vec<f32>,
    pub(crate) m: Vec<f32>,
    pub(crate) v: Vec<f32>,
    pub(crate) progress: Progress<EpochStats>,
    workers: Vec<Worker>,
    window: Option<Window>,
    buf: Vec<PackedBoard>,
}

impl std::fmt::Debug for Trainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trainer")
            .field("config", &self.config)
            .field("positions", &self.data.len())
            .field("epoch", &self.progress.epoch)
            .field("step", &self.progress.step)
            .finish()
    }
}

/// The float weights of the network file `path` (its integers over the
/// quantisation's scales, the inverse of [`Trainer::export`]) laid out for
/// the architecture `config` trains. The file must have that architecture,
/// or be its narrower form, which is widened (see [`widen`]).
fn initial_weights(config: &TrainConfig, path: &std::path::Path) -> Result<Vec<f32>, TrainError> {
    let refuse = |message: String| TrainError::Init {
        path: path.to_path_buf(),
        message,
    };
    let bytes = std::fs::read(path).map_err(|source| TrainError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let net = Network::from_bytes(&bytes).map_err(|e| refuse(e.to_string()))?;
    let from = *net.arch();
    if !widens_to(&from, &config.arch) {
        return Err(refuse(format!(
            "the network is {from}, the run trains {}: give the run its architecture \
             (--hidden, --king-buckets, --output-buckets), or one that only adds king \
             buckets to a plain network, output buckets to a network with one, or hidden \
             neurons",
            config.arch
        )));
    }
    let q = from.quant;
    let (qa, qb) = (q.qa as f32, q.qb as f32);
    // The network file's order is the flat layout's (see `model`).
    let params: Vec<f32> = (net.ft_weights().iter().map(|&w| f32::from(w) / qa))
        .chain(net.ft_bias().iter().map(|&w| f32::from(w) / qa))
        .chain(net.out_weights().iter().map(|&w| f32::from(w) / qb))
        .chain(net.out_bias().iter().map(|&b| b as f32 / (qa * qb)))
        .collect();
    debug_assert_eq!(params.len(), Layout::new(&from).len());
    Ok(widen(&from, &config.arch, &params, config.seed))
}

/// Whether a network of architecture `from` can start a run of `to`: the
/// same one, or `to` with one plain king bucket in place of its buckets,
/// one set of output weights in place of its sets and/or fewer hidden
/// neurons (activation and quantisation the same).
fn widens_to(from: &Arch, to: &Arch) -> bool {
    let kings = from.king_buckets == to.king_buckets || from.king_buckets == KingBuckets::PLAIN;
    let outputs = from.output_buckets == to.output_buckets || from.output_buckets.count == 1;
    kings
        && outputs
        && from.hidden <= to.hidden
        && from.activation == to.activation
        && from.quant == to.quant
}

/// The weights `params` of a network of architecture `from` laid out for
/// `to` (where [`widens_to`]): a single king bucket's feature rows are
/// copied into every bucket, a single set of output weights into every
/// set. Widening the outputs leaves every prediction as it was; widening
/// the king buckets does too for positions the new map and mirroring see
/// as the plain network did (each king on files a–d when `to` mirrors),
/// and else starts from the plain network's view of the mirrored board,
/// which chess's near left-right symmetry makes a good start.
///
/// Added hidden neurons get feature weights drawn from `seed` as a fresh
/// run's are ([`random_weights`]), bias 0 and output weights 0: they change
/// no prediction until training gives them a say, and their activations
/// differ from the start, so each learns something of its own.
fn widen(from: &Arch, to: &Arch, params: &[f32], seed: u64) -> Vec<f32> {
    let (src, dst) = (Layout::new(from), Layout::new(to));
    let added = dst.hidden - src.hidden;
    let mut r = rng(seed, STREAM_INIT);
    // Bucket `b` of the new layout reads the old one's only bucket, or its
    // own where the old layout has as many (the same architecture).
    let source = |count: usize, b: usize| if count == 1 { 0 } else { b };
    let block = INPUTS * src.hidden;
    let mut out = Vec::with_capacity(dst.len());
    // Every run of H weights (a feature row, the biases, one half of an
    // output bucket) gains the added neurons' weights, drawn by `fill`.
    let mut widened = |runs: &[f32], fill: &mut dyn FnMut() -> f32| {
        for run in runs.chunks_exact(src.hidden) {
            out.extend_from_slice(run);
            out.extend((0..added).map(|_| fill()));
        }
    };
    let mut fresh = || uniform(&mut r, FRESH_FEATURE_WEIGHT);
    for bucket in 0..to.king_buckets.count() {
        let b = source(from.king_buckets.count(), bucket);
        widened(&params[b * block..(b + 1) * block], &mut fresh);
    }
    widened(&params[src.ft_bias()], &mut || 0.0);
    for bucket in 0..dst.outputs {
        // The side to move's half, then the other side's.
        let weights = &params[src.bucket_weights(source(src.outputs, bucket))];
        widened(weights, &mut || 0.0);
    }
    let bias = &params[src.out_bias()];
    out.extend((0..dst.outputs).map(|b| bias[source(src.outputs, b)]));
    debug_assert_eq!(out.len(), dst.len());
    out
}

/// The bound of a fresh feature weight (uniform in ±this).
const FRESH_FEATURE_WEIGHT: f32 = 0.1;

/// Fresh weights drawn from the seed: feature weights uniform in
/// ±[`FRESH_FEATURE_WEIGHT`], output weights uniform in ±1/√(2H), biases 0.
fn random_weights(config: &TrainConfig) -> Vec<f32> {
    let layout = Layout::new(&config.arch);
    let mut params = vec![0.0f32; layout.len()];
    let mut r = rng(config.seed, STREAM_INIT);
    for w in &mut params[layout.ft_weights()] {
        *w = uniform(&mut r, FRESH_FEATURE_WEIGHT);
    }
    let out_scale = 1.0 / (2.0 * config.arch.hidden as f32).sqrt();
    for w in &mut params[layout.out_weights()] {
        *w = uniform(&mut r, out_scale);
    }
    params
}

impl Trainer {
    /// A trainer at the start of a run: with the weights of
    /// [`TrainConfig::init`]'s network when it names one (read and checked
    /// here), else with fresh ones drawn from the seed (`random_weights`).
    pub fn new(config: TrainConfig, data: TrainData) -> Result<Trainer, TrainError> {
        config.validate()?;
        let params = match &config.init {
            Some(path) => initial_weights(&config, path)?,
            None => random_weights(&config),
        };
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
        let saved = checkpoint.saved;
        saved.check_fits(
            checkpoint.config.differences(&config),
            data.len(),
            data.fingerprint(),
        )?;
        let mut trainer = Self::assemble(config, data, saved.params, Some((saved.m, saved.v)))?;
        trainer.progress = saved.progress.fitting(trainer.plan.train_len())?;
        Ok(trainer)
    }

    fn assemble(
        config: TrainConfig,
        data: TrainData,
        params: Vec<f32>,
        moments: Option<(Vec<f32>, Vec<f32>)>,
    ) -> Result<Trainer, TrainError> {
        let layout = Layout::new(&config.arch);
        let plan = Plan::new(
            data.len(),
            config.seed,
            config.val_fraction,
            config.chunk,
            config.window,
        );
        if plan.train_len() == 0 {
            return Err(TrainError::NoTrainingData(data.len()));
        }
        let val = plan.validation(&data)?;
        let total_steps = (0..config.epochs)
            .map(|e| plan.batches(e, config.batch_size))
            .sum();
        let (m, v) = moments.unwrap_or_else(|| (vec![0.0; layout.len()], vec![0.0; layout.len()]));
        let workers = (0..config.threads).map(|_| Worker::new(layout)).collect();
        Ok(Trainer {
            layout,
            plan,
            val,
            total_steps,
            params,
            m,
            v,
            progress: Progress::default(),
            workers,
            window: None,
            buf: Vec::new(),
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

    /// Positions in the training split (trained on once an epoch).
    pub fn train_len(&self) -> u64 {
        self.plan.train_len()
    }

    /// Positions held out for validation.
    pub fn val_len(&self) -> u64 {
        self.plan.val_len()
    }

    /// The held-out positions the validation loss is measured on (at most
    /// [`MAX_VAL_POSITIONS`](crate::MAX_VAL_POSITIONS), in data order).
    pub fn validation_records(&self) -> &[PackedBoard] {
        &self.val
    }

    /// Epochs completed.
    pub fn epochs_done(&self) -> u32 {
        self.progress.epoch
    }

    /// Whether [`TrainConfig::epochs`] epochs are done.
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

    /// Optimiser steps of the whole run, as planned.
    pub fn total_steps(&self) -> u64 {
        self.total_steps
    }

    /// The learning rate of the next step ([`TrainConfig::lr_schedule`]
    /// after [`TrainConfig::warmup`] steps).
    pub fn learning_rate(&self) -> f32 {
        let c = &self.config;
        learning_rate(
            c.lr,
            c.lr_schedule,
            c.warmup,
            self.progress.step,
            self.total_steps,
            self.progress.epoch,
        )
    }

    /// The WDL weight of the next step (from [`TrainConfig::wdl`] to
    /// [`TrainConfig::wdl_end`] over the run).
    pub fn wdl(&self) -> f32 {
        wdl_weight(
            self.config.wdl,
            self.config.wdl_end,
            self.progress.step,
            self.total_steps,
        )
    }

    /// The statistics of every epoch completed, in order.
    pub fn history(&self) -> &[EpochStats] {
        &self.progress.history
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
    pub fn train_epoch(&mut self) -> Result<EpochStats, TrainError> {
        loop {
            // Without a stop flag the first call always completes the epoch.
            if let Some(stats) = self.train_epoch_with(None, &mut |_| {})? {
                return Ok(stats);
            }
        }
    }

    /// Trains the rest of the current epoch, calling `on_batch` with the
    /// positions of the epoch done after each batch. When `stop` is raised
    /// the call returns `Ok(None)` at the end of the batch in progress; the
    /// trainer is then in a consistent state (save a
    /// [`checkpoint`](Self::checkpoint), or carry on with another call).
    /// Returns the epoch's statistics, also appended to
    /// [`history`](Self::history), once it completes; an error if the data
    /// cannot be read.
    pub fn train_epoch_with(
        &mut self,
        stop: Option<&AtomicBool>,
        on_batch: &mut dyn FnMut(u64),
    ) -> Result<Option<EpochStats>, TrainError> {
        let len = self.plan.train_len();
        let batch = self.config.batch_size as u64;
        while self.progress.cursor < len {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Ok(None);
            }
            let started = Instant::now();
            let Some((w, start)) = self
                .plan
                .window_at(self.progress.epoch, self.progress.cursor)
            else {
                break;
            };
            if self.window.as_ref().map(|win| win.key) != Some((self.progress.epoch, w)) {
                self.window = None;
                let window = self.plan.load(
                    &self.data,
                    self.progress.epoch,
                    w,
                    start,
                    self.config.mirror,
                    &mut self.buf,
                )?;
                self.window = Some(window);
            }
            let (from, to) = match &self.window {
                Some(win) => {
                    let from = self.progress.cursor - win.start;
                    let to = (from + batch).min(win.positions.len() as u64);
                    (from as usize, to as usize)
                }
                None => break,
            };
            self.train_batch(from, to);
            self.progress.cursor += (to - from) as u64;
            self.progress.epoch_seconds += started.elapsed().as_secs_f64();
            on_batch(self.progress.cursor);
        }
        self.window = None;
        let stats = EpochStats {
            epoch: self.progress.epoch + 1,
            train_loss: self.progress.epoch_loss / len as f64,
            val_loss: self.validation_loss(),
            positions: len,
            seconds: self.progress.epoch_seconds,
        };
        Ok(Some(self.progress.end_epoch(stats)))
    }

    /// One batch: positions `from..to` of the loaded window, split among
    /// the threads, then one AdamW step.
    fn train_batch(&mut self, from: usize, to: usize) {
        let Some(window) = &self.window else { return };
        let positions = &window.positions[from..to];
        // The mean over the batch: each position's gradient scaled by 1/len.
        let scale = 1.0 / positions.len().max(1) as f32;
        let wdl = self.wdl();
        let lr = self.learning_rate();
        let chunk = positions.len().div_ceil(self.workers.len());
        let params = &self.params[..];
        if self.workers.len() == 1 {
            self.workers[0].train(params, positions, wdl, scale);
        } else {
            std::thread::scope(|s| {
                for (worker, part) in self.workers.iter_mut().zip(positions.chunks(chunk.max(1))) {
                    s.spawn(move || worker.train(params, part, wdl, scale));
                }
            });
        }
        let (first, rest) = self.workers.split_at_mut(1);
        let total = &mut first[0];
        for worker in rest {
            self.progress.epoch_loss += std::mem::take(&mut worker.loss);
            worker.drain_into(total);
        }
        self.progress.epoch_loss += std::mem::take(&mut total.loss);
        self.progress.step += 1;
        let quant = self.config.arch.quant;
        let step = Step {
            t: self.progress.step,
            lr,
            weight_decay: self.config.weight_decay,
            feature_clip: quant.feature_clip(),
            output_clip: quant.output_clip(),
        };
        adamw_step(
            self.layout,
            &mut self.params,
            &total.grad,
            &mut self.m,
            &mut self.v,
            &total.touched_rows,
            &step,
        );
        total.clear();
    }

    /// The mean squared error over `records` at the current WDL weight,
    /// computed on the configured threads (NaN for none).
    pub fn loss_on(&mut self, records: &[PackedBoard]) -> f64 {
        if records.is_empty() {
            return f64::NAN;
        }
        let wdl = self.wdl();
        let params = &self.params[..];
        let chunk = records.len().div_ceil(self.workers.len());
        std::thread::scope(|s| {
            for (worker, part) in self.workers.iter_mut().zip(records.chunks(chunk)) {
                s.spawn(move || worker.evaluate(params, part, wdl));
            }
        });
        let sum: f64 = self
            .workers
            .iter_mut()
            .map(|w| std::mem::take(&mut w.loss))
            .sum();
        sum / records.len() as f64
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
    /// `records`: the variance of the targets. A trained net should do
    /// much better.
    pub fn constant_loss(&self, records: &[PackedBoard]) -> f64 {
        let wdl = self.wdl();
        let targets: Vec<f64> = records.iter().map(|r| target(r, wdl) as f64).collect();
        let mean = targets.iter().sum::<f64>() / targets.len().max(1) as f64;
        targets.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / targets.len().max(1) as f64
    }

    /// The mean squared error over `records` of another predictor of the
    /// same targets: `eval` gives a record's evaluation in centipawns from
    /// the side to move's point of view (`None`: the record is left out),
    /// read through the same sigmoid as the net's. With a hand-written
    /// evaluation this says whether the net has learned more than it.
    pub fn baseline_loss(
        &self,
        records: &[PackedBoard],
        mut eval: impl FnMut(&PackedBoard) -> Option<f32>,
    ) -> f64 {
        let wdl = self.wdl();
        let scale = self.config.arch.quant.scale as f32;
        let (mut sum, mut count) = (0.0f64, 0usize);
        for record in records {
            if let Some(cp) = eval(record) {
                let err = sigmoid(cp / scale) - target(record, wdl);
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
        ) * self.config.arch.quant.scale as f32
    }

    /// The float network's win probability for the side to move
    /// (`sigmoid(predict / scale)`), what the loss compares with the
    /// target.
    pub fn predict_probability(&self, record: &PackedBoard) -> f32 {
        sigmoid(self.predict(record) / self.config.arch.quant.scale as f32)
    }

    /// The quantized network of the architecture: feature weights and
    /// biases × QA and output weights × QB rounded to `i16` (within the
    /// bounds of [`Quant`](fianchetto_eval::nnue::Quant), which training
    /// clips to), the output biases × QA·QB rounded to `i32` (within
    /// [`Quant::max_output_bias`](fianchetto_eval::nnue::Quant::max_output_bias)).
    ///
    /// Rounding costs precision, mostly in the output weights (steps of
    /// 1/64): the quantized evaluation typically differs from
    /// [`predict`](Self::predict) by a few centipawns, by a few tens on
    /// rare positions.
    pub fn export(&self) -> Network {
        let l = self.layout;
        let arch = self.config.arch;
        let q = arch.quant;
        let quantize = |x: f32, scale: i32, max: i32| {
            ((x as f64 * f64::from(scale)).round() as i32).clamp(-max, max) as i16
        };
        let (fmax, omax) = (q.max_feature_weight(), q.max_output_weight());
        let ft_weights = self.params[l.ft_weights()]
            .iter()
            .map(|&w| quantize(w, q.qa, fmax))
            .collect();
        let ft_bias = self.params[l.ft_bias()]
            .iter()
            .map(|&w| quantize(w, q.qa, fmax))
            .collect();
        let mut out_weights: Vec<i16> = self.params[l.out_weights()]
            .iter()
            .map(|&w| quantize(w, q.qb, omax))
            .collect();
        for bucket in out_weights.chunks_mut(2 * arch.hidden) {
            fit_output_total(bucket, q.max_output_weight_total());
        }
        let out_bias = self.params[l.out_bias()]
            .iter()
            // Within the evaluation range, as loading requires.
            .map(|&b| {
                let max = q.max_output_bias() as f64;
                (b as f64 * f64::from(q.qa) * f64::from(q.qb))
                    .round()
                    .clamp(-max, max) as i32
            })
            .collect();
        match Network::new(arch, ft_weights, ft_bias, out_weights, out_bias) {
            Ok(net) => net,
            // Every weight was clamped to the bounds the checks use and the
            // architecture was validated with the configuration.
            Err(e) => unreachable!("the export breaks its own bounds: {e}"),
        }
    }

    /// The float parameters in the flat layout the checkpoint stores (the
    /// network file's order: feature weights, feature biases, output
    /// weights per bucket, output biases).
    pub fn parameters(&self) -> &[f32] {
        &self.params
    }
}

/// Scales an output bucket's quantized weights toward zero, where needed,
/// so that each sign's total stays within `limit`
/// ([`Quant::max_output_weight_total`](fianchetto_eval::nnue::Quant::max_output_weight_total):
/// the output layer's `i32` sum must not wrap). Truncating each weight keeps
/// both totals within the limit; a bucket already inside it is unchanged.
fn fit_output_total(weights: &mut [i16], limit: i64) {
    let total = output_weight_total(weights);
    if total > limit {
        for w in weights {
            *w = (i64::from(*w) * limit / total) as i16;
        }
    }
}

#[cfg(test)]
mod output_total_tests {
    use super::*;

    #[test]
    fn a_bucket_past_the_limit_is_scaled_inside_it() {
        let limit = fianchetto_eval::nnue::Quant::DEFAULT.max_output_weight_total();
        assert_eq!(limit, 33_025);
        // 512 weights at +128 (the per-weight bound) add up to 65 536.
        let mut weights = vec![128i16; 512];
        weights[1] = -128;
        fit_output_total(&mut weights, limit);
        assert!(output_weight_total(&weights) <= limit);
        assert!(
            output_weight_total(&weights) > limit - 512,
            "scaled, not zeroed"
        );
        assert!(weights[1] < 0 && weights[0] > 0, "signs kept");
        // One inside it is left alone.
        let mut small = vec![10i16, -20, 30];
        fit_output_total(&mut small, limit);
        assert_eq!(small, [10, -20, 30]);
    }
}
