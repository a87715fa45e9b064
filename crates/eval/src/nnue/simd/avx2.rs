//! The AVX2 kernels: 16 `i16` lanes per 256-bit register.
//!
//! Compiled for AVX2 whatever the build's target CPU (`#[target_feature]`),
//! and only called after run-time detection (see [`super::Simd`]).
//! Every raw-pointer access sits in its own `unsafe` block with the reason
//! it stays in bounds.

use std::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16,
    _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16, _mm256_set1_epi16,
    _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16,
};

/// `i16` lanes in one register.
pub(super) const LANES: usize = 16;

/// `dst = base + Σ adds − Σ subs`, wrapping; `base` is `src`, or `dst` itself.
///
/// The shapes moves produce (one row in and one out, one in and two out,
/// two in and two out) get versions with the row counts fixed at compile
/// time, so that the loop over rows disappears; anything else (a refresh)
/// takes the general loop.
///
/// # Safety
///
/// The CPU must have AVX2. `dst.len()` must be a multiple of [`LANES`], and
/// `src` (when given) and every row of `adds` and `subs` exactly as long as
/// `dst`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn update(
    dst: &mut [i16],
    src: Option<&[i16]>,
    adds: &[&[i16]],
    subs: &[&[i16]],
) {
    // SAFETY: the caller's contract is the one every version below needs.
    unsafe {
        match (adds, subs) {
            (&[a], &[s]) => update_fixed(dst, src, [a], [s]),
            (&[a], &[s0, s1]) => update_fixed(dst, src, [a], [s0, s1]),
            (&[a0, a1], &[s0, s1]) => update_fixed(dst, src, [a0, a1], [s0, s1]),
            _ => update_rows(dst, src, adds, subs),
        }
    }
}

/// [`update_rows`] with `A` rows in and `S` rows out.
///
/// # Safety
///
/// As [`update`].
#[target_feature(enable = "avx2")]
unsafe fn update_fixed<const A: usize, const S: usize>(
    dst: &mut [i16],
    src: Option<&[i16]>,
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    // SAFETY: as the caller's (same contract).
    unsafe { update_rows(dst, src, &adds, &subs) }
}

/// The loop itself: each block of 16 lanes is loaded once, updated in a
/// register and stored once.
///
/// # Safety
///
/// As [`update`].
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn update_rows(dst: &mut [i16], src: Option<&[i16]>, adds: &[&[i16]], subs: &[&[i16]]) {
    let n = dst.len();
    let out = dst.as_mut_ptr();
    // Reading the base through `out` when it is `dst` itself keeps one
    // pointer for both the loads and the stores of `dst`.
    let base = src.map_or(out.cast_const(), <[i16]>::as_ptr);
    let mut i = 0;
    while i < n {
        // SAFETY: `i + LANES <= n` (n is a multiple of LANES), and `base`,
        // `out` and every row hold `n` values, so each unaligned 32-byte
        // load and store stays inside its slice; AVX2 is present (caller's
        // contract). A block of `dst` is read before it is written, so the
        // in-place case (`base == out`) is sound.
        unsafe {
            let mut v = _mm256_loadu_si256(base.add(i).cast::<__m256i>());
            for row in adds {
                let w = _mm256_loadu_si256(row.as_ptr().add(i).cast::<__m256i>());
                v = _mm256_add_epi16(v, w);
            }
            for row in subs {
                let w = _mm256_loadu_si256(row.as_ptr().add(i).cast::<__m256i>());
                v = _mm256_sub_epi16(v, w);
            }
            _mm256_storeu_si256(out.add(i).cast::<__m256i>(), v);
        }
        i += LANES;
    }
}

/// The SCReLU dot product: per lane, `v = clamp(x, 0, qa)`, then
/// `v · (v · w)`, with `v · w` in `i16` (it fits: |w| ≤ i16::MAX / qa) and the pairwise
/// `madd` into eight `i32` sums, which are added up at the end, wrapping.
///
/// # Safety
///
/// The CPU must have AVX2. `us.len()` must be a multiple of [`LANES`],
/// `them` as long as `us`, and `w` twice as long.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn output(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
    let n = us.len();
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(qa.max(0));
    let mut sum = _mm256_setzero_si256();
    let (w_us, w_them) = w.split_at(n);
    for (half, weights) in [(us, w_us), (them, w_them)] {
        let mut i = 0;
        while i < n {
            // SAFETY: `i + LANES <= n` (n is a multiple of LANES) and both
            // `half` and `weights` hold `n` values, so both unaligned
            // 32-byte loads stay inside their slices; AVX2 is present
            // (caller's contract).
            let (x, w) = unsafe {
                (
                    _mm256_loadu_si256(half.as_ptr().add(i).cast::<__m256i>()),
                    _mm256_loadu_si256(weights.as_ptr().add(i).cast::<__m256i>()),
                )
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
            let vw = _mm256_mullo_epi16(v, w);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
            i += LANES;
        }
    }
    let mut lanes = [0i32; 8];
    // SAFETY: `lanes` is 32 bytes, the size of one unaligned store.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sum) };
    lanes.iter().fold(0i32, |a, &b| a.wrapping_add(b))
}
