//! When a search on a clock stops: the time manager's optimum scaled by
//! how the root's visits are spread, or earlier once the move to play
//! cannot change.

use super::tree::Tree;
use super::{collect, RootChild};
use crate::time::TimeManager;
use std::time::Duration;

/// On a clock, the time manager's optimum is scaled by how much of the
/// root's visits its most visited move holds: the scale is
/// `SHARE_SCALE_AT_PIVOT` at a share of `SHARE_PIVOT` and falls by
/// `SHARE_SCALE_SLOPE` per unit of share above it, within
/// `SHARE_SCALE_MIN..=SHARE_SCALE_MAX`. A clear favourite ends the search
/// early; a close choice gets more time (never past the hard deadline).
const SHARE_PIVOT: f64 = 0.6;
const SHARE_SCALE_AT_PIVOT: f64 = 1.1;
const SHARE_SCALE_SLOPE: f64 = 1.5;
const SHARE_SCALE_MIN: f64 = 0.5;
const SHARE_SCALE_MAX: f64 = 1.8;

/// The optimum's scale for a most visited root move holding `share` of
/// the visits (see [`SHARE_PIVOT`]).
fn share_scale(share: f64) -> f64 {
    (SHARE_SCALE_AT_PIVOT + SHARE_SCALE_SLOPE * (SHARE_PIVOT - share))
        .clamp(SHARE_SCALE_MIN, SHARE_SCALE_MAX)
}

/// Whether a search on a clock should stop after `done` playouts: at the
/// time manager's optimum scaled by the best move's share of the visits
/// ([`share_scale`]), or before it (`stop_early`) once the move to play is
/// [`decided`] among the root moves of `trees` (merged into `scratch`).
/// Never without a clock: no optimum then, or a fixed time.
pub(super) fn time_is_up(
    time: &TimeManager,
    trees: &[Tree],
    stop_early: bool,
    done: u64,
    scratch: &mut Vec<RootChild>,
) -> bool {
    // No optimum (no clock, or a fixed move time): only the hard deadline
    // stops the search, and the root's moves need not be read.
    if time.soft_target(1.0).is_none() {
        return false;
    }
    scratch.clear();
    for tree in trees {
        collect(tree, 0, scratch);
    }
    let (best, total) = scratch.iter().fold((0, 0), |(best, total), c| {
        (best.max(c.visits), total + c.visits)
    });
    let share = if total > 0 {
        best as f64 / total as f64
    } else {
        SHARE_PIVOT
    };
    let Some(target) = time.soft_target(share_scale(share)) else {
        return false;
    };
    let elapsed = time.elapsed();
    if elapsed >= target {
        return true;
    }
    stop_early && decided(scratch, done, elapsed, target - elapsed)
}

/// Whether the most visited of the root moves `children` is sure to stay
/// so: the playouts the time `left` is expected to hold (at the rate of
/// `done` playouts in `elapsed`) could not lift the second one past it
/// even if they all went there. A proven move leaves the choice to the
/// solver.
fn decided(children: &[RootChild], done: u64, elapsed: Duration, left: Duration) -> bool {
    let (mut first, mut second) = (0u64, 0u64);
    for child in children {
        if child.proven.is_some() {
            return false;
        }
        if child.visits > first {
            second = first;
            first = child.visits;
        } else if child.visits > second {
            second = child.visits;
        }
    }
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-3);
    (first - second) as f64 > rate * left.as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Instant;
    use crate::Limits;
    use fianchetto_board::Move;
    use fianchetto_eval::Score;

    #[test]
    fn a_root_move_is_decided_when_the_time_left_cannot_overtake_it() {
        use fianchetto_board::{MoveKind, Square};
        let tree = Tree::new(16);
        let ms = Duration::from_millis;
        let decided = |done, elapsed, left| {
            let mut children = Vec::new();
            collect(&tree, 0, &mut children);
            decided(&children, done, elapsed, left)
        };
        // No children yet: nothing is decided.
        assert!(!decided(1_000, ms(100), ms(100)));
        let a = Move::new(Square::E2, Square::E4, MoveKind::Quiet);
        let b = Move::new(Square::D2, Square::D4, MoveKind::Quiet);
        let c = Move::new(Square::G1, Square::F3, MoveKind::Quiet);
        let _ = tree.expand(0, &[(a, 0.4), (b, 0.4), (c, 0.2)]);
        for _ in 0..300 {
            tree.node(1).update(0.5, 0);
        }
        for _ in 0..100 {
            tree.node(2).update(0.5, 0);
        }
        tree.node(3).update(0.5, 0);
        // 400 playouts in 100 ms: 4 a millisecond. The lead is 200.
        assert!(decided(400, ms(100), ms(49)));
        assert!(!decided(400, ms(100), ms(50)));
        // The lead is what counts, whichever child holds it.
        for _ in 0..250 {
            tree.node(3).update(0.5, 0);
        }
        assert!(!decided(400, ms(100), ms(13)));
        assert!(decided(400, ms(100), ms(12)));
        // A proven move leaves the choice to the solver.
        tree.node(2).set_proven(Score::mate_in(3));
        assert!(!decided(400, ms(100), Duration::ZERO));
    }

    #[test]
    fn a_clear_favourite_shortens_the_time_a_close_choice_lengthens_it() {
        assert_eq!(share_scale(SHARE_PIVOT), SHARE_SCALE_AT_PIVOT);
        assert!(share_scale(0.9) < share_scale(0.6));
        assert!(share_scale(0.3) > share_scale(0.6));
        assert_eq!(share_scale(1.0), SHARE_SCALE_MIN);
        assert_eq!(share_scale(0.0), SHARE_SCALE_MAX);
        // On a clock, at the optimum: a search whose most visited move
        // holds every visit stops, one split three ways goes on.
        use fianchetto_board::{MoveKind, Square};
        let tree = Tree::new(16);
        let moves = [
            Move::new(Square::E2, Square::E4, MoveKind::Quiet),
            Move::new(Square::D2, Square::D4, MoveKind::Quiet),
            Move::new(Square::G1, Square::F3, MoveKind::Quiet),
        ];
        let _ = tree.expand(0, &[(moves[0], 0.4), (moves[1], 0.4), (moves[2], 0.2)]);
        let clock = Limits {
            wtime: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let white = fianchetto_board::Color::White;
        let optimum = TimeManager::new(&clock, white).soft().unwrap_or_default();
        let at_optimum = TimeManager::starting_at(&clock, white, Instant::now() - optimum);
        let mut scratch = Vec::new();
        let trees = std::slice::from_ref(&tree);
        for _ in 0..100 {
            tree.node(1).update(0.5, 0);
        }
        assert!(time_is_up(&at_optimum, trees, false, 100, &mut scratch));
        for _ in 0..100 {
            tree.node(2).update(0.5, 0);
            tree.node(3).update(0.5, 0);
        }
        assert!(!time_is_up(&at_optimum, trees, false, 300, &mut scratch));
        // A fixed move time or no clock: never stopped by the share.
        let fixed = TimeManager::new(
            &Limits {
                movetime: Some(Duration::from_millis(1)),
                ..Limits::default()
            },
            white,
        );
        std::thread::sleep(Duration::from_millis(2));
        assert!(!time_is_up(&fixed, trees, true, 300, &mut scratch));
        let unlimited = TimeManager::new(&Limits::default(), white);
        assert!(!time_is_up(&unlimited, trees, true, 300, &mut scratch));
    }
}
