//! Unit tests of the PVS search's helpers.

use super::qsearch::{QS_DEPTH_CHECKS, QS_DEPTH_NO_CHECKS};
use super::static_eval::{refine_by_table, scale_evaluation};
use super::*;
use crate::tt::Entry;
use fianchetto_board::Board;

#[test]
fn scaling_follows_material_and_the_clock() {
    let p = SearchParams::default();
    let board = |fen: &str| fianchetto_board::Bitboards::from_fen(fen).expect("test FEN");
    // Every piece: non-pawn material 2 × (2 × 450 + 2 × 450 + 2 × 650 + 1 250).
    let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(
        scale_evaluation(1_000, &start, &p),
        1_000 * (p.eval_material_base + 8_700) / 32_768
    );
    // A rook, and the clock halfway to the divisor: half of that (to
    // a unit: an odd divisor has no exact half-way clock).
    let rook = |clock: u32| board(&format!("4k3/8/8/8/8/8/8/4K2R w - - {clock} 80"));
    let full = scale_evaluation(1_000, &rook(0), &p);
    assert_eq!(full, 1_000 * (p.eval_material_base + 650) / 32_768);
    let halfway = scale_evaluation(1_000, &rook(p.eval_clock_div as u32 / 2), &p);
    assert!((halfway - full / 2).abs() <= 1, "{halfway} {full}");
}

#[test]
fn only_evaluations_that_allow_it_are_scaled() {
    /// 100 for the side to move everywhere; `.0` says whether the
    /// search may scale it.
    #[derive(Clone)]
    struct Flat(bool);
    impl<B: Board> Evaluator<B> for Flat {
        fn evaluate(&mut self, _: &B) -> Score {
            Score::cp(100)
        }
        fn search_may_scale(&self) -> bool {
            self.0
        }
    }
    let board = |clock: u32| {
        fianchetto_board::Bitboards::from_fen(&format!("4k3/8/8/8/8/8/8/4K2R w - - {clock} 80"))
            .expect("test FEN")
    };
    let game = fianchetto_movegen::Game::new(board(60));
    let score = |may_scale: bool| {
        let mut pvs = Pvs::new(Flat(may_scale));
        pvs.search(&game, &Limits::depth(1), &mut |_| {}).score
    };
    // Every position stands at 100 for its side to move; scaled, at
    // what a rook's material and a clock of 60 to 62 half-moves (the
    // root, a reply, or quiescence's answer to a check) leave of it
    // (53 or 54 with the fifth SPSA tune's numbers).
    assert_eq!(score(false).0.abs(), 100);
    let p = SearchParams::default();
    let expected = [60, 61, 62].map(|clock| scale_evaluation(100, &board(clock), &p));
    assert!(expected.iter().all(|&e| e < 90));
    let scaled = score(true);
    assert!(
        expected.contains(&scaled.0.abs()),
        "{scaled:?} {expected:?}"
    );
}

#[test]
fn table_cutoffs_respect_depth_window_and_the_fifty_move_rule() {
    let e = |bound, depth| Entry {
        mv: Move::NULL,
        score: Score::cp(50),
        eval: Score::ZERO,
        depth,
        bound,
        pv: false,
        generation: 0,
    };
    let (alpha, beta) = (Score::cp(0), Score::cp(40));
    let s = Score::cp(50);
    assert!(tt_cuts(&e(TtBound::Lower, 5), s, 5, 0, alpha, beta));
    assert!(!tt_cuts(&e(TtBound::Lower, 4), s, 5, 0, alpha, beta));
    assert!(!tt_cuts(&e(TtBound::Upper, 5), s, 5, 0, alpha, beta));
    assert!(tt_cuts(&e(TtBound::Exact, 5), s, 5, 89, alpha, beta));
    // Near the fifty-move rule no entry cuts, in either search: the
    // quiescence search took them whatever the clock.
    for depth in [QS_DEPTH_NO_CHECKS, QS_DEPTH_CHECKS, 5] {
        assert!(!tt_cuts(&e(TtBound::Exact, 9), s, depth, 90, alpha, beta));
    }
    // A quiescence result without checks does not stand in for one
    // with them.
    let qs = e(TtBound::Exact, QS_DEPTH_NO_CHECKS);
    assert!(tt_cuts(&qs, s, QS_DEPTH_NO_CHECKS, 0, alpha, beta));
    assert!(!tt_cuts(&qs, s, QS_DEPTH_CHECKS, 0, alpha, beta));
}

#[test]
fn a_table_score_refines_the_evaluation_only_in_its_bounds_direction() {
    let eval = Score::cp(20);
    let (above, below) = (Score::cp(60), Score::cp(-30));
    assert_eq!(refine_by_table(eval, TtBound::Lower, above), above);
    assert_eq!(refine_by_table(eval, TtBound::Lower, below), eval);
    assert_eq!(refine_by_table(eval, TtBound::Upper, below), below);
    assert_eq!(refine_by_table(eval, TtBound::Upper, above), eval);
    assert_eq!(refine_by_table(eval, TtBound::Exact, below), below);
    assert_eq!(refine_by_table(eval, TtBound::Exact, above), above);
    // A mate found in the table never stands in for an evaluation.
    for bound in [TtBound::Lower, TtBound::Upper, TtBound::Exact] {
        assert_eq!(refine_by_table(eval, bound, Score::mate_in(3)), eval);
        assert_eq!(refine_by_table(eval, bound, Score::mated_in(4)), eval);
    }
}
