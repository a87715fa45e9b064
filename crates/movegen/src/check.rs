//! Whether a move gives check, found without playing it: [`gives_check`]
//! for one move, and [`CheckInfo`], computed once for a position, for its
//! many moves (the search orders and prunes by it; SAN lists mark checks
//! by it).
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_movegen::check::{gives_check, CheckInfo};
//! use fianchetto_movegen::{parse_uci, MoveGen};
//!
//! let board = Bitboards::from_fen("4k3/8/8/8/8/8/3B4/R3K3 w Q - 0 1")?;
//! let checks = CheckInfo::new(&board);
//! let ra8 = parse_uci(&board, "a1a8")?;
//! let bb4 = parse_uci(&board, "d2b4")?;
//! assert!(checks.gives_check(&board, ra8) && gives_check(&board, ra8));
//! assert!(!checks.gives_check(&board, bb4) && !gives_check(&board, bb4));
//! // Every legal move agrees with the move played.
//! for &m in &board.legal_moves() {
//!     let mut after = board.clone();
//!     after.play_unchecked(m);
//!     assert_eq!(checks.gives_check(&board, m), after.in_check());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::MoveGen;
use fianchetto_board::attacks::{
    attacks, between, bishop_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use fianchetto_board::{Bitboard, Move, Role, Square};

/// What decides whether a move gives check at one node, computed once
/// for all its moves (Stockfish's check squares and blockers): the squares
/// from which each of our roles would attack the opponent's king, and our
/// pieces that stand alone between one of our sliders and that king. A
/// move then gives check when its piece lands on a check square of its
/// role, or when it uncovers a slider by leaving the line to the king.
/// Castling, en passant and promotions ask [`gives_check`].
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The opponent's king.
    king: Square,
    /// By [`Role::index`]: squares from which such a piece of ours checks.
    squares: [Bitboard; 6],
    /// Our pieces whose leaving the king's line discovers a check.
    discoverers: Bitboard,
    /// Every role's check squares together: a plain move landing outside
    /// them, by a piece that discovers nothing, gives no check (most quiet
    /// moves are rejected by this one test).
    any_square: Bitboard,
}

impl CheckInfo {
    /// The check squares and discoverers of the side to move in `board`.
    #[inline]
    pub fn new<B: MoveGen>(board: &B) -> CheckInfo {
        let us = board.turn();
        let them = !us;
        let king = board.king(them);
        let occupied = board.occupied();
        let bishop = bishop_attacks(king, occupied);
        let rook = rook_attacks(king, occupied);
        let squares = [
            pawn_attacks(them, king),
            knight_attacks(king),
            bishop,
            rook,
            bishop | rook,
            Bitboard::EMPTY,
        ];
        let queens = board.pieces(us, Role::Queen);
        let snipers = (bishop_attacks(king, Bitboard::EMPTY)
            & (board.pieces(us, Role::Bishop) | queens))
            | (rook_attacks(king, Bitboard::EMPTY) & (board.pieces(us, Role::Rook) | queens));
        let ours = board.by_color(us);
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.count() == 1 && (blockers & ours).any() {
                discoverers |= blockers;
            }
        }
        CheckInfo {
            king,
            squares,
            discoverers,
            any_square: squares.iter().fold(Bitboard::EMPTY, |u, &s| u | s),
        }
    }

    /// Whether the legal move `mv` gives check (the same answer as
    /// [`gives_check`], which a test compares on many positions).
    #[inline]
    pub fn gives_check<B: MoveGen>(&self, board: &B, mv: Move) -> bool {
        if mv.is_castle() || mv.is_en_passant() || mv.is_promotion() {
            return gives_check(board, mv);
        }
        let (from, to) = (mv.from(), mv.to());
        if !self.any_square.contains(to) && !self.discoverers.contains(from) {
            return false;
        }
        let Some(piece) = board.piece_at(from) else {
            return false;
        };
        self.squares[piece.role.index()].contains(to)
            || (self.discoverers.contains(from) && !line(from, self.king).contains(to))
    }
}

/// Whether the legal move `mv` gives check, decided without playing it
/// (direct and discovered checks; castling played on a copy).
pub fn gives_check<B: MoveGen>(board: &B, mv: Move) -> bool {
    if mv.is_castle() {
        let mut next = board.clone();
        next.play_unchecked(mv);
        return next.in_check();
    }
    let us = board.turn();
    let Some(piece) = board.piece_at(mv.from()) else {
        return false;
    };
    let king = board.king(!us);
    let (from, to) = (mv.from(), mv.to());
    let mut after = board.occupied().without(from).with(to);
    if mv.is_en_passant() {
        if let Some(victim) = Square::new(((from.index() & !7) | (to.index() & 7)) as u8) {
            after = after.without(victim);
        }
    }
    let role = mv.promotion().unwrap_or(piece.role);
    if attacks(role, us, to, after).contains(king) {
        return true;
    }
    let diagonal = (board.pieces(us, Role::Bishop) | board.pieces(us, Role::Queen)).without(from);
    let straight = (board.pieces(us, Role::Rook) | board.pieces(us, Role::Queen)).without(from);
    (bishop_attacks(king, after) & diagonal).any() || (rook_attacks(king, after) & straight).any()
}
