//! # fianchetto-tune
//!
//! What is learned by playing: self-play [data generation](datagen) through
//! in-process [`matches`](mod@matches) of searchers, written as whole games
//! (or marlinformat records) of `fianchetto-data`, and the classical
//! evaluation's tuners: [Texel tuning](texel) of its weights on game
//! results, [SPSA](spsa) over any named parameters by games played in this
//! process, and Buro's [ProbCut fit](probcut) for the search; their
//! trajectories are drawn as SVG charts ([`plot`]), their progress shown by
//! a [`progress`] bar. Kept out of the libraries so that their users do not
//! compile it. The NNUE trainer is `fianchetto-train`.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::Params;
//! use fianchetto_tune::texel::{self, Sample, TexelConfig};
//!
//! // Two positions that white won: the tuner moves the weights towards it.
//! let params = Params::classical();
//! let samples: Vec<Sample> = ["4k3/8/8/8/8/8/PPP5/R3K3 w - - 0 1", "4k3/8/8/8/8/8/PP6/R3K3 b - - 0 1"]
//!     .iter()
//!     .map(|fen| Ok(Sample::new(&params, &Bitboards::from_fen(fen)?, 1.0)))
//!     .collect::<Result<_, fianchetto_board::FenError>>()?;
//! let config = TexelConfig { epochs: 20, k: Some(0.004), ..TexelConfig::default() };
//! let tuned = texel::train(&samples, &params, &config, |_| {});
//! assert!(tuned.final_error < tuned.initial_error);
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```
#![warn(missing_docs)]

pub mod datagen;
pub mod matches;
pub mod plot;
pub mod probcut;
pub mod progress;
pub mod spsa;
pub mod texel;

/// The games format: moved to `fianchetto-data` as
/// [`fianchetto_data::games`] (this path stays as a re-export).
pub use fianchetto_data::games;
/// Marlinformat records: moved to `fianchetto-data` as
/// [`fianchetto_data::marlin`] (this path stays as a re-export).
pub use fianchetto_data::marlin;
/// Positions from data or FEN/EPD files: moved to `fianchetto-data` as
/// [`fianchetto_data::positions`] (this path stays as a re-export).
pub use fianchetto_data::positions;
/// The tools that count, convert, merge and deduplicate training data:
/// moved to `fianchetto-data` as [`fianchetto_data::tools`] (this path
/// stays as a re-export).
pub use fianchetto_data::tools as data;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
