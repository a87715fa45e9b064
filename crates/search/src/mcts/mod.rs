//! Monte Carlo tree search: UCT with random rollouts, the MCTS-minimax
//! hybrids (MCTS-IC, MCTS-IR, MCTS-IP), PUCT, an MCTS-solver, and root- and
//! tree-parallel search, all behind [`Search`].
//!
//! Each iteration walks down the tree choosing children by the variant's
//! rule, expands the first position not yet in the tree (creating all its
//! children at once, with their priors), values it (a rollout, a cut-off
//! rollout scored by the evaluator, or a quiescence search), and backs the
//! result up, one side's win being the other's loss. Values are win
//! probabilities; evaluator scores become probabilities through a sigmoid
//! ([`MctsConfig::eval_scale`]) and the root value goes back to centipawns
//! through its inverse. With the solver on, positions whose result is known
//! (mates, stalemates, draws by rule, and every position whose children
//! settle it) are proven, so that mates are found exactly and reported as
//! `mate N` rather than averaged away. The move played is the most visited
//! one (a proven win when there is one).
//!
//! The tree lives in an arena preallocated to [`MctsConfig::node_budget`]
//! nodes; when it is full the tree stops growing. Between moves of the same
//! game the subtree of the moves played is kept (compacted to the front of
//! the arena). Randomness comes from a seeded xoshiro generator: one thread
//! with a fixed seed and an iteration or node limit is reproducible.
//!
//! Which to build: [`Mcts::puct`] is the variant that plays (the engine's
//! `Algorithm mcts`); [`Mcts::new`] is plain UCT with random rollouts, the
//! textbook algorithm; [`Mcts::with_config`] takes any [`MctsConfig`]. An
//! iteration (a playout) is not a node: see [`MctsConfig`] ("Iterations and
//! nodes") for [`MctsConfig::iterations`](MctsConfig#structfield.iterations)
//! against [`Limits::nodes`](crate::Limits::nodes).
//!
//! ```
//! use fianchetto_board::{Bitboards, Board, Role};
//! use fianchetto_eval::{Evaluator, Score};
//! use fianchetto_movegen::Game;
//! use fianchetto_search::mcts::{Mcts, MctsConfig, Variant};
//! use fianchetto_search::{Limits, Search};
//!
//! #[derive(Clone, Default)]
//! struct Material;
//! impl<B: Board> Evaluator<B> for Material {
//!     fn evaluate(&mut self, b: &B) -> Score {
//!         let v = [100, 300, 300, 500, 900, 0];
//!         let side = |c| Role::ALL.iter().map(|&r| v[r.index()] * b.pieces(c, r).count() as i32).sum::<i32>();
//!         Score(side(b.turn()) - side(!b.turn()))
//!     }
//! }
//!
//! // A back-rank mate: the solver proves 1.Rd8#.
//! let game = Game::new(Bitboards::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")?);
//! let mut mcts = Mcts::with_config(Material, MctsConfig::new(Variant::Puct).iterations(2_000));
//! let result = mcts.search(&game, &Limits::default(), &mut |_| {});
//! assert_eq!(result.best_move.unwrap().to_string(), "d1d8");
//! assert_eq!(result.score, Score::mate_in(1));
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```

mod config;
mod policy;
mod tree;
mod worker;

pub use config::{MctsConfig, Parallelism, Variant};
pub use policy::{Blend, HandPolicy, NetPolicy, Policy, ENGINE_NET_WEIGHT};

use crate::limits::nps;
use crate::time::Instant;
use crate::time::TimeManager;
use crate::{Bound, Info, Limits, Report, Search, SearchResult};
use fianchetto_board::Move;
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Duration;
use tree::Tree;
use worker::{from_child, Shared, Worker};

/// The longest principal variation reported.
const MAX_PV: usize = 64;

/// One root move after a search: what the tree knows about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootChild {
    /// The move.
    pub mv: Move,
    /// Completed visits (all trees).
    pub visits: u64,
    /// The mean result for the side to move at the root, in `[0, 1]`.
    pub value: f64,
    /// The exact score of the move for the side to move at the root, when
    /// the solver proved it (mates in plies from the root).
    pub proven: Option<Score>,
}

/// Where the last search's root was in its game (for tree reuse).
#[derive(Clone, Copy, Debug)]
struct LastRoot {
    start_hash: u64,
    ply: usize,
    root_hash: u64,
}

/// Monte Carlo tree search with evaluator `E` (used by every variant but
/// plain UCT).
///
/// [`Mcts::puct`] builds the variant that plays (PUCT, as the engine runs
/// it); [`Mcts::new`] builds plain UCT with random rollouts, the textbook
/// algorithm, which plays far weaker; [`Mcts::with_config`] any variant.
///
/// Budgets: [`MctsConfig::iterations`](MctsConfig#structfield.iterations)
/// counts playouts (leaves expanded and valued),
/// [`Limits::nodes`](crate::Limits::nodes) counts positions visited (moves
/// played in the tree and in rollouts, quiescence nodes), many per playout;
/// whichever is reached first ends the search. See [`MctsConfig`]
/// ("Iterations and nodes").
pub struct Mcts<E, P = HandPolicy> {
    eval: E,
    policy: P,
    config: MctsConfig,
    trees: Vec<Tree>,
    last: Option<LastRoot>,
    children: Vec<RootChild>,
    iterations: u64,
}

impl<E, P> std::fmt::Debug for Mcts<E, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mcts")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl<E> Mcts<E, HandPolicy> {
    /// Plain UCT with the default configuration ([`MctsConfig::default`]):
    /// `w/n + √2·sqrt(ln N / n)` selection and uniformly random rollouts,
    /// `eval` unused. The textbook algorithm, kept for teaching and
    /// comparison; for the variant that plays, use [`Mcts::puct`].
    pub fn new(eval: E) -> Mcts<E> {
        Mcts::with_config(eval, MctsConfig::default())
    }

    /// The variant that plays: PUCT with its defaults
    /// ([`MctsConfig::puct`]), priors from a move ordering and leaf values
    /// from a quiescence search on `eval`. One thread; for more,
    /// `Mcts::with_config(eval, MctsConfig::puct().threads(n, Parallelism::Tree))`,
    /// as the engine does.
    pub fn puct(eval: E) -> Mcts<E> {
        Mcts::with_config(eval, MctsConfig::puct())
    }

    /// MCTS with `config`, and (for PUCT) the hand-written policy
    /// [`HandPolicy`]. The arena is allocated at the first search.
    pub fn with_config(eval: E, config: MctsConfig) -> Mcts<E> {
        Mcts::with_policy(eval, HandPolicy, config)
    }
}

impl<E, P> Mcts<E, P> {
    /// MCTS with `config` whose PUCT priors come from `policy` (a
    /// [`NetPolicy`], [`HandPolicy`] or a user's own [`Policy`]); the other
    /// variants do not read it.
    pub fn with_policy(eval: E, policy: P, config: MctsConfig) -> Mcts<E, P> {
        Mcts {
            eval,
            policy,
            config,
            trees: Vec::new(),
            last: None,
            children: Vec::new(),
            iterations: 0,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Replaces the configuration (and forgets the tree).
    pub fn set_config(&mut self, config: MctsConfig) {
        self.config = config;
        self.trees.clear();
        self.last = None;
    }

    /// The root moves of the last search, as the tree saw them (visits,
    /// value, proof), in no particular order.
    pub fn root_children(&self) -> &[RootChild] {
        &self.children
    }

    /// The visits of the last search's root (all trees), reused ones
    /// included.
    pub fn root_visits(&self) -> u64 {
        self.trees.iter().map(|t| t.node(0).visits() as u64).sum()
    }

    /// Iterations run by the last search.
    pub fn last_iterations(&self) -> u64 {
        self.iterations
    }

    /// Nodes in use in the arena(s), and their capacity.
    pub fn tree_size(&self) -> (usize, usize) {
        (
            self.trees.iter().map(Tree::used).sum(),
            self.trees.iter().map(Tree::capacity).sum(),
        )
    }

    /// Prepares the trees for a search of `game`: reuses the subtree of the
    /// moves played since the last search when the game continues, starts
    /// afresh otherwise.
    fn prepare<B: MoveGen>(&mut self, game: &Game<B>, restricted: bool) {
        let cfg = &self.config;
        let count = if cfg.threads > 1 && cfg.parallelism == Parallelism::Root {
            cfg.threads
        } else {
            1
        };
        let budget = (cfg.node_budget / count).max(64);
        if self.trees.len() != count || self.trees.iter().any(|t| t.capacity() != budget) {
            self.trees = (0..count).map(|_| Tree::new(budget)).collect();
            self.last = None;
        }
        let positions = game.positions();
        let played = match self.last {
            Some(l)
                if cfg.reuse_tree
                    && !restricted
                    && l.ply < positions.len()
                    && positions[0].hash() == l.start_hash
                    && positions[l.ply].hash() == l.root_hash =>
            {
                Some(&game.moves()[l.ply..])
            }
            _ => None,
        };
        for tree in &mut self.trees {
            let Some(moves) = played else {
                tree.reset();
                continue;
            };
            let mut node = Some(0);
            for &mv in moves {
                node = node.and_then(|n| tree.child_by_move(n, mv));
            }
            match node {
                Some(n) => tree.reroot(n),
                None => tree.reset(),
            }
            // A leaf proven drawn by repetition was a draw on the old path
            // only; as the root it must be searched.
            if tree.node(0).proven().is_some() && tree.children(0).is_none() {
                tree.reset();
            }
        }
        self.last = if restricted {
            None
        } else {
            Some(LastRoot {
                start_hash: positions[0].hash(),
                ply: positions.len() - 1,
                root_hash: game.board().hash(),
            })
        };
    }
}

/// The children of `node` in `tree` as [`RootChild`]ren, merged into `out`
/// by move (root parallel adds several trees up).
fn collect(tree: &Tree, node: u32, out: &mut Vec<RootChild>) {
    let Some(range) = tree.children(node) else {
        return;
    };
    for i in range {
        let n = tree.node(i);
        let (mv, visits, sum) = (n.mv(), n.visits() as u64, n.value_sum());
        let proven = n.proven().map(from_child);
        match out.iter_mut().find(|c| c.mv == mv) {
            Some(c) => {
                let total = c.visits + visits;
                if total > 0 {
                    c.value = (c.value * c.visits as f64 + sum) / total as f64;
                }
                c.visits = total;
                c.proven = c.proven.or(proven);
            }
            None => {
                let value = if visits > 0 { sum / visits as f64 } else { 0.5 };
                out.push(RootChild {
                    mv,
                    visits,
                    value,
                    proven,
                });
            }
        }
    }
}

/// The move to play among `children`: the shortest proven mate if any;
/// otherwise the most visited move not proven lost (ties: better value).
fn best_child(children: &[RootChild]) -> Option<&RootChild> {
    let is_win = |c: &&RootChild| c.proven.is_some_and(|s| s.0 >= Score::MATE_BOUND.0);
    if let Some(w) = children.iter().filter(is_win).max_by_key(|c| c.proven) {
        return Some(w);
    }
    let lost = |c: &RootChild| c.proven.is_some_and(|s| s.0 < 0);
    let key = |c: &&RootChild| (!lost(c), c.visits, (c.value * 1e9) as i64);
    children.iter().max_by_key(key)
}

/// The score of `child` for the side to move at the root.
fn child_score(child: &RootChild, scale: f64) -> Score {
    if let Some(s) = child.proven {
        return s;
    }
    let q = child.value.clamp(1e-4, 1.0 - 1e-4);
    let cp = scale.max(1.0) * (q / (1.0 - q)).ln();
    Score((cp.round() as i32).clamp(-Score::MATE_BOUND.0 + 1, Score::MATE_BOUND.0 - 1))
}

impl<B: MoveGen, E: Evaluator<B> + Clone, P: Policy<B>> Search<B> for Mcts<E, P> {
    fn search(&mut self, game: &Game<B>, limits: &Limits, report: Report<'_>) -> SearchResult {
        let board = game.board().clone();
        let time = TimeManager::new(limits, board.turn());
        let mut root_moves = board.legal_moves();
        if !limits.searchmoves.is_empty() {
            root_moves.retain(|m| limits.searchmoves.contains(m));
        }
        self.children.clear();
        self.iterations = 0;
        if root_moves.is_empty() {
            let score = if limits.searchmoves.is_empty() && board.in_check() {
                Score::mated_in(0)
            } else {
                Score::DRAW
            };
            return SearchResult {
                score,
                ..SearchResult::default()
            };
        }
        let restricted = !limits.searchmoves.is_empty();
        self.prepare(game, restricted);
        let history: Vec<u64> = game.hashes().collect();
        let cfg = self.config.clone();
        let iteration_limit = cfg.iterations.unwrap_or(u64::MAX);
        let timed = time.hard().is_some();
        let shared = Shared {
            config: &cfg,
            stop: &limits.stop,
            abort: AtomicBool::new(false),
            claimed: AtomicU64::new(0),
            done: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
            evals: AtomicU64::new(0),
            depth_sum: AtomicU64::new(0),
            seldepth: AtomicU32::new(0),
            iteration_limit,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            stop_when_full: !timed
                && limits.nodes.is_none()
                && cfg.iterations.is_none()
                && !limits.infinite,
            time,
            searchmoves: &limits.searchmoves,
            vloss: if cfg.threads > 1 && cfg.parallelism == Parallelism::Tree {
                cfg.virtual_loss
            } else {
                0
            },
        };
        // Each search of a game gets its own stream, still reproducible.
        let base_seed = cfg.seed ^ board.hash();
        let seed = |i: usize| splitmix(base_seed.wrapping_add(i as u64));
        let tree_parallel = cfg.threads > 1 && cfg.parallelism == Parallelism::Tree;
        let trees = &self.trees;
        // Reported times count from the very start (arena allocation included),
        // as the deadlines do.
        let start = shared.time.start();
        let mut last_report = start;
        let mut last_depth = 0;
        let mut scratch = Vec::new();
        let clock_soft = limits.movetime.is_none() && !limits.infinite;
        {
            let shared = &shared;
            let main_eval = self.eval.clone();
            let main_policy = self.policy.clone();
            let board = &board;
            let history = &history;
            // The main thread's duties every 256 iterations: the soft
            // limits (depth, clock) and the progress reports.
            let mut main_loop = |_: &Worker<B, E, P>, done: u64| {
                if done & 255 != 0 {
                    return;
                }
                let depth = (shared.depth_sum.load(Relaxed) / done.max(1)) as u32;
                if limits.depth.is_some_and(|d| depth >= d)
                    || (clock_soft && shared.time.soft_expired(2))
                {
                    shared.abort.store(true, Relaxed);
                }
                let now = Instant::now();
                if depth > last_depth || now - last_report >= Duration::from_secs(1) {
                    last_depth = depth;
                    last_report = now;
                    let info = make_info(trees, shared, &cfg, start.elapsed(), &mut scratch);
                    report(&info);
                }
            };
            std::thread::scope(|s| {
                for i in 1..cfg.threads {
                    let tree = if tree_parallel {
                        &trees[0]
                    } else {
                        &trees[i.min(trees.len() - 1)]
                    };
                    let eval = self.eval.clone();
                    let policy = self.policy.clone();
                    let seed = seed(i);
                    s.spawn(move || {
                        let mut w = Worker::new(tree, shared, board, eval, policy, history, seed);
                        w.run(|_, _| {});
                    });
                }
                let mut w = Worker::new(
                    &trees[0],
                    shared,
                    board,
                    main_eval,
                    main_policy,
                    history,
                    seed(0),
                );
                w.run(&mut main_loop);
                // The main thread ending ends the helpers.
                shared.abort.store(true, Relaxed);
            });
        }
        let elapsed = start.elapsed();
        let info = make_info(trees, &shared, &cfg, elapsed, &mut scratch);
        report(&info);
        self.iterations = shared.done.load(Relaxed);
        let mut children = Vec::new();
        for t in trees {
            collect(t, 0, &mut children);
        }
        self.children = children;
        SearchResult {
            best_move: info.pv.first().copied().or(root_moves.first().copied()),
            ponder: info.pv.get(1).copied(),
            score: info.score,
            pv: info.pv,
            depth: info.depth,
            seldepth: info.seldepth,
            nodes: info.nodes,
            evals: shared.evals.load(Relaxed),
            time: elapsed,
        }
    }

    fn clear(&mut self) {
        for t in &self.trees {
            t.reset();
        }
        self.last = None;
        self.children.clear();
    }

    fn name(&self) -> &'static str {
        "mcts"
    }
}

/// The progress report: score and PV from the root children (all trees),
/// the PV continuing in the tree that visited the best move most.
fn make_info(
    trees: &[Tree],
    shared: &Shared<'_>,
    cfg: &MctsConfig,
    elapsed: Duration,
    scratch: &mut Vec<RootChild>,
) -> Info {
    scratch.clear();
    for t in trees {
        collect(t, 0, scratch);
    }
    let mut pv = Vec::new();
    let mut score = Score::DRAW;
    if let Some(best) = best_child(scratch) {
        score = child_score(best, cfg.eval_scale);
        pv.push(best.mv);
        let tree = trees
            .iter()
            .max_by_key(|t| {
                t.child_by_move(0, best.mv)
                    .map_or(0, |c| t.node(c).visits())
            })
            .unwrap_or(&trees[0]);
        let mut node = tree.child_by_move(0, best.mv);
        while let Some(n) = node {
            if pv.len() >= MAX_PV {
                break;
            }
            scratch.clear();
            collect(tree, n, scratch);
            let Some(b) = best_child(scratch) else { break };
            if b.visits == 0 && b.proven.is_none() {
                break;
            }
            pv.push(b.mv);
            node = tree.child_by_move(n, b.mv);
        }
    }
    // A proven root (all trees agree on proofs) overrides the estimate.
    if cfg.solver {
        if let Some(s) = trees.iter().find_map(|t| t.node(0).proven()) {
            score = s;
        }
    }
    let done = shared.done.load(Relaxed).max(1);
    let nodes = shared.nodes.load(Relaxed);
    let used: usize = trees.iter().map(Tree::used).sum();
    let capacity: usize = trees.iter().map(Tree::capacity).sum();
    Info {
        depth: (shared.depth_sum.load(Relaxed) / done).max(1) as u32,
        seldepth: shared.seldepth.load(Relaxed),
        score,
        bound: Bound::Exact,
        nodes,
        nps: nps(nodes, elapsed),
        hashfull: (used as u64 * 1000 / capacity.max(1) as u64) as u32,
        time: elapsed,
        pv,
        tbhits: 0,
    }
}

/// splitmix64: spreads nearby seeds (thread numbers) far apart.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, Board};
    use fianchetto_eval::Material;

    #[test]
    fn constructors_say_which_variant() {
        // `new` stays plain UCT; `puct` is the variant that plays.
        assert_eq!(Mcts::new(()).config(), &MctsConfig::default());
        assert_eq!(Mcts::new(()).config().variant, Variant::Uct);
        assert_eq!(Mcts::puct(()).config(), &MctsConfig::puct());
        assert_eq!(MctsConfig::puct(), MctsConfig::new(Variant::Puct));
        assert_eq!(MctsConfig::puct().exploration, 2.0);
    }

    #[test]
    fn iterations_are_playouts_and_nodes_are_positions() {
        let game = Game::new(Bitboards::startpos());
        // An iteration budget is exact, and costs many more nodes.
        let mut mcts = Mcts::with_config(Material::classic(), MctsConfig::puct().iterations(300));
        let r = mcts.search(&game, &Limits::default(), &mut |_| {});
        assert_eq!(mcts.last_iterations(), 300);
        assert!(r.nodes > 300, "{} nodes", r.nodes);
        // A node budget stops after far fewer iterations than its nodes.
        let mut mcts = Mcts::puct(Material::classic());
        let r = mcts.search(&game, &Limits::nodes(3_000), &mut |_| {});
        assert!(r.nodes >= 3_000, "{} nodes", r.nodes);
        assert!(mcts.last_iterations() < 3_000, "{}", mcts.last_iterations());
        // Plain UCT plays random rollouts: a few iterations, many nodes.
        let mut uct = Mcts::new(Material::classic());
        let r = uct.search(&game, &Limits::nodes(3_000), &mut |_| {});
        assert!(
            uct.last_iterations() * 10 < r.nodes,
            "{} for {}",
            uct.last_iterations(),
            r.nodes
        );
        assert!(game.board().is_legal(r.best_move.expect("a move")));
    }
}
