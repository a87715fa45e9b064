//! At equal depth with the same leaf evaluation, minimax, alpha-beta (every
//! ordering), Scout and PVS with every feature off return the same score.

mod common;

use common::{random_game, Rng, TestEval};
use fianchetto_board::Board;
use fianchetto_movegen::MoveGen;
use fianchetto_search::alphabeta::{AlphaBeta, MoveOrdering};
use fianchetto_search::minimax::Minimax;
use fianchetto_search::pvs::{Pvs, PvsConfig};
use fianchetto_search::scout::Scout;
use fianchetto_search::{Limits, Search};

#[test]
fn all_algorithms_agree_on_random_positions() {
    let mut rng = Rng(0x5eed_f1a7);
    let mut checked = 0;
    for i in 0..60 {
        let plies = 6 + rng.below(60);
        let game = random_game(&mut rng, plies);
        if game.board().legal_moves().is_empty() {
            continue;
        }
        let depth = 2 + (i % 2) as u32;
        let limits = Limits::depth(depth);
        let reference = Minimax::new(TestEval).search(&game, &limits, &mut |_| {});
        let fen = game.board().fen();
        for ordering in [
            MoveOrdering::None,
            MoveOrdering::MvvLva,
            MoveOrdering::Killers,
        ] {
            let r = AlphaBeta::new(TestEval)
                .ordering(ordering)
                .search(&game, &limits, &mut |_| {});
            assert_eq!(
                r.score, reference.score,
                "alpha-beta {ordering:?} vs minimax at depth {depth} on {fen}"
            );
            assert!(
                r.nodes <= reference.nodes * 2,
                "alpha-beta visits fewer nodes"
            );
        }
        let r = Scout::new(TestEval).search(&game, &limits, &mut |_| {});
        assert_eq!(
            r.score, reference.score,
            "Scout vs minimax at depth {depth} on {fen}"
        );
        let r =
            Pvs::with_config(TestEval, PvsConfig::all_off()).search(&game, &limits, &mut |_| {});
        assert_eq!(
            r.score, reference.score,
            "PVS all_off vs minimax at depth {depth} on {fen}"
        );
        // PVS search structure (null windows, the staged picker with every
        // ordering heuristic, the hash move first, ID) without anything that
        // changes the tree's value must agree too.
        let exact = PvsConfig {
            pvs: true,
            iterative_deepening: true,
            tt: true,
            mvv_lva: true,
            killers: true,
            history: true,
            counter_moves: true,
            see_ordering: true,
            cont_history: true,
            capture_history: true,
            ..PvsConfig::all_off()
        };
        let r = Pvs::with_config(TestEval, exact).search(&game, &limits, &mut |_| {});
        assert_eq!(
            r.score, reference.score,
            "PVS with ordering vs minimax at depth {depth} on {fen}"
        );
        checked += 1;
    }
    assert!(checked >= 50);
}

/// `all_off` switches off every feature, the new ones included: the
/// histories' uses in reductions and pruning, the correction history and
/// the singular-extension family.
#[test]
fn all_off_is_all_off() {
    let c = PvsConfig::all_off();
    assert!(!c.cont_history && !c.capture_history && !c.history_lmr && !c.history_pruning);
    assert!(!c.correction_history && !c.singular && !c.check_extension);
    assert_eq!(c.disabled().len(), PvsConfig::FEATURES.len());
}

/// The ordering-only switches, one at a time on top of exact alpha-beta
/// (with the table's hash move), never change the score.
#[test]
fn ordering_switches_keep_the_exact_score() {
    let mut rng = Rng(0x0dde_57a7);
    for _ in 0..25 {
        let plies = 6 + rng.below(50);
        let game = random_game(&mut rng, plies);
        if game.board().legal_moves().is_empty() {
            continue;
        }
        let limits = Limits::depth(3);
        let reference =
            Pvs::with_config(TestEval, PvsConfig::all_off()).search(&game, &limits, &mut |_| {});
        for name in [
            "tt",
            "pvs",
            "mvv-lva",
            "see-ordering",
            "killers",
            "history",
            "countermove",
            "cont-history",
            "capture-history",
        ] {
            let mut c = PvsConfig::all_off();
            c.set(name, true).unwrap();
            if name != "pvs" {
                c.pvs = true;
                c.history = true;
            }
            let r = Pvs::with_config(TestEval, c).search(&game, &limits, &mut |_| {});
            assert_eq!(r.score, reference.score, "{name} on {}", game.board().fen());
        }
    }
}

/// The same search on every backend: the same score, and PVS with every
/// feature on finds the same node count on the two mailbox-style backends
/// (they generate moves in the same order).
#[test]
fn backends_agree() {
    use fianchetto_board::{Board0x88, Mailbox};
    use fianchetto_movegen::Game;
    let mut rng = Rng(0xbac0_e4d5);
    for _ in 0..12 {
        let plies = 4 + rng.below(40);
        let game = random_game(&mut rng, plies);
        if game.board().legal_moves().is_empty() {
            continue;
        }
        let fen = game.board().fen();
        let limits = Limits::depth(3);
        let on = |cfg: PvsConfig| {
            // Fresh games from the FEN: the same (empty) history everywhere.
            let g = Game::new(fianchetto_board::Bitboards::from_fen(&fen).unwrap());
            let a = Pvs::with_config(TestEval, cfg.clone()).search(&g, &limits, &mut |_| {});
            let g = Game::new(Board0x88::from_fen(&fen).unwrap());
            let b = Pvs::with_config(TestEval, cfg.clone()).search(&g, &limits, &mut |_| {});
            let g = Game::new(Mailbox::from_fen(&fen).unwrap());
            let c = Pvs::with_config(TestEval, cfg).search(&g, &limits, &mut |_| {});
            (a, b, c)
        };
        let (a, b, c) = on(PvsConfig::all_off());
        assert_eq!((a.score, b.score), (c.score, c.score), "{fen}");
        let (_, b, c) = on(PvsConfig::default());
        assert_eq!((b.nodes, b.score), (c.nodes, c.score), "{fen}");
    }
}
