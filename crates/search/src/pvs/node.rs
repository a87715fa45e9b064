//! The node search ([`Worker::search`]): the negamax principal variation
//! search, in the numbered steps of Stockfish's `search.cpp`. The pruning
//! steps are in [`super::prune`], the evaluation in [`super::static_eval`]
//! and what a node teaches the histories in [`super::update`].

use super::history::{pawn_key, threats_beyond, threats_by_lesser, PAWN_HISTORY_SIZE};
use super::movepick::{MovePicker, Ordering};
use super::{tt_cuts, QuietContext, Worker, LMR_TABLE_SIZE};
use crate::common::no_moves_score;
use crate::see::{non_pawn_material, see_ge_with};
use crate::tt::{score_from_tt, score_to_tt, Bound as TtBound, Entry};
use crate::MAX_PLY;
use arrayvec::ArrayVec;
use fianchetto_board::{Bitboard, Move};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::check::CheckInfo;
use fianchetto_movegen::MoveGen;

/// Late-move reductions: the smallest depth they apply at.
const LMR_MIN_DEPTH: i32 = 3;

/// Cut-off count: later moves are reduced one ply more once the nodes
/// below have failed high more than this many times (`history-extras`;
/// accepted at +14 [+3, +25] Elo, 2 224 games at 5 000 nodes a move).
const CUTOFF_COUNT_REDUCE: i32 = 2;

/// Extensions stop once a line is this many times the root depth long, so
/// that checks and singular moves cannot extend a line without end.
const EXTENSION_PLY_FACTOR: i32 = 2;

/// Quiet moves remembered per node for the history maluses (beyond these,
/// later moves are not penalised).
const QUIETS_TRIED: usize = 64;
/// Captures remembered per node for the capture-history malus.
const CAPTURES_TRIED: usize = 32;

/// What the steps of one node share once its table entry and static
/// evaluation are known.
#[derive(Clone, Copy)]
pub(super) struct Node {
    /// Plies from the root.
    pub ply: usize,
    /// Whether the node is expected to fail high.
    pub cut_node: bool,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Whether this is a singular-extension search (one move left out).
    pub singular_search: bool,
    /// Whether the static evaluation beats the one two plies back.
    pub improving: bool,
    /// The evaluator's score, or the table's (what the table stores).
    pub raw_eval: Score,
    /// The static evaluation corrected by the correction histories
    /// (`-INFINITE` in check).
    pub static_eval: Score,
    /// The static evaluation refined by the table's bound: what the
    /// pruning rules compare with the window.
    pub eval: Score,
    /// The table entry, if any.
    pub entry: Option<Entry>,
    /// Its score at this node.
    pub tt_score: Option<Score>,
}

impl Node {
    /// The table entry's move (`NULL` without).
    pub fn tt_move(&self) -> Move {
        self.entry.map_or(Move::NULL, |e| e.mv)
    }
}

/// What the move loop knows of one move before it is played.
#[derive(Clone, Copy)]
pub(super) struct MoveFacts {
    pub mv: Move,
    /// Its number in the node's order, from 1.
    pub count: usize,
    pub quiet: bool,
    /// Whether it gives check.
    pub check: bool,
    /// Whether it is one of the node's killers.
    pub killer: bool,
    /// A quiet move's sum of histories, a capture's capture history.
    pub history: i32,
    /// The late-move reduction table's entry for the depth and move number.
    pub base_r: i32,
    /// The depth after that reduction, at least 0.
    pub lmr_depth: i32,
}

impl<'a, B: MoveGen, E: Evaluator<B>> Worker<'a, B, E> {
    /// The negamax principal variation search. `PV` nodes have an open
    /// window; `cut_node` marks nodes expected to fail high. Each step is
    /// one paragraph or one call, in the order Stockfish's search takes
    /// them.
    pub(super) fn search<const PV: bool>(
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
        self.find_history_keys(board, ply);

        // Step 3. Transposition table: a deep enough entry whose bound
        // decides the window ends a non-PV node. A singular-extension search
        // (one move left out) neither uses nor stores entries.
        let entry = if cfg.tt && !singular_search {
            self.shared.tt.probe(board.hash())
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
        // one, corrected by the correction histories, then refined by the
        // table's bound (see `node_eval`).
        let (raw_eval, static_eval, eval) =
            self.node_eval(board, entry, tt_score, in_check, singular_search, ply);
        self.stack[ply].static_eval = static_eval;
        let node = Node {
            ply,
            cut_node,
            in_check,
            singular_search,
            improving: !in_check && ply >= 2 && static_eval > self.earlier_eval(ply),
            raw_eval,
            static_eval,
            eval,
            entry,
            tt_score,
        };
        let swing = self.eval_swing(ply, static_eval);

        // Step 4a. The evaluation swing of the quiet move that led here
        // teaches its butterfly history (`history-extras`: +34 [+15, +53] Elo,
        // 696 games at 5 000 nodes).
        if let (true, false, Some(sum)) = (cfg.history_extras, singular_search, swing) {
            self.learn_from_eval_swing(board, ply, sum);
        }

        if !PV && !in_check && !singular_search {
            // Step 5. Razoring: far below alpha near the horizon, only
            // captures could save the node; let the quiescence search say.
            if let Some(v) = self.razoring(board, alpha, depth, &node) {
                return v;
            }

            // Step 6. Reverse futility (static null move): so far above beta
            // that no quiet move will bring the score back below it.
            if let Some(v) = self.reverse_futility(beta, depth, &node, swing) {
                return v;
            }

            // Step 7. Null move: if passing still beats beta, a real move
            // will too (verified by a search without null moves where
            // zugzwang is likely).
            if let Some(v) = self.null_move(board, beta, depth, &node) {
                return v;
            }

            // Step 8. ProbCut: a good capture whose shallow search beats a
            // threshold above beta almost surely beats beta at full depth.
            if let Some(v) = self.probcut(board, beta, depth, &node) {
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
            move_count += 1;
            let m = self.move_facts(board, mv, move_count, depth, killers, &checks, &quiet_ctx);

            // Step 10a. Shallow-depth pruning, decided before the move is
            // played, never before a move has been searched (the best score
            // must not be a mate against us).
            if !root
                && non_pawn
                && best.0 > -Score::MATE_BOUND.0
                && self.prune_move(board, &mut picker, alpha, depth, &node, &m)
            {
                continue;
            }

            // Step 10b. Extensions: singular (and its family: double and
            // negative extensions, multi-cut) and checks.
            let extension = match self.extension::<PV>(board, beta, depth, &node, &m) {
                Ok(e) => e,
                Err(score) => return score,
            };
            self.stack[ply + 1].double_exts =
                self.stack[ply].double_exts + i32::from(extension >= 2);
            let new_depth = depth - 1 + extension;

            // Step 10c. Play the move and search it: late moves with a
            // reduced null window first, then the full depth, and at PV
            // nodes the full window.
            let next = self.make(board, mv, ply);
            let score = if cfg.pvs {
                let window = (alpha, beta);
                self.search_move::<PV>(
                    board, &next, window, depth, new_depth, &node, &m, &quiet_ctx,
                )
            } else {
                self.search_move_alpha_beta::<PV>(&next, (alpha, beta), depth, new_depth, ply, &m)
            };
            self.unmake();
            if self.aborted {
                return Score::ZERO;
            }

            // Step 10d. A new best move raises alpha; beating beta ends the
            // node. The moves that did neither are remembered for the
            // histories' maluses.
            if self.record::<PV>(ply, mv, score, &mut best, &mut best_move, &mut alpha, beta) {
                break;
            }
            if mv != best_move {
                if m.quiet {
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
        // the parent that its quiet move was good (`history-extras`): it
        // refuted everything here.
        if best >= beta && !best_move.is_null() {
            self.update_histories(board, best_move, &quiets_tried, &captures_tried, depth, ply);
            self.stack[ply].cutoffs += 1;
        } else if cfg.history_extras && best_move.is_null() && !singular_search && ply > 0 {
            self.reward_prior_move(board, depth, ply);
        }

        // Step 13. The correction history learns how far the search moved
        // from the static evaluation; then the table stores the result.
        if !singular_search {
            self.store_node::<PV>(board, best, best_move, beta, depth, &node);
        }
        best
    }

    /// What this node's quiet histories are looked up by (see
    /// `quiet_context`): the attacks by lesser pieces, found once for the
    /// threat history's map and the picker's escape order alike, and the
    /// pawn-history row.
    #[inline]
    fn find_history_keys(&mut self, board: &B, ply: usize) {
        let cfg = self.cfg;
        let by_lesser = cfg.history_extras.then(|| threats_by_lesser(board));
        self.stack[ply].threats = match &by_lesser {
            Some(maps) => threats_beyond(board, maps),
            None => Bitboard::EMPTY,
        };
        self.stack[ply].by_lesser = by_lesser;
        self.stack[ply].pawn_row = cfg
            .history_extras
            .then(|| pawn_key(board) as usize & (PAWN_HISTORY_SIZE - 1));
    }

    /// What the move loop knows of `mv`, the `count`th move of a node at
    /// `depth`, before playing it.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn move_facts(
        &self,
        board: &B,
        mv: Move,
        count: usize,
        depth: i32,
        killers: [Move; 2],
        checks: &CheckInfo,
        quiet_ctx: &QuietContext,
    ) -> MoveFacts {
        let quiet = mv.is_quiet();
        let last = LMR_TABLE_SIZE - 1;
        let base_r = self.lmr[(depth.max(0) as usize).min(last)][count.min(last)];
        // Pruning and reductions read a quiet move's sum of histories and a
        // capture's capture history.
        let history = if !quiet {
            self.tables.capture(board, mv)
        } else if self.cfg.history {
            self.quiet_history(board, mv, quiet_ctx)
        } else {
            0
        };
        MoveFacts {
            mv,
            count,
            quiet,
            check: checks.gives_check(board, mv),
            killer: mv == killers[0] || mv == killers[1],
            history,
            base_r,
            lmr_depth: (depth - 1 - base_r).max(0),
        }
    }

    /// Step 10b: the move's extension in plies (`Err` with the node's score
    /// when the singular test ends the node: multi-cut, or a stop). If
    /// every other move fails well below the hash move's score, the hash
    /// move is forced and searched deeper (two plies when far below, off
    /// the PV). If instead another move also beats beta, the node is cut
    /// (multi-cut); a hash move that is not singular but whose score
    /// already beats beta, or that was expected to fail high, is searched
    /// shallower (negative extension). (Singular and its family: +28 [+11,
    /// +45] Elo, SPRT H1 in 691 games.) Otherwise a check is searched a ply
    /// deeper.
    #[inline]
    fn extension<const PV: bool>(
        &mut self,
        board: &B,
        beta: Score,
        depth: i32,
        n: &Node,
        m: &MoveFacts,
    ) -> Result<i32, Score> {
        let (cfg, p, ply) = (self.cfg, self.params, n.ply);
        if ply as i32 >= EXTENSION_PLY_FACTOR * self.root_depth {
            return Ok(0);
        }
        let mut extension = 0;
        if let (true, Some(e), Some(s)) = (
            cfg.singular
                && ply > 0
                && !n.singular_search
                && depth >= p.se_depth
                && m.mv == n.tt_move(),
            n.entry,
            n.tt_score,
        ) {
            if e.depth >= depth - p.se_tt_depth_margin
                && matches!(e.bound, TtBound::Lower | TtBound::Exact)
                && !s.is_decisive()
            {
                let singular_beta = s - p.se_beta_mult * depth / 8;
                let singular_depth = (depth - 1) / 2;
                self.stack[ply].excluded = m.mv;
                let v = self.search::<false>(
                    board,
                    singular_beta - 1,
                    singular_beta,
                    singular_depth,
                    ply,
                    n.cut_node,
                );
                self.stack[ply].excluded = Move::NULL;
                if self.aborted {
                    return Err(Score::ZERO);
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
                    return Err(singular_beta);
                } else if s >= beta || n.cut_node {
                    extension = -1;
                }
            }
        }
        if extension == 0 && cfg.check_extension && m.check {
            extension = 1;
        }
        Ok(extension)
    }

    /// Step 10c with PVS: the score of the move `m`, already played
    /// (`next`), in the window `(alpha, beta)`. A late move is searched
    /// with a reduced null window first (LMR: -70% nodes to depth 8,
    /// ablation row H), then at `new_depth` with the null window when
    /// that beat alpha (every move but a PV node's first is searched so
    /// when not reduced), and at PV nodes with the full window when the
    /// null window fails high.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn search_move<const PV: bool>(
        &mut self,
        board: &B,
        next: &B,
        (alpha, beta): (Score, Score),
        depth: i32,
        new_depth: i32,
        n: &Node,
        m: &MoveFacts,
        quiet_ctx: &QuietContext,
    ) -> Score {
        let (cfg, ply, root) = (self.cfg, n.ply, n.ply == 0);
        let late = cfg.lmr && depth >= LMR_MIN_DEPTH && m.count > 1 + usize::from(root);
        // Captures that keep material are not reduced (reducing them a ply
        // less than quiet moves, `lmr-captures`, lost: −16 [−32, +1] Elo,
        // H0).
        let good_capture = late && !m.quiet && see_ge_with(board, m.mv, 0, cfg.see_pins);
        let reduced = late && !good_capture;
        let mut score;
        let full_null_window = if reduced {
            // A reduction that comes out negative (a history far above the
            // rest) is no reduction (extending such a move instead,
            // `lmr-deeper`, lost: −11 [−26, +3], H0).
            let r = self.reduction::<PV>(n, m);
            let d = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
            score = -self.search::<false>(next, -alpha - 1, -alpha, d, ply + 1, true);
            // The reduced search beat alpha: search the full depth.
            score > alpha && d < new_depth
        } else {
            score = -Score::INFINITE;
            !PV || m.count > 1
        };
        if full_null_window {
            score =
                -self.search::<false>(next, -alpha - 1, -alpha, new_depth, ply + 1, !n.cut_node);
            // A reduced quiet move that beat alpha: its continuation
            // histories learn what the full depth found (`history-extras`).
            if cfg.history_extras && reduced && m.quiet && !self.aborted {
                self.learn_from_research(board, m.mv, score, (alpha, beta), new_depth, quiet_ctx);
            }
        }
        if PV && (m.count == 1 || (score > alpha && (root || score < beta))) {
            score = -self.search::<true>(next, -beta, -alpha, new_depth, ply + 1, false);
        }
        score
    }

    /// Step 10c without PVS (plain alpha-beta): every move with the full
    /// window (so every node is a PV node), LMR with a full-window
    /// re-search.
    #[inline]
    fn search_move_alpha_beta<const PV: bool>(
        &mut self,
        next: &B,
        (alpha, beta): (Score, Score),
        depth: i32,
        new_depth: i32,
        ply: usize,
        m: &MoveFacts,
    ) -> Score {
        let reduce = self.cfg.lmr && depth >= LMR_MIN_DEPTH && m.count > 1 && m.quiet;
        let d = if reduce {
            (new_depth - m.base_r).clamp(1, new_depth.max(1))
        } else {
            new_depth
        };
        let mut score = -self.search::<PV>(next, -beta, -alpha, d, ply + 1, false);
        if d < new_depth && score > alpha {
            score = -self.search::<PV>(next, -beta, -alpha, new_depth, ply + 1, false);
        }
        score
    }

    /// The late-move reduction of `m` in plies: the table's, a ply more or
    /// less for each condition below, and the histories' shares. PV nodes
    /// and checks are reduced less; expected cut-nodes, nodes whose
    /// evaluation is not improving, and nodes whose children keep failing
    /// high (`history-extras`) more; a quiet move by its history
    /// (`history-lmr`), a killer a ply less, a capture by its capture
    /// history (`history-extras`: +23 [+7, +38] Elo, 1 004 games at
    /// 5 000 nodes).
    #[inline]
    fn reduction<const PV: bool>(&self, n: &Node, m: &MoveFacts) -> i32 {
        let (cfg, p) = (self.cfg, self.params);
        let mut r = m.base_r;
        r += p.lmr_cut_node * i32::from(n.cut_node) + i32::from(!n.improving)
            - i32::from(PV)
            - i32::from(m.check);
        if cfg.history_extras && self.stack[n.ply + 1].cutoffs > CUTOFF_COUNT_REDUCE {
            r += 1;
        }
        if m.quiet {
            if m.killer {
                r -= 1;
            }
            if cfg.history_lmr {
                r -= m.history / p.lmr_history_div.max(1);
            }
        } else if cfg.history_extras {
            r -= m.history / p.lmr_capture_history_div.max(1);
        }
        r
    }

    /// Step 13: the correction history learns how far the search moved
    /// from the static evaluation (when the bound says which way, and the
    /// best move was quiet); then the table stores the result.
    #[inline]
    fn store_node<const PV: bool>(
        &mut self,
        board: &B,
        best: Score,
        best_move: Move,
        beta: Score,
        depth: i32,
        n: &Node,
    ) {
        let bound = if best >= beta {
            TtBound::Lower
        } else if PV && !best_move.is_null() {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        if self.cfg.correction_history
            && !n.in_check
            && (best_move.is_null() || best_move.is_quiet())
            && !best.is_decisive()
            && !(bound == TtBound::Lower && best <= n.static_eval)
            && !(bound == TtBound::Upper && best >= n.static_eval)
        {
            self.update_correction(board, best, n.static_eval, depth, n.ply);
        }
        if self.cfg.tt {
            self.shared.tt.store(
                board.hash(),
                best_move,
                score_to_tt(best, n.ply),
                n.raw_eval,
                depth,
                bound,
                false,
            );
        }
    }
}
