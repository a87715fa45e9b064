//! The policy checkpoint file: everything needed to continue a run
//! exactly.
//!
//! All numbers little-endian; `f32`/`f64` as IEEE-754 bits.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FIANPCKP` |
//! | 8 | 4 | format version (1) |
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
//! | 64 | 8 | training examples in the data |
//! | 72 | 8 | fingerprint of the data ([`PolicyData::fingerprint`](super::PolicyData::fingerprint)) |
//! | 80 | 8 | optimiser steps taken |
//! | 88 | 4 | epochs completed |
//! | 92 | 8 | positions of the current epoch done |
//! | 100 | 8 | the current epoch's summed loss so far, `f64` |
//! | 108 | 8 | the current epoch's training seconds so far, `f64` |
//! | 116 | 4 | E: entries of the epoch history (= epochs completed) |
//! | 120 | 60·E | per epoch: number `u32`, train loss, validation loss, quantized validation loss, top-1, top-3 (`f64`, NaN: no validation), positions `u64`, seconds `f64` |
//! | … | 4·P | the parameters, `f32`, in the policy file's order |
//! | … | 4·P | AdamW's first moments |
//! | … | 4·P | AdamW's second moments |
//! | … | 8 | FNV-1a (64-bit) checksum of every byte before it |

use super::{PolicyEpochStats, PolicyTrainConfig, PolicyTrainer, PolicyValidation};
use crate::{LrSchedule, TrainError};
use fianchetto_eval::policy::PolicyArch;
use std::path::Path;

/// The policy checkpoint's magic bytes.
pub const POLICY_CHECKPOINT_MAGIC: [u8; 8] = *b"FIANPCKP";
/// The policy checkpoint format version this code reads and writes.
pub const POLICY_CHECKPOINT_VERSION: u32 = 1;
const HEADER: usize = 120;
const ENTRY: usize = 60;
const CHECKSUM: usize = 8;

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
    #[error("policy checkpoint format version {0}; this build reads version {POLICY_CHECKPOINT_VERSION}")]
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

fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// A saved policy run, decoded and checked: read one with
/// [`PolicyCheckpoint::from_bytes`] or [`PolicyCheckpoint::read`],
/// continue it with [`PolicyTrainer::resume`].
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyCheckpoint {
    pub(super) config: PolicyTrainConfig,
    pub(super) positions: u64,
    pub(super) fingerprint: u64,
    pub(super) step: u64,
    pub(super) epoch: u32,
    pub(super) cursor: u64,
    pub(super) epoch_loss: f64,
    pub(super) epoch_seconds: f64,
    pub(super) history: Vec<PolicyEpochStats>,
    pub(super) params: Vec<f32>,
    pub(super) m: Vec<f32>,
    pub(super) v: Vec<f32>,
}

/// Reads little-endian fields from a slice whose length was checked.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Fields<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], PolicyCheckpointError> {
        let out = self
            .bytes
            .get(self.at..self.at + N)
            .and_then(|s| <[u8; N]>::try_from(s).ok())
            .ok_or_else(|| PolicyCheckpointError::Invalid("a field past the end".into()))?;
        self.at += N;
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, PolicyCheckpointError> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Result<u64, PolicyCheckpointError> {
        self.take().map(u64::from_le_bytes)
    }
    fn f32(&mut self) -> Result<f32, PolicyCheckpointError> {
        self.take().map(f32::from_le_bytes)
    }
    fn f64(&mut self) -> Result<f64, PolicyCheckpointError> {
        self.take().map(f64::from_le_bytes)
    }
    fn floats(&mut self, n: usize) -> Result<Vec<f32>, PolicyCheckpointError> {
        let bytes = self
            .bytes
            .get(self.at..self.at + 4 * n)
            .ok_or_else(|| PolicyCheckpointError::Invalid("weights past the end".into()))?;
        self.at += 4 * n;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
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
        self.epoch
    }

    /// Positions of the next epoch it had already trained on.
    pub fn epoch_progress(&self) -> u64 {
        self.cursor
    }

    /// The statistics of its completed epochs.
    pub fn history(&self) -> &[PolicyEpochStats] {
        &self.history
    }

    /// Decodes a checkpoint, refusing anything that is not exactly one.
    ///
    /// # Errors
    ///
    /// What is wrong with the bytes ([`PolicyCheckpointError`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<PolicyCheckpoint, PolicyCheckpointError> {
        if bytes.len() < HEADER + CHECKSUM {
            return Err(PolicyCheckpointError::TooShort(bytes.len()));
        }
        if bytes[0..8] != POLICY_CHECKPOINT_MAGIC {
            return Err(PolicyCheckpointError::Magic);
        }
        let mut f = Fields { bytes, at: 8 };
        let version = f.u32()?;
        if version != POLICY_CHECKPOINT_VERSION {
            return Err(PolicyCheckpointError::Version(version));
        }
        let hidden = f.u32()?;
        let arch = PolicyArch::new(hidden as usize)
            .map_err(|e| PolicyCheckpointError::Invalid(e.to_string()))?;
        f.at = HEADER - 4;
        let entries = f.u32()?;
        let p = arch.weight_count() as u64;
        let expected = (HEADER + CHECKSUM) as u64 + ENTRY as u64 * u64::from(entries) + 12 * p;
        if bytes.len() as u64 != expected {
            return Err(PolicyCheckpointError::Length {
                hidden,
                epochs: entries,
                expected,
                got: bytes.len() as u64,
            });
        }
        let body = bytes.len() - CHECKSUM;
        f.at = body;
        let stored = f.u64()?;
        let computed = fnv1a64(&bytes[..body]);
        if stored != computed {
            return Err(PolicyCheckpointError::Checksum {
                expected: stored,
                got: computed,
            });
        }
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
        };
        config
            .validate()
            .map_err(|e| PolicyCheckpointError::Invalid(e.to_string()))?;
        let positions = f.u64()?;
        let fingerprint = f.u64()?;
        let step = f.u64()?;
        let epoch = f.u32()?;
        let cursor = f.u64()?;
        let epoch_loss = f.f64()?;
        let epoch_seconds = f.f64()?;
        let _entries = f.u32()?;
        if entries != epoch {
            return Err(PolicyCheckpointError::Invalid(format!(
                "{entries} history entries for {epoch} completed epochs"
            )));
        }
        let mut history = Vec::with_capacity(entries as usize);
        for _ in 0..entries {
            let epoch = f.u32()?;
            let train_loss = f.f64()?;
            let (loss, quantized_loss, top1, top3) = (f.f64()?, f.f64()?, f.f64()?, f.f64()?);
            let positions = f.u64()?;
            let seconds = f.f64()?;
            history.push(PolicyEpochStats {
                epoch,
                train_loss,
                val: (!loss.is_nan()).then_some(PolicyValidation {
                    loss,
                    quantized_loss,
                    top1,
                    top3,
                }),
                positions,
                seconds,
            });
        }
        let p = p as usize;
        let params = f.floats(p)?;
        let m = f.floats(p)?;
        let v = f.floats(p)?;
        if let Some(bad) = params.iter().chain(&m).chain(&v).find(|x| !x.is_finite()) {
            return Err(PolicyCheckpointError::Invalid(format!(
                "a weight or moment that is not a finite number ({bad})"
            )));
        }
        Ok(PolicyCheckpoint {
            config,
            positions,
            fingerprint,
            step,
            epoch,
            cursor,
            epoch_loss,
            epoch_seconds,
            history,
            params,
            m,
            v,
        })
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
        let p = self.params.len();
        let mut out = Vec::with_capacity(HEADER + ENTRY * self.history.len() + 12 * p + CHECKSUM);
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
        for word in [self.data().len(), self.data().fingerprint(), self.step] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.cursor.to_le_bytes());
        out.extend_from_slice(&self.epoch_loss.to_le_bytes());
        out.extend_from_slice(&self.epoch_seconds.to_le_bytes());
        out.extend_from_slice(&(self.history.len() as u32).to_le_bytes());
        debug_assert_eq!(out.len(), HEADER);
        for e in &self.history {
            out.extend_from_slice(&e.epoch.to_le_bytes());
            out.extend_from_slice(&e.train_loss.to_le_bytes());
            let v = e.val;
            for x in [
                v.map(|v| v.loss),
                v.map(|v| v.quantized_loss),
                v.map(|v| v.top1),
                v.map(|v| v.top3),
            ] {
                out.extend_from_slice(&x.unwrap_or(f64::NAN).to_le_bytes());
            }
            out.extend_from_slice(&e.positions.to_le_bytes());
            out.extend_from_slice(&e.seconds.to_le_bytes());
        }
        for x in self
            .params
            .iter()
            .chain(&self.moments.m)
            .chain(&self.moments.v)
        {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The trainer's current state as a [`PolicyCheckpoint`] (what
    /// [`PolicyTrainer::resume`] continues from).
    pub fn checkpoint(&self) -> PolicyCheckpoint {
        PolicyCheckpoint {
            config: self.config().clone(),
            positions: self.data().len(),
            fingerprint: self.data().fingerprint(),
            step: self.step,
            epoch: self.epoch,
            cursor: self.cursor,
            epoch_loss: self.epoch_loss,
            epoch_seconds: self.epoch_seconds,
            history: self.history.clone(),
            params: self.params.clone(),
            m: self.moments.m.clone(),
            v: self.moments.v.clone(),
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
