//! [`MctsConfig`]: which MCTS variant runs, with every parameter in one
//! place (so an experiment is one struct literal).

use std::fmt;

/// The MCTS variant: how a new leaf is valued and how children are chosen.
///
/// The first four follow Palaiologos' survey (after Baier and Winands'
/// MCTS-minimax hybrids); [`Variant::Puct`] is the AlphaZero selection rule
/// with a hand-written policy and a quiescence value instead of networks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Plain UCT: `w/n + c·sqrt(ln N / n)`, uniformly random rollouts to the
    /// end of the game (or [`MctsConfig::max_rollout`] plies, scored a draw).
    #[default]
    Uct,
    /// MCTS-IC: random rollouts cut off after [`MctsConfig::cutoff`] plies
    /// and scored by the evaluator (the sigmoid of its score).
    Ic,
    /// MCTS-IR: rollouts whose moves are chosen by a shallow search (one ply
    /// plus quiescence; a random move with probability
    /// [`MctsConfig::ir_epsilon`]), cut off after [`MctsConfig::cutoff`]
    /// plies and scored by the evaluator.
    Ir,
    /// MCTS-IP: every new node starts with [`MctsConfig::prior_weight`]
    /// virtual visits worth the evaluation of its position; random rollouts
    /// as in [`Variant::Uct`].
    Ip,
    /// PUCT: `Q + c·P·sqrt(N)/(1+n)` with priors `P` from a cheap move
    /// ordering (captures by SEE, checks, promotions) and leaf values from
    /// a quiescence search (no rollouts).
    Puct,
}

impl Variant {
    /// Every variant, in the order of the documentation.
    pub const ALL: [Variant; 5] = [
        Variant::Uct,
        Variant::Ic,
        Variant::Ir,
        Variant::Ip,
        Variant::Puct,
    ];

    /// The short name (`uct`, `ic`, `ir`, `ip`, `puct`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Uct => "uct",
            Variant::Ic => "ic",
            Variant::Ir => "ir",
            Variant::Ip => "ip",
            Variant::Puct => "puct",
        }
    }

    /// Parses a short name (case-insensitive); `None` for an unknown one.
    pub fn parse(name: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name.trim()))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How several threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Parallelism {
    /// Root parallel: every thread grows its own tree (with its own seed and
    /// a share of the node budget); the root children are merged by move at
    /// the end (visits and values added).
    Root,
    /// Tree parallel: one shared tree of atomic counters; a thread walking
    /// down adds a virtual loss to every node on its path, so that the others
    /// look elsewhere until it backs its result up.
    #[default]
    Tree,
}

/// Every parameter of [`super::Mcts`].
///
/// [`MctsConfig::default`] is plain UCT with random rollouts (the textbook
/// algorithm, for teaching and comparison); [`MctsConfig::puct`] is the
/// variant that plays, the one the engine runs for `Algorithm mcts`
/// (`MctsConfig::puct().threads(n, Parallelism::Tree)` with its `Threads`).
///
/// # Iterations and nodes
///
/// An *iteration* (a playout) is one walk from the root: select down the
/// tree, expand one leaf, value it (a rollout, a cut-off rollout or a
/// quiescence search, by variant), back the result up. A *node*, as in
/// [`Limits::nodes`](crate::Limits::nodes) and [`SearchResult::nodes`](crate::SearchResult::nodes),
/// is a position visited on the way: every move played in the tree, in a
/// rollout, and every quiescence node. So one iteration costs many nodes (a
/// random rollout up to [`MctsConfig::max_rollout`] of them), and
/// `Limits::nodes(n)` stops after far fewer than `n` iterations.
/// [`MctsConfig::iterations`] counts iterations and is the reproducible
/// budget of an experiment; `Limits::nodes` makes MCTS comparable with the
/// other searches on the same node budget. Whichever comes first ends the
/// search. The iteration count is exact (the threads claim each iteration
/// before running it); the node limit is checked before each iteration, so
/// the search may pass it by the iteration each thread is in. With neither,
/// nor a clock, nor `infinite`, the search ends when the tree's arena
/// ([`MctsConfig::node_budget`], counted in tree nodes, not searched ones)
/// is full.
///
/// ```
/// use fianchetto_search::mcts::{MctsConfig, Parallelism, Variant};
///
/// let c = MctsConfig::new(Variant::Puct).threads(2, Parallelism::Tree).seed(7);
/// assert_eq!(c.variant, Variant::Puct);
/// assert_eq!(c.threads, 2);
/// assert_eq!(MctsConfig::default().exploration, std::f64::consts::SQRT_2);
/// assert_eq!(MctsConfig::puct(), MctsConfig::new(Variant::Puct));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The variant.
    pub variant: Variant,
    /// The exploration constant: `C` of UCT (√2 by default) or `c` of PUCT.
    pub exploration: f64,
    /// Rollout plies before the evaluator cuts it off (IC, IR).
    pub cutoff: u32,
    /// The longest random rollout (UCT, IP); a rollout that reaches it
    /// without a result counts as a draw.
    pub max_rollout: u32,
    /// IR: the probability of a random move instead of the searched one.
    pub ir_epsilon: f64,
    /// IP: how many virtual visits the evaluation of a new node is worth.
    pub prior_weight: u32,
    /// PUCT: the softmax temperature of the policy's logits.
    pub policy_temperature: f64,
    /// PUCT: how much a move's history (how it has fared so far elsewhere
    /// in the tree, against what its side expected there: a running mean
    /// of the differences in win probability) adds to its logit at a new
    /// node; 0 switches the history off. The history heuristic of
    /// alpha-beta, read by the priors.
    pub history_weight: f32,
    /// Centipawns ↔ win probability: `p = 1 / (1 + e^(-cp / scale))`.
    pub eval_scale: f64,
    /// MCTS-solver: proven wins, losses and draws propagate up the tree and
    /// are never averaged away.
    pub solver: bool,
    /// Search threads (at least 1).
    pub threads: usize,
    /// How the threads share the work when there are several.
    pub parallelism: Parallelism,
    /// Virtual losses added per thread passing through a node (tree parallel).
    pub virtual_loss: u32,
    /// The node arena's size (nodes; 32 bytes each): the tree's memory,
    /// never exceeded. When it is full the most visited part of the tree
    /// (at most half) is kept and the rest recycled; a search with no other limit ends
    /// there instead.
    pub node_budget: usize,
    /// Keep the subtree of the moves played since the last search when the
    /// same game continues.
    pub reuse_tree: bool,
    /// On a clock, stop as soon as the most visited root move cannot be
    /// overtaken in the time left (at the playout rate so far), saving the
    /// rest for later moves.
    pub stop_early: bool,
    /// Stop after this many iterations (playouts: one leaf expanded and
    /// valued each), on top of the limits. Not nodes: see "Iterations and
    /// nodes" above for how they differ from [`Limits::nodes`](crate::Limits::nodes).
    pub iterations: Option<u64>,
    /// The random seed (thread `i` uses a seed derived from it and `i`).
    pub seed: u64,
}

impl Default for MctsConfig {
    /// Plain UCT ([`Variant::Uct`]): `MctsConfig::new(Variant::Uct)`.
    fn default() -> MctsConfig {
        MctsConfig::new(Variant::Uct)
    }
}

impl MctsConfig {
    /// The defaults for `variant`: √2 for the UCT family, 1.2 for PUCT
    /// (measured: 1.2 beat 2.0 by SPRT with the engine's policy blend).
    pub fn new(variant: Variant) -> MctsConfig {
        MctsConfig {
            variant,
            exploration: match variant {
                Variant::Puct => 1.2,
                _ => std::f64::consts::SQRT_2,
            },
            cutoff: match variant {
                Variant::Ir => 2,
                _ => 4,
            },
            max_rollout: 200,
            ir_epsilon: 0.1,
            prior_weight: 10,
            // 1.3 beat 1.0 by SPRT (with the engine's blended policy).
            policy_temperature: 1.3,
            // 10 beat no history by SPRT (with the engine's blended policy).
            history_weight: match variant {
                Variant::Puct => 10.0,
                _ => 0.0,
            },
            // PUCT's quiescence values: 140 cp beat 200 by SPRT.
            eval_scale: match variant {
                Variant::Puct => 140.0,
                _ => 200.0,
            },
            solver: true,
            threads: 1,
            parallelism: Parallelism::Tree,
            virtual_loss: 3,
            node_budget: 1 << 20,
            reuse_tree: true,
            stop_early: true,
            iterations: None,
            seed: 0x5eed_f1a9_c4e7_70a1,
        }
    }

    /// The variant that plays: PUCT ([`Variant::Puct`]: move-ordering
    /// priors, quiescence values, no rollouts) with its defaults (`c` = 1.2,
    /// policy temperature 1.3, the solver and tree reuse on). The engine's
    /// `Algorithm mcts` is this with its thread count, tree parallel. The
    /// same as `MctsConfig::new(Variant::Puct)`.
    pub fn puct() -> MctsConfig {
        MctsConfig::new(Variant::Puct)
    }

    /// Sets the exploration constant.
    pub fn exploration(mut self, c: f64) -> MctsConfig {
        self.exploration = c;
        self
    }

    /// Sets the number of threads and how they share the work.
    pub fn threads(mut self, threads: usize, parallelism: Parallelism) -> MctsConfig {
        self.threads = threads.max(1);
        self.parallelism = parallelism;
        self
    }

    /// Sets the seed.
    pub fn seed(mut self, seed: u64) -> MctsConfig {
        self.seed = seed;
        self
    }

    /// Sets the node budget.
    pub fn node_budget(mut self, nodes: usize) -> MctsConfig {
        self.node_budget = nodes;
        self
    }

    /// Sets the node budget to what fits in `mb` mebibytes (32 bytes a
    /// node): how the engine's `Hash` bounds the tree's memory.
    ///
    /// ```
    /// use fianchetto_search::mcts::MctsConfig;
    /// assert_eq!(MctsConfig::puct().memory_mb(16).node_budget, 16 << 15);
    /// ```
    pub fn memory_mb(self, mb: usize) -> MctsConfig {
        self.node_budget(mb.saturating_mul(1 << 20) / super::tree::NODE_BYTES)
    }

    /// Sets the iteration (playout) limit; see [`MctsConfig::iterations`](MctsConfig#structfield.iterations).
    pub fn iterations(mut self, iterations: u64) -> MctsConfig {
        self.iterations = Some(iterations);
        self
    }

    /// Switches the MCTS-solver on or off.
    pub fn solver(mut self, on: bool) -> MctsConfig {
        self.solver = on;
        self
    }

    /// Switches tree reuse on or off.
    pub fn reuse_tree(mut self, on: bool) -> MctsConfig {
        self.reuse_tree = on;
        self
    }
}

impl fmt::Display for MctsConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} c={:.2}", self.variant, self.exploration)?;
        match self.variant {
            Variant::Ic => write!(f, " cutoff={}", self.cutoff)?,
            Variant::Ir => write!(f, " cutoff={} eps={}", self.cutoff, self.ir_epsilon)?,
            Variant::Ip => write!(f, " prior={}", self.prior_weight)?,
            _ => {}
        }
        if self.threads > 1 {
            write!(f, " threads={} {:?}", self.threads, self.parallelism)?;
        }
        Ok(())
    }
}
