//! What one search thread learns about moves as it searches: how each move
//! (by side, from- and to-square) fares against what its side expected at
//! the node it was played from. PUCT's priors read it, so that a move that
//! did well elsewhere in the tree is tried early at a new node: the history
//! heuristic of alpha-beta, read by a policy.

use fianchetto_board::{Color, Move};

/// How fast a move's history follows its results: each result moves it
/// this fraction of the way (a running mean over about the last 50).
const HISTORY_RATE: f32 = 0.02;

/// The history of every move for both sides, by [`MoveHistory::index`].
#[derive(Debug)]
pub(crate) struct MoveHistory {
    table: Box<[f32]>,
}

impl MoveHistory {
    /// A history that knows nothing yet (every move at 0).
    pub fn new() -> MoveHistory {
        MoveHistory {
            table: vec![0.0; 2 << 12].into_boxed_slice(),
        }
    }

    /// `mv`'s slot for `color`.
    #[inline]
    fn index(color: Color, mv: Move) -> usize {
        (color.index() << 12) | (mv.from().index() << 6) | mv.to().index()
    }

    /// Records that `mv`, played by `color`, led to `result` where its side
    /// expected `expected` (both win probabilities for `color`).
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, result: f64, expected: f64) {
        let h = &mut self.table[Self::index(color, mv)];
        *h += HISTORY_RATE * ((result - expected) as f32 - *h);
    }

    /// `mv`'s history for `color`: how much better than expected it has
    /// done, on average over its last results (0 when never played).
    #[inline]
    pub fn get(&self, color: Color, mv: Move) -> f32 {
        self.table[Self::index(color, mv)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{MoveKind, Square};

    #[test]
    fn a_move_s_history_follows_its_results_against_what_was_expected() {
        let mut h = MoveHistory::new();
        let e4 = Move::new(Square::E2, Square::E4, MoveKind::Quiet);
        let d4 = Move::new(Square::D2, Square::D4, MoveKind::Quiet);
        assert_eq!(h.get(Color::White, e4), 0.0);
        for _ in 0..1000 {
            h.update(Color::White, e4, 0.7, 0.5);
            h.update(Color::White, d4, 0.4, 0.5);
        }
        // A running mean: it settles at the results' lead over expectation.
        assert!((h.get(Color::White, e4) - 0.2).abs() < 1e-3);
        assert!((h.get(Color::White, d4) + 0.1).abs() < 1e-3);
        // The same squares for the other side are another move.
        assert_eq!(h.get(Color::Black, e4), 0.0);
        // Recent results weigh most: a few bad ones pull it down.
        for _ in 0..50 {
            h.update(Color::White, e4, 0.3, 0.5);
        }
        assert!(h.get(Color::White, e4) < 0.0);
    }
}
