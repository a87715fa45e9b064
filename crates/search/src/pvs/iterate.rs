//! Iterative deepening and aspiration windows: the main loop of each
//! search thread ([`Worker::iterate`]), the window around the last
//! iteration's score, the root move order, and the progress reports.

use super::movepick::{MovePicker, Ordering};
use super::{QuietContext, Worker};
use crate::common::{mate_limit_reached, no_moves_score};
use crate::limits::nps;
use crate::time::IterationTracker;
use crate::{Bound, Info, SearchResult, MAX_PLY};
use fianchetto_board::Move;
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{MoveGen, MoveList};
use std::sync::atomic::Ordering::Relaxed;

/// Aspiration windows start at this depth: shallower scores swing too much
/// for a narrow window to hold.
const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Fail-high and fail-low lines of a long search are reported only after
/// this many milliseconds, so that a fast search is not flooded with them.
const BOUND_REPORT_AFTER_MS: u128 = 500;

impl<'a, B: MoveGen, E: Evaluator<B>> Worker<'a, B, E> {
    /// Iterative deepening with aspiration windows; the main thread reports
    /// and decides when to stop.
    pub(super) fn iterate(&mut self, mut report: Option<&mut dyn FnMut(&Info)>) -> SearchResult {
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
                tracker.record(b);
            }
            result.pv = line;
            if self.is_main()
                && (mate_limit_reached(limits, score)
                    || (!limits.infinite && self.time.soft_expired(tracker.stable_iterations()))
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
    pub(super) fn keep_root_best(
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
    pub(super) fn aspiration_search(
        &mut self,
        target: i32,
        score: Score,
        report: &mut Option<&mut dyn FnMut(&Info)>,
    ) -> Option<Score> {
        self.seldepth = 0;
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
    pub(super) fn info(&self, depth: i32, score: Score, bound: Bound, pv: &[Move]) -> Info {
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
    pub(super) fn order_root_moves(&mut self) {
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
}
