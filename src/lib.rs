//! # Fianchetto
//!
//! Chess libraries in Rust: board representations behind one trait, legal
//! move generation with perft, evaluation, and search, plus the UCI engine
//! composed from them. This facade re-exports every crate.
//!
//! ```
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
//! println!("{}", to_san(game.board(), best));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

/// Positions: types, FEN, Zobrist keys, the `Board` trait and its backends.
pub use fianchetto_board as board;
/// The engine: UCI and the command line.
pub use fianchetto_engine as engine;
/// Evaluation: `Score`, the `Evaluator` trait and the evaluations.
pub use fianchetto_eval as eval;
/// Move generation, perft, notation (UCI, SAN), game rules, PGN and EPD.
pub use fianchetto_movegen as movegen;
/// Search algorithms.
pub use fianchetto_search as search;
