//! One accumulator: the hidden layer's input for both perspectives, built
//! from scratch ([`refresh`]) or from its parent and a [`Delta`] ([`apply`]).
//!
//! An accumulator is `2 × H` values: white's perspective, then black's.

use super::network::{feature, Network};
use super::simd::Kernels;
use arrayvec::ArrayVec;
use fianchetto_board::{Board, Color, Piece, Role, Square};

/// The most features a [`Delta`] adds, and the most it removes. A legal move
/// needs two of each at most (castling: king and rook; a capture removes the
/// mover's old square and the captured piece).
pub(crate) const MAX_CHANGES: usize = 4;

/// Rows summed per kernel call in a refresh: a legal position has at most
/// 32 pieces, so this is one call per perspective.
const REFRESH_BATCH: usize = 32;

/// A feature as both perspectives see it: `[white's index, black's index]`.
type Feature = [u16; 2];

/// Both perspectives' index of `piece` on `sq`.
fn features(piece: Piece, sq: Square) -> Feature {
    // Feature indices are below INPUTS = 768, so they fit a u16.
    [
        feature(Color::White, piece, sq) as u16,
        feature(Color::Black, piece, sq) as u16,
    ]
}

/// What changed between two positions: the features that appeared and the
/// ones that went away. Fixed size, so a stack of them allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Delta {
    added: [Feature; MAX_CHANGES],
    removed: [Feature; MAX_CHANGES],
    n_added: u8,
    n_removed: u8,
}

impl Delta {
    /// The difference from `before` to `after`, found by comparing their
    /// piece bitboards: it needs no knowledge of the move (quiet, capture,
    /// castling, en passant, promotion, null, any castling encoding).
    /// `None` when more than [`MAX_CHANGES`] features appear or go away
    /// (positions that are not one move apart): refresh instead.
    pub(crate) fn between<B: Board>(before: &B, after: &B) -> Option<Delta> {
        let mut delta = Delta {
            added: [[0; 2]; MAX_CHANGES],
            removed: [[0; 2]; MAX_CHANGES],
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
                    *slot = features(piece, sq);
                    delta.n_removed += 1;
                }
                for sq in changed & is {
                    let slot = delta.added.get_mut(delta.n_added as usize)?;
                    *slot = features(piece, sq);
                    delta.n_added += 1;
                }
            }
        }
        Some(delta)
    }

    fn added(&self) -> &[Feature] {
        &self.added[..self.n_added as usize]
    }

    fn removed(&self) -> &[Feature] {
        &self.removed[..self.n_removed as usize]
    }
}

/// The accumulator of `board` from scratch: biases plus one row per piece,
/// for each perspective. `acc` holds `2 × H` values.
pub(crate) fn refresh<B: Board>(net: &Network, kernels: Kernels, board: &B, acc: &mut [i16]) {
    let (white, black) = acc.split_at_mut(net.hidden());
    for (perspective, half) in [(Color::White, white), (Color::Black, black)] {
        let mut rows = ArrayVec::<&[i16], REFRESH_BATCH>::new();
        // The first batch starts from the biases, later ones (only for a
        // board with more than 32 pieces) from what is already summed.
        let mut base = Some(net.ft_bias());
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                for sq in board.pieces(color, role) {
                    if rows.is_full() {
                        kernels.update(half, base.take(), &rows, &[]);
                        rows.clear();
                    }
                    rows.push(net.row(feature(perspective, piece, sq)));
                }
            }
        }
        kernels.update(half, base, &rows, &[]);
    }
}

/// `child = parent + delta`, both `2 × H` values.
pub(crate) fn apply(
    net: &Network,
    kernels: Kernels,
    delta: &Delta,
    parent: &[i16],
    child: &mut [i16],
) {
    let h = net.hidden();
    for (p, (from, to)) in parent
        .chunks_exact(h)
        .zip(child.chunks_exact_mut(h))
        .enumerate()
    {
        let (mut adds, mut subs): ([&[i16]; MAX_CHANGES], [&[i16]; MAX_CHANGES]) =
            ([&[]; MAX_CHANGES], [&[]; MAX_CHANGES]);
        for (row, f) in adds.iter_mut().zip(delta.added()) {
            *row = net.row(usize::from(f[p]));
        }
        for (row, f) in subs.iter_mut().zip(delta.removed()) {
            *row = net.row(usize::from(f[p]));
        }
        let (adds, subs) = (&adds[..delta.added().len()], &subs[..delta.removed().len()]);
        kernels.update(to, Some(from), adds, subs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Bitboards;
    use fianchetto_movegen::parse_uci;

    /// The delta of `uci` (or of a null move for `"0000"`) from `fen`, as
    /// (features added, features removed).
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
