//! The loop of epochs behind [`run`](crate::run) and
//! [`policy::run`](crate::policy::run): one loop, with its progress bar,
//! its saves and its stop, drives both trainers.

use crate::progress::Progress;
use crate::{RunOutcome, TrainError};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Where a run stands.
pub(crate) struct Standing {
    /// Epochs completed.
    pub(crate) epochs_done: u32,
    /// Epochs of the whole run.
    pub(crate) epochs: u32,
    /// Positions of the current epoch already trained on.
    pub(crate) done: u64,
    /// Positions an epoch trains on.
    pub(crate) len: u64,
}

impl Standing {
    /// Where a run at `progress` stands, with `epochs` epochs of `len`
    /// positions.
    pub(crate) fn of<S>(progress: &Progress<S>, epochs: u32, len: u64) -> Standing {
        Standing {
            epochs_done: progress.epoch,
            epochs,
            done: progress.cursor,
            len,
        }
    }
}

/// What the loop needs of a trainer.
pub(crate) trait Epochs {
    /// The statistics of an epoch.
    type Stats;
    /// Where the run stands.
    fn standing(&self) -> Standing;
    /// Trains the rest of the current epoch, calling `on_batch` with the
    /// positions of the epoch done after each batch: its statistics, or
    /// `None` where `stop` was raised first.
    fn train_or_stop(
        &mut self,
        stop: &AtomicBool,
        on_batch: &mut dyn FnMut(u64),
    ) -> Result<Option<Self::Stats>, TrainError>;
    /// Writes every output next to the network file `out`.
    fn save(&self, out: &Path) -> Result<(), TrainError>;
}

/// Trains until every epoch is done or `stop` is raised, saving the outputs
/// after every epoch (and when stopped), showing a progress bar per epoch
/// unless `progress` is false, and calling `on_epoch` after each epoch.
pub(crate) fn run<T: Epochs>(
    trainer: &mut T,
    out: &Path,
    progress: bool,
    stop: &AtomicBool,
    on_epoch: &mut dyn FnMut(&T::Stats),
) -> Result<RunOutcome, TrainError> {
    loop {
        let now = trainer.standing();
        if now.epochs_done >= now.epochs {
            break;
        }
        let bar = if progress {
            let bar = ProgressBar::new(now.len).with_position(now.done);
            bar.set_style(
                ProgressStyle::with_template(
                    "epoch {prefix} {bar:40} {human_pos}/{human_len} positions, {msg}, ETA {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_prefix(format!("{}/{}", now.epochs_done + 1, now.epochs));
            bar.reset_eta();
            bar
        } else {
            ProgressBar::hidden()
        };
        let started = std::time::Instant::now();
        let done = trainer.train_or_stop(stop, &mut |p| {
            bar.set_position(p);
            let rate =
                p.saturating_sub(now.done) as f64 / started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!("{rate:.0} positions/s"));
        });
        // Cleared before an error is reported too.
        bar.finish_and_clear();
        let done = done?;
        trainer.save(out)?;
        if let Some(stats) = done {
            on_epoch(&stats);
        } else {
            let now = trainer.standing();
            return Ok(RunOutcome::Interrupted {
                epochs_done: now.epochs_done,
                positions: now.done,
            });
        }
    }
    trainer.save(out)?;
    Ok(RunOutcome::Finished)
}
