//! # fianchetto-eval
//!
//! How good a position is: [`Score`], the [`Evaluator`] trait searches call,
//! and the evaluations themselves.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::{Evaluator, Score};
//!
//! struct Zero;
//! impl<B: Board> Evaluator<B> for Zero {
//!     fn evaluate(&mut self, _: &B) -> Score { Score::ZERO }
//! }
//! assert_eq!(Zero.evaluate(&Bitboards::startpos()), Score::cp(0));
//! assert_eq!(Score::mate_in(3).to_string(), "mate 2");
//! ```
#![warn(missing_docs)]

mod evaluator;
mod score;

pub use evaluator::Evaluator;
pub use score::Score;
