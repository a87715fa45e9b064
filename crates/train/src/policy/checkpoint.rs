//! The policy checkpoint file: everything needed to continue a run
//! exactly.
//!
//! All numbers little-endian; `f32`/`f64` as IEEE-754 bits.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FIANPCKP` |
//! | 8 | 4 | format version (2) |
//! | 12 | 4 | hidden size |
//! | 16 | 4 | epochs |
//! | 20 | 8 | batch size |
//! | 28 | 4 | learning rate, `f32` |
//! | 32 | 4 | schedule: 0 cosine, 1 steps |
//! | 36 | 4 | its final factor (cosine) or gamma (steps), `f32` |
//! | 40 | 4 | its epochs between steps (steps; 0 for cosine) |
//! | 44 | 4 | weight decay, `f32` |
//! | 48 | 4 | validation fraction, `f32` |
//! | 52 | 8 | seed |
//! | 60 | 4 | threads (informative: a resumed run may use others) |
//! | 64 | 4 | mirror: 1 if positions without castling rights are also trained mirrored, else 0 |
//! | 68 | 8 | training examples in the data |
//! | 76 | 8 | fingerprint of the data ([`PolicyData::fingerprint`](super::PolicyData::fingerprint)) |
//! | 84 | 8 | optimiser steps taken |
//! | 92 | 4 | epochs completed |
//! | 96 | 8 | positions of the current epoch done |
//! | 104 | 8 | the current epoch's summed loss so far, `f64` |
//! | 112 | 8 | the current epoch's training seconds so far, `f64` |
//! | 120 | 4 | E: entries of the epoch history (= epochs completed) |
//! | 124 | 60·E | per epoch: number `u32`, train loss, validation loss, quantized validation loss, top-1, top-3 (`f64`, NaN: no validation), positions `u64`, seconds `f64` |
//! | … | 4·P | the parameters, `f32`, in the policy file's order |
//! | … | 4·P | AdamW's first moments |
//! | … | 4·P | AdamW's second moments |
//! | … | 8 | FNV-1a (64-bit) checksum of every byte before it |

use super::{PolicyEpochStats, PolicyTrainConfig, PolicyTrainer, PolicyValidation};
use crate::fields::{self, check_seal, seal, FieldError, Fields, CHECKSUM};
use crate::progress::{expected_len, HistoryEntry, Saved, SavedRef, STATE};
use crate::{LrSchedule, TrainError};
use fianchetto_eval::policy::PolicyArch;
use std::path::Path;

/// The policy checkpoint's magic bytes.
pub const POLICY_CHECKPOINT_MAGIC: [u8; 8] = *b"FIANPCKP";
/// The policy checkpoint format version this code reads and writes.
pub const POLICY_CHECKPOINT_VERSION: u32 = 2;
/// Where the saved state (shared with the NNUE's checkpoint) starts.
const STATE_AT: usize = 68;

/// Why a policy checkpoint was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PolicyCheckpointError {
    /// Shorter than the fixed header.
    #[error(
        "policy checkpoint is {0} bytes, shorter than its header (truncated, or not a checkpoint)"
    )]
    TooShort(usize),
    /// The magic bytes are wrong.
    #[error("not a Fianchetto policy trainer checkpoint (the magic bytes are not `FIANPCKP`)")]
    Magic,
    /// A version this code does not read.
    #[error("policy checkpoint format version {0}; this build reads version {POLICY_CHECKPOINT_VERSION} (a version 1 checkpoint comes from an older trainer: its network file still loads, but the run cannot be resumed)")]
    Version(u32),
    /// The length does not match what the header announces.
    #[error("policy checkpoint is {got} bytes; its hidden size {hidden} and {epochs} epochs of history need {expected} (truncated or padded)")]
    Length {
        /// The hidden size in the header.
        hidden: u32,
        /// History entries.
        epochs: u32,
        /// Bytes expected.
        expected: u64,
        /// Bytes found.
        got: u64,
    },
    /// The bytes do not match the checksum.
    #[error("policy checkpoint checksum mismatch (file corrupted): stored {expected:016x}, computed {got:016x}")]
    Checksum {
        /// Checksum stored at the end.
        expected: u64,
        /// Checksum of the bytes read.
        got: u64,
    },
    /// A field holds an impossible value.
    #[error("policy checkpoint holds an impossible value: {0}")]
    Invalid(String),
}

/// A saved policy run, decoded and checked: read one with
/// [`PolicyCheckpoint::from_bytes`] or [`PolicyCheckpoint::read`],
/// continue it with [`PolicyTrainer::resume`].
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyCheckpoint {
    pub(super) config: PolicyTrainConfig,
    pub(super) saved: Saved<PolicyEpochStats>,
}

impl From<FieldError> for PolicyCheckpointError {
    fn from(e: FieldError) -> PolicyCheckpointError {
        match e {
            FieldError::TooShort(len) => PolicyCheckpointError::TooShort(len),
            FieldError::Magic => PolicyCheckpointError::Magic,
            FieldError::Version(version) => PolicyCheckpointError::Version(version),
            FieldError::Invalid(what) => PolicyCheckpointError::Invalid(what),
            FieldError::Checksum { expected, got } => {
                PolicyCheckpointError::Checksum { expected, got }
            }
        }
    }
}

impl HistoryEntry for PolicyEpochStats {
    const BYTES: usize = 60;

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.train_loss.to_le_bytes());
        let v = self.val;
        for x in [
            v.map(|v| v.loss),
            v.map(|v| v.quantized_loss),
            v.map(|v| v.top1),
            v.map(|v| v.top3),
        ] {
            out.extend_from_slice(&x.unwrap_or(f64::NAN).to_le_bytes());
        }
        out.extend_from_slice(&self.positions.to_le_bytes());
        out.extend_from_slice(&self.seconds.to_le_bytes());
    }

    fn read(f: &mut Fields<'_>) -> Result<PolicyEpochStats, FieldError> {
        let epoch = f.u32()?;
        let train_loss = f.f64()?;
        let (loss, quantized_loss, top1, top3) = (f.f64()?, f.f64()?, f.f64()?, f.f64()?);
        Ok(PolicyEpochStats {
            epoch,
            train_loss,
            val: (!loss.is_nan()).then_some(PolicyValidation {
                loss,
                quantized_loss,
                top1,
                top3,
            }),
            positions: f.u64()?,
            seconds: f.f64()?,
        })
    }
}

impl PolicyCheckpoint {
    /// The settings of the saved run (its thread count is only what it
    /// used; a resumed run may use another).
    pub fn config(&self) -> &PolicyTrainConfig {
        &self.config
    }

    /// Epochs the saved run completed.
    pub fn epochs_done(&self) -> u32 {
        self.saved.progress.epoch
    }

    /// Positions of the next epoch it had already trained on.
    pub fn epoch_progress(&self) -> u64 {
        self.saved.progress.cursor
    }

    /// The statistics of its completed epochs.
    pub fn history(&self) -> &[PolicyEpochStats] {
        &self.saved.progress.history
    }

    /// Decodes a checkpoint, refusing anything that is not exactly one.
    ///
    /// # Errors
    ///
    /// What is wrong with the bytes ([`PolicyCheckpointError`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<PolicyCheckpoint, PolicyCheckpointError> {
        let min = STATE_AT + STATE + CHECKSUM;
        let mut f = fields::open(
            bytes,
            min,
            &POLICY_CHECKPOINT_MAGIC,
            POLICY_CHECKPOINT_VERSION,
        )?;
        let hidden = f.u32()?;
        let arch = PolicyArch::new(hidden as usize)
            .map_err(|e| PolicyCheckpointError::Invalid(e.to_string()))?;
        let p = arch.weight_count();
        let (entries, expected) = expected_len::<PolicyEpochStats>(bytes, STATE_AT, p as u64)?;
        if bytes.len() as u64 != expected {
            return Err(PolicyCheckpointError::Length {
                hidden,
                epochs: entries,
                expected,
                got: bytes.len() as u64,
            });
        }
        check_seal(bytes)?;
        f.at = 16;
        let epochs = f.u32()?;
        let batch_size = usize::try_from(f.u64()?).unwrap_or(usize::MAX);
        let lr = f.f32()?;
        let lr_schedule = match (f.u32()?, f.f32()?, f.u32()?) {
            (0, final_factor, _) => LrSchedule::Cosine { final_factor },
            (1, gamma, every) => LrSchedule::Steps { every, gamma },
            (kind, _, _) => {
                return Err(PolicyCheckpointError::Invalid(format!(
                    "learning-rate schedule kind {kind}"
                )))
            }
        };
        let config = PolicyTrainConfig {
            hidden: hidden as usize,
            epochs,
            batch_size,
            lr,
            lr_schedule,
            weight_decay: f.f32()?,
            val_fraction: f.f32()?,
            seed: f.u64()?,
            threads: f.u32()? as usize,
            mirror: match f.u32()? {
                0 => false,
                1 => true,
                flag => {
                    return Err(PolicyCheckpointError::Invalid(format!(
                        "mirror flag {flag} (0 or 1)"
                    )))
                }
            },
        };
        config
            .validate()
            .map_err(|e| PolicyCheckpointError::Invalid(e.to_string()))?;
        debug_assert_eq!(f.at, STATE_AT);
        let saved = Saved::read(&mut f, p)?;
        Ok(PolicyCheckpoint { config, saved })
    }

    /// Reads and decodes the checkpoint file `path`.
    ///
    /// # Errors
    ///
    /// The file cannot be read ([`TrainError::Io`]) or is refused
    /// ([`TrainError::PolicyCheckpoint`]); both name the path.
    pub fn read(path: &Path) -> Result<PolicyCheckpoint, TrainError> {
        let bytes = std::fs::read(path).map_err(|source| TrainError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        PolicyCheckpoint::from_bytes(&bytes).map_err(|error| TrainError::PolicyCheckpoint {
            path: path.to_path_buf(),
            error,
        })
    }
}

impl PolicyTrainer {
    /// The checkpoint file's bytes for the trainer's current state (see the
    /// [format](self)).
    pub fn checkpoint_bytes(&self) -> Vec<u8> {
        let c = self.config();
        let saved = self.saved();
        let mut out = Vec::with_capacity(STATE_AT + saved.byte_len() + CHECKSUM);
        out.extend_from_slice(&POLICY_CHECKPOINT_MAGIC);
        out.extend_from_slice(&POLICY_CHECKPOINT_VERSION.to_le_bytes());
        out.extend_from_slice(&(c.hidden as u32).to_le_bytes());
        out.extend_from_slice(&c.epochs.to_le_bytes());
        out.extend_from_slice(&(c.batch_size as u64).to_le_bytes());
        out.extend_from_slice(&c.lr.to_le_bytes());
        let (kind, x, every) = match c.lr_schedule {
            LrSchedule::Cosine { final_factor } => (0u32, final_factor, 0u32),
            LrSchedule::Steps { every, gamma } => (1, gamma, every),
        };
        out.extend_from_slice(&kind.to_le_bytes());
        out.extend_from_slice(&x.to_le_bytes());
        out.extend_from_slice(&every.to_le_bytes());
        out.extend_from_slice(&c.weight_decay.to_le_bytes());
        out.extend_from_slice(&c.val_fraction.to_le_bytes());
        out.extend_from_slice(&c.seed.to_le_bytes());
        out.extend_from_slice(&(c.threads as u32).to_le_bytes());
        out.extend_from_slice(&u32::from(c.mirror).to_le_bytes());
        debug_assert_eq!(out.len(), STATE_AT);
        saved.write(&mut out);
        seal(&mut out);
        out
    }

    /// The trainer's current state as a [`PolicyCheckpoint`] (what
    /// [`PolicyTrainer::resume`] continues from).
    pub fn checkpoint(&self) -> PolicyCheckpoint {
        PolicyCheckpoint {
            config: self.config().clone(),
            saved: self.saved().to_saved(),
        }
    }

    fn saved(&self) -> SavedRef<'_, PolicyEpochStats> {
        SavedRef {
            data: (self.data().len(), self.data().fingerprint()),
            progress: &self.progress,
            weights: [&self.params, &self.moments.m, &self.moments.v],
        }
    }

    /// Writes the checkpoint to `path` atomically (a temporary file
    /// renamed over it).
    ///
    /// # Errors
    ///
    /// The file cannot be written.
    pub fn save_checkpoint(&self, path: &Path) -> Result<(), TrainError> {
        crate::write_atomic(path, &self.checkpoint_bytes())
    }
}
