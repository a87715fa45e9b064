//! # Fianchetto
//!
//! Chess libraries in Rust: board representations behind one trait, legal
//! move generation with perft, evaluation, and search, plus the UCI engine
//! composed from them. This facade re-exports every crate, each behind a
//! cargo feature that brings the layers below it:
//!
//! | feature | module | crate |
//! |---|---|---|
//! | (always) | [`board`] | `fianchetto-board` |
//! | `movegen` | `movegen` | `fianchetto-movegen` |
//! | `eval` | `eval` | `fianchetto-eval` |
//! | `search` (default) | `search` | `fianchetto-search` |
//! | `tune` | `tune` | `fianchetto-tune` |
//! | `engine` | `engine` | `fianchetto-engine` (and clap) |
//!
//! `default-features = false, features = ["movegen"]` compiles move
//! generation alone; the engine and its command-line parser come only with
//! `engine`.
//!
#![cfg_attr(feature = "search", doc = "```")]
#![cfg_attr(not(feature = "search"), doc = "```ignore")]
//! use fianchetto::board::{Bitboards, Board};
//! use fianchetto::eval::Classical;
//! use fianchetto::movegen::{perft, to_san, Game, MoveGen};
//! use fianchetto::search::{pvs::Pvs, Limits, Search};
//!
//! let mut game = Game::new(Bitboards::startpos());
//! game.play_san("e4")?;
//! assert_eq!(perft(game.board(), 3), 13_160);
//! let result = Pvs::new(Classical::default()).search(&game, &Limits::depth(8), &mut |_| {});
//! let best = result.best_move.expect("a legal move");
//! assert!(game.board().is_legal(best));
//! println!("{}", to_san(game.board(), best)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

/// Positions: types, FEN, Zobrist keys, the `Board` trait and its backends.
pub use fianchetto_board as board;
/// The engine: UCI and the command line.
#[cfg(feature = "engine")]
pub use fianchetto_engine as engine;
/// Evaluation: `Score`, the `Evaluator` trait and the evaluations.
#[cfg(feature = "eval")]
pub use fianchetto_eval as eval;
/// Move generation, perft, notation (UCI, SAN), game rules, PGN and EPD.
#[cfg(feature = "movegen")]
pub use fianchetto_movegen as movegen;
/// Search algorithms.
#[cfg(feature = "search")]
pub use fianchetto_search as search;
/// Learning from games: self-play, training data, the NNUE trainer, tuners.
#[cfg(feature = "tune")]
pub use fianchetto_tune as tune;

/// The README's code, compiled and run as a doctest.
#[cfg(all(doctest, feature = "search"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
