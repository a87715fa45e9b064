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

use crate::fields::{self, check_seal, seal, FieldError, Fields, CHECKSUM};
use crate::model::Layout;
use crate::progress::{expected_len, HistoryEntry, Saved, SavedRef, STATE};
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

/// A saved run, decoded and checked: read one with
/// [`Checkpoint::from_bytes`] or [`Checkpoint::read`], continue it with
/// [`Trainer::resume`].
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub(crate) config: TrainConfig,
    pub(crate) saved: Saved<EpochStats>,
}

impl From<FieldError> for CheckpointError {
    fn from(e: FieldError) -> CheckpointError {
        match e {
            FieldError::TooShort(len) => CheckpointError::TooShort(len),
            FieldError::Magic => CheckpointError::Magic,
            FieldError::Version(version) => CheckpointError::Version(version),
            FieldError::Invalid(what) => CheckpointError::Invalid(what),
            FieldError::Checksum { expected, got } => CheckpointError::Checksum { expected, got },
        }
    }
}

impl HistoryEntry for EpochStats {
    const BYTES: usize = 36;

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.train_loss.to_le_bytes());
        out.extend_from_slice(&self.val_loss.unwrap_or(f64::NAN).to_le_bytes());
        out.extend_from_slice(&self.positions.to_le_bytes());
        out.extend_from_slice(&self.seconds.to_le_bytes());
    }

    fn read(f: &mut Fields<'_>) -> Result<EpochStats, FieldError> {
        let epoch = f.u32()?;
        let train_loss = f.f64()?;
        let val = f.f64()?;
        Ok(EpochStats {
            epoch,
            train_loss,
            val_loss: (!val.is_nan()).then_some(val),
            positions: f.u64()?,
            seconds: f.f64()?,
        })
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
        self.saved.progress.epoch
    }

    /// Positions of the next epoch it had already trained on.
    pub fn epoch_progress(&self) -> u64 {
        self.saved.progress.cursor
    }

    /// The statistics of its completed epochs.
    pub fn history(&self) -> &[EpochStats] {
        &self.saved.progress.history
    }

    /// Decodes a checkpoint, refusing anything that is not exactly one.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        let min = PREFIX + STATE + CHECKSUM;
        let mut f = fields::open(bytes, min, &CHECKPOINT_MAGIC, CHECKPOINT_VERSION)?;
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
        let at = PREFIX + text_len;
        let (entries, expected) = expected_len::<EpochStats>(bytes, at, p as u64)?;
        if bytes.len() as u64 != expected {
            return Err(CheckpointError::Length {
                arch: config.arch.to_string(),
                epochs: entries,
                expected,
                got: bytes.len() as u64,
            });
        }
        check_seal(bytes)?;
        f.at = at;
        let saved = Saved::read(&mut f, p)?;
        Ok(Checkpoint { config, saved })
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
        let saved = self.saved();
        let mut out = Vec::with_capacity(PREFIX + text.len() + saved.byte_len() + CHECKSUM);
        out.extend_from_slice(&CHECKPOINT_MAGIC);
        out.extend_from_slice(&CHECKPOINT_VERSION.to_le_bytes());
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
        saved.write(&mut out);
        seal(&mut out);
        out
    }

    /// The trainer's current state as a [`Checkpoint`] (what
    /// [`Trainer::resume`] continues from).
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            config: self.config.clone(),
            saved: self.saved().to_saved(),
        }
    }

    fn saved(&self) -> SavedRef<'_, EpochStats> {
        SavedRef {
            data: (self.data.len(), self.data.fingerprint()),
            progress: &self.progress,
            weights: [&self.params, &self.m, &self.v],
        }
    }

    /// Writes the checkpoint to `path` atomically (a temporary file
    /// renamed over it).
    pub fn save_checkpoint(&self, path: &Path) -> Result<(), TrainError> {
        crate::write_atomic(path, &self.checkpoint_bytes())
    }
}
