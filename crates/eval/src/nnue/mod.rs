//! NNUE: an efficiently updatable neural network evaluation.
//!
//! Start with the network shipped inside the crate:
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::{Evaluator, Nnue};
//!
//! let mut nnue = Nnue::embedded()?;
//! let score = nnue.evaluate(&Bitboards::startpos());
//! println!("{}: {score}", nnue.network().arch());
//! # Ok::<(), fianchetto_eval::nnue::NetError>(())
//! ```
//!
//! (a trained network of your own comes from a file:
//! `Nnue::from_file("net.nnue")?`, whose errors name the file; or from
//! bytes in memory: `Nnue::from_bytes(&bytes)?`).
//!
//! **The architecture** is described once, by [`Arch`]: each perspective
//! (white's, black's) sees 768 piece-square inputs, optionally per king
//! bucket and mirrored when its king is on files e–h ([`KingBuckets`]),
//! feeding H hidden neurons with shared weights and SCReLU; the output
//! reads the side to move's half first, from one of several output buckets
//! chosen by the number of pieces ([`OutputBuckets`]). Weights are `i16`
//! quantized with QA and QB, and the output is scaled to centipawns
//! ([`Quant`]: 255, 64 and 400 by default). The file format
//! ([`format`](mod@format)), `build.rs`, the inference below and the trainer in
//! `fianchetto-tune` all read that one description.
//!
//! **The inference**: [`Nnue`] runs a [`Network`] as an
//! [`Evaluator`](crate::Evaluator):
//!
//! * Each perspective's accumulator is the feature biases plus the feature
//!   weights of every piece on the board, read through that perspective's
//!   [`View`] (its king bucket and mirroring), kept in `i16`.
//! * The output is
//!   `(Σ SCReLU(acc_us[i]) · w[i] + Σ SCReLU(acc_them[i]) · w[H + i]) / QA + bias`
//!   of the position's output bucket, times `scale / (QA · QB)`, with
//!   `SCReLU(x) = clamp(x, 0, QA)²`, all in integers (computed as
//!   `v · (v · w)` so that `v · w` fits an `i16`).
//! * The accumulators follow the search incrementally, per perspective:
//!   `push` records which pieces a move added and removed (from the boards'
//!   piece bitboards, whatever the move), `evaluate` applies the pending
//!   changes, `pop` drops the top. A king move that changes its side's
//!   view refreshes that side from a cache of the last accumulator of each
//!   view (the "finny table"), adding and removing only the pieces that
//!   differ. A board the stack does not describe is computed afresh.
//! * The two hot loops have AVX-512 and AVX2 versions chosen at run time
//!   and a portable one ([`Simd`]); all give bit-identical results. The
//!   version is chosen once per evaluation: the whole evaluation (the
//!   walk down the stack, the updates, the output) is compiled once per
//!   version for its CPU features, and once more for each of the common
//!   hidden sizes (256, 1024) with the size a constant.
//!
//! A network can also be built from its weights, here a small random one:
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::nnue::{Arch, KingBuckets, Network, Nnue};
//! use fianchetto_eval::Evaluator;
//! use fianchetto_movegen::parse_uci;
//! use std::sync::Arc;
//!
//! let mut seed = 0x2545_f491_4f6c_dd1du64;
//! let mut random = |range: u64| {
//!     seed ^= seed << 13;
//!     seed ^= seed >> 7;
//!     seed ^= seed << 17;
//!     (seed % (2 * range + 1)) as i16 - range as i16
//! };
//! // 4 mirrored king buckets, 32 hidden neurons, 8 output buckets.
//! let arch = Arch::plain(32)
//!     .with_king_buckets(KingBuckets::MIRRORED_4)
//!     .with_output_buckets(8);
//! let ft_weights = (0..arch.ft_weight_count()).map(|_| random(100)).collect();
//! let ft_bias = (0..arch.hidden).map(|_| random(100)).collect();
//! let out_weights = (0..arch.out_weight_count()).map(|_| random(127)).collect();
//! let net = Network::new(arch, ft_weights, ft_bias, out_weights, vec![1000; 8])?;
//!
//! let mut nnue = Nnue::new(Arc::new(net));
//! let root = Bitboards::startpos();
//! nnue.reset(&root);
//! let at_root = nnue.evaluate(&root);
//!
//! // A search pushes every move and pops it when done.
//! let mv = parse_uci(&root, "e2e4")?;
//! let mut next = root.clone();
//! next.play_unchecked(mv);
//! nnue.push(&root, mv, &next);
//! let incremental = nnue.evaluate(&next);
//! nnue.pop();
//!
//! // The same as evaluating each position afresh, with or without SIMD.
//! let mut fresh = Nnue::new(nnue.network().clone()).with_simd(false);
//! assert_eq!(incremental, fresh.evaluate(&next));
//! assert_eq!(at_root, nnue.evaluate(&root));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod accumulator;
mod aligned;
pub mod arch;
mod embedded;
mod evaluator;
pub mod format;
mod network;
mod refresh;
pub(crate) mod simd;
mod stack;

pub use aligned::Aligned;
pub use arch::{
    Activation, Arch, ArchProblem, KingBuckets, OutputBuckets, Quant, View, HIDDEN_STEP, INPUTS,
    MAX_HIDDEN, MAX_KING_BUCKETS, MAX_OUTPUT_BUCKETS, MAX_PIECES,
};
pub use embedded::{embedded_network, EMBEDDED_NET};
pub use evaluator::Nnue;
pub use format::{NetError, HEADER_SIZE, HEADER_SIZE_V1, MAGIC, VERSION};
pub use network::{feature, Network};
pub use simd::{Simd, AVX512_MIN_HIDDEN, SIMD_ENV};

/// QA of the default quantisation ([`Quant::DEFAULT`]).
pub const QA: i32 = Quant::DEFAULT.qa;
/// QB of the default quantisation ([`Quant::DEFAULT`]).
pub const QB: i32 = Quant::DEFAULT.qb;
/// The evaluation scale of the default quantisation ([`Quant::DEFAULT`]).
pub const SCALE: i32 = Quant::DEFAULT.scale;
/// The largest output weight the default quantisation accepts
/// ([`Quant::max_output_weight`]: `i16::MAX / QA` = 128).
pub const MAX_OUTPUT_WEIGHT: i16 = Quant::DEFAULT.max_output_weight() as i16;
