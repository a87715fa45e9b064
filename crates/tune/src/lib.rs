//! # fianchetto-tune
//!
//! What is learned from games: self-play [data generation](datagen), training
//! data kept as whole [games] or as [marlinformat](marlin) records (and the
//! [data] tools that convert, merge, deduplicate and count them), and the
//! NNUE [trainer](train).
//! Kept out of the libraries so that their users do not compile it.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_tune::marlin::{PackedBoard, Wdl};
//!
//! let record = PackedBoard::pack(&Bitboards::startpos(), 30, Wdl::WhiteWin);
//! assert_eq!(record.to_bytes().len(), 32);
//! assert_eq!(record.unpack()?.setup.to_fen(), Bitboards::startpos().fen());
//! # Ok::<(), fianchetto_tune::marlin::DataError>(())
//! ```
//!
//! The classical evaluation's tuners: [Texel tuning](texel) of its weights
//! on game results, [SPSA](spsa) over any named parameters by games played
//! in this process ([`matches`](mod@matches)), and Buro's [ProbCut fit](probcut) for the
//! search; their trajectories are drawn as SVG charts ([`plot`]).
#![warn(missing_docs)]

pub mod data;
pub mod datagen;
pub mod games;
pub mod marlin;
pub mod matches;
pub mod plot;
pub mod positions;
pub mod probcut;
pub mod progress;
pub mod spsa;
pub mod texel;
pub mod train;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
