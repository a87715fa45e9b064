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
//! | `syzygy` | `syzygy` | `fianchetto-syzygy` |
//! | `search` (default) | `search` | `fianchetto-search` |
//! | `uci` | `uci` | `fianchetto-uci` |
//! | `data` | `data` | `fianchetto-data` |
//! | `train` | `train` | `fianchetto-train` |
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

// Each crate is documented here as a module of the facade (inlined), under
// the name to use: `fianchetto::board`, `fianchetto::movegen`, ...

/// Positions: types, FEN, Zobrist keys, the `Board` trait and its backends.
#[doc(inline)]
pub use fianchetto_board as board;
/// Training data as files: the games format, marlinformat, load-time
/// filters, streaming readers, and the tools that count, convert, merge and
/// deduplicate them.
#[cfg(feature = "data")]
#[doc(inline)]
pub use fianchetto_data as data;
/// The engine: UCI and the command line.
#[cfg(feature = "engine")]
#[doc(inline)]
pub use fianchetto_engine as engine;
/// Evaluation: `Score`, the `Evaluator` trait and the evaluations.
#[cfg(feature = "eval")]
#[doc(inline)]
pub use fianchetto_eval as eval;
/// The local web app: play, analyse and watch the algorithms in a browser.
#[cfg(feature = "gui")]
#[doc(inline)]
pub use fianchetto_gui as gui;
/// Move generation, perft, notation (UCI, SAN), game rules, PGN and EPD.
#[cfg(feature = "movegen")]
#[doc(inline)]
pub use fianchetto_movegen as movegen;
/// Search algorithms.
#[cfg(feature = "search")]
#[doc(inline)]
pub use fianchetto_search as search;
/// Syzygy endgame tablebases: WDL, DTZ and root moves ranked.
#[cfg(feature = "syzygy")]
#[doc(inline)]
pub use fianchetto_syzygy as syzygy;
/// The NNUE trainer: learns a network from training data, on the CPU.
#[cfg(feature = "train")]
#[doc(inline)]
pub use fianchetto_train as train;
/// Learning by playing: self-play data generation, in-process matches,
/// Texel and SPSA tuning, the ProbCut fit.
#[cfg(feature = "tune")]
#[doc(inline)]
pub use fianchetto_tune as tune;
/// The UCI protocol as types, a client that drives any UCI engine, and
/// engine-against-engine matches.
#[cfg(feature = "uci")]
#[doc(inline)]
pub use fianchetto_uci as uci;

// The crates under their own names too. rustc names an item by the path it
// was found under, and for a trait that is not in scope it suggests
// `fianchetto::fianchetto_eval::Evaluator`: these make that suggestion
// compile. Hidden, because `board`, `movegen`, ... are the names to use
// (the modules above stay documented: they are inlined).
#[doc(hidden)]
pub use fianchetto_board;
#[cfg(feature = "data")]
#[doc(hidden)]
pub use fianchetto_data;
#[cfg(feature = "engine")]
#[doc(hidden)]
pub use fianchetto_engine;
#[cfg(feature = "eval")]
#[doc(hidden)]
pub use fianchetto_eval;
#[cfg(feature = "gui")]
#[doc(hidden)]
pub use fianchetto_gui;
#[cfg(feature = "movegen")]
#[doc(hidden)]
pub use fianchetto_movegen;
#[cfg(feature = "search")]
#[doc(hidden)]
pub use fianchetto_search;
#[cfg(feature = "syzygy")]
#[doc(hidden)]
pub use fianchetto_syzygy;
#[cfg(feature = "train")]
#[doc(hidden)]
pub use fianchetto_train;
#[cfg(feature = "tune")]
#[doc(hidden)]
pub use fianchetto_tune;
#[cfg(feature = "uci")]
#[doc(hidden)]
pub use fianchetto_uci;

/// What most programs need, in one import: `use fianchetto::prelude::*;`.
///
/// The board types, the backends and the [`Board`](crate::board::Board)
/// trait always; with the `movegen` feature the
/// [`MoveGen`](crate::movegen::MoveGen) trait, [`Game`](crate::movegen::Game)
/// and the move notations; with `eval` the
/// [`Evaluator`](crate::eval::Evaluator) trait, [`Score`](crate::eval::Score)
/// and the evaluations; with `search` the [`Search`](crate::search::Search)
/// trait, its limits and results, and [`Pvs`](crate::search::pvs::Pvs). The
/// traits are here so that their methods are in scope.
///
#[cfg_attr(feature = "search", doc = "```")]
#[cfg_attr(not(feature = "search"), doc = "```ignore")]
/// use fianchetto::prelude::*;
///
/// let mut game = Game::new(Bitboards::startpos());
/// game.play_san("e4")?;
/// assert_eq!(game.board().piece_at(Square::E4), Some(Piece::new(Color::White, Role::Pawn)));
/// assert_eq!(Material::classic().evaluate(game.board()), Score::cp(0));
/// let result = Pvs::new(Material::classic()).search(&game, &Limits::depth(3), &mut |_| {});
/// assert!(result.best_move.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod prelude {
    pub use crate::board::{
        Bitboard, Bitboards, Board, Board0x88, CastlingRights, Color, File, Mailbox, Move,
        MoveKind, Piece, Rank, Role, Setup, Square,
    };
    #[cfg(feature = "eval")]
    pub use crate::eval::{BuhoChess, Classical, Evaluator, Material, Nnue, Score};
    #[cfg(feature = "movegen")]
    pub use crate::movegen::{Game, MoveGen, Outcome, San, UciMove};
    #[cfg(feature = "search")]
    pub use crate::search::{pvs::Pvs, Limits, Search, SearchResult};
}

/// The README's code, compiled and run as a doctest.
#[cfg(all(doctest, feature = "search"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
