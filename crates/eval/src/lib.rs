//! # fianchetto-eval
//!
//! How good a position is: [`Score`], the [`Evaluator`] trait searches call,
//! and the evaluations themselves: [`Material`] (classic or Greenblatt
//! values), [`BuhoChess`] (the complete evaluation of Lugo's thesis) and
//! [`Classical`] (the project's own tapered evaluation), all built from one
//! set of terms weighted by a tunable [`Params`], and pickable by name with
//! [`Preset`]. A [`Breakdown`] takes any evaluation apart term by term.
//! [`Nnue`] evaluates with a quantized neural network instead (see [`nnue`]
//! for the architecture, the file format and an example), its accumulators
//! updated incrementally as a search pushes and pops moves. [`policy`] holds
//! the policy network that guides MCTS: a logit per legal move.
//!
//! Every evaluation is generic over the [`Board`](fianchetto_board::Board)
//! backend: it reads only `pieces()` bitboards, the kings, the side to move
//! and the castling rights.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::{Classical, Evaluator, Material, Preset, Score, Term};
//!
//! // White is a knight up; black to move sees it from its side.
//! let board = Bitboards::from_fen("rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")?;
//! assert_eq!(Material::classic().evaluate(&board), Score::cp(-300));
//! assert_eq!(Material::greenblatt().evaluate(&board), Score::cp(-325));
//!
//! let mut classical = Classical::default();
//! assert!(classical.evaluate(&board) < Score::cp(-200));
//!
//! // By name, and taken apart term by term.
//! let preset: Preset = "BuhoChess".parse()?;
//! let breakdown = preset.breakdown(&board);
//! assert_eq!(breakdown.diff(Term::Material), [300, 300]);
//! assert_eq!(breakdown.score, preset.evaluator().evaluate(&board).value());
//!
//! // Struct of weights a tuner can walk by name.
//! let mut params = fianchetto_eval::Params::classical();
//! params.set_by_name("bishop_pair[0]", 40);
//! let _tuned = Classical::with_params(params);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod breakdown;
mod evaluator;
mod hce;
pub mod nnue;
mod params;
pub mod pawns;
pub mod policy;
mod presets;
mod score;
pub mod select;
pub mod trace;
pub mod tunable;
mod weights;

pub use breakdown::{blend, Breakdown, Term, PHASE_MAX};
pub use evaluator::Evaluator;
pub use nnue::Nnue;
pub use params::{Params, ParamsError, Tapered};
pub use pawns::{PawnEntry, PawnTable};
pub use presets::{
    BuhoChess, Classical, Material, MaterialValues, Preset, PresetEvaluator, UnknownPreset,
};
pub use score::Score;
pub use tunable::{Tunable, TunableError, TunableSpec};

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
