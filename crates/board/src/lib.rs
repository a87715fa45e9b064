//! # fianchetto-board
//!
//! What a chess position is: core types ([`Color`], [`Role`], [`Piece`],
//! [`Square`], [`Bitboard`], [`Move`], [`CastlingRights`]), [`Setup`] with FEN
//! in and out, validation with a precise [`PositionError`] for each impossible
//! position, Zobrist keys, the bit tricks the thesis compares, and the
//! [`Board`] trait with its backends.
//!
//! Chess960 and Double Fischer Random work on every backend: castling rights
//! remember their king and rook files ([`CastlingRights`]), FEN is read in a
//! [`CastlingMode`] (X-FEN and Shredder-FEN in Chess960 mode) and written as
//! X-FEN, and [`Setup::chess960`] numbers the 960 start positions.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board, Color, Square, Role, Piece};
//!
//! let board = Bitboards::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
//! assert_eq!(board.turn(), Color::Black);
//! assert_eq!(board.piece_at(Square::E4), Some(Piece::new(Color::White, Role::Pawn)));
//! // No black pawn can take on e3, so the square is dropped (as Polyglot does).
//! assert_eq!(board.ep_square(), None);
//!
//! // Malformed or impossible FENs get an error that names the problem.
//! let err = Bitboards::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
//! assert_eq!(err.to_string(), "impossible position: white has no king");
//!
//! // Chess960 position 0, with Shredder-FEN castling rights.
//! let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
//! let b960 = Bitboards::from_fen_with(fen, fianchetto_board::CastlingMode::Chess960)?;
//! assert_eq!(b960.to_setup(), fianchetto_board::Setup::chess960(0).unwrap());
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```
//!
//! [`svg::BoardSvg`] draws a position as an SVG picture (from either side,
//! with coordinates, the last move, check, marked squares and arrows).
//!
//! FEN is read strictly by default; [`FenOptions::LENIENT`] (or
//! [`Board::from_fen_lenient`]) repairs the slips other programs make
//! (fullmove 0, stale castling rights, an impossible en-passant square,
//! missing fields). With the cargo feature `serde`, the value types and the
//! positions implement serde's `Serialize` and `Deserialize` (positions as
//! FEN text): see the `serde_support` module.
//!
//! Without the default `std` feature the crate is `no_std` (it needs
//! `alloc`): it builds for targets without an operating system and for
//! `wasm32-unknown-unknown`. What needs the standard library is detecting
//! the CPU's instructions at run time (without it, the instructions the
//! build targets are used) and [`cpu::apply_env_overrides`].
#![cfg_attr(not(any(feature = "std", test)), no_std)]
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

extern crate alloc;

pub mod array;
pub mod attacks;
mod bitboard;
mod bitboards;
pub mod bittricks;
mod board;
mod castling;
pub mod code;
pub mod cpu;
mod diagram;
pub mod mailbox;
mod mv;
#[cfg(feature = "serde")]
pub mod serde_support;
mod setup;
pub mod svg;
mod types;
mod validate;
pub mod x88;
pub mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use bitboards::Bitboards;
pub use board::Board;
pub use castling::{CastlingMode, CastlingPath, CastlingRights, CastlingSide};
pub use diagram::{diagram, write_diagram};
pub use mailbox::Mailbox;
pub use mv::{Move, MoveKind};
pub use setup::{chess960_back_rank, chess960_number, FenError, FenOptions, Setup, START_FEN};
pub use types::{Color, File, ParseSquareError, Piece, Rank, Role, Square};
pub use validate::{validate, PositionError, MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK};
pub use x88::Board0x88;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
