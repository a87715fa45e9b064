//! Principal variation search: the strong search, modelled on how
//! Stockfish's reads.
//!
//! Iterative deepening with aspiration windows drives a negamax that
//! searches the first move of a node with the full window and every other
//! move with a null window (re-searching only when that fails high). A
//! lock-free [`TranspositionTable`] is shared by all threads (Lazy SMP:
//! every thread searches the same root, the table spreads the work). Near
//! the horizon the search prunes (reverse futility, razoring, null move,
//! ProbCut, futility, late-move and SEE pruning), reduces late moves (LMR)
//! and extends checks; at the horizon a quiescence search with SEE and
//! delta pruning settles the captures. Each feature is a switch in
//! [`PvsConfig`].
//!
//! Evaluators see every move through [`Evaluator::push`] / [`Evaluator::pop`];
//! a null move is pushed as [`Move::NULL`] (the position after it differs
//! only in the side to move). Hot paths allocate nothing: move lists live on
//! the stack, the PV in a fixed triangular table, the repetition path in a
//! vector reserved before the search.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::{Evaluator, Score};
//! use fianchetto_movegen::Game;
//! use fianchetto_search::pvs::{Pvs, PvsConfig};
//! use fianchetto_search::{Limits, Search};
//!
//! #[derive(Clone, Default)]
//! struct Zero;
//! impl<B: Board> Evaluator<B> for Zero {
//!     fn evaluate(&mut self, _: &B) -> Score { Score::ZERO }
//! }
//!
//! let game = Game::new(Bitboards::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")?);
//! let full = Pvs::new(Zero).search(&game, &Limits::depth(4), &mut |_| {});
//! let plain = Pvs::with_config(Zero, PvsConfig::all_off()).search(&game, &Limits::depth(4), &mut |_| {});
//! assert_eq!(full.score, Score::mate_in(1));
//! assert_eq!(plain.score, Score::mate_in(1));
//! assert!(full.nodes < plain.nodes);
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```

mod config;
mod effort;
pub mod probcut;
mod qpromotions;

pub use config::{PvsConfig, UnknownFeature};
pub use probcut::{ProbCut, ProbCutFit};

use crate::common::{is_draw, mate_limit_reached, no_moves_score, root_moves, Path, PvTable};
use crate::limits::nps;
// The search keeps the SEE without pins until pins win an SPRT (see the README).
use crate::see::{captured_value, mvv_lva, non_pawn_material, see_ge_ignoring_pins as see_ge};
use crate::time::{IterationTracker, TimeManager};
use crate::tt::{score_from_tt, score_to_tt, Bound as TtBound, TranspositionTable};
use crate::{Bound, Info, Limits, Search, SearchResult, MAX_PLY};
use arrayvec::ArrayVec;
use fianchetto_board::{Color, Move};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen, MoveList};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

/// History scores saturate here (the "gravity" formula keeps them inside).
const HISTORY_MAX: i32 = 16_384;

/// Per-thread move-ordering memory, kept between searches (cleared by
/// [`Search::clear`]).
struct Tables {
    /// Butterfly history: `[side][from][to]`.
    history: [[[i32; 64]; 64]; 2],
    /// Counter moves: `[piece][to]` of the previous move.
    counters: [[Move; 64]; 12],
}

impl Tables {
    fn new() -> Box<Tables> {
        Box::new(Tables {
            history: [[[0; 64]; 64]; 2],
            counters: [[Move::NULL; 64]; 12],
        })
    }
}

/// Principal variation search; see the [module documentation](self).
pub struct Pvs<E> {
    eval: E,
    config: PvsConfig,
    tt: TranspositionTable,
    tables: Vec<Box<Tables>>,
}

impl<E> std::fmt::Debug for Pvs<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pvs")
            .field("config", &self.config)
            .field("tt", &self.tt)
            .finish()
    }
}

impl<E> Pvs<E> {
    /// PVS with every feature on ([`PvsConfig::default`]).
    pub fn new(eval: E) -> Pvs<E> {
        Pvs::with_config(eval, PvsConfig::default())
    }

    /// PVS with `config`.
    pub fn with_config(eval: E, config: PvsConfig) -> Pvs<E> {
        let tt = TranspositionTable::new(
            if config.tt { config.hash_mb } else { 0 },
            config.replacement,
        );
        Pvs {
            eval,
            config,
            tt,
            tables: Vec::new(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &PvsConfig {
        &self.config
    }

    /// Changes the configuration; the table is reallocated (and so
    /// emptied) only if its size or policy changed.
    pub fn set_config(&mut self, config: PvsConfig) {
        let mb = |c: &PvsConfig| if c.tt { c.hash_mb } else { 0 };
        if mb(&config) != mb(&self.config) || config.replacement != self.config.replacement {
            self.tt = TranspositionTable::new(mb(&config), config.replacement);
        }
        self.config = config;
    }

    /// Replaces the table with one of `entries` entries (smaller than the
    /// megabyte granularity of [`PvsConfig::hash_mb`]: replacement-policy
    /// experiments). A later [`Pvs::set_config`] that changes the size or
    /// policy reallocates it by the config again.
    pub fn with_tt_entries(mut self, entries: usize) -> Pvs<E> {
        self.tt = TranspositionTable::with_entries(entries, self.config.replacement);
        self
    }

    /// The transposition table.
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Empties the table and the per-thread history ([`Search::clear`],
    /// callable without naming the board type).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.tables.clear();
    }
}

impl<B: MoveGen, E: Evaluator<B> + Clone> Search<B> for Pvs<E> {
    fn search(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let threads = self.config.threads.max(1);
        while self.tables.len() < threads {
            self.tables.push(Tables::new());
        }
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            nodes: AtomicU64::new(0),
            abort: AtomicBool::new(false),
            limits,
        };
        let time = TimeManager::new(limits, game.board().turn());
        let (main_tables, helper_tables) = self.tables.split_at_mut(1);
        let config = &self.config;
        let eval = &self.eval;
        let mut main = Worker::new(
            0,
            config,
            &shared,
            eval.clone(),
            game,
            time.clone(),
            &mut main_tables[0],
        );
        let (mut result, helper_stats) = if threads == 1 {
            (main.iterate(Some(report)), Vec::new())
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = helper_tables[..threads - 1]
                    .iter_mut()
                    .enumerate()
                    .map(|(i, tables)| {
                        let shared = &shared;
                        let time = time.clone();
                        let eval = eval.clone();
                        s.spawn(move || {
                            let mut w =
                                Worker::new(i + 1, config, shared, eval, game, time, tables);
                            w.iterate(None);
                            (w.nodes, w.evals, w.seldepth)
                        })
                    })
                    .collect();
                let result = main.iterate(Some(report));
                // The main thread decides: stop the helpers.
                shared.abort.store(true, Relaxed);
                let stats = handles
                    .into_iter()
                    .filter_map(|h| h.join().ok())
                    .collect::<Vec<_>>();
                (result, stats)
            })
        };
        for (nodes, evals, seldepth) in helper_stats {
            result.nodes += nodes;
            result.evals += evals;
            result.seldepth = result.seldepth.max(seldepth as u32);
        }
        result.time = time.elapsed();
        result
    }

    fn clear(&mut self) {
        Pvs::clear(self);
    }

    fn name(&self) -> &'static str {
        "pvs"
    }
}

/// What all threads share.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    /// Nodes of all threads, flushed every 1024 nodes.
    nodes: AtomicU64,
    /// Raised by the main thread when it is done.
    abort: AtomicBool,
    limits: &'a Limits,
}

/// Per-ply search state.
#[derive(Clone, Copy)]
struct Frame {
    static_eval: Score,
    /// The move played from this ply (`NULL` for a null move).
    mv: Move,
    killers: [Move; 2],
}

/// The log-based late-move reduction table, `[depth][move number]`.
fn lmr_table() -> &'static [[i32; 64]; 64] {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            }
        }
        t
    })
}

/// One search thread.
struct Worker<'a, B: MoveGen, E> {
    id: usize,
    cfg: &'a PvsConfig,
    shared: &'a Shared<'a>,
    eval: E,
    root: B,
    root_moves: MoveList,
    path: Path,
    pv: Box<PvTable>,
    stack: Box<[Frame; MAX_PLY + 4]>,
    tables: &'a mut Tables,
    time: TimeManager,
    nodes: u64,
    flushed: u64,
    evals: u64,
    seldepth: usize,
    root_depth: i32,
    /// Null-move verification: no null move above this ply.
    nmp_min_ply: usize,
    /// ProbCut's thresholds, prepared from the config.
    probcut: probcut::Prepared,
    aborted: bool,
    /// Root nodes per move (time management, main thread).
    effort: effort::RootEffort,
}

impl<'a, B: MoveGen, E: Evaluator<B>> Worker<'a, B, E> {
    fn new(
        id: usize,
        cfg: &'a PvsConfig,
        shared: &'a Shared<'a>,
        mut eval: E,
        game: &Game<B>,
        time: TimeManager,
        tables: &'a mut Tables,
    ) -> Self {
        let root = game.board().clone();
        eval.reset(&root);
        Worker {
            id,
            cfg,
            shared,
            eval,
            root_moves: root_moves(&root, &shared.limits.searchmoves),
            root,
            path: Path::from_game(game),
            pv: PvTable::new(),
            stack: Box::new(
                [Frame {
                    static_eval: Score::ZERO,
                    mv: Move::NULL,
                    killers: [Move::NULL; 2],
                }; MAX_PLY + 4],
            ),
            tables,
            time,
            nodes: 0,
            flushed: 0,
            evals: 0,
            seldepth: 0,
            root_depth: 0,
            nmp_min_ply: 0,
            probcut: probcut::Prepared::new(&cfg.probcut_params, cfg.probcut_fitted),
            aborted: false,
            effort: effort::RootEffort::new(),
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Counts a node; every 1024 nodes publishes the count and looks at the
    /// clock and the stop flags. Returns whether to abort.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        if self.is_main() {
            if let Some(limit) = self.shared.limits.nodes {
                let total = self.shared.nodes.load(Relaxed) + (self.nodes - self.flushed);
                if total >= limit {
                    self.abort();
                }
            }
        }
        if self.nodes & 1023 == 0 {
            self.shared
                .nodes
                .fetch_add(self.nodes - self.flushed, Relaxed);
            self.flushed = self.nodes;
            let flushed_total = self.shared.nodes.load(Relaxed);
            if self.shared.abort.load(Relaxed) || self.shared.limits.stopped() {
                self.aborted = true;
            } else if self.shared.limits.nodes.is_some_and(|n| flushed_total >= n)
                || (self.is_main() && self.time.hard_expired())
            {
                // Helpers watch the node limit too: the main thread may not
                // be running when the limit is crossed.
                self.abort();
            }
        }
        self.aborted
    }

    fn abort(&mut self) {
        self.aborted = true;
        self.shared.abort.store(true, Relaxed);
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Relaxed) + (self.nodes - self.flushed)
    }

    fn evaluate(&mut self, board: &B) -> Score {
        self.evals += 1;
        // Keep static scores out of the mate range, whatever the evaluator does.
        let s = self.eval.evaluate(board).0;
        Score(s.clamp(-Score::MATE_BOUND.0 + 1, Score::MATE_BOUND.0 - 1))
    }

    /// Iterative deepening with aspiration windows; the main thread reports
    /// and decides when to stop.
    fn iterate(&mut self, mut report: Option<&mut dyn FnMut(&Info)>) -> SearchResult {
        let limits = self.shared.limits;
        let mut result = SearchResult {
            best_move: self.root_moves.first().copied(),
            ..SearchResult::default()
        };
        if self.root_moves.is_empty() {
            result.score = if limits.searchmoves.is_empty() {
                no_moves_score(&self.root, 0)
            } else {
                Score::DRAW
            };
            return result;
        }
        self.order_root_moves();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 8) as i32;
        let first = if self.cfg.iterative_deepening {
            1
        } else {
            max_depth
        };
        let mut tracker = IterationTracker::default();
        let mut score = Score::ZERO;
        let mut depth = first;
        while depth <= max_depth {
            // Lazy SMP: half the helpers run one ply ahead of the others, so
            // that the threads do not all search the same tree in step.
            let target = if self.is_main() {
                depth
            } else {
                (depth + (self.id as i32 & 1)).min(max_depth)
            };
            self.root_depth = target;
            self.seldepth = 0;
            self.effort.clear();
            let mut delta = 25;
            let (mut alpha, mut beta) = if self.cfg.aspiration && target >= 4 && !score.is_mate() {
                (score - delta, score + delta)
            } else {
                (-Score::INFINITE, Score::INFINITE)
            };
            let iteration_score = loop {
                let s = self.search::<true>(&self.root.clone(), alpha, beta, target, 0, false);
                if self.aborted {
                    break None;
                }
                let bound = if s <= alpha {
                    // Fail low: widen downwards, pull beta in (Stockfish).
                    beta = Score((alpha.0 + beta.0) / 2);
                    alpha = Score((s.0 - delta).max(-Score::INFINITE.0));
                    Bound::Upper
                } else if s >= beta {
                    beta = Score((s.0 + delta).min(Score::INFINITE.0));
                    Bound::Lower
                } else {
                    break Some(s);
                };
                delta += delta / 2;
                if let Some(r) = report.as_mut() {
                    if self.time.elapsed().as_millis() > 500 {
                        let info = self.info(target, s, bound);
                        r(&info);
                    }
                }
            };
            let Some(s) = iteration_score else { break };
            score = s;
            let pv = self.pv.line(0);
            let best = pv.first().copied();
            result.best_move = best.or(result.best_move);
            result.ponder = pv.get(1).copied();
            result.pv = pv.to_vec();
            result.score = score;
            result.depth = target as u32;
            // The best move first next time.
            if let Some(b) = best {
                if let Some(i) = self.root_moves.iter().position(|&m| m == b) {
                    self.root_moves[..=i].rotate_right(1);
                }
            }
            if let Some(r) = report.as_mut() {
                let info = self.info(target, score, Bound::Exact);
                r(&info);
            }
            if let Some(b) = best {
                tracker.record(b, score, self.effort.fraction(b));
            }
            if self.is_main()
                && (mate_limit_reached(limits, score)
                    || (!limits.infinite
                        && self.time.soft_expired_scaled(if self.cfg.time_signals {
                            tracker.scale()
                        } else {
                            tracker.stability_scale()
                        }))
                    || limits.stopped())
            {
                break;
            }
            depth += 1;
        }
        result.nodes = self.nodes;
        result.evals = self.evals;
        result.seldepth = self.seldepth as u32;
        result
    }

    fn info(&self, depth: i32, score: Score, bound: Bound) -> Info {
        let time = self.time.elapsed();
        let nodes = self.total_nodes();
        Info {
            depth: depth as u32,
            seldepth: self.seldepth as u32,
            score,
            bound,
            nodes,
            nps: nps(nodes, time),
            hashfull: if self.cfg.tt {
                self.shared.tt.hashfull()
            } else {
                0
            },
            time,
            pv: self.pv.line(0).to_vec(),
        }
    }

    /// Orders the root moves for the first iteration (captures by MVV-LVA,
    /// a stored hash move first).
    fn order_root_moves(&mut self) {
        if !self.cfg.ordering() {
            return;
        }
        let board = self.root.clone();
        let tt_move = self.tt_move(&board);
        let mut moves = self.root_moves.clone();
        let scores = self.score_moves(&board, &moves, tt_move, 0);
        let mut keyed: ArrayVec<(i32, Move), 256> =
            scores.into_iter().zip(moves.iter().copied()).collect();
        keyed.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        for (slot, (_, m)) in moves.iter_mut().zip(keyed) {
            *slot = m;
        }
        self.root_moves = moves;
    }

    fn tt_move(&self, board: &B) -> Move {
        if !self.cfg.tt {
            return Move::NULL;
        }
        self.shared
            .tt
            .probe(board.hash())
            .map_or(Move::NULL, |e| e.mv)
    }

    /// Ordering keys for `moves`: hash move, good captures (MVV-LVA),
    /// killers, counter move, quiets by history, losing captures.
    fn score_moves(
        &self,
        board: &B,
        moves: &[Move],
        tt_move: Move,
        ply: usize,
    ) -> ArrayVec<i32, 256> {
        let cfg = self.cfg;
        let us = board.turn().index();
        let killers = if cfg.killers {
            self.stack[ply].killers
        } else {
            [Move::NULL; 2]
        };
        let counter = if cfg.counter_moves && ply > 0 {
            let prev = self.stack[ply - 1].mv;
            match board.piece_at(prev.to()) {
                Some(p) if !prev.is_null() => self.tables.counters[p.index()][prev.to().index()],
                _ => Move::NULL,
            }
        } else {
            Move::NULL
        };
        moves
            .iter()
            .map(|&mv| {
                if mv == tt_move {
                    10_000_000
                } else if !mv.is_quiet() {
                    if !cfg.mvv_lva {
                        0
                    } else if !cfg.see_ordering || mv.is_promotion() || see_ge(board, mv, 0) {
                        1_000_000 + mvv_lva(board, mv)
                    } else {
                        -1_000_000 + mvv_lva(board, mv)
                    }
                } else if mv == killers[0] {
                    900_000
                } else if mv == killers[1] {
                    800_000
                } else if mv == counter {
                    700_000
                } else if cfg.history {
                    self.tables.history[us][mv.from().index()][mv.to().index()]
                } else {
                    0
                }
            })
            .collect()
    }

    /// Plays `mv` on a copy of `board` and updates the path and evaluator.
    #[inline]
    fn make(&mut self, board: &B, mv: Move, ply: usize) -> B {
        let mut next = board.clone();
        if mv.is_null() {
            next.play_null();
        } else {
            next.play(mv);
        }
        self.shared.tt.prefetch(next.hash());
        self.stack[ply].mv = mv;
        // A null move is pushed as `Move::NULL`.
        self.eval.push(board, mv, &next);
        self.path.push(next.hash());
        next
    }

    #[inline]
    fn unmake(&mut self) {
        self.path.pop();
        self.eval.pop();
    }

    /// The negamax principal variation search. `PV` nodes have an open
    /// window; `cut_node` marks nodes expected to fail high.
    #[allow(clippy::too_many_arguments)]
    fn search<const PV: bool>(
        &mut self,
        board: &B,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        let cfg = self.cfg;
        if depth <= 0 {
            return self.qsearch::<PV>(board, alpha, beta, ply);
        }
        let root = ply == 0;
        if PV {
            self.pv.clear(ply);
            self.seldepth = self.seldepth.max(ply);
        }
        if self.tick() {
            return Score::ZERO;
        }
        if !root {
            if is_draw(board, &self.path) {
                return Score::DRAW;
            }
            // A move back to a position of the line holds the draw.
            if cfg.cuckoo && alpha < Score::DRAW && crate::cuckoo::on_path(board, &self.path) {
                alpha = Score::DRAW;
                if alpha >= beta {
                    return alpha;
                }
            }
            if ply >= MAX_PLY - 4 {
                return if board.in_check() {
                    Score::DRAW
                } else {
                    self.evaluate(board)
                };
            }
            if cfg.mate_distance {
                // No line from here can beat a mate already found closer to the root.
                alpha = alpha.max(Score::mated_in(ply as u32));
                beta = beta.min(Score::mate_in(ply as u32 + 1));
                if alpha >= beta {
                    return alpha;
                }
            }
        }
        self.stack[ply + 2].killers = [Move::NULL; 2];
        let in_check = board.in_check();
        let key = board.hash();

        // Transposition table.
        let entry = if cfg.tt {
            self.shared.tt.probe(key)
        } else {
            None
        };
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        let tt_score = entry.map(|e| score_from_tt(e.score, ply));
        if let (Some(e), Some(s)) = (entry, tt_score) {
            if cfg.tt_cutoffs
                && !PV
                && e.depth >= depth
                && board.halfmove_clock() < 90
                && match e.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => s >= beta,
                    TtBound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }

        // Static evaluation, refined by the table's bound when it can be.
        let (static_eval, eval) = if in_check {
            (-Score::INFINITE, -Score::INFINITE)
        } else {
            let se = match entry {
                Some(e) => e.eval,
                None => self.evaluate(board),
            };
            let refined = match (entry, tt_score) {
                (Some(e), Some(s)) if cfg.tt_cutoffs && !s.is_mate() => match e.bound {
                    TtBound::Lower if s > se => s,
                    TtBound::Upper if s < se => s,
                    TtBound::Exact => s,
                    _ => se,
                },
                _ => se,
            };
            (se, refined)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;

        if !PV && !in_check {
            // Razoring: far below alpha, only captures could save it.
            if cfg.razoring && depth <= 3 && eval.0 + 150 + 175 * depth <= alpha.0 {
                let v = self.qsearch::<false>(board, alpha, alpha + 1, ply);
                if v <= alpha {
                    return v;
                }
            }
            // Reverse futility: so far above beta that a quiet move will not
            // bring it back (Palaiologos's 120 per ply).
            let margin = 120 * depth - if improving { 60 } else { 0 };
            if cfg.reverse_futility
                && depth <= 8
                && eval.0 - margin >= beta.0
                && eval.0 < Score::MATE_BOUND.0
            {
                return eval;
            }
            // Null move: if passing still beats beta, a real move will too
            // (not in zugzwang-prone king-and-pawn endings).
            if cfg.null_move
                && depth >= 3
                && eval >= beta
                && static_eval.0 >= beta.0 - 20 * depth + 100
                && ply >= self.nmp_min_ply
                && ply > 0
                && !self.stack[ply - 1].mv.is_null()
                && non_pawn_material(board).any()
                && beta.0 > -Score::MATE_BOUND.0
            {
                let r = (3 + depth / 3 + ((eval.0 - beta.0) / 200).min(3)).min(depth);
                let next = self.make(board, Move::NULL, ply);
                let v =
                    -self.search::<false>(&next, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.unmake();
                if self.aborted {
                    return Score::ZERO;
                }
                if v >= beta {
                    let v = if v.0 >= Score::MATE_BOUND.0 { beta } else { v };
                    // Verification when zugzwang is likely (a lone minor or
                    // rook) or deep: search again without null moves.
                    let late_endgame = non_pawn_material(board).count() <= 1;
                    if !late_endgame && depth < 12 {
                        return v;
                    }
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize + 1;
                    let w = self.search::<false>(board, beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }
            // ProbCut: a good capture whose shallow search beats a threshold
            // above beta almost surely beats beta at full depth too (see
            // `probcut`: a fixed margin, or Buro's fitted regressions).
            let probe = if cfg.probcut
                && depth >= self.probcut.min_depth
                && beta.0.abs() < Score::MATE_BOUND.0
            {
                let phase = if self.probcut.uses_phase() {
                    probcut_phase(board)
                } else {
                    0
                };
                self.probcut.threshold(depth, phase, beta.0)
            } else {
                None
            };
            if let Some((shallow, threshold)) =
                probe.filter(|&(shallow, t)| shallow >= 1 && shallow < depth && t < Score::MATE.0)
            {
                let probcut_beta = Score(threshold);
                if !matches!((entry, tt_score), (Some(e), Some(s)) if e.depth >= shallow && s < probcut_beta)
                {
                    let mut captures = board.captures();
                    let scores = self.score_moves(board, &captures, tt_move, ply);
                    let mut keyed: ArrayVec<(i32, Move), 256> =
                        scores.into_iter().zip(captures.iter().copied()).collect();
                    keyed.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
                    captures.clear();
                    for (_, mv) in keyed {
                        if !see_ge(board, mv, probcut_beta.0 - static_eval.0) {
                            continue;
                        }
                        let next = self.make(board, mv, ply);
                        let mut v = -self.qsearch::<false>(
                            &next,
                            -probcut_beta,
                            -probcut_beta + 1,
                            ply + 1,
                        );
                        if v >= probcut_beta {
                            v = -self.search::<false>(
                                &next,
                                -probcut_beta,
                                -probcut_beta + 1,
                                shallow - 1,
                                ply + 1,
                                !cut_node,
                            );
                        }
                        self.unmake();
                        if self.aborted {
                            return Score::ZERO;
                        }
                        if v >= probcut_beta {
                            if cfg.tt {
                                self.shared.tt.store(
                                    key,
                                    mv,
                                    score_to_tt(v, ply),
                                    static_eval,
                                    shallow,
                                    TtBound::Lower,
                                );
                            }
                            return v;
                        }
                    }
                }
            }
        }

        // Internal iterative reduction: without a hash move this node was
        // not searched before, so the ordering is poor; search it shallower.
        if cfg.iir && depth >= 4 && tt_move.is_null() && (PV || cut_node) && !root {
            depth -= 1;
        }

        let mut moves = if root {
            self.root_moves.clone()
        } else {
            board.legal_moves()
        };
        if moves.is_empty() {
            return no_moves_score(board, ply);
        }
        let mut scores = if root || !cfg.ordering() {
            ArrayVec::new()
        } else {
            self.score_moves(board, &moves, tt_move, ply)
        };
        let non_pawn = non_pawn_material(board).any();
        let us = board.turn();
        let mut best = -Score::INFINITE;
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut index = 0;
        while index < moves.len() {
            // Selection sort, one step: the best remaining move to `index`.
            if !scores.is_empty() {
                let mut bi = index;
                for j in index + 1..moves.len() {
                    if scores[j] > scores[bi] {
                        bi = j;
                    }
                }
                moves.swap(index, bi);
                scores.swap(index, bi);
            }
            let mv = moves[index];
            index += 1;
            let quiet = mv.is_quiet();
            move_count += 1;
            let lmr_depth =
                (depth - 1 - lmr_table()[depth.min(63) as usize][move_count.min(63)]).max(0);

            // Shallow-depth pruning, never before a move has been found
            // (the best score must not be a mate against us).
            if !root && non_pawn && best.0 > -Score::MATE_BOUND.0 {
                if quiet {
                    if cfg.see_pruning
                        && lmr_depth <= 8
                        && !see_ge(board, mv, -30 * lmr_depth * lmr_depth)
                    {
                        continue;
                    }
                } else if cfg.see_pruning && depth <= 8 && !see_ge(board, mv, -100 * depth) {
                    continue;
                }
            }

            let nodes_before = self.nodes;
            let next = self.make(board, mv, ply);
            let gives_check = next.in_check();
            // Late-move pruning: late quiet moves of a node near the horizon
            // rarely matter; checks are kept (they are how mates are found).
            if !root
                && cfg.lmp
                && quiet
                && !gives_check
                && non_pawn
                && best.0 > -Score::MATE_BOUND.0
                && depth <= 8
                && move_count as i32 > (3 + depth * depth) / if improving { 1 } else { 2 }
            {
                self.unmake();
                continue;
            }
            // Futility: a quiet, non-checking move near the horizon that
            // cannot lift the static score to alpha (Palaiologos's margins).
            if !root
                && cfg.futility
                && quiet
                && !in_check
                && !gives_check
                && non_pawn
                && best.0 > -Score::MATE_BOUND.0
                && lmr_depth <= 8
                && static_eval.0 + 40 + 60 * lmr_depth <= alpha.0
            {
                self.unmake();
                continue;
            }
            let extension =
                i32::from(cfg.check_extension && gives_check && (ply as i32) < 2 * self.root_depth);
            let new_depth = depth - 1 + extension;

            let mut score;
            if cfg.pvs {
                if cfg.lmr
                    && depth >= 3
                    && move_count > 1 + usize::from(root)
                    && (quiet || !see_ge(board, mv, 0))
                {
                    let mut r = lmr_table()[depth.min(63) as usize][move_count.min(63)];
                    r += i32::from(cut_node) + i32::from(!improving)
                        - i32::from(PV)
                        - i32::from(gives_check);
                    if quiet {
                        if mv == self.stack[ply].killers[0] || mv == self.stack[ply].killers[1] {
                            r -= 1;
                        }
                        r -= self.tables.history[us.index()][mv.from().index()][mv.to().index()]
                            / 8192;
                    }
                    let d = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                    score = -self.search::<false>(&next, -alpha - 1, -alpha, d, ply + 1, true);
                    if score > alpha && d < new_depth {
                        score = -self.search::<false>(
                            &next,
                            -alpha - 1,
                            -alpha,
                            new_depth,
                            ply + 1,
                            !cut_node,
                        );
                    }
                } else if !PV || move_count > 1 {
                    score = -self.search::<false>(
                        &next,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        !cut_node,
                    );
                } else {
                    score = -Score::INFINITE;
                }
                if PV && (move_count == 1 || (score > alpha && (root || score < beta))) {
                    score = -self.search::<true>(&next, -beta, -alpha, new_depth, ply + 1, false);
                }
            } else {
                // Plain alpha-beta: every move with the full window (so every
                // node is a PV node), LMR with a full-window re-search.
                let reduce = cfg.lmr && depth >= 3 && move_count > 1 && quiet;
                let d = if reduce {
                    (new_depth - lmr_table()[depth.min(63) as usize][move_count.min(63)])
                        .clamp(1, new_depth.max(1))
                } else {
                    new_depth
                };
                score = -self.search::<PV>(&next, -beta, -alpha, d, ply + 1, false);
                if d < new_depth && score > alpha {
                    score = -self.search::<PV>(&next, -beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.unmake();
            if root {
                self.effort.add(mv, self.nodes - nodes_before);
            }
            if self.aborted {
                return Score::ZERO;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    if PV {
                        self.pv.update(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && mv != best_move {
                let _ = quiets_tried.try_push(mv);
            }
        }

        if move_count == 0 {
            // Cannot happen (the first move is never pruned), but stay safe.
            return if in_check {
                Score::mated_in(ply as u32)
            } else {
                alpha
            };
        }

        if best >= beta && best_move.is_quiet() && !best_move.is_null() {
            self.reward_quiet(board, best_move, &quiets_tried, depth, ply);
        }

        if cfg.tt {
            let bound = if best >= beta {
                TtBound::Lower
            } else if PV && !best_move.is_null() {
                TtBound::Exact
            } else {
                TtBound::Upper
            };
            self.shared.tt.store(
                key,
                best_move,
                score_to_tt(best, ply),
                static_eval,
                depth,
                bound,
            );
        }
        best
    }

    /// A quiet move caused a cutoff: it becomes a killer, the counter move
    /// of the previous move, gains history; the quiets tried before it lose.
    fn reward_quiet(&mut self, board: &B, mv: Move, tried: &[Move], depth: i32, ply: usize) {
        let cfg = self.cfg;
        if cfg.killers && self.stack[ply].killers[0] != mv {
            self.stack[ply].killers[1] = self.stack[ply].killers[0];
            self.stack[ply].killers[0] = mv;
        }
        if cfg.counter_moves && ply > 0 {
            let prev = self.stack[ply - 1].mv;
            if !prev.is_null() {
                if let Some(p) = board.piece_at(prev.to()) {
                    self.tables.counters[p.index()][prev.to().index()] = mv;
                }
            }
        }
        if cfg.history {
            let bonus = (depth * depth).min(1200) * 8;
            let us = board.turn();
            update_history(&mut self.tables.history, us, mv, bonus);
            for &q in tried {
                update_history(&mut self.tables.history, us, q, -bonus);
            }
        }
    }

    /// Quiescence search: stand pat or a capture (every move when in check).
    fn qsearch<const PV: bool>(
        &mut self,
        board: &B,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let cfg = self.cfg;
        if PV {
            self.pv.clear(ply);
            self.seldepth = self.seldepth.max(ply);
        }
        if self.tick() {
            return Score::ZERO;
        }
        if ply > 0 && is_draw(board, &self.path) {
            return Score::DRAW;
        }
        if ply > 0 && cfg.cuckoo && alpha < Score::DRAW && crate::cuckoo::on_path(board, &self.path)
        {
            alpha = Score::DRAW;
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = board.in_check();
        if !cfg.quiescence || ply >= MAX_PLY - 1 {
            return if in_check && ply >= MAX_PLY - 1 {
                Score::DRAW
            } else {
                self.evaluate(board)
            };
        }
        let key = board.hash();
        let entry = if cfg.tt {
            self.shared.tt.probe(key)
        } else {
            None
        };
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = entry {
            let s = score_from_tt(e.score, ply);
            if cfg.tt_cutoffs
                && !PV
                && match e.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => s >= beta,
                    TtBound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }
        let mut best;
        let static_eval;
        let mut moves = if in_check {
            best = -Score::INFINITE;
            static_eval = -Score::INFINITE;
            let moves = board.legal_moves();
            if moves.is_empty() {
                return Score::mated_in(ply as u32);
            }
            moves
        } else {
            static_eval = match entry {
                Some(e) => e.eval,
                None => self.evaluate(board),
            };
            best = static_eval;
            if best >= beta {
                if cfg.tt && entry.is_none() {
                    self.shared.tt.store(
                        key,
                        Move::NULL,
                        score_to_tt(best, ply),
                        static_eval,
                        0,
                        TtBound::Lower,
                    );
                }
                return best;
            }
            alpha = alpha.max(best);
            let mut moves = board.captures();
            if cfg.qs_promotions {
                qpromotions::push(board, &mut moves);
            }
            moves
        };
        // Captures always go most valuable victim first here, whatever the
        // switches: an unordered quiescence search explodes (every capture
        // sequence is tried), which measures nothing.
        let mut scores: ArrayVec<i32, 256> = moves
            .iter()
            .map(|&mv| {
                if mv == tt_move {
                    10_000_000
                } else if mv.is_quiet() {
                    0
                } else {
                    1_000_000 + mvv_lva(board, mv)
                }
            })
            .collect();
        let mut best_move = Move::NULL;
        let mut index = 0;
        while index < moves.len() {
            let mut bi = index;
            for j in index + 1..moves.len() {
                if scores[j] > scores[bi] {
                    bi = j;
                }
            }
            moves.swap(index, bi);
            scores.swap(index, bi);
            let mv = moves[index];
            index += 1;
            if !in_check && best.0 > -Score::MATE_BOUND.0 {
                // Delta pruning: even winning the piece outright with a
                // margin stays below alpha.
                if cfg.delta_pruning
                    && !mv.is_promotion()
                    && static_eval.0 + captured_value(board, mv) + 200 <= alpha.0
                {
                    continue;
                }
                if cfg.qs_see_pruning && !see_ge(board, mv, 0) {
                    continue;
                }
            }
            let next = self.make(board, mv, ply);
            let score = -self.qsearch::<PV>(&next, -beta, -alpha, ply + 1);
            self.unmake();
            if self.aborted {
                return Score::ZERO;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    if PV {
                        self.pv.update(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if cfg.tt {
            let bound = if best >= beta {
                TtBound::Lower
            } else {
                TtBound::Upper
            };
            self.shared.tt.store(
                key,
                best_move,
                score_to_tt(best, ply),
                static_eval,
                0,
                bound,
            );
        }
        best
    }
}

/// ProbCut's phase bucket of `board` (see [`probcut::phase_bucket`]).
#[inline]
fn probcut_phase<B: MoveGen>(board: &B) -> usize {
    probcut::phase_bucket(board)
}

/// History update with gravity: large values grow slower, so scores stay
/// within ±[`HISTORY_MAX`] and old information fades.
#[inline]
fn update_history(history: &mut [[[i32; 64]; 64]; 2], us: Color, mv: Move, bonus: i32) {
    let h = &mut history[us.index()][mv.from().index()][mv.to().index()];
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}
