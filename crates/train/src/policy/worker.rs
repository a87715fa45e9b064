//! One thread's share of a batch or of the validation: its buffers, made
//! once, so that a pass over positions allocates nothing.

use super::data::{encode, Examples};
use super::model::{self, Example, Layout, Scratch};
use arrayvec::ArrayVec;
use fianchetto_board::Bitboards;
use fianchetto_eval::policy::{PolicyNet, MAX_FEATURES};
use fianchetto_movegen::MoveGen;

/// A held-out position: the board (the quantized network reads boards)
/// and its target pairs (see [`Example::targets`]).
pub(crate) struct ValPosition {
    pub board: Bitboards,
    pub targets: Vec<u16>,
}

/// One thread's buffers and sums.
pub(crate) struct Worker {
    scratch: Scratch,
    /// The gradient of its share of the batch.
    pub grad: Vec<f32>,
    /// The summed loss of its share.
    pub loss: f64,
    feats: ArrayVec<u16, MAX_FEATURES>,
    codes: ArrayVec<u16, 256>,
    quantized: Vec<f32>,
    /// Validation sums: float loss, quantized loss, top-1 and top-3 hits.
    pub sums: [f64; 4],
}

impl Worker {
    pub(crate) fn new(layout: Layout) -> Worker {
        Worker {
            scratch: Scratch::new(layout),
            grad: vec![0.0; layout.len()],
            loss: 0.0,
            feats: ArrayVec::new(),
            codes: ArrayVec::new(),
            quantized: vec![0.0; 256],
            sums: [0.0; 4],
        }
    }

    /// Adds the gradient of `part` (indices into `train`) to its own.
    pub(crate) fn train(
        &mut self,
        layout: Layout,
        params: &[f32],
        train: &Examples,
        part: &[u32],
        scale: f32,
    ) {
        for &i in part {
            let ex = train.get(i as usize);
            let out = model::example(
                layout,
                params,
                ex,
                scale,
                &mut self.scratch,
                Some(&mut self.grad),
            );
            self.loss += out.loss as f64;
        }
    }

    /// Adds to `sums` the float loss, the quantized loss, and the top-1
    /// and top-3 hits of `net` on `part`.
    pub(crate) fn validate(
        &mut self,
        layout: Layout,
        params: &[f32],
        net: &PolicyNet,
        part: &[ValPosition],
    ) {
        for pos in part {
            let moves = pos.board.legal_moves();
            let top = model::top_of(&pos.targets);
            encode(&pos.board, &moves, &mut self.feats, &mut self.codes);
            let ex = Example {
                features: &self.feats,
                moves: &self.codes,
                targets: &pos.targets,
                top,
            };
            let float = model::example(layout, params, ex, 1.0, &mut self.scratch, None);
            let q = &mut self.quantized[..moves.len()];
            net.logits(&pos.board, &moves, q);
            let rank = model::rank_of(q, top);
            let loss = model::softmax_loss(q, &pos.targets);
            self.sums[0] += float.loss as f64;
            self.sums[1] += loss as f64;
            self.sums[2] += (rank == 0) as u32 as f64;
            self.sums[3] += (rank < 3) as u32 as f64;
        }
    }
}
