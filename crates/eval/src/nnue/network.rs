//! The network file: a small header, then the quantized weights.
//!
//! Every integer is little-endian.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FIANNUE` followed by `0x1A` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | architecture (1: the perspective net (768 → H)×2 → 1 with SCReLU) |
//! | 16 | 4 | hidden size H (a multiple of 16, 16 to 4096) |
//! | 20 | 4 | QA (255) |
//! | 24 | 4 | QB (64) |
//! | 28 | 4 | eval scale (400) |
//! | 32 | 4 | FNV-1a checksum of everything after the header |
//! | 36 | 768·H·2 | feature weights, `i16`, feature-major (the H weights of feature 0, then of feature 1, …) |
//! | … | H·2 | feature biases, `i16` |
//! | … | 2·H·2 | output weights, `i16`: the side to move's half, then the other side's |
//! | … | 4 | output bias, `i32` (scaled by QA·QB) |

use fianchetto_board::{Color, Piece, Square};

/// Inputs per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Quantization of the feature layer (activations clipped to 0..=QA).
pub const QA: i32 = 255;
/// Quantization of the output layer.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output (the sigmoid's scale).
pub const SCALE: i32 = 400;
/// The largest hidden size a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// The most pieces a position holds: bounds how many feature rows one
/// accumulator sums.
pub const MAX_PIECES: i32 = 32;
/// The largest output weight (in absolute value) inference accepts: with
/// activations in `0..=QA`, `activation × weight` then fits an `i16`
/// (255 × 127 = 32 385), which the SIMD output layer relies on.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// The file's magic bytes.
pub const MAGIC: [u8; 8] = *b"FIANNUE\x1a";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// The one architecture so far: (768 → H)×2 → 1, SCReLU.
pub const ARCH_PERSPECTIVE_SCRELU: u32 = 1;
/// Bytes before the weights.
pub const HEADER_SIZE: usize = 36;

/// The input feature of `piece` on `sq` as seen by `perspective`: the
/// perspective's own pieces first (0..384), then the opponent's, each as
/// role × 64 + square, with the board flipped vertically for black so that
/// both perspectives see their own side at the bottom.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let side = (piece.color != perspective) as usize;
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    side * 384 + piece.role.index() * 64 + sq
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Shorter than the header.
    #[error("network file is {0} bytes, shorter than the {HEADER_SIZE}-byte header (truncated or not a network)")]
    TooShort(usize),
    /// The magic bytes are wrong.
    #[error("not a Fianchetto network file (the magic bytes are not `FIANNUE`)")]
    Magic,
    /// A version this code does not read.
    #[error("network format version {0}; this build reads version {VERSION}")]
    Version(u32),
    /// An architecture this code does not know.
    #[error("network architecture {0}; this build knows {ARCH_PERSPECTIVE_SCRELU} ((768 -> H)x2 -> 1, SCReLU)")]
    Architecture(u32),
    /// A hidden size that is zero, too large or not a multiple of 16.
    #[error("network hidden size {0}; expected a multiple of 16 from 16 to {MAX_HIDDEN}")]
    Hidden(u32),
    /// Quantization constants other than the ones inference uses.
    #[error("network quantization QA={qa} QB={qb} scale={scale}; this build uses QA={QA} QB={QB} scale={SCALE}")]
    Quantization {
        /// QA in the file.
        qa: u32,
        /// QB in the file.
        qb: u32,
        /// Scale in the file.
        scale: u32,
    },
    /// The file is not as long as its header says.
    #[error("network file is {got} bytes; a hidden size of {hidden} needs {expected} (truncated or padded)")]
    Length {
        /// Hidden size from the header.
        hidden: usize,
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        got: usize,
    },
    /// The weights do not match the checksum.
    #[error("network checksum mismatch (file corrupted): header says {expected:08x}, weights give {got:08x}")]
    Checksum {
        /// Checksum in the header.
        expected: u32,
        /// Checksum of the weights read.
        got: u32,
    },
    /// A part handed to [`Network::try_from_parts`] has the wrong length.
    #[error("network {part} hold {got} values; a hidden size of {hidden} needs {expected}")]
    Shape {
        /// Which part: `feature weights`, `feature biases` or `output weights`.
        part: &'static str,
        /// The hidden size.
        hidden: usize,
        /// Values expected.
        expected: usize,
        /// Values given.
        got: usize,
    },
    /// An output weight beyond ±[`MAX_OUTPUT_WEIGHT`].
    #[error("network output weight {index} is {value}; inference needs |weight| <= {MAX_OUTPUT_WEIGHT} (clip the output layer to ±{MAX_OUTPUT_WEIGHT}/QB while training)")]
    OutputWeight {
        /// Index into the output weights (the side to move's half first).
        index: usize,
        /// The weight.
        value: i16,
    },
    /// A hidden neuron whose accumulator could overflow an `i16`: its bias
    /// plus [`MAX_PIECES`] times its largest feature weight exceeds 32 767.
    #[error("network hidden neuron {neuron} could overflow its i16 accumulator: |bias| {bias} + {MAX_PIECES} x |feature weight| {weight} (feature {feature}) = {total} > 32767 (clip the feature layer while training)")]
    FeatureRange {
        /// The hidden neuron.
        neuron: usize,
        /// Its bias, in absolute value.
        bias: i32,
        /// The feature with its largest weight.
        feature: usize,
        /// That weight, in absolute value.
        weight: i32,
        /// `bias + MAX_PIECES × weight`.
        total: i32,
    },
}

/// A quantized network: what the file holds, in memory.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// `INPUTS × hidden`, feature-major.
    pub(crate) ft_weights: Vec<i16>,
    /// `hidden`.
    pub(crate) ft_bias: Vec<i16>,
    /// `2 × hidden`: the side to move's half first.
    pub(crate) out_weights: Vec<i16>,
    /// Scaled by `QA · QB`.
    pub(crate) out_bias: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network {{ (768 -> {})x2 -> 1, SCReLU }}", self.hidden)
    }
}

/// FNV-1a, 32 bits: enough to notice a corrupted download.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}

fn expected_len(hidden: usize) -> usize {
    HEADER_SIZE + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

/// Whether `hidden` is a size the format allows.
fn hidden_ok(hidden: usize) -> bool {
    (16..=MAX_HIDDEN).contains(&hidden) && hidden % 16 == 0
}

impl Network {
    /// A network from its quantized parts. `ft_weights` is feature-major
    /// (`INPUTS × hidden`), `out_weights` holds the side to move's half
    /// first. Returns `None` for every reason [`Network::try_from_parts`]
    /// gives an error.
    pub fn from_parts(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
    ) -> Option<Network> {
        Network::try_from_parts(hidden, ft_weights, ft_bias, out_weights, out_bias).ok()
    }

    /// [`Network::from_parts`], saying why the parts were refused: a hidden
    /// size that is not a multiple of 16 from 16 to [`MAX_HIDDEN`], a part of
    /// the wrong length, or weights inference cannot take (see
    /// [`NetError::OutputWeight`] and [`NetError::FeatureRange`]).
    pub fn try_from_parts(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
    ) -> Result<Network, NetError> {
        if !hidden_ok(hidden) {
            return Err(NetError::Hidden(u32::try_from(hidden).unwrap_or(u32::MAX)));
        }
        for (part, expected, got) in [
            ("feature weights", INPUTS * hidden, ft_weights.len()),
            ("feature biases", hidden, ft_bias.len()),
            ("output weights", 2 * hidden, out_weights.len()),
        ] {
            if got != expected {
                return Err(NetError::Shape {
                    part,
                    hidden,
                    expected,
                    got,
                });
            }
        }
        let net = Network {
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// Refuses weights that would overflow the integer inference: output
    /// weights beyond ±[`MAX_OUTPUT_WEIGHT`], and neurons whose accumulator
    /// could leave the `i16` range with [`MAX_PIECES`] pieces on the board.
    fn check_ranges(&self) -> Result<(), NetError> {
        if let Some((index, &value)) = self
            .out_weights
            .iter()
            .enumerate()
            .find(|(_, w)| w.unsigned_abs() > MAX_OUTPUT_WEIGHT.unsigned_abs())
        {
            return Err(NetError::OutputWeight { index, value });
        }
        // Per neuron: the feature with the largest weight, then the bound.
        let mut largest = vec![(0usize, 0i32); self.hidden];
        for (feature, row) in self.ft_weights.chunks_exact(self.hidden).enumerate() {
            for (best, &w) in largest.iter_mut().zip(row) {
                let w = i32::from(w).abs();
                if w > best.1 {
                    *best = (feature, w);
                }
            }
        }
        for (neuron, (&bias, &(feature, weight))) in self.ft_bias.iter().zip(&largest).enumerate() {
            let bias = i32::from(bias).abs();
            let total = bias + MAX_PIECES * weight;
            if total > i32::from(i16::MAX) {
                return Err(NetError::FeatureRange {
                    neuron,
                    bias,
                    feature,
                    weight,
                    total,
                });
            }
        }
        Ok(())
    }

    /// The smallest network, with every weight zero: it scores every
    /// position 0 (a stand-in where no trained network is available).
    pub fn zero() -> Network {
        Network {
            hidden: 16,
            ft_weights: vec![0; INPUTS * 16],
            ft_bias: vec![0; 16],
            out_weights: vec![0; 32],
            out_bias: 0,
        }
    }

    /// The hidden size H.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The feature weights (`INPUTS × hidden`, feature-major).
    pub fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }

    /// The feature biases.
    pub fn ft_bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// The output weights (side to move's half first).
    pub fn out_weights(&self) -> &[i16] {
        &self.out_weights
    }

    /// The output bias (scaled by `QA · QB`).
    pub fn out_bias(&self) -> i32 {
        self.out_bias
    }

    /// Reads a network file, refusing anything that is not exactly one, and
    /// weights inference cannot take (the checks of [`Network::try_from_parts`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_SIZE {
            return Err(NetError::TooShort(bytes.len()));
        }
        if bytes[0..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let version = word(8);
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let arch = word(12);
        if arch != ARCH_PERSPECTIVE_SCRELU {
            return Err(NetError::Architecture(arch));
        }
        let hidden = word(16);
        if !hidden_ok(hidden as usize) {
            return Err(NetError::Hidden(hidden));
        }
        let (qa, qb, scale) = (word(20), word(24), word(28));
        if (qa, qb, scale) != (QA as u32, QB as u32, SCALE as u32) {
            return Err(NetError::Quantization { qa, qb, scale });
        }
        let hidden = hidden as usize;
        let expected = expected_len(hidden);
        if bytes.len() != expected {
            return Err(NetError::Length {
                hidden,
                expected,
                got: bytes.len(),
            });
        }
        let payload = &bytes[HEADER_SIZE..];
        let (expected_sum, got_sum) = (word(32), fnv1a(payload));
        if expected_sum != got_sum {
            return Err(NetError::Checksum {
                expected: expected_sum,
                got: got_sum,
            });
        }
        let mut at = 0;
        let mut take = |n: usize| -> Vec<i16> {
            let v = payload[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_weights = take(INPUTS * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(2 * hidden);
        let tail = &payload[payload.len() - 4..];
        let out_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        let net = Network {
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// The feature weights of input `feature` (one per hidden neuron).
    #[inline(always)]
    pub(crate) fn row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The network file's bytes (what [`Network::from_bytes`] reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(expected_len(self.hidden) - HEADER_SIZE);
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        payload.extend_from_slice(&self.out_bias.to_le_bytes());
        let mut out = Vec::with_capacity(HEADER_SIZE + payload.len());
        out.extend_from_slice(&MAGIC);
        for word in [
            VERSION,
            ARCH_PERSPECTIVE_SCRELU,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            fnv1a(&payload),
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&payload);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Role;

    fn tiny() -> Network {
        let h = 16;
        Network::from_parts(
            h,
            (0..INPUTS * h).map(|i| (i % 97) as i16 - 48).collect(),
            vec![3; h],
            (0..2 * h).map(|i| i as i16 - 16).collect(),
            -1234,
        )
        .unwrap()
    }

    #[test]
    fn round_trip_and_every_refusal() {
        let net = tiny();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), expected_len(16));
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);

        assert_eq!(
            Network::from_bytes(&bytes[..10]),
            Err(NetError::TooShort(10))
        );
        let mut b = bytes.clone();
        b[0] = b'X';
        assert_eq!(Network::from_bytes(&b), Err(NetError::Magic));
        let mut b = bytes.clone();
        b[8] = 2;
        assert_eq!(Network::from_bytes(&b), Err(NetError::Version(2)));
        let mut b = bytes.clone();
        b[12] = 9;
        assert_eq!(Network::from_bytes(&b), Err(NetError::Architecture(9)));
        let mut b = bytes.clone();
        b[16] = 17;
        assert_eq!(Network::from_bytes(&b), Err(NetError::Hidden(17)));
        let mut b = bytes.clone();
        b[24] = 65;
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetError::Quantization { qb: 65, .. })
        ));
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Length { hidden: 16, .. })
        ));
        let mut b = bytes.clone();
        let last = b.len() - 1;
        b[last] ^= 1;
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetError::Checksum { .. })
        ));
    }

    #[test]
    fn features_mirror_between_perspectives() {
        let wp = Piece::new(Color::White, Role::Pawn);
        let bk = Piece::new(Color::Black, Role::King);
        assert_eq!(feature(Color::White, wp, Square::E2), 12);
        assert_eq!(feature(Color::Black, wp, Square::E2), 384 + 52);
        assert_eq!(feature(Color::Black, bk, Square::E8), 5 * 64 + 4);
        assert_eq!(feature(Color::White, bk, Square::E8), 384 + 5 * 64 + 60);
    }
}
