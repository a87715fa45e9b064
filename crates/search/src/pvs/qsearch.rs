//! The quiescence search: at the horizon, stand pat or settle the
//! captures (and, one ply deep, the quiet checks) so that the static
//! evaluation is read only in quiet positions.

use super::movepick::{gives_check, MovePicker, Ordering};
use super::static_eval::refine_by_table;
use super::{tt_cuts, QuietContext, Worker};
use crate::see::{captured_value, see_ge_with};
use crate::tt::{score_from_tt, score_to_tt, Bound as TtBound};
use crate::MAX_PLY;
use fianchetto_board::Move;
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::MoveGen;

/// The table depth of a quiescence result that tried the quiet checks.
pub(super) const QS_DEPTH_CHECKS: i32 = 0;

/// The table depth of a quiescence result of captures alone: below
/// [`QS_DEPTH_CHECKS`], so that it never cuts off a search with checks.
pub(super) const QS_DEPTH_NO_CHECKS: i32 = -1;

impl<'a, B: MoveGen, E: Evaluator<B>> Worker<'a, B, E> {
    /// Quiescence search: stand pat or a capture (every move when in
    /// check). With `checks` (the first ply below the main search, when the
    /// `search-extras` switch is on) the quiet checks are tried too, so that a
    /// mate in one threatened by the last move is not mistaken for a quiet
    /// position: without them a quiet sacrifice that threatens mate looks
    /// like a blunder to every shallow search (null-move and reduced searches
    /// end here) and is found only many plies later (WAC.001: depth 20).
    pub(super) fn qsearch<const PV: bool>(
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
        let checks = checks && cfg.search_extras;
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
                (Some(e), Some(s)) if cfg.search_extras && cfg.tt_cutoffs => {
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
