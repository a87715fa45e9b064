//! `Mailbox`: the 10×12 mailbox board (Yepes Barrera's "mailbox with
//! sentinels").
//!
//! The 8×8 board sits inside a 10-wide, 12-high array: one border file on
//! each side and two border ranks above and below, all holding the sentinel
//! [`code::OFF`]. Every knight or king step and every slider step from a real
//! square lands either on the board or on a sentinel, so leaving the board is
//! detected by reading the square, with no index arithmetic: and because the
//! sentinel carries both colour bits, "own piece or edge" is one test.
//!
//! Square `s` of the array is `21 + file + 10 · rank` ([`TO_120`] and
//! [`TO_64`] convert). Attack queries scan outwards from the target square
//! (rays, knight and pawn squares), the classic mailbox method.

use crate::array::{ArrayBoard, Checkers, Geometry};
use crate::bitboard::Bitboard;
use crate::board::{attackers_from_pieces, Board};
use crate::code::{self, EMPTY, OFF};
use crate::types::{Color, Role, Square};

/// A value that is never a playing square ("no square").
pub const NO_SQUARE: u8 = 0;

/// The mailbox index of each square (a1 = 21, h1 = 28, a8 = 91, h8 = 98).
pub static TO_120: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (21 + (i % 8) + 10 * (i / 8)) as u8;
        i += 1;
    }
    t
};

/// The square index (0..64) of each mailbox index, or 64 on the border
/// (padded to 128 entries so that an index masked with `0x7f` is in bounds).
pub static TO_64: [u8; 128] = {
    let mut t = [64u8; 128];
    let mut i = 0;
    while i < 64 {
        t[21 + (i % 8) + 10 * (i / 8)] = i as u8;
        i += 1;
    }
    t
};

/// The rank (0..8) of each mailbox index (meaningless on the border).
pub static RANK_OF: [u8; 120] = {
    let mut t = [0u8; 120];
    let mut i = 0;
    while i < 120 {
        t[i] = ((i / 10) as u8).saturating_sub(2) & 7;
        i += 1;
    }
    t
};

/// The mailbox index of a square.
#[inline(always)]
pub fn from_square(sq: Square) -> u8 {
    TO_120[sq.index()]
}

/// The square of a playing mailbox index (border indices give a wrapped,
/// meaningless square).
#[inline(always)]
pub fn to_square(s: u8) -> Square {
    Square::from_index_wrapping(TO_64[(s & 0x7f) as usize] as usize)
}

/// Knight steps.
pub const KNIGHT_STEPS: [u8; 8] = steps([21, 19, 12, 8, -8, -12, -19, -21]);
/// King steps (the eight neighbours).
pub const KING_STEPS: [u8; 8] = steps([11, 10, 9, 1, -1, -9, -10, -11]);
/// Bishop directions.
pub const BISHOP_STEPS: [u8; 4] = steps([11, 9, -9, -11]);
/// Rook directions.
pub const ROOK_STEPS: [u8; 4] = steps([10, 1, -1, -10]);

const fn steps<const N: usize>(deltas: [i8; N]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = deltas[i] as u8;
        i += 1;
    }
    out
}

/// The array, padded to 128 bytes so that any index masked with `0x7f` is
/// in bounds; the padding holds sentinels too.
const ARRAY: usize = 128;

/// The empty board: sentinels everywhere but the 64 playing squares.
const EMPTY_BOARD: [u8; ARRAY] = {
    let mut t = [OFF; ARRAY];
    let mut i = 0;
    while i < 64 {
        t[21 + (i % 8) + 10 * (i / 8)] = EMPTY;
        i += 1;
    }
    t
};

pub use crate::array::LIST_CAPACITY;

/// The 10×12 mailbox geometry of [`ArrayBoard`]: sentinel borders, 10
/// squares a rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TenByTwelve;

/// A position on a 10×12 mailbox with piece lists.
///
/// The array holds piece codes, [`code::OFF`] on the border (and the
/// padding); each piece's list index is kept by square (0..64: half the size
/// of a parallel array, which copy-make pays for on every move).
///
/// ```
/// use fianchetto_board::{Board, Mailbox, Color, Role, Square};
/// let b = Mailbox::startpos();
/// assert_eq!(b.pieces(Color::Black, Role::Knight).count(), 2);
/// assert_eq!(b.fen(), fianchetto_board::START_FEN);
/// assert!(b.is_attacked(Square::F6, Color::Black));
/// ```
pub type Mailbox = ArrayBoard<TenByTwelve>;

impl ArrayBoard<TenByTwelve> {
    /// The raw array (120 squares and 8 bytes of sentinel padding).
    #[inline(always)]
    pub fn array(&self) -> &[u8; 128] {
        &self.squares
    }

    /// The mailbox index of `color`'s king.
    #[inline(always)]
    pub fn king120(&self, color: Color) -> u8 {
        self.king_index(color)
    }

    /// For each checker, the step from the king towards it if it is a
    /// slider, else 0.
    #[inline(always)]
    pub fn checker_steps(&self) -> &[u8] {
        let n = self.checker_squares().len();
        &self.checker_steps[..n]
    }

    /// The en-passant square as a mailbox index, or [`NO_SQUARE`].
    #[inline(always)]
    pub fn ep120(&self) -> u8 {
        self.ep_index()
    }

    /// Whether any piece of `by` attacks mailbox square `target`, with the
    /// square `ignore` treated as empty.
    #[inline(always)]
    pub fn attacked120(&self, target: u8, by: Color, ignore: u8) -> bool {
        self.attacked_on(&self.squares, target, by, ignore)
    }
}

impl Geometry for TenByTwelve {
    const NAME: &'static str = "mailbox";
    const NO_SQUARE: u8 = NO_SQUARE;
    const EMPTY_ARRAY: [u8; 128] = EMPTY_BOARD;
    const UP: u8 = 10;
    const KNIGHT_STEPS: [u8; 8] = KNIGHT_STEPS;
    const KING_STEPS: [u8; 8] = KING_STEPS;
    const BISHOP_STEPS: [u8; 4] = BISHOP_STEPS;
    const ROOK_STEPS: [u8; 4] = ROOK_STEPS;
    /// Each piece's list index, by square (0..64).
    type ListIndex = [u8; 64];
    const EMPTY_LIST_INDEX: [u8; 64] = [0; 64];

    #[inline(always)]
    fn from_square(sq: Square) -> u8 {
        from_square(sq)
    }

    #[inline(always)]
    fn to_square(s: u8) -> Square {
        to_square(s)
    }

    /// Every index holds a code: the border holds the sentinel.
    #[inline(always)]
    fn holds_code(_: u8) -> bool {
        true
    }

    #[inline(always)]
    fn list_index(_: &[u8; 128], index: &[u8; 64], s: u8) -> u8 {
        index[to_square(s).index()]
    }

    #[inline(always)]
    fn set_list_index(_: &mut [u8; 128], index: &mut [u8; 64], s: u8, i: u8) {
        index[to_square(s).index()] = i;
    }

    /// Scans outwards from the target, skipping the scans for kinds `by`
    /// has none of.
    #[inline(always)]
    fn attacked_on(
        board: &Mailbox,
        squares: &[u8; 128],
        target: u8,
        by: Color,
        ignore: u8,
    ) -> bool {
        let at = |s: u8| squares[(s & 0x7f) as usize];
        let counts = &board.counts[by.index()];
        if counts[Role::Pawn.index()] != 0 {
            let pawn = code::of(by, Role::Pawn);
            // A pawn of `by` attacks from one rank behind (from its side).
            let behind = target.wrapping_sub(by.fold(10u8, 10u8.wrapping_neg()));
            if at(behind.wrapping_add(1)) == pawn || at(behind.wrapping_sub(1)) == pawn {
                return true;
            }
        }
        if counts[Role::Knight.index()] != 0 {
            let knight = code::of(by, Role::Knight);
            if KNIGHT_STEPS
                .iter()
                .any(|&d| at(target.wrapping_add(d)) == knight)
            {
                return true;
            }
        }
        let king = code::of(by, Role::King);
        if KING_STEPS
            .iter()
            .any(|&d| at(target.wrapping_add(d)) == king)
        {
            return true;
        }
        let queen = code::of(by, Role::Queen);
        let queens = counts[Role::Queen.index()] != 0;
        for (dirs, slider, role) in [
            (ROOK_STEPS, code::of(by, Role::Rook), Role::Rook),
            (BISHOP_STEPS, code::of(by, Role::Bishop), Role::Bishop),
        ] {
            if !queens && counts[role.index()] == 0 {
                continue;
            }
            for d in dirs {
                let mut s = target.wrapping_add(d);
                let mut p = at(s);
                // `ignore` is a playing square, so the walk still ends at
                // the first piece or sentinel beyond it.
                while p == EMPTY || s == ignore {
                    s = s.wrapping_add(d);
                    p = at(s);
                }
                if p == slider || p == queen {
                    return true;
                }
            }
        }
        false
    }

    /// Scans out from the king of the side to move, recording for a slider
    /// the step towards it.
    #[inline(always)]
    fn checkers(board: &Mailbox) -> Checkers {
        let us = board.turn();
        let them = !us;
        let k = board.king120(us);
        let mut found = 0usize;
        let mut squares = [0u8; 2];
        let mut steps = [0u8; 2];
        let mut record = |s: u8, step: u8| {
            if found < 2 {
                squares[found] = s;
                steps[found] = step;
            }
            found += 1;
        };
        // Kinds the checking side has none of are not scanned for.
        let counts = board.counts[them.index()];
        if counts[Role::Pawn.index()] != 0 {
            let pawn = code::of(them, Role::Pawn);
            let ahead = k.wrapping_add(us.fold(10u8, 10u8.wrapping_neg()));
            for s in [ahead.wrapping_add(1), ahead.wrapping_sub(1)] {
                if board.code_at(s) == pawn {
                    record(s, 0);
                }
            }
        }
        if counts[Role::Knight.index()] != 0 {
            let knight = code::of(them, Role::Knight);
            for d in KNIGHT_STEPS {
                let s = k.wrapping_add(d);
                if board.code_at(s) == knight {
                    record(s, 0);
                }
            }
        }
        let queen = code::of(them, Role::Queen);
        let queens = counts[Role::Queen.index()] != 0;
        for (dirs, slider, role) in [
            (ROOK_STEPS, code::of(them, Role::Rook), Role::Rook),
            (BISHOP_STEPS, code::of(them, Role::Bishop), Role::Bishop),
        ] {
            if !queens && counts[role.index()] == 0 {
                continue;
            }
            for d in dirs {
                let mut s = k.wrapping_add(d);
                while board.code_at(s) == EMPTY {
                    s = s.wrapping_add(d);
                }
                let p = board.code_at(s);
                if p == slider || p == queen {
                    record(s, d);
                }
            }
        }
        Checkers {
            squares,
            steps,
            count: found,
        }
    }

    /// The default [`Board::attackers`] (bitboard attack sets against the
    /// piece lists).
    fn attackers(board: &Mailbox, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        attackers_from_pieces(board, sq, by, occupied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mv::{Move, MoveKind};
    use crate::zobrist;

    #[test]
    fn conversion_tables() {
        for sq in Square::all() {
            let s = from_square(sq);
            assert_eq!(s as usize, 21 + sq.file().index() + 10 * sq.rank().index());
            assert_eq!(to_square(s), sq);
            assert_eq!(TO_64[s as usize] as usize, sq.index());
            assert_eq!(RANK_OF[s as usize] as usize, sq.rank().index());
            assert_eq!(EMPTY_BOARD[s as usize], EMPTY);
        }
        // Exactly the 64 playing squares map back; the rest is border.
        let playing = TO_64.iter().filter(|&&s| s < 64).count();
        assert_eq!(playing, 64);
        for s in 0..120usize {
            let border = !(21..=98).contains(&s) || s % 10 == 0 || s % 10 == 9;
            assert_eq!(TO_64[s] == 64, border, "index {s}");
            assert_eq!(EMPTY_BOARD[s] == OFF, border, "index {s}");
        }
        assert!(EMPTY_BOARD[120..].iter().all(|&c| c == OFF));
    }

    /// Every step from every playing square lands on the board or on a
    /// sentinel, never outside the array: the border is wide enough.
    #[test]
    fn steps_stay_in_the_array() {
        for sq in Square::all() {
            let s = from_square(sq) as i32;
            for d in KNIGHT_STEPS.iter().chain(&KING_STEPS) {
                let t = s + *d as i8 as i32;
                assert!((0..120).contains(&t), "{sq} + {}", *d as i8);
                // On the board exactly when the bitboard geometry agrees.
                let on_board = TO_64[t as usize] < 64;
                let df = (TO_64[t as usize] as i32 % 8 - sq.file().index() as i32).abs();
                if on_board {
                    assert!(df <= 2);
                }
            }
        }
    }

    #[test]
    fn lists_and_hash_follow_moves() {
        let mut b = Mailbox::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        b.play_unchecked(Move::new(Square::E1, Square::G1, MoveKind::KingCastle));
        b.play_unchecked(Move::new(Square::H3, Square::G2, MoveKind::Capture));
        b.play_unchecked(Move::new(Square::A2, Square::A4, MoveKind::DoublePush));
        assert_eq!(b.ep_square(), Some(Square::A3));
        b.play_unchecked(Move::new(Square::B4, Square::A3, MoveKind::EnPassant));
        b.play_unchecked(Move::new(Square::G1, Square::G2, MoveKind::Capture));
        for color in Color::ALL {
            for role in Role::ALL {
                for (i, &s) in b.piece_list(color, role).iter().enumerate() {
                    assert_eq!(b.list_index[to_square(s).index()] as usize, i);
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
