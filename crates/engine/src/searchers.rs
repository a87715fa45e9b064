//! Building a searcher from names (algorithm, evaluation, backend), and
//! hiding the backend type behind [`Driver`] so that the UCI session and the
//! command line can switch all three at run time.

use crate::evals::EvalChoice;
use crate::uci::EngineOptions;
use crate::{with_backend, with_evaluator};
use fianchetto_board::{Move, Setup};
use fianchetto_eval::Evaluator;
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::alphabeta::{AlphaBeta, Horizon, MoveOrdering};
use fianchetto_search::mcts::{Mcts, MctsConfig, Parallelism, Variant};
use fianchetto_search::minimax::Minimax;
use fianchetto_search::pvs::{Pvs, PvsConfig, Syzygy};
use fianchetto_search::scout::Scout;
use fianchetto_search::{Info, Limits, Search, SearchResult};
use fianchetto_syzygy::Tablebase;
use std::sync::Arc;

/// A searcher with its backend hidden.
pub trait Driver: Send {
    /// Searches the position `moves` after `start`.
    fn go(
        &mut self,
        start: &Setup,
        moves: &[Move],
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult;
    /// Forgets the hash table and history (`ucinewgame`, `Clear Hash`).
    fn clear(&mut self);
}

struct Typed<B: MoveGen> {
    search: Box<dyn Search<B> + Send>,
}

fn game<B: MoveGen>(start: &Setup, moves: &[Move]) -> Option<Game<B>> {
    let mut game = Game::<B>::from_setup(start).ok()?;
    for &m in moves {
        if !game.board().is_legal(m) {
            return None;
        }
        game.play_unchecked(m);
    }
    Some(game)
}

impl<B: MoveGen> Driver for Typed<B> {
    fn go(
        &mut self,
        start: &Setup,
        moves: &[Move],
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        match game::<B>(start, moves) {
            Some(g) => self.search.search(&g, limits, report),
            None => SearchResult::default(),
        }
    }
    fn clear(&mut self) {
        self.search.clear();
    }
}

/// A search algorithm a user can pick (`--algo`, the UCI `Algorithm` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Algo {
    /// Plain negamax.
    Minimax,
    /// Alpha-beta (MVV-LVA and killer ordering, quiescence).
    Alphabeta,
    /// Pearl's Scout.
    Scout,
    /// Principal variation search with every feature (see `--disable`).
    #[default]
    Pvs,
    /// Monte Carlo tree search (PUCT unless another variant is chosen).
    Mcts,
}

impl Algo {
    /// Every algorithm, in the order the UCI option lists them.
    pub const ALL: [Algo; 5] = [
        Algo::Pvs,
        Algo::Alphabeta,
        Algo::Scout,
        Algo::Minimax,
        Algo::Mcts,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Minimax => "minimax",
            Algo::Alphabeta => "alphabeta",
            Algo::Scout => "scout",
            Algo::Pvs => "pvs",
            Algo::Mcts => "mcts",
        }
    }

    /// The algorithm called `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Algo> {
        Algo::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name))
    }
}

/// How each algorithm is configured beyond its evaluation.
#[derive(Clone, Debug, Default)]
pub struct SearchConfig {
    /// Which algorithm.
    pub algo: Algo,
    /// PVS's switches, threads and table.
    pub pvs: PvsConfig,
    /// MCTS's variant and parameters.
    pub mcts: MctsConfig,
    /// Syzygy tables for PVS (the other algorithms do without).
    pub syzygy: Option<Syzygy>,
}

/// The one place a searcher is built from a choice of algorithm, for the
/// UCI session, `analyse` and `play` alike.
pub fn build_search<B: MoveGen, E: Evaluator<B> + Clone + Send + 'static>(
    config: &SearchConfig,
    eval: E,
) -> Box<dyn Search<B> + Send> {
    match config.algo {
        Algo::Minimax => Box::new(Minimax::new(eval)),
        Algo::Alphabeta => Box::new(
            AlphaBeta::new(eval)
                .ordering(MoveOrdering::Killers)
                .horizon(Horizon::Quiescence),
        ),
        Algo::Scout => Box::new(Scout::new(eval)),
        Algo::Pvs => {
            let mut pvs = Pvs::with_config(eval, config.pvs.clone());
            pvs.set_syzygy(config.syzygy.clone());
            Box::new(pvs)
        }
        Algo::Mcts => Box::new(Mcts::with_config(eval, config.mcts.clone())),
    }
}

/// MCTS as the engine plays it: PUCT, tree-parallel on several threads.
pub fn engine_mcts(threads: usize) -> MctsConfig {
    MctsConfig::new(Variant::Puct).threads(threads, Parallelism::Tree)
}

/// The driver the options ask for, evaluating with `choice` (the session
/// builds it from `Evaluation`, the network and `EvalWeights`), probing
/// `tables` (the session loads them from `SyzygyPath`) as the `Syzygy…`
/// options say.
pub fn build_driver(
    o: &EngineOptions,
    choice: &EvalChoice,
    tables: Option<&Arc<Tablebase>>,
) -> Box<dyn Driver> {
    let config = SearchConfig {
        algo: o.algorithm,
        pvs: PvsConfig {
            threads: o.threads,
            hash_mb: o.hash_mb,
            params: o.search_params.clone(),
            ..o.switches.clone()
        },
        mcts: engine_mcts(o.threads),
        syzygy: tables.map(|t| Syzygy {
            tables: t.clone(),
            probe_depth: o.syzygy_probe_depth as i32,
            probe_limit: o.syzygy_probe_limit as u32,
            rule50: o.syzygy_50_move_rule,
        }),
    };
    with_backend!(o.backend, B => with_evaluator!(choice, eval => {
        let d: Box<dyn Driver> = Box::new(Typed::<B> {
            search: build_search::<B, _>(&config, eval),
        });
        d
    }))
}
