//! # fianchetto-engine
//!
//! The thin composition of the Fianchetto crates into a program: the UCI
//! protocol and the `fianchetto` command line (perft, analysis, play and the
//! tools), and the local web app `fianchetto gui` (the `gui` feature, on by
//! default). It holds no chess logic of its own.
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
#[cfg(feature = "gui")]
pub mod gui;
pub mod play;
pub mod searchers;
pub mod uci;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
