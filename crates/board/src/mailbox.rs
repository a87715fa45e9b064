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

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastlingRights, CastlingSide};
use crate::code::{self, EMPTY, OFF};
use crate::mv::{Move, MoveKind};
use crate::setup::Setup;
use crate::types::{Color, Piece, Role, Square};
use crate::validate::{validate, PositionError};
use crate::zobrist;

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

/// The square index (0..64) of each mailbox index, or 64 on the border.
pub static TO_64: [u8; 120] = {
    let mut t = [64u8; 120];
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
    Square::from_index_wrapping(TO_64[s as usize % 120] as usize)
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

/// Most pieces of one kind a side can have (two knights and eight promoted
/// pawns).
pub const LIST_CAPACITY: usize = 10;

/// A position on a 10×12 mailbox with piece lists.
///
/// ```
/// use fianchetto_board::{Board, Mailbox, Color, Role, Square};
/// let b = Mailbox::startpos();
/// assert_eq!(b.pieces(Color::Black, Role::Knight).count(), 2);
/// assert_eq!(b.fen(), fianchetto_board::START_FEN);
/// assert!(b.is_attacked(Square::F6, Color::Black));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mailbox {
    /// Piece codes, [`code::OFF`] on the border (and the padding).
    board: [u8; ARRAY],
    /// Each piece's index in its kind's list, by square (0..64).
    list_index: [u8; 64],
    /// The mailbox indices of each colour's pieces of each role, so that
    /// the generator loops per kind without dispatching per piece.
    lists: [[[u8; LIST_CAPACITY]; 6]; 2],
    /// How many entries of each list are in use.
    counts: [[u8; 6]; 2],
    /// Squares of the pieces giving check (the first `checker_count`) and
    /// for a slider the step from the king towards it (0 otherwise).
    checker_squares: [u8; 2],
    checker_steps: [u8; 2],
    checker_count: u8,
    hash: u64,
    turn: Color,
    castling: CastlingRights,
    /// En-passant square (mailbox index), or [`NO_SQUARE`].
    ep: u8,
    halfmove: u16,
    fullmove: u16,
}

impl Mailbox {
    /// The code on mailbox index `s` ([`code::OFF`] on the border).
    #[inline(always)]
    pub fn code_at(&self, s: u8) -> u8 {
        self.board[(s & 0x7f) as usize]
    }

    /// The raw array (120 squares and 8 bytes of sentinel padding).
    #[inline(always)]
    pub fn array(&self) -> &[u8; 128] {
        &self.board
    }

    /// The mailbox indices of `color`'s pieces of `role`.
    #[inline(always)]
    pub fn piece_list(&self, color: Color, role: Role) -> &[u8] {
        let n = self.counts[color.index()][role.index()] as usize;
        &self.lists[color.index()][role.index()][..n.min(LIST_CAPACITY)]
    }

    /// The mailbox index of `color`'s king.
    #[inline(always)]
    pub fn king120(&self, color: Color) -> u8 {
        self.lists[color.index()][Role::King.index()][0]
    }

    /// The mailbox indices of the pieces giving check to the side to move.
    #[inline(always)]
    pub fn checker_squares(&self) -> &[u8] {
        &self.checker_squares[..(self.checker_count as usize).min(2)]
    }

    /// For each checker, the step from the king towards it if it is a
    /// slider, else 0.
    #[inline(always)]
    pub fn checker_steps(&self) -> &[u8] {
        &self.checker_steps[..(self.checker_count as usize).min(2)]
    }

    /// The en-passant square as a mailbox index, or [`NO_SQUARE`].
    #[inline(always)]
    pub fn ep120(&self) -> u8 {
        self.ep
    }

    /// Whether a piece of `by` attacks mailbox square `target` on the array
    /// `board` (so a caller may pass a modified copy), treating `ignore` as
    /// empty. Scans outwards from the target.
    #[inline(always)]
    pub fn array_attacked(board: &[u8; 128], target: u8, by: Color, ignore: u8) -> bool {
        let at = |s: u8| board[(s & 0x7f) as usize];
        let pawn = code::of(by, Role::Pawn);
        // A pawn of `by` attacks from one rank behind (from its side).
        let behind = by.fold(10u8.wrapping_neg(), 10);
        if at(target.wrapping_add(behind).wrapping_add(1)) == pawn
            || at(target.wrapping_add(behind).wrapping_sub(1)) == pawn
        {
            return true;
        }
        let knight = code::of(by, Role::Knight);
        if KNIGHT_STEPS
            .iter()
            .any(|&d| at(target.wrapping_add(d)) == knight)
        {
            return true;
        }
        let king = code::of(by, Role::King);
        if KING_STEPS
            .iter()
            .any(|&d| at(target.wrapping_add(d)) == king)
        {
            return true;
        }
        let queen = code::of(by, Role::Queen);
        let rook = code::of(by, Role::Rook);
        let bishop = code::of(by, Role::Bishop);
        for (dirs, slider) in [(ROOK_STEPS, rook), (BISHOP_STEPS, bishop)] {
            for d in dirs {
                let mut s = target.wrapping_add(d);
                let mut p = at(s);
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

    /// Whether any piece of `by` attacks mailbox square `target`, with the
    /// square `ignore` treated as empty.
    #[inline(always)]
    pub fn attacked120(&self, target: u8, by: Color, ignore: u8) -> bool {
        Self::array_attacked(&self.board, target, by, ignore)
    }

    #[inline(always)]
    fn put(&mut self, color: Color, code: u8, s: u8) {
        let (c, r) = (color.index(), Self::role_index(code));
        let n = self.counts[c][r];
        self.lists[c][r][(n as usize).min(LIST_CAPACITY - 1)] = s;
        self.counts[c][r] = (n + 1).min(LIST_CAPACITY as u8);
        self.board[(s & 0x7f) as usize] = code;
        self.list_index[to_square(s).index()] = n;
        self.hash ^= Self::key(code, s);
    }

    /// Removes the piece on `s` (which must hold a piece of `color`).
    #[inline(always)]
    fn remove(&mut self, color: Color, s: u8) {
        let code = self.board[(s & 0x7f) as usize];
        let (c, r) = (color.index(), Self::role_index(code));
        self.hash ^= Self::key(code, s);
        self.board[(s & 0x7f) as usize] = EMPTY;
        // Swap the last entry of the kind's list into the hole.
        let idx = (self.list_index[to_square(s).index()] as usize).min(LIST_CAPACITY - 1);
        let last = self.counts[c][r].saturating_sub(1);
        let moved = self.lists[c][r][(last as usize).min(LIST_CAPACITY - 1)];
        self.lists[c][r][idx] = moved;
        self.list_index[to_square(moved).index()] = idx as u8;
        self.counts[c][r] = last;
    }

    /// Moves the piece on `from` to the empty square `to`.
    #[inline(always)]
    fn relocate(&mut self, color: Color, from: u8, to: u8) {
        let code = self.board[(from & 0x7f) as usize];
        let idx = self.list_index[to_square(from).index()];
        self.hash ^= Self::key(code, from) ^ Self::key(code, to);
        self.board[(from & 0x7f) as usize] = EMPTY;
        self.board[(to & 0x7f) as usize] = code;
        self.list_index[to_square(to).index()] = idx;
        self.lists[color.index()][Self::role_index(code)][(idx as usize).min(LIST_CAPACITY - 1)] =
            to;
    }

    /// The role index (0..6) of a piece code.
    #[inline(always)]
    fn role_index(code: u8) -> usize {
        ((code & code::ROLE_MASK) as usize).wrapping_sub(1).min(5)
    }

    #[inline(always)]
    fn key(code: u8, s: u8) -> u64 {
        match code::decode(code) {
            Some(p) => zobrist::piece(p, to_square(s)),
            None => 0,
        }
    }

    #[inline(always)]
    fn set_ep(&mut self, ep: u8) {
        if self.ep != NO_SQUARE {
            self.hash ^= zobrist::en_passant(to_square(self.ep));
        }
        self.ep = ep;
        if ep != NO_SQUARE {
            self.hash ^= zobrist::en_passant(to_square(ep));
        }
    }

    /// Finds the pieces giving check to the side to move by scanning out
    /// from its king.
    #[inline(always)]
    fn update_checkers(&mut self) {
        let us = self.turn;
        let them = !us;
        let k = self.king120(us);
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
        let pawn = code::of(them, Role::Pawn);
        let ahead = us.fold(10u8, 10u8.wrapping_neg());
        for s in [
            k.wrapping_add(ahead).wrapping_add(1),
            k.wrapping_add(ahead).wrapping_sub(1),
        ] {
            if self.code_at(s) == pawn {
                record(s, 0);
            }
        }
        let knight = code::of(them, Role::Knight);
        for d in KNIGHT_STEPS {
            let s = k.wrapping_add(d);
            if self.code_at(s) == knight {
                record(s, 0);
            }
        }
        let queen = code::of(them, Role::Queen);
        for (dirs, slider) in [
            (ROOK_STEPS, code::of(them, Role::Rook)),
            (BISHOP_STEPS, code::of(them, Role::Bishop)),
        ] {
            for d in dirs {
                let mut s = k.wrapping_add(d);
                while self.code_at(s) == EMPTY {
                    s = s.wrapping_add(d);
                }
                let p = self.code_at(s);
                if p == slider || p == queen {
                    record(s, d);
                }
            }
        }
        self.checker_squares = squares;
        self.checker_steps = steps;
        self.checker_count = found.min(2) as u8;
    }

    fn list_bitboard(&self, color: Color, roles: &[Role]) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for &role in roles {
            for &s in self.piece_list(color, role) {
                bb = bb.with(to_square(s));
            }
        }
        bb
    }
}

impl Board for Mailbox {
    const NAME: &'static str = "mailbox";

    fn from_setup(setup: &Setup) -> Result<Mailbox, PositionError> {
        let setup = validate(setup)?;
        let mut b = Mailbox {
            board: EMPTY_BOARD,
            list_index: [0; 64],
            lists: [[[NO_SQUARE; LIST_CAPACITY]; 6]; 2],
            counts: [[0; 6]; 2],
            checker_squares: [0; 2],
            checker_steps: [0; 2],
            checker_count: 0,
            hash: 0,
            turn: setup.turn,
            castling: setup.castling,
            ep: NO_SQUARE,
            halfmove: setup.halfmove_clock as u16,
            fullmove: setup.fullmove_number as u16,
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                b.put(p.color, code::encode(p), from_square(sq));
            }
        }
        if setup.turn == Color::Black {
            b.hash ^= zobrist::side();
        }
        b.hash ^= zobrist::castling(setup.castling);
        b.set_ep(setup.ep_square.map_or(NO_SQUARE, from_square));
        b.update_checkers();
        Ok(b)
    }

    #[inline(always)]
    fn piece_at(&self, sq: Square) -> Option<Piece> {
        code::decode(self.code_at(from_square(sq)))
    }

    fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.list_bitboard(color, &[role])
    }

    fn by_color(&self, color: Color) -> Bitboard {
        self.list_bitboard(color, &Role::ALL)
    }

    #[inline(always)]
    fn turn(&self) -> Color {
        self.turn
    }

    #[inline(always)]
    fn castling(&self) -> CastlingRights {
        self.castling
    }

    #[inline(always)]
    fn ep_square(&self) -> Option<Square> {
        (self.ep != NO_SQUARE).then(|| to_square(self.ep))
    }

    fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    #[inline(always)]
    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline(always)]
    fn king(&self, color: Color) -> Square {
        to_square(self.king120(color))
    }

    #[inline(always)]
    fn checkers(&self) -> Bitboard {
        self.checker_squares()
            .iter()
            .fold(Bitboard::EMPTY, |bb, &s| bb.with(to_square(s)))
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        self.checker_count != 0
    }

    #[inline(always)]
    fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked120(from_square(sq), by, NO_SQUARE)
    }

    fn play(&mut self, mv: Move) {
        let us = self.turn;
        let them = !us;
        let from = from_square(mv.from());
        let to = from_square(mv.to());
        let moving = self.code_at(from);
        if moving == OFF || moving & code::color_bit(us) == 0 {
            // Not a move of this position; keep the board consistent.
            return;
        }
        self.set_ep(NO_SQUARE);
        self.halfmove = self.halfmove.saturating_add(1);
        let forward = us.fold(10u8, 10u8.wrapping_neg());
        if mv.is_capture() {
            self.halfmove = 0;
            let victim = if mv.is_en_passant() {
                to.wrapping_sub(forward)
            } else {
                to
            };
            let victim_code = self.code_at(victim);
            if victim_code != OFF && victim_code & code::color_bit(them) != 0 {
                self.remove(them, victim);
            }
        }
        self.relocate(us, from, to);
        if let Some(role) = mv.promotion() {
            self.remove(us, to);
            self.put(us, code::of(us, role), to);
        }
        match mv.kind() {
            MoveKind::DoublePush => {
                // Keep the ep square only when an enemy pawn can take on it.
                let their_pawn = code::of(them, Role::Pawn);
                if self.code_at(to.wrapping_add(1)) == their_pawn
                    || self.code_at(to.wrapping_sub(1)) == their_pawn
                {
                    self.set_ep(to.wrapping_sub(forward));
                }
            }
            MoveKind::KingCastle | MoveKind::QueenCastle => {
                let side = if mv.kind() == MoveKind::KingCastle {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                self.relocate(
                    us,
                    from_square(side.rook_from(us)),
                    from_square(side.rook_to(us)),
                );
            }
            _ => {}
        }
        if moving & code::ROLE_MASK == code::PAWN {
            self.halfmove = 0;
        }
        let rights = self
            .castling
            .after_touching(mv.from())
            .after_touching(mv.to());
        if rights != self.castling {
            self.hash ^= zobrist::castling(self.castling) ^ zobrist::castling(rights);
            self.castling = rights;
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = them;
        self.hash ^= zobrist::side();
        self.update_checkers();
    }

    fn play_null(&mut self) {
        self.set_ep(NO_SQUARE);
        self.halfmove = self.halfmove.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::side();
        self.update_checkers();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let playing = (0..120).filter(|&s| TO_64[s] < 64).count();
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
        b.play(Move::new(Square::E1, Square::G1, MoveKind::KingCastle));
        b.play(Move::new(Square::H3, Square::G2, MoveKind::Capture));
        b.play(Move::new(Square::A2, Square::A4, MoveKind::DoublePush));
        assert_eq!(b.ep_square(), Some(Square::A3));
        b.play(Move::new(Square::B4, Square::A3, MoveKind::EnPassant));
        b.play(Move::new(Square::G1, Square::G2, MoveKind::Capture));
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
