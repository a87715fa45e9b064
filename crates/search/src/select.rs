//! Algorithms by name: the names a user can type (`--algo`, the UCI
//! `Algorithm` option, the web app's menu), and the one place a searcher is
//! built from such a choice.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::Material;
//! use fianchetto_movegen::Game;
//! use fianchetto_search::select::{build_search, Algo, SearchConfig};
//! use fianchetto_search::Limits;
//!
//! let config = SearchConfig { algo: Algo::parse("alphabeta").unwrap(), ..SearchConfig::default() };
//! let mut search = build_search::<Bitboards, _>(&config, Material::default());
//! let result = search.search(&Game::new(Bitboards::startpos()), &Limits::depth(2), &mut |_| {});
//! assert!(result.best_move.is_some());
//! ```

use crate::alphabeta::{AlphaBeta, Horizon, MoveOrdering};
use crate::mcts::{Blend, Mcts, MctsConfig, Parallelism, Variant, ENGINE_NET_WEIGHT};
use crate::minimax::Minimax;
use crate::pvs::{Pvs, PvsConfig};
use crate::scout::Scout;
use crate::Search;
use fianchetto_eval::select::UnknownName;
use fianchetto_eval::Evaluator;
use fianchetto_movegen::MoveGen;

/// A search algorithm a user can pick (`--algo`, the UCI `Algorithm` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
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

    /// Every algorithm's name, comma-separated: what an error for an
    /// unknown name lists.
    pub fn names() -> String {
        Algo::ALL.map(Algo::name).join(", ")
    }

    /// The algorithm called `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Algo> {
        Algo::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name))
    }

    /// [`Algo::parse`], or the error every front end shows for a name it
    /// does not know (listing the names there are).
    ///
    /// ```
    /// use fianchetto_search::select::Algo;
    /// assert_eq!(Algo::named("scout"), Ok(Algo::Scout));
    /// assert!(Algo::named("abacus").unwrap_err().to_string()
    ///     .starts_with("unknown algorithm \"abacus\"; expected one of: pvs, "));
    /// ```
    pub fn named(name: &str) -> Result<Algo, UnknownName> {
        Algo::parse(name).ok_or_else(|| UnknownName::new("algorithm", name, Algo::names()))
    }
}

/// How each algorithm is configured beyond its evaluation.
///
/// The default is PVS with its defaults, and for MCTS the embedded policy
/// network ([`embedded_policy`](fianchetto_eval::policy::embedded_policy)).
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Which algorithm.
    pub algo: Algo,
    /// PVS's switches, threads and table.
    pub pvs: PvsConfig,
    /// MCTS's variant and parameters.
    pub mcts: MctsConfig,
    /// The policy network of PUCT's priors, blended with the hand-written
    /// policy ([`Blend::engine`]); `None` for the hand-written policy alone
    /// ([`HandPolicy`](crate::mcts::HandPolicy)). The default is the
    /// embedded network.
    pub policy: Option<std::sync::Arc<fianchetto_eval::policy::PolicyNet>>,
    /// The network's weight in the blend ([`ENGINE_NET_WEIGHT`] by default).
    pub policy_net_weight: f32,
    /// Syzygy tables for PVS and MCTS (the other algorithms do without).
    #[cfg(feature = "syzygy")]
    pub syzygy: Option<crate::pvs::Syzygy>,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            algo: Algo::default(),
            pvs: PvsConfig::default(),
            mcts: MctsConfig::default(),
            // `build.rs` checked the embedded policy; were it refused
            // anyway, MCTS would play with the hand-written one.
            policy: fianchetto_eval::policy::embedded_policy().ok(),
            policy_net_weight: ENGINE_NET_WEIGHT,
            #[cfg(feature = "syzygy")]
            syzygy: None,
        }
    }
}

/// The one place a searcher is built from a choice of algorithm, for the
/// UCI session, `analyse`, `play` and the web app alike.
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
            #[allow(unused_mut)]
            let mut pvs = Pvs::with_config(eval, config.pvs.clone());
            #[cfg(feature = "syzygy")]
            pvs.set_syzygy(config.syzygy.clone());
            Box::new(pvs)
        }
        Algo::Mcts => match &config.policy {
            Some(net) => {
                let blend = Blend::engine(net.clone(), config.policy_net_weight);
                with_tables(Mcts::with_policy(eval, blend, config.mcts.clone()), config)
            }
            None => with_tables(Mcts::with_config(eval, config.mcts.clone()), config),
        },
    }
}

/// `mcts` boxed, with the configuration's tables and its arena allocated
/// (as PVS's table is), so that the first search spends none of its time
/// on it.
fn with_tables<B: MoveGen, E, P>(
    mut mcts: Mcts<E, P>,
    config: &SearchConfig,
) -> Box<dyn Search<B> + Send>
where
    Mcts<E, P>: Search<B> + Send + 'static,
{
    #[cfg(feature = "syzygy")]
    mcts.set_syzygy(config.syzygy.clone());
    #[cfg(not(feature = "syzygy"))]
    let _ = config;
    mcts.allocate();
    Box::new(mcts)
}

/// MCTS as the engine plays it: PUCT, tree-parallel on several threads.
pub fn engine_mcts(threads: usize) -> MctsConfig {
    MctsConfig::new(Variant::Puct).threads(threads, Parallelism::Tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for a in Algo::ALL {
            assert_eq!(Algo::parse(a.name()), Some(a));
        }
        assert_eq!(Algo::parse("PVS"), Some(Algo::Pvs));
        assert_eq!(Algo::parse("abacus"), None);
    }
}
