//! NNUE: an efficiently updatable neural network evaluation.
//!
//! The architecture is the perspective network most engines of our size
//! start with: 768 piece-square inputs seen from each side, one hidden
//! layer of H neurons per perspective (shared weights), SCReLU, and one
//! output that reads the side to move's half first. Weights are `i16`
//! quantized with QA = 255 and QB = 64, and the output is scaled by 400
//! (the community's convention, so nets can be compared).
//!
//! [`Nnue`] runs a [`Network`] as an [`Evaluator`](crate::Evaluator):
//!
//! * Each perspective's accumulator is the feature biases plus the feature
//!   weights of every piece on the board, kept in `i16`.
//! * The output is
//!   `(Σ SCReLU(acc_us[i]) · w[i] + Σ SCReLU(acc_them[i]) · w[H + i]) / QA + bias`,
//!   times `SCALE / (QA · QB)`, with `SCReLU(x) = clamp(x, 0, QA)²`, all in
//!   integers (computed as `v · (v · w)` so that `v · w` fits an `i16`).
//! * The accumulators follow the search incrementally: `push` records which
//!   features a move added and removed (from the boards' piece bitboards,
//!   whatever the move), `evaluate` applies the pending changes, `pop` drops
//!   the top. A board the stack does not describe is computed from scratch.
//! * The two hot loops have an AVX2 version chosen at run time and a
//!   portable one; both give bit-identical results.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board, Move};
//! use fianchetto_eval::nnue::{Network, Nnue, INPUTS};
//! use fianchetto_eval::Evaluator;
//! use fianchetto_movegen::parse_uci;
//! use std::sync::Arc;
//!
//! // A small random network (a trained one comes from a file:
//! // `Nnue::from_bytes(&std::fs::read("net.nnue")?)?`).
//! let mut seed = 0x2545_f491_4f6c_dd1du64;
//! let mut random = |range: u64| {
//!     seed ^= seed << 13;
//!     seed ^= seed >> 7;
//!     seed ^= seed << 17;
//!     (seed % (2 * range + 1)) as i16 - range as i16
//! };
//! let hidden = 32;
//! let ft_weights = (0..INPUTS * hidden).map(|_| random(100)).collect();
//! let ft_bias = (0..hidden).map(|_| random(100)).collect();
//! let out_weights = (0..2 * hidden).map(|_| random(127)).collect();
//! let net = Network::from_parts(hidden, ft_weights, ft_bias, out_weights, 1000)
//!     .expect("sizes and ranges fit");
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
//! // The same as evaluating each position from scratch, with or without AVX2.
//! let mut fresh = Nnue::new(nnue.network().clone()).with_simd(false);
//! assert_eq!(incremental, fresh.evaluate(&next));
//! assert_eq!(at_root, nnue.evaluate(&root));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod accumulator;
mod embedded;
mod evaluator;
mod network;
mod simd;
mod stack;

pub use embedded::{embedded_network, EMBEDDED_NET};
pub use evaluator::Nnue;
pub use network::{
    feature, NetError, Network, ARCH_PERSPECTIVE_SCRELU, HEADER_SIZE, INPUTS, MAGIC, MAX_HIDDEN,
    MAX_OUTPUT_WEIGHT, MAX_PIECES, QA, QB, SCALE, VERSION,
};
