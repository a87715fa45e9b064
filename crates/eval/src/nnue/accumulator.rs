//! What changed between two positions ([`Delta`]), and how one
//! perspective's accumulator follows it ([`Delta::apply`]).
//!
//! An accumulator is `2 × H` values: white's perspective, then black's.
//! Each half is the feature biases plus the rows of the pieces on the
//! board, read through that perspective's [`View`] (its king bucket and
//! mirroring). For a fixed view this sum is linear in the set of pieces, so
//! a parent's half plus a delta's rows, read through the same view, is the
//! child's half, whatever moves were made in between.

use super::arch::View;
use super::network::Network;
use super::simd::{Kernels, Width};
use fianchetto_board::{Board, Color, Piece, Role, Square};

/// The most pieces a [`Delta`] adds, and the most it removes. A legal move
/// needs two of each at most (castling: king and rook; a capture removes the
/// mover's old square and the captured piece, en passant too).
pub(crate) const MAX_CHANGES: usize = 2;

/// A piece on a square as both perspectives see it before their view is
/// applied: for each perspective, `side × 384 + role × 64 + square` (side
/// 0 for the perspective's own pieces, the real board's square). A view
/// turns it into a feature row with one XOR (its flip and mirror only
/// touch the square's six bits) and one add (its bucket's first row):
/// [`View::row_of`].
type Placed = [u16; 2];

/// The two perspectives' codes of `piece` on `sq`.
#[inline(always)]
fn placed(piece: Piece, sq: Square) -> Placed {
    let rest = (piece.role.index() * 64 + sq.index()) as u16;
    match piece.color {
        Color::White => [rest, 384 + rest],
        Color::Black => [384 + rest, rest],
    }
}

impl View {
    /// The feature row of a piece coded `code` for this view's
    /// perspective (see [`Placed`]).
    #[inline(always)]
    fn row_of(self, code: u16) -> usize {
        self.base + (usize::from(code) ^ self.xor)
    }
}

/// What changed between two positions: the pieces that appeared and the
/// ones that went away. Fixed size (a few bytes), so a stack of them
/// allocates nothing; independent of any perspective's view, so a king
/// move that changes a view still records only the pieces that moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Delta {
    added: [Placed; MAX_CHANGES],
    removed: [Placed; MAX_CHANGES],
    n_added: u8,
    n_removed: u8,
}

impl Delta {
    /// No change (a null move).
    pub(crate) const NONE: Delta = Delta {
        added: [[0; 2]; MAX_CHANGES],
        removed: [[0; 2]; MAX_CHANGES],
        n_added: 0,
        n_removed: 0,
    };

    /// The difference from `before` to `after`, found by comparing the
    /// boards: it needs no knowledge of the move (quiet, capture, castling,
    /// en passant, promotion, null, any castling encoding). A square's
    /// content changed exactly where its white bit or one of its six role
    /// bits did, so seven bitboard comparisons find every changed square,
    /// and the pieces there are looked up. `None` when more than
    /// [`MAX_CHANGES`] pieces appear or go away (positions that are not one
    /// move apart).
    #[inline]
    pub(crate) fn between<B: Board>(before: &B, after: &B) -> Option<Delta> {
        let mut changed = before.by_color(Color::White) ^ after.by_color(Color::White);
        for role in Role::ALL {
            changed |= before.by_role(role) ^ after.by_role(role);
        }
        let mut delta = Delta::NONE;
        for sq in changed {
            if let Some(piece) = before.piece_at(sq) {
                let slot = delta.removed.get_mut(delta.n_removed as usize)?;
                *slot = placed(piece, sq);
                delta.n_removed += 1;
            }
            if let Some(piece) = after.piece_at(sq) {
                let slot = delta.added.get_mut(delta.n_added as usize)?;
                *slot = placed(piece, sq);
                delta.n_added += 1;
            }
        }
        Some(delta)
    }

    #[cfg(test)]
    fn added(&self) -> &[Placed] {
        &self.added[..self.n_added as usize]
    }

    #[cfg(test)]
    fn removed(&self) -> &[Placed] {
        &self.removed[..self.n_removed as usize]
    }

    /// `child = parent + delta` for one perspective's half (`H` values
    /// each), reading the rows through `view`. The shapes moves produce
    /// (one piece in and one out, one in and two out, two and two, none)
    /// each have their own kernel call with the row count fixed.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn apply<K: Kernels, W: Width>(
        &self,
        net: &Network,
        simd: K,
        width: W,
        perspective: Color,
        view: View,
        parent: &[i16],
        child: &mut [i16],
    ) {
        let p = perspective.index();
        let h = width.get();
        let add = |i: usize| net.row(view.row_of(self.added[i][p]), h);
        let sub = |i: usize| net.row(view.row_of(self.removed[i][p]), h);
        match (self.n_added, self.n_removed) {
            (1, 1) => simd.update_fixed(child, parent, [add(0)], [sub(0)]),
            (1, 2) => simd.update_fixed(child, parent, [add(0)], [sub(0), sub(1)]),
            (2, 2) => simd.update_fixed(child, parent, [add(0), add(1)], [sub(0), sub(1)]),
            (0, 0) => child.copy_from_slice(parent),
            (a, r) => {
                // Positions a legal move does not join (the counts are at
                // most MAX_CHANGES).
                let mut adds: [&[i16]; MAX_CHANGES] = [&[]; MAX_CHANGES];
                let mut subs: [&[i16]; MAX_CHANGES] = [&[]; MAX_CHANGES];
                for (i, row) in adds.iter_mut().enumerate().take(a.into()) {
                    *row = add(i);
                }
                for (i, row) in subs.iter_mut().enumerate().take(r.into()) {
                    *row = sub(i);
                }
                let (adds, subs) = (&adds[..a.into()], &subs[..r.into()]);
                simd.update(child, Some(parent), adds, subs);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, CastlingMode};
    use fianchetto_movegen::{parse_uci, MoveGen};

    /// The delta of `uci` (or of a null move for `"0000"`) from `fen`, as
    /// (pieces added, pieces removed).
    fn counts(fen: &str, uci: &str) -> (usize, usize) {
        let before = Bitboards::from_fen(fen).expect("test FEN");
        let mut after = before.clone();
        if uci == "0000" {
            after.play_null();
        } else {
            after.play_unchecked(parse_uci(&before, uci).expect("legal test move"));
        }
        let d = Delta::between(&before, &after).expect("one move fits a delta");
        (d.added().len(), d.removed().len())
    }

    #[test]
    fn deltas_of_every_kind_of_move() {
        let castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(counts(castles, "e1g1"), (2, 2));
        assert_eq!(counts(castles, "e1c1"), (2, 2));
        assert_eq!(counts(castles, "a1a8"), (1, 2));
        assert_eq!(counts(fianchetto_board::START_FEN, "g1f3"), (1, 1));
        assert_eq!(counts(fianchetto_board::START_FEN, "0000"), (0, 0));
        let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(counts(ep, "e5d6"), (1, 2));
        let promo = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(counts(promo, "a7a8n"), (1, 1));
        assert_eq!(counts(promo, "a7b8q"), (1, 2));

        // Two positions far apart do not fit: the caller refreshes.
        let before = Bitboards::startpos();
        let after = Bitboards::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").expect("legal");
        assert_eq!(Delta::between(&before, &after), None);
    }

    #[test]
    fn chess960_castling_that_swaps_king_and_rook_is_seen() {
        // King f1, rook g1: castling short puts the king on g1 and the rook
        // on f1, so white's squares stay the same and only the roles swap.
        let fen = "4k3/8/8/8/8/8/8/5KR1 w G - 0 1";
        let before =
            Bitboards::from_fen_with(fen, CastlingMode::Chess960).expect("Chess960 test FEN");
        let mv = before
            .legal_moves()
            .into_iter()
            .find(|m| m.is_castle())
            .expect("castling is legal here");
        let mut after = before.clone();
        after.play_unchecked(mv);
        assert_eq!(before.by_color(Color::White), after.by_color(Color::White));
        let d = Delta::between(&before, &after).expect("one move fits a delta");
        assert_eq!((d.added().len(), d.removed().len()), (2, 2));
        let king = Piece::new(Color::White, Role::King);
        let rook = Piece::new(Color::White, Role::Rook);
        let mut added = d.added().to_vec();
        added.sort_unstable();
        let mut expect = vec![placed(king, Square::G1), placed(rook, Square::F1)];
        expect.sort_unstable();
        assert_eq!(added, expect);
    }
}
