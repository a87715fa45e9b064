//! The policy network's shape, declared once: its inputs, its move rows
//! and its quantisation. The trainer, the file format and the inference
//! all read it from here.
//!
//! Everything is seen from the side to move: its pieces are "ours", and for
//! black the board is flipped vertically, so that a network learns one
//! game, not two.

/// Input features: 2 sides × 6 roles × 64 squares (the side to move's
/// pieces first, as the NNUE's plain inputs), × 4 for whether the piece is
/// attacked and whether it is defended.
pub const INPUTS: usize = 4 * 768;
/// Rows of the from-square table: one per square.
pub const FROM_ROWS: usize = 64;
/// Rows of the destination table: one per moving role and square (6 × 64),
/// then one per promotion piece (knight to queen) and file (4 × 8); all
/// twice, for a destination the opponent attacks or not.
pub const TO_ROWS: usize = 2 * (6 * 64 + 4 * 8);
/// The widest hidden layer a policy file may declare.
pub const MAX_HIDDEN: usize = 512;
/// Hidden sizes are multiples of this (a 256-bit register of `i16`).
pub const HIDDEN_STEP: usize = 16;
/// The most features a position has (one per piece; a legal position has
/// at most 32 pieces, a board set up by hand at most 64).
pub const MAX_FEATURES: usize = 64;

/// The quantisation: hidden activations in `[0, qa]`, embeddings scaled by
/// `qb`; a logit is the integer dot product over `qa · qb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PolicyQuant {
    /// The scale of the feature weights and biases (and the clipped
    /// activation's top): at most 255.
    pub qa: i32,
    /// The scale of the move embeddings: at most 1024.
    pub qb: i32,
}

impl PolicyQuant {
    /// The quantisation every shipped net uses: 255 and 64.
    pub const DEFAULT: PolicyQuant = PolicyQuant { qa: 255, qb: 64 };

    /// The largest float feature weight or bias the trainer may keep: 32
    /// features and the bias stay inside an `i16` after quantising.
    pub const FEATURE_CLIP: f32 = 1.98;
    /// The largest float embedding value the trainer may keep.
    pub const EMBEDDING_CLIP: f32 = 8.0;
}

/// The policy network's shape: `h = clamp(b + Σ W[f], 0, 1)` over the
/// position's features `f` (a piece on a square, attacked or not, defended
/// or not), then for each legal move `m` the logit
/// `h · (F[from(m)] + T[to(m)])`, where `F` holds a row per from-square
/// and `T` a row per moving role and destination (or promotion piece and
/// file), attacked by the opponent or not. The softmax of the logits over
/// the legal moves is the policy.
///
/// A move costs two dot products of the hidden size; the hidden layer is
/// computed once per position. The from-row and the destination row
/// together name the move (a from-square and a destination decide it, the
/// role and promotion tell the piece), while the hidden layer carries what
/// the position says about it.
///
/// ```
/// use fianchetto_eval::policy::{PolicyArch, TO_ROWS};
///
/// let arch = PolicyArch::new(64)?;
/// assert_eq!(arch.weight_count(), (4 * 768 + 1 + 64 + TO_ROWS) * 64);
/// assert!(PolicyArch::new(70).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PolicyArch {
    /// Hidden neurons: a multiple of [`HIDDEN_STEP`], 16 to [`MAX_HIDDEN`].
    pub hidden: usize,
    /// The quantisation.
    pub quant: PolicyQuant,
}

/// Why a policy shape is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PolicyArchError {
    /// The hidden size is out of range or not a multiple of the step.
    #[error("policy hidden size {0}: expected a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN}")]
    Hidden(usize),
    /// A quantisation constant is out of range.
    #[error("policy quantisation qa {qa}, qb {qb}: expected qa in 1..=255 and qb in 1..=1024")]
    Quant {
        /// The activation scale given.
        qa: i32,
        /// The embedding scale given.
        qb: i32,
    },
}

impl PolicyArch {
    /// A policy of `hidden` neurons with the default quantisation.
    ///
    /// # Errors
    ///
    /// A hidden size that is not a multiple of [`HIDDEN_STEP`] from 16 to
    /// [`MAX_HIDDEN`].
    pub fn new(hidden: usize) -> Result<PolicyArch, PolicyArchError> {
        PolicyArch::with_quant(hidden, PolicyQuant::DEFAULT)
    }

    /// A policy of `hidden` neurons with quantisation `quant`.
    ///
    /// # Errors
    ///
    /// As [`PolicyArch::new`], or constants out of their ranges.
    pub fn with_quant(hidden: usize, quant: PolicyQuant) -> Result<PolicyArch, PolicyArchError> {
        if !(HIDDEN_STEP..=MAX_HIDDEN).contains(&hidden) || hidden % HIDDEN_STEP != 0 {
            return Err(PolicyArchError::Hidden(hidden));
        }
        if !(1..=255).contains(&quant.qa) || !(1..=1024).contains(&quant.qb) {
            return Err(PolicyArchError::Quant {
                qa: quant.qa,
                qb: quant.qb,
            });
        }
        Ok(PolicyArch { hidden, quant })
    }

    /// Feature weights (`INPUTS × hidden`).
    pub fn feature_weight_count(&self) -> usize {
        INPUTS * self.hidden
    }

    /// Every parameter, in file order: feature weights, feature biases,
    /// from-square rows, destination rows.
    pub fn weight_count(&self) -> usize {
        (INPUTS + 1 + FROM_ROWS + TO_ROWS) * self.hidden
    }
}

impl std::fmt::Display for PolicyArch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "3072 -> {} -> moves", self.hidden)
    }
}
