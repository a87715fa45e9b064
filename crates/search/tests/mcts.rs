//! MCTS: the solver finds mates, one thread with a seed is reproducible,
//! tree-parallel search loses no update, and tree reuse keeps the visits.

mod common;

use common::{game, TestEval};
use fianchetto_eval::Score;
use fianchetto_search::mcts::{
    Blend, HandPolicy, Mcts, MctsConfig, NetPolicy, Parallelism, Policy, Variant, ENGINE_NET_WEIGHT,
};
use fianchetto_search::pvs::Pvs;
use fianchetto_search::{Limits, Search};
use std::time::Duration;

/// (FEN, moves to mate).
const MATES: &[(&str, u32)] = &[
    // Back-rank mate: 1.Rd8#.
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
    // Fool's mate: 1...Qh4#.
    (
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        1,
    ),
    // Scholar's mate: 1.Qxf7#.
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        1,
    ),
    // Back rank from the other side: 1.Qb8#.
    ("6k1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 1", 1),
    // Two rooks: 1.Rb7 Kg8 2.Ra8# (or 1.Ra7).
    ("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2),
    // Queen: 1.Qg7+ Ke8 2.Qe7#.
    ("5k2/8/5K2/8/8/8/8/6Q1 w - - 0 1", 2),
    // Rook: 1.Kb6 Kb8 2.Rh8# (or 1.Kc7 Ka7 2.Ra1#).
    ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2),
];

/// The search proves the mate (exact `mate N`, a PV of 2N − 1 plies), and
/// its move really mates in N: PVS confirms it.
fn mate_check(config: MctsConfig) {
    mate_check_with(config, HandPolicy);
}

/// [`mate_check`] with the priors of `policy`.
fn mate_check_with<P: Policy<fianchetto_board::Bitboards>>(config: MctsConfig, policy: P) {
    for &(fen, n) in MATES {
        let mut g = game(fen);
        let mut mcts = Mcts::with_policy(TestEval, policy.clone(), config.clone());
        let r = mcts.search(&g, &Limits::nodes(2_000_000), &mut |_| {});
        assert_eq!(r.score, Score::mate_in(2 * n - 1), "{fen} with {config}");
        assert_eq!(r.pv.len() as u32, 2 * n - 1, "{fen}: pv {:?}", r.pv);
        let best = r.best_move.expect("a move");
        assert_eq!(r.pv[0], best);
        g.play(best).expect("legal");
        let check = Pvs::new(TestEval).search(&g, &Limits::depth(2 * n), &mut |_| {});
        assert_eq!(
            check.score,
            Score::mated_in(2 * n - 2),
            "{fen}: {best} with {config}"
        );
    }
}

#[test]
fn solver_finds_mates_with_every_variant() {
    for v in Variant::ALL {
        mate_check(MctsConfig::new(v));
    }
}

#[test]
fn the_policy_network_alone_and_blended_finds_the_mates() {
    let net = fianchetto_eval::policy::embedded_policy().expect("the embedded policy loads");
    mate_check_with(
        MctsConfig::puct().threads(2, Parallelism::Tree),
        Blend::engine(net.clone(), ENGINE_NET_WEIGHT),
    );
    // The network alone may prove a longer mate first (the proof of a win
    // ends the search): the mate it reports is real.
    for &(fen, _) in MATES {
        let mut g = game(fen);
        let mut mcts = Mcts::with_policy(TestEval, NetPolicy::new(net.clone()), MctsConfig::puct());
        let r = mcts.search(&g, &Limits::nodes(2_000_000), &mut |_| {});
        let plies = Score::MATE.0 - r.score.0;
        assert!(
            r.score.0 >= Score::MATE_BOUND.0 && plies % 2 == 1,
            "{fen}: {:?}",
            r.score
        );
        g.play(r.best_move.expect("a move")).expect("legal");
        let check = Pvs::new(TestEval).search(&g, &Limits::depth(plies as u32), &mut |_| {});
        assert_eq!(check.score, Score::mated_in(plies as u32 - 1), "{fen}");
    }
}

#[test]
fn solver_finds_mates_on_two_threads() {
    mate_check(MctsConfig::new(Variant::Puct).threads(2, Parallelism::Tree));
    mate_check(MctsConfig::new(Variant::Ic).threads(2, Parallelism::Root));
}

#[test]
fn deterministic_with_a_seed_on_one_thread() {
    let g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    for v in Variant::ALL {
        let run = || {
            let mut m = Mcts::with_config(TestEval, MctsConfig::new(v).iterations(1_500).seed(42));
            let r = m.search(&g, &Limits::default(), &mut |_| {});
            let mut visits: Vec<_> = m
                .root_children()
                .iter()
                .map(|c| (c.mv.to_string(), c.visits))
                .collect();
            visits.sort();
            (r.best_move, r.nodes, visits)
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b, "{v}");
        assert_eq!(
            a.2.iter().map(|c| c.1).sum::<u64>(),
            1_500 - 1,
            "{v}: the first iteration visits the root only"
        );
    }
}

#[test]
fn tree_parallel_loses_no_update() {
    let g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    for v in [Variant::Puct, Variant::Ic] {
        let iterations = 20_000;
        let cfg = MctsConfig::new(v)
            .iterations(iterations)
            .threads(8, Parallelism::Tree);
        let mut m = Mcts::with_config(TestEval, cfg);
        let r = m.search(&g, &Limits::default(), &mut |_| {});
        assert!(r.best_move.is_some());
        assert_eq!(m.last_iterations(), iterations, "{v}");
        assert_eq!(m.root_visits(), iterations, "{v}");
        // Iterations that found the root being expanded by another thread
        // ended at the root (a few, at the start).
        let children: u64 = m.root_children().iter().map(|c| c.visits).sum();
        assert!(
            children < iterations && children >= iterations - 64,
            "{v}: {children}"
        );
    }
}

#[test]
fn root_parallel_merges_trees() {
    let g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let cfg = MctsConfig::new(Variant::Puct)
        .iterations(8_000)
        .threads(4, Parallelism::Root);
    let mut m = Mcts::with_config(TestEval, cfg);
    m.search(&g, &Limits::default(), &mut |_| {});
    assert_eq!(m.root_visits(), 8_000);
    // Each tree that runs spends its first iteration on its root. The
    // trees share one iteration budget, so on a busy machine a thread that
    // starts late may find it spent and run none (seen once: 8 000 − 3).
    let children = m.root_children().iter().map(|c| c.visits).sum::<u64>();
    assert!(
        (8_000 - 4..8_000).contains(&children),
        "{children} visits below the root"
    );
}

#[test]
fn tree_reuse_keeps_visits() {
    let mut g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    for v in [Variant::Uct, Variant::Puct] {
        let mut m = Mcts::with_config(TestEval, MctsConfig::new(v).iterations(3_000));
        let r = m.search(&g, &Limits::default(), &mut |_| {});
        let best = r.best_move.unwrap();
        let kept = m
            .root_children()
            .iter()
            .find(|c| c.mv == best)
            .unwrap()
            .visits;
        assert!(kept > 100, "{v}: {kept}");
        // The game continues with our move, then with the opponent's most
        // likely reply (the second move of the PV).
        g.play(best).unwrap();
        m.search(&g, &Limits::default(), &mut |_| {});
        assert_eq!(m.root_visits(), kept + 3_000, "{v}");
        let reply = r.pv[1];
        let kept2 = m
            .root_children()
            .iter()
            .find(|c| c.mv == reply)
            .map_or(0, |c| c.visits);
        g.play(reply).unwrap();
        m.search(&g, &Limits::default(), &mut |_| {});
        assert_eq!(m.root_visits(), kept2 + 3_000, "{v}");
        // A different game starts afresh.
        let other = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        m.search(&other, &Limits::default(), &mut |_| {});
        assert_eq!(m.root_visits(), 3_000, "{v}");
        g.undo();
        g.undo();
    }
}

#[test]
fn limits_and_reports() {
    let g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let mut m = Mcts::with_config(TestEval, MctsConfig::new(Variant::Puct));
    let mut reports = 0;
    let r = m.search(
        &g,
        &Limits::movetime(Duration::from_millis(150)),
        &mut |i| {
            reports += 1;
            assert!(!i.pv.is_empty());
        },
    );
    assert!(reports >= 1);
    assert!(r.time < Duration::from_millis(400), "{:?}", r.time);
    assert!(r.best_move.is_some() && !r.score.is_mate());
    // Node limit.
    let r = m.search(&g, &Limits::nodes(5_000), &mut |_| {});
    assert!(r.nodes >= 5_000 && r.nodes < 20_000, "{}", r.nodes);
    // Depth limit (mean tree depth) ends too.
    let r = m.search(&g, &Limits::depth(3), &mut |_| {});
    assert!(r.depth >= 3);
    // A small arena fills up and the search ends by itself.
    let mut small = Mcts::with_config(TestEval, MctsConfig::new(Variant::Ic).node_budget(5_000));
    let r = small.search(&g, &Limits::default(), &mut |_| {});
    assert!(r.best_move.is_some());
    assert!(small.tree_size().0 <= 5_000);
    // Stalemate and mate at the root: no move.
    let r = m.search(
        &game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
        &Limits::nodes(100),
        &mut |_| {},
    );
    assert_eq!((r.best_move, r.score), (None, Score::DRAW));
    let r = m.search(
        &game("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"),
        &Limits::nodes(100),
        &mut |_| {},
    );
    assert_eq!((r.best_move, r.score), (None, Score::mated_in(0)));
    // searchmoves restricts the root.
    let only = fianchetto_movegen::parse_uci(g.board(), "a2a3").unwrap();
    let l = Limits {
        searchmoves: vec![only],
        nodes: Some(2_000),
        ..Limits::default()
    };
    let r = m.search(&g, &l, &mut |_| {});
    assert_eq!(r.best_move, Some(only));
}

#[test]
fn odd_configs_do_not_panic() {
    let g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    for v in Variant::ALL {
        let cfg = MctsConfig {
            eval_scale: 0.0,
            exploration: -1.0,
            threads: 0,
            node_budget: 0,
            cutoff: u32::MAX,
            max_rollout: u32::MAX,
            policy_temperature: 0.0,
            history_weight: f32::NAN,
            prior_weight: 0,
            iterations: Some(300),
            ..MctsConfig::new(v)
        };
        let mut m = Mcts::with_config(TestEval, cfg);
        let r = m.search(&g, &Limits::default(), &mut |_| {});
        assert!(r.best_move.is_some(), "{v}");
    }
    // Without the solver the mate is still found, by statistics alone.
    let g = game("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let cfg = MctsConfig::new(Variant::Puct)
        .solver(false)
        .iterations(3_000);
    let r = Mcts::with_config(TestEval, cfg).search(&g, &Limits::default(), &mut |_| {});
    assert_eq!(r.best_move.map(|m| m.to_string()).as_deref(), Some("d1d8"));
}

#[test]
fn reuse_into_a_repetition_searches_it() {
    // After 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1, the tree proves 4...Ng8 a
    // draw (a repetition on the old path); once played it is the root and
    // must be searched, not taken for a finished game.
    let mut g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        g.play_uci(m).unwrap();
    }
    let mut m = Mcts::with_config(TestEval, MctsConfig::new(Variant::Ic).iterations(500));
    m.search(&g, &Limits::default(), &mut |_| {});
    let back = fianchetto_movegen::parse_uci(g.board(), "f6g8").unwrap();
    let child = m.root_children().iter().find(|c| c.mv == back).copied();
    assert_eq!(child.and_then(|c| c.proven), Some(Score::DRAW));
    g.play(back).unwrap();
    let r = m.search(
        &g,
        &Limits::movetime(Duration::from_millis(100)),
        &mut |_| {},
    );
    assert!(r.best_move.is_some());
    assert!(m.last_iterations() > 1);
    assert_eq!(m.root_visits(), m.last_iterations());
}

#[test]
fn clock_and_stop_flag() {
    let g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let mut m = Mcts::with_config(TestEval, MctsConfig::new(Variant::Puct));
    // Two seconds on the clock: a small share of it.
    let l = Limits {
        wtime: Some(Duration::from_secs(2)),
        ..Limits::default()
    };
    let r = m.search(&g, &l, &mut |_| {});
    assert!(
        r.best_move.is_some() && r.time < Duration::from_millis(900),
        "{:?}",
        r.time
    );
    // Infinite on two threads until another thread raises the stop flag.
    let mut m = Mcts::with_config(
        TestEval,
        MctsConfig::new(Variant::Ic).threads(2, Parallelism::Tree),
    );
    let l = Limits::infinite();
    let stop = l.stop.clone();
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let started = std::time::Instant::now();
    let r = m.search(&g, &l, &mut |_| {});
    raiser.join().unwrap();
    assert!(r.best_move.is_some());
    assert!(
        started.elapsed() >= Duration::from_millis(95),
        "{:?}",
        started.elapsed()
    );
}

/// Every backend works: the same proofs (move generation order differs
/// between backends, so the trees themselves do too).
#[test]
fn every_backend_proves_the_same_mates() {
    use fianchetto_board::{Board0x88, Mailbox};
    use fianchetto_movegen::{Game, MoveGen};
    fn run<B: MoveGen>(fen: &str) -> (Score, usize) {
        let g = Game::new(B::from_fen(fen).unwrap());
        let cfg = MctsConfig::new(Variant::Puct).iterations(20_000);
        let r = Mcts::with_config(TestEval, cfg).search(&g, &Limits::default(), &mut |_| {});
        (r.score, r.pv.len())
    }
    for &(fen, n) in MATES {
        let expected = (Score::mate_in(2 * n - 1), 2 * n as usize - 1);
        assert_eq!(run::<fianchetto_board::Bitboards>(fen), expected, "{fen}");
        assert_eq!(run::<Board0x88>(fen), expected, "{fen}");
        assert_eq!(run::<Mailbox>(fen), expected, "{fen}");
    }
}

#[test]
fn a_long_search_stays_within_its_memory_and_goes_on_learning() {
    // 4 096 nodes of tree (128 KiB) for 30 000 playouts: the arena fills
    // many times over and is recycled each time.
    let g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    for threads in [1, 2] {
        let cfg = MctsConfig::puct()
            .node_budget(4_096)
            .iterations(30_000)
            .threads(threads, Parallelism::Tree);
        let mut m = Mcts::with_config(TestEval, cfg);
        let r = m.search(&g, &Limits::default(), &mut |_| {});
        let (used, capacity) = m.tree_size();
        assert_eq!(capacity, 4_096);
        assert!(used <= capacity);
        assert!(m.last_recycles() >= 5, "{} recycles", m.last_recycles());
        assert_eq!(m.last_iterations(), 30_000);
        // Every playout is counted at the root: recycling kept the
        // statistics of the nodes it turned back into leaves.
        assert_eq!(m.root_visits(), 30_000, "{threads} threads");
        assert!(r.pv.len() > 1, "{:?}", r.pv);
    }
    // The mates are still proved in a small arena.
    mate_check(MctsConfig::puct().node_budget(2_048));
}

#[test]
fn puct_expands_a_leaf_when_a_playout_comes_back_to_it() {
    // Expanding every new leaf at once stores its children whether or not
    // a playout ever comes back (53 331 nodes for these 2 000 playouts);
    // lazily, a leaf visited once stores none (31 760). One thread, a
    // fixed seed and a playout budget: the count is reproducible.
    let g = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let mut m = Mcts::with_config(TestEval, MctsConfig::puct().iterations(2_000));
    m.search(&g, &Limits::default(), &mut |_| {});
    let (used, _) = m.tree_size();
    assert!(used < 40_000, "{used} nodes after 2 000 playouts");
    // Expanding and walking on into a child is still one playout.
    assert_eq!(m.root_visits(), 2_000);
}

#[test]
fn a_puct_leaf_sees_a_quiet_check_that_wins_material() {
    // White's queen against rook and knight, but 1.Kg1 (forced) allows
    // 1...Nf3+, forking king and queen. The second playout values the one
    // child by a quiescence search alone, which tries quiet checks at its
    // first ply: the lost queen shows in that value (about +100 for White
    // with captures alone).
    let g = game("8/8/8/8/2k5/8/2r4n/4QK2 w - - 0 1");
    let mut m = Mcts::with_config(TestEval, MctsConfig::puct().iterations(2));
    let r = m.search(&g, &Limits::default(), &mut |_| {});
    assert_eq!(r.best_move.map(|m| m.to_string()).as_deref(), Some("f1g1"));
    assert!(r.score.0 < -300, "{:?}", r.score);
}
