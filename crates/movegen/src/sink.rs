//! Where generated moves go. A generator reports moves in sets (one piece's
//! targets, or every pawn making the same step); a [`Sink`] either expands
//! them into a move list or just counts them, which makes the last ply of a
//! bulk-counting perft a handful of popcounts.

use crate::MoveList;
use fianchetto_board::{Bitboard, Move, MoveKind, Role, Square};

/// Receives moves from a generator.
pub trait Sink {
    /// The piece on `from` moves to each square of `to`; those in `theirs`
    /// are captures.
    fn piece_moves(&mut self, from: Square, to: Bitboard, theirs: Bitboard);
    /// For each square in `to`, the pawn `delta` squares behind it moves there
    /// with `kind` (quiet, double push or capture; never a promotion).
    fn pawn_moves(&mut self, to: Bitboard, delta: i8, kind: MoveKind);
    /// As `pawn_moves`, but each move is four promotions.
    fn pawn_promotions(&mut self, to: Bitboard, delta: i8, capture: bool);
    /// One fully described move (castling, en passant, pinned pawns).
    fn single(&mut self, mv: Move);
}

/// Counts moves without listing them.
#[derive(Default, Debug, Clone, Copy)]
pub struct CountSink(pub u64);

impl Sink for CountSink {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, to: Bitboard, _theirs: Bitboard) {
        self.0 += to.count() as u64;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, to: Bitboard, _delta: i8, _kind: MoveKind) {
        self.0 += to.count() as u64;
    }
    #[inline(always)]
    fn pawn_promotions(&mut self, to: Bitboard, _delta: i8, _capture: bool) {
        self.0 += 4 * to.count() as u64;
    }
    #[inline(always)]
    fn single(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// Appends moves to a [`MoveList`].
pub struct ListSink<'a>(pub &'a mut MoveList);

const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Knight, Role::Rook, Role::Bishop];

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, to: Bitboard, theirs: Bitboard) {
        for sq in to {
            let kind = if theirs.contains(sq) { MoveKind::Capture } else { MoveKind::Quiet };
            // A position has at most 218 legal moves, below the list's 256.
            let _ = self.0.try_push(Move::new(from, sq, kind));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, to: Bitboard, delta: i8, kind: MoveKind) {
        for sq in to {
            let from = Square::from_index_wrapping((sq.index() as isize - delta as isize) as usize);
            let _ = self.0.try_push(Move::new(from, sq, kind));
        }
    }
    #[inline(always)]
    fn pawn_promotions(&mut self, to: Bitboard, delta: i8, capture: bool) {
        for sq in to {
            let from = Square::from_index_wrapping((sq.index() as isize - delta as isize) as usize);
            for role in PROMOTIONS {
                if let Some(kind) = MoveKind::promotion(role, capture) {
                    let _ = self.0.try_push(Move::new(from, sq, kind));
                }
            }
        }
    }
    #[inline(always)]
    fn single(&mut self, mv: Move) {
        let _ = self.0.try_push(mv);
    }
}
