//! The `Evaluator` trait: what every evaluation offers a search.

use crate::score::Score;
use fianchetto_board::{Board, Move};

/// A static evaluation of positions of backend `B`.
///
/// Searches call [`push`](Evaluator::push) after every move they make and
/// [`pop`](Evaluator::pop) when they take it back, so that incremental
/// evaluators (NNUE accumulators, pawn-hash caches) can follow the tree; the
/// defaults do nothing, so plain evaluators pay nothing for it.
pub trait Evaluator<B: Board>: Send {
    /// The score of `board` for the side to move, in centipawns.
    fn evaluate(&mut self, board: &B) -> Score;

    /// The search played `mv`, going from `before` to `after`.
    fn push(&mut self, _before: &B, _mv: Move, _after: &B) {}

    /// The search took back the last pushed move.
    fn pop(&mut self) {}

    /// A new search starts at `root`: drop any incremental state.
    fn reset(&mut self, _root: &B) {}

    /// Whether a search may scale this evaluation by the material left and
    /// damp it as the half-move clock runs (PVS's `search-extras`). Networks
    /// trained on search scores know neither and gain by it; a hand-crafted
    /// evaluation with its own endgame terms keeps its scale (the damping
    /// costs a few centipawns a ply, more than the classical evaluation's
    /// gradient towards the mating corner with king, bishop and knight).
    fn search_may_scale(&self) -> bool {
        false
    }
}

impl<B: Board, E: Evaluator<B> + ?Sized> Evaluator<B> for Box<E> {
    fn evaluate(&mut self, board: &B) -> Score {
        (**self).evaluate(board)
    }
    fn push(&mut self, before: &B, mv: Move, after: &B) {
        (**self).push(before, mv, after)
    }
    fn pop(&mut self) {
        (**self).pop()
    }
    fn reset(&mut self, root: &B) {
        (**self).reset(root)
    }
    fn search_may_scale(&self) -> bool {
        (**self).search_may_scale()
    }
}
