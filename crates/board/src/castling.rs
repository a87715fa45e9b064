//! `CastlingRights`: which of the four castlings are still allowed, and, for
//! Chess960, with which rook and from which king file.
//!
//! In standard chess the king starts on the e-file and the rooks in the
//! corners. In Chess960 (Fischer Random) the king starts anywhere between
//! its two rooks, so a right must remember its rook's file; the king's file
//! is remembered too, so that a right alone says which squares it depends on
//! (and a standard position read as standard, with the king off e1, is
//! rejected rather than quietly reinterpreted). Castling always ends with
//! the king on the g-file (O-O) or c-file (O-O-O) and the rook beside it on
//! the f- or d-file, whatever the start files.
//!
//! ```
//! use fianchetto_board::{CastlingRights, CastlingSide, Color, File, Square};
//!
//! // Standard rights: king on e1, rooks on h1 and a1.
//! let standard = CastlingRights::ALL;
//! assert!(standard.is_standard());
//! assert_eq!(standard.rook_square(Color::White, CastlingSide::King), Some(Square::H1));
//!
//! // Chess960: king on b1 with its queen-side rook on a1.
//! let b = File::new(1).unwrap();
//! let rights = CastlingRights::NONE.with_files(Color::White, CastlingSide::Queen, b, File::A);
//! assert!(!rights.is_standard());
//! assert_eq!(rights.king_square(Color::White), Some(Square::B1));
//! // Moving the king loses the right.
//! assert_eq!(rights.after_touching(Square::B1), CastlingRights::NONE);
//! ```

use crate::bitboard::Bitboard;
use crate::types::{Color, File, Rank, Square};
use alloc::string::String;
use core::fmt;

/// Which side of the board a castling goes to.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (O-O).
    King,
    /// Towards the a-file (O-O-O).
    Queen,
}

/// How the castling field of a FEN is read, and so which castling rights a
/// position may have.
///
/// - `Standard`: only `KQkq`, meaning the king on e1/e8 with the rook in the
///   corner; anything else is an error, as it always was.
/// - `Chess960`: X-FEN and Shredder-FEN. `K`/`Q` (`k`/`q`) name the
///   outermost rook on that side of the king; a file letter `A`-`H`
///   (`a`-`h`) names the rook on that file, on whichever side of the king it
///   stands. Standard positions read the same in both modes.
///
/// Writing needs no mode: [`crate::Setup::to_fen`] writes X-FEN, which is
/// plain `KQkq` for every standard position.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Standard chess.
    #[default]
    Standard,
    /// Chess960 (Fischer Random), Double Fischer Random, or any position
    /// whose kings and castling rooks stand on other files.
    Chess960,
}

impl CastlingMode {
    /// `Chess960` when `chess960` is true, else `Standard`.
    pub const fn from_chess960(chess960: bool) -> CastlingMode {
        if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// Whether this is [`CastlingMode::Chess960`].
    pub const fn is_chess960(self) -> bool {
        matches!(self, CastlingMode::Chess960)
    }
}

impl CastlingSide {
    /// Both sides, king's first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::King, CastlingSide::Queen];

    /// Where the king starts in standard chess (e1 or e8). For any start
    /// files, see [`CastlingRights::king_square`].
    pub const fn king_from(self, color: Color) -> Square {
        Square::E1.relative(color)
    }

    /// Where the king ends (g1/c1 or g8/c8), in standard chess and Chess960
    /// alike.
    pub const fn king_to(self, color: Color) -> Square {
        match self {
            CastlingSide::King => Square::G1.relative(color),
            CastlingSide::Queen => Square::C1.relative(color),
        }
    }

    /// Where the rook starts in standard chess (a corner). For any start
    /// files, see [`CastlingRights::rook_square`].
    pub const fn rook_from(self, color: Color) -> Square {
        match self {
            CastlingSide::King => Square::H1.relative(color),
            CastlingSide::Queen => Square::A1.relative(color),
        }
    }

    /// Where the rook ends (f1/d1 or f8/d8), in standard chess and Chess960
    /// alike.
    pub const fn rook_to(self, color: Color) -> Square {
        match self {
            CastlingSide::King => Square::F1.relative(color),
            CastlingSide::Queen => Square::D1.relative(color),
        }
    }

    /// Squares that must be empty in standard chess (between king and
    /// rook). For any start files, see [`CastlingRights::path`].
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

    /// Squares the king passes over or lands on in standard chess, which
    /// must not be attacked (the start square is covered by "not in check").
    /// For any start files, see [`CastlingRights::path`].
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

    /// The side a rook on `rook` castles to with the king on `king`: the
    /// king's side when the rook is on a higher file, the queen's side when
    /// on a lower one, `None` on the same file.
    pub const fn of_rook(king: File, rook: File) -> Option<CastlingSide> {
        if rook.index() > king.index() {
            Some(CastlingSide::King)
        } else if rook.index() < king.index() {
            Some(CastlingSide::Queen)
        } else {
            None
        }
    }

    /// The file the rook starts on in standard chess (h or a).
    pub const fn standard_rook_file(self) -> File {
        match self {
            CastlingSide::King => File::H,
            CastlingSide::Queen => File::A,
        }
    }
}

/// What one castling move does and needs, for any start files: built by
/// [`CastlingRights::path`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastlingPath {
    /// Where the king stands.
    pub king_from: Square,
    /// Where the king ends (g- or c-file).
    pub king_to: Square,
    /// Where the castling rook stands.
    pub rook_from: Square,
    /// Where the rook ends (f- or d-file).
    pub rook_to: Square,
    /// Squares that must be empty: every square the king or the rook
    /// crosses or lands on, except the two squares they start on.
    pub empty: Bitboard,
    /// Squares that must not be attacked: the king's start square, every
    /// square it crosses, and its destination. Attacks are to be found with
    /// the castling rook lifted off the board: in Chess960 the rook can
    /// stand between an enemy slider and the king's destination.
    pub king_path: Bitboard,
}

/// The four castling rights, and where their kings and rooks start.
///
/// The rights themselves are four bits, as before Chess960: white O-O = 1,
/// white O-O-O = 2, black O-O = 4, black O-O-O = 8 ([`CastlingRights::bits`],
/// which is also what the Zobrist key hashes). Beside them, packed in the
/// same 32-bit word: the rook file of each right (3 bits each, from bit 8)
/// and each colour's king file (3 bits each, from bit 20). A right that is
/// not held keeps the standard file (h or a), a colour without rights the
/// e-file, so that equal rights compare equal and standard rights are
/// exactly the sixteen old values.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CastlingRights(u32);

/// Bit offset of the rook file of right `i` (0 = white O-O .. 3 = black
/// O-O-O). The files start at bit 8, so that the low byte is the four
/// rights alone and [`CastlingRights::bits`] costs no masking.
const fn rook_shift(i: usize) -> u32 {
    8 + 3 * i as u32
}

/// Bit offset of the king file of `color`.
const fn king_shift(color: Color) -> u32 {
    20 + 3 * color as u32
}

/// The files of standard chess: rooks on h and a, kings on e.
const STANDARD_LAYOUT: u32 = 7 << rook_shift(0)
    | 7 << rook_shift(2)
    | 4 << king_shift(Color::White)
    | 4 << king_shift(Color::Black);

/// Every layout bit (the files), above the four rights.
const LAYOUT_MASK: u32 = !15;

impl Default for CastlingRights {
    fn default() -> CastlingRights {
        CastlingRights::NONE
    }
}

impl CastlingRights {
    /// No castling at all.
    pub const NONE: CastlingRights = CastlingRights(STANDARD_LAYOUT);
    /// All four standard rights (the start position's `KQkq`).
    pub const ALL: CastlingRights = CastlingRights(STANDARD_LAYOUT | 15);

    /// The bit for one right.
    #[inline]
    pub const fn bit(color: Color, side: CastlingSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }

    /// The index (0..4) of a right, in the order of its bit.
    #[inline]
    const fn index(color: Color, side: CastlingSide) -> usize {
        color as usize * 2 + side as usize
    }

    /// Standard rights from their four bits (higher bits are dropped): kings
    /// on e1/e8, rooks in the corners.
    #[inline]
    pub const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(STANDARD_LAYOUT | (bits & 15) as u32)
    }

    /// The four bits.
    #[inline]
    pub const fn bits(self) -> u8 {
        // Bits 4 to 7 are always clear.
        self.0 as u8
    }

    /// Whether every right held uses the standard squares (king on the
    /// e-file, rook in the corner). True when no right is held.
    #[inline(always)]
    pub const fn is_standard(self) -> bool {
        self.0 & LAYOUT_MASK == STANDARD_LAYOUT
    }

    /// Whether `color` may still castle on `side`.
    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) as u32 != 0
    }

    /// Whether `color` has any right left.
    #[inline]
    pub const fn has_any(self, color: Color) -> bool {
        self.0 & (3 << (color as u8 * 2)) != 0
    }

    /// Whether any right is left.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 & 15 == 0
    }

    /// These rights with one added. Its rook file is the one already
    /// recorded (the standard one unless set by [`CastlingRights::with_files`]).
    #[inline]
    pub const fn with(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 | Self::bit(color, side) as u32)
    }

    /// These rights with one added, for a king on `king` and its rook on
    /// `rook` (any files: Chess960). The king file is shared by both rights
    /// of a colour, so this sets it for the other right too.
    #[inline]
    pub const fn with_files(
        self,
        color: Color,
        side: CastlingSide,
        king: File,
        rook: File,
    ) -> CastlingRights {
        let i = Self::index(color, side);
        let mut raw = self.0 | Self::bit(color, side) as u32;
        raw &= !(7 << rook_shift(i)) & !(7 << king_shift(color));
        raw |= (rook.index() as u32) << rook_shift(i) | (king.index() as u32) << king_shift(color);
        CastlingRights(raw)
    }

    /// These rights with one removed.
    #[inline]
    pub const fn without(self, color: Color, side: CastlingSide) -> CastlingRights {
        let i = Self::index(color, side);
        let mut raw = self.0 & !(Self::bit(color, side) as u32);
        // Back to the standard rook file, and the standard king file once
        // the colour has no right left.
        raw = (raw & !(7 << rook_shift(i))) | (STANDARD_LAYOUT & (7 << rook_shift(i)));
        if raw & (3 << (color as u8 * 2)) == 0 {
            raw = (raw & !(7 << king_shift(color))) | (STANDARD_LAYOUT & (7 << king_shift(color)));
        }
        CastlingRights(raw)
    }

    /// These rights with every right of `color` removed.
    #[inline]
    pub const fn without_color(self, color: Color) -> CastlingRights {
        self.without(color, CastlingSide::King)
            .without(color, CastlingSide::Queen)
    }

    /// The file of the rook `color` castles with on `side`, if the right is
    /// held.
    #[inline]
    pub const fn rook_file(self, color: Color, side: CastlingSide) -> Option<File> {
        if !self.has(color, side) {
            return None;
        }
        File::new(((self.0 >> rook_shift(Self::index(color, side))) & 7) as u8)
    }

    /// The square of the rook `color` castles with on `side`, if the right
    /// is held.
    #[inline]
    pub const fn rook_square(self, color: Color, side: CastlingSide) -> Option<Square> {
        match self.rook_file(color, side) {
            Some(file) => Some(Square::from_coords(file, back_rank(color))),
            None => None,
        }
    }

    /// The file `color`'s king castles from, if `color` has a right.
    #[inline]
    pub const fn king_file(self, color: Color) -> Option<File> {
        if !self.has_any(color) {
            return None;
        }
        File::new(((self.0 >> king_shift(color)) & 7) as u8)
    }

    /// The square `color`'s king castles from, if `color` has a right.
    #[inline]
    pub const fn king_square(self, color: Color) -> Option<Square> {
        match self.king_file(color) {
            Some(file) => Some(Square::from_coords(file, back_rank(color))),
            None => None,
        }
    }

    /// The squares castling on `side` involves, if `color` holds the right.
    /// Whether the king and rook really stand there is the position's
    /// business (validation guarantees it for a board).
    pub const fn path(self, color: Color, side: CastlingSide) -> Option<CastlingPath> {
        let (Some(king_from), Some(rook_from)) =
            (self.king_square(color), self.rook_square(color, side))
        else {
            return None;
        };
        let (king_to, rook_to) = (side.king_to(color), side.rook_to(color));
        let rank = back_rank(color);
        let king_path = span(rank, king_from.file(), king_to.file());
        let rook_path = span(rank, rook_from.file(), rook_to.file());
        let both =
            Bitboard(Bitboard::from_square(king_from).0 | Bitboard::from_square(rook_from).0);
        Some(CastlingPath {
            king_from,
            king_to,
            rook_from,
            rook_to,
            empty: Bitboard((king_path.0 | rook_path.0) & !both.0),
            king_path,
        })
    }

    /// The rights that survive a move touching `sq` (from or to): moving the
    /// king or a rook, or capturing a rook on its start square, removes
    /// rights.
    #[inline(always)]
    pub fn after_touching(self, sq: Square) -> CastlingRights {
        if self.is_standard() {
            CastlingRights(self.0 & (LAYOUT_MASK | KEEP_MASK[sq.index()] as u32))
        } else {
            self.without_bits(self.touched(sq))
        }
    }

    /// The rights that survive a move from `from` to `to`: the same as
    /// [`after_touching`](Self::after_touching) both squares, with one test
    /// of the layout.
    #[inline(always)]
    pub fn after_move(self, from: Square, to: Square) -> CastlingRights {
        if self.is_standard() {
            let keep = KEEP_MASK[from.index()] & KEEP_MASK[to.index()];
            CastlingRights(self.0 & (LAYOUT_MASK | keep as u32))
        } else {
            self.after_move_any(from, to)
        }
    }

    /// [`after_move`](Self::after_move) for any start files: apart, so that
    /// the standard case stays small where it is inlined.
    #[cold]
    #[inline(never)]
    fn after_move_any(self, from: Square, to: Square) -> CastlingRights {
        self.without_bits(self.touched(from) | self.touched(to))
    }

    /// The bits of the rights held whose king or rook starts on `sq`.
    #[inline(always)]
    const fn touched(self, sq: Square) -> u8 {
        let color = match sq.rank().index() {
            0 => Color::White,
            7 => Color::Black,
            _ => return 0,
        };
        let file = sq.file().index() as u32;
        let mut hit = 0u8;
        if (self.0 >> king_shift(color)) & 7 == file {
            hit = 3;
        }
        if (self.0 >> rook_shift(Self::index(color, CastlingSide::King))) & 7 == file {
            hit |= 1;
        }
        if (self.0 >> rook_shift(Self::index(color, CastlingSide::Queen))) & 7 == file {
            hit |= 2;
        }
        (hit << (2 * color as u8)) & self.bits()
    }

    /// These rights without those of `bits` (a mask as [`Self::bits`]).
    #[inline(always)]
    const fn without_bits(self, bits: u8) -> CastlingRights {
        let mut out = self;
        let mut i = 0;
        while i < 4 {
            if bits & (1 << i) != 0 {
                let color = if i < 2 { Color::White } else { Color::Black };
                let side = if i % 2 == 0 {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                out = out.without(color, side);
            }
            i += 1;
        }
        out
    }

    /// The same rights with the colours swapped (files kept).
    pub const fn swap_colors(self) -> CastlingRights {
        let rights = (self.0 & 3) << 2 | (self.0 >> 2) & 3;
        let white_rooks = (self.0 >> rook_shift(0)) & 0x3f;
        let black_rooks = (self.0 >> rook_shift(2)) & 0x3f;
        let white_king = (self.0 >> king_shift(Color::White)) & 7;
        let black_king = (self.0 >> king_shift(Color::Black)) & 7;
        CastlingRights(
            rights
                | black_rooks << rook_shift(0)
                | white_rooks << rook_shift(2)
                | black_king << king_shift(Color::White)
                | white_king << king_shift(Color::Black),
        )
    }

    /// The rights as Shredder-FEN writes them: the rook files, upper case
    /// for white, king's side first (`HAha` for the standard four), or `-`.
    pub fn shredder(self) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(file) = self.rook_file(color, side) {
                    s.push(match color {
                        Color::White => file.char().to_ascii_uppercase(),
                        Color::Black => file.char(),
                    });
                }
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

/// The first rank for white, the eighth for black.
#[inline(always)]
const fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::FIRST,
        Color::Black => Rank::EIGHTH,
    }
}

/// The squares of `rank` from file `a` to file `b`, both included, in
/// either order.
const fn span(rank: Rank, a: File, b: File) -> Bitboard {
    let (lo, hi) = if a.index() < b.index() {
        (a.index(), b.index())
    } else {
        (b.index(), a.index())
    };
    let files = (0xffu64 >> (7 - hi)) & (0xffu64 << lo);
    Bitboard(files << (8 * rank.index()))
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
    /// The FEN field: `KQkq`, a subset of it, or `-` for standard rights;
    /// the Shredder-FEN letters (see [`CastlingRights::shredder`]) when a
    /// king or rook starts elsewhere. (A FEN of a whole position uses X-FEN,
    /// which needs the board: see [`crate::Setup::to_fen`].)
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_standard() {
            return f.write_str(&self.shredder());
        }
        if self.is_empty() {
            return f.write_str("-");
        }
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.bits() & bit != 0 {
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

    fn file(c: char) -> File {
        File::from_char(c).unwrap()
    }

    #[test]
    fn rights() {
        let r = CastlingRights::ALL.after_touching(Square::H1);
        assert!(!r.has(Color::White, CastlingSide::King));
        assert!(r.has(Color::White, CastlingSide::Queen));
        assert_eq!(r.to_string(), "Qkq");
        assert_eq!(
            CastlingRights::ALL.after_touching(Square::E8).to_string(),
            "KQ"
        );
        assert_eq!(CastlingRights::NONE.to_string(), "-");
        assert_eq!(CastlingRights::from_bits(1).swap_colors().to_string(), "k");
        assert_eq!(CastlingSide::Queen.king_to(Color::Black), Square::C8);
    }

    #[test]
    fn standard_rights_are_the_old_sixteen() {
        for bits in 0..16u8 {
            let r = CastlingRights::from_bits(bits);
            assert!(r.is_standard());
            assert_eq!(r.bits(), bits);
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    if r.has(color, side) {
                        assert_eq!(r.rook_square(color, side), Some(side.rook_from(color)));
                        assert_eq!(r.king_square(color), Some(side.king_from(color)));
                        let p = r.path(color, side).unwrap();
                        assert_eq!(p.empty, side.empty_squares(color));
                        assert_eq!(
                            p.king_path,
                            side.king_path(color).with(side.king_from(color))
                        );
                        // Setting the standard files explicitly changes nothing.
                        let again = r.with_files(color, side, file('e'), side.standard_rook_file());
                        assert_eq!(again, r);
                    }
                }
            }
            // The general rule agrees with the table on every square.
            for sq in Square::all() {
                assert_eq!(
                    r.after_touching(sq),
                    r.without_bits(r.touched(sq)),
                    "{bits} {sq}"
                );
            }
        }
    }

    #[test]
    fn chess960_rights_remember_their_files() {
        // King on b1 with rooks on a1 and f1; black king on g8, rook on h8.
        let r = CastlingRights::NONE
            .with_files(Color::White, CastlingSide::Queen, file('b'), file('a'))
            .with_files(Color::White, CastlingSide::King, file('b'), file('f'))
            .with_files(Color::Black, CastlingSide::King, file('g'), file('h'));
        assert!(!r.is_standard());
        assert_eq!(r.shredder(), "FAh");
        assert_eq!(r.to_string(), "FAh");
        assert_eq!(r.king_square(Color::White), Some(Square::B1));
        assert_eq!(
            r.rook_square(Color::White, CastlingSide::King),
            Some(Square::F1)
        );
        assert_eq!(r.rook_square(Color::Black, CastlingSide::Queen), None);
        // Touching a rook removes only its right; the king, both.
        let r2 = r.after_touching(Square::F1);
        assert_eq!(r2.shredder(), "Ah");
        assert_eq!(r.after_move(Square::B1, Square::C1).shredder(), "h");
        // Capturing the h8 rook leaves black without rights: the layout of
        // what is left is standard again and equals the plain value.
        let r3 = r.after_touching(Square::H8).after_touching(Square::B1);
        assert_eq!(r3, CastlingRights::NONE);
        assert!(r3.is_standard());
        // Squares of other ranks change nothing.
        assert_eq!(r.after_touching(Square::B2), r);
        // Colour swap keeps files.
        let s = r.swap_colors();
        assert_eq!(s.shredder(), "Hfa");
        assert_eq!(s.swap_colors(), r);
    }

    #[test]
    fn chess960_paths() {
        // King b1, rook a1, O-O-O: the king goes to c1, the rook to d1.
        let r = CastlingRights::NONE.with_files(
            Color::White,
            CastlingSide::Queen,
            file('b'),
            file('a'),
        );
        let p = r.path(Color::White, CastlingSide::Queen).unwrap();
        assert_eq!(
            (p.king_from, p.king_to, p.rook_from, p.rook_to),
            (Square::B1, Square::C1, Square::A1, Square::D1)
        );
        assert_eq!(p.empty, Bitboard::from_square(Square::C1).with(Square::D1));
        assert_eq!(
            p.king_path,
            Bitboard::from_square(Square::B1).with(Square::C1)
        );
        // King g8 with rook h8, O-O: the king stays, the rook goes to f8.
        let r =
            CastlingRights::NONE.with_files(Color::Black, CastlingSide::King, file('g'), file('h'));
        let p = r.path(Color::Black, CastlingSide::King).unwrap();
        assert_eq!(
            (p.king_from, p.king_to, p.rook_to),
            (Square::G8, Square::G8, Square::F8)
        );
        assert_eq!(p.empty, Bitboard::from_square(Square::F8));
        assert_eq!(p.king_path, Bitboard::from_square(Square::G8));
        // King f1, rook g1, O-O: they swap squares; nothing else must be empty.
        let r =
            CastlingRights::NONE.with_files(Color::White, CastlingSide::King, file('f'), file('g'));
        let p = r.path(Color::White, CastlingSide::King).unwrap();
        assert_eq!(p.empty, Bitboard::EMPTY);
        assert!(r.path(Color::White, CastlingSide::Queen).is_none());
    }

    #[test]
    fn side_of_rook() {
        assert_eq!(
            CastlingSide::of_rook(file('e'), file('h')),
            Some(CastlingSide::King)
        );
        assert_eq!(
            CastlingSide::of_rook(file('b'), file('a')),
            Some(CastlingSide::Queen)
        );
        assert_eq!(CastlingSide::of_rook(file('b'), file('b')), None);
        assert!(CastlingMode::from_chess960(true).is_chess960());
        assert_eq!(CastlingMode::default(), CastlingMode::Standard);
    }
}
