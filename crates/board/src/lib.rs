//! # fianchetto-board
//!
//! What a chess position is: core types ([`Color`], [`Role`], [`Piece`],
//! [`Square`], [`Bitboard`], [`Move`], [`CastlingRights`]), [`Setup`] with FEN
//! in and out, validation with a precise [`PositionError`] for each impossible
//! position, Zobrist keys, the bit tricks the thesis compares, and the
//! [`Board`] trait with its backends.
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
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```
#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod array;
pub mod attacks;
mod bitboard;
mod bitboards;
pub mod bittricks;
mod board;
mod castling;
pub mod code;
pub mod mailbox;
mod mv;
mod setup;
mod types;
mod validate;
pub mod x88;
pub mod zobrist;

pub use bitboard::{Bitboard, BitboardIter};
pub use bitboards::Bitboards;
pub use board::Board;
pub use castling::{CastlingMode, CastlingPath, CastlingRights, CastlingSide};
pub use mailbox::Mailbox;
pub use mv::{Move, MoveKind};
pub use setup::{chess960_back_rank, chess960_number, diagram, FenError, Setup, START_FEN};
pub use types::{Color, File, ParseSquareError, Piece, Rank, Role, Square};
pub use validate::{validate, PositionError, MAX_FULLMOVE_NUMBER, MAX_HALFMOVE_CLOCK};
pub use x88::Board0x88;
