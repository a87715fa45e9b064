//! Principal variation search: the strong search, modelled on how
//! Stockfish's reads.
//!
//! Iterative deepening with aspiration windows drives a negamax that
//! searches the first move of a node with the full window and every other
//! move with a null window (re-searching only when that fails high). A
//! lock-free [`TranspositionTable`] is shared by all threads (Lazy SMP:
//! every thread searches the same root, the table spreads the work). Near
//! the horizon the search prunes (reverse futility, razoring, null move,
//! ProbCut, futility, late-move, history and SEE pruning), reduces late
//! moves (LMR, adjusted by the histories) and extends singular moves; at
//! the horizon a quiescence search with SEE and delta pruning settles the
//! captures. Moves come from a staged [`movepick`] picker ordered by the
//! [`history`] tables, and the static evaluation is corrected by the
//! correction histories (pawn structure, pieces, the last two moves). Each feature is a switch in
//! [`PvsConfig`]; every number is a named tunable in [`SearchParams`].
//!
//! The code is split by job: `iterate.rs` (iterative deepening, aspiration
//! windows, root move order, reports), `node.rs` (the node search, step by
//! numbered step), `prune.rs` (razoring, reverse futility, null move,
//! ProbCut and the move loop's pruning), `qsearch.rs` (quiescence),
//! `update.rs` (what the histories learn), `static_eval.rs` (the static
//! evaluation, its scaling and correction histories), and this file (the
//! searcher, the threads' shared state and the per-thread worker).
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
pub mod history;
mod iterate;
pub mod movepick;
mod node;
pub mod params;
pub mod probcut;
mod prune;
mod qpromotions;
mod qsearch;
mod static_eval;
mod tablebase;
#[cfg(test)]
mod tests;
mod update;

pub use config::{PvsConfig, UnknownFeature};
pub use params::{ParamInfo, SearchParams};
pub use probcut::{ProbCut, ProbCutFit};
#[cfg(feature = "syzygy")]
pub use tablebase::{Syzygy, Tablebase};

use crate::common::{is_draw, root_moves, Path, PvTable};
use crate::time::TimeManager;
use crate::tt::{Bound as TtBound, TranspositionTable};
use crate::{Limits, Report, Search, SearchResult, MAX_PLY};
use fianchetto_board::Move;
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen, MoveList};
use history::{piece_to, QuietContext, Tables};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// No table cut-offs from this half-move clock on: a stored score knows
/// nothing of how close the fifty-move rule is, and near it the same
/// position may be a draw whatever the table says.
const TT_CUTOFF_MAX_CLOCK: u32 = 90;

/// Nodes between two looks at the clock, the stop flags and the shared
/// node count (a power of two: the test is a mask). Often enough for a
/// millisecond's precision at any speed, rarely enough to cost nothing.
const CHECK_EVERY: u64 = 1024;

/// Late-move reductions: rows (depths) and columns (move numbers) of the
/// table; deeper and later share the last entry.
const LMR_TABLE_SIZE: usize = 64;

/// Principal variation search; see the [module documentation](self).
pub struct Pvs<E> {
    eval: E,
    config: PvsConfig,
    tt: TranspositionTable,
    tables: Vec<Box<Tables>>,
    /// Per-thread evaluators and search stacks, kept from one search to
    /// the next: an evaluator with accumulators (NNUE) is costly to clone,
    /// and short searches (self-play at a few thousand nodes) would pay
    /// for it every move.
    scratch: Vec<Scratch<E>>,
    /// The late-move reduction table of the config's parameters.
    lmr: Box<LmrTable>,
    /// Syzygy tablebases, when set ([`tablebase`]).
    tb: tablebase::Tb,
}

/// What one search thread works in besides its history tables.
struct Scratch<E> {
    eval: E,
    pv: Box<PvTable>,
    stack: Box<[Frame; MAX_PLY + 4]>,
}

impl<E> Scratch<E> {
    fn new(eval: E) -> Scratch<E> {
        Scratch {
            eval,
            pv: PvTable::new(),
            stack: Box::new([Frame::EMPTY; MAX_PLY + 4]),
        }
    }
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
            lmr: lmr_table(&config.params),
            config,
            tt,
            tables: Vec::new(),
            scratch: Vec::new(),
            tb: tablebase::Tb::default(),
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
        self.lmr = lmr_table(&config.params);
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
        self.scratch.clear();
    }
}

impl<B: MoveGen, E: Evaluator<B> + Clone> Search<B> for Pvs<E> {
    fn search(&mut self, game: &Game<B>, limits: &Limits, report: Report) -> SearchResult {
        let threads = self.config.threads.max(1);
        while self.tables.len() < threads {
            self.tables.push(Tables::new());
        }
        while self.scratch.len() < threads {
            self.scratch.push(Scratch::new(self.eval.clone()));
        }
        self.tt.new_search();
        // A root in the tables searches only the moves they rank best.
        let (tb_limits, tb) = self.tb.start(game, limits);
        let limits = tb_limits.as_ref().unwrap_or(limits);
        let shared = Shared {
            tt: &self.tt,
            nodes: AtomicU64::new(0),
            abort: AtomicBool::new(false),
            first_iteration_done: AtomicBool::new(false),
            limits,
            tb,
        };
        let time = TimeManager::new(limits, game.board().turn());
        let (main_tables, helper_tables) = self.tables.split_at_mut(1);
        let (main_scratch, helper_scratch) = self.scratch.split_at_mut(1);
        let config = &self.config;
        let lmr = &*self.lmr;
        let mut main = Worker::new(
            0,
            config,
            &shared,
            &mut main_scratch[0],
            game,
            time.clone(),
            &mut main_tables[0],
            lmr,
        );
        let (mut result, helper_results) = if threads == 1 {
            (main.iterate(Some(report)), Vec::new())
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = helper_tables[..threads - 1]
                    .iter_mut()
                    .zip(helper_scratch.iter_mut())
                    .enumerate()
                    .map(|(i, (tables, scratch))| {
                        let shared = &shared;
                        let time = time.clone();
                        s.spawn(move || {
                            let mut w = Worker::new(
                                i + 1,
                                config,
                                shared,
                                scratch,
                                game,
                                time,
                                tables,
                                lmr,
                            );
                            w.iterate(None)
                        })
                    })
                    .collect();
                let result = main.iterate(Some(report));
                // The main thread decides: stop the helpers.
                shared.abort.store(true, Relaxed);
                let helpers = handles
                    .into_iter()
                    .filter_map(|h| h.join().ok())
                    .collect::<Vec<_>>();
                (result, helpers)
            })
        };
        let (nodes, evals) = helper_results
            .iter()
            .fold((result.nodes, result.evals), |(n, e), h| {
                (n + h.nodes, e + h.evals)
            });
        result.seldepth = helper_results
            .iter()
            .fold(result.seldepth, |s, h| s.max(h.seldepth));
        (result.nodes, result.evals) = (nodes, evals);
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
    /// Raised by the main thread when its first iteration is complete. A
    /// node limit counts only from then on: a search cut inside depth 1 has
    /// no move worth playing (`go nodes 1` would answer with the first
    /// legal move, and `UCI_Elo`'s smallest budgets with a blunder).
    first_iteration_done: AtomicBool,
    limits: &'a Limits,
    /// The tablebases as this search uses them, and their hits.
    tb: tablebase::TbSearch<'a>,
}

/// Per-ply search state.
#[derive(Clone, Copy)]
struct Frame {
    /// The static evaluation (corrected), `-INFINITE` in check.
    static_eval: Score,
    /// The move played from this ply (`NULL` for a null move).
    mv: Move,
    /// The piece-to index of that move (the continuation histories and
    /// the continuation correction history), `None` for a null move.
    cont: Option<u16>,
    killers: [Move; 2],
    /// The move a singular-extension search leaves out at this ply.
    excluded: Move,
    /// Double extensions on the line from the root to this ply.
    double_exts: i32,
    /// Beta cut-offs of the nodes at this ply since the node two plies up
    /// started (`history-extras`): many mean the parent's moves keep being
    /// refuted, so its later moves are reduced more.
    cutoffs: i32,
    /// The squares the opponent attacks at this node (`history-extras`;
    /// empty without).
    threats: fianchetto_board::Bitboard,
    /// The opponent's attacks by pieces worth less than each of ours
    /// (`history-extras`; `None` without).
    by_lesser: Option<[fianchetto_board::Bitboard; 6]>,
    /// The node's pawn-history row (`history-extras`).
    pawn_row: Option<usize>,
}

impl Frame {
    const EMPTY: Frame = Frame {
        static_eval: Score::ZERO,
        mv: Move::NULL,
        cont: None,
        killers: [Move::NULL; 2],
        excluded: Move::NULL,
        double_exts: 0,
        cutoffs: 0,
        threats: fianchetto_board::Bitboard::EMPTY,
        by_lesser: None,
        pawn_row: None,
    };
}

/// Reductions in plies by depth and move number.
type LmrTable = [[i32; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];

/// The log-based late-move reduction table, `[depth][move number]`:
/// `base + ln d · ln m / div` (both in hundredths of a ply), rounded down
/// to whole plies. (Summing the reduction's terms in fractions of a ply
/// and rounding once, `lmr-fraction`, lost: −20 [−38, −2] Elo, H0.)
fn lmr_table(params: &SearchParams) -> Box<LmrTable> {
    let mut t = Box::new([[0; LMR_TABLE_SIZE]; LMR_TABLE_SIZE]);
    let base = params.lmr_base as f64 / 100.0;
    let div = (params.lmr_div as f64 / 100.0).max(0.01);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (m as f64).ln() / div) as i32;
        }
    }
    t
}

/// One search thread.
struct Worker<'a, B: MoveGen, E> {
    id: usize,
    cfg: &'a PvsConfig,
    params: &'a SearchParams,
    shared: &'a Shared<'a>,
    eval: &'a mut E,
    root: B,
    root_moves: MoveList,
    path: Path,
    pv: &'a mut PvTable,
    stack: &'a mut [Frame; MAX_PLY + 4],
    tables: &'a mut Tables,
    lmr: &'a LmrTable,
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
    /// The best root move of the iteration in progress, found by a
    /// completed search that raised alpha, with its score and line: kept
    /// when the clock stops the iteration (see [`Worker::iterate`]).
    root_best: Option<(Move, Score)>,
    root_best_pv: Vec<Move>,
}

impl<'a, B: MoveGen, E: Evaluator<B>> Worker<'a, B, E> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        id: usize,
        cfg: &'a PvsConfig,
        shared: &'a Shared<'a>,
        scratch: &'a mut Scratch<E>,
        game: &Game<B>,
        time: TimeManager,
        tables: &'a mut Tables,
        lmr: &'a LmrTable,
    ) -> Self {
        let root = game.board().clone();
        let Scratch { eval, pv, stack } = scratch;
        eval.reset(&root);
        pv.reset();
        **stack = [Frame::EMPTY; MAX_PLY + 4];
        Worker {
            id,
            cfg,
            params: &cfg.params,
            shared,
            eval,
            root_moves: root_moves(&root, &shared.limits.searchmoves),
            root,
            path: Path::from_game(game),
            pv,
            stack,
            tables,
            lmr,
            time,
            nodes: 0,
            flushed: 0,
            evals: 0,
            seldepth: 0,
            root_depth: 0,
            nmp_min_ply: 0,
            probcut: probcut::Prepared::new(&cfg.probcut_params, cfg.probcut_fitted, &cfg.params),
            aborted: false,
            root_best: None,
            root_best_pv: Vec::with_capacity(MAX_PLY),
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
        if self.is_main() && self.node_limit_reached() {
            self.abort();
        }
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            self.shared
                .nodes
                .fetch_add(self.nodes - self.flushed, Relaxed);
            self.flushed = self.nodes;
            if self.shared.abort.load(Relaxed) || self.shared.limits.stopped() {
                self.aborted = true;
            } else if self.node_limit_reached() || (self.is_main() && self.time.hard_expired()) {
                // Helpers watch the node limit too: the main thread may not
                // be running when the limit is crossed.
                self.abort();
            }
        }
        self.aborted
    }

    /// Whether all threads' nodes reach the node limit, once the first
    /// iteration is complete (see [`Shared::first_iteration_done`]).
    #[inline]
    fn node_limit_reached(&self) -> bool {
        self.shared.limits.nodes.is_some_and(|n| {
            self.shared.first_iteration_done.load(Relaxed) && self.total_nodes() >= n
        })
    }

    fn abort(&mut self) {
        self.aborted = true;
        self.shared.abort.store(true, Relaxed);
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Relaxed) + (self.nodes - self.flushed)
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

    /// The counter move stored for the move played at `ply - 1`.
    fn counter_move(&self, board: &B, ply: usize) -> Move {
        if !self.cfg.counter_moves || ply == 0 {
            return Move::NULL;
        }
        let prev = self.stack[ply - 1].mv;
        match board.piece_at(prev.to()) {
            Some(p) if !prev.is_null() => self.tables.counters[p.index()][prev.to().index()],
            _ => Move::NULL,
        }
    }

    /// What the quiet histories of the node at `ply` are looked up by:
    /// the piece-to indices of the moves 1, 2 and 4 plies before it, and
    /// the threats and pawn row its node start recorded.
    #[inline]
    fn quiet_context(&self, ply: usize) -> QuietContext {
        let at = |back: usize| {
            if self.cfg.cont_history && ply >= back {
                self.stack[ply - back].cont
            } else {
                None
            }
        };
        QuietContext {
            cont: [at(1), at(2), at(4)],
            threats: self.stack[ply].threats,
            by_lesser: self.stack[ply].by_lesser,
            pawn_row: self.stack[ply].pawn_row,
        }
    }

    /// The history score of a quiet move ([`Tables::quiet`]; reductions
    /// and pruning use it).
    #[inline]
    fn quiet_history(&self, board: &B, mv: Move, ctx: &QuietContext) -> i32 {
        self.tables
            .quiet(board.turn(), mv, piece_to(board, mv), ctx)
    }

    /// Plays `mv` on a copy of `board` and updates the path and evaluator.
    #[inline]
    fn make(&mut self, board: &B, mv: Move, ply: usize) -> B {
        let mut next = board.clone();
        if mv.is_null() {
            next.play_null();
        } else {
            next.play_unchecked(mv);
        }
        self.shared.tt.prefetch(next.hash());
        self.stack[ply].mv = mv;
        self.stack[ply].cont = piece_to(board, mv);
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

    /// A move's score against the node's best so far (shared by the main
    /// and quiescence searches): a better score becomes the best, one above
    /// alpha makes the move the best move (and the PV's head at PV nodes)
    /// and raises alpha. Returns whether the move beat beta (cut-off).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn record<const PV: bool>(
        &mut self,
        ply: usize,
        mv: Move,
        score: Score,
        best: &mut Score,
        best_move: &mut Move,
        alpha: &mut Score,
        beta: Score,
    ) -> bool {
        if score <= *best {
            return false;
        }
        *best = score;
        if score <= *alpha {
            return false;
        }
        *best_move = mv;
        if PV {
            self.pv.update(ply, mv);
        }
        if ply == 0 && self.is_main() {
            // Kept if the clock stops this iteration (see `iterate`).
            self.root_best = Some((mv, score));
            self.root_best_pv.clear();
            self.root_best_pv.extend_from_slice(self.pv.line(0));
        }
        if score >= beta {
            return true;
        }
        *alpha = score;
        false
    }

    /// The rules' draws at a node below the root, shared by the main and
    /// quiescence searches: `Some(score)` ends the node (a draw by the
    /// fifty-move rule, repetition or material, or a window closed by a
    /// repetition the side to move can force: cuckoo tables raise alpha
    /// to a draw).
    #[inline]
    fn drawn(&self, board: &B, alpha: &mut Score, beta: Score) -> Option<Score> {
        if is_draw(board, &self.path) {
            return Some(Score::DRAW);
        }
        if self.cfg.cuckoo && *alpha < Score::DRAW && crate::cuckoo::on_path(board, &self.path) {
            *alpha = Score::DRAW;
            if *alpha >= beta {
                return Some(*alpha);
            }
        }
        None
    }
}

/// Whether a table entry whose score (at this node) is `score` ends a
/// non-PV node of the main or quiescence search: searched at least `depth`
/// deep, with a bound that decides the window `alpha`..`beta`, and far
/// enough from the fifty-move rule (`clock` below [`TT_CUTOFF_MAX_CLOCK`]).
#[inline]
fn tt_cuts(
    e: &crate::tt::Entry,
    score: Score,
    depth: i32,
    clock: u32,
    alpha: Score,
    beta: Score,
) -> bool {
    e.depth >= depth
        && clock < TT_CUTOFF_MAX_CLOCK
        && match e.bound {
            TtBound::Exact => true,
            TtBound::Lower => score >= beta,
            TtBound::Upper => score <= alpha,
        }
}
