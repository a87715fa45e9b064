//! Polyglot opening books: the format's Zobrist keys, its move encoding, and
//! a book reader.
//!
//! A Polyglot book (`.bin`) is a list of 16-byte big-endian entries, sorted
//! by key: the position's 64-bit Polyglot key, a move in 16 bits, a weight
//! (how often or how well the move was played) and 32 bits of "learn" data
//! that most tools leave at zero. The key is not our own Zobrist hash
//! ([`fianchetto_board::Board::hash`]) but the one the format defines, from
//! its published table of 781 constants ([`RANDOM64`]):
//!
//! - each piece: `RANDOM64[64 * kind + square]`, where `kind` is
//!   `2 * role + 1` for a white piece and `2 * role` for a black one (black
//!   pawn 0, white pawn 1, black knight 2, … white king 11) and `square` is
//!   `8 * rank + file` (a1 = 0, h8 = 63);
//! - each castling right held: `RANDOM64[768 + i]`, white O-O, white O-O-O,
//!   black O-O, black O-O-O for `i` = 0..4;
//! - the en-passant file, `RANDOM64[772 + file]`, only when a pawn of the
//!   side to move stands beside the pawn that just advanced two squares
//!   (whether the capture would be legal does not matter);
//! - `RANDOM64[780]` when white is to move.
//!
//! Chess960 positions hash each right by its side (the king's-side right as
//! white O-O, and so on), whatever the rook's file: the format knows only
//! standard castling, so a Polyglot book of Chess960 games is unusual, but
//! this is how such positions are keyed elsewhere too.
//!
//! A move is `to_file | to_rank << 3 | from_file << 6 | from_rank << 9 |
//! promotion << 12`, with promotion 1 = knight, 2 = bishop, 3 = rook,
//! 4 = queen; castling is written as the king taking its own rook (`e1h1`,
//! `e8a8`), which [`decode_move`] turns back into our castling [`Move`].
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_movegen::parse_uci;
//! use fianchetto_movegen::polyglot::{self, Book, BookEntry};
//!
//! let start = Bitboards::startpos();
//! // The key the Polyglot specification gives for the start position.
//! assert_eq!(polyglot::hash(&start), 0x463b_9618_1691_fc9c);
//!
//! // A two-move book, written to bytes and read back.
//! let e4 = parse_uci(&start, "e2e4")?;
//! let d4 = parse_uci(&start, "d2d4")?;
//! let book = Book::from_entries(vec![
//!     BookEntry::new(&start, d4, 1),
//!     BookEntry::new(&start, e4, 3),
//! ]);
//! let book = Book::from_bytes(&book.to_bytes())?;
//! assert_eq!(book.best_move(&start).map(|m| m.mv), Some(e4));
//! // Weighted random choice: e4 three times as often as d4.
//! let picks = (0..4u64).filter_map(|i| book.weighted_move(&start, i << 62));
//! let e4_picks = picks.filter(|m| m.mv == e4).count();
//! assert_eq!(e4_picks, 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod book;
mod keys;

pub use book::{Book, BookEntry, BookError, BookMove, ENTRY_SIZE};
pub use keys::RANDOM64;

use crate::MoveGen;
use fianchetto_board::attacks::pawn_attacks;
use fianchetto_board::{Board, CastlingSide, Color, Move, Piece, Role, Square};

/// Index in [`RANDOM64`] of the first castling key (white O-O).
pub const CASTLING_OFFSET: usize = 768;
/// Index in [`RANDOM64`] of the en-passant key of the a-file.
pub const EN_PASSANT_OFFSET: usize = 772;
/// Index in [`RANDOM64`] of the key XORed in when white is to move.
pub const TURN_OFFSET: usize = 780;

/// Polyglot's number for a piece: `2 * role + 1` for white, `2 * role` for
/// black (black pawn 0, white pawn 1, …, black king 10, white king 11).
#[inline]
pub const fn piece_kind(piece: Piece) -> usize {
    2 * piece.role.index()
        + match piece.color {
            Color::White => 1,
            Color::Black => 0,
        }
}

/// The key of `piece` standing on `sq`.
#[inline]
pub const fn piece_key(piece: Piece, sq: Square) -> u64 {
    RANDOM64[64 * piece_kind(piece) + sq.index()]
}

/// The key of one castling right.
#[inline]
pub const fn castling_key(color: Color, side: CastlingSide) -> u64 {
    let side = match side {
        CastlingSide::King => 0,
        CastlingSide::Queen => 1,
    };
    RANDOM64[CASTLING_OFFSET + 2 * color.index() + side]
}

/// Whether Polyglot hashes the en-passant square of `board`: there is one,
/// and a pawn of the side to move attacks it (stands beside the pawn that
/// advanced two squares), legal capture or not.
pub fn hashes_en_passant<B: Board>(board: &B) -> Option<Square> {
    let ep = board.ep_square()?;
    let us = board.turn();
    (pawn_attacks(!us, ep) & board.pieces(us, Role::Pawn))
        .any()
        .then_some(ep)
}

/// The Polyglot key of a position: what a book is searched by.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::polyglot;
/// // After 1.e4: e3 is not hashed, no black pawn can take on it.
/// let b = Bitboards::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
/// assert_eq!(polyglot::hash(&b), 0x823c_9b50_fd11_4196);
/// # Ok::<(), fianchetto_board::FenError>(())
/// ```
pub fn hash<B: Board>(board: &B) -> u64 {
    let mut key = 0;
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = Piece::new(color, role);
            for sq in board.pieces(color, role) {
                key ^= piece_key(piece, sq);
            }
        }
    }
    let rights = board.castling();
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if rights.has(color, side) {
                key ^= castling_key(color, side);
            }
        }
    }
    if let Some(ep) = hashes_en_passant(board) {
        key ^= RANDOM64[EN_PASSANT_OFFSET + ep.file().index()];
    }
    if board.turn() == Color::White {
        key ^= RANDOM64[TURN_OFFSET];
    }
    key
}

/// The Polyglot promotion code of a role: knight 1, bishop 2, rook 3,
/// queen 4; 0 for no promotion.
const fn promotion_code(role: Option<Role>) -> u16 {
    match role {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    }
}

/// Writes `mv`, a move of `board`, in Polyglot's 16 bits. Castling is
/// written as the king taking its rook (`e1h1`), the rook's square taken
/// from `board`'s castling rights.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::{parse_uci, polyglot};
/// let b = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
/// let castle = parse_uci(&b, "e1g1")?;
/// let raw = polyglot::encode_move(&b, castle);
/// assert_eq!(raw, 4 << 6 | 7); // e1 to h1
/// assert_eq!(polyglot::decode_move(&b, raw), Some(castle));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode_move<B: Board>(board: &B, mv: Move) -> u16 {
    let to = mv
        .castling_side()
        .and_then(|side| board.castling().rook_square(board.turn(), side))
        .unwrap_or(mv.to());
    to.index() as u16 | (mv.from().index() as u16) << 6 | promotion_code(mv.promotion()) << 12
}

/// Reads a Polyglot move in `board`: the legal move it stands for, or
/// `None` if there is none (a book entry that does not fit the position,
/// an unknown promotion code).
///
/// The king taking its own castling rook (`e1h1`) is castling; so is the
/// king's two-square move (`e1g1`) where castling is legal, as some tools
/// write it. Bit 15, unused by the format, is ignored.
pub fn decode_move<B: MoveGen>(board: &B, raw: u16) -> Option<Move> {
    let to = Square::new((raw & 63) as u8)?;
    let from = Square::new((raw >> 6 & 63) as u8)?;
    let promotion = match raw >> 12 & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    let legal = board.legal_moves();
    let mut candidates = legal
        .iter()
        .copied()
        .filter(|m| m.from() == from && m.promotion() == promotion);
    let rights = board.castling();
    let us = board.turn();
    let takes_rook = |m: &Move| {
        m.castling_side()
            .is_some_and(|side| rights.rook_square(us, side) == Some(to))
    };
    // An ordinary move first; then castling written as king takes rook;
    // then castling written as the king's move.
    candidates
        .clone()
        .find(|m| !m.is_castle() && m.to() == to)
        .or_else(|| candidates.clone().find(takes_rook))
        .or_else(|| candidates.find(|m| m.is_castle() && m.to() == to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_uci;
    use fianchetto_board::{Bitboards, CastlingMode};

    #[test]
    fn piece_kinds_follow_the_format() {
        assert_eq!(piece_kind(Piece::new(Color::Black, Role::Pawn)), 0);
        assert_eq!(piece_kind(Piece::new(Color::White, Role::Pawn)), 1);
        assert_eq!(piece_kind(Piece::new(Color::Black, Role::King)), 10);
        assert_eq!(piece_kind(Piece::new(Color::White, Role::King)), 11);
    }

    #[test]
    fn every_legal_move_round_trips() {
        for fen in [
            fianchetto_board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "r1n1k3/PPP5/8/8/8/8/5ppp/3K1NNR w - - 0 1",
            "r1n1k3/PPP5/8/8/8/8/5ppp/3K1NNR b - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let b = Bitboards::from_fen(fen).unwrap();
            for mv in b.legal_moves() {
                assert_eq!(decode_move(&b, encode_move(&b, mv)), Some(mv), "{fen} {mv}");
            }
        }
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        // King on b1, rook on a1 (O-O-O) and g1 (O-O).
        let fen = "rk4r1/8/8/8/8/8/8/RK4R1 w AGag - 0 1";
        let b = Bitboards::from_fen_with(fen, CastlingMode::Chess960).unwrap();
        let long = parse_uci(&b, "b1a1").unwrap();
        assert!(long.is_castle());
        let raw = encode_move(&b, long);
        assert_eq!(
            raw,
            (Square::B1.index() as u16) << 6 | Square::A1.index() as u16
        );
        assert_eq!(decode_move(&b, raw), Some(long));
        // b1c1 is an ordinary king move here, not castling.
        let raw = (Square::B1.index() as u16) << 6 | Square::C1.index() as u16;
        assert_eq!(decode_move(&b, raw).map(|m| m.is_castle()), Some(false));
    }

    #[test]
    fn undecodable_moves() {
        let b = Bitboards::startpos();
        // e2e5, a pawn promoting on e3, and promotion codes 5..7.
        let e2 = (Square::E2.index() as u16) << 6;
        assert_eq!(decode_move(&b, e2 | Square::E5.index() as u16), None);
        assert_eq!(
            decode_move(&b, e2 | 4 << 12 | Square::E3.index() as u16),
            None
        );
        for code in 5..8u16 {
            assert_eq!(
                decode_move(&b, e2 | code << 12 | Square::E4.index() as u16),
                None
            );
        }
        // Bit 15 is ignored.
        let e4 = e2 | Square::E4.index() as u16;
        assert_eq!(decode_move(&b, e4 | 1 << 15), decode_move(&b, e4));
    }
}
