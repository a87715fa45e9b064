//! Monte Carlo tree search: UCT with random rollouts, the MCTS-minimax
//! hybrids (MCTS-IC, MCTS-IR, MCTS-IP), PUCT, an MCTS-solver, and root- and
//! tree-parallel search, all behind [`Search`].
//!
//! Each iteration walks down the tree choosing children by the variant's
//! rule, expands the first position not yet in the tree (creating all its
//! children at once, with their priors), values it (a rollout, a cut-off
//! rollout scored by the evaluator, or a quiescence search), and backs the
//! result up, one side's win being the other's loss. PUCT expands lazily: a
//! new position is valued first and expanded only when a playout comes
//! back to it, so that the many leaves visited once cost no priors and no
//! room for children; its priors also read how each move has fared so far
//! elsewhere in the tree ([`MctsConfig::history_weight`]). Values are win
//! probabilities; evaluator scores become probabilities through a sigmoid
//! ([`MctsConfig::eval_scale`]) and the root value goes back to centipawns
//! through its inverse. With the solver on, positions whose result is known
//! (mates, stalemates, draws by rule, and every position whose children
//! settle it) are proven, so that mates are found exactly and reported as
//! `mate N` rather than averaged away. The move played is the most visited
//! one (a proven win when there is one).
//!
//! The tree lives in an arena preallocated to [`MctsConfig::node_budget`]
//! nodes (the engine's `Hash`); when it is full the search pauses, keeps
//! the most visited part of the tree (every other node becomes a leaf
//! again, its statistics kept) and goes on growing in the room freed, so
//! that a long search never needs more memory. A search with no limit at
//! all ends when the arena is full instead. Between moves of the same
//! game the subtree of the moves played is kept: its root becomes the root
//! at no cost, and the rest of the old tree is dropped at the next
//! recycling. Randomness comes from a seeded xoshiro generator: one thread
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

mod clock;
mod config;
mod history;
mod policy;
mod tablebase;
mod tree;
mod worker;

pub use config::{MctsConfig, Parallelism, Variant};
pub use policy::{Blend, HandPolicy, NetPolicy, Policy, ENGINE_NET_WEIGHT};

use crate::limits::nps;
use crate::time::Instant;
use crate::time::TimeManager;
use crate::{Bound, Info, Limits, Report, Search, SearchResult};
use clock::time_is_up;
use fianchetto_board::Move;
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Duration;
use tablebase::{Tables, TbProbe};
use tree::Tree;
use worker::{from_child, Shared, Worker};

/// The longest principal variation reported.
const MAX_PV: usize = 64;

/// What recycling an arena costs per node kept before it was ever
/// measured: more than it takes on a loaded machine (about 20 to 40 ns).
const RECYCLE_COST_GUESS: Duration = Duration::from_nanos(60);

/// On a clock, a recycling keeps what it can move in this fraction (one
/// in so many) of the time left to the search.
const RECYCLE_SHARE: u32 = 8;

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
    recycles: u32,
    /// What the last recycling took per node kept (an estimate before).
    recycle_cost: Duration,
    syzygy: Option<Tables>,
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
    /// [`HandPolicy`]. The arena is allocated at the first search (or by
    /// [`Mcts::allocate`]).
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
            recycles: 0,
            recycle_cost: RECYCLE_COST_GUESS,
            syzygy: None,
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

    /// Searches with the tables of `syzygy` (None: without tables): the
    /// root's moves are ranked by them, and positions below the root that
    /// they decide become proven leaves. `probe_limit` and `rule50` apply;
    /// `probe_depth` is PVS's alone.
    #[cfg(feature = "syzygy")]
    pub fn set_syzygy(&mut self, syzygy: Option<crate::pvs::Syzygy>) {
        self.syzygy = syzygy;
        self.trees.clear();
        self.last = None;
    }

    /// Allocates the arena(s) of [`MctsConfig::node_budget`] now, if the
    /// configuration has not got them yet, rather than at the next search:
    /// the engine does this when it is set up, so that its first search on
    /// a clock does not spend its time there (a 1 GiB arena takes about half
    /// a second to allocate and touch).
    pub fn allocate(&mut self) {
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

    /// How many times the last search recycled its full arena(s)
    /// ([`MctsConfig::node_budget`]): kept the most visited part of the
    /// tree and went on growing in the room freed.
    pub fn last_recycles(&self) -> u32 {
        self.recycles
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
        self.allocate();
        let cfg = &self.config;
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
            // A new root without children has nothing worth keeping (and a
            // leaf proven drawn by repetition was a draw on the old path
            // only): the arena starts empty, its room all free.
            match node {
                Some(n) if tree.children(n).is_some() => tree.reroot(n),
                _ => tree.reset(),
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

/// How root moves rank, best first: proven wins (the shortest mate
/// first), then the moves not proven lost by visits, then by value.
fn rank_key(c: &RootChild) -> (Option<Score>, bool, u64, i64) {
    let win = c.proven.filter(|s| s.0 >= Score::MATE_BOUND.0);
    let lost = c.proven.is_some_and(|s| s.0 < 0);
    (win, !lost, c.visits, (c.value * 1e9) as i64)
}

/// The move to play among `children`: the shortest proven mate if any;
/// otherwise the most visited move not proven lost (ties: better value).
fn best_child(children: &[RootChild]) -> Option<&RootChild> {
    children.iter().max_by_key(|c| rank_key(c))
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

impl<E: Clone, P: Clone> Mcts<E, P> {
    /// One search reporting the `lines` best root moves (MultiPV); the
    /// results are those lines, best first (one empty result when the root
    /// has no move).
    fn run<B: MoveGen>(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        lines: usize,
        report: &mut dyn FnMut(usize, &Info),
    ) -> Vec<SearchResult>
    where
        E: Evaluator<B>,
        P: Policy<B>,
    {
        // A clone (an `Arc`), as the tree is prepared below.
        let tables = self.syzygy.clone();
        let (narrowed, tb) = TbProbe::start(tables.as_ref(), game.board(), limits);
        let limits = narrowed.as_ref().unwrap_or(limits);
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
            return vec![SearchResult {
                score,
                ..SearchResult::default()
            }];
        }
        let restricted = !limits.searchmoves.is_empty();
        self.prepare(game, restricted);
        let history: Vec<u64> = game.hashes().collect();
        let cfg = self.config.clone();
        let iteration_limit = cfg.iterations.unwrap_or(u64::MAX);
        let timed = time.hard().is_some();
        let stop_when_full =
            !timed && limits.nodes.is_none() && cfg.iterations.is_none() && !limits.infinite;
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
            stop_when_full,
            recycling: AtomicBool::new(!stop_when_full),
            full: AtomicBool::new(false),
            time,
            searchmoves: &limits.searchmoves,
            tb,
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
        // Reported times count from the very start (arena allocation included),
        // as the deadlines do.
        let start = shared.time.start();
        let mut last_report = start;
        let mut last_depth = 0;
        let mut scratch = Vec::new();
        self.recycles = 0;
        // The search runs in epochs: one ends when an arena is full, which
        // is then recycled, and the next goes on (with the same limits,
        // counters and clock).
        loop {
            let trees = &self.trees;
            let shared = &shared;
            let epoch = self.recycles as usize * cfg.threads;
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
                let out_of_time =
                    time_is_up(&shared.time, trees, cfg.stop_early, done, &mut scratch);
                if limits.depth.is_some_and(|d| depth >= d) || out_of_time {
                    shared.abort.store(true, Relaxed);
                }
                let now = Instant::now();
                if depth > last_depth || now - last_report >= Duration::from_secs(1) {
                    last_depth = depth;
                    last_report = now;
                    let elapsed = start.elapsed();
                    for (k, info) in make_lines(trees, shared, &cfg, elapsed, lines, &mut scratch)
                        .iter()
                        .enumerate()
                    {
                        report(k + 1, info);
                    }
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
                    let seed = seed(epoch + i);
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
                    seed(epoch),
                );
                w.run(&mut main_loop);
                // The main thread ending ends the helpers (unless it ended
                // for the arena to be recycled: they see that too).
                if !shared.full.load(Relaxed) {
                    shared.abort.store(true, Relaxed);
                }
            });
            if shared.abort.load(Relaxed) || !shared.full.swap(false, Relaxed) {
                break;
            }
            // Recycling pauses every thread for a time that grows with what
            // it keeps: on a clock it keeps what it can move in a share of
            // the time left, so that a short move pays little for it.
            let elapsed = start.elapsed();
            let left = match (shared.time.soft(), shared.time.hard()) {
                (Some(soft), _) if soft > elapsed => Some(soft - elapsed),
                (_, Some(hard)) => Some(hard.saturating_sub(elapsed)),
                _ => None,
            };
            let began = Instant::now();
            let mut kept = 0;
            for tree in &mut self.trees {
                if tree.is_full() {
                    let half = tree.capacity() / 2;
                    let keep = left.map_or(half, |left| {
                        let affordable = left.div_f64(RECYCLE_SHARE as f64).as_secs_f64()
                            / self.recycle_cost.as_secs_f64().max(1e-12);
                        half.min(affordable as usize)
                    });
                    tree.recycle(keep);
                    kept += tree.used();
                    if tree.is_full() {
                        // Nothing could be freed: grow no more.
                        shared.recycling.store(false, Relaxed);
                    }
                }
            }
            self.recycle_cost = began.elapsed().div_f64(kept.max(1) as f64);
            self.recycles += 1;
        }
        let trees = &self.trees;
        let elapsed = start.elapsed();
        let infos = make_lines(trees, &shared, &cfg, elapsed, lines, &mut scratch);
        for (k, info) in infos.iter().enumerate() {
            report(k + 1, info);
        }
        self.iterations = shared.done.load(Relaxed);
        let mut children = Vec::new();
        for t in trees {
            collect(t, 0, &mut children);
        }
        self.children = children;
        let evals = shared.evals.load(Relaxed);
        infos
            .into_iter()
            .map(|info| SearchResult {
                best_move: info.pv.first().copied().or(root_moves.first().copied()),
                ponder: info.pv.get(1).copied(),
                score: info.score,
                depth: info.depth,
                seldepth: info.seldepth,
                nodes: info.nodes,
                evals,
                time: elapsed,
                pv: info.pv,
            })
            .collect()
    }
}

impl<B: MoveGen, E: Evaluator<B> + Clone, P: Policy<B>> Search<B> for Mcts<E, P> {
    fn search(&mut self, game: &Game<B>, limits: &Limits, report: Report<'_>) -> SearchResult {
        let mut lines = self.run(game, limits, 1, &mut |_, info| report(info));
        lines.swap_remove(0)
    }

    /// Every line from one search: the root moves ranked as the move
    /// played is chosen (proven wins, then visits), each with its value and
    /// the tree's line below it.
    fn search_multipv(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        lines: usize,
        report: &mut dyn FnMut(usize, &Info),
    ) -> Option<Vec<SearchResult>> {
        Some(self.run(game, limits, lines.max(1), report))
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

/// The progress reports of the `lines` best root moves (all trees), each
/// with its score and its line, continued in the tree that visited its
/// move most.
fn make_lines(
    trees: &[Tree],
    shared: &Shared<'_>,
    cfg: &MctsConfig,
    elapsed: Duration,
    lines: usize,
    scratch: &mut Vec<RootChild>,
) -> Vec<Info> {
    scratch.clear();
    for t in trees {
        collect(t, 0, scratch);
    }
    let mut ranked = scratch.clone();
    ranked.sort_by_key(|c| std::cmp::Reverse(rank_key(c)));
    ranked.truncate(lines.max(1));
    let done = shared.done.load(Relaxed).max(1);
    let nodes = shared.nodes.load(Relaxed);
    let used: usize = trees.iter().map(Tree::used).sum();
    let capacity: usize = trees.iter().map(Tree::capacity).sum();
    let info = |score, pv| Info {
        depth: (shared.depth_sum.load(Relaxed) / done).max(1) as u32,
        seldepth: shared.seldepth.load(Relaxed),
        score,
        bound: Bound::Exact,
        nodes,
        nps: nps(nodes, elapsed),
        hashfull: (used as u64 * 1000 / capacity.max(1) as u64) as u32,
        time: elapsed,
        pv,
        tbhits: shared.tb.hits(),
    };
    if ranked.is_empty() {
        return vec![info(Score::DRAW, Vec::new())];
    }
    let mut out: Vec<Info> = ranked
        .iter()
        .map(|c| info(child_score(c, cfg.eval_scale), line(trees, c.mv, scratch)))
        .collect();
    // A proven root (all trees agree on proofs) overrides the estimate.
    if cfg.solver {
        if let Some(s) = trees.iter().find_map(|t| t.node(0).proven()) {
            out[0].score = s;
        }
    }
    out
}

/// The line starting with root move `first`: the best child at each node
/// below it, in the tree that visited `first` most.
fn line(trees: &[Tree], first: Move, scratch: &mut Vec<RootChild>) -> Vec<Move> {
    let mut pv = vec![first];
    let tree = trees
        .iter()
        .max_by_key(|t| t.child_by_move(0, first).map_or(0, |c| t.node(c).visits()))
        .unwrap_or(&trees[0]);
    let mut node = tree.child_by_move(0, first);
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
    pv
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
        assert_eq!(MctsConfig::puct().exploration, 1.2);
    }

    #[test]
    fn the_arena_can_be_allocated_before_the_first_search() {
        let cfg = MctsConfig::puct().node_budget(4096).iterations(200);
        let mut mcts = Mcts::with_config(Material::classic(), cfg);
        assert_eq!(mcts.tree_size(), (0, 0));
        mcts.allocate();
        assert_eq!(mcts.tree_size(), (1, 4096));
        let game = Game::new(Bitboards::startpos());
        mcts.search(&game, &Limits::default(), &mut |_| {});
        let (used, capacity) = mcts.tree_size();
        assert!(used > 1 && capacity == 4096, "{used} of {capacity}");
        // A new configuration forgets the arena; the next search (or
        // `allocate`) makes the one it asks for.
        mcts.set_config(MctsConfig::puct().node_budget(2048));
        assert_eq!(mcts.tree_size(), (0, 0));
        mcts.allocate();
        assert_eq!(mcts.tree_size(), (1, 2048));
    }

    #[test]
    fn multipv_ranks_the_root_moves_of_one_search() {
        let game = Game::new(Bitboards::startpos());
        let cfg = MctsConfig::puct().iterations(2_000);
        let mut mcts = Mcts::with_config(Material::classic(), cfg.clone());
        let mut reported = [false; 3];
        let lines =
            crate::multipv::search_lines(&mut mcts, &game, &Limits::default(), 3, &mut |k, _| {
                reported[k - 1] = true
            });
        assert_eq!(lines.len(), 3);
        assert_eq!(reported, [true; 3]);
        // One search, not three: the iterations are the budget of one.
        assert_eq!(mcts.last_iterations(), 2_000);
        let visits = |mv| {
            let c = mcts.root_children().iter().find(|c| Some(c.mv) == mv);
            c.expect("a root move").visits
        };
        let v: Vec<u64> = lines.iter().map(|l| visits(l.best_move)).collect();
        assert!(v[0] >= v[1] && v[1] >= v[2], "{v:?}");
        assert!(lines.iter().all(|l| l.pv.first() == l.best_move.as_ref()));
        // The first line is what one plain search plays.
        let plain = Mcts::with_config(Material::classic(), cfg).search(
            &game,
            &Limits::default(),
            &mut |_| {},
        );
        assert_eq!(lines[0].best_move, plain.best_move);
        assert_eq!(lines[0].pv, plain.pv);
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
