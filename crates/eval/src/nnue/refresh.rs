//! The refresh cache (the "finny table"): for each perspective and each
//! view it can have (king bucket, mirrored or not), the last accumulator
//! computed under that view and the pieces it was computed for.
//!
//! When a king move changes its side's view, the accumulator cannot follow
//! the move: every row changes. Instead of summing the ~30 rows of the new
//! position from the biases, a refresh starts from the cached accumulator
//! of the new view and adds and removes only the pieces that differ from
//! the position it was last used for, usually a handful. The cache starts
//! as the biases of an empty board, so the first refresh of each view is
//! a full one.

use super::aligned::Aligned;
use super::network::Network;
use super::simd::{Kernels, Width};
use arrayvec::ArrayVec;
use fianchetto_board::{Bitboard, Board, Color, Piece, Role};

/// Rows per kernel call: a legal position has at most 32 pieces, so a
/// refresh is one call unless the cached position was very different.
const BATCH: usize = 32;

/// Cached accumulators: one per perspective and view, `H` values each,
/// with the piece bitboards each was computed for. Allocated once.
#[derive(Clone)]
pub(crate) struct RefreshCache {
    hidden: usize,
    views: usize,
    /// `2 × views × H` values: white's views, then black's.
    values: Aligned,
    /// The pieces behind each accumulator, by [`Piece::index`].
    boards: Vec<[u64; 12]>,
    /// Halves refreshed so far (for tests of when refreshes happen).
    #[cfg(test)]
    pub(crate) refreshes: usize,
}

impl RefreshCache {
    /// Every entry at the biases of an empty board.
    pub(crate) fn new(net: &Network) -> RefreshCache {
        let (hidden, views) = (net.hidden(), net.arch().views());
        RefreshCache {
            hidden,
            views,
            values: Aligned::from(net.ft_bias().repeat(2 * views)),
            boards: vec![[0; 12]; 2 * views],
            #[cfg(test)]
            refreshes: 0,
        }
    }

    /// Writes `perspective`'s half of `board`'s accumulator to `out` (`H`
    /// values), from the cached entry of its view, and leaves the entry
    /// describing `board`.
    pub(crate) fn refresh<B: Board, K: Kernels, W: Width>(
        &mut self,
        net: &Network,
        simd: K,
        width: W,
        perspective: Color,
        board: &B,
        out: &mut [i16],
    ) {
        let view = net
            .arch()
            .king_buckets
            .view(perspective.index(), board.king(perspective).index());
        #[cfg(test)]
        {
            self.refreshes += 1;
        }
        let slot = perspective.index() * self.views + view.id;
        let h = width.get();
        debug_assert_eq!(h, self.hidden);
        let acc = &mut self.values[slot * h..(slot + 1) * h];
        let cached = &mut self.boards[slot];
        let mut adds = ArrayVec::<&[i16], BATCH>::new();
        let mut subs = ArrayVec::<&[i16], BATCH>::new();
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                let now = board.pieces(color, role).0;
                let was = std::mem::replace(&mut cached[piece.index()], now);
                for (bits, add) in [(now & !was, true), (was & !now, false)] {
                    for sq in Bitboard(bits) {
                        if adds.is_full() || subs.is_full() {
                            // Only after a very different position.
                            simd.update(acc, None, &adds, &subs);
                            adds.clear();
                            subs.clear();
                        }
                        let side = usize::from(piece.color != perspective);
                        let index = view.index(side, piece.role.index(), sq.index());
                        let row = net.row(index, h);
                        if add {
                            adds.push(row);
                        } else {
                            subs.push(row);
                        }
                    }
                }
            }
        }
        simd.update(acc, None, &adds, &subs);
        out.copy_from_slice(acc);
    }
}
