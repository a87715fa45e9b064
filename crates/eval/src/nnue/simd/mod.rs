//! The two loops inference spends its time in, in a portable version and
//! an AVX2 one, picked at run time.
//!
//! * [`Kernels::update`]: an accumulator is a base (its parent, the biases,
//!   or itself) plus some feature-weight rows minus others.
//! * [`Kernels::output`]: the SCReLU dot product of both halves of the
//!   hidden layer with the output weights.
//!
//! Both are exact integer arithmetic with wrapping adds, so the result does
//! not depend on the order of the additions: the AVX2 version and the
//! portable one give bit-identical results on any input.

mod scalar;

#[cfg(target_arch = "x86_64")]
mod avx2;

/// Which implementation of the kernels to run. `avx2` is true only when the
/// CPU running this process has AVX2 (checked at construction), which is what
/// makes calling the AVX2 functions sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kernels {
    avx2: bool,
}

/// Whether this CPU has AVX2 (the standard library caches the answer).
fn avx2_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl Kernels {
    /// The fastest kernels this CPU runs.
    pub(crate) fn detect() -> Kernels {
        Kernels {
            avx2: avx2_detected(),
        }
    }

    /// The portable kernels, whatever the CPU.
    pub(crate) fn scalar() -> Kernels {
        Kernels { avx2: false }
    }

    /// AVX2 when `simd` is asked for and the CPU has it, else the portable
    /// kernels.
    pub(crate) fn with_simd(simd: bool) -> Kernels {
        if simd {
            Kernels::detect()
        } else {
            Kernels::scalar()
        }
    }

    /// Whether these are the AVX2 kernels.
    pub(crate) fn is_avx2(self) -> bool {
        self.avx2
    }

    /// `dst = base + Σ adds − Σ subs`, lane by lane, wrapping, where `base`
    /// is `src` or, when `src` is `None`, `dst` itself.
    ///
    /// Every slice must be as long as `dst`; the AVX2 version also needs a
    /// multiple of 16 (every hidden size is). Shapes that do not fit go to
    /// the portable version, which never reads past a slice.
    #[inline]
    pub(crate) fn update(
        self,
        dst: &mut [i16],
        src: Option<&[i16]>,
        adds: &[&[i16]],
        subs: &[&[i16]],
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            let n = dst.len();
            let fits = n % avx2::LANES == 0
                && src.is_none_or(|s| s.len() == n)
                && adds.iter().chain(subs).all(|r| r.len() == n);
            if self.avx2 && fits {
                // SAFETY: `self.avx2` is only true when the CPU has AVX2
                // (`Kernels::detect`), and the lengths were just checked to
                // be what `avx2::update` requires.
                unsafe { avx2::update(dst, src, adds, subs) };
                return;
            }
        }
        scalar::update(dst, src, adds, subs);
    }

    /// `Σ SCReLU(us[i]) · w[i] + Σ SCReLU(them[i]) · w[H + i]` in `i32`,
    /// wrapping, where `SCReLU(x) = clamp(x, 0, QA)²` and `H = us.len()`.
    ///
    /// `them` must be as long as `us` and `w` twice as long (the AVX2
    /// version also needs a multiple of 16); each product
    /// `clamp(x, 0, QA) · w` must fit an `i16`, which
    /// [`MAX_OUTPUT_WEIGHT`](super::MAX_OUTPUT_WEIGHT) guarantees.
    #[inline]
    pub(crate) fn output(self, us: &[i16], them: &[i16], w: &[i16]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        {
            let n = us.len();
            let fits = n % avx2::LANES == 0 && them.len() == n && w.len() == 2 * n;
            if self.avx2 && fits {
                // SAFETY: `self.avx2` is only true when the CPU has AVX2
                // (`Kernels::detect`), and the lengths were just checked to
                // be what `avx2::output` requires.
                return unsafe { avx2::output(us, them, w) };
            }
        }
        scalar::output(us, them, w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic spread of values (splitmix64), clipped to `±range`.
    fn values(seed: u64, n: usize, range: i16) -> Vec<i16> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = s;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                let range = i64::from(range);
                ((z % (2 * range as u64 + 1)) as i64 - range) as i16
            })
            .collect()
    }

    fn both() -> Option<(Kernels, Kernels)> {
        let fast = Kernels::detect();
        if !fast.is_avx2() {
            eprintln!("note: this CPU has no AVX2; only the portable kernels were tested");
            return None;
        }
        Some((fast, Kernels::scalar()))
    }

    #[test]
    fn update_is_base_plus_adds_minus_subs() {
        let base = values(1, 32, 1000);
        let a = values(2, 32, 1000);
        let b = values(3, 32, 1000);
        let c = values(4, 32, 1000);
        let expect: Vec<i16> = (0..32).map(|i| base[i] + a[i] + b[i] - c[i]).collect();
        for k in [Kernels::scalar(), Kernels::detect()] {
            let mut dst = vec![0; 32];
            k.update(&mut dst, Some(&base), &[&a, &b], &[&c]);
            assert_eq!(dst, expect);
            let mut dst = base.clone();
            k.update(&mut dst, None, &[&a, &b], &[&c]);
            assert_eq!(dst, expect);
        }
    }

    #[test]
    fn avx2_equals_scalar_even_when_wrapping() {
        let Some((fast, slow)) = both() else { return };
        for seed in 0..50 {
            let n = 16 * (1 + seed as usize % 8);
            // Full-range values: sums wrap, both versions must wrap alike.
            let base = values(seed, n, i16::MAX);
            let rows: Vec<Vec<i16>> = (0..34)
                .map(|r| values(seed * 64 + r, n, i16::MAX))
                .collect();
            let refs: Vec<&[i16]> = rows.iter().map(Vec::as_slice).collect();
            // The shapes with their own AVX2 versions, and others.
            for (a, s) in [
                (1, 1),
                (1, 2),
                (2, 2),
                (0, 0),
                (4, 2),
                (1, 3),
                (32, 0),
                (2, 1),
            ] {
                let (adds, subs) = (&refs[..a], &refs[a..a + s]);
                let (mut x, mut y) = (vec![0; n], vec![0; n]);
                fast.update(&mut x, Some(&base), adds, subs);
                slow.update(&mut y, Some(&base), adds, subs);
                assert_eq!(x, y, "{a} in, {s} out");
                fast.update(&mut x, None, subs, adds);
                slow.update(&mut y, None, subs, adds);
                assert_eq!(x, y, "{s} in, {a} out, in place");
            }

            // Accumulators around the clipping points, weights at the limit.
            let us = values(seed + 100, n, 400);
            let them = values(seed + 200, n, 400);
            let w = values(seed + 300, 2 * n, 127);
            assert_eq!(fast.output(&us, &them, &w), slow.output(&us, &them, &w));
        }
    }

    #[test]
    fn output_is_screlu_dot_product() {
        let us = [
            -5i16, 0, 100, 255, 300, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
        ];
        let them = [1i16; 16];
        let mut w = [0i16; 32];
        w[2] = 3; // 100² · 3
        w[3] = -2; // 255² · −2
        w[4] = 1; // 300 clips to 255: 255²
        w[0] = 127; // −5 clips to 0
        w[16] = 5; // 1² · 5
        let expect = 100 * 100 * 3 - 2 * 255 * 255 + 255 * 255 + 5;
        for k in [Kernels::scalar(), Kernels::detect()] {
            assert_eq!(k.output(&us, &them, &w), expect);
        }
    }

    #[test]
    fn odd_shapes_fall_back_without_reading_past_the_end() {
        // Not a multiple of 16: the portable version runs even with AVX2.
        let k = Kernels::detect();
        let mut dst = vec![1i16; 5];
        k.update(&mut dst, None, &[&[1, 2, 3, 4, 5]], &[]);
        assert_eq!(dst, [2, 3, 4, 5, 6]);
        assert_eq!(k.output(&[2; 5], &[0; 5], &[1; 10]), 20);
    }
}
