//! `Move`: a move in 16 bits (from, to, and a 4-bit kind).

use crate::castling::CastlingSide;
use crate::types::{Role, Square};
use core::fmt;

/// What a move does besides going from one square to another. The numbering
/// is the classic 4-bit scheme: bit 2 marks captures, bit 3 promotions.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A move to an empty square.
    Quiet = 0,
    /// A pawn's two-square advance.
    DoublePush = 1,
    /// Castling on the king's side (O-O).
    KingCastle = 2,
    /// Castling on the queen's side (O-O-O).
    QueenCastle = 3,
    /// A capture on the destination square.
    Capture = 4,
    /// A pawn capturing en passant.
    EnPassant = 5,
    /// Promotion to a knight.
    PromoteKnight = 8,
    /// Promotion to a bishop.
    PromoteBishop = 9,
    /// Promotion to a rook.
    PromoteRook = 10,
    /// Promotion to a queen.
    PromoteQueen = 11,
    /// Capture and promotion to a knight.
    CapturePromoteKnight = 12,
    /// Capture and promotion to a bishop.
    CapturePromoteBishop = 13,
    /// Capture and promotion to a rook.
    CapturePromoteRook = 14,
    /// Capture and promotion to a queen.
    CapturePromoteQueen = 15,
}

impl MoveKind {
    const BY_CODE: [Option<MoveKind>; 16] = [
        Some(MoveKind::Quiet),
        Some(MoveKind::DoublePush),
        Some(MoveKind::KingCastle),
        Some(MoveKind::QueenCastle),
        Some(MoveKind::Capture),
        Some(MoveKind::EnPassant),
        None,
        None,
        Some(MoveKind::PromoteKnight),
        Some(MoveKind::PromoteBishop),
        Some(MoveKind::PromoteRook),
        Some(MoveKind::PromoteQueen),
        Some(MoveKind::CapturePromoteKnight),
        Some(MoveKind::CapturePromoteBishop),
        Some(MoveKind::CapturePromoteRook),
        Some(MoveKind::CapturePromoteQueen),
    ];

    /// The castling kind for `side`.
    #[inline]
    pub const fn castle(side: CastlingSide) -> MoveKind {
        match side {
            CastlingSide::King => MoveKind::KingCastle,
            CastlingSide::Queen => MoveKind::QueenCastle,
        }
    }

    /// The promotion kind for `role` (knight..queen), capturing or not.
    #[inline]
    pub const fn promotion(role: Role, capture: bool) -> Option<MoveKind> {
        let base = match role {
            Role::Knight => 8,
            Role::Bishop => 9,
            Role::Rook => 10,
            Role::Queen => 11,
            _ => return None,
        };
        Self::BY_CODE[base + if capture { 4 } else { 0 }]
    }
}

/// A move: from-square, to-square and [`MoveKind`] packed in 16 bits.
///
/// Castling is the king's move: `from` is the king's square and `to` its
/// destination on the g- or c-file (e1g1, e1c1, e8g8, e8c8), with the kind
/// ([`MoveKind::KingCastle`] or [`MoveKind::QueenCastle`]) saying that the
/// rook moves too. The same holds in Chess960, where the king may start on
/// any file between its rooks: the rook's square is then found in the
/// position's [`crate::CastlingRights`], which remember the rook file of
/// every right. So in Chess960 `to` may equal `from` (king already on g1),
/// or be the castling rook's square (king f1, rook g1), and a king move and
/// a castling may share `from` and `to` (king b1 to c1), told apart by the
/// kind. This keeps standard chess exactly as it was (same bits, same
/// `e1g1` text, same destination for every table a search keeps); the
/// king-takes-rook notation that Chess960 GUIs use (`e1h1`) is written and
/// read by the movegen crate's `uci` module, which has the position.
///
/// A `Move` says nothing about which piece moves: it only means something
/// together with the position it was generated in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// The null move (`0000` in UCI): a1 to a1, used for "no move".
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to` of the given kind.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | (kind as u16) << 12)
    }

    /// The raw 16 bits.
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// A move from raw bits, if the kind field is one of the 14 defined kinds.
    pub const fn from_bits(bits: u16) -> Option<Move> {
        match MoveKind::BY_CODE[(bits >> 12) as usize] {
            Some(_) => Some(Move(bits)),
            None => None,
        }
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_wrapping((self.0 & 63) as usize)
    }

    /// Destination square (for castling: where the king goes, on the g- or
    /// c-file, also in Chess960).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_wrapping(((self.0 >> 6) & 63) as usize)
    }

    /// The kind.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match MoveKind::BY_CODE[(self.0 >> 12) as usize] {
            Some(k) => k,
            // Unreachable: `new` and `from_bits` only make defined kinds.
            None => MoveKind::Quiet,
        }
    }

    /// Whether the move captures (en passant included).
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & (4 << 12) != 0
    }

    /// Whether the move promotes.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (8 << 12) != 0
    }

    /// Whether the move castles.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        let k = self.0 >> 12;
        k == 2 || k == 3
    }

    /// The side of a castling move; `None` for every other move.
    #[inline(always)]
    pub const fn castling_side(self) -> Option<CastlingSide> {
        match self.0 >> 12 {
            2 => Some(CastlingSide::King),
            3 => Some(CastlingSide::Queen),
            _ => None,
        }
    }

    /// Whether the move captures en passant.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == 5
    }

    /// Whether the move is "quiet" for search purposes: no capture, no promotion.
    #[inline(always)]
    pub const fn is_quiet(self) -> bool {
        self.0 & (12 << 12) == 0
    }

    /// The piece promoted to, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        if !self.is_promotion() {
            return None;
        }
        match (self.0 >> 12) & 3 {
            0 => Some(Role::Knight),
            1 => Some(Role::Bishop),
            2 => Some(Role::Rook),
            _ => Some(Role::Queen),
        }
    }

    /// Whether this is [`Move::NULL`].
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Move {
    /// UCI long algebraic notation: `e2e4`, `e7e8q`, `e1g1`, `0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}({:?})", self.kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing() {
        let m = Move::new(Square::E7, Square::F8, MoveKind::CapturePromoteQueen);
        assert_eq!(m.from(), Square::E7);
        assert_eq!(m.to(), Square::F8);
        assert_eq!(m.kind(), MoveKind::CapturePromoteQueen);
        assert!(m.is_capture() && m.is_promotion() && !m.is_quiet());
        assert_eq!(m.promotion(), Some(Role::Queen));
        assert_eq!(m.to_string(), "e7f8q");
        assert_eq!(Move::from_bits(m.bits()), Some(m));
        assert_eq!(Move::from_bits(6 << 12), None);
        assert_eq!(Move::NULL.to_string(), "0000");
        let c = Move::new(Square::E1, Square::G1, MoveKind::KingCastle);
        assert!(c.is_castle() && c.is_quiet());
        assert_eq!(c.castling_side(), Some(CastlingSide::King));
        assert_eq!(m.castling_side(), None);
        assert_eq!(MoveKind::castle(CastlingSide::Queen), MoveKind::QueenCastle);
        // Chess960: the king may already stand on its destination.
        let stay = Move::new(Square::G1, Square::G1, MoveKind::KingCastle);
        assert!(!stay.is_null() && stay.is_castle());
        assert!(Move::new(Square::E5, Square::D6, MoveKind::EnPassant).is_en_passant());
        assert_eq!(
            MoveKind::promotion(Role::Knight, true),
            Some(MoveKind::CapturePromoteKnight)
        );
        assert_eq!(MoveKind::promotion(Role::King, false), None);
    }
}
