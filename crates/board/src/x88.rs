//! `Board0x88`: the 0x88 board of BuhoChess (Lugo 2010).
//!
//! Squares are numbered `16 · rank + file` in a 128-byte array, so that a
//! square index `s` is off the board exactly when `s & 0x88 != 0`: stepping
//! off any edge sets bit 3 (file overflow) or bit 7 (rank overflow), and the
//! test needs no memory load. The right half of each rank (the squares with
//! bit 3 set) is never on the board; this backend keeps each piece's index in
//! its colour's piece list there, so that moving or removing a piece updates
//! the list in O(1) without a second array.
//!
//! Because a rank is 16 wide, the difference `target − attacker` identifies
//! the vector between two squares uniquely, which the 257-entry tables
//! [`ATTACK_KINDS`] and [`ATTACK_STEP`] exploit: whether a piece on one square
//! can attack another is one table load, plus a walk along [`ATTACK_STEP`] for
//! sliders.

use crate::array::{ArrayBoard, Checkers, Geometry};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::code::{self, EMPTY};
use crate::types::{Color, Role, Square};

/// A value that is never an on-board 0x88 square ("no square").
pub const NO_SQUARE: u8 = 0x88;

/// The 0x88 index of a square.
#[inline(always)]
pub const fn from_square(sq: Square) -> u8 {
    let i = sq.index() as u8;
    i + (i & !7)
}

/// The square of an on-board 0x88 index (bits 3 and 7 are ignored).
#[inline(always)]
pub const fn to_square(s: u8) -> Square {
    Square::from_index_wrapping(((s & 0x77) + (s & 7)) as usize >> 1)
}

/// Knight steps.
pub const KNIGHT_STEPS: [u8; 8] = steps([33, 31, 18, 14, -14, -18, -31, -33]);
/// King steps (the eight neighbours).
pub const KING_STEPS: [u8; 8] = steps([17, 16, 15, 1, -1, -15, -16, -17]);
/// Bishop directions.
pub const BISHOP_STEPS: [u8; 4] = steps([17, 15, -15, -17]);
/// Rook directions.
pub const ROOK_STEPS: [u8; 4] = steps([16, 1, -1, -16]);
/// Queen directions.
pub const QUEEN_STEPS: [u8; 8] = KING_STEPS;

/// Offsets as the wrapping `u8` additions the board uses.
const fn steps<const N: usize>(deltas: [i8; N]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = deltas[i] as u8;
        i += 1;
    }
    out
}

/// [`ATTACK_KINDS`] bit: a white pawn attacks along the vector.
pub const ATTACK_WHITE_PAWN: u8 = 1;
/// [`ATTACK_KINDS`] bit: a black pawn attacks along the vector.
pub const ATTACK_BLACK_PAWN: u8 = 2;
/// [`ATTACK_KINDS`] bit: a knight attacks along the vector.
pub const ATTACK_KNIGHT: u8 = 4;
/// [`ATTACK_KINDS`] bit: a bishop attacks along the vector (on an empty board).
pub const ATTACK_BISHOP: u8 = 8;
/// [`ATTACK_KINDS`] bit: a rook attacks along the vector (on an empty board).
pub const ATTACK_ROOK: u8 = 16;
/// [`ATTACK_KINDS`] bit: a queen attacks along the vector (on an empty board).
pub const ATTACK_QUEEN: u8 = 32;
/// [`ATTACK_KINDS`] bit: a king attacks along the vector.
pub const ATTACK_KING: u8 = 64;
/// The bits of the sliding pieces, whose attack also needs the squares
/// between to be empty.
pub const ATTACK_SLIDERS: u8 = ATTACK_BISHOP | ATTACK_ROOK | ATTACK_QUEEN;

/// The index into [`ATTACK_KINDS`] and [`ATTACK_STEP`] for a piece on
/// `attacker` and a target on `target`: `target − attacker + 128`.
#[inline(always)]
pub const fn attack_index(attacker: u8, target: u8) -> usize {
    target.wrapping_sub(attacker).wrapping_add(128) as usize
}

/// Which kinds of piece attack along each vector `target − attacker + 128`
/// on an empty board (`ATTACK_*` bits).
pub static ATTACK_KINDS: [u8; 257] = ATTACK_TABLES.0;

/// The unit step from attacker towards target along each vector
/// `target − attacker + 128` (for knights, the whole jump; 0 where no
/// piece attacks).
pub static ATTACK_STEP: [i8; 257] = ATTACK_TABLES.1;

const ATTACK_TABLES: ([u8; 257], [i8; 257]) = {
    let mut kinds = [0u8; 257];
    let mut step = [0i8; 257];
    const KNIGHT: [i8; 8] = [33, 31, 18, 14, -14, -18, -31, -33];
    const KING: [i8; 8] = [17, 16, 15, 1, -1, -15, -16, -17];
    let mut i = 0;
    while i < 8 {
        let d = KNIGHT[i];
        kinds[(d as i16 + 128) as usize] |= ATTACK_KNIGHT;
        step[(d as i16 + 128) as usize] = d;
        let d = KING[i];
        kinds[(d as i16 + 128) as usize] |= ATTACK_KING;
        // Sliders: every multiple of the direction that fits on the board.
        let diagonal = d == 17 || d == 15 || d == -15 || d == -17;
        let mut n = 1;
        while n < 8 {
            let idx = (d as i16 * n + 128) as usize;
            kinds[idx] |= ATTACK_QUEEN | if diagonal { ATTACK_BISHOP } else { ATTACK_ROOK };
            step[idx] = d;
            n += 1;
        }
        i += 1;
    }
    kinds[128 + 15] |= ATTACK_WHITE_PAWN;
    kinds[128 + 17] |= ATTACK_WHITE_PAWN;
    kinds[128 - 15] |= ATTACK_BLACK_PAWN;
    kinds[128 - 17] |= ATTACK_BLACK_PAWN;
    (kinds, step)
};

/// The `ATTACK_*` bit of each piece code (0 for empty squares).
pub static KIND_BIT: [u8; 64] = {
    let mut t = [0u8; 64];
    t[code::of(Color::White, Role::Pawn) as usize] = ATTACK_WHITE_PAWN;
    t[code::of(Color::Black, Role::Pawn) as usize] = ATTACK_BLACK_PAWN;
    let mut c = 0;
    while c < 2 {
        let bit = if c == 0 { code::WHITE } else { code::BLACK };
        t[(bit | code::KNIGHT) as usize] = ATTACK_KNIGHT;
        t[(bit | code::BISHOP) as usize] = ATTACK_BISHOP;
        t[(bit | code::ROOK) as usize] = ATTACK_ROOK;
        t[(bit | code::QUEEN) as usize] = ATTACK_QUEEN;
        t[(bit | code::KING) as usize] = ATTACK_KING;
        c += 1;
    }
    t
};

pub use crate::array::LIST_CAPACITY;

/// The 0x88 geometry of [`ArrayBoard`]: a 128-byte array, 16 squares a rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct X88;

/// A position on a 0x88 board with piece lists.
///
/// The array holds piece codes on the on-board squares; on the off-board
/// square `s | 8`, the index of the piece on `s` in its kind's list.
///
/// ```
/// use fianchetto_board::{Board, Board0x88, Color, Role, Square};
/// let b = Board0x88::startpos();
/// assert_eq!(b.pieces(Color::White, Role::Pawn).count(), 8);
/// assert_eq!(b.fen(), fianchetto_board::START_FEN);
/// assert!(b.is_attacked(Square::F3, Color::White));
/// ```
pub type Board0x88 = ArrayBoard<X88>;

impl ArrayBoard<X88> {
    /// The raw 128-byte array: piece codes on the board, list indices on the
    /// off-board half.
    #[inline(always)]
    pub fn squares(&self) -> &[u8; 128] {
        &self.squares
    }

    /// The 0x88 square of `color`'s king.
    #[inline(always)]
    pub fn king88(&self, color: Color) -> u8 {
        self.king_index(color)
    }

    /// The en-passant square as a 0x88 index, or [`NO_SQUARE`].
    #[inline(always)]
    pub fn ep88(&self) -> u8 {
        self.ep_index()
    }

    /// Whether any piece of `by` attacks the 0x88 square `target`, with the
    /// square `ignore` treated as empty.
    #[inline(always)]
    pub fn attacked88(&self, target: u8, by: Color, ignore: u8) -> bool {
        self.attacked_on(&self.squares, target, by, ignore)
    }
}

/// Whether every square strictly between `from` and `target` (along
/// `step`) is empty or is `ignore`. Callers take `step` from the attack
/// table for this pair, so the walk reaches `target` on the board.
#[inline(always)]
fn ray_clear(squares: &[u8; 128], from: u8, target: u8, step: u8, ignore: u8) -> bool {
    let mut s = from.wrapping_add(step);
    while s != target {
        if squares[(s & 0x7f) as usize] != EMPTY && s != ignore {
            return false;
        }
        s = s.wrapping_add(step);
    }
    true
}

impl Geometry for X88 {
    const NAME: &'static str = "0x88";
    const NO_SQUARE: u8 = NO_SQUARE;
    const EMPTY_ARRAY: [u8; 128] = [EMPTY; 128];
    const UP: u8 = 16;
    const KNIGHT_STEPS: [u8; 8] = KNIGHT_STEPS;
    const KING_STEPS: [u8; 8] = KING_STEPS;
    const BISHOP_STEPS: [u8; 4] = BISHOP_STEPS;
    const ROOK_STEPS: [u8; 4] = ROOK_STEPS;
    /// The list indices live on the off-board half of the array.
    type ListIndex = ();
    const EMPTY_LIST_INDEX: () = ();

    #[inline(always)]
    fn from_square(sq: Square) -> u8 {
        from_square(sq)
    }

    #[inline(always)]
    fn to_square(s: u8) -> Square {
        to_square(s)
    }

    #[inline(always)]
    fn holds_code(s: u8) -> bool {
        s & 0x88 == 0
    }

    #[inline(always)]
    fn list_index(squares: &[u8; 128], _: &(), s: u8) -> u8 {
        squares[((s | 8) & 0x7f) as usize]
    }

    #[inline(always)]
    fn set_list_index(squares: &mut [u8; 128], _: &mut (), s: u8, i: u8) {
        squares[((s | 8) & 0x7f) as usize] = i;
    }

    /// Pawns are looked up on the two squares they would attack from; every
    /// other piece of `by`'s lists is tested with the attack table, and a
    /// slider's path walked along [`ATTACK_STEP`].
    #[inline(always)]
    fn attacked_on(
        board: &Board0x88,
        squares: &[u8; 128],
        target: u8,
        by: Color,
        ignore: u8,
    ) -> bool {
        let pawn = code::of(by, Role::Pawn);
        let behind = target.wrapping_sub(by.fold(16u8, 16u8.wrapping_neg()));
        for from in [behind.wrapping_add(1), behind.wrapping_sub(1)] {
            if from & 0x88 == 0 && squares[(from & 0x7f) as usize] == pawn {
                return true;
            }
        }
        for (role, bit) in [(Role::Knight, ATTACK_KNIGHT), (Role::King, ATTACK_KING)] {
            for &from in board.piece_list(by, role) {
                if ATTACK_KINDS[attack_index(from, target)] & bit != 0 {
                    return true;
                }
            }
        }
        for (role, bit) in [
            (Role::Bishop, ATTACK_BISHOP),
            (Role::Rook, ATTACK_ROOK),
            (Role::Queen, ATTACK_QUEEN),
        ] {
            for &from in board.piece_list(by, role) {
                let idx = attack_index(from, target);
                if ATTACK_KINDS[idx] & bit != 0
                    && ray_clear(squares, from, target, ATTACK_STEP[idx] as u8, ignore)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Pawns by lookup, the rest through the attack table (no steps are
    /// recorded).
    #[inline(always)]
    fn checkers(board: &Board0x88) -> Checkers {
        let us = board.turn();
        let them = !us;
        let k = board.king88(us);
        let mut found = 0usize;
        let mut squares = [0u8; 2];
        let mut record = |s: u8| {
            if found < 2 {
                squares[found] = s;
            }
            found += 1;
        };
        let pawn = code::of(them, Role::Pawn);
        let ahead = k.wrapping_add(us.fold(16u8, 16u8.wrapping_neg()));
        for from in [ahead.wrapping_add(1), ahead.wrapping_sub(1)] {
            if from & 0x88 == 0 && board.code_at(from) == pawn {
                record(from);
            }
        }
        for &from in board.piece_list(them, Role::Knight) {
            if ATTACK_KINDS[attack_index(from, k)] & ATTACK_KNIGHT != 0 {
                record(from);
            }
        }
        for (role, bit) in [
            (Role::Bishop, ATTACK_BISHOP),
            (Role::Rook, ATTACK_ROOK),
            (Role::Queen, ATTACK_QUEEN),
        ] {
            for &from in board.piece_list(them, role) {
                let idx = attack_index(from, k);
                if ATTACK_KINDS[idx] & bit != 0
                    && ray_clear(&board.squares, from, k, ATTACK_STEP[idx] as u8, NO_SQUARE)
                {
                    record(from);
                }
            }
        }
        Checkers {
            squares,
            steps: [0; 2],
            count: found,
        }
    }

    fn attackers(board: &Board0x88, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let target = from_square(sq);
        let mut found = Bitboard::EMPTY;
        for from in Role::ALL
            .iter()
            .flat_map(|&role| board.piece_list(by, role))
            .copied()
        {
            let kind = KIND_BIT[(board.code_at(from) & 63) as usize];
            let idx = attack_index(from, target);
            if ATTACK_KINDS[idx] & kind == 0 {
                continue;
            }
            let mut clear = true;
            if kind & ATTACK_SLIDERS != 0 {
                let step = ATTACK_STEP[idx] as u8;
                let mut s = from.wrapping_add(step);
                while s != target {
                    if occupied.contains(to_square(s)) {
                        clear = false;
                        break;
                    }
                    s = s.wrapping_add(step);
                }
            }
            if clear {
                found = found.with(to_square(from));
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::{
        bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    };
    use crate::mv::{Move, MoveKind};
    use crate::zobrist;

    #[test]
    fn square_conversion_round_trips() {
        for sq in Square::all() {
            let s = from_square(sq);
            assert_eq!(s & 0x88, 0);
            assert_eq!(s, 16 * sq.rank().index() as u8 + sq.file().index() as u8);
            assert_eq!(to_square(s), sq);
        }
        let on_board = (0u8..128).filter(|s| s & 0x88 == 0).count();
        assert_eq!(on_board, 64);
    }

    /// Every pair of squares: the table's kinds and step agree with the
    /// bitboard attack sets on an empty board, and walking the step from
    /// the attacker reaches the target.
    #[test]
    fn attack_table_matches_brute_force() {
        for a in Square::all() {
            for t in Square::all() {
                if a == t {
                    continue;
                }
                let (a88, t88) = (from_square(a), from_square(t));
                let idx = attack_index(a88, t88);
                assert_eq!(idx as i32, t88 as i32 - a88 as i32 + 128);
                let kinds = ATTACK_KINDS[idx];
                let bishop = bishop_attacks(a, Bitboard::EMPTY).contains(t);
                let rook = rook_attacks(a, Bitboard::EMPTY).contains(t);
                let expect = [
                    (ATTACK_WHITE_PAWN, pawn_attacks(Color::White, a).contains(t)),
                    (ATTACK_BLACK_PAWN, pawn_attacks(Color::Black, a).contains(t)),
                    (ATTACK_KNIGHT, knight_attacks(a).contains(t)),
                    (ATTACK_BISHOP, bishop),
                    (ATTACK_ROOK, rook),
                    (ATTACK_QUEEN, bishop || rook),
                    (ATTACK_KING, king_attacks(a).contains(t)),
                ];
                for (bit, want) in expect {
                    assert_eq!(kinds & bit != 0, want, "{a}->{t} bit {bit}");
                }
                if bishop || rook {
                    let step = ATTACK_STEP[idx] as u8;
                    let mut s = a88;
                    let mut n = 0;
                    while s != t88 {
                        s = s.wrapping_add(step);
                        assert_eq!(s & 0x88, 0, "{a}->{t} walks off the board");
                        n += 1;
                    }
                    assert_eq!(n, a.distance(t));
                }
                if knight_attacks(a).contains(t) {
                    assert_eq!(a88.wrapping_add(ATTACK_STEP[idx] as u8), t88);
                }
            }
        }
        assert_eq!(ATTACK_KINDS[128], 0);
    }

    #[test]
    fn lists_and_hash_follow_moves() {
        let mut b = Board0x88::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(
            Role::ALL
                .iter()
                .map(|&r| b.piece_list(Color::White, r).len())
                .sum::<usize>(),
            16
        );
        b.play_unchecked(Move::new(Square::E1, Square::G1, MoveKind::KingCastle));
        b.play_unchecked(Move::new(Square::H3, Square::G2, MoveKind::Capture));
        b.play_unchecked(Move::new(Square::A2, Square::A4, MoveKind::DoublePush));
        assert_eq!(b.ep_square(), Some(Square::A3));
        b.play_unchecked(Move::new(Square::B4, Square::A3, MoveKind::EnPassant));
        b.play_unchecked(Move::new(Square::G1, Square::G2, MoveKind::Capture));
        for color in Color::ALL {
            for role in Role::ALL {
                for (i, &s) in b.piece_list(color, role).iter().enumerate() {
                    assert_eq!(b.squares[(s | 8) as usize] as usize, i);
                    assert_eq!(b.code_at(s), code::of(color, role));
                }
            }
        }
        assert_eq!(b.king(Color::White), Square::G2);
        let s = b.to_setup();
        let pieces = Square::all().filter_map(|sq| s.board[sq.index()].map(|p| (sq, p)));
        assert_eq!(
            b.hash(),
            zobrist::compute(pieces, s.turn, s.castling, s.ep_square)
        );
        assert_eq!(
            b.fen(),
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/4P3/p1N2Q2/1PPBBPKP/R4R2 b kq - 0 3"
        );
    }
}
