//! [`ArrayBoard`]: the array board with piece lists shared by the 0x88
//! ([`crate::Board0x88`]) and 10×12 mailbox ([`crate::Mailbox`]) backends.
//!
//! Both keep one byte per array square holding a piece code
//! ([`crate::code`]), a list of squares per colour and role (so that the
//! generator loops per kind without dispatching per piece), each colour's
//! squares as a bitboard, the pieces giving check, and the Zobrist hash, all
//! updated move by move. What differs is the geometry, which a [`Geometry`]
//! supplies: how squares map into the array, what lies off the board, the
//! rank step, where a piece's list index is kept, and how attacks and checks
//! are found.

use core::fmt::Debug;
use core::marker::PhantomData;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastlingRights, CastlingSide};
use crate::code::{self, EMPTY, OFF};
use crate::mv::{Move, MoveKind};
use crate::setup::Setup;
use crate::types::{Color, Piece, Role, Square};
use crate::validate::{validate, PositionError};
use crate::zobrist;

/// Most pieces of one kind a side can have (two knights and eight promoted
/// pawns).
pub const LIST_CAPACITY: usize = 10;

/// The pieces giving check found by [`Geometry::checkers`]: their array
/// squares, for each the step from the king towards it if the geometry
/// records one (0 otherwise), and how many there are (at most 2 recorded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkers {
    /// Array squares of the checkers (the first `count`).
    pub squares: [u8; 2],
    /// Step from the king towards each slider checker, or 0.
    pub steps: [u8; 2],
    /// How many checkers were found.
    pub count: usize,
}

/// What makes one array representation differ from another: everything
/// [`ArrayBoard`] needs to know about its array's layout and attack queries.
pub trait Geometry: Clone + Debug + PartialEq + Eq + Send + Sync + Sized + 'static {
    /// The backend's name ([`Board::NAME`]).
    const NAME: &'static str;
    /// An array index that is never a playing square ("no square").
    const NO_SQUARE: u8;
    /// The array of an empty board (the playing squares [`code::EMPTY`]).
    const EMPTY_ARRAY: [u8; 128];
    /// The step one rank up (towards rank 8).
    const UP: u8;
    /// Knight jumps as wrapping additions to an array index.
    const KNIGHT_STEPS: [u8; 8];
    /// King steps (the eight neighbours).
    const KING_STEPS: [u8; 8];
    /// Diagonal directions.
    const BISHOP_STEPS: [u8; 4];
    /// Orthogonal directions.
    const ROOK_STEPS: [u8; 4];
    /// Where the geometry keeps each piece's index in its kind's list,
    /// besides the array itself.
    type ListIndex: Clone + Debug + PartialEq + Eq + Send + Sync;
    /// The initial value of that store.
    const EMPTY_LIST_INDEX: Self::ListIndex;

    /// The array index of a square.
    fn from_square(sq: Square) -> u8;
    /// The square of a playing array index.
    fn to_square(s: u8) -> Square;
    /// Whether the array byte at `s` holds a piece code (or a sentinel),
    /// as opposed to lying off the board with other contents.
    fn holds_code(s: u8) -> bool;
    /// The list index of the piece on `s`.
    fn list_index(squares: &[u8; 128], index: &Self::ListIndex, s: u8) -> u8;
    /// Records `i` as the list index of the piece on `s`.
    fn set_list_index(squares: &mut [u8; 128], index: &mut Self::ListIndex, s: u8, i: u8);
    /// Whether a piece of `by` attacks `target`, reading piece codes from
    /// `squares` (the board's array or a modified copy) and treating the
    /// square `ignore` as empty.
    fn attacked_on(
        board: &ArrayBoard<Self>,
        squares: &[u8; 128],
        target: u8,
        by: Color,
        ignore: u8,
    ) -> bool;
    /// The pieces giving check to the side to move.
    fn checkers(board: &ArrayBoard<Self>) -> Checkers;
    /// The squares of the pieces of `by` that attack `sq`, with the
    /// sliders blocked by `occupied` ([`Board::attackers`]).
    fn attackers(board: &ArrayBoard<Self>, sq: Square, by: Color, occupied: Bitboard) -> Bitboard;
}

/// A position on an array board with piece lists, generic over its
/// [`Geometry`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayBoard<G: Geometry> {
    /// Piece codes on the playing squares; the rest is geometry-specific
    /// (sentinels, or list indices).
    pub(crate) squares: [u8; 128],
    /// Each piece's index in its kind's list, where the geometry does not
    /// keep it in `squares`.
    pub(crate) list_index: G::ListIndex,
    /// The array squares of each colour's pieces of each role.
    pub(crate) lists: [[[u8; LIST_CAPACITY]; 6]; 2],
    /// How many entries of each list are in use.
    pub(crate) counts: [[u8; 6]; 2],
    /// Each colour's squares, kept up to date move by move: `occupied()`
    /// from the lists costs 50-80 ns, too much for an evaluator to call.
    colors: [Bitboard; 2],
    /// Squares of the pieces giving check (the first `checker_count`) and
    /// for a slider the step from the king towards it where the geometry
    /// records it (0 otherwise).
    checker_squares: [u8; 2],
    pub(crate) checker_steps: [u8; 2],
    checker_count: u8,
    hash: u64,
    turn: Color,
    castling: CastlingRights,
    /// En-passant square (array index), or [`Geometry::NO_SQUARE`].
    ep: u8,
    halfmove: u16,
    fullmove: u16,
    geometry: PhantomData<G>,
}

impl<G: Geometry> ArrayBoard<G> {
    /// The piece code on array square `s` (see [`crate::code`]); only
    /// meaningful where the geometry keeps codes.
    #[inline(always)]
    pub fn code_at(&self, s: u8) -> u8 {
        self.squares[(s & 0x7f) as usize]
    }

    /// The array squares of `color`'s pieces of `role`.
    #[inline(always)]
    pub fn piece_list(&self, color: Color, role: Role) -> &[u8] {
        let n = self.counts[color.index()][role.index()] as usize;
        &self.lists[color.index()][role.index()][..n.min(LIST_CAPACITY)]
    }

    /// The array squares of the pieces giving check to the side to move.
    #[inline(always)]
    pub fn checker_squares(&self) -> &[u8] {
        &self.checker_squares[..(self.checker_count as usize).min(2)]
    }

    /// Whether a piece of `by` attacks array square `target` on the array
    /// `squares` (this board's, or a modified copy of it), treating the
    /// square `ignore` as empty (pass [`Geometry::NO_SQUARE`] for none).
    #[inline(always)]
    pub fn attacked_on(&self, squares: &[u8; 128], target: u8, by: Color, ignore: u8) -> bool {
        G::attacked_on(self, squares, target, by, ignore)
    }

    /// The array square of `color`'s king.
    #[inline(always)]
    pub fn king_index(&self, color: Color) -> u8 {
        self.lists[color.index()][Role::King.index()][0]
    }

    /// The en-passant square as an array index, or [`Geometry::NO_SQUARE`].
    #[inline(always)]
    pub fn ep_index(&self) -> u8 {
        self.ep
    }

    /// The raw 128-byte array (see the geometry for what the bytes off the
    /// playing squares hold).
    #[inline(always)]
    pub fn array_squares(&self) -> &[u8; 128] {
        &self.squares
    }

    #[inline(always)]
    fn put(&mut self, color: Color, code: u8, s: u8) {
        let (c, r) = (color.index(), Self::role_index(code));
        self.colors[c] = self.colors[c].with(G::to_square(s));
        let n = self.counts[c][r];
        self.lists[c][r][(n as usize).min(LIST_CAPACITY - 1)] = s;
        self.counts[c][r] = (n + 1).min(LIST_CAPACITY as u8);
        self.squares[(s & 0x7f) as usize] = code;
        G::set_list_index(&mut self.squares, &mut self.list_index, s, n);
        self.hash ^= Self::key(code, s);
    }

    /// Removes the piece on `s` (which must hold a piece of `color`).
    #[inline(always)]
    fn remove(&mut self, color: Color, s: u8) {
        let code = self.squares[(s & 0x7f) as usize];
        let (c, r) = (color.index(), Self::role_index(code));
        self.colors[c] = self.colors[c].without(G::to_square(s));
        self.hash ^= Self::key(code, s);
        self.squares[(s & 0x7f) as usize] = EMPTY;
        // Swap the last entry of the kind's list into the hole.
        let idx =
            (G::list_index(&self.squares, &self.list_index, s) as usize).min(LIST_CAPACITY - 1);
        let last = self.counts[c][r].saturating_sub(1);
        let moved = self.lists[c][r][(last as usize).min(LIST_CAPACITY - 1)];
        self.lists[c][r][idx] = moved;
        G::set_list_index(&mut self.squares, &mut self.list_index, moved, idx as u8);
        self.counts[c][r] = last;
    }

    /// Moves the piece on `from` to the empty square `to`.
    #[inline(always)]
    fn relocate(&mut self, color: Color, from: u8, to: u8) {
        let code = self.squares[(from & 0x7f) as usize];
        let idx = G::list_index(&self.squares, &self.list_index, from);
        self.hash ^= Self::key(code, from) ^ Self::key(code, to);
        let c = color.index();
        self.colors[c] = self.colors[c]
            .without(G::to_square(from))
            .with(G::to_square(to));
        self.squares[(from & 0x7f) as usize] = EMPTY;
        self.squares[(to & 0x7f) as usize] = code;
        G::set_list_index(&mut self.squares, &mut self.list_index, to, idx);
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
            Some(p) => zobrist::piece(p, G::to_square(s)),
            None => 0,
        }
    }

    #[inline(always)]
    fn set_ep(&mut self, ep: u8) {
        if self.ep != G::NO_SQUARE {
            self.hash ^= zobrist::en_passant(G::to_square(self.ep));
        }
        self.ep = ep;
        if ep != G::NO_SQUARE {
            self.hash ^= zobrist::en_passant(G::to_square(ep));
        }
    }

    #[inline(always)]
    fn update_checkers(&mut self) {
        let found = G::checkers(self);
        self.checker_squares = found.squares;
        self.checker_steps = found.steps;
        self.checker_count = found.count.min(2) as u8;
    }

    /// Castling, standard or Chess960: king and rook are both lifted
    /// before either lands, since in Chess960 one may land where the other
    /// stood.
    #[inline(never)]
    fn play_castle(&mut self, mv: Move, side: CastlingSide) {
        let us = self.turn;
        let from = G::from_square(mv.from());
        let king = self.code_at(from);
        let rook_from = self.castling.rook_square(us, side).map(G::from_square);
        let Some(rook_from) = rook_from.filter(|_| king == code::of(us, Role::King)) else {
            // Not a move of this position; keep the board consistent.
            return;
        };
        self.set_ep(G::NO_SQUARE);
        self.halfmove = self.halfmove.saturating_add(1);
        let rook = self.code_at(rook_from);
        self.remove(us, from);
        self.remove(us, rook_from);
        self.put(us, king, G::from_square(mv.to()));
        self.put(us, rook, G::from_square(side.rook_to(us)));
        self.finish(self.castling.without_color(us));
    }

    /// The end of every move: the new castling rights, the move number,
    /// the side to move, the checkers.
    #[inline(always)]
    fn finish(&mut self, rights: CastlingRights) {
        if rights != self.castling {
            self.hash ^= zobrist::castling(self.castling) ^ zobrist::castling(rights);
            self.castling = rights;
        }
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::side();
        self.update_checkers();
    }

    fn list_bitboard(&self, color: Color, roles: &[Role]) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for &role in roles {
            for &s in self.piece_list(color, role) {
                bb = bb.with(G::to_square(s));
            }
        }
        bb
    }
}

impl<G: Geometry> Board for ArrayBoard<G> {
    const NAME: &'static str = G::NAME;

    fn from_setup(setup: &Setup) -> Result<ArrayBoard<G>, PositionError> {
        let setup = validate(setup)?;
        let mut b = ArrayBoard {
            squares: G::EMPTY_ARRAY,
            list_index: G::EMPTY_LIST_INDEX,
            lists: [[[G::NO_SQUARE; LIST_CAPACITY]; 6]; 2],
            counts: [[0; 6]; 2],
            colors: [Bitboard::EMPTY; 2],
            checker_squares: [0; 2],
            checker_steps: [0; 2],
            checker_count: 0,
            hash: 0,
            turn: setup.turn,
            castling: setup.castling,
            ep: G::NO_SQUARE,
            halfmove: setup.halfmove_clock as u16,
            fullmove: setup.fullmove_number as u16,
            geometry: PhantomData,
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                b.put(p.color, code::encode(p), G::from_square(sq));
            }
        }
        if setup.turn == Color::Black {
            b.hash ^= zobrist::side();
        }
        b.hash ^= zobrist::castling(setup.castling);
        b.set_ep(setup.ep_square.map_or(G::NO_SQUARE, G::from_square));
        b.update_checkers();
        Ok(b)
    }

    #[inline(always)]
    fn piece_at(&self, sq: Square) -> Option<Piece> {
        code::decode(self.code_at(G::from_square(sq)))
    }

    fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.list_bitboard(color, &[role])
    }

    #[inline(always)]
    fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
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
        (self.ep != G::NO_SQUARE).then(|| G::to_square(self.ep))
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
        G::to_square(self.king_index(color))
    }

    #[inline(always)]
    fn checkers(&self) -> Bitboard {
        self.checker_squares()
            .iter()
            .fold(Bitboard::EMPTY, |bb, &s| bb.with(G::to_square(s)))
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        self.checker_count != 0
    }

    #[inline(always)]
    fn is_attacked(&self, sq: Square, by: Color) -> bool {
        G::attacked_on(self, &self.squares, G::from_square(sq), by, G::NO_SQUARE)
    }

    fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        G::attackers(self, sq, by, occupied)
    }

    fn play_unchecked(&mut self, mv: Move) {
        if let Some(side) = mv.castling_side() {
            // Apart, so that the common moves keep their own tight code.
            return self.play_castle(mv, side);
        }
        let us = self.turn;
        let them = !us;
        let from = G::from_square(mv.from());
        let to = G::from_square(mv.to());
        let moving = self.code_at(from);
        if moving == OFF || moving & code::color_bit(us) == 0 {
            // Not a move of this position; keep the board consistent.
            return;
        }
        self.set_ep(G::NO_SQUARE);
        self.halfmove = self.halfmove.saturating_add(1);
        let forward = us.fold(G::UP, G::UP.wrapping_neg());
        if mv.is_capture() {
            self.halfmove = 0;
            let victim = if mv.is_en_passant() {
                to.wrapping_sub(forward)
            } else {
                to
            };
            let victim_code = self.code_at(victim);
            if G::holds_code(victim)
                && victim_code != OFF
                && victim_code & code::color_bit(them) != 0
            {
                self.remove(them, victim);
            }
        }
        self.relocate(us, from, to);
        if let Some(role) = mv.promotion() {
            self.remove(us, to);
            self.put(us, code::of(us, role), to);
        }
        if mv.kind() == MoveKind::DoublePush {
            // Keep the ep square only when an enemy pawn can take on it.
            let their_pawn = code::of(them, Role::Pawn);
            let beside = |s: u8| G::holds_code(s) && self.code_at(s) == their_pawn;
            if beside(to.wrapping_add(1)) || beside(to.wrapping_sub(1)) {
                self.set_ep(to.wrapping_sub(forward));
            }
        }
        if moving & code::ROLE_MASK == code::PAWN {
            self.halfmove = 0;
        }
        let rights = self.castling.after_move(mv.from(), mv.to());
        self.finish(rights);
    }

    fn play_null(&mut self) {
        self.set_ep(G::NO_SQUARE);
        self.halfmove = self.halfmove.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::side();
        self.update_checkers();
    }
}
