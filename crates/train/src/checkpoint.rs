//! The checkpoint file: everything needed to continue a run exactly.
//!
//! All numbers little-endian; `f32`/`f64` as IEEE-754 bits.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FIANCKPT` |
//! | 8 | 4 | format version (3) |
//! | 12 | 4 | C: bytes of the settings text |
//! | 16 | C | the settings, as the [run file](crate::runfile) writes them (UTF-8), threads included (informative: a resumed run may use others) |
//! | … | 8 | positions in the data |
//! | … | 8 | fingerprint of the data ([`TrainData::fingerprint`](crate::TrainData::fingerprint)) |
//! | … | 8 | optimiser steps taken |
//! | … | 4 | epochs completed |
//! | … | 8 | positions of the current epoch done |
//! | … | 8 | the current epoch's summed loss so far, `f64` |
//! | … | 8 | the current epoch's training seconds so far, `f64` |
//! | … | 4 | E: entries of the epoch history (= epochs completed) |
//! | … | 36·E | per epoch: number `u32`, train loss `f64`, validation loss `f64` (NaN: none), positions `u64`, seconds `f64` |
//! | … | 4·P | the parameters, `f32`, in the [trainer's flat layout](crate::Trainer::parameters) of the settings' architecture |
//! | … | 4·P | AdamW's first moments |
//! | … | 4·P | AdamW's second moments |
//! | … | 8 | FNV-1a (64-bit) checksum of every byte before it |
//!
//! Version 2 checkpoints (trainers before the architecture was a setting)
//! are refused with a message; their networks still load.

use crate::model::Layout;
use crate::runfile::RunFile;
use crate::trainer::EpochStats;
use crate::{TrainConfig, TrainError, Trainer};
use std::path::Path;

/// The checkpoint file's magic bytes.
pub const CHECKPOINT_MAGIC: [u8; 8] = *b"FIANCKPT";
/// The checkpoint format version this code reads and writes.
pub const CHECKPOINT_VERSION: u32 = 3;
/// The most bytes of settings text a checkpoint may hold.
const MAX_SETTINGS: usize = 1 << 16;
const PREFIX: usize = 16;
const ENTRY: usize = 36;
const CHECKSUM: usize = 8;
/// Bytes between the settings and the history.
const STATE: usize = 8 + 8 + 8 + 4 + 8 + 8 + 8 + 4;

/// Why a checkpoint was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// Shorter than the fixed header.
    #[error("checkpoint is {0} bytes, shorter than its header (truncated, or not a checkpoint)")]
    TooShort(usize),
    /// The magic bytes are wrong.
    #[error("not a Fianchetto trainer checkpoint (the magic bytes are not `FIANCKPT`)")]
    Magic,
    /// A version this code does not read.
    #[error("checkpoint format version {0}; this build reads version {CHECKPOINT_VERSION} (a version 2 checkpoint comes from an older trainer: its network file still loads, but the run cannot be resumed)")]
    Version(u32),
    /// The length does not match what the header announces.
    #[error("checkpoint is {got} bytes; its settings ({arch}) and {epochs} epochs of history need {expected} (truncated or padded)")]
    Length {
        /// The architecture in the settings.
        arch: String,
        /// History entries.
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
        if bytes.len() < PREFIX + STATE + CHECKSUM {
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
        let text_len = f.u32()? as usize;
        if text_len > MAX_SETTINGS || PREFIX + text_len + STATE + CHECKSUM > bytes.len() {
            return Err(CheckpointError::Invalid(format!(
                "{text_len} bytes of settings in a file of {}",
                bytes.len()
            )));
        }
        let text = std::str::from_utf8(&bytes[PREFIX..PREFIX + text_len])
            .map_err(|_| CheckpointError::Invalid("settings that are not UTF-8".into()))?;
        let config = RunFile::parse(text, Path::new("(checkpoint)"))
            .map_err(|e| CheckpointError::Invalid(e.to_string()))?
            .request
            .fresh()
            .map_err(|e| CheckpointError::Invalid(e.to_string()))?;
        let p = Layout::new(&config.arch).len();
        let history_at = PREFIX + text_len + STATE;
        let entries = u32::from_le_bytes(
            bytes[history_at - 4..history_at]
                .try_into()
                .map_err(|_| CheckpointError::TooShort(bytes.len()))?,
        );
        let expected =
            (history_at + CHECKSUM) as u64 + ENTRY as u64 * u64::from(entries) + 12 * p as u64;
        if bytes.len() as u64 != expected {
            return Err(CheckpointError::Length {
                arch: config.arch.to_string(),
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
        f.at = PREFIX + text_len;
        let positions = f.u64()?;
        let fingerprint = f.u64()?;
        let step = f.u64()?;
        let epoch = f.u32()?;
        let cursor = f.u64()?;
        let epoch_loss = f.f64()?;
        let epoch_seconds = f.f64()?;
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
    /// [format](crate::checkpoint)).
    pub fn checkpoint_bytes(&self) -> Vec<u8> {
        let text = RunFile {
            request: crate::ConfigRequest::from_config(&self.config),
            ..RunFile::default()
        }
        .to_text();
        let p = self.params.len();
        let mut out = Vec::with_capacity(
            PREFIX + text.len() + STATE + ENTRY * self.history.len() + 12 * p + CHECKSUM,
        );
        out.extend_from_slice(&CHECKPOINT_MAGIC);
        out.extend_from_slice(&CHECKPOINT_VERSION.to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
        for word in [self.data.len(), self.data.fingerprint(), self.step] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.cursor.to_le_bytes());
        out.extend_from_slice(&self.epoch_loss.to_le_bytes());
        out.extend_from_slice(&self.epoch_seconds.to_le_bytes());
        out.extend_from_slice(&(self.history.len() as u32).to_le_bytes());
        debug_assert_eq!(out.len(), PREFIX + text.len() + STATE);
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
            positions: self.data.len(),
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
        crate::write_atomic(path, &self.checkpoint_bytes())
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
