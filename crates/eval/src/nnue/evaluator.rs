//! [`Nnue`]: the network as an [`Evaluator`], with its accumulator stack and
//! refresh cache.

use super::arch::Quant;
use super::embedded::embedded_network;
use super::format::NetError;
use super::network::Network;
use super::refresh::RefreshCache;
use super::simd::{Job, Kernels, Simd, Width};
use super::stack::Stack;
use crate::evaluator::Evaluator;
use crate::score::Score;
use crate::select::LoadNetError;
use fianchetto_board::{Board, Color, Move};
use std::path::Path;
use std::sync::Arc;

/// The NNUE evaluation: a shared [`Network`] and this evaluator's own
/// accumulator stack and refresh cache, which follow the search through
/// [`push`](Evaluator::push) and [`pop`](Evaluator::pop).
///
/// Cloning is cheap on the network (the [`Arc`] is shared) and copies the
/// stack and the cache, so each search thread owns its accumulators. Both
/// are allocated once, here; pushing, popping and evaluating allocate
/// nothing.
///
/// The kernels run with the widest SIMD the CPU has (AVX-512, AVX2, or
/// portable code; detected at run time, whatever the build's target CPU);
/// every version gives bit-identical scores.
#[derive(Clone)]
pub struct Nnue {
    net: Arc<Network>,
    simd: Simd,
    stack: Stack,
    cache: RefreshCache,
    /// The output bucket of each piece count (0..=64), so that evaluating
    /// divides nothing.
    buckets: [u8; 65],
}

impl Nnue {
    /// An evaluator for the network shipped inside the crate (see
    /// [`embedded_network`]): the one to use unless you trained your own.
    ///
    /// `build.rs` runs every check of [`Network::from_bytes`] on the file
    /// it embeds and fails the build if one fails, so this error cannot
    /// happen in a build that compiled; it is returned rather than hidden
    /// all the same.
    ///
    /// ```
    /// use fianchetto_board::{Bitboards, Board};
    /// use fianchetto_eval::{Evaluator, Nnue};
    ///
    /// let mut nnue = Nnue::embedded()?;
    /// let score = nnue.evaluate(&Bitboards::startpos());
    /// assert!(score.value().abs() < 100, "the start position is about even");
    /// println!("{:?}", nnue.network().arch());
    /// # Ok::<(), fianchetto_eval::nnue::NetError>(())
    /// ```
    pub fn embedded() -> Result<Nnue, NetError> {
        embedded_network().map(Nnue::new)
    }

    /// An evaluator for `net`.
    pub fn new(net: Arc<Network>) -> Nnue {
        let out = net.arch().output_buckets;
        // At most MAX_OUTPUT_BUCKETS (16), so every bucket fits a u8.
        let buckets = std::array::from_fn(|n| out.bucket(n as u32) as u8);
        Nnue {
            simd: Simd::detect_for(net.hidden()),
            stack: Stack::new(net.hidden()),
            cache: RefreshCache::new(&net),
            buckets,
            net,
        }
    }

    /// An evaluator for the network file `bytes` (see [`Network::from_bytes`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Nnue, NetError> {
        Ok(Nnue::new(Arc::new(Network::from_bytes(bytes)?)))
    }

    /// An evaluator for the network file at `path` (see
    /// [`Network::from_file`]); a file that cannot be read or is not a
    /// network is an error naming it.
    ///
    /// ```
    /// use fianchetto_eval::Nnue;
    ///
    /// let err = Nnue::from_file("no-such-net.nnue").unwrap_err();
    /// assert!(err.to_string().starts_with("cannot read network no-such-net.nnue: "), "{err}");
    /// ```
    pub fn from_file(path: impl AsRef<Path>) -> Result<Nnue, LoadNetError> {
        Network::from_file(path).map(|net| Nnue::new(Arc::new(net)))
    }

    /// The network this evaluator runs.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// With `false`, the portable kernels even on a CPU with SIMD (for tests
    /// and measurements); with `true`, the SIMD version chosen for this
    /// network ([`Simd::detect_for`]).
    pub fn with_simd(self, simd: bool) -> Nnue {
        let version = if simd {
            Simd::detect_for(self.net.hidden())
        } else {
            Simd::Scalar
        };
        Nnue {
            simd: version,
            ..self
        }
    }

    /// With the kernels `version`; `None` when this CPU (or build) does not
    /// run it ([`Simd::is_supported`]).
    pub fn with_simd_version(self, version: Simd) -> Option<Nnue> {
        version.is_supported().then_some(Nnue {
            simd: version,
            ..self
        })
    }

    /// The kernels this evaluator computes with.
    pub fn simd(&self) -> Simd {
        self.simd
    }

    /// Takes back the last pushed move: [`Evaluator::pop`], callable without
    /// naming a board type (`Nnue` evaluates every backend, so
    /// `nnue.pop()` would otherwise be ambiguous).
    #[inline]
    pub fn pop(&mut self) {
        self.stack.pop();
    }

    /// The hidden layer's input for `board` (the accumulators): white's
    /// perspective, then black's, `H` values each. Brings the stack up to
    /// date exactly as [`evaluate`](Evaluator::evaluate) does, so `board`
    /// should be the position the last push led to (any other board is
    /// computed afresh).
    pub fn accumulators<B: Board>(&mut self, board: &B) -> (&[i16], &[i16]) {
        self.simd
            .run(self.net.hidden(), BringUp { nnue: self, board });
        self.stack.top_values().split_at(self.net.hidden())
    }
}

impl std::fmt::Debug for Nnue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nnue")
            .field("network", &self.net)
            .field("simd", &self.simd)
            .field("depth", &self.stack.depth())
            .finish()
    }
}

/// The network's output in centipawns from the SCReLU dot product `sum`:
/// `(sum / QA + bias) · scale / (QA · QB)`, truncating, kept clear of the
/// mate range. The default quantisation (every shipped net) gets its own
/// copy with the constants known, so that its divisions compile to
/// multiplications.
#[inline(always)]
fn centipawns(sum: i32, out_bias: i32, q: Quant) -> Score {
    if q == Quant::DEFAULT {
        let d = Quant::DEFAULT;
        centipawns_with(sum, out_bias, d.qa, d.qb, d.scale)
    } else {
        centipawns_with(sum, out_bias, q.qa, q.qb, q.scale)
    }
}

#[inline(always)]
fn centipawns_with(sum: i32, out_bias: i32, qa: i32, qb: i32, scale: i32) -> Score {
    let raw = (i64::from(sum) / i64::from(qa) + i64::from(out_bias)) * i64::from(scale)
        / (i64::from(qa) * i64::from(qb));
    let bound = i64::from(Score::MATE_BOUND.value() - 1);
    // In range after the clamp, so the cast is exact.
    Score::cp(raw.clamp(-bound, bound) as i32)
}

/// Bringing the top of the stack up to date for `board`, as a [`Job`].
struct BringUp<'a, B> {
    nnue: &'a mut Nnue,
    board: &'a B,
}

impl<B: Board> Job for BringUp<'_, B> {
    type Output = ();

    #[inline(always)]
    fn run<K: Kernels, W: Width>(self, kernels: K, width: W) {
        let Nnue {
            net, stack, cache, ..
        } = self.nnue;
        stack.current(net, cache, kernels, width, self.board);
    }
}

/// An evaluation of `board`, as a [`Job`].
struct Evaluate<'a, B> {
    nnue: &'a mut Nnue,
    board: &'a B,
}

impl<B: Board> Job for Evaluate<'_, B> {
    type Output = Score;

    #[inline(always)]
    fn run<K: Kernels, W: Width>(self, kernels: K, width: W) -> Score {
        let Nnue {
            net,
            stack,
            cache,
            buckets,
            ..
        } = self.nnue;
        let board = self.board;
        let h = width.get();
        let acc = stack.current(net, cache, kernels, width, board);
        let (white, black) = acc.split_at(h);
        let (us, them) = match board.turn() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let arch = net.arch();
        let bucket = if arch.output_buckets.count == 1 {
            0
        } else {
            usize::from(buckets[board.occupied().count() as usize])
        };
        // QA is at most 1023 (checked when the network was built).
        let qa = arch.quant.qa as i16;
        let sum = kernels.output(us, them, net.bucket_weights(bucket, h), qa);
        centipawns(sum, net.out_bias()[bucket], arch.quant)
    }
}

impl<B: Board> Evaluator<B> for Nnue {
    fn evaluate(&mut self, board: &B) -> Score {
        self.simd
            .run(self.net.hidden(), Evaluate { nnue: self, board })
    }

    #[inline]
    fn push(&mut self, before: &B, _mv: Move, after: &B) {
        self.stack.push(before, after);
    }

    #[inline]
    fn pop(&mut self) {
        Nnue::pop(self);
    }

    fn reset(&mut self, root: &B) {
        self.stack.reset(root);
        // The root's accumulators at once: every line of the search starts
        // there, and a search that never evaluates the root itself (its
        // score comes from the transposition table) would otherwise find
        // no computed entry below the first plies and refresh each of them.
        self.simd.run(
            self.net.hidden(),
            BringUp {
                nnue: self,
                board: root,
            },
        );
    }

    #[inline]
    fn search_may_scale(&self) -> bool {
        true
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
            "Nnue { network: Network { (768 -> 16)x2 SCReLU -> 1, QA 255 QB 64 scale 400 }, simd: Scalar, depth: 0 }"
        );
    }

    #[test]
    fn lines_from_a_root_never_evaluated_update_incrementally() {
        use fianchetto_board::Bitboards;
        use fianchetto_movegen::MoveGen;
        let (Ok(mut nnue), Ok(mut fresh)) = (Nnue::embedded(), Nnue::embedded()) else {
            panic!("the embedded net loads")
        };
        let root = Bitboards::startpos();
        nnue.reset(&root);
        // The root's two halves, at once.
        assert_eq!(nnue.cache.refreshes, 2);
        // A search whose root score comes from elsewhere (its table) and
        // that evaluates only children and grandchildren.
        for mv in root.legal_moves() {
            let mut child = root.clone();
            child.play_unchecked(mv);
            nnue.push(&root, mv, &child);
            for reply in child.legal_moves().into_iter().take(3) {
                let mut grandchild = child.clone();
                grandchild.play_unchecked(reply);
                nnue.push(&child, reply, &grandchild);
                // (`fresh` computes each position from scratch.)
                assert_eq!(nnue.evaluate(&grandchild), fresh.evaluate(&grandchild));
                Nnue::pop(&mut nnue);
            }
            Nnue::pop(&mut nnue);
        }
        assert_eq!(nnue.cache.refreshes, 2, "no refresh below the root");
    }

    #[test]
    fn centipawns_truncate_and_stay_out_of_mate_range() {
        let q = Quant::DEFAULT;
        let (qa, qb, scale) = (q.qa, q.qb, q.scale);
        // One unit of output is scale / (QA · QB) centipawns.
        assert_eq!(centipawns(0, qa * qb, q), Score::cp(scale));
        assert_eq!(centipawns(qa * qa * qb, 0, q), Score::cp(scale));
        assert_eq!(centipawns(0, -(qa * qb) / 2, q), Score::cp(-scale / 2));
        assert_eq!(centipawns(qa - 1, 0, q), Score::ZERO);
        let top = Score::MATE_BOUND.value() - 1;
        assert_eq!(centipawns(i32::MAX, i32::MAX, q), Score::cp(top));
        assert_eq!(centipawns(i32::MIN, i32::MIN, q), Score::cp(-top));
    }
}
