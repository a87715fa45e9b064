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
/// (codes of [`encode_move`]), the target distribution over them and its
/// most likely move.
///
/// `targets` holds pairs (index among `moves`, weight), at least one with
/// a weight above 0; a move's target probability is its weight over the
/// weights' sum, and a move not listed has none. The move the search
/// played is the pair (its index, 1); root visits are each visited move's
/// pair (its index, its visits).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Example<'a> {
    pub features: &'a [u16],
    pub moves: &'a [u16],
    pub targets: &'a [u16],
    /// The index of the move with the largest weight (the first of those
    /// tied): what the accuracy is measured against.
    pub top: usize,
}

/// The index of the largest weight of `targets` (pairs as in
/// [`Example::targets`]; the first of those tied), 0 for none.
pub(crate) fn top_of(targets: &[u16]) -> usize {
    let mut best = (0, 0);
    for pair in targets.chunks_exact(2) {
        if pair[1] > best.1 {
            best = (pair[0] as usize, pair[1]);
        }
    }
    best.0
}

/// What one example gave: its loss and the top move's rank among the
/// logits (0: the network's first choice; ties count against it).
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

/// The sum of the weights of `targets` (pairs as in [`Example::targets`]),
/// at least 1.
fn total_weight(targets: &[u16]) -> f32 {
    let sum: u32 = targets.chunks_exact(2).map(|p| p[1] as u32).sum();
    sum.max(1) as f32
}

/// The cross-entropy of the softmax of `logits` against the target
/// distribution `targets` (pairs as in [`Example::targets`]):
/// `log Σ exp(z) − Σ t_m z_m`, leaving the probabilities in `logits`. A
/// one-hot target (a single pair of weight 1) is the classic
/// `log Σ exp(z) − z_target`.
pub(crate) fn softmax_loss(logits: &mut [f32], targets: &[u16]) -> f32 {
    let max = logits.iter().fold(f32::NEG_INFINITY, |m, &l| m.max(l));
    let total = total_weight(targets);
    let mut target_logit = 0.0f32;
    for pair in targets.chunks_exact(2) {
        target_logit += pair[1] as f32 / total * logits[pair[0] as usize];
    }
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
/// `g_m = p_m − t_m` (`t` the target distribution); `dF[from] += g_m h`, `dT[to] += g_m h`;
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
    let rank = rank_of(&probs[..n], ex.top);
    let loss = softmax_loss(&mut probs[..n], ex.targets);
    if let Some(grad) = grad {
        // The probabilities become `p − t`.
        let total = total_weight(ex.targets);
        for pair in ex.targets.chunks_exact(2) {
            probs[pair[0] as usize] -= pair[1] as f32 / total;
        }
        s.dh.fill(0.0);
        for (&code, &d) in ex.moves.iter().zip(&probs[..n]) {
            let g = d * scale;
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

    /// An example's feature rows, move codes and target pairs.
    type Data = (Vec<u16>, Vec<u16>, Vec<u16>);

    /// The feature rows and move codes of `fen`, and the one-hot target of
    /// `uci`.
    fn encode(fen: &str, uci: &str) -> Data {
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
        (
            f.into_iter().map(|x| x as u16).collect(),
            codes,
            vec![target as u16, 1],
        )
    }

    /// The positions with the move played as the target (hard targets).
    fn positions() -> Vec<Data> {
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

    /// The same positions with root visits as the target (soft targets):
    /// the move played and up to three others, with visits of all sizes
    /// (one of them 0).
    fn soft_positions() -> Vec<Data> {
        positions()
            .into_iter()
            .map(|(f, m, t)| {
                let played = t[0];
                let mut pairs = vec![played, 40];
                for (k, visits) in [(1, 25), (2, 0), (4, 7)] {
                    let i = (played as usize + k) % m.len();
                    pairs.extend([i as u16, visits]);
                }
                (f, m, pairs)
            })
            .collect()
    }

    fn example_of(d: &Data) -> Example<'_> {
        Example {
            features: &d.0,
            moves: &d.1,
            targets: &d.2,
            top: top_of(&d.2),
        }
    }

    /// The loss of the examples, summed in f64.
    fn total_loss(layout: Layout, params: &[f32], data: &[Data]) -> f64 {
        let mut s = Scratch::new(layout);
        data.iter()
            .map(|d| example(layout, params, example_of(d), 1.0, &mut s, None).loss as f64)
            .sum()
    }

    #[test]
    fn the_gradient_matches_finite_differences_in_every_part() {
        check_gradient(&positions());
    }

    #[test]
    fn the_gradient_with_soft_targets_matches_finite_differences() {
        let soft = soft_positions();
        assert!(soft.iter().all(|d| d.2.len() == 8));
        check_gradient(&soft);
    }

    #[test]
    fn a_one_hot_distribution_is_the_move_played() {
        // The loss of the target pair (t, 1) is the classic −log p_t.
        let layout = Layout::new(&PolicyArch::new(16).unwrap());
        let params = random_weights(layout, 3);
        let mut s = Scratch::new(layout);
        for d in positions() {
            let out = example(layout, &params, example_of(&d), 1.0, &mut s, None);
            let mut logits = vec![0.0; d.1.len()];
            super::logits(layout, &params, &d.0, &d.1, &mut s, &mut logits);
            let max = logits.iter().fold(f32::NEG_INFINITY, |m, &l| m.max(l));
            let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
            let expected = sum.ln() + max - logits[d.2[0] as usize];
            assert!(
                (out.loss - expected).abs() < 1e-5,
                "{} {expected}",
                out.loss
            );
            // Weights are relative: (t, 7) is the same target as (t, 1).
            let seven = (d.0.clone(), d.1.clone(), vec![d.2[0], 7]);
            let again = example(layout, &params, example_of(&seven), 1.0, &mut s, None);
            assert_eq!(again.loss, out.loss);
        }
    }

    fn check_gradient(data: &[Data]) {
        let arch = PolicyArch::new(16).unwrap();
        let layout = Layout::new(&arch);
        // Larger embeddings than a fresh net's, so that every gradient is
        // well above the differences' rounding.
        let mut params = random_weights(layout, 5);
        let mut r = rng(9, 77);
        for e in &mut params[layout.embeddings()] {
            *e = uniform(&mut r, 1.0);
        }
        let mut grad = vec![0.0f32; layout.len()];
        let mut s = Scratch::new(layout);
        let mut accs = Vec::new();
        for d in data {
            example(layout, &params, example_of(d), 1.0, &mut s, Some(&mut grad));
            accs.push(s.acc.clone());
        }
        // Parameters every example uses, or some use: the rows of their
        // features and moves, and a few no example touches (gradient 0).
        let mut checked = Vec::new();
        let (f0, m0, _) = &data[0];
        let (from, to) = decode_move(m0[3]);
        let (_, m2, t2) = &data[2];
        let (pfrom, pto) = decode_move(m2[t2[0] as usize]);
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
            let up = total_loss(layout, &p, data);
            p[i] = params[i] - eps;
            let down = total_loss(layout, &p, data);
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
