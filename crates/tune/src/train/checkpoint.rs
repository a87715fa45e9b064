//! The checkpoint file: everything needed to continue a run exactly.
//!
//! All numbers little-endian; `f32`/`f64` as IEEE-754 bits.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FIANCKPT` |
//! | 8 | 4 | format version (2) |
//! | 12 | 4 | hidden size H |
//! | 16 | 4 | epochs planned |
//! | 20 | 4 | batch size |
//! | 24 | 4 | threads (informative: a resumed run may use others) |
//! | 28 | 4 | learning rate, `f32` |
//! | 32 | 4 | final learning-rate factor, `f32` |
//! | 36 | 4 | weight decay, `f32` |
//! | 40 | 4 | WDL weight, `f32` |
//! | 44 | 4 | validation fraction, `f32` |
//! | 48 | 8 | seed |
//! | 56 | 8 | positions in the data |
//! | 64 | 8 | fingerprint of the data ([`TrainData::fingerprint`](super::TrainData::fingerprint)) |
//! | 72 | 8 | optimiser steps taken |
//! | 80 | 4 | epochs completed |
//! | 84 | 8 | positions of the current epoch done |
//! | 92 | 8 | the current epoch's summed loss so far, `f64` |
//! | 100 | 8 | the current epoch's training seconds so far, `f64` |
//! | 108 | 4 | flags: bit 0 set when positions are mirrored ([`TrainConfig::mirror`]) |
//! | 112 | 4 | E: entries of the epoch history (= epochs completed) |
//! | 116 | 36·E | per epoch: number `u32`, train loss `f64`, validation loss `f64` (NaN: none), positions `u64`, seconds `f64` |
//! | … | 4·P | the parameters, `f32`, P = 771·H + 1, in the [trainer's flat layout](super::Trainer::parameters) |
//! | … | 4·P | AdamW's first moments |
//! | … | 4·P | AdamW's second moments |
//! | … | 8 | FNV-1a (64-bit) checksum of every byte before it |

use super::trainer::EpochStats;
use super::{TrainConfig, TrainError, Trainer};
use fianchetto_eval::nnue::{INPUTS, MAX_HIDDEN};
use std::path::Path;

/// The checkpoint file's magic bytes.
pub const CHECKPOINT_MAGIC: [u8; 8] = *b"FIANCKPT";
/// The checkpoint format version this code reads and writes.
pub const CHECKPOINT_VERSION: u32 = 2;
const HEADER: usize = 116;
const ENTRY: usize = 36;
const CHECKSUM: usize = 8;

/// Why a checkpoint was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// Shorter than the fixed header.
    #[error("checkpoint is {0} bytes, shorter than its {HEADER}-byte header (truncated, or not a checkpoint)")]
    TooShort(usize),
    /// The magic bytes are wrong.
    #[error("not a Fianchetto trainer checkpoint (the magic bytes are not `FIANCKPT`)")]
    Magic,
    /// A version this code does not read.
    #[error("checkpoint format version {0}; this build reads version {CHECKPOINT_VERSION}")]
    Version(u32),
    /// The length does not match what the header announces.
    #[error("checkpoint is {got} bytes; its header (hidden size {hidden}, {epochs} epochs of history) needs {expected} (truncated or padded)")]
    Length {
        /// Hidden size in the header.
        hidden: u32,
        /// History entries in the header.
        epochs: u32,
        /// Bytes expected.
        expected: u64,
        /// Bytes found.
        got: u64,
    },
    /// The bytes do not match the checksum.
    #[error("checkpoint checksum mismatch (file corrupted): stored {expected:016x}, computed {got:016x}")]
    Checksum {
        /// Checksum stored at the end.
        expected: u64,
        /// Checksum of the bytes read.
        got: u64,
    },
    /// A field holds an impossible value.
    #[error("checkpoint holds an impossible value: {0}")]
    Invalid(String),
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// A saved run, decoded and checked: read one with
/// [`Checkpoint::from_bytes`] or [`Checkpoint::read`], continue it with
/// [`Trainer::resume`].
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub(crate) config: TrainConfig,
    pub(crate) positions: u64,
    pub(crate) fingerprint: u64,
    pub(crate) step: u64,
    pub(crate) epoch: u32,
    pub(crate) cursor: u64,
    pub(crate) epoch_loss: f64,
    pub(crate) epoch_seconds: f64,
    pub(crate) history: Vec<EpochStats>,
    pub(crate) params: Vec<f32>,
    pub(crate) m: Vec<f32>,
    pub(crate) v: Vec<f32>,
}

fn param_count(hidden: usize) -> usize {
    (INPUTS + 3) * hidden + 1
}

/// Reads little-endian fields from a slice whose length was checked.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Fields<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], CheckpointError> {
        let out = self
            .bytes
            .get(self.at..self.at + N)
            .and_then(|s| <[u8; N]>::try_from(s).ok())
            .ok_or_else(|| CheckpointError::Invalid("a field past the end".into()))?;
        self.at += N;
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, CheckpointError> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Result<u64, CheckpointError> {
        self.take().map(u64::from_le_bytes)
    }
    fn f32(&mut self) -> Result<f32, CheckpointError> {
        self.take().map(f32::from_le_bytes)
    }
    fn f64(&mut self) -> Result<f64, CheckpointError> {
        self.take().map(f64::from_le_bytes)
    }
    fn floats(&mut self, n: usize) -> Result<Vec<f32>, CheckpointError> {
        let bytes = self
            .bytes
            .get(self.at..self.at + 4 * n)
            .ok_or_else(|| CheckpointError::Invalid("weights past the end".into()))?;
        self.at += 4 * n;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

impl Checkpoint {
    /// The settings of the saved run (its thread count is only what it
    /// used; a resumed run may use another).
    pub fn config(&self) -> &TrainConfig {
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
    pub fn history(&self) -> &[EpochStats] {
        &self.history
    }

    /// Decodes a checkpoint, refusing anything that is not exactly one.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        if bytes.len() < HEADER + CHECKSUM {
            return Err(CheckpointError::TooShort(bytes.len()));
        }
        if bytes[0..8] != CHECKPOINT_MAGIC {
            return Err(CheckpointError::Magic);
        }
        let mut f = Fields { bytes, at: 8 };
        let version = f.u32()?;
        if version != CHECKPOINT_VERSION {
            return Err(CheckpointError::Version(version));
        }
        let hidden = f.u32()?;
        let epochs_field_at = 112;
        let entries = u32::from_le_bytes(
            bytes[epochs_field_at..epochs_field_at + 4]
                .try_into()
                .map_err(|_| CheckpointError::TooShort(bytes.len()))?,
        );
        if hidden as usize > MAX_HIDDEN || hidden == 0 || hidden % 16 != 0 {
            return Err(CheckpointError::Invalid(format!(
                "hidden size {hidden} (expected a multiple of 16 from 16 to {MAX_HIDDEN})"
            )));
        }
        let p = param_count(hidden as usize);
        let expected = (HEADER + CHECKSUM) as u64 + ENTRY as u64 * entries as u64 + 12 * p as u64;
        if bytes.len() as u64 != expected {
            return Err(CheckpointError::Length {
                hidden,
                epochs: entries,
                expected,
                got: bytes.len() as u64,
            });
        }
        let body = bytes.len() - CHECKSUM;
        let stored = u64::from_le_bytes(
            bytes[body..]
                .try_into()
                .map_err(|_| CheckpointError::TooShort(bytes.len()))?,
        );
        let computed = fnv1a64(&bytes[..body]);
        if stored != computed {
            return Err(CheckpointError::Checksum {
                expected: stored,
                got: computed,
            });
        }
        let epochs = f.u32()?;
        let batch_size = f.u32()? as usize;
        let threads = f.u32()? as usize;
        let lr = f.f32()?;
        let final_lr_factor = f.f32()?;
        let weight_decay = f.f32()?;
        let wdl = f.f32()?;
        let val_fraction = f.f32()?;
        let seed = f.u64()?;
        let flags = u32::from_le_bytes(
            bytes[108..112]
                .try_into()
                .map_err(|_| CheckpointError::TooShort(bytes.len()))?,
        );
        if flags > 1 {
            return Err(CheckpointError::Invalid(format!("flags {flags:#x}")));
        }
        let config = TrainConfig {
            hidden: hidden as usize,
            epochs,
            batch_size,
            lr,
            final_lr_factor,
            weight_decay,
            wdl,
            val_fraction,
            seed,
            threads,
            mirror: flags & 1 == 1,
        };
        config
            .validate()
            .map_err(|e| CheckpointError::Invalid(e.to_string()))?;
        let positions = f.u64()?;
        let fingerprint = f.u64()?;
        let step = f.u64()?;
        let epoch = f.u32()?;
        let cursor = f.u64()?;
        let epoch_loss = f.f64()?;
        let epoch_seconds = f.f64()?;
        let _flags = f.u32()?;
        let _entries = f.u32()?;
        if entries != epoch {
            return Err(CheckpointError::Invalid(format!(
                "{entries} history entries for {epoch} completed epochs"
            )));
        }
        let mut history = Vec::with_capacity(entries as usize);
        for _ in 0..entries {
            let epoch = f.u32()?;
            let train_loss = f.f64()?;
            let val = f.f64()?;
            let positions = f.u64()?;
            let seconds = f.f64()?;
            history.push(EpochStats {
                epoch,
                train_loss,
                val_loss: (!val.is_nan()).then_some(val),
                positions,
                seconds,
            });
        }
        let params = f.floats(p)?;
        let m = f.floats(p)?;
        let v = f.floats(p)?;
        if let Some(bad) = params.iter().chain(&m).chain(&v).find(|x| !x.is_finite()) {
            return Err(CheckpointError::Invalid(format!(
                "a weight or moment that is not a finite number ({bad})"
            )));
        }
        Ok(Checkpoint {
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
    pub fn read(path: &Path) -> Result<Checkpoint, TrainError> {
        let bytes = std::fs::read(path).map_err(|source| TrainError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Checkpoint::from_bytes(&bytes).map_err(|error| TrainError::Checkpoint {
            path: path.to_path_buf(),
            error,
        })
    }
}

impl Trainer {
    /// The checkpoint file's bytes for the trainer's current state (see the
    /// [format](super::checkpoint)).
    pub fn checkpoint_bytes(&self) -> Vec<u8> {
        let c = &self.config;
        let p = self.params.len();
        let mut out = Vec::with_capacity(HEADER + ENTRY * self.history.len() + 12 * p + CHECKSUM);
        out.extend_from_slice(&CHECKPOINT_MAGIC);
        for word in [
            CHECKPOINT_VERSION,
            c.hidden as u32,
            c.epochs,
            c.batch_size as u32,
            c.threads as u32,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        for x in [
            c.lr,
            c.final_lr_factor,
            c.weight_decay,
            c.wdl,
            c.val_fraction,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for word in [
            c.seed,
            self.data.len() as u64,
            self.data.fingerprint(),
            self.step,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.cursor.to_le_bytes());
        out.extend_from_slice(&self.epoch_loss.to_le_bytes());
        out.extend_from_slice(&self.epoch_seconds.to_le_bytes());
        out.extend_from_slice(&u32::from(c.mirror).to_le_bytes());
        out.extend_from_slice(&(self.history.len() as u32).to_le_bytes());
        debug_assert_eq!(out.len(), HEADER);
        for e in &self.history {
            out.extend_from_slice(&e.epoch.to_le_bytes());
            out.extend_from_slice(&e.train_loss.to_le_bytes());
            out.extend_from_slice(&e.val_loss.unwrap_or(f64::NAN).to_le_bytes());
            out.extend_from_slice(&e.positions.to_le_bytes());
            out.extend_from_slice(&e.seconds.to_le_bytes());
        }
        for x in self.params.iter().chain(&self.m).chain(&self.v) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The trainer's current state as a [`Checkpoint`] (what
    /// [`Trainer::resume`] continues from).
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            config: self.config.clone(),
            positions: self.data.len() as u64,
            fingerprint: self.data.fingerprint(),
            step: self.step,
            epoch: self.epoch,
            cursor: self.cursor,
            epoch_loss: self.epoch_loss,
            epoch_seconds: self.epoch_seconds,
            history: self.history.clone(),
            params: self.params.clone(),
            m: self.m.clone(),
            v: self.v.clone(),
        }
    }

    /// Writes the checkpoint to `path` atomically (a temporary file
    /// renamed over it).
    pub fn save_checkpoint(&self, path: &Path) -> Result<(), TrainError> {
        super::write_atomic(path, &self.checkpoint_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_reference_values() {
        assert_eq!(fnv1a64(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xAF63_DC4C_8601_EC8C);
    }
}
