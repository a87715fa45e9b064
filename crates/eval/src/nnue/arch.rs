//! The one description of a network's architecture, [`Arch`]: what the
//! inputs are, how wide the hidden layer is, its activation, how many
//! output buckets there are and how a position picks one, and the
//! quantisation. The file format ([`super::format`]), the inference, the
//! crate's `build.rs` (which includes this file and `format.rs` to check
//! the embedded net) and the trainer in `fianchetto-tune` all read it, so
//! a new bucket layout or hidden size is a change here only.
//!
//! This file uses nothing outside the standard library: `build.rs`
//! compiles it on its own.
//!
//! # Inputs
//!
//! Each perspective (white's, black's) sees the 768 piece-square features
//! `side × 384 + role × 64 + square`, with its own pieces as side 0 and
//! the board flipped vertically for black, so both see their own side at
//! the bottom. On top of that:
//!
//! * **King buckets**: a map from the perspective's own king square (as
//!   that perspective sees it) to a bucket; each bucket has its own 768
//!   rows of feature weights. One bucket everywhere is the plain net.
//! * **Mirroring**: when the perspective's own king stands on files e–h,
//!   every square is mirrored left to right (a↔h) before the bucket and
//!   the feature are looked up, so the weights only ever see the king on
//!   files a–d.
//!
//! # Output buckets
//!
//! `output_buckets` sets of output weights and biases; a position with `n`
//! pieces (kings included) uses set
//! `min((n − 2) / ⌈32 / output_buckets⌉, output_buckets − 1)`.
//!
//! # Quantisation
//!
//! Feature weights and biases are `i16` scaled by QA, output weights `i16`
//! scaled by QB, output biases `i32` scaled by QA·QB, and one unit of the
//! output is `scale` centipawns. The bounds that keep integer inference
//! exact ([`Quant::max_feature_weight`], [`Quant::max_output_weight`]) are
//! the ones the trainer clips its float weights to ([`Quant::feature_clip`],
//! [`Quant::output_clip`]).

use std::fmt;

/// Piece-square features of one king bucket, per perspective: 2 sides × 6
/// roles × 64 squares.
pub const INPUTS: usize = 768;
/// The largest hidden size a network may have.
pub const MAX_HIDDEN: usize = 4096;
/// Hidden sizes are multiples of this (the SIMD kernels' register width).
pub const HIDDEN_STEP: usize = 16;
/// The most king buckets a network may have.
pub const MAX_KING_BUCKETS: usize = 32;
/// The most output buckets a network may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;
/// The most pieces a position holds: bounds how many feature rows one
/// accumulator sums (so that it fits an `i16`).
pub const MAX_PIECES: i32 = 32;

/// The largest evaluation, in centipawns, a network's output bias may
/// give on its own: one below the mate range (`Score::MATE_BOUND`,
/// 31 000), where evaluations are clamped.
pub const MAX_EVAL_CP: i32 = 30_999;

/// The activation of the hidden layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// Squared clipped ReLU: `clamp(x, 0, 1)²` (in integers
    /// `clamp(x, 0, QA)²`, scaled by QA²).
    SCReLU,
}

impl Activation {
    /// The code the file format stores.
    pub const fn code(self) -> u32 {
        match self {
            Activation::SCReLU => 1,
        }
    }

    /// The activation of a file's code.
    pub const fn from_code(code: u32) -> Option<Activation> {
        match code {
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }

    /// The activation's name.
    pub const fn name(self) -> &'static str {
        match self {
            Activation::SCReLU => "SCReLU",
        }
    }
}

/// Which king square uses which bucket of feature weights, and whether the
/// board is mirrored when the king is on files e–h.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KingBuckets {
    /// The bucket of each square of the perspective's own king, as that
    /// perspective sees the board (its back rank is rank 1; a1 = 0,
    /// h8 = 63). With `mirror`, only files a–d are ever read.
    pub map: [u8; 64],
    /// Whether the squares are mirrored left to right when the own king
    /// stands on files e–h.
    pub mirror: bool,
}

/// Spreads a map of files a–d (rank 1 first, four entries a rank) over the
/// whole board, files e–h mirroring a–d.
const fn mirrored_map(half: [u8; 32]) -> [u8; 64] {
    let mut map = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (rank, file) = (sq / 8, sq % 8);
        let file = if file >= 4 { 7 - file } else { file };
        map[sq] = half[rank * 4 + file];
        sq += 1;
    }
    map
}

impl KingBuckets {
    /// One bucket, no mirroring: the plain 768-input network.
    pub const PLAIN: KingBuckets = KingBuckets {
        map: [0; 64],
        mirror: false,
    };
    /// One bucket, mirrored: the king always on files a–d.
    pub const MIRRORED: KingBuckets = KingBuckets {
        map: [0; 64],
        mirror: true,
    };
    /// Four buckets, mirrored: the king in the corner (files a–b) or the
    /// centre (c–d) of its back rank, on its second rank, or further up.
    pub const MIRRORED_4: KingBuckets = KingBuckets {
        map: mirrored_map([
            0, 0, 1, 1, //
            2, 2, 2, 2, //
            3, 3, 3, 3, //
            3, 3, 3, 3, //
            3, 3, 3, 3, //
            3, 3, 3, 3, //
            3, 3, 3, 3, //
            3, 3, 3, 3, //
        ]),
        mirror: true,
    };
    /// Nine buckets, mirrored: each back-rank square of files a–d its own,
    /// the second rank in two halves, the third and fourth ranks one each,
    /// the rest of the board one.
    pub const MIRRORED_9: KingBuckets = KingBuckets {
        map: mirrored_map([
            0, 1, 2, 3, //
            4, 4, 5, 5, //
            6, 6, 6, 6, //
            7, 7, 7, 7, //
            8, 8, 8, 8, //
            8, 8, 8, 8, //
            8, 8, 8, 8, //
            8, 8, 8, 8, //
        ]),
        mirror: true,
    };

    /// The named layouts, by the name the trainer's `--king-buckets`
    /// and run files use. A new layout is one constant above and one
    /// line here.
    pub const NAMED: &'static [(&'static str, KingBuckets)] = &[
        ("plain", KingBuckets::PLAIN),
        ("mirrored", KingBuckets::MIRRORED),
        ("mirrored-4", KingBuckets::MIRRORED_4),
        ("mirrored-9", KingBuckets::MIRRORED_9),
    ];

    /// The layout called `name` (see [`KingBuckets::NAMED`]).
    pub fn named(name: &str) -> Option<KingBuckets> {
        KingBuckets::NAMED
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
            .map(|&(_, b)| b)
    }

    /// The name of this layout, if it is one of [`KingBuckets::NAMED`].
    pub fn name(&self) -> Option<&'static str> {
        KingBuckets::NAMED
            .iter()
            .find(|(_, b)| b == self)
            .map(|&(n, _)| n)
    }

    /// How many buckets the map uses: one more than its largest entry.
    pub fn count(&self) -> usize {
        self.map.iter().map(|&b| b as usize + 1).max().unwrap_or(1)
    }

    /// Which feature weights `perspective` (0 white, 1 black) uses with its
    /// own king on `king` (0..64, a1 = 0, the real board).
    #[inline(always)]
    pub fn view(&self, perspective: usize, king: usize) -> View {
        let flip = if perspective == 0 { 0 } else { 56 };
        let own = king ^ flip;
        let mirrored = self.mirror && own % 8 >= 4;
        let xor = flip ^ if mirrored { 7 } else { 0 };
        let bucket = self.map[own ^ if mirrored { 7 } else { 0 }] as usize;
        View {
            base: bucket * INPUTS,
            xor,
            id: 2 * bucket + mirrored as usize,
        }
    }
}

impl fmt::Debug for KingBuckets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "KingBuckets({name})"),
            None => write!(
                f,
                "KingBuckets {{ map: {:?}, mirror: {} }}",
                self.map, self.mirror
            ),
        }
    }
}

/// How one perspective reads the board for one king position: which
/// bucket's rows, and how squares are transformed. Two king positions with
/// the same view share every feature index, so an accumulator carries over
/// between them; a different view means a refresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// The first row of the bucket (`bucket × 768`).
    pub base: usize,
    /// XORed into a square: 56 flips the board for black, 7 mirrors it.
    pub xor: usize,
    /// `2 × bucket + mirrored`: the view's slot in a refresh cache.
    pub id: usize,
}

impl View {
    /// The feature row of a piece of `side` (0: the perspective's own,
    /// 1: the opponent's) and `role` (0 pawn … 5 king) on `square`
    /// (0..64, the real board).
    #[inline(always)]
    pub fn index(self, side: usize, role: usize, square: usize) -> usize {
        self.base + side * 384 + role * 64 + (square ^ self.xor)
    }
}

/// Output buckets: how many sets of output weights, chosen by the number of
/// pieces on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OutputBuckets {
    /// How many sets (1 to [`MAX_OUTPUT_BUCKETS`]).
    pub count: usize,
}

impl OutputBuckets {
    /// One set of output weights: no buckets.
    pub const ONE: OutputBuckets = OutputBuckets { count: 1 };

    /// The code of the choosing rule in the file format (1: by piece count,
    /// the only rule so far).
    pub const BY_PIECE_COUNT: u32 = 1;

    /// The set a position with `pieces` pieces (kings included) uses.
    #[inline(always)]
    pub fn bucket(self, pieces: u32) -> usize {
        let per = 32usize.div_ceil(self.count);
        ((pieces.saturating_sub(2) as usize) / per).min(self.count - 1)
    }
}

/// The quantisation of the weights (see the [module](self) documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Quant {
    /// The feature layer's scale: activations are clipped to `0..=qa`.
    pub qa: i32,
    /// The output layer's scale.
    pub qb: i32,
    /// Centipawns per unit of the network's output (the sigmoid's scale).
    pub scale: i32,
}

impl Quant {
    /// QA 255, QB 64, scale 400: the community's convention, and every net
    /// Fianchetto has shipped.
    pub const DEFAULT: Quant = Quant {
        qa: 255,
        qb: 64,
        scale: 400,
    };

    /// The largest QA a file may declare: an activation (up to QA) times an
    /// output weight must fit an `i16`, so a larger QA would leave the
    /// output weights almost no range.
    pub const MAX_QA: i32 = 1023;
    /// The largest QB a file may declare.
    pub const MAX_QB: i32 = 1024;
    /// The largest evaluation scale a file may declare.
    pub const MAX_SCALE: i32 = 10_000;

    /// Whether every constant is in range (QA 1..=1023, QB 1..=1024, scale
    /// 1..=10 000).
    pub fn is_valid(&self) -> bool {
        (1..=Quant::MAX_QA).contains(&self.qa)
            && (1..=Quant::MAX_QB).contains(&self.qb)
            && (1..=Quant::MAX_SCALE).contains(&self.scale)
    }

    /// The largest output weight (in absolute value) inference accepts:
    /// an activation in `0..=QA` times the weight must fit an `i16`, which
    /// the SIMD output layer relies on (`i16::MAX / QA`: 128 for QA 255).
    pub const fn max_output_weight(&self) -> i32 {
        i16::MAX as i32 / self.qa
    }

    /// The most an output bucket's weights of one sign may add up to (in
    /// absolute value): QA² times the total is the furthest the output
    /// layer's `i32` sum can go (every activation at QA), and must fit
    /// (33 025 for QA 255).
    pub const fn max_output_weight_total(&self) -> i64 {
        let qa = if self.qa > 0 { self.qa as i64 } else { 1 };
        i32::MAX as i64 / (qa * qa)
    }

    /// The largest output bias (in absolute value) a network may have:
    /// one that alone scores [`MAX_EVAL_CP`] centipawns
    /// (`MAX_EVAL_CP · QA · QB / scale`: 1 264 759 for the default
    /// quantisation). A larger one would put every evaluation of its bucket
    /// at the clamp, whatever the position.
    pub const fn max_output_bias(&self) -> i64 {
        // A scale below 1 is invalid ([`Quant::is_valid`]); 1 keeps this total.
        let scale = if self.scale > 0 { self.scale } else { 1 };
        MAX_EVAL_CP as i64 * self.qa as i64 * self.qb as i64 / scale as i64
    }

    /// The bound on a neuron's bias and each of its feature weights (in
    /// absolute value) that keeps the accumulator inside `i16` with
    /// [`MAX_PIECES`] pieces on the board: the bias plus 32 weights
    /// (`i16::MAX / 33`: 992). Inference checks the exact per-neuron sum;
    /// the trainer clips every weight to this, which implies it.
    pub const fn max_feature_weight(&self) -> i32 {
        i16::MAX as i32 / (MAX_PIECES + 1)
    }

    /// The trainer's clip for float feature weights and biases:
    /// [`max_feature_weight`](Self::max_feature_weight) / QA.
    pub fn feature_clip(&self) -> f32 {
        self.max_feature_weight() as f32 / self.qa as f32
    }

    /// The trainer's clip for float output weights:
    /// [`max_output_weight`](Self::max_output_weight) / QB.
    pub fn output_clip(&self) -> f32 {
        self.max_output_weight() as f32 / self.qb as f32
    }
}

/// The whole description of a network.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arch {
    /// King buckets and mirroring of the inputs.
    pub king_buckets: KingBuckets,
    /// Hidden neurons per perspective: a multiple of 16 from 16 to
    /// [`MAX_HIDDEN`].
    pub hidden: usize,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Sets of output weights, by piece count.
    pub output_buckets: OutputBuckets,
    /// The quantisation.
    pub quant: Quant,
}

/// Why an [`Arch`] is not one this code can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchProblem {
    /// The hidden size is zero, too large or not a multiple of 16.
    Hidden(usize),
    /// More king buckets than [`MAX_KING_BUCKETS`].
    KingBuckets(usize),
    /// No output bucket, or more than [`MAX_OUTPUT_BUCKETS`].
    OutputBuckets(usize),
    /// A quantisation constant out of range.
    Quant(Quant),
}

impl fmt::Display for ArchProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ArchProblem::Hidden(h) => write!(
                f,
                "hidden size {h}; expected a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN}"
            ),
            ArchProblem::KingBuckets(n) => {
                write!(f, "{n} king buckets; at most {MAX_KING_BUCKETS}")
            }
            ArchProblem::OutputBuckets(n) => {
                write!(f, "{n} output buckets; expected 1 to {MAX_OUTPUT_BUCKETS}")
            }
            ArchProblem::Quant(q) => write!(
                f,
                "quantisation QA={} QB={} scale={}; expected QA 1..={}, QB 1..={}, scale 1..={}",
                q.qa,
                q.qb,
                q.scale,
                Quant::MAX_QA,
                Quant::MAX_QB,
                Quant::MAX_SCALE
            ),
        }
    }
}

impl Arch {
    /// The plain perspective net (768 → `hidden`)×2 → 1 with SCReLU and the
    /// default quantisation: the architecture of the FIANNUE v1 files
    /// (the shipped default net is `plain(256)` with 8 output buckets).
    pub const fn plain(hidden: usize) -> Arch {
        Arch {
            king_buckets: KingBuckets::PLAIN,
            hidden,
            activation: Activation::SCReLU,
            output_buckets: OutputBuckets::ONE,
            quant: Quant::DEFAULT,
        }
    }

    /// This architecture with other king buckets.
    pub const fn with_king_buckets(self, king_buckets: KingBuckets) -> Arch {
        Arch {
            king_buckets,
            ..self
        }
    }

    /// This architecture with `count` output buckets.
    pub const fn with_output_buckets(self, count: usize) -> Arch {
        Arch {
            output_buckets: OutputBuckets { count },
            ..self
        }
    }

    /// Checks every part, naming the first that is out of range.
    pub fn check(&self) -> Result<(), ArchProblem> {
        if !(HIDDEN_STEP..=MAX_HIDDEN).contains(&self.hidden) || self.hidden % HIDDEN_STEP != 0 {
            return Err(ArchProblem::Hidden(self.hidden));
        }
        let kb = self.king_buckets.count();
        if kb > MAX_KING_BUCKETS {
            return Err(ArchProblem::KingBuckets(kb));
        }
        let ob = self.output_buckets.count;
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&ob) {
            return Err(ArchProblem::OutputBuckets(ob));
        }
        if !self.quant.is_valid() {
            return Err(ArchProblem::Quant(self.quant));
        }
        Ok(())
    }

    /// Feature rows per perspective: 768 per king bucket.
    pub fn inputs(&self) -> usize {
        INPUTS * self.king_buckets.count()
    }

    /// Feature weights: `inputs() × hidden`.
    pub fn ft_weight_count(&self) -> usize {
        self.inputs() * self.hidden
    }

    /// Output weights: `2 × hidden` per output bucket.
    pub fn out_weight_count(&self) -> usize {
        2 * self.hidden * self.output_buckets.count
    }

    /// Views a perspective can have: `2 ×` king buckets (mirrored or not).
    pub fn views(&self) -> usize {
        2 * self.king_buckets.count()
    }
}

impl fmt::Display for Arch {
    /// `(768x4 mirrored-4 -> 1024)x2 SCReLU -> 8 output buckets, QA 255 QB 64 scale 400`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kb = &self.king_buckets;
        let layout = match kb.name() {
            Some(name) => name.to_string(),
            None if kb.mirror => "custom mirrored".to_string(),
            None => "custom".to_string(),
        };
        write!(f, "(768")?;
        if *kb != KingBuckets::PLAIN {
            write!(f, "x{} {layout}", kb.count())?;
        }
        write!(f, " -> {})x2 {} -> 1", self.hidden, self.activation.name())?;
        if self.output_buckets.count > 1 {
            write!(f, " x{} output buckets", self.output_buckets.count)?;
        }
        write!(
            f,
            ", QA {} QB {} scale {}",
            self.quant.qa, self.quant.qb, self.quant.scale
        )
    }
}

impl fmt::Debug for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Arch({self})")
    }
}
