//! Where the main thread's nodes went at the root: for each root move, the
//! nodes of its subtree in the current iteration. Time management reads the
//! best move's share (see [`crate::time::IterationTracker`]).

use fianchetto_board::Move;

/// Nodes per root move of one iteration, keyed by the move's from and to
/// squares (promotions to different pieces share a slot; that is close
/// enough for a share). Allocated once per search.
pub(crate) struct RootEffort {
    nodes: Box<[u64; 4096]>,
    total: u64,
}

impl RootEffort {
    pub fn new() -> RootEffort {
        RootEffort {
            nodes: Box::new([0; 4096]),
            total: 0,
        }
    }

    /// Forgets the counts (at the start of an iteration).
    pub fn clear(&mut self) {
        self.nodes.fill(0);
        self.total = 0;
    }

    /// Adds `nodes` spent below the root move `mv`.
    #[inline]
    pub fn add(&mut self, mv: Move, nodes: u64) {
        self.nodes[slot(mv)] += nodes;
        self.total += nodes;
    }

    /// The nodes counted below the root move `mv` this iteration.
    #[inline]
    pub fn nodes(&self, mv: Move) -> u64 {
        self.nodes[slot(mv)]
    }

    /// The share of the iteration's root nodes that went to `mv`, from 0
    /// to 1 (one half when nothing was counted).
    pub fn fraction(&self, mv: Move) -> f64 {
        if self.total == 0 {
            return 0.5;
        }
        self.nodes(mv) as f64 / self.total as f64
    }
}

#[inline]
fn slot(mv: Move) -> usize {
    mv.from().index() * 64 + mv.to().index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{MoveKind, Square};

    #[test]
    fn shares() {
        let a = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
        let b = Move::new(Square::G1, Square::F3, MoveKind::Quiet);
        let mut e = RootEffort::new();
        assert_eq!(e.fraction(a), 0.5);
        e.add(a, 300);
        e.add(b, 100);
        assert!((e.fraction(a) - 0.75).abs() < 1e-9);
        e.clear();
        assert_eq!(e.fraction(b), 0.5);
    }
}
