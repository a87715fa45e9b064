//! [`PolicyNet`]: a quantized policy network in memory, and its inference.

use super::format::{self, PolicyError};
use super::rows::{features_with, Threats};
use super::shape::{PolicyArch, MAX_FEATURES, MAX_HIDDEN};
use crate::nnue::simd::{Job, Kernels, Width};
use crate::nnue::Simd;
use arrayvec::ArrayVec;
use fianchetto_board::{Board, Move};
use std::path::{Path, PathBuf};

/// A quantized policy network: its shape and its weights, in file order.
#[derive(Clone, PartialEq, Eq)]
pub struct PolicyNet {
    arch: PolicyArch,
    weights: Vec<i16>,
    /// Where the from-square rows and the destination rows start.
    from_at: usize,
    to_at: usize,
}

impl std::fmt::Debug for PolicyNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PolicyNet {{ {} }}", self.arch)
    }
}

/// Why a policy file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadPolicyError {
    /// The file could not be read.
    #[error("cannot read policy {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a valid policy network.
    #[error("policy {path}: {source}")]
    Policy {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: PolicyError,
    },
}

impl PolicyNet {
    /// A network of `arch` with quantized `weights` in file order (feature
    /// weights, feature biases, from-square rows, destination rows).
    ///
    /// # Errors
    ///
    /// Weights of the wrong count or out of range ([`format::check_weights`]).
    pub fn new(arch: PolicyArch, weights: Vec<i16>) -> Result<PolicyNet, PolicyError> {
        format::check_weights(&arch, &weights)?;
        let h = arch.hidden;
        let from_at = (super::INPUTS + 1) * h;
        Ok(PolicyNet {
            arch,
            weights,
            from_at,
            to_at: from_at + super::FROM_ROWS * h,
        })
    }

    /// Quantizes float weights (in file order, as a trainer holds them):
    /// feature weights and biases times QA, embeddings times QB, rounded
    /// and clipped to the bounds inference computes exactly.
    ///
    /// # Errors
    ///
    /// A slice of the wrong length.
    pub fn quantize(arch: PolicyArch, weights: &[f32]) -> Result<PolicyNet, PolicyError> {
        if weights.len() != arch.weight_count() {
            return Err(PolicyError::Shape {
                expected: arch.weight_count(),
                got: weights.len(),
            });
        }
        let mut q = vec![0i16; weights.len()];
        for (i, (_, range, limit)) in format::parts(&arch).into_iter().enumerate() {
            let scale = if i < 2 { arch.quant.qa } else { arch.quant.qb } as f32;
            for j in range {
                let v = (weights[j] * scale).round();
                // NaN becomes 0; the clip keeps the rest in range.
                q[j] = if v.is_nan() {
                    0
                } else {
                    v.clamp(-(limit as f32), limit as f32) as i16
                };
            }
        }
        PolicyNet::new(arch, q)
    }

    /// Reads a network from the bytes of a policy file.
    ///
    /// # Errors
    ///
    /// Whatever is wrong with the file ([`PolicyError`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<PolicyNet, PolicyError> {
        let (arch, weights) = format::parse_policy(bytes)?;
        PolicyNet::new(arch, weights)
    }

    /// Reads a network from a file. Only a regular file is read, and no more
    /// of it than its header declares (plus one byte, to notice a longer
    /// file).
    ///
    /// # Errors
    ///
    /// The file cannot be read, or is not a valid policy network; the error
    /// names the path.
    pub fn from_file(path: impl AsRef<Path>) -> Result<PolicyNet, LoadPolicyError> {
        use std::io::Read;
        let path = path.as_ref();
        let io = |source| LoadPolicyError::Io {
            path: path.to_path_buf(),
            source,
        };
        let policy = |source| LoadPolicyError::Policy {
            path: path.to_path_buf(),
            source,
        };
        let (mut file, _) = crate::select::open_regular(path).map_err(io)?;
        let mut bytes = Vec::with_capacity(format::POLICY_HEADER_SIZE);
        file.by_ref()
            .take(format::POLICY_HEADER_SIZE as u64)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        let (_, expected) = format::parse_header(&bytes).map_err(policy)?;
        let rest = expected.saturating_sub(bytes.len()) as u64 + 1;
        file.take(rest).read_to_end(&mut bytes).map_err(io)?;
        PolicyNet::from_bytes(&bytes).map_err(policy)
    }

    /// The network as a policy file.
    pub fn to_bytes(&self) -> Vec<u8> {
        // The weights were checked when the network was made.
        format::write_policy(&self.arch, &self.weights).unwrap_or_default()
    }

    /// The shape.
    pub fn arch(&self) -> &PolicyArch {
        &self.arch
    }

    /// The weights, in file order.
    pub fn weights(&self) -> &[i16] {
        &self.weights
    }

    /// The logit of each of `moves` (legal in `board`) into `out` (as long
    /// as `moves`; extra entries are left alone), with the fastest kernels
    /// this CPU runs. Allocates nothing.
    pub fn logits<B: Board>(&self, board: &B, moves: &[Move], out: &mut [f32]) {
        self.logits_with(Simd::detect_for(self.arch.hidden), board, moves, out);
    }

    /// [`PolicyNet::logits`] with the kernels of `simd` (the portable ones
    /// where this CPU lacks them): every version gives the same logits, bit
    /// for bit.
    pub fn logits_with<B: Board>(&self, simd: Simd, board: &B, moves: &[Move], out: &mut [f32]) {
        // Holding a version the CPU lacks would make its kernels unsound.
        let simd = if simd.is_supported() {
            simd
        } else {
            Simd::Scalar
        };
        simd.run(
            self.arch.hidden,
            Logits {
                net: self,
                board,
                moves,
                out,
            },
        );
    }

    /// The hidden layer of `board`, quantized (each in `[0, QA]`), into
    /// `out` (at least [`PolicyArch::hidden`] long): for tests and tools.
    pub fn hidden_layer<B: Board>(&self, board: &B, out: &mut [i16]) {
        let h = self.arch.hidden;
        let mut rows: ArrayVec<usize, MAX_FEATURES> = ArrayVec::new();
        features_with(board, &Threats::of(board), &mut rows);
        let bias = &self.weights[super::INPUTS * h..(super::INPUTS + 1) * h];
        let out = &mut out[..h];
        out.copy_from_slice(bias);
        for f in rows {
            for (o, w) in out.iter_mut().zip(&self.weights[f * h..(f + 1) * h]) {
                *o = o.wrapping_add(*w);
            }
        }
        for o in out {
            *o = (*o).clamp(0, self.arch.quant.qa as i16);
        }
    }

    /// One over the scale of a logit's integer form (`1 / (QA · QB)`).
    pub fn logit_scale(&self) -> f32 {
        1.0 / (self.arch.quant.qa * self.arch.quant.qb) as f32
    }

    fn source_row(&self, r: usize) -> &[i16] {
        let h = self.arch.hidden;
        &self.weights[self.from_at + r * h..self.from_at + (r + 1) * h]
    }

    fn destination_row(&self, r: usize) -> &[i16] {
        let h = self.arch.hidden;
        &self.weights[self.to_at + r * h..self.to_at + (r + 1) * h]
    }
}

/// The inference as a [`Job`], so that it runs compiled for the chosen
/// kernels' CPU features.
struct Logits<'a, B> {
    net: &'a PolicyNet,
    board: &'a B,
    moves: &'a [Move],
    out: &'a mut [f32],
}

impl<B: Board> Job for Logits<'_, B> {
    type Output = ();

    #[inline(always)]
    fn run<K: Kernels, W: Width>(self, k: K, _: W) {
        let net = self.net;
        let h = net.arch.hidden;
        let threats = Threats::of(self.board);
        let mut rows: ArrayVec<usize, MAX_FEATURES> = ArrayVec::new();
        features_with(self.board, &threats, &mut rows);
        let mut adds: ArrayVec<&[i16], MAX_FEATURES> = ArrayVec::new();
        adds.extend(rows.iter().map(|&f| &net.weights[f * h..(f + 1) * h]));
        let mut hidden = [0i16; MAX_HIDDEN];
        let hidden = &mut hidden[..h];
        let bias = &net.weights[super::INPUTS * h..(super::INPUTS + 1) * h];
        k.update(hidden, Some(bias), &adds, &[]);
        let qa = net.arch.quant.qa as i16;
        for x in hidden.iter_mut() {
            *x = (*x).clamp(0, qa);
        }
        let scale = net.logit_scale();
        for (&mv, out) in self.moves.iter().zip(self.out.iter_mut()) {
            let (from, to) = threats.move_rows(self.board, mv);
            let sum = k
                .dot(hidden, net.source_row(from))
                .wrapping_add(k.dot(hidden, net.destination_row(to)));
            *out = sum as f32 * scale;
        }
    }
}
