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
use super::simd::Simd;
use fianchetto_board::{Board, Color, Piece, Role, Square};

/// The most pieces a [`Delta`] adds, and the most it removes. A legal move
/// needs two of each at most (castling: king and rook; a capture removes the
/// mover's old square and the captured piece).
pub(crate) const MAX_CHANGES: usize = 4;

/// A piece on a square.
type Placed = (Piece, Square);

const NONE: Placed = (Piece::new(Color::White, Role::Pawn), Square::A1);

/// What changed between two positions: the pieces that appeared and the
/// ones that went away. Fixed size, so a stack of them allocates nothing;
/// independent of any perspective's view, so a king move that changes a
/// view still records only the pieces that moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Delta {
    added: [Placed; MAX_CHANGES],
    removed: [Placed; MAX_CHANGES],
    n_added: u8,
    n_removed: u8,
}

impl Delta {
    /// The difference from `before` to `after`, found by comparing their
    /// piece bitboards: it needs no knowledge of the move (quiet, capture,
    /// castling, en passant, promotion, null, any castling encoding).
    /// `None` when more than [`MAX_CHANGES`] pieces appear or go away
    /// (positions that are not one move apart).
    pub(crate) fn between<B: Board>(before: &B, after: &B) -> Option<Delta> {
        let mut delta = Delta {
            added: [NONE; MAX_CHANGES],
            removed: [NONE; MAX_CHANGES],
            n_added: 0,
            n_removed: 0,
        };
        for color in Color::ALL {
            for role in Role::ALL {
                let (was, is) = (before.pieces(color, role), after.pieces(color, role));
                let changed = was ^ is;
                if changed.is_empty() {
                    continue;
                }
                let piece = Piece::new(color, role);
                for sq in changed & was {
                    let slot = delta.removed.get_mut(delta.n_removed as usize)?;
                    *slot = (piece, sq);
                    delta.n_removed += 1;
                }
                for sq in changed & is {
                    let slot = delta.added.get_mut(delta.n_added as usize)?;
                    *slot = (piece, sq);
                    delta.n_added += 1;
                }
            }
        }
        Some(delta)
    }

    fn added(&self) -> &[Placed] {
        &self.added[..self.n_added as usize]
    }

    fn removed(&self) -> &[Placed] {
        &self.removed[..self.n_removed as usize]
    }

    /// `child = parent + delta` for one perspective's half (`H` values
    /// each), reading the rows through `view`.
    #[inline]
    pub(crate) fn apply(
        &self,
        net: &Network,
        simd: Simd,
        perspective: Color,
        view: View,
        parent: &[i16],
        child: &mut [i16],
    ) {
        let (mut adds, mut subs): ([&[i16]; MAX_CHANGES], [&[i16]; MAX_CHANGES]) =
            ([&[]; MAX_CHANGES], [&[]; MAX_CHANGES]);
        for (row, &(piece, sq)) in adds.iter_mut().zip(self.added()) {
            *row = net.piece_row(view, perspective, piece, sq);
        }
        for (row, &(piece, sq)) in subs.iter_mut().zip(self.removed()) {
            *row = net.piece_row(view, perspective, piece, sq);
        }
        let (adds, subs) = (&adds[..self.added().len()], &subs[..self.removed().len()]);
        simd.update(child, Some(parent), adds, subs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Bitboards;
    use fianchetto_movegen::parse_uci;

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
}
