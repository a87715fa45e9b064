//! A policy network: how likely each legal move is to be the best, for
//! Monte Carlo tree search (PUCT) to spend its playouts where they pay.
//!
//! The shape is declared once in [`PolicyArch`]: the piece-square
//! features of the position seen from the side to move (each piece also
//! marked attacked or not and defended or not: [`Threats`]), a clipped-ReLU
//! hidden layer, and a logit per legal move, the dot product of the hidden
//! layer with the move's from-square row plus its destination row (moving
//! role and square, or promotion piece and file, and whether the opponent
//! attacks the destination). The hidden layer is
//! computed once per position; a move then costs two dot products, run by
//! the same SIMD kernels as the NNUE (AVX-512, AVX2 or portable, picked at
//! run time, all giving the same integers).
//!
//! Networks are quantized to `i16` and kept in a versioned file
//! ([`format`](mod@format)) with a checksum; [`PolicyNet::from_file`] refuses a
//! malformed one with an error that names the file and what is wrong.
//! `fianchetto-train` learns them (`fianchetto train --policy`).
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::policy::{PolicyArch, PolicyNet};
//! use fianchetto_movegen::MoveGen;
//!
//! // A network of 32 neurons whose every weight is 0.01 (a trained one
//! // comes from `fianchetto train --policy`).
//! let arch = PolicyArch::new(32)?;
//! let net = PolicyNet::quantize(arch, &vec![0.01; arch.weight_count()])?;
//! let board = Bitboards::startpos();
//! let moves = board.legal_moves();
//! let mut logits = vec![0.0; moves.len()];
//! net.logits(&board, &moves, &mut logits);
//! // Every move reads the same weights here, so every logit is the same.
//! assert!(logits.iter().all(|&l| l == logits[0] && l > 0.0));
//!
//! // Written and read back, bit for bit.
//! assert_eq!(PolicyNet::from_bytes(&net.to_bytes())?, net);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod embedded;
pub mod format;
mod net;
mod rows;
mod shape;

pub use embedded::{
    embedded_policy, load_policy, EMBEDDED_POLICY, EMBEDDED_POLICY_NAME, HAND_POLICY_NAME,
};
pub use format::PolicyError;
pub use net::{LoadPolicyError, PolicyNet};
pub use rows::{feature_index, features, features_with, move_rows, Threats};
pub use shape::{
    PolicyArch, PolicyArchError, PolicyQuant, FROM_ROWS, HIDDEN_STEP, INPUTS, MAX_FEATURES,
    MAX_HIDDEN, TO_ROWS,
};

#[cfg(test)]
mod tests;
