//! The node search ([`Worker::search`]): the negamax principal variation
//! search, in the numbered steps of Stockfish's `search.cpp`, and ProbCut.

use super::history::{pawn_key, piece_to, threats_beyond, threats_by_lesser, PAWN_HISTORY_SIZE};
use super::movepick::{CheckInfo, MovePicker, Ordering};
use super::static_eval::refine_by_table;
use super::{probcut, tt_cuts, QuietContext, Worker, LMR_TABLE_SIZE};
use crate::common::no_moves_score;
use crate::see::{captured_value, non_pawn_material, see_ge_with};
use crate::tt::{score_from_tt, score_to_tt, Bound as TtBound, Entry};
use crate::MAX_PLY;
use arrayvec::ArrayVec;
use fianchetto_board::Move;
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::MoveGen;

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

/// Cut-off count: later moves are reduced one ply more once the nodes
/// below have failed high more than this many times (`cutoff-count`;
/// accepted at +14 [+3, +25] Elo, 2 224 games at 5 000 nodes a move).
const CUTOFF_COUNT_REDUCE: i32 = 2;

/// Reverse futility with `rfp-worsening`: the margin shrinks by this
/// fraction of a depth's margin when the opponent's position got worse by
/// its last move (this node's evaluation beats the parent's, negated).
const RFP_WORSENING_DIVISOR: i32 = 3;

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

impl<'a, B: MoveGen, E: Evaluator<B>> Worker<'a, B, E> {
    /// The negamax principal variation search. `PV` nodes have an open
    /// window; `cut_node` marks nodes expected to fail high. Each step is
    /// one paragraph, in the order Stockfish's search takes them.
    #[allow(clippy::too_many_arguments)]
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
    pub(super) fn probcut(
        &mut self,
        board: &B,
        beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
        static_eval: Score,
        raw_eval: Score,
        entry: Option<Entry>,
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
}

/// ProbCut's phase bucket of `board` (see [`probcut::phase_bucket`]).
#[inline]
pub(super) fn probcut_phase<B: MoveGen>(board: &B) -> usize {
    probcut::phase_bucket(board)
}
