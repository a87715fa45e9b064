//! The two search experiments of the source theses, as data and a
//! measurement: what `fianchetto ablate` prints and the web app's Learn
//! view charts.
//!
//! - BuhoChess (Lugo): the cumulative PVS configurations of
//!   [`configurations`], from plain alpha-beta through the histories,
//!   correction history and singular extensions, then the defaults;
//!   [`measure`] gives the nodes and time to each depth of one of them.
//! - Rookie (Galloppo): [`rookie_searches`], minimax, alpha-beta, MVV-LVA,
//!   killers and the horizon variants, on the fool's-mate position.
//!
//! ```
//! use fianchetto_board::Bitboards;
//! use fianchetto_eval::Material;
//! use fianchetto_search::ablation::{configurations, measure, ENDGAMES};
//! use std::sync::{atomic::AtomicBool, Arc};
//!
//! let steps = configurations(1);
//! let never = Arc::new(AtomicBool::new(false));
//! let row = measure::<Bitboards, _>(&Material::default(), &steps[0].config, &ENDGAMES[2..], 2, 1_000_000, &never)?;
//! assert!(row.iter().all(|cell| cell.is_some()));
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```

use crate::alphabeta::{AlphaBeta, Horizon, MoveOrdering};
use crate::minimax::Minimax;
use crate::pvs::{Pvs, PvsConfig};
use crate::{Limits, Search};
use fianchetto_board::FenError;
use fianchetto_eval::Evaluator;
use fianchetto_movegen::{Game, MoveGen};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Middlegame test positions.
pub const MIDDLEGAMES: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

/// Endgame test positions.
pub const ENDGAMES: &[&str] = &[
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/5pk1/6p1/3R4/8/6P1/r4PK1/8 w - - 0 40",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
];

/// The fool's-mate position of the Rookie thesis: after 1.f3 e5 2.g4,
/// black mates with Qd8-h4.
pub const FOOLS_MATE: &str = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";

/// One row of the BuhoChess ablation: a PVS configuration, its name in
/// the tables, and what it adds, in one sentence (the `gui`'s Learn view
/// shows it under its bar).
#[derive(Clone, Debug)]
pub struct Step {
    /// The row's name (`"C + PVS"`).
    pub name: &'static str,
    /// What the row adds to the one before it.
    pub meaning: &'static str,
    /// The search's switches.
    pub config: PvsConfig,
}

/// The cumulative configurations of the BuhoChess ablation (A … P), then the defaults.
pub fn configurations(hash_mb: usize) -> Vec<Step> {
    let base = PvsConfig {
        hash_mb,
        quiescence: true,
        ..PvsConfig::all_off()
    };
    let b = PvsConfig {
        iterative_deepening: true,
        tt: true,
        mvv_lva: true,
        see_ordering: true,
        killers: true,
        history: true,
        counter_moves: true,
        ..base.clone()
    };
    let c = PvsConfig {
        pvs: true,
        ..b.clone()
    };
    let d = PvsConfig {
        tt_cutoffs: true,
        ..c.clone()
    };
    let e = PvsConfig {
        aspiration: true,
        ..d.clone()
    };
    let f = PvsConfig {
        null_move: true,
        ..e.clone()
    };
    let g = PvsConfig {
        futility: true,
        reverse_futility: true,
        razoring: true,
        ..f.clone()
    };
    let h = PvsConfig {
        lmr: true,
        ..g.clone()
    };
    let i = PvsConfig {
        hash_mb,
        lmp: true,
        see_pruning: true,
        probcut: true,
        iir: true,
        check_extension: true,
        qs_see_pruning: true,
        delta_pruning: true,
        mate_distance: true,
        history_lmr: true,
        ..h.clone()
    };
    let j = PvsConfig {
        cont_history: true,
        ..i.clone()
    };
    let k = PvsConfig {
        capture_history: true,
        ..j.clone()
    };
    let l = PvsConfig {
        history_pruning: true,
        ..k.clone()
    };
    let m = PvsConfig {
        correction_history: true,
        ..l.clone()
    };
    let n = PvsConfig {
        singular: true,
        ..m.clone()
    };
    let o = PvsConfig {
        cuckoo: true,
        qs_promotions: true,
        ..n.clone()
    };
    let p = PvsConfig {
        see_pins: true,
        ..o.clone()
    };
    let defaults = PvsConfig {
        hash_mb,
        ..PvsConfig::default()
    };
    let step = |name, meaning, config| Step {
        name,
        meaning,
        config,
    };
    vec![
        step("A alpha-beta (+ quiescence)", "Plain alpha-beta with a quiescence search of captures at the horizon: the baseline every feature below is added to.", base),
        step("B + ordering, ID, hash move", "Iterative deepening with a transposition table's best move first, then captures (MVV-LVA, losing ones last), killers, history and counter-moves: good moves first make cutoffs come sooner.", b),
        step("C + PVS", "Searches every move after the first with a null window, and again fully only when it beats the first.", c),
        step("D + TT cutoffs", "Returns at once when the transposition table already holds a deep enough score for the position.", d),
        step("E + aspiration", "Starts each iteration with a narrow window around the previous score, widened only when the score falls outside.", e),
        step("F + null move", "Lets the side to move pass: if a shallow search still fails high, the position is good enough to prune.", f),
        step("G + futility, RFP, razoring", "Prunes near the leaves where the static evaluation is so far from the window that a shallow search would not change it.", g),
        step("H + LMR", "Searches late quiet moves less deep, and fully only when they turn out better than expected.", h),
        step("I + LMP, SEE, ProbCut, IIR, check ext., qs pruning", "Skips late quiet moves and losing exchanges, cuts where a shallow search proves a big margin, extends checks.", i),
        step("J + continuation history", "Orders quiet moves by how they did after the same previous moves.", j),
        step("K + capture history", "Orders captures by how they did before, not only by the pieces involved.", k),
        step("L + history pruning", "Prunes quiet moves near the leaves whose history is bad.", l),
        step("M + correction history", "Corrects the static evaluation by what searches found in positions with the same pawns, the same pieces, or after the same two moves.", m),
        step("N + singular ext., multi-cut, double/negative ext.", "Searches deeper a move much better than every other, and prunes when several moves beat the window.", n),
        step("O + cuckoo repetitions, qs promotions", "Sees a repetition one move early, and tries quiet queen promotions in the quiescence search.", o),
        step("P + SEE with pins", "Leaves pinned pieces out of the static exchange evaluation.", p),
        step("defaults", "The engine as it plays: every feature at its default (some above are off by default).", defaults),
    ]
}

/// Per depth: total nodes and time over a set of positions (`None` once
/// the node budget was exceeded).
pub type Row = Vec<Option<(u64, Duration)>>;

/// Nodes and time to each depth from 1 to `depth` of PVS with `config`,
/// summed over `fens`; a depth is `None` where one search needed more than
/// `max_nodes` or `stop` was raised.
pub fn measure<B: MoveGen, E: Evaluator<B> + Clone>(
    eval: &E,
    config: &PvsConfig,
    fens: &[&str],
    depth: u32,
    max_nodes: u64,
    stop: &Arc<AtomicBool>,
) -> Result<Row, FenError> {
    let mut row: Row = vec![Some((0, Duration::ZERO)); depth as usize];
    for fen in fens {
        let game = Game::new(B::from_fen(fen)?);
        let mut per_depth: Vec<Option<(u64, Duration)>> = vec![None; depth as usize];
        if config.iterative_deepening {
            // One search: the reports give nodes and time to each depth.
            let mut pvs = Pvs::with_config(eval.clone(), config.clone());
            let limits = Limits::depth(depth)
                .with_nodes(max_nodes)
                .with_stop(stop.clone());
            pvs.search(&game, &limits, &mut |info| {
                if let Some(slot) = per_depth.get_mut(info.depth as usize - 1) {
                    if info.bound == crate::Bound::Exact {
                        *slot = Some((info.nodes, info.time));
                    }
                }
            });
        } else {
            // Without iterative deepening each depth is its own search.
            for d in 1..=depth {
                let mut pvs = Pvs::with_config(eval.clone(), config.clone());
                let limits = Limits::depth(d)
                    .with_nodes(max_nodes)
                    .with_stop(stop.clone());
                let r = pvs.search(&game, &limits, &mut |_| {});
                if r.nodes >= max_nodes || r.depth < d || limits.stopped() {
                    break;
                }
                per_depth[d as usize - 1] = Some((r.nodes, r.time));
            }
        }
        for (acc, v) in row.iter_mut().zip(per_depth) {
            *acc = match (*acc, v) {
                (Some((n, t)), Some((n2, t2))) => Some((n + n2, t + t2)),
                _ => None,
            };
        }
    }
    Ok(row)
}

/// A searcher of the Rookie experiment with its name and what it shows.
pub struct Contender<B: MoveGen> {
    /// Its name in the tables.
    pub name: &'static str,
    /// What it adds to the one before it, in one sentence.
    pub meaning: &'static str,
    /// The searcher.
    pub search: Box<dyn Search<B> + Send>,
}

/// Rookie's cumulative versions of the search, each a fixed-depth search
/// without iterative deepening: minimax, alpha-beta, MVV-LVA, killers, the
/// capture/check extension at the horizon, and (ours) killers with a
/// quiescence search. `rookie` and the `gui`'s Learn view run these.
pub fn rookie_searches<B: MoveGen, E: Evaluator<B> + Clone + Send + 'static>(
    eval: &E,
) -> Vec<Contender<B>> {
    let ab = |o, h| -> Box<dyn Search<B> + Send> {
        Box::new(
            AlphaBeta::new(eval.clone())
                .ordering(o)
                .horizon(h)
                .iterative(false),
        )
    };
    let contender = |name, meaning, search| Contender {
        name,
        meaning,
        search,
    };
    vec![
        contender("minimax", "Every move to the full depth, nothing skipped: the size of the whole tree.", Box::new(Minimax::new(eval.clone()).iterative(false))),
        contender("alpha-beta", "Skips a move as soon as it is proven worse than one already found; moves in the order they are generated.", ab(MoveOrdering::None, Horizon::Static)),
        contender("+ MVV-LVA", "Tries captures first, the most valuable victim by the least valuable attacker, so that cutoffs come sooner.", ab(MoveOrdering::MvvLva, Horizon::Static)),
        contender("+ killer moves", "Also tries early the quiet moves that caused a cutoff at the same ply elsewhere in the tree.", ab(MoveOrdering::Killers, Horizon::Static)),
        contender("+ capture/check extension", "Searches one ply deeper after a capture or a check at the horizon: more nodes, fewer blunders.", ab(MoveOrdering::Killers, Horizon::Extension)),
        contender("killers + quiescence (ours)", "Goes on searching captures past the horizon until the position is quiet: more nodes, sounder scores.", ab(MoveOrdering::Killers, Horizon::Quiescence)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configurations_are_cumulative() {
        let configs = configurations(4);
        assert_eq!(configs.len(), 17);
        let mut previous = usize::MAX;
        // Every row adds a feature; the last is the defaults.
        let (defaults, rows) = configs.split_last().expect("rows");
        for Step {
            name,
            config: c,
            meaning,
        } in rows
        {
            let off = c.disabled().len();
            assert!(off < previous, "{name} adds a feature");
            previous = off;
            assert_eq!(c.hash_mb, 4);
            assert!(meaning.ends_with('.'), "{name}: one sentence");
        }
        assert_eq!(
            defaults.config,
            PvsConfig {
                hash_mb: 4,
                ..PvsConfig::default()
            }
        );
        assert!(configs[0].config.quiescence && !configs[0].config.tt);
    }

    #[test]
    fn positions_parse() {
        for fen in MIDDLEGAMES.iter().chain(ENDGAMES).chain([&FOOLS_MATE]) {
            assert!(
                <fianchetto_board::Bitboards as fianchetto_board::Board>::from_fen(fen).is_ok(),
                "{fen}"
            );
        }
    }
}
