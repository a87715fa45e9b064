//! # fianchetto-uci
//!
//! The UCI protocol (Universal Chess Interface, Stefan Meyer-Kahlen's
//! specification of 2000–2006) as data, for both of its sides:
//!
//! - What a GUI sends: [`Command`] (with [`Go`]'s limits and [`Position`]).
//! - What an engine answers: [`Reply`] (with [`Info`], [`BestMove`] and the
//!   [`UciOption`] declarations, whose [`UciOption::check_value`] validates
//!   a value before it is set).
//!
//! Every type reads a line with `FromStr` and writes one with `Display`, and
//! `parse(write(x)) == x`. The Fianchetto engine's own UCI server reads its
//! commands and writes its replies with these types.
//!
//! The [`client`] starts any UCI engine as a process and drives it as
//! python-chess's `chess.engine` does: handshake, typed options checked
//! before they are sent, positions and searches under every limit, `info`
//! read into typed records whose moves are checked against the position,
//! `bestmove` checked for legality, `stop`, `ponderhit`, and time-outs with
//! clear errors when an engine crashes, hangs or answers illegally. The
//! [`matches`](mod@matches) module plays engine-against-engine matches through it
//! (openings both ways, clocks or node budgets, adjudication, PGN with
//! clock and score comments, Elo and a pentanomial SPRT).
//!
//! ```
//! use fianchetto_uci::{Command, Go, Reply, Score};
//!
//! // A GUI's side: write a command.
//! let go = Command::Go(Go { depth: Some(12), ..Go::default() });
//! assert_eq!(go.to_string(), "go depth 12");
//!
//! // An engine's side: read it back.
//! assert_eq!("go depth 12".parse::<Command>()?, go);
//!
//! // And the GUI reads the engine's report.
//! let Reply::Info(info) = "info depth 12 score cp 31 pv e2e4 e7e5".parse()? else {
//!     unreachable!()
//! };
//! assert_eq!(info.score.map(|s| s.score), Some(Score::Cp(31)));
//! # Ok::<(), fianchetto_uci::ParseError>(())
//! ```
#![warn(missing_docs)]

pub mod client;
pub mod command;
mod error;
pub mod info;
pub mod matches;
pub mod option;
pub mod reply;
mod words;

pub use client::{ClientError, Engine, EngineConfig, Played, Search};
pub use command::{Command, Go, Position, Registration};
pub use error::ParseError;
/// The move notation of the protocol (from `fianchetto-movegen`).
pub use fianchetto_movegen::UciMove;
pub use info::{Bound, BoundedScore, CurrLine, IllegalInfoMove, Info, Score, Wdl};
pub use option::{OptionError, OptionKind, OptionValue, UciOption, OPTION_KEYWORDS};
pub use reply::{BestMove, Id, Reply, Status};

/// The README's code, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
