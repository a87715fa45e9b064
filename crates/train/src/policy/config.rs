//! The settings of a policy training run.

use crate::{check_optimiser, check_split_and_threads, LrSchedule, TrainError};
use fianchetto_eval::policy::PolicyArch;

/// The settings of a policy training run.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyTrainConfig {
    /// Hidden neurons: a multiple of 16 from 16 to 512 (see
    /// [`PolicyArch`]; the quantisation is the default one).
    pub hidden: usize,
    /// Epochs to train (passes over the training split).
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch_size: usize,
    /// The learning rate of the first step.
    pub lr: f32,
    /// How the learning rate falls over the run.
    pub lr_schedule: LrSchedule,
    /// AdamW's decoupled weight decay (on the weights and move rows, not
    /// the biases).
    pub weight_decay: f32,
    /// The fraction of the games held out for validation (0 to 0.5).
    pub val_fraction: f32,
    /// Seeds the initial weights, the validation split and every epoch's
    /// order.
    pub seed: u64,
    /// Threads sharing each batch (and the validation).
    pub threads: usize,
    /// Whether each training position without castling rights is also
    /// shown mirrored left to right, with its moves mirrored: the search's
    /// choice does not depend on which wing the pieces stand on, so the
    /// mirror is a second example for free. Validation positions are never
    /// mirrored.
    pub mirror: bool,
}

impl Default for PolicyTrainConfig {
    fn default() -> PolicyTrainConfig {
        PolicyTrainConfig {
            hidden: 64,
            epochs: 10,
            batch_size: 256,
            lr: 0.005,
            lr_schedule: LrSchedule::default(),
            weight_decay: 0.0,
            val_fraction: 0.05,
            seed: 0,
            threads: 1,
            mirror: true,
        }
    }
}

impl PolicyTrainConfig {
    /// The network's shape.
    ///
    /// # Errors
    ///
    /// A hidden size [`PolicyArch`] refuses.
    pub fn arch(&self) -> Result<PolicyArch, TrainError> {
        PolicyArch::new(self.hidden).map_err(|e| TrainError::Config(e.to_string()))
    }

    /// Checks every setting, naming the first that is out of range.
    ///
    /// # Errors
    ///
    /// [`TrainError::Config`] with what is wrong.
    pub fn validate(&self) -> Result<(), TrainError> {
        let bad = |msg: String| Err(TrainError::Config(msg));
        self.arch()?;
        if self.epochs == 0 {
            return bad("epochs must be at least 1".into());
        }
        if self.batch_size == 0 || self.batch_size > u32::MAX as usize {
            return bad(format!(
                "batch size {} must be 1 to {}",
                self.batch_size,
                u32::MAX
            ));
        }
        check_optimiser(self.lr, self.lr_schedule, self.weight_decay)?;
        check_split_and_threads(self.val_fraction, self.threads)
    }

    /// The settings in which `other` differs from this one, as
    /// `name this vs other`, apart from those a resumed run may change
    /// (epochs and threads).
    pub fn differences(&self, other: &PolicyTrainConfig) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |name: &str, a: String, b: String| {
            if a != b {
                out.push(format!("{name} {a} vs {b}"));
            }
        };
        differ("hidden", self.hidden.to_string(), other.hidden.to_string());
        differ(
            "batch",
            self.batch_size.to_string(),
            other.batch_size.to_string(),
        );
        differ("lr", self.lr.to_string(), other.lr.to_string());
        differ(
            "lr-schedule",
            self.lr_schedule.to_string(),
            other.lr_schedule.to_string(),
        );
        differ(
            "weight-decay",
            self.weight_decay.to_string(),
            other.weight_decay.to_string(),
        );
        differ(
            "val-fraction",
            self.val_fraction.to_string(),
            other.val_fraction.to_string(),
        );
        differ("seed", self.seed.to_string(), other.seed.to_string());
        differ("mirror", self.mirror.to_string(), other.mirror.to_string());
        out
    }
}
