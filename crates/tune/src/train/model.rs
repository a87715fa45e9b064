//! The float network the trainer optimises, its forward and backward pass,
//! and the per-thread gradient buffers.
//!
//! All parameters live in one flat `f32` vector (so that the optimiser, the
//! checkpoint and the reduction treat them alike), in this order:
//!
//! | range | what |
//! |---|---|
//! | `0 .. 768·H` | feature weights, feature-major (row `f` is the H weights of feature `f`) |
//! | `768·H .. 769·H` | feature biases |
//! | `769·H .. 770·H` | output weights for the side to move's half |
//! | `770·H .. 771·H` | output weights for the other side's half |
//! | `771·H` | output bias |

use super::data::{active_features, sigmoid, target, TrainData, MIRRORED};
use crate::marlin::PackedBoard;
use fianchetto_eval::nnue::INPUTS;
use std::ops::Range;

/// Where each kind of parameter sits in the flat vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub hidden: usize,
}

impl Layout {
    pub fn ft_weights(self) -> Range<usize> {
        0..INPUTS * self.hidden
    }
    pub fn ft_bias(self) -> Range<usize> {
        INPUTS * self.hidden..(INPUTS + 1) * self.hidden
    }
    pub fn out_weights(self) -> Range<usize> {
        (INPUTS + 1) * self.hidden..(INPUTS + 3) * self.hidden
    }
    pub fn out_bias(self) -> usize {
        (INPUTS + 3) * self.hidden
    }
    /// How many parameters in all.
    pub fn len(self) -> usize {
        self.out_bias() + 1
    }
}

/// SCReLU: `clamp(x, 0, 1)²`.
#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The derivative of SCReLU (0 where the clamp is active).
#[inline(always)]
fn screlu_grad(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        2.0 * x
    } else {
        0.0
    }
}

/// Lanes of the dot product: independent partial sums the compiler keeps in
/// vector registers (floats are not reassociated for us). `hidden` is a
/// multiple of 16.
const LANES: usize = 16;

/// Fills the accumulators of both perspectives (`hidden` entries each) and
/// returns the raw output (in units of
/// [`SCALE`](fianchetto_eval::nnue::SCALE) centipawns).
#[inline]
pub(crate) fn forward(
    l: Layout,
    params: &[f32],
    stm: &[u16],
    nstm: &[u16],
    acc_stm: &mut [f32],
    acc_nstm: &mut [f32],
) -> f32 {
    let h = l.hidden;
    let weights = &params[l.ft_weights()];
    let bias = &params[l.ft_bias()];
    for (acc, feats) in [(&mut *acc_stm, stm), (&mut *acc_nstm, nstm)] {
        // Blocks of 64 neurons summed in registers over every feature,
        // then the rest in blocks of 16 (H is a multiple of 16).
        let wide = h - h % 64;
        for start in (0..wide).step_by(64) {
            accumulate_block::<64>(acc, bias, weights, feats, h, start);
        }
        for start in (wide..h).step_by(16) {
            accumulate_block::<16>(acc, bias, weights, feats, h, start);
        }
    }
    let out_w = &params[l.out_weights()];
    let (w_stm, w_nstm) = out_w.split_at(h);
    let mut lanes = [0.0f32; LANES];
    for (((a, b), ws), wn) in acc_stm
        .chunks_exact(LANES)
        .zip(acc_nstm.chunks_exact(LANES))
        .zip(w_stm.chunks_exact(LANES))
        .zip(w_nstm.chunks_exact(LANES))
    {
        for i in 0..LANES {
            lanes[i] += screlu(a[i]) * ws[i] + screlu(b[i]) * wn[i];
        }
    }
    params[l.out_bias()] + lanes.iter().sum::<f32>()
}

/// The raw output for one record, with scratch accumulators of `hidden`
/// entries.
pub(crate) fn output(
    l: Layout,
    params: &[f32],
    record: &PackedBoard,
    acc_stm: &mut [f32],
    acc_nstm: &mut [f32],
) -> f32 {
    let (mut stm, mut nstm) = ([0u16; 32], [0u16; 32]);
    let n = active_features(record, false, &mut stm, &mut nstm);
    forward(l, params, &stm[..n], &nstm[..n], acc_stm, acc_nstm)
}

/// `acc[start..start + B] = bias + Σ rows of feats`, over that block only,
/// kept in registers while the rows stream past.
#[inline(always)]
fn accumulate_block<const B: usize>(
    acc: &mut [f32],
    bias: &[f32],
    weights: &[f32],
    feats: &[u16],
    h: usize,
    start: usize,
) {
    let mut sum = [0.0f32; B];
    sum.copy_from_slice(&bias[start..start + B]);
    for &f in feats {
        let at = f as usize * h + start;
        let row = &weights[at..at + B];
        for (s, w) in sum.iter_mut().zip(row) {
            *s += w;
        }
    }
    acc[start..start + B].copy_from_slice(&sum);
}

/// One thread's scratch space and gradient: allocated once, reused for
/// every position.
pub(crate) struct Worker {
    layout: Layout,
    /// Gradient in the flat layout; of the feature weights only the rows in
    /// `touched_rows` are non-zero.
    pub grad: Vec<f32>,
    touched: Vec<bool>,
    pub touched_rows: Vec<u16>,
    acc_stm: Vec<f32>,
    acc_nstm: Vec<f32>,
    d_stm: Vec<f32>,
    d_nstm: Vec<f32>,
    /// Sum of the squared errors of the positions seen since the last reset.
    pub loss: f64,
}

impl Worker {
    pub fn new(layout: Layout) -> Worker {
        let h = layout.hidden;
        Worker {
            layout,
            grad: vec![0.0; layout.len()],
            touched: vec![false; INPUTS],
            touched_rows: Vec::with_capacity(INPUTS),
            acc_stm: vec![0.0; h],
            acc_nstm: vec![0.0; h],
            d_stm: vec![0.0; h],
            d_nstm: vec![0.0; h],
            loss: 0.0,
        }
    }

    #[inline]
    fn forward(&mut self, params: &[f32], stm: &[u16], nstm: &[u16]) -> f32 {
        forward(
            self.layout,
            params,
            stm,
            nstm,
            &mut self.acc_stm,
            &mut self.acc_nstm,
        )
    }

    /// Adds the squared errors of `indices` to `self.loss`.
    pub fn evaluate(&mut self, params: &[f32], data: &TrainData, indices: &[u32], wdl: f32) {
        let mut loss = 0.0f64;
        for &i in indices {
            let record = data.get(i);
            let (mut stm, mut nstm) = ([0u16; 32], [0u16; 32]);
            let n = active_features(record, i & MIRRORED != 0, &mut stm, &mut nstm);
            let out = self.forward(params, &stm[..n], &nstm[..n]);
            let err = sigmoid(out) - target(record, wdl);
            loss += (err * err) as f64;
        }
        self.loss += loss;
    }

    /// Forward and backward over `indices`: adds the squared errors to
    /// `self.loss` and `scale ×` the gradient of the summed squared error
    /// to `self.grad`, touching only the rows of the active features.
    pub fn train(
        &mut self,
        params: &[f32],
        data: &TrainData,
        indices: &[u32],
        wdl: f32,
        scale: f32,
    ) {
        let l = self.layout;
        let h = l.hidden;
        let (mut stm, mut nstm) = ([0u16; 32], [0u16; 32]);
        let mut loss = 0.0f64;
        for &i in indices {
            let record = data.get(i);
            let n = active_features(record, i & MIRRORED != 0, &mut stm, &mut nstm);
            let out = self.forward(params, &stm[..n], &nstm[..n]);
            let s = sigmoid(out);
            let err = s - target(record, wdl);
            loss += (err * err) as f64;
            // d(err²)/d out.
            let g = scale * 2.0 * err * s * (1.0 - s);

            let out_w = &params[l.out_weights()];
            let (w_stm, w_nstm) = out_w.split_at(h);
            let (g_ft, rest) = self.grad.split_at_mut(l.ft_bias().start);
            let (g_bias, rest) = rest.split_at_mut(h);
            let (g_out, g_out_bias) = rest.split_at_mut(2 * h);
            let (g_w_stm, g_w_nstm) = g_out.split_at_mut(h);
            for (acc, w, g_w, d) in [
                (&self.acc_stm, w_stm, g_w_stm, &mut self.d_stm),
                (&self.acc_nstm, w_nstm, g_w_nstm, &mut self.d_nstm),
            ] {
                for (((&a, &wj), gw), dj) in acc.iter().zip(w).zip(g_w.iter_mut()).zip(d.iter_mut())
                {
                    *gw += g * screlu(a);
                    *dj = g * wj * screlu_grad(a);
                }
            }
            g_out_bias[0] += g;
            for ((gb, ds), dn) in g_bias.iter_mut().zip(&self.d_stm).zip(&self.d_nstm) {
                *gb += ds + dn;
            }
            for (feats, d) in [(&stm[..n], &self.d_stm), (&nstm[..n], &self.d_nstm)] {
                for &f in feats {
                    let f = f as usize;
                    if !self.touched[f] {
                        self.touched[f] = true;
                        self.touched_rows.push(f as u16);
                    }
                    for (gw, dv) in g_ft[f * h..f * h + h].iter_mut().zip(d.iter()) {
                        *gw += dv;
                    }
                }
            }
        }
        self.loss += loss;
    }

    /// Adds this worker's gradient into `total` (rows it touched, and the
    /// dense tail), marking the rows in `total`'s bookkeeping, then zeroes
    /// what it touched.
    pub fn drain_into(&mut self, total: &mut Worker) {
        let l = self.layout;
        let h = l.hidden;
        for &f in &self.touched_rows {
            let f = f as usize;
            if !total.touched[f] {
                total.touched[f] = true;
                total.touched_rows.push(f as u16);
            }
            let rows = f * h..f * h + h;
            for (t, g) in total.grad[rows.clone()]
                .iter_mut()
                .zip(&mut self.grad[rows])
            {
                *t += *g;
                *g = 0.0;
            }
            self.touched[f] = false;
        }
        self.touched_rows.clear();
        let tail = l.ft_bias().start..l.len();
        for (t, g) in total.grad[tail.clone()]
            .iter_mut()
            .zip(&mut self.grad[tail])
        {
            *t += *g;
            *g = 0.0;
        }
    }

    /// Zeroes the gradient (only the rows touched, and the dense tail).
    pub fn clear(&mut self) {
        let l = self.layout;
        let h = l.hidden;
        for &f in &self.touched_rows {
            let f = f as usize;
            self.grad[f * h..f * h + h].fill(0.0);
            self.touched[f] = false;
        }
        self.touched_rows.clear();
        let tail = l.ft_bias().start..l.len();
        self.grad[tail].fill(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marlin::Wdl;
    use fianchetto_board::{Bitboards, Board};

    /// The analytic gradient agrees with finite differences of the summed
    /// squared error, for every kind of parameter.
    #[test]
    fn gradient_matches_finite_differences() {
        let fens = [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                35,
            ),
            ("4k3/8/3q4/8/8/2N5/PP6/4K3 b - - 0 40", -700),
            ("8/5pk1/6p1/8/8/6P1/5PK1/3R4 w - - 0 50", 480),
        ];
        let records: Vec<PackedBoard> = fens
            .iter()
            .map(|&(fen, score)| {
                PackedBoard::pack(&Bitboards::from_fen(fen).unwrap(), score, Wdl::WhiteWin)
            })
            .collect();
        let data = TrainData::from_records(records).unwrap();
        let layout = Layout { hidden: 16 };
        // Deterministic, varied parameters with most neurons in (0, 1).
        let mut params: Vec<f32> = (0..layout.len())
            .map(|i| ((i * 7919 % 1000) as f32 / 1000.0 - 0.5) * 0.12)
            .collect();
        for b in &mut params[layout.ft_bias()] {
            *b += 0.4;
        }
        let indices = [0u32, 1, 2];
        let wdl = 0.3;
        let mut worker = Worker::new(layout);
        worker.train(&params, &data, &indices, wdl, 1.0);
        let grad = worker.grad.clone();

        let loss = |p: &[f32]| {
            let mut w = Worker::new(layout);
            w.evaluate(p, &data, &indices, wdl);
            w.loss
        };
        // An active feature of the first position (white's e1 king, seen by
        // white), a bias, an output weight of each half, the output bias.
        let king_row = fianchetto_eval::nnue::feature(
            fianchetto_board::Color::White,
            fianchetto_board::Piece::new(
                fianchetto_board::Color::White,
                fianchetto_board::Role::King,
            ),
            fianchetto_board::Square::E1,
        );
        let probes = [
            king_row * 16 + 3,
            layout.ft_bias().start + 5,
            layout.out_weights().start + 2,
            layout.out_weights().start + 16 + 9,
            layout.out_bias(),
        ];
        for i in probes {
            let eps = 1e-3f32;
            let mut up = params.clone();
            up[i] += eps;
            let mut down = params.clone();
            down[i] -= eps;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * eps as f64);
            let analytic = grad[i] as f64;
            assert!(
                analytic.abs() > 1e-4,
                "parameter {i} has no gradient to check"
            );
            assert!(
                (numeric - analytic).abs() <= 2e-3 * analytic.abs().max(1e-2),
                "parameter {i}: analytic {analytic}, numeric {numeric}"
            );
        }
        // Rows of inactive features stay untouched.
        assert!(worker.touched_rows.len() < INPUTS);
        let untouched = (0..INPUTS)
            .find(|f| !worker.touched_rows.contains(&(*f as u16)))
            .unwrap();
        assert!(grad[untouched * 16..untouched * 16 + 16]
            .iter()
            .all(|&g| g == 0.0));
        worker.clear();
        assert!(worker.grad.iter().all(|&g| g == 0.0));
    }
}
