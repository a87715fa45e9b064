//! The pruning steps of [`Worker::search`]: before the moves, razoring,
//! reverse futility, the null move and ProbCut (steps 5 to 8), each
//! `Some(score)` when it ends the node; in the move loop, the shallow-depth
//! pruning of one move (step 10a).

use super::movepick::{MovePicker, Ordering};
use super::node::{MoveFacts, Node};
use super::{probcut, QuietContext, Worker};
use crate::see::{captured_value, non_pawn_material, see_ge_with};
use crate::tt::{score_to_tt, Bound as TtBound};
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

/// Reverse futility with `search-extras`: the margin shrinks by this
/// fraction of a depth's margin when the opponent's position got worse by
/// its last move (this node's evaluation beats the parent's, negated).
const RFP_WORSENING_DIVISOR: i32 = 3;

/// Capture futility (`search-extras`): a capture at a reduced depth up to this is skipped
/// when the static evaluation plus [`CAPTURE_FUTILITY_BASE`],
/// [`CAPTURE_FUTILITY_MULT`] per ply of reduced depth, the victim's value
/// and its capture history over [`CAPTURE_FUTILITY_HISTORY_DIV`] stays at
/// or below alpha (Stockfish's margins, in our pawn of 100).
const CAPTURE_FUTILITY_DEPTH: i32 = 6;
/// Capture futility (`search-extras`): the margin at a reduced depth of 0.
const CAPTURE_FUTILITY_BASE: i32 = 120;
/// Capture futility (`search-extras`): the margin per ply of reduced depth.
const CAPTURE_FUTILITY_MULT: i32 = 110;
/// Capture futility (`search-extras`): the capture history over this counts in the margin.
const CAPTURE_FUTILITY_HISTORY_DIV: i32 = 16;

impl<'a, B: MoveGen, E: Evaluator<B>> Worker<'a, B, E> {
    /// Step 5. Razoring: far below alpha near the horizon, only captures
    /// could save the node; the quiescence search says whether they do.
    /// (Accepted with futility and reverse futility in the first PVS build:
    /// the three together took 82% of the nodes to depth 8 off, ablation
    /// row G.)
    #[inline]
    pub(super) fn razoring(
        &mut self,
        board: &B,
        alpha: Score,
        depth: i32,
        n: &Node,
    ) -> Option<Score> {
        let p = self.params;
        if self.cfg.razoring
            && depth <= p.razor_depth
            && n.eval.0 + p.razor_base + p.razor_mult * depth <= alpha.0
        {
            let v = self.qsearch::<false>(board, alpha, alpha + 1, n.ply, true);
            if v <= alpha {
                return Some(v);
            }
        }
        None
    }

    /// Step 6. Reverse futility (static null move): so far above beta that
    /// no quiet move will bring the score back below it. Not when beta is a
    /// mated score: a static evaluation cannot prove that a mate is escaped
    /// (it would hide shorter mates from the side delivering them). (With
    /// razoring and futility: -82% nodes to depth 8, ablation row G; the
    /// mated-beta guard was a correctness fix, -1 [-16, +14] Elo.) The
    /// margin is lower when the opponent's last move worsened its position
    /// by the evaluations' `swing` (`search-extras`: +21 [+7, +36] Elo,
    /// 1 102 games at 5 000 nodes).
    #[inline]
    pub(super) fn reverse_futility(
        &self,
        beta: Score,
        depth: i32,
        n: &Node,
        swing: Option<i32>,
    ) -> Option<Score> {
        let (cfg, p) = (self.cfg, self.params);
        if !cfg.reverse_futility || depth > p.rfp_depth {
            return None;
        }
        let worsening = cfg.search_extras && swing.is_some_and(|sum| sum > 0);
        let margin = p.rfp_margin * depth
            - if n.improving { p.rfp_improving } else { 0 }
            - if worsening {
                p.rfp_margin / RFP_WORSENING_DIVISOR
            } else {
                0
            };
        (n.eval.0 - margin >= beta.0
            && n.eval.0 < Score::MATE_BOUND.0
            && beta.0 > -Score::MATE_BOUND.0)
            .then_some(n.eval)
    }

    /// Step 7. Null move: if passing still beats beta, a real move will too
    /// (not without pieces, where zugzwang is the rule; verified by a
    /// search without null moves from [`NMP_VERIFY_DEPTH`] and in late
    /// endgames). (Accepted in the first PVS build: -79% nodes to depth 8,
    /// ablation row F; its numbers are SPSA-tuned.)
    pub(super) fn null_move(
        &mut self,
        board: &B,
        beta: Score,
        depth: i32,
        n: &Node,
    ) -> Option<Score> {
        let (p, ply) = (self.params, n.ply);
        if !(self.cfg.null_move
            && depth >= NMP_MIN_DEPTH
            && n.eval >= beta
            && n.static_eval.0 >= beta.0 - p.nmp_depth_margin * depth + p.nmp_offset
            && ply >= self.nmp_min_ply
            && ply > 0
            && !self.stack[ply - 1].mv.is_null()
            && non_pawn_material(board).any()
            && beta.0 > -Score::MATE_BOUND.0)
        {
            return None;
        }
        let r = (p.nmp_base
            + depth / p.nmp_depth_div.max(1)
            + ((n.eval.0 - beta.0) / p.nmp_eval_div.max(1)).min(NMP_MAX_EVAL_REDUCTION))
        .min(depth);
        let next = self.make(board, Move::NULL, ply);
        let v = -self.search::<false>(&next, -beta, -beta + 1, depth - r, ply + 1, !n.cut_node);
        self.unmake();
        if self.aborted {
            return Some(Score::ZERO);
        }
        if v < beta {
            return None;
        }
        let v = if v.0 >= Score::MATE_BOUND.0 { beta } else { v };
        let late_endgame = non_pawn_material(board).count() <= 1;
        if !late_endgame && depth < NMP_VERIFY_DEPTH {
            return Some(v);
        }
        // No null move in the first three quarters of the verification
        // search's depth.
        self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize + 1;
        let w = self.search::<false>(board, beta - 1, beta, depth - r, ply, false);
        self.nmp_min_ply = 0;
        (w >= beta).then_some(v)
    }

    /// Step 8. ProbCut: a good capture whose shallow search beats a
    /// threshold above beta almost surely beats beta at full depth (see
    /// [`probcut`]: a fixed margin, or Buro's fitted regressions with
    /// `probcut-fitted`). (Accepted with late-move pruning, SEE pruning and
    /// IIR: -87% nodes to depth 8, ablation row I.)
    pub(super) fn probcut(
        &mut self,
        board: &B,
        beta: Score,
        depth: i32,
        n: &Node,
    ) -> Option<Score> {
        let (cfg, ply) = (self.cfg, n.ply);
        if !cfg.probcut || depth < self.probcut.min_depth || beta.0.abs() >= Score::MATE_BOUND.0 {
            return None;
        }
        let phase = if self.probcut.uses_phase() {
            probcut::phase_bucket(board)
        } else {
            0
        };
        let (shallow, threshold) = self
            .probcut
            .threshold(depth, phase, beta.0)
            .filter(|&(shallow, t)| shallow >= 1 && shallow < depth && t < Score::MATE.0)?;
        let probcut_beta = Score(threshold);
        if matches!((n.entry, n.tt_score), (Some(e), Some(s)) if e.depth >= shallow && s < probcut_beta)
        {
            return None;
        }
        let mut picker = MovePicker::qsearch(board, n.tt_move(), false);
        loop {
            let mv = {
                // Captures alone: no quiet context.
                let ord = Ordering::new(self.tables, cfg, QuietContext::NONE);
                picker.next(board, &ord)?
            };
            if !see_ge_with(board, mv, probcut_beta.0 - n.static_eval.0, cfg.see_pins) {
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
                    !n.cut_node,
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
                        n.raw_eval,
                        shallow,
                        TtBound::Lower,
                        false,
                    );
                }
                return Some(v);
            }
        }
    }

    /// Step 10a. Shallow-depth pruning of the move `m` (true: skip it),
    /// decided before it is played. Late-move pruning stops the picker's
    /// quiet moves altogether; a quiet move is also skipped for a bad
    /// history, by futility and by SEE, judged at the depth its history
    /// would give it (`history-extras`: +11 [+2, +21] Elo, 2 892
    /// games at 5 000 nodes); a capture by its own futility
    /// (`search-extras`: +10 [+2, +19] Elo, 3 367 games) and by SEE.
    /// (Late-move and SEE pruning: ablation row I, -87% nodes to depth 8;
    /// futility: row G, -82%; history pruning came with continuation and
    /// capture history, +53 [+19, +88] Elo in 232 games.)
    #[inline]
    pub(super) fn prune_move(
        &self,
        board: &B,
        picker: &mut MovePicker,
        alpha: Score,
        depth: i32,
        n: &Node,
        m: &MoveFacts,
    ) -> bool {
        let (cfg, p) = (self.cfg, self.params);
        let (mv, check, history) = (m.mv, m.check, m.history);
        if cfg.lmp
            && depth <= p.lmp_depth
            && m.count as i32 > (p.lmp_base + depth * depth) / if n.improving { 1 } else { 2 }
        {
            picker.skip_quiets();
        }
        if m.quiet {
            if !check && picker.skipping_quiets() {
                return true;
            }
            if cfg.history_pruning
                && !check
                && m.lmr_depth < p.history_prune_depth
                && history < -p.history_prune_mult * depth
            {
                return true;
            }
            let lmr_depth = if cfg.history_extras {
                (m.lmr_depth + history / p.lmr_history_div.max(1)).max(0)
            } else {
                m.lmr_depth
            };
            let futility_value = n.static_eval.0 + p.futility_base + p.futility_mult * lmr_depth;
            if cfg.futility
                && !n.in_check
                && !check
                && lmr_depth <= p.futility_depth
                && futility_value <= alpha.0
            {
                return true;
            }
            cfg.see_pruning
                && lmr_depth <= p.see_depth
                && !see_ge_with(
                    board,
                    mv,
                    -p.see_quiet_mult * lmr_depth * lmr_depth,
                    cfg.see_pins,
                )
        } else {
            let lmr_depth = m.lmr_depth;
            if cfg.search_extras
                && !n.in_check
                && !check
                && mv.is_capture()
                && !mv.is_promotion()
                && lmr_depth <= CAPTURE_FUTILITY_DEPTH
                && n.static_eval.0
                    + CAPTURE_FUTILITY_BASE
                    + CAPTURE_FUTILITY_MULT * lmr_depth
                    + captured_value(board, mv)
                    + history / CAPTURE_FUTILITY_HISTORY_DIV
                    <= alpha.0
            {
                return true;
            }
            cfg.see_pruning
                && depth <= p.see_depth
                && !see_ge_with(board, mv, -p.see_noisy_mult * depth, cfg.see_pins)
        }
    }
}
