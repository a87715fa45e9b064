//! `CastlingRights`: which of the four castlings are still allowed.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};
use std::fmt;

/// Which side of the board a castling goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (O-O).
    King,
    /// Towards the a-file (O-O-O).
    Queen,
}

impl CastlingSide {
    /// Both sides, king's first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::King, CastlingSide::Queen];

    /// Where the king starts.
    pub const fn king_from(self, color: Color) -> Square {
        Square::E1.relative(color)
    }

    /// Where the king ends.
    pub const fn king_to(self, color: Color) -> Square {
        match self {
            CastlingSide::King => Square::G1.relative(color),
            CastlingSide::Queen => Square::C1.relative(color),
        }
    }

    /// Where the rook starts.
    pub const fn rook_from(self, color: Color) -> Square {
        match self {
            CastlingSide::King => Square::H1.relative(color),
            CastlingSide::Queen => Square::A1.relative(color),
        }
    }

    /// Where the rook ends.
    pub const fn rook_to(self, color: Color) -> Square {
        match self {
            CastlingSide::King => Square::F1.relative(color),
            CastlingSide::Queen => Square::D1.relative(color),
        }
    }

    /// Squares that must be empty (between king and rook).
    pub const fn empty_squares(self, color: Color) -> Bitboard {
        let b = match self {
            CastlingSide::King => 0x60u64,
            CastlingSide::Queen => 0x0e,
        };
        match color {
            Color::White => Bitboard(b),
            Color::Black => Bitboard(b << 56),
        }
    }

    /// Squares the king passes over or lands on, which must not be attacked
    /// (the start square is covered by "not in check").
    pub const fn king_path(self, color: Color) -> Bitboard {
        let b = match self {
            CastlingSide::King => 0x60u64,
            CastlingSide::Queen => 0x0c,
        };
        match color {
            Color::White => Bitboard(b),
            Color::Black => Bitboard(b << 56),
        }
    }
}

/// The four castling rights as bits: white O-O = 1, white O-O-O = 2,
/// black O-O = 4, black O-O-O = 8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No castling at all.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights (the start position's `KQkq`).
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The bit for one right.
    #[inline]
    pub const fn bit(color: Color, side: CastlingSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }

    /// Rights from their four bits (higher bits are dropped).
    #[inline]
    pub const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(bits & 15)
    }

    /// The four bits.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `color` may still castle on `side`.
    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// Whether `color` has any right left.
    #[inline]
    pub const fn has_any(self, color: Color) -> bool {
        self.0 & (3 << (color as u8 * 2)) != 0
    }

    /// These rights with one added.
    #[inline]
    pub const fn with(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 | Self::bit(color, side))
    }

    /// These rights with one removed.
    #[inline]
    pub const fn without(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 & !Self::bit(color, side))
    }

    /// These rights with every right of `color` removed.
    #[inline]
    pub const fn without_color(self, color: Color) -> CastlingRights {
        CastlingRights(self.0 & !(3 << (color as u8 * 2)))
    }

    /// The rights that survive a move touching `sq` (from or to): moving the
    /// king or a rook, or capturing a rook on its corner, removes rights.
    #[inline(always)]
    pub const fn after_touching(self, sq: Square) -> CastlingRights {
        CastlingRights(self.0 & KEEP_MASK[sq.index()])
    }

    /// The same rights with the colours swapped.
    pub const fn swap_colors(self) -> CastlingRights {
        CastlingRights((self.0 & 3) << 2 | self.0 >> 2)
    }
}

const KEEP_MASK: [u8; 64] = {
    let mut m = [15u8; 64];
    m[0] = 15 & !2; // a1
    m[4] = 15 & !3; // e1
    m[7] = 15 & !1; // h1
    m[56] = 15 & !8; // a8
    m[60] = 15 & !12; // e8
    m[63] = 15 & !4; // h8
    m
};

impl fmt::Display for CastlingRights {
    /// The FEN field: `KQkq`, a subset of it, or `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.0 & bit != 0 {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CastlingRights({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights() {
        let r = CastlingRights::ALL.after_touching(Square::H1);
        assert!(!r.has(Color::White, CastlingSide::King));
        assert!(r.has(Color::White, CastlingSide::Queen));
        assert_eq!(r.to_string(), "Qkq");
        assert_eq!(CastlingRights::ALL.after_touching(Square::E8).to_string(), "KQ");
        assert_eq!(CastlingRights::NONE.to_string(), "-");
        assert_eq!(CastlingRights::from_bits(1).swap_colors().to_string(), "k");
        assert_eq!(CastlingSide::Queen.king_to(Color::Black), Square::C8);
    }
}
