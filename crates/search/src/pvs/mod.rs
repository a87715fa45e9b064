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
pub mod history;
pub mod movepick;
pub mod params;
pub mod probcut;
mod qpromotions;
mod tablebase;

pub use config::{PvsConfig, UnknownFeature};
pub use params::{ParamInfo, SearchParams};
pub use probcut::{ProbCut, ProbCutFit};
#[cfg(feature = "syzygy")]
pub use tablebase::{Syzygy, Tablebase};

use crate::common::{is_draw, mate_limit_reached, no_moves_score, root_moves, Path, PvTable};
use crate::limits::nps;
use crate::see::{captured_value, non_pawn_material, see_ge_with};
use crate::time::{IterationTracker, TimeManager};
use crate::tt::{score_from_tt, score_to_tt, Bound as TtBound, TranspositionTable};
use crate::{Bound, Info, Limits, Search, SearchResult, MAX_PLY};
use arrayvec::ArrayVec;
use fianchetto_board::{Board, Color, Move, Role};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen, MoveList};
use history::{
    correction_update, pawn_key, piece_to, threats_beyond, threats_by_lesser, CorrSlots,
    QuietContext, Tables, CORR_SIZE, PAWN_HISTORY_SIZE,
};
use movepick::{gives_check, CheckInfo, MovePicker, Ordering};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// The table depth of a quiescence result that tried the quiet checks.
const QS_DEPTH_CHECKS: i32 = 0;
/// The table depth of a quiescence result of captures alone: below
/// [`QS_DEPTH_CHECKS`], so that it never cuts off a search with checks.
const QS_DEPTH_NO_CHECKS: i32 = -1;

/// No table cut-offs from this half-move clock on: a stored score knows
/// nothing of how close the fifty-move rule is, and near it the same
/// position may be a draw whatever the table says.
const TT_CUTOFF_MAX_CLOCK: u32 = 90;

/// Nodes between two looks at the clock, the stop flags and the shared
/// node count (a power of two: the test is a mask). Often enough for a
/// millisecond's precision at any speed, rarely enough to cost nothing.
const CHECK_EVERY: u64 = 1024;

/// Aspiration windows start at this depth: shallower scores swing too much
/// for a narrow window to hold.
const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Fail-high and fail-low lines of a long search are reported only after
/// this many milliseconds, so that a fast search is not flooded with them.
const BOUND_REPORT_AFTER_MS: u128 = 500;

/// Null move: the smallest depth it is tried at.
const NMP_MIN_DEPTH: i32 = 3;
/// Null move: at most this many extra plies of reduction for an evaluation
/// far above beta.
const NMP_MAX_EVAL_REDUCTION: i32 = 3;
/// Null move: from this depth on (and in late endgames at any depth), a
/// null-move cut-off is verified by a search without null moves (zugzwang).
const NMP_VERIFY_DEPTH: i32 = 12;

/// Late-move reductions: the smallest depth they apply at.
const LMR_MIN_DEPTH: i32 = 3;
/// Late-move reductions: rows (depths) and columns (move numbers) of the
/// table; deeper and later share the last entry.
const LMR_TABLE_SIZE: usize = 64;

/// Cut-off count: later moves are reduced one ply more once the nodes
/// below have failed high more than this many times (`cutoff-count`;
/// accepted at +14 [+3, +25] Elo, 2 224 games at 5 000 nodes a move).
const CUTOFF_COUNT_REDUCE: i32 = 2;

/// Reverse futility with `rfp-worsening`: the margin shrinks by this
/// fraction of a depth's margin when the opponent's position got worse by
/// its last move (this node's evaluation beats the parent's, negated).
const RFP_WORSENING_DIVISOR: i32 = 3;

/// `eval-history`: the butterfly bonus of a quiet move is this many
/// history units per centipawn that the move's two static evaluations sum
/// to (negated: a positive sum means the mover's position got worse)...
const EVAL_HISTORY_MULT: i32 = 24;
/// ...bounded by this either way, before a loss is halved (a quiet move
/// that the evaluation dislikes may still be the right one, a search
/// refutes it better).
const EVAL_HISTORY_LIMIT: i32 = 2_400;

/// `capture-futility`: a capture at a reduced depth up to this is skipped
/// when the static evaluation plus `CAPTURE_FUTILITY_BASE`,
/// `CAPTURE_FUTILITY_MULT` per ply of reduced depth, the victim's value
/// and its capture history over `CAPTURE_FUTILITY_HISTORY_DIV` stays at or
/// below alpha (Stockfish's margins, in our pawn of 100).
const CAPTURE_FUTILITY_DEPTH: i32 = 6;
const CAPTURE_FUTILITY_BASE: i32 = 120;
const CAPTURE_FUTILITY_MULT: i32 = 110;
const CAPTURE_FUTILITY_HISTORY_DIV: i32 = 16;

/// Extensions stop once a line is this many times the root depth long, so
/// that checks and singular moves cannot extend a line without end.
const EXTENSION_PLY_FACTOR: i32 = 2;

/// Quiet moves and captures remembered per node for the history maluses
/// (beyond these, later moves are not penalised).
const QUIETS_TRIED: usize = 64;
const CAPTURES_TRIED: usize = 32;

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
    /// started (`cutoff-count`): many mean the parent's moves keep being
    /// refuted, so its later moves are reduced more.
    cutoffs: i32,
    /// The squares the opponent attacks at this node (`threat-history`;
    /// empty without).
    threats: fianchetto_board::Bitboard,
    /// The opponent's attacks by pieces worth less than each of ours
    /// (`threat-escape`; `None` without).
    by_lesser: Option<[fianchetto_board::Bitboard; 6]>,
    /// The node's pawn-history row (`pawn-history`).
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
    /// Root nodes per move (time management, main thread).
    effort: effort::RootEffort,
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
            effort: effort::RootEffort::new(),
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

    fn evaluate(&mut self, board: &B) -> Score {
        self.evals += 1;
        let mut s = self.eval.evaluate(board).0;
        if self.cfg.eval_scaling && self.eval.search_may_scale() {
            s = scale_evaluation(s, board, self.params);
        }
        // Keep static scores out of the mate range, whatever the evaluator does.
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
            let Some(s) = self.aspiration_search(target, score, &mut report) else {
                self.keep_root_best(&mut result, target, &mut report);
                break;
            };
            let line = self.pv.line(0).to_vec();
            score = s;
            let best = line.first().copied();
            result.best_move = best.or(result.best_move);
            result.ponder = line.get(1).copied();
            result.score = score;
            result.depth = target as u32;
            if self.is_main() {
                self.shared.first_iteration_done.store(true, Relaxed);
            }
            // The best move first next time, the others in their order.
            if let Some(b) = best {
                if let Some(i) = self.root_moves.iter().position(|&m| m == b) {
                    self.root_moves[..=i].rotate_right(1);
                }
            }
            if let Some(r) = report.as_mut() {
                let info = self.info(target, score, Bound::Exact, &line);
                r(&info);
            }
            if let Some(b) = best {
                tracker.record(b, score, self.effort.fraction(b));
            }
            result.pv = line;
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

    /// Stopped: a root move that beat the previous best in a completed
    /// search of its own is better than the last iteration's choice (it
    /// refuted that move's score), and becomes the result.
    fn keep_root_best(
        &self,
        result: &mut SearchResult,
        target: i32,
        report: &mut Option<&mut dyn FnMut(&Info)>,
    ) {
        let Some((mv, s)) = self.root_best else {
            return;
        };
        if result.best_move == Some(mv) {
            return;
        }
        result.best_move = Some(mv);
        result.score = s;
        result.pv.clone_from(&self.root_best_pv);
        result.ponder = self.root_best_pv.get(1).copied();
        // Say so: the last line reported must lead with the move played.
        // The score is a lower bound (the other root moves were not all
        // searched again).
        if let Some(r) = report.as_mut() {
            r(&self.info(target, s, Bound::Lower, &self.root_best_pv));
        }
    }

    /// One iteration at `target` plies: a search in a window around the
    /// last iteration's `score`, widened and repeated while it fails, and
    /// the score once it falls inside; `None` when the search was stopped.
    fn aspiration_search(
        &mut self,
        target: i32,
        score: Score,
        report: &mut Option<&mut dyn FnMut(&Info)>,
    ) -> Option<Score> {
        self.seldepth = 0;
        self.effort.clear();
        self.root_best = None;
        let mut delta = self.params.aspiration_delta;
        let (mut alpha, mut beta) =
            if self.cfg.aspiration && target >= ASPIRATION_MIN_DEPTH && !score.is_decisive() {
                (score - delta, score + delta)
            } else {
                (-Score::INFINITE, Score::INFINITE)
            };
        let depth = target.max(1);
        self.root_depth = depth;
        loop {
            let s = self.search::<true>(&self.root.clone(), alpha, beta, depth, 0, false);
            if self.aborted {
                return None;
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
                return Some(s);
            };
            // Each failure widens the window by a share of itself
            // (`aspiration_growth` / 1024: half again by default).
            delta += delta * self.params.aspiration_growth / 1024;
            if let Some(r) = report.as_mut() {
                if self.time.elapsed().as_millis() > BOUND_REPORT_AFTER_MS {
                    let info = self.info(target, s, bound, self.pv.line(0));
                    r(&info);
                }
            }
        }
    }

    /// The report of an iteration (or of part of one) whose line is `pv`.
    fn info(&self, depth: i32, score: Score, bound: Bound, pv: &[Move]) -> Info {
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
            pv: pv.to_vec(),
            tbhits: self.shared.tb.hits(),
        }
    }

    /// Orders the root moves for the first iteration: the picker's order
    /// (hash move, good captures, killers, quiets by history, bad captures).
    fn order_root_moves(&mut self) {
        if !self.cfg.ordering() {
            return;
        }
        let board = self.root.clone();
        let tt_move = self.tt_move(&board);
        let mut picker = MovePicker::main(&board, tt_move, [Move::NULL; 2], Move::NULL);
        let ord = Ordering::new(self.tables, self.cfg, QuietContext::NONE);
        let mut ordered = MoveList::new();
        while let Some(mv) = picker.next(&board, &ord) {
            if self.root_moves.contains(&mv) {
                ordered.push(mv);
            }
        }
        // `searchmoves` lists only legal moves, so nothing is lost; stay
        // safe anyway.
        if ordered.len() == self.root_moves.len() {
            self.root_moves = ordered;
        }
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

    /// The static evaluation "improving" compares with (ply ≥ 2): two plies
    /// back. A node in check has no evaluation (−∞), so a comparison with it
    /// says "improving".
    #[inline]
    fn earlier_eval(&self, ply: usize) -> Score {
        self.stack[ply - 2].static_eval
    }

    /// This node's static evaluation plus its parent's, each from its own
    /// side to move: how much the move that led here worsened the mover's
    /// position by the evaluations (above 0: worse). `None` at the root and
    /// when either node is in check (no evaluation). `rfp-worsening` and
    /// `eval-history` read it.
    #[inline]
    fn eval_swing(&self, ply: usize, static_eval: Score) -> Option<i32> {
        let parent = self.stack[ply.checked_sub(1)?].static_eval;
        (static_eval != -Score::INFINITE && parent != -Score::INFINITE)
            .then_some(static_eval.0 + parent.0)
    }

    /// The static evaluation of a node not in check, shared by the main and
    /// quiescence searches: the raw one (the table's when it has the
    /// position, which saves the evaluator a call) and the one corrected by
    /// the correction history.
    #[inline]
    fn static_eval(
        &mut self,
        board: &B,
        entry: Option<crate::tt::Entry>,
        ply: usize,
    ) -> (Score, Score) {
        let raw = match entry {
            Some(e) => e.eval,
            None => self.evaluate(board),
        };
        (raw, self.corrected(board, raw, ply))
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

    /// The continuation correction entry of the node at `ply`: the one of
    /// the last two moves (`None` near the root or after a null move).
    #[inline]
    fn cont_corr_index(&self, ply: usize) -> Option<(usize, usize)> {
        if !self.cfg.correction_history || ply < 2 {
            return None;
        }
        match (self.stack[ply - 2].cont, self.stack[ply - 1].cont) {
            (Some(a), Some(b)) => Some((a as usize, b as usize)),
            _ => None,
        }
    }

    /// `raw` corrected by the correction histories that are switched on
    /// (kept out of the mate range): their entries weighted by the
    /// `corr_*_weight` tunables, in percent.
    #[inline]
    fn corrected(&self, board: &B, raw: Score, ply: usize) -> Score {
        let cfg = self.cfg;
        if !cfg.correction_history {
            return raw;
        }
        let (p, corr) = (self.params, &self.tables.corr);
        let at = |t: &[[i16; CORR_SIZE]], (row, slot): (usize, usize)| t[row][slot] as i32;
        let slots = CorrSlots::of(board, true);
        let mut sum = p.corr_pawn_weight * at(&corr.pawn, slots.pawn);
        sum += p.corr_non_pawn_weight
            * (at(&corr.non_pawn, slots.non_pawn[0]) + at(&corr.non_pawn, slots.non_pawn[1]));
        sum += p.corr_minor_weight * at(&corr.minor, slots.minor);
        sum += p.corr_major_weight * at(&corr.major, slots.major);
        if let Some((a, b)) = self.cont_corr_index(ply) {
            sum += p.corr_cont_weight * corr.cont[a][b] as i32;
        }
        let c = sum / (100 * p.corr_grain.max(1));
        Score((raw.0 + c).clamp(-Score::MATE_BOUND.0 + 1, Score::MATE_BOUND.0 - 1))
    }

    /// Moves every correction entry of the node at `ply` that is switched
    /// on towards `best − static_eval` (what the corrected evaluation still
    /// missed), weighted by depth.
    fn update_correction(
        &mut self,
        board: &B,
        best: Score,
        static_eval: Score,
        depth: i32,
        ply: usize,
    ) {
        let p = self.params;
        let diff = best.0 - static_eval.0;
        let cont = self.cont_corr_index(ply);
        let slots = CorrSlots::of(board, true);
        let corr = &mut self.tables.corr;
        let learn = |t: &mut [[i16; CORR_SIZE]], (row, slot): (usize, usize)| {
            correction_update(&mut t[row][slot], diff, depth, p);
        };
        learn(&mut corr.pawn, slots.pawn);
        learn(&mut corr.non_pawn, slots.non_pawn[0]);
        learn(&mut corr.non_pawn, slots.non_pawn[1]);
        learn(&mut corr.minor, slots.minor);
        learn(&mut corr.major, slots.major);
        if let Some((a, b)) = cont {
            correction_update(&mut corr.cont[a][b], diff, depth, p);
        }
    }

    /// The negamax principal variation search. `PV` nodes have an open
    /// window; `cut_node` marks nodes expected to fail high. Each step is
    /// one paragraph, in the order Stockfish's search takes them.
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
        let p = self.params;

        // Step 1. At the horizon, the quiescence search takes over.
        if depth <= 0 {
            return self.qsearch::<PV>(board, alpha, beta, ply, true);
        }

        // Step 2. Start of the node: count it, look at the clock, and stop
        // at once on a draw, at the ply limit, or when no line from here can
        // beat a mate already found nearer the root (mate-distance pruning).
        let root = ply == 0;
        if PV {
            self.pv.clear(ply);
            self.seldepth = self.seldepth.max(ply);
        }
        if self.tick() {
            return Score::ZERO;
        }
        if !root {
            if let Some(s) = self.drawn(board, &mut alpha, beta) {
                return s;
            }
            if ply >= MAX_PLY - 4 {
                return if board.in_check() {
                    Score::DRAW
                } else {
                    self.evaluate(board)
                };
            }
            if cfg.mate_distance {
                alpha = alpha.max(Score::mated_in(ply as u32));
                beta = beta.min(Score::mate_in(ply as u32 + 1));
                if alpha >= beta {
                    return alpha;
                }
            }
        }
        self.stack[ply + 2].killers = [Move::NULL; 2];
        self.stack[ply + 2].cutoffs = 0;
        let excluded = self.stack[ply].excluded;
        let singular_search = !excluded.is_null();
        let in_check = board.in_check();
        let key = board.hash();
        // What this node's quiet histories are looked up by (see
        // `quiet_context`).
        // The attacks by lesser pieces are found once, for the threat
        // history's map and the picker's `threat-escape` alike.
        let by_lesser = (cfg.threat_history || cfg.threat_escape).then(|| threats_by_lesser(board));
        self.stack[ply].threats = match &by_lesser {
            Some(maps) if cfg.threat_history => threats_beyond(board, maps),
            _ => fianchetto_board::Bitboard::EMPTY,
        };
        self.stack[ply].by_lesser = by_lesser.filter(|_| cfg.threat_escape);
        self.stack[ply].pawn_row = cfg
            .pawn_history
            .then(|| pawn_key(board) as usize & (PAWN_HISTORY_SIZE - 1));

        // Step 3. Transposition table: a deep enough entry whose bound
        // decides the window ends a non-PV node. A singular-extension search
        // (one move left out) neither uses nor stores entries.
        let entry = if cfg.tt && !singular_search {
            self.shared.tt.probe(key)
        } else {
            None
        };
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        let tt_score = entry.map(|e| score_from_tt(e.score, ply, board.halfmove_clock()));
        if let (Some(e), Some(s)) = (entry, tt_score) {
            if cfg.tt_cutoffs && !PV && tt_cuts(&e, s, depth, board.halfmove_clock(), alpha, beta) {
                return s;
            }
        }

        // Step 3b. Endgame tablebases: after a capture or a pawn move, the
        // WDL tables' value ends the node when it decides the window.
        if !root && !singular_search {
            if let Some(s) = self.probe_tablebase(board, alpha, beta, depth, ply) {
                return s;
            }
        }

        // Step 4. Static evaluation: the table's (raw) one when there is
        // one, corrected by the correction histories, then
        // refined by the table's bound. In a singular search the node's own
        // evaluation is reused.
        let (raw_eval, static_eval, eval) = if in_check {
            (-Score::INFINITE, -Score::INFINITE, -Score::INFINITE)
        } else if singular_search {
            let se = self.stack[ply].static_eval;
            (se, se, se)
        } else {
            let (raw, se) = self.static_eval(board, entry, ply);
            let refined = match (entry, tt_score) {
                (Some(e), Some(s)) if cfg.tt_cutoffs => refine_by_table(se, e.bound, s),
                _ => se,
            };
            (raw, se, refined)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.earlier_eval(ply);
        let swing = self.eval_swing(ply, static_eval);

        // Step 4a. The evaluation swing of the quiet move that led here
        // teaches its butterfly history (`eval-history`: +34 [+15, +53] Elo,
        // 696 games at 5 000 nodes).
        if let (true, false, Some(sum)) = (cfg.eval_history, singular_search, swing) {
            self.learn_from_eval_swing(board, ply, sum);
        }

        if !PV && !in_check && !singular_search {
            // Step 5. Razoring: far below alpha near the horizon, only
            // captures could save the node; let the quiescence search say.
            // (Accepted with futility and reverse futility in the first
            // PVS build: the three together took 82% of the nodes to depth
            // 8 off, ablation row G in docs/search.md.)
            if cfg.razoring
                && depth <= p.razor_depth
                && eval.0 + p.razor_base + p.razor_mult * depth <= alpha.0
            {
                let v = self.qsearch::<false>(board, alpha, alpha + 1, ply, true);
                if v <= alpha {
                    return v;
                }
            }

            // Step 6. Reverse futility (static null move): so far above beta
            // that no quiet move will bring the score back below it. Not
            // when beta is a mated score: a static evaluation cannot prove
            // that a mate is escaped (it would hide shorter mates from the
            // side delivering them). (With razoring and futility: -82% nodes
            // to depth 8, ablation row G; the mated-beta guard was a
            // correctness fix, -1 [-16, +14] Elo.) The margin is lower when
            // the opponent's last move worsened its position
            // (`rfp-worsening`: +21 [+7, +36] Elo, 1 102 games at 5 000
            // nodes).
            let worsening = cfg.rfp_worsening && swing.is_some_and(|sum| sum > 0);
            let margin = p.rfp_margin * depth
                - if improving { p.rfp_improving } else { 0 }
                - if worsening {
                    p.rfp_margin / RFP_WORSENING_DIVISOR
                } else {
                    0
                };
            if cfg.reverse_futility
                && depth <= p.rfp_depth
                && eval.0 - margin >= beta.0
                && eval.0 < Score::MATE_BOUND.0
                && beta.0 > -Score::MATE_BOUND.0
            {
                return eval;
            }

            // Step 7. Null move: if passing still beats beta, a real move
            // will too (not in zugzwang-prone king-and-pawn endings; verified
            // by a search without null moves when zugzwang is likely).
            // (Accepted in the first PVS build: -79% nodes to depth 8,
            // ablation row F; its numbers are SPSA-tuned.)
            if cfg.null_move
                && depth >= NMP_MIN_DEPTH
                && eval >= beta
                && static_eval.0 >= beta.0 - p.nmp_depth_margin * depth + p.nmp_offset
                && ply >= self.nmp_min_ply
                && ply > 0
                && !self.stack[ply - 1].mv.is_null()
                && non_pawn_material(board).any()
                && beta.0 > -Score::MATE_BOUND.0
            {
                let r = (p.nmp_base
                    + depth / p.nmp_depth_div.max(1)
                    + ((eval.0 - beta.0) / p.nmp_eval_div.max(1)).min(NMP_MAX_EVAL_REDUCTION))
                .min(depth);
                let next = self.make(board, Move::NULL, ply);
                let v =
                    -self.search::<false>(&next, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.unmake();
                if self.aborted {
                    return Score::ZERO;
                }
                if v >= beta {
                    let v = if v.0 >= Score::MATE_BOUND.0 { beta } else { v };
                    let late_endgame = non_pawn_material(board).count() <= 1;
                    if !late_endgame && depth < NMP_VERIFY_DEPTH {
                        return v;
                    }
                    // No null move in the first three quarters of the
                    // verification search's depth.
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize + 1;
                    let w = self.search::<false>(board, beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }

            // Step 8. ProbCut: a good capture whose shallow search beats a
            // threshold above beta almost surely beats beta at full depth
            // (see `probcut`: a fixed margin, or Buro's fitted regressions).
            // (Accepted with late-move pruning, SEE pruning and IIR: -87%
            // nodes to depth 8, ablation row I; the fitted rule is not yet
            // proved in games and stays off.)
            if let Some(v) = self.probcut(
                board,
                beta,
                depth,
                ply,
                cut_node,
                static_eval,
                raw_eval,
                entry,
                tt_score,
                tt_move,
            ) {
                return v;
            }
        }

        // Step 9. Internal iterative reduction: without a hash move this
        // node was not searched before, so its ordering is poor; search it
        // shallower. (Part of ablation row I, -87% nodes to depth 8.)
        if cfg.iir
            && depth >= p.iir_depth
            && tt_move.is_null()
            && (PV || cut_node)
            && !root
            && !singular_search
        {
            depth -= 1;
        }

        // Step 10. The moves, from the staged picker (the root's list at the
        // root, best move of the last iteration first).
        let killers = if cfg.killers {
            self.stack[ply].killers
        } else {
            [Move::NULL; 2]
        };
        let mut picker = if root {
            MovePicker::from_list(&self.root_moves)
        } else {
            MovePicker::main(board, tt_move, killers, self.counter_move(board, ply))
        };
        let quiet_ctx = self.quiet_context(ply);
        let non_pawn = non_pawn_material(board).any();
        // Whether each move checks decides its pruning and extension: the
        // king's check squares are found once for all of them.
        let checks = CheckInfo::new(board);
        let mut best = -Score::INFINITE;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut quiets_tried: ArrayVec<Move, QUIETS_TRIED> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, CAPTURES_TRIED> = ArrayVec::new();
        loop {
            let mv = {
                let ord = Ordering::new(self.tables, cfg, quiet_ctx);
                match picker.next(board, &ord) {
                    Some(mv) => mv,
                    None => break,
                }
            };
            if mv == excluded {
                continue;
            }
            let quiet = mv.is_quiet();
            move_count += 1;
            let check = checks.gives_check(board, mv);
            let last = LMR_TABLE_SIZE - 1;
            let base_r = self.lmr[(depth.max(0) as usize).min(last)][move_count.min(last)];
            let lmr_depth = (depth - 1 - base_r).max(0);
            // The move's history: a quiet move's sum of histories, a
            // capture's capture history (pruning and reductions read it).
            let history = if !quiet {
                self.tables.capture(board, mv)
            } else if cfg.history {
                self.quiet_history(board, mv, &quiet_ctx)
            } else {
                0
            };

            // Step 10a. Shallow-depth pruning, decided before the move is
            // played, never before a move has been searched (the best score
            // must not be a mate against us). Late-move pruning stops the
            // picker's quiet moves altogether. (Late-move and SEE pruning:
            // ablation row I, -87% nodes to depth 8; futility: row G, -82%;
            // history pruning came with continuation and capture history,
            // +53 [+19, +88] Elo in 232 games.)
            if !root && non_pawn && best.0 > -Score::MATE_BOUND.0 {
                if cfg.lmp
                    && depth <= p.lmp_depth
                    && move_count as i32
                        > (p.lmp_base + depth * depth) / if improving { 1 } else { 2 }
                {
                    picker.skip_quiets();
                }
                if quiet {
                    if !check && picker.skipping_quiets() {
                        continue;
                    }
                    if cfg.history_pruning
                        && !check
                        && lmr_depth < p.history_prune_depth
                        && history < -p.history_prune_mult * depth
                    {
                        continue;
                    }
                    // Futility and SEE pruning judge a quiet move at the
                    // depth its history would give it (`pruning-history-depth`:
                    // +11 [+2, +21] Elo, 2 892 games at 5 000 nodes).
                    let lmr_depth = if cfg.pruning_history_depth {
                        (lmr_depth + history / p.lmr_history_div.max(1)).max(0)
                    } else {
                        lmr_depth
                    };
                    let futility_value =
                        static_eval.0 + p.futility_base + p.futility_mult * lmr_depth;
                    if cfg.futility
                        && !in_check
                        && !check
                        && lmr_depth <= p.futility_depth
                        && futility_value <= alpha.0
                    {
                        continue;
                    }
                    if cfg.see_pruning
                        && lmr_depth <= p.see_depth
                        && !see_ge_with(
                            board,
                            mv,
                            -p.see_quiet_mult * lmr_depth * lmr_depth,
                            cfg.see_pins,
                        )
                    {
                        continue;
                    }
                } else {
                    // A capture whose victim and history cannot lift the
                    // static evaluation to alpha (`capture-futility`: +10
                    // [+2, +19] Elo, 3 367 games at 5 000 nodes).
                    if cfg.capture_futility
                        && !in_check
                        && !check
                        && mv.is_capture()
                        && !mv.is_promotion()
                        && lmr_depth <= CAPTURE_FUTILITY_DEPTH
                        && static_eval.0
                            + CAPTURE_FUTILITY_BASE
                            + CAPTURE_FUTILITY_MULT * lmr_depth
                            + captured_value(board, mv)
                            + history / CAPTURE_FUTILITY_HISTORY_DIV
                            <= alpha.0
                    {
                        continue;
                    }
                    if cfg.see_pruning
                        && depth <= p.see_depth
                        && !see_ge_with(board, mv, -p.see_noisy_mult * depth, cfg.see_pins)
                    {
                        continue;
                    }
                }
            }

            // Step 10b. Extensions. Singular: if every other move fails
            // well below the hash move's score, the hash move is forced and
            // searched deeper (two plies when far below, off the PV). If
            // instead another move also beats beta, the node is cut
            // (multi-cut); a hash move that is not singular but whose score
            // already beats beta, or that was expected to fail high, is
            // searched shallower (negative extension). (Singular and its
            // family: +28 [+11, +45] Elo, SPRT H1 in 691 games.)
            let mut extension = 0;
            if (ply as i32) < EXTENSION_PLY_FACTOR * self.root_depth {
                if let (true, Some(e), Some(s)) = (
                    cfg.singular
                        && !root
                        && !singular_search
                        && depth >= p.se_depth
                        && mv == tt_move,
                    entry,
                    tt_score,
                ) {
                    if e.depth >= depth - p.se_tt_depth_margin
                        && matches!(e.bound, TtBound::Lower | TtBound::Exact)
                        && !s.is_decisive()
                    {
                        let singular_beta = s - p.se_beta_mult * depth / 8;
                        let singular_depth = (depth - 1) / 2;
                        self.stack[ply].excluded = mv;
                        let v = self.search::<false>(
                            board,
                            singular_beta - 1,
                            singular_beta,
                            singular_depth,
                            ply,
                            cut_node,
                        );
                        self.stack[ply].excluded = Move::NULL;
                        if self.aborted {
                            return Score::ZERO;
                        }
                        if v < singular_beta {
                            extension = 1;
                            if !PV
                                && v < singular_beta - p.se_double_margin
                                && self.stack[ply].double_exts < p.se_double_max
                            {
                                extension = 2;
                            }
                        } else if singular_beta >= beta {
                            return singular_beta;
                        } else if s >= beta || cut_node {
                            extension = -1;
                        }
                    }
                }
                if extension == 0 && cfg.check_extension && check {
                    extension = 1;
                }
            }
            self.stack[ply + 1].double_exts =
                self.stack[ply].double_exts + i32::from(extension >= 2);
            let new_depth = depth - 1 + extension;

            // Step 10c. Play the move and search it: late moves with a
            // reduced null window first (LMR, less for moves with a good
            // history, more for bad ones), then the full depth, and at PV
            // nodes the full window when the null window fails high. (LMR:
            // -70% nodes to depth 8, ablation row H.)
            let nodes_before = self.nodes;
            let next = self.make(board, mv, ply);
            let mut score;
            if cfg.pvs {
                // Whether the move still needs a full-depth null-window search:
                // after a reduced one that beat alpha, or as every move but a
                // PV node's first when not reduced.
                let late = cfg.lmr && depth >= LMR_MIN_DEPTH && move_count > 1 + usize::from(root);
                let good_capture = late && !quiet && see_ge_with(board, mv, 0, cfg.see_pins);
                // Captures that keep material are not reduced (reducing
                // them a ply less than quiet moves, `lmr-captures`, lost:
                // −16 [−32, +1] Elo, H0).
                let reduced = late && !good_capture;
                let full_null_window = if reduced {
                    // The reduction in plies: the table's, a ply more or
                    // less for each condition below, and the histories'
                    // shares.
                    let mut r = base_r;
                    // PV nodes and checks are reduced less. Expected
                    // cut-nodes, nodes whose evaluation is not improving,
                    // and nodes whose children keep failing high
                    // (`cutoff-count`) are reduced more.
                    r += p.lmr_cut_node * i32::from(cut_node) + i32::from(!improving)
                        - i32::from(PV)
                        - i32::from(check);
                    if cfg.cutoff_count && self.stack[ply + 1].cutoffs > CUTOFF_COUNT_REDUCE {
                        r += 1;
                    }
                    if quiet {
                        if mv == killers[0] || mv == killers[1] {
                            r -= 1;
                        }
                        if cfg.history_lmr {
                            r -= history / p.lmr_history_div.max(1);
                        }
                    } else if cfg.lmr_capture_history {
                        // A reduced capture's history moves its reduction
                        // as a quiet move's does (`lmr-capture-history`:
                        // +23 [+7, +38] Elo, 1 004 games at 5 000 nodes).
                        r -= history / p.lmr_capture_history_div.max(1);
                    }
                    // A reduction that comes out negative (a history far
                    // above the rest) is no reduction (extending such a
                    // move instead, `lmr-deeper`, lost: −11 [−26, +3], H0).
                    let d = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                    score = -self.search::<false>(&next, -alpha - 1, -alpha, d, ply + 1, true);
                    // The reduced search beat alpha: search the full depth.
                    score > alpha && d < new_depth
                } else {
                    score = -Score::INFINITE;
                    !PV || move_count > 1
                };
                if full_null_window {
                    score = -self.search::<false>(
                        &next,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        !cut_node,
                    );
                }
                // A reduced quiet move that beat alpha: its continuation
                // histories learn what the full depth found
                // (`post-lmr-history`).
                if cfg.post_lmr_history && reduced && full_null_window && quiet && !self.aborted {
                    let sign = if score >= beta {
                        1
                    } else if score <= alpha {
                        -1
                    } else {
                        0
                    };
                    if let Some(pt) = piece_to(board, mv).filter(|_| sign != 0) {
                        let bonus = sign * self.history_bonus(new_depth);
                        self.tables.update_cont(pt, &quiet_ctx, bonus);
                    }
                }
                if PV && (move_count == 1 || (score > alpha && (root || score < beta))) {
                    score = -self.search::<true>(&next, -beta, -alpha, new_depth, ply + 1, false);
                }
            } else {
                // Plain alpha-beta: every move with the full window (so every
                // node is a PV node), LMR with a full-window re-search.
                let reduce = cfg.lmr && depth >= LMR_MIN_DEPTH && move_count > 1 && quiet;
                let d = if reduce {
                    (new_depth - base_r).clamp(1, new_depth.max(1))
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

            // Step 10d. A new best move raises alpha; beating beta ends the
            // node.
            if self.record::<PV>(ply, mv, score, &mut best, &mut best_move, &mut alpha, beta) {
                break;
            }
            if mv != best_move {
                if quiet {
                    let _ = quiets_tried.try_push(mv);
                } else {
                    let _ = captures_tried.try_push(mv);
                }
            }
        }

        // Step 11. No move: checkmate or stalemate (or, in a singular
        // search, only the excluded move: fail low).
        if move_count == 0 {
            return if singular_search {
                alpha
            } else {
                no_moves_score(board, ply)
            };
        }

        // Step 12. A cutoff teaches the histories: the best move gains, the
        // moves tried before it lose (and the cut-off is counted for the
        // parent's reductions). A node where no move raised alpha teaches
        // the parent that its quiet move was good (`prior-bonus`): it
        // refuted everything here.
        if best >= beta && !best_move.is_null() {
            self.update_histories(board, best_move, &quiets_tried, &captures_tried, depth, ply);
            self.stack[ply].cutoffs += 1;
        } else if cfg.prior_bonus && best_move.is_null() && !singular_search && ply > 0 {
            self.reward_prior_move(board, depth, ply);
        }

        // Step 13. The correction history learns how far the search moved
        // from the static evaluation (when the bound says which way, and the
        // best move was quiet); then the table stores the result.
        if !singular_search {
            let bound = if best >= beta {
                TtBound::Lower
            } else if PV && !best_move.is_null() {
                TtBound::Exact
            } else {
                TtBound::Upper
            };
            if cfg.correction_history
                && !in_check
                && (best_move.is_null() || best_move.is_quiet())
                && !best.is_decisive()
                && !(bound == TtBound::Lower && best <= static_eval)
                && !(bound == TtBound::Upper && best >= static_eval)
            {
                self.update_correction(board, best, static_eval, depth, ply);
            }
            if cfg.tt {
                self.shared.tt.store(
                    key,
                    best_move,
                    score_to_tt(best, ply),
                    raw_eval,
                    depth,
                    bound,
                    false,
                );
            }
        }
        best
    }

    /// ProbCut (step 8 of [`Worker::search`]): `Some(score)` when a
    /// capture's shallow search proves the cut.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        board: &B,
        beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
        static_eval: Score,
        raw_eval: Score,
        entry: Option<crate::tt::Entry>,
        tt_score: Option<Score>,
        tt_move: Move,
    ) -> Option<Score> {
        let cfg = self.cfg;
        if !cfg.probcut || depth < self.probcut.min_depth || beta.0.abs() >= Score::MATE_BOUND.0 {
            return None;
        }
        let phase = if self.probcut.uses_phase() {
            probcut_phase(board)
        } else {
            0
        };
        let (shallow, threshold) = self
            .probcut
            .threshold(depth, phase, beta.0)
            .filter(|&(shallow, t)| shallow >= 1 && shallow < depth && t < Score::MATE.0)?;
        let probcut_beta = Score(threshold);
        if matches!((entry, tt_score), (Some(e), Some(s)) if e.depth >= shallow && s < probcut_beta)
        {
            return None;
        }
        let mut picker = MovePicker::qsearch(board, tt_move, false);
        loop {
            let mv = {
                // Captures alone: no quiet context.
                let ord = Ordering::new(self.tables, cfg, QuietContext::NONE);
                picker.next(board, &ord)?
            };
            if !see_ge_with(board, mv, probcut_beta.0 - static_eval.0, cfg.see_pins) {
                continue;
            }
            let next = self.make(board, mv, ply);
            let mut v =
                -self.qsearch::<false>(&next, -probcut_beta, -probcut_beta + 1, ply + 1, true);
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
                return Some(Score::ZERO);
            }
            if v >= probcut_beta {
                if cfg.tt {
                    self.shared.tt.store(
                        board.hash(),
                        mv,
                        score_to_tt(v, ply),
                        raw_eval,
                        shallow,
                        TtBound::Lower,
                        false,
                    );
                }
                return Some(v);
            }
        }
    }

    /// The best move caused a cutoff. A quiet one becomes a killer and the
    /// counter move of the previous move, and gains butterfly and
    /// continuation history while the quiets tried before it lose; a
    /// capture gains capture history. The captures tried before it lose
    /// either way.
    fn update_histories(
        &mut self,
        board: &B,
        best: Move,
        quiets: &[Move],
        captures: &[Move],
        depth: i32,
        ply: usize,
    ) {
        let cfg = self.cfg;
        let bonus = self.history_bonus(depth);
        // What the moves tried before lose: the bonus, or with
        // `history-malus` the same curve with numbers of its own.
        let p = self.params;
        let malus = if cfg.history_malus {
            let curve = [
                p.history_malus_quad,
                p.history_malus_mult,
                p.history_malus_base,
            ];
            depth_curve(curve, p.history_malus_max, depth)
        } else {
            bonus
        };
        if best.is_quiet() {
            if cfg.killers && self.stack[ply].killers[0] != best {
                self.stack[ply].killers[1] = self.stack[ply].killers[0];
                self.stack[ply].killers[0] = best;
            }
            let counter = self.counter_move(board, ply);
            if cfg.counter_moves && ply > 0 && counter != best {
                let prev = self.stack[ply - 1].mv;
                if let Some(pc) = board.piece_at(prev.to()).filter(|_| !prev.is_null()) {
                    self.tables.counters[pc.index()][prev.to().index()] = best;
                }
            }
            if cfg.history {
                let ctx = self.quiet_context(ply);
                self.update_quiet(board, best, bonus, &ctx);
                for &q in quiets {
                    self.update_quiet(board, q, -malus, &ctx);
                }
            }
        } else if cfg.capture_history {
            self.tables.update_capture(board, best, bonus);
        }
        if cfg.capture_history {
            for &c in captures {
                self.tables.update_capture(board, c, -malus);
            }
        }
    }

    /// The history bonus of a cut-off at `depth`.
    #[inline]
    fn history_bonus(&self, depth: i32) -> i32 {
        let p = self.params;
        let curve = [
            p.history_bonus_quad,
            p.history_bonus_mult,
            p.history_bonus_base,
        ];
        depth_curve(curve, p.history_bonus_max, depth)
    }

    #[inline]
    fn update_quiet(&mut self, board: &B, mv: Move, bonus: i32, ctx: &QuietContext) {
        self.tables
            .update_quiet(board.turn(), mv, piece_to(board, mv), ctx, bonus);
    }

    /// `eval-history`: the quiet move that led to `ply` gains butterfly
    /// history when it left the opponent worse off by the two static
    /// evaluations (`sum`, see `eval_swing`, below 0), and loses half as
    /// much when it let the opponent improve. (Teaching the pawn history
    /// half of that too, `eval-history-pawn`, lost: −8 [−21, +5], H0.)
    fn learn_from_eval_swing(&mut self, board: &B, ply: usize, sum: i32) {
        let prior = self.stack[ply - 1];
        if prior.mv.is_null() || !prior.mv.is_quiet() {
            return;
        }
        let raw = (-EVAL_HISTORY_MULT * sum).clamp(-EVAL_HISTORY_LIMIT, EVAL_HISTORY_LIMIT);
        let bonus = if raw > 0 { raw } else { raw / 2 };
        self.tables
            .update_butterfly(!board.turn(), prior.mv, prior.threats, bonus);
    }

    /// No move raised alpha at `ply`: the quiet move that led here
    /// refuted every reply, so the parent's histories learn it as if it
    /// had caused a cut-off there (at this node's depth).
    fn reward_prior_move(&mut self, board: &B, depth: i32, ply: usize) {
        let prior = self.stack[ply - 1];
        if prior.mv.is_null() || !prior.mv.is_quiet() || !self.cfg.history {
            return;
        }
        let ctx = self.quiet_context(ply - 1);
        let bonus = self.history_bonus(depth);
        self.tables
            .update_quiet(!board.turn(), prior.mv, prior.cont, &ctx, bonus);
    }

    /// Quiescence search: stand pat or a capture (every move when in
    /// check). With `checks` (the first ply below the main search, when the
    /// `qs-checks` switch is on) the quiet checks are tried too, so that a
    /// mate in one threatened by the last move is not mistaken for a quiet
    /// position: without them a quiet sacrifice that threatens mate looks
    /// like a blunder to every shallow search (null-move and reduced searches
    /// end here) and is found only many plies later (WAC.001: depth 20).
    fn qsearch<const PV: bool>(
        &mut self,
        board: &B,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        checks: bool,
    ) -> Score {
        let cfg = self.cfg;
        if PV {
            self.pv.clear(ply);
            self.seldepth = self.seldepth.max(ply);
        }
        if self.tick() {
            return Score::ZERO;
        }
        if ply > 0 {
            if let Some(s) = self.drawn(board, &mut alpha, beta) {
                return s;
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
        let checks = checks && cfg.qs_checks;
        // A search with quiet checks is one "ply" deeper than one without.
        let qs_depth = if checks {
            QS_DEPTH_CHECKS
        } else {
            QS_DEPTH_NO_CHECKS
        };
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        let tt_score = entry.map(|e| score_from_tt(e.score, ply, board.halfmove_clock()));
        if let (Some(e), Some(s)) = (entry, tt_score) {
            if cfg.tt_cutoffs
                && !PV
                && tt_cuts(&e, s, qs_depth, board.halfmove_clock(), alpha, beta)
            {
                return s;
            }
        }
        // Stand pat on the (corrected) static evaluation, unless in check.
        let mut best;
        let (raw_eval, static_eval) = if in_check {
            best = -Score::INFINITE;
            (-Score::INFINITE, -Score::INFINITE)
        } else {
            let (raw, se) = self.static_eval(board, entry, ply);
            best = match (entry, tt_score) {
                (Some(e), Some(s)) if cfg.qs_tt_eval && cfg.tt_cutoffs => {
                    refine_by_table(se, e.bound, s)
                }
                _ => se,
            };
            if best >= beta {
                if cfg.tt && entry.is_none() {
                    self.shared.tt.store(
                        key,
                        Move::NULL,
                        score_to_tt(best, ply),
                        raw,
                        qs_depth,
                        TtBound::Lower,
                        false,
                    );
                }
                return best;
            }
            alpha = alpha.max(best);
            (raw, se)
        };
        // Captures always come most valuable victim first here, whatever
        // the switches: an unordered quiescence search explodes (every
        // capture sequence is tried), which measures nothing.
        let mut picker = MovePicker::qsearch(board, tt_move, checks);
        // What a capture must add to stand above alpha (delta pruning; only
        // read when not in check).
        let futility_base = static_eval.0 + self.params.delta_margin;
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        loop {
            let mv = {
                // Quiescence always orders its captures by victim.
                let ord = Ordering {
                    mvv_lva: true,
                    ..Ordering::new(self.tables, cfg, QuietContext::NONE)
                };
                match picker.next(board, &ord) {
                    Some(mv) => mv,
                    None => break,
                }
            };
            move_count += 1;
            if !in_check && best.0 > -Score::MATE_BOUND.0 {
                // Delta pruning: even winning the piece outright with a
                // margin stays below alpha.
                if cfg.delta_pruning
                    && !mv.is_promotion()
                    && !mv.is_quiet()
                    && futility_base + captured_value(board, mv) <= alpha.0
                    // A capture that gives check may mate: the material
                    // says nothing (WAC.001's 2.Nxg6# takes a pawn).
                    && !gives_check(board, mv)
                {
                    continue;
                }
                if cfg.qs_see_pruning && !see_ge_with(board, mv, 0, cfg.see_pins) {
                    continue;
                }
            }
            let next = self.make(board, mv, ply);
            let score = -self.qsearch::<PV>(&next, -beta, -alpha, ply + 1, false);
            self.unmake();
            if self.aborted {
                return Score::ZERO;
            }
            if self.record::<PV>(ply, mv, score, &mut best, &mut best_move, &mut alpha, beta) {
                break;
            }
        }
        if in_check && move_count == 0 {
            return Score::mated_in(ply as u32);
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
                raw_eval,
                qs_depth,
                bound,
                false,
            );
        }
        best
    }
}

/// A history bonus or malus at `depth`: quad · depth² + mult · depth +
/// base, kept within 0..=`max`.
#[inline]
fn depth_curve([quad, mult, base]: [i32; 3], max: i32, depth: i32) -> i32 {
    (quad * depth * depth + mult * depth + base).clamp(0, max)
}

/// The static evaluation `eval` refined by a table score `score` of this
/// position: the score replaces it where its bound says the evaluation is
/// wrong (a lower bound above it, an upper bound below it, an exact score).
/// A mate score never replaces it: it proves a line, not a position's
/// worth for the pruning rules that read this value.
#[inline]
fn refine_by_table(eval: Score, bound: TtBound, score: Score) -> Score {
    if score.is_decisive() {
        return eval;
    }
    match bound {
        TtBound::Lower if score > eval => score,
        TtBound::Upper if score < eval => score,
        TtBound::Exact => score,
        _ => eval,
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

/// Non-pawn material for [`scale_evaluation`], per piece: knight, bishop,
/// rook, queen (in the units of its base, 32768 = no change).
const SCALE_MATERIAL: [(Role, i32); 4] = [
    (Role::Knight, 450),
    (Role::Bishop, 450),
    (Role::Rook, 650),
    (Role::Queen, 1250),
];

/// `eval` scaled by the material on the board and damped by the half-move
/// clock (the `eval-scale` switch): with the default numbers, ×1.02 with
/// every piece on the board, ×0.75 with pawns alone, and halved at a clock
/// of 110 half-moves. More material makes an edge worth more, so that the
/// side ahead trades only when the edge survives the trade; and a position
/// shuffling towards the fifty-move rule drifts towards a draw.
#[inline]
fn scale_evaluation<B: Board>(eval: i32, board: &B, p: &SearchParams) -> i32 {
    let material: i32 = SCALE_MATERIAL
        .iter()
        .map(|&(role, value)| {
            value
                * (board.pieces(Color::White, role) | board.pieces(Color::Black, role)).count()
                    as i32
        })
        .sum();
    let scaled = eval * (p.eval_material_base + material) / 32_768;
    let clock = (board.halfmove_clock() as i32).min(p.eval_clock_div);
    scaled * (p.eval_clock_div - clock) / p.eval_clock_div.max(1)
}

/// ProbCut's phase bucket of `board` (see [`probcut::phase_bucket`]).
#[inline]
fn probcut_phase<B: MoveGen>(board: &B) -> usize {
    probcut::phase_bucket(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::Entry;

    #[test]
    fn scaling_follows_material_and_the_clock() {
        let p = SearchParams::default();
        let board = |fen: &str| fianchetto_board::Bitboards::from_fen(fen).expect("test FEN");
        // Every piece: non-pawn material 2 × (2 × 450 + 2 × 450 + 2 × 650 + 1 250).
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(
            scale_evaluation(1_000, &start, &p),
            1_000 * (p.eval_material_base + 8_700) / 32_768
        );
        // A rook, and the clock halfway to the divisor: half of that (to
        // a unit: an odd divisor has no exact half-way clock).
        let rook = |clock: u32| board(&format!("4k3/8/8/8/8/8/8/4K2R w - - {clock} 80"));
        let full = scale_evaluation(1_000, &rook(0), &p);
        assert_eq!(full, 1_000 * (p.eval_material_base + 650) / 32_768);
        let halfway = scale_evaluation(1_000, &rook(p.eval_clock_div as u32 / 2), &p);
        assert!((halfway - full / 2).abs() <= 1, "{halfway} {full}");
    }

    #[test]
    fn only_evaluations_that_allow_it_are_scaled() {
        /// 100 for the side to move everywhere; `.0` says whether the
        /// search may scale it.
        #[derive(Clone)]
        struct Flat(bool);
        impl<B: Board> Evaluator<B> for Flat {
            fn evaluate(&mut self, _: &B) -> Score {
                Score::cp(100)
            }
            fn search_may_scale(&self) -> bool {
                self.0
            }
        }
        let board = |clock: u32| {
            fianchetto_board::Bitboards::from_fen(&format!("4k3/8/8/8/8/8/8/4K2R w - - {clock} 80"))
                .expect("test FEN")
        };
        let game = fianchetto_movegen::Game::new(board(60));
        let score = |may_scale: bool| {
            let mut pvs = Pvs::new(Flat(may_scale));
            pvs.search(&game, &Limits::depth(1), &mut |_| {}).score
        };
        // Every position stands at 100 for its side to move; scaled, at
        // what a rook's material and a clock of 60 to 62 half-moves (the
        // root, a reply, or quiescence's answer to a check) leave of it
        // (53 or 54 with the fifth SPSA tune's numbers).
        assert_eq!(score(false).0.abs(), 100);
        let p = SearchParams::default();
        let expected = [60, 61, 62].map(|clock| scale_evaluation(100, &board(clock), &p));
        assert!(expected.iter().all(|&e| e < 90));
        let scaled = score(true);
        assert!(
            expected.contains(&scaled.0.abs()),
            "{scaled:?} {expected:?}"
        );
    }

    #[test]
    fn table_cutoffs_respect_depth_window_and_the_fifty_move_rule() {
        let e = |bound, depth| Entry {
            mv: Move::NULL,
            score: Score::cp(50),
            eval: Score::ZERO,
            depth,
            bound,
            pv: false,
            generation: 0,
        };
        let (alpha, beta) = (Score::cp(0), Score::cp(40));
        let s = Score::cp(50);
        assert!(tt_cuts(&e(TtBound::Lower, 5), s, 5, 0, alpha, beta));
        assert!(!tt_cuts(&e(TtBound::Lower, 4), s, 5, 0, alpha, beta));
        assert!(!tt_cuts(&e(TtBound::Upper, 5), s, 5, 0, alpha, beta));
        assert!(tt_cuts(&e(TtBound::Exact, 5), s, 5, 89, alpha, beta));
        // Near the fifty-move rule no entry cuts, in either search: the
        // quiescence search took them whatever the clock.
        for depth in [QS_DEPTH_NO_CHECKS, QS_DEPTH_CHECKS, 5] {
            assert!(!tt_cuts(&e(TtBound::Exact, 9), s, depth, 90, alpha, beta));
        }
        // A quiescence result without checks does not stand in for one
        // with them.
        let qs = e(TtBound::Exact, QS_DEPTH_NO_CHECKS);
        assert!(tt_cuts(&qs, s, QS_DEPTH_NO_CHECKS, 0, alpha, beta));
        assert!(!tt_cuts(&qs, s, QS_DEPTH_CHECKS, 0, alpha, beta));
    }

    #[test]
    fn a_table_score_refines_the_evaluation_only_in_its_bounds_direction() {
        let eval = Score::cp(20);
        let (above, below) = (Score::cp(60), Score::cp(-30));
        assert_eq!(refine_by_table(eval, TtBound::Lower, above), above);
        assert_eq!(refine_by_table(eval, TtBound::Lower, below), eval);
        assert_eq!(refine_by_table(eval, TtBound::Upper, below), below);
        assert_eq!(refine_by_table(eval, TtBound::Upper, above), eval);
        assert_eq!(refine_by_table(eval, TtBound::Exact, below), below);
        assert_eq!(refine_by_table(eval, TtBound::Exact, above), above);
        // A mate found in the table never stands in for an evaluation.
        for bound in [TtBound::Lower, TtBound::Upper, TtBound::Exact] {
            assert_eq!(refine_by_table(eval, bound, Score::mate_in(3)), eval);
            assert_eq!(refine_by_table(eval, bound, Score::mated_in(4)), eval);
        }
    }
}
