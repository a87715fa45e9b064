//! The SIMD kernels, written once for any register width: a macro that
//! `avx2.rs` and `avx512.rs` instantiate with their register type, their
//! intrinsics and the CPU features they need.
//!
//! The code is compiled for those features whatever the build's target CPU
//! (`#[target_feature]`), and only called after run-time detection (see
//! [`super::Simd`]). Every raw-pointer access sits in its own `unsafe`
//! block with the reason it stays in bounds.

/// Defines `LANES`, `update`, `update_fixed` and `output` for one
/// register width, and `Wide` (those kernels as a
/// [`Kernels`](super::Kernels) value) with `run` (a [`Job`](super::Job)
/// compiled for the features, kernels inlined).
macro_rules! wide_kernels {
    (
        features: $features:literal,
        run_features: $run_features:literal,
        narrower: $narrower:expr,
        vector: $v:ty,
        lanes: $lanes:literal,
        load: $load:path,
        store: $store:path,
        add16: $add16:path,
        sub16: $sub16:path,
        max16: $max16:path,
        min16: $min16:path,
        mullo16: $mullo16:path,
        madd16: $madd16:path,
        add32: $add32:path,
        splat16: $splat16:path,
        zero: $zero:path,
    ) => {
        /// `i16` lanes in one register.
        pub(super) const LANES: usize = $lanes;

        /// These kernels as a [`Kernels`](super::Kernels) value. Holding
        /// one means the CPU has the features (see [`kernels`]); each
        /// method checks the lengths and runs the next narrower version on
        /// shapes this one does not take.
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct Wide(());

        /// The kernels as a value (what a wider version falls back to).
        ///
        /// # Safety
        ///
        /// The CPU must have the features this module is compiled for.
        // Nothing falls back to the widest version.
        #[allow(dead_code)]
        #[inline(always)]
        pub(super) unsafe fn kernels() -> Wide {
            Wide(())
        }

        /// Runs `job` with these kernels, compiled for this module's
        /// features (plus those in `run_features`), so that the job's code
        /// (kept `#[inline(always)]`) and the kernels it calls become one
        /// function: one dispatch per job instead of one per kernel call.
        ///
        /// # Safety
        ///
        /// The CPU must have the features in `run_features`.
        #[target_feature(enable = $run_features)]
        pub(super) unsafe fn run<J: super::Job>(hidden: usize, job: J) -> J::Output {
            super::with_width(hidden, job, Wide(()))
        }

        impl super::Kernels for Wide {
            #[inline(always)]
            fn update(
                self,
                dst: &mut [i16],
                src: Option<&[i16]>,
                adds: &[&[i16]],
                subs: &[&[i16]],
            ) {
                let n = dst.len();
                let same = src.is_none_or(|s| s.len() == n)
                    && adds.iter().chain(subs).all(|r| r.len() == n);
                if same && n % LANES == 0 {
                    // SAFETY: holding `self` means the CPU has the features
                    // (see `kernels`), and the lengths were just checked.
                    unsafe { update(dst, src, adds, subs) }
                } else {
                    $narrower.update(dst, src, adds, subs)
                }
            }

            #[inline(always)]
            fn update_fixed<const A: usize, const S: usize>(
                self,
                dst: &mut [i16],
                src: &[i16],
                adds: [&[i16]; A],
                subs: [&[i16]; S],
            ) {
                let n = dst.len();
                let same = src.len() == n && adds.iter().chain(&subs).all(|r| r.len() == n);
                if same && n % LANES == 0 {
                    // SAFETY: as in `update`.
                    unsafe { update_fixed(dst, Some(src), adds, subs) }
                } else {
                    $narrower.update_fixed(dst, src, adds, subs)
                }
            }

            #[inline(always)]
            fn output(self, us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
                let n = us.len();
                if them.len() == n && w.len() == 2 * n && n % LANES == 0 {
                    // SAFETY: as in `update`.
                    unsafe { output(us, them, w, qa) }
                } else {
                    $narrower.output(us, them, w, qa)
                }
            }

            #[inline(always)]
            fn dot(self, a: &[i16], b: &[i16]) -> i32 {
                if a.len() == b.len() && a.len() % LANES == 0 {
                    // SAFETY: as in `update`.
                    unsafe { dot(a, b) }
                } else {
                    $narrower.dot(a, b)
                }
            }
        }

        /// `dst = base + Σ adds − Σ subs`, wrapping; `base` is `src`, or
        /// `dst` itself.
        ///
        /// The shapes moves produce (one row in and one out, one in and two
        /// out, two in and two out) get versions with the row counts fixed
        /// at compile time, so that the loop over rows disappears; anything
        /// else (a refresh) takes the general loop.
        ///
        /// # Safety
        ///
        /// The CPU must have the features this module is compiled for.
        /// `dst.len()` must be a multiple of [`LANES`], and `src` (when
        /// given) and every row of `adds` and `subs` exactly as long as
        /// `dst`.
        #[target_feature(enable = $features)]
        #[inline]
        pub(super) unsafe fn update(
            dst: &mut [i16],
            src: Option<&[i16]>,
            adds: &[&[i16]],
            subs: &[&[i16]],
        ) {
            // SAFETY: the caller's contract is the one every version below
            // needs.
            unsafe {
                match (adds, subs) {
                    (&[a], &[s]) => update_fixed(dst, src, [a], [s]),
                    (&[a], &[s0, s1]) => update_fixed(dst, src, [a], [s0, s1]),
                    (&[a0, a1], &[s0, s1]) => update_fixed(dst, src, [a0, a1], [s0, s1]),
                    _ => update_rows(dst, src, adds, subs),
                }
            }
        }

        /// [`update_rows`] with `A` rows in and `S` rows out (the loop over
        /// rows unrolled).
        ///
        /// # Safety
        ///
        /// As [`update`].
        #[target_feature(enable = $features)]
        #[inline]
        pub(super) unsafe fn update_fixed<const A: usize, const S: usize>(
            dst: &mut [i16],
            src: Option<&[i16]>,
            adds: [&[i16]; A],
            subs: [&[i16]; S],
        ) {
            // SAFETY: as the caller's (same contract).
            unsafe { update_rows(dst, src, &adds, &subs) }
        }

        /// The loop itself: each block of lanes is loaded once, updated in
        /// a register and stored once.
        ///
        /// # Safety
        ///
        /// As [`update`].
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn update_rows(
            dst: &mut [i16],
            src: Option<&[i16]>,
            adds: &[&[i16]],
            subs: &[&[i16]],
        ) {
            let n = dst.len();
            let out = dst.as_mut_ptr();
            // Reading the base through `out` when it is `dst` itself keeps
            // one pointer for both the loads and the stores of `dst`.
            let base = src.map_or(out.cast_const(), <[i16]>::as_ptr);
            let mut i = 0;
            while i < n {
                // SAFETY: `i + LANES <= n` (n is a multiple of LANES), and
                // `base`, `out` and every row hold `n` values, so each
                // unaligned register-wide load and store stays inside its
                // slice; the features are present (caller's contract). A
                // block of `dst` is read before it is written, so the
                // in-place case (`base == out`) is sound.
                unsafe {
                    let mut v = $load(base.add(i).cast::<$v>());
                    for row in adds {
                        v = $add16(v, $load(row.as_ptr().add(i).cast::<$v>()));
                    }
                    for row in subs {
                        v = $sub16(v, $load(row.as_ptr().add(i).cast::<$v>()));
                    }
                    $store(out.add(i).cast::<$v>(), v);
                }
                i += LANES;
            }
        }

        /// The SCReLU dot product: per lane, `v = clamp(x, 0, qa)`, then
        /// `v · (v · w)`, with `v · w` in `i16` (it fits: |w| ≤
        /// i16::MAX / qa) and the pairwise `madd` into `i32` sums, which are
        /// added up at the end, wrapping.
        ///
        /// # Safety
        ///
        /// The CPU must have the features this module is compiled for.
        /// `us.len()` must be a multiple of [`LANES`], `them` as long as
        /// `us`, and `w` twice as long.
        #[target_feature(enable = $features)]
        #[inline]
        pub(super) unsafe fn output(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
            let n = us.len();
            let zero = $zero();
            let qa = $splat16(qa.max(0));
            let mut sum = $zero();
            let (w_us, w_them) = w.split_at(n);
            for (half, weights) in [(us, w_us), (them, w_them)] {
                let mut i = 0;
                while i < n {
                    // SAFETY: `i + LANES <= n` (n is a multiple of LANES)
                    // and both `half` and `weights` hold `n` values, so both
                    // unaligned loads stay inside their slices; the features
                    // are present (caller's contract).
                    let (x, w) = unsafe {
                        (
                            $load(half.as_ptr().add(i).cast::<$v>()),
                            $load(weights.as_ptr().add(i).cast::<$v>()),
                        )
                    };
                    let v = $min16($max16(x, zero), qa);
                    sum = $add32(sum, $madd16(v, $mullo16(v, w)));
                    i += LANES;
                }
            }
            let mut lanes = [0i32; LANES / 2];
            // SAFETY: `lanes` holds LANES / 2 `i32`s: one register's bytes,
            // the size of one unaligned store.
            unsafe { $store(lanes.as_mut_ptr().cast::<$v>(), sum) };
            lanes.iter().fold(0i32, |a, &b| a.wrapping_add(b))
        }

        /// `Σ a[i] · b[i]`: pairwise `madd` into `i32` lanes, added up at
        /// the end, wrapping.
        ///
        /// # Safety
        ///
        /// The CPU must have the features this module is compiled for.
        /// `a.len()` must be a multiple of [`LANES`] and `b` as long as `a`.
        #[target_feature(enable = $features)]
        #[inline]
        pub(super) unsafe fn dot(a: &[i16], b: &[i16]) -> i32 {
            let n = a.len();
            let mut sum = $zero();
            let mut i = 0;
            while i < n {
                // SAFETY: `i + LANES <= n` (n is a multiple of LANES) and
                // both slices hold `n` values, so both unaligned loads stay
                // inside them; the features are present (caller's contract).
                let (x, y) = unsafe {
                    (
                        $load(a.as_ptr().add(i).cast::<$v>()),
                        $load(b.as_ptr().add(i).cast::<$v>()),
                    )
                };
                sum = $add32(sum, $madd16(x, y));
                i += LANES;
            }
            let mut lanes = [0i32; LANES / 2];
            // SAFETY: as in `output`.
            unsafe { $store(lanes.as_mut_ptr().cast::<$v>(), sum) };
            lanes.iter().fold(0i32, |a, &b| a.wrapping_add(b))
        }
    };
}

pub(super) use wide_kernels;
