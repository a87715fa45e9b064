//! Where a run stands, shared by the NNUE and the policy trainer: the
//! progress both keep, the part of their checkpoints that saves it with the
//! optimiser state (the same bytes in both formats) and the checks before a
//! saved run continues.
//!
//! The saved state, all little-endian:
//!
//! | size | field |
//! |---|---|
//! | 8 | positions in the data |
//! | 8 | fingerprint of the data |
//! | 8 | optimiser steps taken |
//! | 4 | epochs completed |
//! | 8 | positions of the current epoch done |
//! | 8 | the current epoch's summed loss so far, `f64` |
//! | 8 | the current epoch's training seconds so far, `f64` |
//! | 4 | E: entries of the epoch history (= epochs completed) |
//! | E entries | the history, each as its format writes it ([`HistoryEntry`]) |
//! | 4·P | the parameters, `f32` |
//! | 4·P | AdamW's first moments |
//! | 4·P | AdamW's second moments |

use crate::fields::{FieldError, Fields, CHECKSUM};
use crate::TrainError;

/// Bytes of the saved state before the history.
pub(crate) const STATE: usize = 8 + 8 + 8 + 4 + 8 + 8 + 8 + 4;

/// An epoch's statistics as a checkpoint's history stores them (each
/// trainer's statistics hold other validation figures).
pub(crate) trait HistoryEntry: Sized {
    /// Bytes of one entry.
    const BYTES: usize;
    /// Appends the entry.
    fn write(&self, out: &mut Vec<u8>);
    /// Reads one entry.
    fn read(f: &mut Fields<'_>) -> Result<Self, FieldError>;
}

/// The progress of a run, with `S` the statistics of an epoch.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Progress<S> {
    /// Optimiser steps taken.
    pub(crate) step: u64,
    /// Epochs completed.
    pub(crate) epoch: u32,
    /// Positions of the current epoch already trained on.
    pub(crate) cursor: u64,
    /// The current epoch's summed loss so far.
    pub(crate) epoch_loss: f64,
    /// The current epoch's training seconds so far.
    pub(crate) epoch_seconds: f64,
    /// The statistics of the completed epochs.
    pub(crate) history: Vec<S>,
}

impl<S> Default for Progress<S> {
    fn default() -> Progress<S> {
        Progress {
            step: 0,
            epoch: 0,
            cursor: 0,
            epoch_loss: 0.0,
            epoch_seconds: 0.0,
            history: Vec::new(),
        }
    }
}

impl<S: Copy> Progress<S> {
    /// Closes the current epoch, whose statistics are `stats`, and returns
    /// them.
    pub(crate) fn end_epoch(&mut self, stats: S) -> S {
        self.history.push(stats);
        self.epoch += 1;
        self.cursor = 0;
        self.epoch_loss = 0.0;
        self.epoch_seconds = 0.0;
        stats
    }
}

impl<S> Progress<S> {
    /// This progress for a run whose epochs have `train_len` positions,
    /// refused where it is further into its epoch than that.
    pub(crate) fn fitting(self, train_len: u64) -> Result<Progress<S>, TrainError> {
        if self.cursor > train_len {
            return Err(TrainError::Resume(format!(
                "the checkpoint is {} positions into an epoch of {train_len}",
                self.cursor
            )));
        }
        Ok(self)
    }
}

/// A saved run: the data it trained on, its progress and its optimiser
/// state.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Saved<S> {
    /// Positions in the data.
    pub(crate) positions: u64,
    /// The data's fingerprint.
    pub(crate) fingerprint: u64,
    pub(crate) progress: Progress<S>,
    pub(crate) params: Vec<f32>,
    pub(crate) m: Vec<f32>,
    pub(crate) v: Vec<f32>,
}

impl<S> Saved<S> {
    /// Refuses to continue this run with settings that differ from its own
    /// by `differences` (as the configurations' `differences` name them),
    /// or on data of `positions` positions with another `fingerprint`.
    pub(crate) fn check_fits(
        &self,
        differences: Vec<String>,
        positions: u64,
        fingerprint: u64,
    ) -> Result<(), TrainError> {
        if !differences.is_empty() {
            return Err(TrainError::Resume(format!(
                "the checkpoint was made with other settings ({}; checkpoint vs now)",
                differences.join(", ")
            )));
        }
        if self.positions != positions || self.fingerprint != fingerprint {
            return Err(TrainError::Resume(format!(
                "the checkpoint was made on other data ({} positions, fingerprint {:016x}; \
                 now {positions} positions, fingerprint {fingerprint:016x}): pass the same \
                 files in the same order",
                self.positions, self.fingerprint,
            )));
        }
        Ok(())
    }
}

/// The history entries a file announces whose saved state starts at byte
/// `at`, and the length the file must then have with `p` parameters.
pub(crate) fn expected_len<S: HistoryEntry>(
    bytes: &[u8],
    at: usize,
    p: u64,
) -> Result<(u32, u64), FieldError> {
    let entries = Fields::at(bytes, at + STATE - 4).u32()?;
    let len = (at + STATE + CHECKSUM) as u64 + S::BYTES as u64 * u64::from(entries) + 12 * p;
    Ok((entries, len))
}

/// A trainer's state as its checkpoint saves it, borrowed from the
/// trainer: written into the file, or copied into a [`Saved`].
pub(crate) struct SavedRef<'a, S> {
    /// Positions in the data and the data's fingerprint.
    pub(crate) data: (u64, u64),
    pub(crate) progress: &'a Progress<S>,
    /// The parameters, AdamW's first moments and its second moments.
    pub(crate) weights: [&'a [f32]; 3],
}

impl<S: HistoryEntry + Clone> SavedRef<'_, S> {
    /// Bytes of the saved state in a file.
    pub(crate) fn byte_len(&self) -> usize {
        let floats: usize = self.weights.iter().map(|w| w.len()).sum();
        STATE + S::BYTES * self.progress.history.len() + 4 * floats
    }

    /// Appends the saved state.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        let p = self.progress;
        for word in [self.data.0, self.data.1, p.step] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&p.epoch.to_le_bytes());
        out.extend_from_slice(&p.cursor.to_le_bytes());
        out.extend_from_slice(&p.epoch_loss.to_le_bytes());
        out.extend_from_slice(&p.epoch_seconds.to_le_bytes());
        out.extend_from_slice(&(p.history.len() as u32).to_le_bytes());
        for e in &p.history {
            e.write(out);
        }
        for x in self.weights.into_iter().flatten() {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }

    /// An owned copy.
    pub(crate) fn to_saved(&self) -> Saved<S> {
        let [params, m, v] = self.weights.map(<[f32]>::to_vec);
        Saved {
            positions: self.data.0,
            fingerprint: self.data.1,
            progress: self.progress.clone(),
            params,
            m,
            v,
        }
    }
}

impl<S: HistoryEntry> Saved<S> {
    /// Reads the saved state at `f` of a network of `p` parameters (the
    /// file's length already checked).
    pub(crate) fn read(f: &mut Fields<'_>, p: usize) -> Result<Saved<S>, FieldError> {
        let positions = f.u64()?;
        let fingerprint = f.u64()?;
        let step = f.u64()?;
        let epoch = f.u32()?;
        let cursor = f.u64()?;
        let epoch_loss = f.f64()?;
        let epoch_seconds = f.f64()?;
        let entries = f.u32()?;
        if entries != epoch {
            return Err(FieldError::Invalid(format!(
                "{entries} history entries for {epoch} completed epochs"
            )));
        }
        let history = (0..entries)
            .map(|_| S::read(f))
            .collect::<Result<Vec<S>, FieldError>>()?;
        let params = f.floats(p)?;
        let m = f.floats(p)?;
        let v = f.floats(p)?;
        if let Some(bad) = params.iter().chain(&m).chain(&v).find(|x| !x.is_finite()) {
            return Err(FieldError::Invalid(format!(
                "a weight or moment that is not a finite number ({bad})"
            )));
        }
        Ok(Saved {
            positions,
            fingerprint,
            progress: Progress {
                step,
                epoch,
                cursor,
                epoch_loss,
                epoch_seconds,
                history,
            },
            params,
            m,
            v,
        })
    }
}
