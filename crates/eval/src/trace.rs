//! Evaluation traces: how many times each weight of a [`Params`] set counts
//! in a position, so that a tuner can evaluate a position under any weights
//! (and differentiate the evaluation) without running the evaluation again.
//!
//! The hand-crafted evaluation is, once the position is fixed, almost linear
//! in its weights: the score is
//!
//! ```text
//! white_score = (mg · phase + eg · (24 − phase)) / 24 · scale / 128
//! mg = Σ_i c_mg[i] · w[i] + king attack,    eg = Σ_i c_eg[i] · w[i]
//! ```
//!
//! where `c[i]` is how often weight `i` counts for white minus how often it
//! counts for black. A trace records those coefficients, sparsely, plus the
//! few things that are not linear:
//!
//! - **King attack**: `units · king_attack_scale[n] / 100`, where `units` is
//!   the sum of `king_attack_weight[role]` over the attackers — a product of
//!   two weights. The trace keeps the attacker counts per role and `n`, and
//!   [`EvalTrace::white_eval`] / [`EvalTrace::add_gradient`] treat the
//!   product exactly.
//! - **Endgame scale**: the score is multiplied by `scale / 128`, where
//!   `scale` is one of the `scale_*` weights (or 128). The trace records
//!   which weight was in force; the product is again exact. Which rule
//!   applies (and which side counts as the stronger) is fixed at trace time.
//! - **Phase**: `phase_weight` and `endgame_material` decide the phase, not
//!   a term: the trace records the phase and treats them as constants
//!   ([`is_fixed`] says which weights these are; a tuner should leave them).
//!
//! The integer roundings of the real evaluation (the blend's division, the
//! king attack's `/ 100`, the halved f- and c-file shield penalties, which
//! the trace keeps as exact halves) are not reproduced, so a traced score
//! can differ from [`Classical`](crate::Classical)'s by a few centipawns.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::trace::trace;
//! use fianchetto_eval::{Breakdown, Params, Preset};
//!
//! let board = Bitboards::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")?;
//! let params = Params::classical();
//! let t = trace(&params, &board);
//! let weights: Vec<f64> = params.to_vec().into_iter().map(f64::from).collect();
//! let exact = Preset::Classical.breakdown(&board).white_score;
//! assert!((t.white_eval(&weights) - exact as f64).abs() <= 3.0);
//!
//! // Another weight set, same trace: a bigger bishop pair bonus changes nothing
//! // here (both sides have their pair), a bigger tempo does.
//! let mut other = weights.clone();
//! other[Params::index_of("tempo[0]").unwrap()] += 24.0;
//! assert!((t.white_eval(&other) - t.white_eval(&weights) - 24.0 * t.phase as f64 / 24.0).abs() < 1e-9);
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```

use crate::breakdown::{Breakdown, PHASE_MAX};
use crate::hce;
use crate::params::{offset, Field, Params};
use fianchetto_board::Board;

/// What the evaluation tells a tracer while it runs. The evaluation is
/// generic over it: with [`NoTrace`] every call compiles to nothing.
pub(crate) trait Tracer {
    /// Whether anything is recorded (a constant: the untraced evaluation
    /// skips the bookkeeping at compile time).
    const ON: bool;
    /// Colour `color` (0 = white) counts weight `index` with these
    /// middlegame and endgame coefficients, in halves.
    fn add(&mut self, color: usize, index: usize, mg_halves: i32, eg_halves: i32);
    /// The pieces of the side attacking `defender`'s king zone: how many of
    /// each role, and the attacker count that picks the scale (≤ 7).
    fn king_attack(&mut self, defender: usize, by_role: [i32; 6], attackers: usize);
    /// The flat index of the scale weight in force (`None`: 128).
    fn scale(&mut self, index: Option<usize>);
}

/// The tracer of the normal evaluation: records nothing.
pub(crate) struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn add(&mut self, _: usize, _: usize, _: i32, _: i32) {}
    #[inline(always)]
    fn king_attack(&mut self, _: usize, _: [i32; 6], _: usize) {}
    #[inline(always)]
    fn scale(&mut self, _: Option<usize>) {}
}

/// Counts tapered weight `index` (its middlegame half; the endgame half is
/// `index + 1`) `n` times for `color`.
#[inline(always)]
pub(crate) fn tap<T: Tracer>(t: &mut T, color: usize, index: usize, n: i32) {
    if T::ON {
        t.add(color, index, 2 * n, 0);
        t.add(color, index + 1, 0, 2 * n);
    }
}

/// [`tap`] with a coefficient in halves.
#[inline(always)]
pub(crate) fn tap_halves<T: Tracer>(t: &mut T, color: usize, index: usize, halves: i32) {
    if T::ON {
        t.add(color, index, halves, 0);
        t.add(color, index + 1, 0, halves);
    }
}

/// The flat index of the first weight of the [`Params`] field named
/// (`at!(psqt)`), computed at compile time.
macro_rules! at {
    ($field:ident) => {
        const { $crate::params::offset($crate::params::Field::$field) }
    };
}
pub(crate) use at;

/// One weight's coefficients in a trace: white's count minus black's, in
/// halves (the f- and c-file shield terms count half).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceTerm {
    /// The weight's flat index in [`Params`].
    pub index: u16,
    /// Middlegame coefficient, in halves.
    pub mg: i16,
    /// Endgame coefficient, in halves.
    pub eg: i16,
}

/// The king attack on one side: the attacking pieces by role, and the
/// number of attackers (at most 7) that picks `king_attack_scale`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingAttack {
    /// Attackers of the king zone by role (pawn … king; only knight to
    /// queen are counted).
    pub by_role: [u8; 6],
    /// Index into `king_attack_scale`.
    pub attackers: u8,
}

/// A position's evaluation as a function of the weights; see the
/// [module documentation](self).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalTrace {
    /// The linear coefficients, by increasing index, zeros left out.
    pub terms: Vec<TraceTerm>,
    /// The game phase, 0 (endgame) to [`PHASE_MAX`].
    pub phase: i32,
    /// The flat index of the `scale_*` weight that scaled the score
    /// (`None`: the scale was 128).
    pub scale_weight: Option<u16>,
    /// The king attack on white's king (`[0]`) and black's (`[1]`).
    pub king_attack: [KingAttack; 2],
    /// Scored a dead draw (insufficient material): always 0.
    pub draw: bool,
}

/// The flat indices of the weights a trace holds constant (they decide
/// the phase rather than add a term): `phase_weight[..]` and
/// `endgame_material`. A tuner working from traces must not change them.
///
/// ```
/// use fianchetto_eval::{trace::is_fixed, Params};
/// assert!(is_fixed(Params::index_of("phase_weight[4]").unwrap()));
/// assert!(!is_fixed(Params::index_of("psqt[0][12][0]").unwrap()));
/// ```
pub fn is_fixed(index: usize) -> bool {
    let pw = offset(Field::phase_weight);
    (pw..pw + 6).contains(&index) || index == offset(Field::endgame_material)
}

/// The king attack's weight indices.
fn king_attack_weight(role: usize) -> usize {
    offset(Field::king_attack_weight) + role
}

fn king_attack_scale(n: usize) -> usize {
    offset(Field::king_attack_scale) + n
}

/// The dense recorder behind [`trace`].
struct Dense {
    coef: Vec<[i32; 2]>,
    king: [KingAttack; 2],
    scale: Option<usize>,
}

impl Tracer for Dense {
    const ON: bool = true;
    fn add(&mut self, color: usize, index: usize, mg: i32, eg: i32) {
        let sign = if color == 0 { 1 } else { -1 };
        if let Some(c) = self.coef.get_mut(index) {
            c[0] += sign * mg;
            c[1] += sign * eg;
        }
    }
    fn king_attack(&mut self, defender: usize, by_role: [i32; 6], attackers: usize) {
        let k = &mut self.king[defender & 1];
        for (slot, n) in k.by_role.iter_mut().zip(by_role) {
            *slot = n.clamp(0, 255) as u8;
        }
        k.attackers = attackers.min(7) as u8;
    }
    fn scale(&mut self, index: Option<usize>) {
        self.scale = index;
    }
}

/// Traces the evaluation of `board` under `params` (the phase, the scale
/// rule and the dead-draw verdict are those of `params`).
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_eval::{trace::trace, Params};
/// // White has an extra rook: its middlegame value counts once (2 halves).
/// let b = Bitboards::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")?;
/// let t = trace(&Params::classical(), &b);
/// let rook_mg = Params::index_of("piece_value[3][0]").unwrap() as u16;
/// let term = t.terms.iter().find(|x| x.index == rook_mg).unwrap();
/// assert_eq!((term.mg, term.eg), (2, 0)); // in halves
/// # Ok::<(), fianchetto_board::FenError>(())
/// ```
pub fn trace<B: Board>(params: &Params, board: &B) -> EvalTrace {
    let mut dense = Dense {
        coef: vec![[0; 2]; Params::LEN],
        king: [KingAttack::default(); 2],
        scale: None,
    };
    let mut out = Breakdown::default();
    hce::evaluate_with(params, board, None, &mut out, &mut dense);
    let terms = dense
        .coef
        .iter()
        .enumerate()
        .filter(|(_, c)| c[0] != 0 || c[1] != 0)
        .map(|(i, c)| TraceTerm {
            index: i as u16,
            mg: c[0].clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eg: c[1].clamp(i16::MIN as i32, i16::MAX as i32) as i16,
        })
        .collect();
    EvalTrace {
        terms,
        phase: out.phase,
        scale_weight: dense.scale.map(|i| i as u16),
        king_attack: dense.king,
        draw: out.draw,
    }
}

impl EvalTrace {
    /// The unscaled `[mg, eg]` totals (white minus black) under `weights`
    /// (indexed like [`Params`]; missing weights count as 0).
    pub fn totals(&self, weights: &[f64]) -> [f64; 2] {
        let w = |i: usize| weights.get(i).copied().unwrap_or(0.0);
        let mut mg = 0.0;
        let mut eg = 0.0;
        for t in &self.terms {
            let v = w(t.index as usize);
            mg += t.mg as f64 * v;
            eg += t.eg as f64 * v;
        }
        mg *= 0.5;
        eg *= 0.5;
        for (side, ka) in self.king_attack.iter().enumerate() {
            let sign = if side == 0 { 1.0 } else { -1.0 };
            let units: f64 = (0..6)
                .map(|r| ka.by_role[r] as f64 * w(king_attack_weight(r)))
                .sum();
            mg -= sign * units * w(king_attack_scale(ka.attackers as usize)) / 100.0;
        }
        [mg, eg]
    }

    /// The score from white's point of view under `weights` (indexed like
    /// [`Params`]), in centipawns, without the evaluation's roundings.
    pub fn white_eval(&self, weights: &[f64]) -> f64 {
        if self.draw {
            return 0.0;
        }
        let [mg, eg] = self.totals(weights);
        let phase = self.phase as f64 / PHASE_MAX as f64;
        let blended = mg * phase + eg * (1.0 - phase);
        blended * self.scale(weights) / 128.0
    }

    fn scale(&self, weights: &[f64]) -> f64 {
        self.scale_weight
            .map_or(128.0, |i| weights.get(i as usize).copied().unwrap_or(0.0))
    }

    /// Adds `factor` times the gradient of [`EvalTrace::white_eval`] with
    /// respect to the weights to `grad` (indexed like [`Params`]); a
    /// tuner passes `factor` = ∂loss/∂eval.
    pub fn add_gradient(&self, weights: &[f64], factor: f64, grad: &mut [f64]) {
        if self.draw {
            return;
        }
        let w = |i: usize| weights.get(i).copied().unwrap_or(0.0);
        let scale = self.scale(weights) / 128.0;
        let phase = self.phase as f64 / PHASE_MAX as f64;
        let d_mg = factor * phase * scale;
        let d_eg = factor * (1.0 - phase) * scale;
        for t in &self.terms {
            if let Some(g) = grad.get_mut(t.index as usize) {
                *g += 0.5 * (t.mg as f64 * d_mg + t.eg as f64 * d_eg);
            }
        }
        for (side, ka) in self.king_attack.iter().enumerate() {
            if ka.by_role.iter().all(|&n| n == 0) {
                continue;
            }
            let sign = if side == 0 { 1.0 } else { -1.0 };
            let s_index = king_attack_scale(ka.attackers as usize);
            let s = w(s_index);
            let mut units = 0.0;
            for r in 0..6 {
                let n = ka.by_role[r] as f64;
                units += n * w(king_attack_weight(r));
                if let Some(g) = grad.get_mut(king_attack_weight(r)) {
                    *g -= d_mg * sign * n * s / 100.0;
                }
            }
            if let Some(g) = grad.get_mut(s_index) {
                *g -= d_mg * sign * units / 100.0;
            }
        }
        if let Some(i) = self.scale_weight {
            let [mg, eg] = self.totals(weights);
            if let Some(g) = grad.get_mut(i as usize) {
                *g += factor * (mg * phase + eg * (1.0 - phase)) / 128.0;
            }
        }
    }
}
