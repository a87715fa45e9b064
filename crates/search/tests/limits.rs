//! Every algorithm honours every limit: depth, nodes, time, the stop flag,
//! searchmoves; and reports one `Info` per completed iteration.

mod common;

use common::TestEval;
use fianchetto_board::{Bitboards, Board};
use fianchetto_movegen::MoveGen;
use fianchetto_movegen::{parse_uci, Game};
use fianchetto_search::alphabeta::AlphaBeta;
use fianchetto_search::minimax::Minimax;
use fianchetto_search::pvs::{Pvs, PvsConfig};
use fianchetto_search::scout::Scout;
use fianchetto_search::{Limits, Search};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn algorithms() -> Vec<Box<dyn Search<Bitboards>>> {
    vec![
        Box::new(Minimax::new(TestEval)),
        Box::new(AlphaBeta::new(TestEval)),
        Box::new(Scout::new(TestEval)),
        Box::new(Pvs::new(TestEval)),
        Box::new(Pvs::with_config(
            TestEval,
            PvsConfig {
                threads: 2,
                ..PvsConfig::default()
            },
        )),
    ]
}

fn kiwipete() -> Game<Bitboards> {
    Game::new(Bitboards::from_fen(KIWIPETE).unwrap())
}

#[test]
fn depth_limit_and_reports() {
    for mut algo in algorithms() {
        let mut depths = Vec::new();
        let r = algo.search(&kiwipete(), &Limits::depth(3), &mut |info| {
            if info.bound == fianchetto_search::Bound::Exact {
                depths.push(info.depth);
                assert!(!info.pv.is_empty());
                assert!(info.to_uci().starts_with("info depth"));
            }
        });
        assert_eq!(r.depth, 3, "{}", algo.name());
        assert_eq!(depths, vec![1, 2, 3], "{}", algo.name());
        assert_eq!(r.best_move, r.pv.first().copied());
        assert_eq!(r.ponder, r.pv.get(1).copied());
        assert!(r.nodes > 0 && r.evals > 0);
    }
}

#[test]
fn node_limit() {
    for mut algo in algorithms() {
        let r = algo.search(&kiwipete(), &Limits::nodes(20_000), &mut |_| {});
        assert!(r.best_move.is_some(), "{}", algo.name());
        // Helper threads may overshoot by their unpublished nodes.
        assert!(
            r.nodes <= 20_000 + 4_096,
            "{}: {} nodes",
            algo.name(),
            r.nodes
        );
    }
}

/// PVS finishes its first iteration whatever the node limit: a search cut
/// inside depth 1 would answer with the first legal move, not a searched one.
#[test]
fn pvs_node_limit_keeps_the_first_iteration() {
    // Mate in one (Qxf7#), far from the first legal move.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
    let game = Game::new(Bitboards::from_fen(fen).unwrap());
    let mate = parse_uci(game.board(), "f3f7").unwrap();
    for threads in [1, 2] {
        let mut pvs = Pvs::with_config(
            TestEval,
            PvsConfig {
                threads,
                ..PvsConfig::default()
            },
        );
        let r = pvs.search(&game, &Limits::nodes(1), &mut |_| {});
        assert_eq!(r.best_move, Some(mate), "{threads} threads");
        assert_eq!(r.depth, 1, "{threads} threads");
    }
}

#[test]
fn movetime_and_stop_flag() {
    for mut algo in algorithms() {
        let start = Instant::now();
        let r = algo.search(
            &kiwipete(),
            &Limits::movetime(Duration::from_millis(100)),
            &mut |_| {},
        );
        assert!(r.best_move.is_some());
        assert!(
            start.elapsed() < Duration::from_millis(2_000),
            "{} took {:?}",
            algo.name(),
            start.elapsed()
        );

        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits::infinite().with_stop(stop.clone());
        let start = Instant::now();
        let r = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::Relaxed);
            });
            algo.search(&kiwipete(), &limits, &mut |_| {})
        });
        assert!(r.best_move.is_some());
        assert!(
            start.elapsed() < Duration::from_millis(2_000),
            "{} ignored stop",
            algo.name()
        );
    }
}

#[test]
fn clock_limits() {
    let limits = Limits {
        wtime: Some(Duration::from_millis(1_000)),
        winc: Some(Duration::from_millis(10)),
        btime: Some(Duration::from_secs(3_600)),
        ..Limits::default()
    };
    let start = Instant::now();
    let r = Pvs::new(TestEval).search(&kiwipete(), &limits, &mut |_| {});
    assert!(r.best_move.is_some());
    assert!(
        start.elapsed() < Duration::from_millis(600),
        "used {:?} of a 1 s clock",
        start.elapsed()
    );
}

#[test]
fn searchmoves() {
    let board = Bitboards::from_fen(KIWIPETE).unwrap();
    let only = parse_uci(&board, "a2a3").unwrap();
    for mut algo in algorithms() {
        let limits = Limits {
            searchmoves: vec![only],
            ..Limits::depth(3)
        };
        let r = algo.search(&kiwipete(), &limits, &mut |_| {});
        assert_eq!(r.best_move, Some(only), "{}", algo.name());
    }
}

#[test]
fn clear_and_search_again_is_deterministic() {
    let mut pvs = Pvs::new(TestEval);
    let a = pvs.search(&kiwipete(), &Limits::depth(6), &mut |_| {});
    pvs.clear();
    let b = pvs.search(&kiwipete(), &Limits::depth(6), &mut |_| {});
    assert_eq!((a.nodes, a.score, &a.pv), (b.nodes, b.score, &b.pv));
    assert_eq!(kiwipete().board().fen(), KIWIPETE);
    // Without clearing, the table and history make a second search cheaper:
    // summed over four depths, as one depth alone can go either way (at
    // depth 6 the second search took 3 647 nodes against 2 628, at 5, 7
    // and 8 a quarter or less).
    let (mut cold, mut warm) = (0, 0);
    for depth in 5..=8 {
        pvs.clear();
        cold += pvs
            .search(&kiwipete(), &Limits::depth(depth), &mut |_| {})
            .nodes;
        warm += pvs
            .search(&kiwipete(), &Limits::depth(depth), &mut |_| {})
            .nodes;
    }
    assert!(
        warm < cold,
        "a second search took {warm} nodes, a first {cold}"
    );
}

/// An iteration cut by a limit still counts where it has proved something:
/// a root move that beat the previous best in a completed search of its
/// own is played instead of the last full iteration's choice.
#[test]
fn a_stopped_iteration_keeps_a_better_root_move() {
    // Depth 1 grabs b7 (1.Qxb7); depth 2 sees 1...Re1# after it. The quiet
    // checks of the quiescence search are off, or depth 1 would see the
    // mate already.
    let g = Game::new(Bitboards::from_fen("4r1k1/1p3ppp/8/3Q4/8/8/5PPP/6K1 w - - 0 1").unwrap());
    let grab = parse_uci(g.board(), "d5b7").unwrap();
    let config = PvsConfig {
        search_extras: false,
        ..PvsConfig::default()
    };
    // The result, and the first move of the last line reported.
    let search = |limits: &Limits| {
        let mut last = None;
        let r = Pvs::with_config(TestEval, config.clone()).search(&g, limits, &mut |i| {
            last = i.pv.first().copied();
        });
        (r, last)
    };
    let (first, _) = search(&Limits::depth(1));
    assert_eq!(first.best_move, Some(grab));
    let mut kept = 0;
    for nodes in first.nodes + 1..first.nodes + 200 {
        let (r, last) = search(&Limits::nodes(nodes));
        if r.depth == 1 && r.best_move != Some(grab) {
            // A stopped second iteration replaced the blunder, and said so.
            kept += 1;
            assert_eq!(
                last, r.best_move,
                "the last line reported leads with the move"
            );
        }
    }
    assert!(kept > 0, "no stopped iteration kept its better move");
}

#[test]
fn two_threads_report_consistently() {
    // With helper threads the depths the main thread reports rise, the last
    // is the limit, and the result leads with the move of the last line
    // reported.
    let config = PvsConfig {
        threads: 2,
        ..PvsConfig::default()
    };
    for fen in [
        KIWIPETE,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let g = Game::new(Bitboards::from_fen(fen).unwrap());
        let mut pvs = Pvs::with_config(TestEval, config.clone());
        for depth in [6, 8] {
            let mut depths = Vec::new();
            let mut last = None;
            let r = pvs.search(&g, &Limits::depth(depth), &mut |info| {
                if info.bound == fianchetto_search::Bound::Exact {
                    depths.push(info.depth);
                    last = info.pv.first().copied();
                }
            });
            assert!(depths.windows(2).all(|w| w[0] < w[1]), "{fen}: {depths:?}");
            assert_eq!(depths.last(), Some(&depth), "{fen}");
            assert_eq!(r.depth, depth, "{fen}");
            assert_eq!(r.best_move, r.pv.first().copied(), "{fen}");
            assert_eq!(last, r.best_move, "{fen}");
            assert!(g.board().is_legal(r.best_move.expect("a move")));
        }
    }
}
