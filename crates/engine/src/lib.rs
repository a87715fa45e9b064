//! # fianchetto-engine
//!
//! The thin composition of the Fianchetto crates into a program: the UCI
//! protocol and the `fianchetto` command line (perft, analysis, play and the
//! tools), and the local web app `fianchetto gui` (the `gui` feature, on by
//! default: the fianchetto-gui crate, re-exported as `gui`). It holds no chess
//! logic of its own.
//!
//! ```
//! use fianchetto_engine::backend::Backend;
//! assert_eq!("bitboard".parse::<Backend>(), Ok(Backend::Bitboard));
//! assert!("abacus".parse::<Backend>().is_err());
//! ```
#![warn(missing_docs)]

pub mod backend;
pub mod commands;
pub mod evals;
pub mod play;
pub mod searchers;
pub mod uci;

/// The local web app (`fianchetto gui`), a crate of its own.
#[cfg(feature = "gui")]
pub use fianchetto_gui as gui;

/// Runs generic code on an evaluator chosen by name (see
/// [`fianchetto_eval::select`]).
pub use fianchetto_eval::with_evaluator;
/// Runs generic code on a board backend chosen by name (see
/// [`fianchetto_movegen::backend`]).
pub use fianchetto_movegen::with_backend;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
