//! Building a searcher from names (algorithm, evaluation, backend), and
//! hiding the backend type behind [`Driver`] so that the UCI session and the
//! command line can switch all three at run time.

use crate::evals::EvalChoice;
use crate::uci::EngineOptions;
use crate::{with_backend, with_evaluator};
use fianchetto_board::{Move, Setup};
use fianchetto_eval::policy::PolicyNet;
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::mcts::MctsConfig;
use fianchetto_search::multipv::search_lines;
use fianchetto_search::pvs::{PvsConfig, Syzygy};
use fianchetto_search::{Info, Limits, Report, Search, SearchResult};
use fianchetto_syzygy::Tablebase;
use std::sync::Arc;

pub use fianchetto_search::select::{build_search, engine_mcts, Algo, SearchConfig};

/// A searcher with its backend hidden.
pub trait Driver: Send {
    /// Searches the position `moves` after `start`: one line of
    /// [`Driver::go_lines`].
    fn go(
        &mut self,
        start: &Setup,
        moves: &[Move],
        limits: &Limits,
        report: Report<'_>,
    ) -> SearchResult {
        self.go_lines(start, moves, limits, 1, &mut |_, info| report(info))
            .into_iter()
            .next()
            .unwrap_or_default()
    }
    /// The `lines` best moves of the position `moves` after `start`, best
    /// first (MultiPV, [`search_lines`]); `report(k, info)` receives line
    /// `k`'s progress.
    fn go_lines(
        &mut self,
        start: &Setup,
        moves: &[Move],
        limits: &Limits,
        lines: usize,
        report: &mut dyn FnMut(usize, &Info),
    ) -> Vec<SearchResult>;
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
    fn go_lines(
        &mut self,
        start: &Setup,
        moves: &[Move],
        limits: &Limits,
        lines: usize,
        report: &mut dyn FnMut(usize, &Info),
    ) -> Vec<SearchResult> {
        match game::<B>(start, moves) {
            Some(g) => search_lines(&mut self.search, &g, limits, lines, report),
            None => Vec::new(),
        }
    }
    fn clear(&mut self) {
        self.search.clear();
    }
}

/// The driver the options ask for, evaluating with `choice` (the session
/// builds it from `Evaluation`, the network and `EvalWeights`), probing
/// `tables` (the session loads them from `SyzygyPath`) as the `Syzygy…`
/// options say, and taking MCTS's priors from `policy` (the network of
/// `PolicyFile`; `None` for the hand-written policy).
pub fn build_driver(
    o: &EngineOptions,
    choice: &EvalChoice,
    tables: Option<&Arc<Tablebase>>,
    policy: Option<&Arc<PolicyNet>>,
) -> Box<dyn Driver> {
    let config = SearchConfig {
        algo: o.algorithm,
        pvs: PvsConfig {
            threads: o.threads,
            hash_mb: o.hash_mb,
            params: o.search_params.clone(),
            ..o.switches.clone()
        },
        mcts: MctsConfig {
            exploration: f64::from(o.mcts_cpuct) / 100.0,
            policy_temperature: f64::from(o.mcts_policy_temp) / 100.0,
            history_weight: o.mcts_history as f32 / 100.0,
            eval_scale: f64::from(o.mcts_value_scale),
            ..engine_mcts(o.threads).memory_mb(o.hash_mb)
        },
        policy: policy.cloned(),
        policy_net_weight: o.mcts_net_weight as f32 / 100.0,
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
