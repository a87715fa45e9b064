//! [`Nnue`]: the network as an [`Evaluator`], with its accumulator stack.

use super::network::{NetError, Network, QA, QB, SCALE};
use super::simd::Kernels;
use super::stack::Stack;
use crate::evaluator::Evaluator;
use crate::score::Score;
use fianchetto_board::{Board, Color, Move};
use std::sync::Arc;

/// The NNUE evaluation: a shared [`Network`] and this evaluator's own
/// accumulator stack, which follows the search through
/// [`push`](Evaluator::push) and [`pop`](Evaluator::pop).
///
/// Cloning is cheap on the network (the [`Arc`] is shared) and copies the
/// stack, so each search thread owns its accumulators. The stack is
/// allocated once, here; pushing, popping and evaluating allocate nothing.
///
/// The hidden layer is computed with AVX2 when the CPU has it (detected at
/// run time, whatever the build's target CPU) and with portable code
/// otherwise; both give bit-identical scores.
#[derive(Clone)]
pub struct Nnue {
    net: Arc<Network>,
    kernels: Kernels,
    stack: Stack,
}

impl Default for Nnue {
    /// The network shipped inside the crate ([`super::embedded_network`]).
    ///
    /// Should the embedded file fail its checks (only possible with a
    /// corrupted `EVALFILE` at build time; the shipped net is tested), the
    /// evaluator falls back to an all-zero network that scores every
    /// position 0, and [`super::embedded_network`] says what went wrong.
    fn default() -> Nnue {
        let net = super::embedded_network().unwrap_or_else(|_| Arc::new(Network::zero()));
        Nnue::new(net)
    }
}

impl Nnue {
    /// An evaluator for `net`.
    pub fn new(net: Arc<Network>) -> Nnue {
        Nnue {
            kernels: Kernels::detect(),
            stack: Stack::new(net.hidden()),
            net,
        }
    }

    /// An evaluator for the network file `bytes` (see [`Network::from_bytes`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Nnue, NetError> {
        Ok(Nnue::new(Arc::new(Network::from_bytes(bytes)?)))
    }

    /// The network this evaluator runs.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// With `false`, the portable code even on a CPU with AVX2 (for tests
    /// and measurements); with `true`, AVX2 where the CPU has it.
    pub fn with_simd(mut self, simd: bool) -> Nnue {
        self.kernels = Kernels::with_simd(simd);
        self
    }

    /// Whether this evaluator computes with AVX2.
    pub fn uses_avx2(&self) -> bool {
        self.kernels.is_avx2()
    }

    /// Takes back the last pushed move: [`Evaluator::pop`], callable without
    /// naming a board type (`Nnue` evaluates every backend, so
    /// `nnue.pop()` would otherwise be ambiguous).
    pub fn pop(&mut self) {
        self.stack.pop();
    }

    /// The hidden layer's input for `board` (the accumulators): white's
    /// perspective, then black's, `H` values each. Brings the stack up to
    /// date exactly as [`evaluate`](Evaluator::evaluate) does, so `board`
    /// should be the position the last push led to (any other board is
    /// computed from scratch).
    pub fn accumulators<B: Board>(&mut self, board: &B) -> (&[i16], &[i16]) {
        let acc = self.stack.current(&self.net, self.kernels, board);
        acc.split_at(self.net.hidden())
    }
}

impl std::fmt::Debug for Nnue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nnue")
            .field("network", &self.net)
            .field("avx2", &self.kernels.is_avx2())
            .field("depth", &self.stack.depth())
            .finish()
    }
}

/// The network's output in centipawns from the SCReLU dot product `sum`:
/// `(sum / QA + bias) · SCALE / (QA · QB)`, truncating, kept clear of the
/// mate range.
fn centipawns(sum: i32, out_bias: i32) -> Score {
    let raw = (i64::from(sum) / i64::from(QA) + i64::from(out_bias)) * i64::from(SCALE)
        / i64::from(QA * QB);
    let bound = i64::from(Score::MATE_BOUND.value() - 1);
    // In range after the clamp, so the cast is exact.
    Score::cp(raw.clamp(-bound, bound) as i32)
}

impl<B: Board> Evaluator<B> for Nnue {
    fn evaluate(&mut self, board: &B) -> Score {
        let (kernels, h) = (self.kernels, self.net.hidden());
        let acc = self.stack.current(&self.net, kernels, board);
        let (white, black) = acc.split_at(h);
        let (us, them) = match board.turn() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let sum = kernels.output(us, them, self.net.out_weights());
        centipawns(sum, self.net.out_bias())
    }

    fn push(&mut self, before: &B, _mv: Move, after: &B) {
        self.stack.push(&self.net, self.kernels, before, after);
    }

    fn pop(&mut self) {
        Nnue::pop(self);
    }

    fn reset(&mut self, root: &B) {
        self.stack.reset(&self.net, self.kernels, root);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_is_short() {
        let net = Network::from_parts(16, vec![0; 768 * 16], vec![0; 16], vec![0; 32], 0);
        let Some(net) = net else {
            panic!("zero net refused")
        };
        let text = format!("{:?}", Nnue::new(Arc::new(net)).with_simd(false));
        assert_eq!(
            text,
            "Nnue { network: Network { (768 -> 16)x2 -> 1, SCReLU }, avx2: false, depth: 0 }"
        );
    }

    #[test]
    fn centipawns_truncate_and_stay_out_of_mate_range() {
        // One unit of output is SCALE / (QA · QB) centipawns.
        assert_eq!(centipawns(0, QA * QB), Score::cp(SCALE));
        assert_eq!(centipawns(QA * QA * QB, 0), Score::cp(SCALE));
        assert_eq!(centipawns(0, -(QA * QB) / 2), Score::cp(-SCALE / 2));
        assert_eq!(centipawns(QA - 1, 0), Score::ZERO);
        let top = Score::MATE_BOUND.value() - 1;
        assert_eq!(centipawns(i32::MAX, i32::MAX), Score::cp(top));
        assert_eq!(centipawns(i32::MIN, i32::MIN), Score::cp(-top));
    }
}
