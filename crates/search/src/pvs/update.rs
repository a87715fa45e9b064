//! What the search learns from each node: the killer, counter-move,
//! butterfly, continuation, pawn and capture histories after a cut-off,
//! the quiet move that led to a fail-low, and a quiet move's evaluation
//! swing.

use super::history::piece_to;
use super::{QuietContext, Worker};
use fianchetto_board::Move;
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::MoveGen;

/// Evaluation-swing history (`history-extras`): the butterfly bonus of a quiet move is this many
/// history units per centipawn that the move's two static evaluations sum
/// to (negated: a positive sum means the mover's position got worse)...
const EVAL_HISTORY_MULT: i32 = 24;

/// ...bounded by this either way, before a loss is halved (a quiet move
/// that the evaluation dislikes may still be the right one, a search
/// refutes it better).
const EVAL_HISTORY_LIMIT: i32 = 2_400;

impl<'a, B: MoveGen, E: Evaluator<B>> Worker<'a, B, E> {
    /// The best move caused a cutoff. A quiet one becomes a killer and the
    /// counter move of the previous move, and gains butterfly and
    /// continuation history while the quiets tried before it lose; a
    /// capture gains capture history. The captures tried before it lose
    /// either way.
    pub(super) fn update_histories(
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
        // `history-extras` the same curve with numbers of its own.
        let p = self.params;
        let malus = if cfg.history_extras {
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
    pub(super) fn history_bonus(&self, depth: i32) -> i32 {
        let p = self.params;
        let curve = [
            p.history_bonus_quad,
            p.history_bonus_mult,
            p.history_bonus_base,
        ];
        depth_curve(curve, p.history_bonus_max, depth)
    }

    #[inline]
    pub(super) fn update_quiet(&mut self, board: &B, mv: Move, bonus: i32, ctx: &QuietContext) {
        self.tables
            .update_quiet(board.turn(), mv, piece_to(board, mv), ctx, bonus);
    }

    /// Evaluation-swing history (`history-extras`): the quiet move that led to `ply` gains butterfly
    /// history when it left the opponent worse off by the two static
    /// evaluations (`sum`, see `eval_swing`, below 0), and loses half as
    /// much when it let the opponent improve. (Teaching the pawn history
    /// half of that too, `eval-history-pawn`, lost: −8 [−21, +5], H0.)
    pub(super) fn learn_from_eval_swing(&mut self, board: &B, ply: usize, sum: i32) {
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
    pub(super) fn reward_prior_move(&mut self, board: &B, depth: i32, ply: usize) {
        let prior = self.stack[ply - 1];
        if prior.mv.is_null() || !prior.mv.is_quiet() || !self.cfg.history {
            return;
        }
        let ctx = self.quiet_context(ply - 1);
        let bonus = self.history_bonus(depth);
        self.tables
            .update_quiet(!board.turn(), prior.mv, prior.cont, &ctx, bonus);
    }

    /// A reduced quiet move beat alpha (`history-extras`): its
    /// continuation histories learn what the full-depth search found, a
    /// bonus when its `score` beat beta, a malus when it fell back to alpha
    /// (SPRT [0, 10] at 5 000 nodes, one test continued over four runs: +9
    /// [+2, +17] Elo, H1 after 4 706 games).
    #[inline]
    pub(super) fn learn_from_research(
        &mut self,
        board: &B,
        mv: Move,
        score: Score,
        (alpha, beta): (Score, Score),
        depth: i32,
        ctx: &QuietContext,
    ) {
        let sign = if score >= beta {
            1
        } else if score <= alpha {
            -1
        } else {
            0
        };
        if let Some(pt) = piece_to(board, mv).filter(|_| sign != 0) {
            let bonus = sign * self.history_bonus(depth);
            self.tables.update_cont(pt, ctx, bonus);
        }
    }
}

/// A history bonus or malus at `depth`: quad · depth² + mult · depth +
/// base, kept within 0..=`max`.
#[inline]
pub(super) fn depth_curve([quad, mult, base]: [i32; 3], max: i32, depth: i32) -> i32 {
    (quad * depth * depth + mult * depth + base).clamp(0, max)
}
