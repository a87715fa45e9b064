//! The float policy network the trainer learns, laid out in the policy
//! file's order (see [`PolicyArch`]): its forward pass, its exact
//! gradient, its fresh weights and AdamW.
//!
//! A position reaches the network as its feature rows and, per legal move,
//! one `u16` naming the move's from-square row and destination row
//! ([`encode_move`]): what [`fianchetto_eval::policy::features`] and
//! [`fianchetto_eval::policy::move_rows`] give, computed once when the
//! data is loaded, so that an epoch neither decodes boards nor generates
//! moves.

use crate::loader::{rng, STREAM_INIT};
use crate::optim::{BETA1, BETA2, EPSILON};
use fianchetto_eval::policy::{PolicyArch, PolicyQuant, FROM_ROWS, INPUTS, TO_ROWS};
use rand_xoshiro::rand_core::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::ops::Range;

/// Where each part of the network sits in the flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Hidden neurons.
    pub hidden: usize,
}

impl Layout {
    pub(crate) fn new(arch: &PolicyArch) -> Layout {
        Layout {
            hidden: arch.hidden,
        }
    }

    /// Feature weights: `INPUTS` rows of H.
    pub(crate) fn feature_weights(&self) -> Range<usize> {
        0..INPUTS * self.hidden
    }

    /// Feature biases: H.
    pub(crate) fn bias(&self) -> Range<usize> {
        INPUTS * self.hidden..(INPUTS + 1) * self.hidden
    }

    /// From-square rows and destination rows: the move embeddings.
    pub(crate) fn embeddings(&self) -> Range<usize> {
        (INPUTS + 1) * self.hidden..self.len()
    }

    /// Every parameter.
    pub(crate) fn len(&self) -> usize {
        (INPUTS + 1 + FROM_ROWS + TO_ROWS) * self.hidden
    }

    /// The parameters of feature `f`'s row.
    fn feature(&self, f: usize) -> Range<usize> {
        f * self.hidden..(f + 1) * self.hidden
    }

    /// From-square row `r`.
    fn source_row(&self, r: usize) -> Range<usize> {
        let at = (INPUTS + 1 + r) * self.hidden;
        at..at + self.hidden
    }

    /// Destination row `r`.
    fn destination_row(&self, r: usize) -> Range<usize> {
        let at = (INPUTS + 1 + FROM_ROWS + r) * self.hidden;
        at..at + self.hidden
    }
}

/// A move's two rows in one `u16` (`FROM_ROWS × TO_ROWS` codes fit).
pub(crate) fn encode_move(from: usize, to: usize) -> u16 {
    const _: () = assert!(FROM_ROWS * TO_ROWS <= 1 << 16);
    debug_assert!(from < FROM_ROWS && to < TO_ROWS);
    (from * TO_ROWS + to) as u16
}

/// The from-square row and the destination row of a code of
/// [`encode_move`].
fn decode_move(code: u16) -> (usize, usize) {
    (code as usize / TO_ROWS, code as usize % TO_ROWS)
}

/// One training example: the position's feature rows, its legal moves
/// (codes of [`encode_move`]) and which of them was played.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Example<'a> {
    pub features: &'a [u16],
    pub moves: &'a [u16],
    pub target: usize,
}

/// What one example gave: its loss and the target's rank among the logits
/// (0: the network's first choice; ties count against it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Outcome {
    pub loss: f32,
    pub rank: usize,
}

/// The buffers of one forward and backward pass, made once per thread, so
/// that a pass allocates nothing.
pub(crate) struct Scratch {
    acc: Vec<f32>,
    hidden: Vec<f32>,
    dh: Vec<f32>,
    /// The logits, then the probabilities.
    logits: Vec<f32>,
}

impl Scratch {
    pub(crate) fn new(layout: Layout) -> Scratch {
        Scratch {
            acc: vec![0.0; layout.hidden],
            hidden: vec![0.0; layout.hidden],
            dh: vec![0.0; layout.hidden],
            logits: vec![0.0; 256],
        }
    }
}

/// `a · b`, in eight lanes so that the compiler vectorises it (the hidden
/// size is a multiple of 16); the order of the sums is fixed, so results
/// are the same on every run.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    lanes.iter().sum()
}

/// `out += scale · x`.
#[inline]
fn axpy(out: &mut [f32], scale: f32, x: &[f32]) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o += scale * v;
    }
}

/// The hidden layer of `features` into `s.acc` (before the clip) and
/// `s.hidden` (after it).
fn hidden_layer(layout: Layout, params: &[f32], features: &[u16], s: &mut Scratch) {
    s.acc.copy_from_slice(&params[layout.bias()]);
    for &f in features {
        let row = &params[layout.feature(f as usize)];
        for (a, &w) in s.acc.iter_mut().zip(row) {
            *a += w;
        }
    }
    for (h, &a) in s.hidden.iter_mut().zip(&s.acc) {
        *h = a.clamp(0.0, 1.0);
    }
}

/// The logit of each of `moves` into `out` (as long as `moves`).
pub(crate) fn logits(
    layout: Layout,
    params: &[f32],
    features: &[u16],
    moves: &[u16],
    s: &mut Scratch,
    out: &mut [f32],
) {
    hidden_layer(layout, params, features, s);
    for (&code, o) in moves.iter().zip(out.iter_mut()) {
        let (from, to) = decode_move(code);
        *o = dot(&s.hidden, &params[layout.source_row(from)])
            + dot(&s.hidden, &params[layout.destination_row(to)]);
    }
}

/// The target's rank among `logits`: how many other moves score at least
/// as high.
pub(crate) fn rank_of(logits: &[f32], target: usize) -> usize {
    let t = logits[target];
    logits
        .iter()
        .enumerate()
        .filter(|&(i, &l)| i != target && l >= t)
        .count()
}

/// The cross-entropy of the softmax of `logits` against a one-hot target,
/// leaving the probabilities in `logits`.
pub(crate) fn softmax_loss(logits: &mut [f32], target: usize) -> f32 {
    let max = logits.iter().fold(f32::NEG_INFINITY, |m, &l| m.max(l));
    let target_logit = logits[target];
    let mut sum = 0.0f32;
    for l in logits.iter_mut() {
        *l = (*l - max).exp();
        sum += *l;
    }
    for l in logits.iter_mut() {
        *l /= sum;
    }
    sum.ln() + max - target_logit
}

/// The forward pass of `ex` and, with `grad`, its gradient times `scale`
/// added to `grad`:
///
/// `g_m = p_m − t_m`; `dF[from] += g_m h`, `dT[to] += g_m h`;
/// `dh = Σ g_m (F[from] + T[to])`; `dacc = dh` where `0 < acc < 1`, else 0;
/// `dW[f] += dacc` for each feature and `db += dacc`.
pub(crate) fn example(
    layout: Layout,
    params: &[f32],
    ex: Example<'_>,
    scale: f32,
    s: &mut Scratch,
    grad: Option<&mut [f32]>,
) -> Outcome {
    let n = ex.moves.len();
    let mut probs = std::mem::take(&mut s.logits);
    logits(layout, params, ex.features, ex.moves, s, &mut probs[..n]);
    let rank = rank_of(&probs[..n], ex.target);
    let loss = softmax_loss(&mut probs[..n], ex.target);
    if let Some(grad) = grad {
        s.dh.fill(0.0);
        for (i, (&code, &p)) in ex.moves.iter().zip(&probs[..n]).enumerate() {
            let g = (p - (i == ex.target) as u32 as f32) * scale;
            let (from, to) = decode_move(code);
            let (fr, tr) = (layout.source_row(from), layout.destination_row(to));
            axpy(&mut grad[fr.clone()], g, &s.hidden);
            axpy(&mut grad[tr.clone()], g, &s.hidden);
            for ((d, &f), &t) in s.dh.iter_mut().zip(&params[fr]).zip(&params[tr]) {
                *d += g * (f + t);
            }
        }
        for (d, &a) in s.dh.iter_mut().zip(&s.acc) {
            if !(a > 0.0 && a < 1.0) {
                *d = 0.0;
            }
        }
        for &f in ex.features {
            axpy(&mut grad[layout.feature(f as usize)], 1.0, &s.dh);
        }
        axpy(&mut grad[layout.bias()], 1.0, &s.dh);
    }
    s.logits = probs;
    Outcome { loss, rank }
}

/// A uniform float in `-a..a`.
fn uniform(rng: &mut Xoshiro256PlusPlus, a: f32) -> f32 {
    let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (2.0 * unit - 1.0) * a
}

/// Fresh weights drawn from `seed`. Feature weights are uniform in
/// ±1/√32 and biases in 0.1..0.5, so that a position's ~30 features put
/// most neurons inside the clip's linear range (neither stuck at 0 nor at
/// 1, where no gradient flows); embeddings are uniform in ±0.1, so that the
/// first logits differ by a few tenths and the softmax starts near uniform.
pub(crate) fn random_weights(layout: Layout, seed: u64) -> Vec<f32> {
    let mut params = vec![0.0f32; layout.len()];
    let mut r = rng(seed, STREAM_INIT);
    let feature = 1.0 / 32f32.sqrt();
    for w in &mut params[layout.feature_weights()] {
        *w = uniform(&mut r, feature);
    }
    for b in &mut params[layout.bias()] {
        *b = 0.3 + uniform(&mut r, 0.2);
    }
    for e in &mut params[layout.embeddings()] {
        *e = uniform(&mut r, 0.1);
    }
    params
}

/// The AdamW moments and step count of a run.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Moments {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
}

/// One dense AdamW step (bias-corrected moments, decoupled weight decay on
/// the weights and embeddings, not the biases), then the clips the
/// quantized network needs: feature weights and biases within
/// ±[`PolicyQuant::FEATURE_CLIP`], embeddings within
/// ±[`PolicyQuant::EMBEDDING_CLIP`].
///
/// Dense, not sparse: with batches of a thousand positions nearly every
/// feature row and move row is touched anyway, and the network is small.
pub(crate) fn adamw_step(
    layout: Layout,
    params: &mut [f32],
    grad: &[f32],
    moments: &mut Moments,
    t: u64,
    lr: f32,
    weight_decay: f32,
) {
    let t = t.min(i32::MAX as u64) as i32;
    let correct1 = 1.0 / (1.0 - BETA1.powi(t));
    let correct2 = 1.0 / (1.0 - BETA2.powi(t));
    let parts = [
        (
            layout.feature_weights(),
            weight_decay,
            PolicyQuant::FEATURE_CLIP,
        ),
        (layout.bias(), 0.0, PolicyQuant::FEATURE_CLIP),
        (
            layout.embeddings(),
            weight_decay,
            PolicyQuant::EMBEDDING_CLIP,
        ),
    ];
    for (range, decay, clip) in parts {
        let decay = 1.0 - lr * decay;
        for (((p, &g), m), v) in params[range.clone()]
            .iter_mut()
            .zip(&grad[range.clone()])
            .zip(&mut moments.m[range.clone()])
            .zip(&mut moments.v[range])
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let step = (*m * correct1) / ((*v * correct2).sqrt() + EPSILON);
            *p = (*p * decay - lr * step).clamp(-clip, clip);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, Board};
    use fianchetto_eval::policy::{features, move_rows};
    use fianchetto_movegen::MoveGen;

    /// The feature rows and move codes of `fen`, and the index of `uci`.
    fn encode(fen: &str, uci: &str) -> (Vec<u16>, Vec<u16>, usize) {
        let board = Bitboards::from_fen(fen).unwrap();
        let mut f: Vec<usize> = Vec::new();
        features(&board, &mut f);
        let moves = board.legal_moves();
        let codes = moves
            .iter()
            .map(|&m| {
                let (a, b) = move_rows(&board, m);
                encode_move(a, b)
            })
            .collect();
        let target = moves.iter().position(|m| m.to_string() == uci).unwrap();
        (f.into_iter().map(|x| x as u16).collect(), codes, target)
    }

    fn positions() -> Vec<(Vec<u16>, Vec<u16>, usize)> {
        vec![
            encode(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "e2e4",
            ),
            encode(
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "e1g1",
            ),
            encode("8/5P2/8/8/2k5/8/8/4K3 w - - 0 1", "f7f8n"),
            encode("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"),
        ]
    }

    /// The loss of the examples, summed in f64.
    fn total_loss(layout: Layout, params: &[f32], data: &[(Vec<u16>, Vec<u16>, usize)]) -> f64 {
        let mut s = Scratch::new(layout);
        data.iter()
            .map(|(f, m, t)| {
                let ex = Example {
                    features: f,
                    moves: m,
                    target: *t,
                };
                example(layout, params, ex, 1.0, &mut s, None).loss as f64
            })
            .sum()
    }

    #[test]
    fn the_gradient_matches_finite_differences_in_every_part() {
        let arch = PolicyArch::new(16).unwrap();
        let layout = Layout::new(&arch);
        // Larger embeddings than a fresh net's, so that every gradient is
        // well above the differences' rounding.
        let mut params = random_weights(layout, 5);
        let mut r = rng(9, 77);
        for e in &mut params[layout.embeddings()] {
            *e = uniform(&mut r, 1.0);
        }
        let data = positions();
        let mut grad = vec![0.0f32; layout.len()];
        let mut s = Scratch::new(layout);
        let mut accs = Vec::new();
        for (f, m, t) in &data {
            let ex = Example {
                features: f,
                moves: m,
                target: *t,
            };
            example(layout, &params, ex, 1.0, &mut s, Some(&mut grad));
            accs.push(s.acc.clone());
        }
        // Parameters every example uses, or some use: the rows of their
        // features and moves, and a few no example touches (gradient 0).
        let mut checked = Vec::new();
        let (f0, m0, _) = &data[0];
        let (from, to) = decode_move(m0[3]);
        let (_, m2, t2) = &data[2];
        let (pfrom, pto) = decode_move(m2[*t2]);
        // Every neuron of the first layer, so that some are cut off by the
        // clip (below 0 or above 1) in some example: their gradient is 0.
        for j in 0..layout.hidden {
            checked.push(("feature weight", layout.feature(f0[0] as usize).start + j));
            checked.push(("feature weight", layout.feature(f0[20] as usize).start + j));
            checked.push(("bias", layout.bias().start + j));
        }
        for j in [0, 5, 15] {
            checked.push(("from row", layout.source_row(from).start + j));
            checked.push(("destination row", layout.destination_row(to).start + j));
            checked.push(("promotion row", layout.destination_row(pto).start + j));
            checked.push(("from row", layout.source_row(pfrom).start + j));
        }
        // A feature no example has (a white pawn on the first rank, ours).
        checked.push(("unused feature", layout.feature(3).start));
        let eps = 1e-2f32;
        let mut compared = 0;
        for (part, i) in checked {
            // A neuron within eps of the clip's corners has no derivative
            // there: the check would straddle a kink.
            let neuron = i % layout.hidden;
            if i < layout.embeddings().start
                && accs
                    .iter()
                    .any(|a| a[neuron].abs() < 2.0 * eps || (a[neuron] - 1.0).abs() < 2.0 * eps)
            {
                continue;
            }
            let mut p = params.clone();
            p[i] = params[i] + eps;
            let up = total_loss(layout, &p, &data);
            p[i] = params[i] - eps;
            let down = total_loss(layout, &p, &data);
            let numeric = (up - down) / (2.0 * eps as f64);
            let analytic = grad[i] as f64;
            assert!(
                (numeric - analytic).abs() <= 2e-3 + 2e-2 * analytic.abs(),
                "{part} {i}: numeric {numeric}, backward {analytic}"
            );
            compared += 1;
        }
        assert!(compared >= 40, "only {compared} parameters compared");
        // Some neuron was clipped in some example, so the mask was tested.
        assert!(accs.iter().flatten().any(|&a| !(0.0..=1.0).contains(&a)));
    }

    #[test]
    fn a_fresh_net_gives_varied_logits_and_live_neurons() {
        let layout = Layout::new(&PolicyArch::new(64).unwrap());
        let params = random_weights(layout, 1);
        let mut s = Scratch::new(layout);
        for (f, m, _) in positions() {
            let mut out = vec![0.0; m.len()];
            logits(layout, &params, &f, &m, &mut s, &mut out);
            let live = s.acc.iter().filter(|&&a| a > 0.0 && a < 1.0).count();
            assert!(live >= 16, "{live} of 64 neurons in the linear range");
            let (lo, hi) = out
                .iter()
                .fold((f32::MAX, f32::MIN), |(lo, hi), &l| (lo.min(l), hi.max(l)));
            assert!(hi - lo > 0.05 && hi - lo < 5.0, "logits from {lo} to {hi}");
        }
    }

    #[test]
    fn adamw_moves_against_the_gradient_and_clips() {
        let layout = Layout::new(&PolicyArch::new(16).unwrap());
        let n = layout.len();
        let mut params = vec![0.5f32; n];
        params[0] = PolicyQuant::FEATURE_CLIP;
        let e = layout.embeddings().start;
        params[e] = PolicyQuant::EMBEDDING_CLIP;
        let mut grad = vec![1.0f32; n];
        grad[0] = -1.0;
        grad[e] = -1.0;
        let mut moments = Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        };
        adamw_step(layout, &mut params, &grad, &mut moments, 1, 0.01, 0.0);
        assert!((params[1] - 0.49).abs() < 1e-6);
        assert_eq!(params[0], PolicyQuant::FEATURE_CLIP);
        assert_eq!(params[e], PolicyQuant::EMBEDDING_CLIP);
        assert!((params[e + 1] - 0.49).abs() < 1e-6);
    }
}
