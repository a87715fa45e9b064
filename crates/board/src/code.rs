//! One-byte piece codes for the array backends ([`crate::Board0x88`] and
//! [`crate::Mailbox`]).
//!
//! A code is a colour bit ([`WHITE`] or [`BLACK`]) OR-ed with a role number
//! (1 = pawn … 6 = king); [`EMPTY`] is 0. The mailbox's border squares hold
//! [`OFF`], which has *both* colour bits set: the one test
//! `code & color_bit(us) != 0` then stops a move at an own piece and at the
//! edge of the board alike.

use crate::types::{Color, Piece, Role};

/// An empty square.
pub const EMPTY: u8 = 0;
/// Colour bit of white pieces.
pub const WHITE: u8 = 0x10;
/// Colour bit of black pieces.
pub const BLACK: u8 = 0x20;
/// A mailbox border square: both colour bits, so it blocks either side.
pub const OFF: u8 = WHITE | BLACK;
/// The bits of a code that hold the role number.
pub const ROLE_MASK: u8 = 7;

/// Role number of pawns.
pub const PAWN: u8 = 1;
/// Role number of knights.
pub const KNIGHT: u8 = 2;
/// Role number of bishops.
pub const BISHOP: u8 = 3;
/// Role number of rooks.
pub const ROOK: u8 = 4;
/// Role number of queens.
pub const QUEEN: u8 = 5;
/// Role number of kings.
pub const KING: u8 = 6;

/// The colour bit of `color`.
#[inline(always)]
pub const fn color_bit(color: Color) -> u8 {
    match color {
        Color::White => WHITE,
        Color::Black => BLACK,
    }
}

/// The code of `piece`.
#[inline(always)]
pub const fn encode(piece: Piece) -> u8 {
    color_bit(piece.color) | (piece.role as u8 + 1)
}

/// The code of `color`'s pieces of `role`.
#[inline(always)]
pub const fn of(color: Color, role: Role) -> u8 {
    encode(Piece::new(color, role))
}

/// The piece a code stands for; `None` for [`EMPTY`], [`OFF`] and any byte
/// that is not a code.
#[inline(always)]
pub const fn decode(code: u8) -> Option<Piece> {
    DECODE[(code & 63) as usize]
}

const DECODE: [Option<Piece>; 64] = {
    let mut t = [None; 64];
    let mut i = 0;
    while i < 12 {
        if let Some(p) = Piece::from_index(i) {
            t[encode(p) as usize] = Some(p);
        }
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for i in 0..12 {
            let p = Piece::from_index(i).unwrap();
            assert_eq!(decode(encode(p)), Some(p));
            assert_ne!(encode(p) & color_bit(p.color), 0);
            assert_eq!(encode(p) & color_bit(!p.color), 0);
        }
        assert_eq!(decode(EMPTY), None);
        assert_eq!(decode(OFF), None);
    }
}
