//! The static evaluation as the search sees it: the evaluator's score
//! (scaled by material and the half-move clock where the evaluator allows
//! it), corrected by the correction histories, refined by the table's
//! bound, and what the correction histories learn from each node.

use super::history::{correction_update, CorrSlots, CORR_SIZE};
use super::{SearchParams, Worker};
use crate::tt::{Bound as TtBound, Entry};
use fianchetto_board::{Board, Color, Role};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::MoveGen;

/// Non-pawn material for [`scale_evaluation`], per piece: knight, bishop,
/// rook, queen (in the units of its base, 32768 = no change).
const SCALE_MATERIAL: [(Role, i32); 4] = [
    (Role::Knight, 450),
    (Role::Bishop, 450),
    (Role::Rook, 650),
    (Role::Queen, 1250),
];

impl<'a, B: MoveGen, E: Evaluator<B>> Worker<'a, B, E> {
    /// Step 4 of [`Worker::search`]: the node's raw, corrected and refined
    /// static evaluations. The raw one is the table's when there is an
    /// entry (the evaluator's otherwise); the correction histories correct
    /// it; the table's bound refines that (`eval`, which the pruning rules
    /// read). In check there is none (−∞); a singular search reuses its
    /// node's.
    #[inline]
    pub(super) fn node_eval(
        &mut self,
        board: &B,
        entry: Option<Entry>,
        tt_score: Option<Score>,
        in_check: bool,
        singular_search: bool,
        ply: usize,
    ) -> (Score, Score, Score) {
        if in_check {
            return (-Score::INFINITE, -Score::INFINITE, -Score::INFINITE);
        }
        if singular_search {
            let se = self.stack[ply].static_eval;
            return (se, se, se);
        }
        let (raw, se) = self.static_eval(board, entry, ply);
        let refined = match (entry, tt_score) {
            (Some(e), Some(s)) if self.cfg.tt_cutoffs => refine_by_table(se, e.bound, s),
            _ => se,
        };
        (raw, se, refined)
    }

    pub(super) fn evaluate(&mut self, board: &B) -> Score {
        self.evals += 1;
        let mut s = self.eval.evaluate(board).0;
        if self.cfg.search_extras && self.eval.search_may_scale() {
            s = scale_evaluation(s, board, self.params);
        }
        // Keep static scores out of the mate range, whatever the evaluator does.
        Score(s.clamp(-Score::MATE_BOUND.0 + 1, Score::MATE_BOUND.0 - 1))
    }

    /// The static evaluation "improving" compares with (ply ≥ 2): two plies
    /// back. A node in check has no evaluation (−∞), so a comparison with it
    /// says "improving".
    #[inline]
    pub(super) fn earlier_eval(&self, ply: usize) -> Score {
        self.stack[ply - 2].static_eval
    }

    /// This node's static evaluation plus its parent's, each from its own
    /// side to move: how much the move that led here worsened the mover's
    /// position by the evaluations (above 0: worse). `None` at the root and
    /// when either node is in check (no evaluation). Reverse futility and the
    /// evaluation-swing history read it (with `search-extras` and
    /// `history-extras`).
    #[inline]
    pub(super) fn eval_swing(&self, ply: usize, static_eval: Score) -> Option<i32> {
        let parent = self.stack[ply.checked_sub(1)?].static_eval;
        (static_eval != -Score::INFINITE && parent != -Score::INFINITE)
            .then_some(static_eval.0 + parent.0)
    }

    /// The static evaluation of a node not in check, shared by the main and
    /// quiescence searches: the raw one (the table's when it has the
    /// position, which saves the evaluator a call) and the one corrected by
    /// the correction history.
    #[inline]
    pub(super) fn static_eval(
        &mut self,
        board: &B,
        entry: Option<Entry>,
        ply: usize,
    ) -> (Score, Score) {
        let raw = match entry {
            Some(e) => e.eval,
            None => self.evaluate(board),
        };
        (raw, self.corrected(board, raw, ply))
    }

    /// The continuation correction entry of the node at `ply`: the one of
    /// the last two moves (`None` near the root or after a null move).
    #[inline]
    pub(super) fn cont_corr_index(&self, ply: usize) -> Option<(usize, usize)> {
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
    pub(super) fn corrected(&self, board: &B, raw: Score, ply: usize) -> Score {
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
    pub(super) fn update_correction(
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
}

/// The static evaluation `eval` refined by a table score `score` of this
/// position: the score replaces it where its bound says the evaluation is
/// wrong (a lower bound above it, an upper bound below it, an exact score).
/// A mate score never replaces it: it proves a line, not a position's
/// worth for the pruning rules that read this value.
#[inline]
pub(super) fn refine_by_table(eval: Score, bound: TtBound, score: Score) -> Score {
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

/// `eval` scaled by the material on the board and damped by the half-move
/// clock (with the `search-extras` switch): with the default numbers, ×1.02 with
/// every piece on the board, ×0.75 with pawns alone, and halved at a clock
/// of 110 half-moves. More material makes an edge worth more, so that the
/// side ahead trades only when the edge survives the trade; and a position
/// shuffling towards the fifty-move rule drifts towards a draw.
#[inline]
pub(super) fn scale_evaluation<B: Board>(eval: i32, board: &B, p: &SearchParams) -> i32 {
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
