//! The policy network file: a header recording the [`PolicyArch`], then
//! the quantized weights, all checked on reading.
//!
//! Every integer is little-endian. Version 1:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FIANPOL` followed by `0x1A` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | hidden size H (a multiple of 16, 16 to 512) |
//! | 16 | 4 | QA (1 to 255) |
//! | 20 | 4 | QB (1 to 1024) |
//! | 24 | 4 | FNV-1a checksum of every other byte of the file |
//! | 28 | 4 | reserved, 0 |
//! | 32 | 3072·H·2 | feature weights, `i16`, row-major: feature, then neuron |
//! | … | H·2 | feature biases, `i16` |
//! | … | 64·H·2 | from-square rows, `i16` |
//! | … | 832·H·2 | destination rows, `i16` |
//!
//! Feature weights and biases must lie within ±`FEATURE_CLIP · QA` (so that
//! no sum of a position's features leaves an `i16`), and embedding values
//! within ±`EMBEDDING_CLIP · QB` (so that no logit leaves an `i32`).
//!
//! This file and `shape.rs` (the [`PolicyArch`]) are also compiled into the crate's
//! `build.rs`, which refuses to embed a policy that fails these checks.

use super::shape::{PolicyArch, PolicyArchError, PolicyQuant, FROM_ROWS, INPUTS, TO_ROWS};

/// The file's magic bytes.
pub const POLICY_MAGIC: [u8; 8] = *b"FIANPOL\x1a";
/// The format version this code reads and writes.
pub const POLICY_VERSION: u32 = 1;
/// Bytes before the weights.
pub const POLICY_HEADER_SIZE: usize = 32;
/// Where the checksum sits in the header.
const CHECKSUM_AT: usize = 24;

/// Why a policy network (a file, or weights handed over in memory) was
/// refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// Shorter than the header.
    #[error(
        "policy file is {0} bytes, shorter than its header (truncated or not a policy network)"
    )]
    TooShort(usize),
    /// The magic bytes are wrong.
    #[error("not a Fianchetto policy file (the magic bytes are not `FIANPOL`)")]
    Magic,
    /// A version this code does not read.
    #[error("policy format version {0}; this build reads version {POLICY_VERSION}")]
    Version(u32),
    /// The reserved field is not zero.
    #[error("policy header field at byte 28 is {0}, expected 0 (a newer format?)")]
    Reserved(u32),
    /// The shape in the header is out of range.
    #[error("policy {0}")]
    Arch(#[from] PolicyArchError),
    /// The file is not as long as its header says.
    #[error("policy file is {got} bytes; its shape {arch} needs {expected} (truncated or padded)")]
    Length {
        /// The shape the header describes.
        arch: String,
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        got: usize,
    },
    /// The bytes do not match the checksum.
    #[error("policy checksum mismatch (file corrupted): header says {expected:08x}, the file gives {got:08x}")]
    Checksum {
        /// Checksum in the header.
        expected: u32,
        /// Checksum of the bytes read.
        got: u32,
    },
    /// Weights handed over in memory of the wrong count.
    #[error("policy weights hold {got} values; the shape needs {expected}")]
    Shape {
        /// Values expected.
        expected: usize,
        /// Values given.
        got: usize,
    },
    /// A weight outside the range inference computes exactly.
    #[error("policy {part} value {value} at index {index} is beyond ±{limit}")]
    Range {
        /// `feature weights`, `feature biases`, `from rows` or `destination rows`.
        part: &'static str,
        /// Its index within the part.
        index: usize,
        /// The value.
        value: i16,
        /// The bound.
        limit: i32,
    },
}

/// FNV-1a, 32 bits, continued from `hash`.
fn fnv1a(hash: u32, bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(hash, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}
const FNV_START: u32 = 0x811C_9DC5;

fn checksum(bytes: &[u8]) -> u32 {
    let h = fnv1a(FNV_START, &bytes[..CHECKSUM_AT]);
    fnv1a(h, &bytes[CHECKSUM_AT + 4..])
}

fn word(bytes: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(w)
}

/// The length of a file of `arch`.
pub fn policy_file_len(arch: &PolicyArch) -> usize {
    POLICY_HEADER_SIZE + 2 * arch.weight_count()
}

/// The parts of the weights, in file order, with their names and bounds.
pub fn parts(arch: &PolicyArch) -> [(&'static str, std::ops::Range<usize>, i32); 4] {
    let h = arch.hidden;
    let PolicyQuant { qa, qb } = arch.quant;
    let feature_limit = (PolicyQuant::FEATURE_CLIP * qa as f32) as i32;
    let embedding_limit = (PolicyQuant::EMBEDDING_CLIP * qb as f32) as i32;
    let a = INPUTS * h;
    let b = a + h;
    let c = b + FROM_ROWS * h;
    let d = c + TO_ROWS * h;
    [
        ("feature weights", 0..a, feature_limit),
        ("feature biases", a..b, feature_limit),
        ("from rows", b..c, embedding_limit),
        ("destination rows", c..d, embedding_limit),
    ]
}

/// Checks that `weights` fit `arch` in count and range.
///
/// # Errors
///
/// [`PolicyError::Shape`] or [`PolicyError::Range`].
pub fn check_weights(arch: &PolicyArch, weights: &[i16]) -> Result<(), PolicyError> {
    if weights.len() != arch.weight_count() {
        return Err(PolicyError::Shape {
            expected: arch.weight_count(),
            got: weights.len(),
        });
    }
    for (part, range, limit) in parts(arch) {
        if let Some((index, &value)) = weights[range]
            .iter()
            .enumerate()
            .find(|(_, &v)| i32::from(v).abs() > limit)
        {
            return Err(PolicyError::Range {
                part,
                index,
                value,
                limit,
            });
        }
    }
    Ok(())
}

/// The shape a file's header declares, and the file length it implies.
///
/// # Errors
///
/// A header too short, with other magic bytes, another version, a
/// non-zero reserved field or a shape out of range.
pub fn parse_header(header: &[u8]) -> Result<(PolicyArch, usize), PolicyError> {
    if header.len() < POLICY_HEADER_SIZE {
        return Err(PolicyError::TooShort(header.len()));
    }
    if header[..8] != POLICY_MAGIC {
        return Err(PolicyError::Magic);
    }
    let version = word(header, 8);
    if version != POLICY_VERSION {
        return Err(PolicyError::Version(version));
    }
    let reserved = word(header, 28);
    if reserved != 0 {
        return Err(PolicyError::Reserved(reserved));
    }
    let hidden = word(header, 12) as usize;
    let quant = PolicyQuant {
        qa: word(header, 16).min(i32::MAX as u32) as i32,
        qb: word(header, 20).min(i32::MAX as u32) as i32,
    };
    let arch = PolicyArch::with_quant(hidden, quant)?;
    Ok((arch, policy_file_len(&arch)))
}

/// Reads a policy file: its shape and weights.
///
/// # Errors
///
/// Anything [`parse_header`] refuses, a length other than the shape's, a
/// checksum mismatch, or weights out of range.
pub fn parse_policy(bytes: &[u8]) -> Result<(PolicyArch, Vec<i16>), PolicyError> {
    let (arch, expected) = parse_header(bytes)?;
    if bytes.len() != expected {
        return Err(PolicyError::Length {
            arch: arch.to_string(),
            expected,
            got: bytes.len(),
        });
    }
    let (stored, got) = (word(bytes, CHECKSUM_AT), checksum(bytes));
    if stored != got {
        return Err(PolicyError::Checksum {
            expected: stored,
            got,
        });
    }
    let weights: Vec<i16> = bytes[POLICY_HEADER_SIZE..]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    check_weights(&arch, &weights)?;
    Ok((arch, weights))
}

/// Writes a policy file of `arch` holding `weights` (which must fit it:
/// [`check_weights`]).
///
/// # Errors
///
/// What [`check_weights`] refuses.
pub fn write_policy(arch: &PolicyArch, weights: &[i16]) -> Result<Vec<u8>, PolicyError> {
    check_weights(arch, weights)?;
    let mut bytes = Vec::with_capacity(policy_file_len(arch));
    bytes.extend_from_slice(&POLICY_MAGIC);
    for w in [
        POLICY_VERSION,
        arch.hidden as u32,
        arch.quant.qa as u32,
        arch.quant.qb as u32,
        0,
        0,
    ] {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    for w in weights {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    let sum = checksum(&bytes);
    bytes[CHECKSUM_AT..CHECKSUM_AT + 4].copy_from_slice(&sum.to_le_bytes());
    Ok(bytes)
}
