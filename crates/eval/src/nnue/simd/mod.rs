//! The two loops inference spends its time in, in a portable version, an
//! AVX2 one and an AVX-512 one, picked at run time.
//!
//! * [`Kernels::update`] (and [`Kernels::update_fixed`] for the shapes
//!   moves produce): an accumulator is a base (its parent, the biases, or
//!   itself) plus some feature-weight rows minus others.
//! * [`Kernels::output`]: the SCReLU dot product of both halves of the
//!   hidden layer with one output bucket's weights.
//!
//! Both are exact integer arithmetic with wrapping adds, so the result does
//! not depend on the order of the additions: every version gives
//! bit-identical results on any input.
//!
//! The AVX-512 kernels need AVX-512F and AVX-512BW on the CPU, and a
//! compiler that has their intrinsics (Rust 1.89 or later; `build.rs` sets
//! `fianchetto_avx512` when it does). Built with an older compiler, the
//! AVX-512 path does not exist and such CPUs run the AVX2 one.
//!
//! The version is chosen once per evaluation, not once per kernel call:
//! [`Simd::run`] runs a [`Job`] (an evaluation, a reset) generic over the
//! [`Kernels`], inside a function compiled for the version's CPU features,
//! so that the bookkeeping around the kernels and the kernels themselves
//! are compiled as one function.

mod scalar;

#[cfg(target_arch = "x86_64")]
mod wide;

#[cfg(target_arch = "x86_64")]
mod avx2;

#[cfg(all(target_arch = "x86_64", fianchetto_avx512))]
mod avx512;

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The version asked for with [`Simd::force`], as an index into
/// [`Simd::ALL`], or [`AUTOMATIC`].
static FORCED: AtomicU8 = AtomicU8::new(AUTOMATIC);
const AUTOMATIC: u8 = u8::MAX;

/// The environment variable [`Simd::apply_env_override`] reads.
pub const SIMD_ENV: &str = "FIANCHETTO_NNUE_SIMD";

/// The smallest hidden layer that [`Simd::detect_for`] runs with AVX-512;
/// narrower ones run AVX2. On an Intel Xeon (Sapphire Rapids) `fianchetto
/// bench --depth 13` with the 256-neuron s7 net ran at 2.26–2.40 M nodes/s
/// with AVX2 against 2.08–2.31 M with AVX-512 (three rounds each, AVX2
/// ahead in every one), while a 1024-neuron bucketed net ran the two at
/// the same speed (1.48–1.50 M against 1.48–1.56 M): with eight 512-bit
/// blocks per accumulator the wider loads do not pay for their cost.
pub const AVX512_MIN_HIDDEN: usize = 512;

/// Which implementation of the inference kernels runs.
///
/// A value other than [`Simd::Scalar`] is only ever held by an evaluator
/// after [`Simd::is_supported`] said the CPU runs it (checked at run time,
/// whatever the build's target CPU), which is what makes calling those
/// kernels sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Simd {
    /// Plain loops, on every CPU.
    Scalar,
    /// 256-bit AVX2 registers: 16 `i16` lanes.
    Avx2,
    /// 512-bit AVX-512 (F and BW) registers: 32 `i16` lanes.
    Avx512,
}

impl Simd {
    /// Every version, slowest first.
    pub const ALL: [Simd; 3] = [Simd::Scalar, Simd::Avx2, Simd::Avx512];

    /// The version's name: `scalar`, `avx2`, `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Simd::Scalar => "scalar",
            Simd::Avx2 => "avx2",
            Simd::Avx512 => "avx512",
        }
    }

    /// Whether this CPU (and this build) runs the version. The standard
    /// library caches the CPU's answer.
    pub fn is_supported(self) -> bool {
        match self {
            Simd::Scalar => true,
            Simd::Avx2 => {
                #[cfg(target_arch = "x86_64")]
                {
                    std::arch::is_x86_feature_detected!("avx2")
                        && std::arch::is_x86_feature_detected!("popcnt")
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    false
                }
            }
            Simd::Avx512 => {
                #[cfg(all(target_arch = "x86_64", fianchetto_avx512))]
                {
                    std::arch::is_x86_feature_detected!("avx512f")
                        && std::arch::is_x86_feature_detected!("avx512bw")
                        && std::arch::is_x86_feature_detected!("popcnt")
                }
                #[cfg(not(all(target_arch = "x86_64", fianchetto_avx512)))]
                {
                    false
                }
            }
        }
    }

    /// The version called `name` (`scalar`, `avx2`, `avx512`; any case).
    pub fn parse(name: &str) -> Option<Simd> {
        Simd::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }

    /// The fastest version this CPU runs (or the one [`Simd::force`]
    /// asked for, when the CPU runs it; else the widest below it).
    pub fn detect() -> Simd {
        Simd::widest_up_to(Simd::forced().unwrap_or(Simd::Avx512))
    }

    /// The version to run a network of `hidden` neurons with: what
    /// [`Simd::detect`] gives, except that layers narrower than
    /// [`AVX512_MIN_HIDDEN`] run AVX2 unless AVX-512 was forced.
    pub fn detect_for(hidden: usize) -> Simd {
        match Simd::forced() {
            Some(version) => Simd::widest_up_to(version),
            None if hidden < AVX512_MIN_HIDDEN => Simd::widest_up_to(Simd::Avx2),
            None => Simd::detect(),
        }
    }

    /// The widest supported version no wider than `version`.
    fn widest_up_to(version: Simd) -> Simd {
        Simd::ALL
            .into_iter()
            .rev()
            .skip_while(|&s| s != version)
            .find(|s| s.is_supported())
            .unwrap_or(Simd::Scalar)
    }

    /// The version [`Simd::force`] set, if any.
    fn forced() -> Option<Simd> {
        Simd::ALL.get(FORCED.load(Relaxed) as usize).copied()
    }

    /// Makes every evaluator created from now on run `version` (or, where
    /// the CPU lacks it, the widest version below it); `None` goes back to
    /// the automatic choice. For measuring one version against another
    /// with the same build, or working round a CPU whose wide registers
    /// slow it down.
    pub fn force(version: Option<Simd>) {
        let index = version
            .and_then(|v| Simd::ALL.iter().position(|&s| s == v))
            .map_or(AUTOMATIC, |i| i as u8);
        FORCED.store(index, Relaxed);
    }

    /// Applies [`SIMD_ENV`] (`FIANCHETTO_NNUE_SIMD=scalar|avx2|avx512`)
    /// through [`Simd::force`]; unset, nothing changes. The library never
    /// reads the variable by itself: a program that wants it calls this
    /// once at its start.
    ///
    /// # Errors
    ///
    /// A value that names no version, with the names accepted; the choice
    /// then stays as it was.
    pub fn apply_env_override() -> Result<(), String> {
        let value = std::env::var(SIMD_ENV).unwrap_or_default();
        if value.trim().is_empty() {
            return Ok(());
        }
        let version = Simd::parse(value.trim())
            .ok_or_else(|| format!("{SIMD_ENV}={value}: expected scalar, avx2 or avx512"))?;
        Simd::force(Some(version));
        Ok(())
    }

    /// The versions this CPU runs, slowest first.
    pub fn supported() -> impl Iterator<Item = Simd> {
        Simd::ALL.into_iter().filter(|s| s.is_supported())
    }

    /// Runs `job` with this version's kernels, for a network of hidden
    /// size `hidden`. The SIMD versions run it inside a function compiled
    /// for their CPU features, where the job's code (`#[inline(always)]`
    /// down to the kernel calls) and the kernels become one: the version is
    /// chosen once per job, not once per kernel call, and nothing is called
    /// through a feature boundary. The common hidden sizes get their own
    /// copies of the job with the size a constant ([`Width`]).
    #[inline(always)]
    pub(crate) fn run<J: Job>(self, hidden: usize, job: J) -> J::Output {
        match self {
            #[cfg(all(target_arch = "x86_64", fianchetto_avx512))]
            // SAFETY: an evaluator holds `Avx512` only after `is_supported`
            // confirmed AVX-512F, AVX-512BW and POPCNT on this CPU.
            Simd::Avx512 => unsafe { avx512::run(hidden, job) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx2` is only held after `is_supported` confirmed
            // AVX2 and POPCNT on this CPU.
            Simd::Avx2 => unsafe { avx2::run(hidden, job) },
            // `Avx512` without the AVX-512 kernels is never supported, so
            // never held. The portable code is not specialised by size.
            _ => job.run(Portable, Any(hidden)),
        }
    }

    /// `dst = base + Σ adds − Σ subs` with this version's kernels (see
    /// [`Kernels::update`]).
    #[cfg(test)]
    pub(crate) fn update(
        self,
        dst: &mut [i16],
        src: Option<&[i16]>,
        adds: &[&[i16]],
        subs: &[&[i16]],
    ) {
        struct Update<'a, 'b> {
            dst: &'a mut [i16],
            src: Option<&'a [i16]>,
            adds: &'a [&'b [i16]],
            subs: &'a [&'b [i16]],
        }
        impl Job for Update<'_, '_> {
            type Output = ();
            fn run<K: Kernels, W: Width>(self, k: K, _: W) {
                k.update(self.dst, self.src, self.adds, self.subs);
            }
        }
        self.run(
            dst.len(),
            Update {
                dst,
                src,
                adds,
                subs,
            },
        );
    }

    /// The plain dot product with this version's kernels (see
    /// [`Kernels::dot`]).
    #[cfg(test)]
    pub(crate) fn dot(self, a: &[i16], b: &[i16]) -> i32 {
        struct Dot<'a>(&'a [i16], &'a [i16]);
        impl Job for Dot<'_> {
            type Output = i32;
            fn run<K: Kernels, W: Width>(self, k: K, _: W) -> i32 {
                k.dot(self.0, self.1)
            }
        }
        self.run(a.len(), Dot(a, b))
    }

    /// The SCReLU dot product with this version's kernels (see
    /// [`Kernels::output`]).
    #[cfg(test)]
    pub(crate) fn output(self, us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
        struct Output<'a> {
            us: &'a [i16],
            them: &'a [i16],
            w: &'a [i16],
            qa: i16,
        }
        impl Job for Output<'_> {
            type Output = i32;
            fn run<K: Kernels, W: Width>(self, k: K, _: W) -> i32 {
                k.output(self.us, self.them, self.w, self.qa)
            }
        }
        self.run(us.len(), Output { us, them, w, qa })
    }
}

/// The kernels of one version, as a type: the code above them is generic
/// over it, so that each version gets its own copy of that code (see
/// [`Simd::run`]). A value of a SIMD version's type exists only where the
/// CPU has its features; each method checks the lengths it needs and falls
/// back to the next narrower version on shapes it does not take.
pub(crate) trait Kernels: Copy {
    /// `dst = base + Σ adds − Σ subs`, lane by lane, wrapping, where `base`
    /// is `src` or, when `src` is `None`, `dst` itself. Every slice must be
    /// as long as `dst` (else the portable version runs, which never reads
    /// past a slice).
    fn update(self, dst: &mut [i16], src: Option<&[i16]>, adds: &[&[i16]], subs: &[&[i16]]);

    /// [`update`](Kernels::update) from `src` with `A` rows in and `S`
    /// rows out, the counts fixed at compile time: what a move's update
    /// calls, with no loop over rows and no dispatch on their number.
    fn update_fixed<const A: usize, const S: usize>(
        self,
        dst: &mut [i16],
        src: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    );

    /// `Σ SCReLU(us[i]) · w[i] + Σ SCReLU(them[i]) · w[H + i]` in `i32`,
    /// wrapping, where `SCReLU(x) = clamp(x, 0, qa)²` and `H = us.len()`.
    /// `them` must be as long as `us` and `w` twice as long; each product
    /// `clamp(x, 0, qa) · w` must fit an `i16`, which
    /// [`Quant::max_output_weight`](super::Quant::max_output_weight)
    /// guarantees.
    fn output(self, us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32;

    /// `Σ a[i] · b[i]` in `i32`, wrapping, each pair of products summed in
    /// `i32` (the policy network's logits: see [`crate::policy`]). `b` must
    /// be as long as `a`.
    fn dot(self, a: &[i16], b: &[i16]) -> i32;
}

/// Work that runs with whichever kernels an evaluator holds
/// ([`Simd::run`]). Implementations keep `run` and everything it calls down
/// to the kernels `#[inline(always)]`, so that it is compiled for the
/// version's CPU features.
pub(crate) trait Job {
    /// What the work returns.
    type Output;

    /// Does the work with `kernels`, for a network whose hidden size is
    /// `width.get()`.
    fn run<K: Kernels, W: Width>(self, kernels: K, width: W) -> Self::Output;
}

/// The hidden size H as the code above the kernels sees it: a constant
/// ([`Fixed`]) for the sizes of the nets shipped and planned, so that their
/// slices have known lengths and their loops fixed trip counts, or a value
/// ([`Any`]) for any other size.
pub(crate) trait Width: Copy {
    /// H.
    fn get(self) -> usize;
}

/// A hidden size known when compiling.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fixed<const H: usize>;

impl<const H: usize> Width for Fixed<H> {
    #[inline(always)]
    fn get(self) -> usize {
        H
    }
}

/// A hidden size known when running.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Any(pub(crate) usize);

impl Width for Any {
    #[inline(always)]
    fn get(self) -> usize {
        self.0
    }
}

/// Runs `job` with `kernels` and the hidden size as a constant where it is
/// one of the common ones: 256 (the shipped default net) and 1024 (the bucketed
/// nets of issue 20).
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn with_width<J: Job, K: Kernels>(hidden: usize, job: J, kernels: K) -> J::Output {
    match hidden {
        256 => job.run(kernels, Fixed::<256>),
        1024 => job.run(kernels, Fixed::<1024>),
        h => job.run(kernels, Any(h)),
    }
}

/// The portable kernels (every CPU).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Kernels for Portable {
    #[inline(always)]
    fn update(self, dst: &mut [i16], src: Option<&[i16]>, adds: &[&[i16]], subs: &[&[i16]]) {
        scalar::update(dst, src, adds, subs);
    }

    #[inline(always)]
    fn update_fixed<const A: usize, const S: usize>(
        self,
        dst: &mut [i16],
        src: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        scalar::update(dst, Some(src), &adds, &subs);
    }

    #[inline(always)]
    fn output(self, us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
        scalar::output(us, them, w, qa)
    }

    #[inline(always)]
    fn dot(self, a: &[i16], b: &[i16]) -> i32 {
        scalar::dot(a, b)
    }
}

impl std::fmt::Display for Simd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
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

    /// The SIMD versions this CPU runs (a note for those it lacks).
    fn fast() -> Vec<Simd> {
        for s in Simd::ALL {
            if !s.is_supported() {
                eprintln!("note: this CPU or build has no {s}; that version was not tested");
            }
        }
        Simd::supported().filter(|&s| s != Simd::Scalar).collect()
    }

    #[test]
    fn update_is_base_plus_adds_minus_subs() {
        let base = values(1, 64, 1000);
        let a = values(2, 64, 1000);
        let b = values(3, 64, 1000);
        let c = values(4, 64, 1000);
        let expect: Vec<i16> = (0..64).map(|i| base[i] + a[i] + b[i] - c[i]).collect();
        for k in Simd::supported() {
            let mut dst = vec![0; 64];
            k.update(&mut dst, Some(&base), &[&a, &b], &[&c]);
            assert_eq!(dst, expect, "{k}");
            let mut dst = base.clone();
            k.update(&mut dst, None, &[&a, &b], &[&c]);
            assert_eq!(dst, expect, "{k}, in place");
        }
    }

    #[test]
    fn dot_is_the_sum_of_products_in_every_version() {
        for seed in 0..40 {
            // Lengths off the register width too (they fall back).
            let n = 8 * (1 + seed as usize % 17);
            let (a, b) = (values(seed, n, i16::MAX), values(seed + 999, n, i16::MAX));
            let expect = (0..n).fold(0i32, |s, i| {
                s.wrapping_add(i32::from(a[i]) * i32::from(b[i]))
            });
            for k in Simd::supported() {
                assert_eq!(k.dot(&a, &b), expect, "{k}, length {n}");
            }
        }
    }

    #[test]
    fn simd_equals_scalar_even_when_wrapping() {
        for fast in fast() {
            for seed in 0..50 {
                let n = 16 * (1 + seed as usize % 8);
                // Full-range values: sums wrap, every version must wrap alike.
                let base = values(seed, n, i16::MAX);
                let rows: Vec<Vec<i16>> = (0..34)
                    .map(|r| values(seed * 64 + r, n, i16::MAX))
                    .collect();
                let refs: Vec<&[i16]> = rows.iter().map(Vec::as_slice).collect();
                // The shapes with their own versions, and others.
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
                    Simd::Scalar.update(&mut y, Some(&base), adds, subs);
                    assert_eq!(x, y, "{fast}: {a} in, {s} out");
                    fast.update(&mut x, None, subs, adds);
                    Simd::Scalar.update(&mut y, None, subs, adds);
                    assert_eq!(x, y, "{fast}: {s} in, {a} out, in place");
                }

                // Accumulators around the clipping points, weights at the limit.
                let us = values(seed + 100, n, 400);
                let them = values(seed + 200, n, 400);
                let w = values(seed + 300, 2 * n, 128);
                assert_eq!(
                    fast.output(&us, &them, &w, 255),
                    Simd::Scalar.output(&us, &them, &w, 255),
                    "{fast}"
                );
                // Another QA, and full-range accumulators.
                let us = values(seed + 400, n, i16::MAX);
                let w = values(seed + 500, 2 * n, 32);
                assert_eq!(
                    fast.output(&us, &them, &w, 1000),
                    Simd::Scalar.output(&us, &them, &w, 1000),
                    "{fast}, QA 1000"
                );
            }
        }
    }

    #[test]
    fn output_is_screlu_dot_product() {
        let mut us = [0i16; 32];
        for (i, u) in us.iter_mut().enumerate() {
            *u = i as i16;
        }
        us[..5].copy_from_slice(&[-5, 0, 100, 255, 300]);
        let them = [1i16; 32];
        let mut w = [0i16; 64];
        w[2] = 3; // 100² · 3
        w[3] = -2; // 255² · −2
        w[4] = 1; // 300 clips to 255: 255²
        w[0] = 127; // −5 clips to 0
        w[32] = 5; // 1² · 5
        let expect = 100 * 100 * 3 - 2 * 255 * 255 + 255 * 255 + 5;
        for k in Simd::supported() {
            assert_eq!(k.output(&us, &them, &w, 255), expect, "{k}");
        }
    }

    #[test]
    fn odd_shapes_fall_back_without_reading_past_the_end() {
        // Not a multiple of 16: the portable version runs whatever is asked.
        for k in Simd::ALL {
            let mut dst = vec![1i16; 5];
            k.update(&mut dst, None, &[&[1, 2, 3, 4, 5]], &[]);
            assert_eq!(dst, [2, 3, 4, 5, 6]);
            assert_eq!(k.output(&[2; 5], &[0; 5], &[1; 10], 255), 20);
        }
        // 48 lanes: AVX2 where AVX-512 (32 lanes) does not fit.
        let base = values(9, 48, 1000);
        let row = values(10, 48, 1000);
        let mut expect = vec![0; 48];
        Simd::Scalar.update(&mut expect, Some(&base), &[&row], &[]);
        for k in Simd::supported() {
            let mut dst = vec![0; 48];
            k.update(&mut dst, Some(&base), &[&row], &[]);
            assert_eq!(dst, expect, "{k}");
        }
    }
}

#[cfg(test)]
mod choice_tests {
    use super::*;

    #[test]
    fn narrow_nets_run_avx2_and_a_forced_version_wins_where_supported() {
        // Other tests in this binary may create evaluators meanwhile: every
        // version gives the same results, so the forced choice cannot change
        // what they see.
        Simd::force(None);
        let avx2_or_below = Simd::widest_up_to(Simd::Avx2);
        assert_eq!(Simd::detect_for(256), avx2_or_below);
        assert_eq!(Simd::detect_for(AVX512_MIN_HIDDEN), Simd::detect());
        assert!(Simd::detect().is_supported());
        Simd::force(Some(Simd::Scalar));
        assert_eq!(Simd::detect_for(1024), Simd::Scalar);
        assert_eq!(Simd::detect(), Simd::Scalar);
        Simd::force(Some(Simd::Avx512));
        // Forced: AVX-512 even for a narrow net, where the CPU has it.
        assert_eq!(Simd::detect_for(256), Simd::widest_up_to(Simd::Avx512));
        Simd::force(None);
        for s in Simd::ALL {
            assert_eq!(Simd::parse(&s.name().to_uppercase()), Some(s));
        }
        assert_eq!(Simd::parse("sse"), None);
    }
}
