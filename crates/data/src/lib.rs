//! # fianchetto-data
//!
//! Chess training data as files: whole self-play [games] in a compact
//! format (about 4.4 bytes a position, checked move by move when read),
//! [marlinformat](marlin) records (32 bytes a position, read and written by
//! the community's tools), the [filters](games::Filter) that pick training
//! positions when the data is read, streaming readers whose errors name the
//! file, the game and the byte, the [tools] that count, convert, merge and
//! deduplicate files of either format, positions with the root visit
//! distributions of a Monte Carlo tree search ([visits]), and [positions]
//! read from data or
//! FEN/EPD files for the tuners. A stored [score] is an `i16` in
//! centipawns from white's point of view.
//!
//! It depends on `fianchetto-board` and `fianchetto-movegen` only: the
//! trainer (`fianchetto-train`) and the tuners (`fianchetto-tune`) read
//! what it reads, and the engine's `fianchetto data` command drives the
//! tools.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_data::games::{Entry, Filter, GameRecord, Skip};
//! use fianchetto_data::marlin::{PackedBoard, Wdl};
//! use fianchetto_movegen::uci::parse_uci;
//!
//! // A game of two moves, the second scored as a mate.
//! let mut board = Bitboards::startpos();
//! let mut game = GameRecord::new(&board, false);
//! for (uci, score) in [("e2e4", 30), ("e7e5", 31_990)] {
//!     let mv = parse_uci(&board, uci)?;
//!     game.entries.push(Entry { mv, score });
//!     board.play_unchecked(mv);
//! }
//! game.result = Wdl::WhiteWin;
//! let mut bytes = Vec::new();
//! game.write_to(&mut bytes)?;
//! assert_eq!(GameRecord::from_bytes(&bytes)?, game);
//!
//! // The default filter skips the mate score; each kept position becomes a
//! // 32-byte marlinformat record.
//! let mut kept = Vec::new();
//! game.replay(|index, board, entry| {
//!     match Filter::default().skip(index, board, entry) {
//!         None => kept.push(PackedBoard::pack(board, entry.score, game.result)),
//!         Some(reason) => assert_eq!(reason, Skip::Mate),
//!     }
//! })?;
//! assert_eq!(kept.len(), 1);
//! assert_eq!(kept[0].to_bytes().len(), 32);
//! assert_eq!(kept[0].unpack()?.setup.to_fen(), Bitboards::startpos().fen());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod games;
pub mod marlin;
pub mod positions;
pub mod score;
#[doc(hidden)]
pub mod testing;
pub mod tools;
pub mod visits;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
