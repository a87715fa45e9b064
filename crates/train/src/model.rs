//! The float network the trainer optimises, its forward and backward pass,
//! and the per-thread gradient buffers.
//!
//! All parameters live in one flat `f32` vector (so that the optimiser, the
//! checkpoint and the reduction treat them alike), in the order of the
//! network file (`I` = the architecture's feature rows, 768 per king
//! bucket; `O` = output buckets):
//!
//! | range | what |
//! |---|---|
//! | `0 .. I·H` | feature weights, row-major (row `f` is the H weights of feature row `f`) |
//! | `I·H .. (I+1)·H` | feature biases |
//! | then `O · 2H` | output weights, per output bucket: the side to move's half, then the other side's |
//! | then `O` | output biases |

use crate::data::{features, sigmoid, target, Features, MIRRORED};
use fianchetto_data::marlin::PackedBoard;
use fianchetto_eval::nnue::Arch;
use std::ops::Range;

/// Where each kind of parameter sits in the flat vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The architecture.
    pub arch: Arch,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Feature rows.
    pub inputs: usize,
    /// Output buckets.
    pub outputs: usize,
}

impl Layout {
    pub fn new(arch: &Arch) -> Layout {
        Layout {
            arch: *arch,
            hidden: arch.hidden,
            inputs: arch.inputs(),
            outputs: arch.output_buckets.count,
        }
    }
    pub fn ft_weights(self) -> Range<usize> {
        0..self.inputs * self.hidden
    }
    pub fn ft_bias(self) -> Range<usize> {
        self.inputs * self.hidden..(self.inputs + 1) * self.hidden
    }
    pub fn out_weights(self) -> Range<usize> {
        let start = self.ft_bias().end;
        start..start + 2 * self.hidden * self.outputs
    }
    /// The output weights of bucket `b`.
    pub fn bucket_weights(self, b: usize) -> Range<usize> {
        let start = self.ft_bias().end + 2 * self.hidden * b;
        start..start + 2 * self.hidden
    }
    pub fn out_bias(self) -> Range<usize> {
        let start = self.out_weights().end;
        start..start + self.outputs
    }
    /// How many parameters in all.
    pub fn len(self) -> usize {
        self.out_bias().end
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
/// returns the raw output (in units of the evaluation scale, 400
/// centipawns by default).
#[inline]
pub(crate) fn forward(
    l: Layout,
    params: &[f32],
    f: &Features,
    acc_stm: &mut [f32],
    acc_nstm: &mut [f32],
) -> f32 {
    let h = l.hidden;
    let weights = &params[l.ft_weights()];
    let bias = &params[l.ft_bias()];
    for (acc, feats) in [(&mut *acc_stm, f.stm()), (&mut *acc_nstm, f.nstm())] {
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
    let out_w = &params[l.bucket_weights(f.bucket)];
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
    params[l.out_bias().start + f.bucket] + lanes.iter().sum::<f32>()
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
    let f = features(&l.arch, record, false);
    forward(l, params, &f, acc_stm, acc_nstm)
}

/// `acc[start..start + B] = bias + Σ rows of feats`, over that block only,
/// kept in registers while the rows stream past.
#[inline(always)]
fn accumulate_block<const B: usize>(
    acc: &mut [f32],
    bias: &[f32],
    weights: &[f32],
    feats: &[u32],
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
    pub touched_rows: Vec<u32>,
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
            touched: vec![false; layout.inputs],
            touched_rows: Vec::with_capacity(layout.inputs),
            acc_stm: vec![0.0; h],
            acc_nstm: vec![0.0; h],
            d_stm: vec![0.0; h],
            d_nstm: vec![0.0; h],
            loss: 0.0,
        }
    }

    /// The features of a position of a batch (its [`MIRRORED`] bit says
    /// whether it is seen mirrored).
    #[inline]
    fn features(&self, record: &PackedBoard, flags: u32) -> Features {
        features(&self.layout.arch, record, flags & MIRRORED != 0)
    }

    /// Adds the squared errors of `records` to `self.loss`.
    pub fn evaluate(&mut self, params: &[f32], records: &[PackedBoard], wdl: f32) {
        let mut loss = 0.0f64;
        for record in records {
            let f = self.features(record, 0);
            let out = forward(
                self.layout,
                params,
                &f,
                &mut self.acc_stm,
                &mut self.acc_nstm,
            );
            let err = sigmoid(out) - target(record, wdl);
            loss += (err * err) as f64;
        }
        self.loss += loss;
    }

    /// Forward and backward over `batch` (records with their flags): adds
    /// the squared errors to `self.loss` and `scale ×` the gradient of the
    /// summed squared error to `self.grad`, touching only the rows of the
    /// active features.
    pub fn train(&mut self, params: &[f32], batch: &[(PackedBoard, u32)], wdl: f32, scale: f32) {
        let l = self.layout;
        let h = l.hidden;
        let mut loss = 0.0f64;
        for (record, flags) in batch {
            let f = self.features(record, *flags);
            let out = forward(l, params, &f, &mut self.acc_stm, &mut self.acc_nstm);
            let s = sigmoid(out);
            let err = s - target(record, wdl);
            loss += (err * err) as f64;
            // d(err²)/d out.
            let g = scale * 2.0 * err * s * (1.0 - s);

            let out_w = &params[l.bucket_weights(f.bucket)];
            let (w_stm, w_nstm) = out_w.split_at(h);
            let (g_ft, rest) = self.grad.split_at_mut(l.ft_bias().start);
            let (g_bias, rest) = rest.split_at_mut(h);
            let (g_out, g_out_bias) = rest.split_at_mut(2 * h * l.outputs);
            let g_bucket = &mut g_out[2 * h * f.bucket..2 * h * (f.bucket + 1)];
            let (g_w_stm, g_w_nstm) = g_bucket.split_at_mut(h);
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
            g_out_bias[f.bucket] += g;
            for ((gb, ds), dn) in g_bias.iter_mut().zip(&self.d_stm).zip(&self.d_nstm) {
                *gb += ds + dn;
            }
            for (feats, d) in [(f.stm(), &self.d_stm), (f.nstm(), &self.d_nstm)] {
                for &row in feats {
                    let r = row as usize;
                    if !self.touched[r] {
                        self.touched[r] = true;
                        self.touched_rows.push(row);
                    }
                    for (gw, dv) in g_ft[r * h..r * h + h].iter_mut().zip(d.iter()) {
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
        for &row in &self.touched_rows {
            let r = row as usize;
            if !total.touched[r] {
                total.touched[r] = true;
                total.touched_rows.push(row);
            }
            let rows = r * h..r * h + h;
            for (t, g) in total.grad[rows.clone()]
                .iter_mut()
                .zip(&mut self.grad[rows])
            {
                *t += *g;
                *g = 0.0;
            }
            self.touched[r] = false;
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
        for &row in &self.touched_rows {
            let r = row as usize;
            self.grad[r * h..r * h + h].fill(0.0);
            self.touched[r] = false;
        }
        self.touched_rows.clear();
        let tail = l.ft_bias().start..l.len();
        self.grad[tail].fill(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, Board};
    use fianchetto_data::marlin::Wdl;
    use fianchetto_eval::nnue::KingBuckets;

    /// The analytic gradient agrees with finite differences of the summed
    /// squared error, for every kind of parameter, on a plain and on a
    /// bucketed architecture.
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
        let batch: Vec<(PackedBoard, u32)> = records.iter().map(|&r| (r, 0)).collect();
        for arch in [
            Arch::plain(16),
            Arch::plain(16)
                .with_king_buckets(KingBuckets::MIRRORED_4)
                .with_output_buckets(8),
        ] {
            let layout = Layout::new(&arch);
            // Deterministic, varied parameters with most neurons in (0, 1).
            let mut params: Vec<f32> = (0..layout.len())
                .map(|i| ((i * 7919 % 1000) as f32 / 1000.0 - 0.5) * 0.12)
                .collect();
            for b in &mut params[layout.ft_bias()] {
                *b += 0.4;
            }
            let wdl = 0.3;
            let mut worker = Worker::new(layout);
            worker.train(&params, &batch, wdl, 1.0);
            let grad = worker.grad.clone();

            let loss = |p: &[f32]| {
                let mut w = Worker::new(layout);
                w.evaluate(p, &records, wdl);
                w.loss
            };
            // An active feature of the first position (seen by the side to
            // move), a bias, an output weight of each half of the first
            // position's bucket, its output bias.
            let f = features(&arch, &records[0], false);
            let weights = layout.bucket_weights(f.bucket);
            let probes = [
                f.stm()[0] as usize * 16 + 3,
                layout.ft_bias().start + 5,
                weights.start + 2,
                weights.start + 16 + 9,
                layout.out_bias().start + f.bucket,
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
                    "{arch}: parameter {i} has no gradient to check"
                );
                assert!(
                    (numeric - analytic).abs() <= 2e-3 * analytic.abs().max(1e-2),
                    "{arch}: parameter {i}: analytic {analytic}, numeric {numeric}"
                );
            }
            // Rows of inactive features stay untouched.
            assert!(worker.touched_rows.len() < layout.inputs);
            let untouched = (0..layout.inputs as u32)
                .find(|f| !worker.touched_rows.contains(f))
                .unwrap() as usize;
            assert!(grad[untouched * 16..untouched * 16 + 16]
                .iter()
                .all(|&g| g == 0.0));
            worker.clear();
            assert!(worker.grad.iter().all(|&g| g == 0.0));
        }
    }
}
