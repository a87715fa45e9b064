//! The network file: a header recording the whole [`Arch`], then the
//! quantized weights, all checked on reading.
//!
//! Every integer is little-endian. Version 2 (what [`write()`] produces):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FIANNUE` followed by `0x1A` |
//! | 8 | 4 | format version (2) |
//! | 12 | 4 | hidden size H (a multiple of 16, 16 to 4096) |
//! | 16 | 4 | activation (1: SCReLU) |
//! | 20 | 4 | king buckets B (1 to 32) |
//! | 24 | 4 | flags: bit 0 set when the inputs are mirrored (king on files e–h) |
//! | 28 | 4 | output buckets O (1 to 16) |
//! | 32 | 4 | how a position picks its output bucket (1: by piece count) |
//! | 36 | 4 | QA |
//! | 40 | 4 | QB |
//! | 44 | 4 | eval scale |
//! | 48 | 4 | FNV-1a checksum of every other byte of the file |
//! | 52 | 64 | king bucket map: one byte per square of the own king, a1 first (each below B, the largest B − 1) |
//! | 116 | 4 | reserved, 0 |
//! | 120 | 768·B·H·2 | feature weights, `i16`, row-major: bucket, then feature, then neuron |
//! | … | H·2 | feature biases, `i16` |
//! | … | O·2H·2 | output weights, `i16`, per output bucket: the side to move's half, then the other side's |
//! | … | O·4 | output biases, `i32` (scaled by QA·QB) |
//!
//! Version 1 (FIANNUE v1, the nets shipped up to s7) still loads: a 36-byte
//! header (magic, version 1, architecture 1, H, QA, QB, scale, FNV-1a
//! checksum of the weights) and the weights of the plain architecture
//! [`Arch::plain`] in the same order, with one output bias.
//!
//! This file and [`super::arch`] are also compiled into the crate's
//! `build.rs`, which refuses to embed a network that fails these checks.

use super::aligned::Aligned;
use super::arch::{
    Activation, Arch, ArchProblem, KingBuckets, OutputBuckets, Quant, MAX_EVAL_CP,
    MAX_KING_BUCKETS, MAX_PIECES,
};

/// The file's magic bytes.
pub const MAGIC: [u8; 8] = *b"FIANNUE\x1a";
/// The format version this code writes.
pub const VERSION: u32 = 2;
/// The first format version, still read.
pub const VERSION_1: u32 = 1;
/// Bytes before the weights in a version 2 file.
pub const HEADER_SIZE: usize = 120;
/// Bytes before the weights in a version 1 file.
pub const HEADER_SIZE_V1: usize = 36;
/// The one architecture code of version 1: (768 → H)×2 → 1, SCReLU.
pub const ARCH_PERSPECTIVE_SCRELU: u32 = 1;
/// Where the checksum sits in a version 2 header.
const CHECKSUM_AT: usize = 48;
/// Where the king bucket map starts in a version 2 header.
const MAP_AT: usize = 52;
/// The flag bit of mirrored inputs.
const FLAG_MIRROR: u32 = 1;

/// Why a network (a file, or parts handed over in memory) was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Shorter than the header.
    #[error("network file is {0} bytes, shorter than its header (truncated or not a network)")]
    TooShort(usize),
    /// The magic bytes are wrong.
    #[error("not a Fianchetto network file (the magic bytes are not `FIANNUE`)")]
    Magic,
    /// A version this code does not read.
    #[error("network format version {0}; this build reads versions {VERSION_1} and {VERSION}")]
    Version(u32),
    /// A version 1 architecture code other than the one that exists.
    #[error("network architecture {0}; version 1 files know only {ARCH_PERSPECTIVE_SCRELU} ((768 -> H)x2 -> 1, SCReLU)")]
    Architecture(u32),
    /// An activation code this code does not know.
    #[error("network activation {0}; this build knows 1 (SCReLU)")]
    Activation(u32),
    /// A flag bit this code does not know.
    #[error("network flags {0:#x}; this build knows only bit 0 (mirrored inputs)")]
    Flags(u32),
    /// A rule for picking the output bucket this code does not know.
    #[error("network output bucket rule {0}; this build knows 1 (by piece count)")]
    OutputRule(u32),
    /// The king bucket map disagrees with the bucket count.
    #[error("network king bucket map: {0}")]
    BucketMap(String),
    /// The reserved header field is not zero.
    #[error("network header field at byte 116 is {0}, expected 0 (a newer format?)")]
    Reserved(u32),
    /// A size or constant of the architecture out of range.
    #[error("network {0}")]
    Arch(ArchProblem),
    /// The file is not as long as its header says.
    #[error("network file is {got} bytes; its architecture {arch} needs {expected} (truncated or padded)")]
    Length {
        /// The architecture the header describes.
        arch: String,
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        got: usize,
    },
    /// The bytes do not match the checksum.
    #[error("network checksum mismatch (file corrupted): header says {expected:08x}, the file gives {got:08x}")]
    Checksum {
        /// Checksum in the header.
        expected: u32,
        /// Checksum of the bytes read.
        got: u32,
    },
    /// A part handed over in memory has the wrong length.
    #[error("network {part} hold {got} values; the architecture needs {expected}")]
    Shape {
        /// Which part: `feature weights`, `feature biases`, `output
        /// weights` or `output biases`.
        part: &'static str,
        /// Values expected.
        expected: usize,
        /// Values given.
        got: usize,
    },
    /// An output weight beyond what the integer output layer can take.
    #[error("network output weight {index} (output bucket {bucket}) is {value}; inference needs |weight| <= {max} (i16::MAX / QA; clip the output layer while training)")]
    OutputWeight {
        /// The output bucket.
        bucket: usize,
        /// Index into that bucket's weights (the side to move's half first).
        index: usize,
        /// The weight.
        value: i16,
        /// The bound.
        max: i32,
    },
    /// An output bias beyond the evaluation range: alone it would score
    /// every position of its bucket [`MAX_EVAL_CP`] or more.
    #[error("network output bias of output bucket {bucket} is {value}; it alone would score beyond {MAX_EVAL_CP} centipawns, so it needs |bias| <= {max} ({MAX_EVAL_CP} x QA x QB / scale)")]
    OutputBias {
        /// The output bucket.
        bucket: usize,
        /// The bias.
        value: i32,
        /// The bound.
        max: i64,
    },
    /// An output bucket whose weights of one sign could take the output
    /// layer's `i32` sum past its range: QA^2 times their total exceeds
    /// `i32::MAX`.
    #[error("network output bucket {bucket} could overflow the output layer's i32 sum: QA^2 x its weights of one sign = {worst} > 2147483647 (clip the output layer while training)")]
    OutputRange {
        /// The output bucket.
        bucket: usize,
        /// The largest sum its weights can reach, in absolute value.
        worst: i64,
    },
    /// A hidden neuron whose accumulator could overflow an `i16`: its bias
    /// plus [`MAX_PIECES`] times its largest feature weight exceeds 32 767.
    #[error("network hidden neuron {neuron} could overflow its i16 accumulator: |bias| {bias} + {MAX_PIECES} x |feature weight| {weight} (feature row {feature}) = {total} > 32767 (clip the feature layer while training)")]
    FeatureRange {
        /// The hidden neuron.
        neuron: usize,
        /// Its bias, in absolute value.
        bias: i32,
        /// The feature row with its largest weight (bucket × 768 + feature).
        feature: usize,
        /// That weight, in absolute value.
        weight: i32,
        /// `bias + MAX_PIECES × weight`.
        total: i32,
    },
}

/// A network as the file holds it: the architecture and the quantized
/// weights, in the file's order.
#[derive(Clone, PartialEq, Eq)]
pub struct Parts {
    /// The architecture.
    pub arch: Arch,
    /// `arch.inputs() × hidden`, row-major (bucket, feature, neuron).
    pub ft_weights: Aligned,
    /// `hidden`.
    pub ft_bias: Aligned,
    /// `2 × hidden` per output bucket, the side to move's half first.
    pub out_weights: Aligned,
    /// One per output bucket, scaled by `QA · QB`.
    pub out_bias: Vec<i32>,
}

/// FNV-1a, 32 bits, continued from `hash`: enough to notice a corrupted
/// download.
fn fnv1a(hash: u32, bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(hash, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}
const FNV_START: u32 = 0x811C_9DC5;

/// Bytes of the weights of `arch`.
fn payload_len(arch: &Arch) -> usize {
    2 * (arch.ft_weight_count() + arch.hidden + arch.out_weight_count())
        + 4 * arch.output_buckets.count
}

/// The length of a version 2 file of `arch`.
pub fn file_len(arch: &Arch) -> usize {
    HEADER_SIZE + payload_len(arch)
}

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The architecture a file's header describes and the header's size in
/// bytes; `bytes` needs to hold the header only ([`HEADER_SIZE`] bytes
/// are enough for either version).
fn parse_header(bytes: &[u8]) -> Result<(Arch, usize), NetError> {
    if bytes.len() < HEADER_SIZE_V1 {
        return Err(NetError::TooShort(bytes.len()));
    }
    if bytes[0..8] != MAGIC {
        return Err(NetError::Magic);
    }
    match word(bytes, 8) {
        VERSION_1 => Ok((parse_header_v1(bytes)?, HEADER_SIZE_V1)),
        VERSION => Ok((parse_header_v2(bytes)?, HEADER_SIZE)),
        v => Err(NetError::Version(v)),
    }
}

/// Checks a file's length `len` (from its metadata) against the
/// architecture its header describes, before its weights are read:
/// `header` holds the file's first bytes ([`HEADER_SIZE`], or all of a
/// shorter file). The expected length, or the header's error, or
/// [`NetError::Length`].
pub fn check_len(header: &[u8], len: u64) -> Result<usize, NetError> {
    let (arch, size) = header_for_len(header, len)?;
    Ok(size + payload_len(&arch))
}

/// The header's architecture and size ([`parse_header`]) once a file of
/// `len` bytes is the length they give, or [`NetError::Length`].
fn header_for_len(header: &[u8], len: u64) -> Result<(Arch, usize), NetError> {
    let (arch, size) = parse_header(header)?;
    let expected = size + payload_len(&arch);
    if len != expected as u64 {
        return Err(NetError::Length {
            arch: arch.to_string(),
            expected,
            got: usize::try_from(len).unwrap_or(usize::MAX),
        });
    }
    Ok((arch, size))
}

/// Reads a network file of either version, refusing anything that is not
/// exactly one, and weights inference cannot take ([`check`]).
pub fn parse(bytes: &[u8]) -> Result<Parts, NetError> {
    let (arch, header) = header_for_len(bytes, bytes.len() as u64)?;
    let (stored, computed) = if header == HEADER_SIZE_V1 {
        (word(bytes, 32), fnv1a(FNV_START, &bytes[header..]))
    } else {
        (word(bytes, CHECKSUM_AT), checksum_v2(bytes))
    };
    if stored != computed {
        return Err(NetError::Checksum {
            expected: stored,
            got: computed,
        });
    }
    let mut at = header;
    let mut take = |n: usize| -> Aligned {
        let mut v = Aligned::zeroed(n);
        for (value, c) in v.iter_mut().zip(bytes[at..at + 2 * n].chunks_exact(2)) {
            *value = i16::from_le_bytes([c[0], c[1]]);
        }
        at += 2 * n;
        v
    };
    let ft_weights = take(arch.ft_weight_count());
    let ft_bias = take(arch.hidden);
    let out_weights = take(arch.out_weight_count());
    let out_bias = bytes[at..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let parts = Parts {
        arch,
        ft_weights,
        ft_bias,
        out_weights,
        out_bias,
    };
    check(&parts)?;
    Ok(parts)
}

fn parse_header_v1(bytes: &[u8]) -> Result<Arch, NetError> {
    let code = word(bytes, 12);
    if code != ARCH_PERSPECTIVE_SCRELU {
        return Err(NetError::Architecture(code));
    }
    let arch = Arch {
        quant: Quant {
            qa: word(bytes, 20).min(i32::MAX as u32) as i32,
            qb: word(bytes, 24).min(i32::MAX as u32) as i32,
            scale: word(bytes, 28).min(i32::MAX as u32) as i32,
        },
        ..Arch::plain(word(bytes, 16) as usize)
    };
    arch.check().map_err(NetError::Arch)?;
    Ok(arch)
}

fn parse_header_v2(bytes: &[u8]) -> Result<Arch, NetError> {
    if bytes.len() < HEADER_SIZE {
        return Err(NetError::TooShort(bytes.len()));
    }
    let hidden = word(bytes, 12) as usize;
    let activation =
        Activation::from_code(word(bytes, 16)).ok_or(NetError::Activation(word(bytes, 16)))?;
    let buckets = word(bytes, 20) as usize;
    let flags = word(bytes, 24);
    if flags & !FLAG_MIRROR != 0 {
        return Err(NetError::Flags(flags));
    }
    let outputs = word(bytes, 28) as usize;
    let rule = word(bytes, 32);
    if rule != OutputBuckets::BY_PIECE_COUNT {
        return Err(NetError::OutputRule(rule));
    }
    let quant = Quant {
        qa: word(bytes, 36).min(i32::MAX as u32) as i32,
        qb: word(bytes, 40).min(i32::MAX as u32) as i32,
        scale: word(bytes, 44).min(i32::MAX as u32) as i32,
    };
    let reserved = word(bytes, HEADER_SIZE - 4);
    if reserved != 0 {
        return Err(NetError::Reserved(reserved));
    }
    if !(1..=MAX_KING_BUCKETS).contains(&buckets) {
        return Err(NetError::Arch(ArchProblem::KingBuckets(buckets)));
    }
    let mut map = [0u8; 64];
    map.copy_from_slice(&bytes[MAP_AT..MAP_AT + 64]);
    let king_buckets = KingBuckets {
        map,
        mirror: flags & FLAG_MIRROR != 0,
    };
    if let Some(sq) = map.iter().position(|&b| b as usize >= buckets) {
        return Err(NetError::BucketMap(format!(
            "square {sq} has bucket {}, but the header declares {buckets} buckets",
            map[sq]
        )));
    }
    if king_buckets.count() != buckets {
        return Err(NetError::BucketMap(format!(
            "the header declares {buckets} buckets, the map uses {}",
            king_buckets.count()
        )));
    }
    let arch = Arch {
        king_buckets,
        hidden,
        activation,
        output_buckets: OutputBuckets { count: outputs },
        quant,
    };
    arch.check().map_err(NetError::Arch)?;
    Ok(arch)
}

/// The checksum of a version 2 file: FNV-1a over every byte but the
/// checksum's own four.
fn checksum_v2(bytes: &[u8]) -> u32 {
    let h = fnv1a(FNV_START, &bytes[..CHECKSUM_AT]);
    fnv1a(h, &bytes[CHECKSUM_AT + 4..])
}

/// The larger of the totals of `weights`' positive and negative values (in
/// absolute value): what [`Quant::max_output_weight_total`] bounds.
pub fn output_weight_total(weights: &[i16]) -> i64 {
    let (positive, negative) = weights.iter().fold((0i64, 0i64), |(p, n), &w| {
        let w = i64::from(w);
        (p + w.max(0), n + (-w).max(0))
    });
    positive.max(negative)
}

/// Checks parts handed over in memory or read from a file: the
/// architecture, every part's length, and the weight ranges that keep
/// integer inference exact (output weights within
/// [`Quant::max_output_weight`] and, per output bucket, within what the
/// `i32` sum holds, output biases within [`Quant::max_output_bias`], and per
/// hidden neuron `|bias| + 32 ×` its
/// largest feature weight within `i16`).
pub fn check(parts: &Parts) -> Result<(), NetError> {
    let arch = &parts.arch;
    arch.check().map_err(NetError::Arch)?;
    let h = arch.hidden;
    for (part, expected, got) in [
        (
            "feature weights",
            arch.ft_weight_count(),
            parts.ft_weights.len(),
        ),
        ("feature biases", h, parts.ft_bias.len()),
        (
            "output weights",
            arch.out_weight_count(),
            parts.out_weights.len(),
        ),
        (
            "output biases",
            arch.output_buckets.count,
            parts.out_bias.len(),
        ),
    ] {
        if got != expected {
            return Err(NetError::Shape {
                part,
                expected,
                got,
            });
        }
    }
    let max = arch.quant.max_output_weight();
    if let Some((at, &value)) = parts
        .out_weights
        .iter()
        .enumerate()
        .find(|(_, w)| i32::from(**w).abs() > max)
    {
        return Err(NetError::OutputWeight {
            bucket: at / (2 * h),
            index: at % (2 * h),
            value,
            max,
        });
    }
    // The output layer sums one `v * (v * w)` term per weight in `i32`
    // (in SIMD lanes, then across them), `v` an activation in 0..=QA: every
    // partial sum lies between QA^2 times the bucket's negative weights and
    // QA^2 times its positive ones, and both must fit, or a position could
    // wrap the sum into a wrong evaluation.
    let total = arch.quant.max_output_weight_total();
    for (bucket, weights) in parts.out_weights.chunks_exact(2 * h).enumerate() {
        let one_sign = output_weight_total(weights);
        if one_sign > total {
            let worst = one_sign * i64::from(arch.quant.qa).pow(2);
            return Err(NetError::OutputRange { bucket, worst });
        }
    }
    let max_bias = arch.quant.max_output_bias();
    if let Some((bucket, &value)) = parts
        .out_bias
        .iter()
        .enumerate()
        .find(|(_, b)| i64::from(**b).abs() > max_bias)
    {
        return Err(NetError::OutputBias {
            bucket,
            value,
            max: max_bias,
        });
    }
    // Per neuron: the feature row with the largest weight, then the bound.
    let mut largest = vec![(0usize, 0i32); h];
    for (row, weights) in parts.ft_weights.chunks_exact(h).enumerate() {
        for (best, &w) in largest.iter_mut().zip(weights) {
            let w = i32::from(w).abs();
            if w > best.1 {
                *best = (row, w);
            }
        }
    }
    for (neuron, (&bias, &(feature, weight))) in parts.ft_bias.iter().zip(&largest).enumerate() {
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

/// The version 2 file of `parts` (what [`parse`] reads).
pub fn write(parts: &Parts) -> Vec<u8> {
    let arch = &parts.arch;
    let mut out = Vec::with_capacity(file_len(arch));
    out.extend_from_slice(&MAGIC);
    let kb = &arch.king_buckets;
    for w in [
        VERSION,
        arch.hidden as u32,
        arch.activation.code(),
        kb.count() as u32,
        if kb.mirror { FLAG_MIRROR } else { 0 },
        arch.output_buckets.count as u32,
        OutputBuckets::BY_PIECE_COUNT,
        arch.quant.qa as u32,
        arch.quant.qb as u32,
        arch.quant.scale as u32,
        0, // the checksum, filled in below
    ] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&kb.map);
    out.extend_from_slice(&0u32.to_le_bytes());
    debug_assert_eq!(out.len(), HEADER_SIZE);
    for w in parts
        .ft_weights
        .iter()
        .chain(&parts.ft_bias)
        .chain(&parts.out_weights)
    {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in &parts.out_bias {
        out.extend_from_slice(&b.to_le_bytes());
    }
    let sum = checksum_v2(&out);
    out[CHECKSUM_AT..CHECKSUM_AT + 4].copy_from_slice(&sum.to_le_bytes());
    out
}

/// The version 1 file of a plain network (for tests and for tools that
/// still read v1); `None` for an architecture v1 cannot describe.
pub fn write_v1(parts: &Parts) -> Option<Vec<u8>> {
    let arch = &parts.arch;
    if *arch != Arch::plain(arch.hidden) || parts.out_bias.len() != 1 {
        return None;
    }
    let mut payload = Vec::with_capacity(payload_len(arch));
    for w in parts
        .ft_weights
        .iter()
        .chain(&parts.ft_bias)
        .chain(&parts.out_weights)
    {
        payload.extend_from_slice(&w.to_le_bytes());
    }
    payload.extend_from_slice(&parts.out_bias[0].to_le_bytes());
    let mut out = Vec::with_capacity(HEADER_SIZE_V1 + payload.len());
    out.extend_from_slice(&MAGIC);
    let q = arch.quant;
    for w in [
        VERSION_1,
        ARCH_PERSPECTIVE_SCRELU,
        arch.hidden as u32,
        q.qa as u32,
        q.qb as u32,
        q.scale as u32,
        fnv1a(FNV_START, &payload),
    ] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&payload);
    Some(out)
}
