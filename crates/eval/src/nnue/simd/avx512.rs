//! The AVX-512 kernels: 32 `i16` lanes per 512-bit register (AVX-512F for
//! the 32-bit sums, AVX-512BW for the 16-bit lanes).
//!
//! Compiled for AVX-512 whatever the build's target CPU
//! (`#[target_feature]`), only with a compiler that has the intrinsics
//! (`fianchetto_avx512`, set by `build.rs`), and only called after
//! run-time detection (see [`super::Simd`]). The loops are those of the
//! AVX2 kernels at twice the width.

// The intrinsics are stable since Rust 1.89, above the workspace's
// rust-version; `build.rs` compiles this module only on such compilers.
#![allow(clippy::incompatible_msrv)]

use std::arch::x86_64::{
    __m512i, _mm512_add_epi16, _mm512_add_epi32, _mm512_loadu_si512, _mm512_madd_epi16,
    _mm512_max_epi16, _mm512_min_epi16, _mm512_mullo_epi16, _mm512_reduce_add_epi32,
    _mm512_set1_epi16, _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi16,
};

/// `i16` lanes in one register.
pub(super) const LANES: usize = 32;

/// `dst = base + Σ adds − Σ subs`, wrapping; `base` is `src`, or `dst` itself.
///
/// The shapes moves produce get versions with the row counts fixed at
/// compile time (as in the AVX2 kernels); anything else takes the general
/// loop.
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512BW. `dst.len()` must be a
/// multiple of [`LANES`], and `src` (when given) and every row of `adds`
/// and `subs` exactly as long as `dst`.
#[target_feature(enable = "avx512f,avx512bw")]
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
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn update_fixed<const A: usize, const S: usize>(
    dst: &mut [i16],
    src: Option<&[i16]>,
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    // SAFETY: as the caller's (same contract).
    unsafe { update_rows(dst, src, &adds, &subs) }
}

/// The loop itself: each block of 32 lanes is loaded once, updated in a
/// register and stored once.
///
/// # Safety
///
/// As [`update`].
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn update_rows(dst: &mut [i16], src: Option<&[i16]>, adds: &[&[i16]], subs: &[&[i16]]) {
    let n = dst.len();
    let out = dst.as_mut_ptr();
    let base = src.map_or(out.cast_const(), <[i16]>::as_ptr);
    let mut i = 0;
    while i < n {
        // SAFETY: `i + LANES <= n` (n is a multiple of LANES), and `base`,
        // `out` and every row hold `n` values, so each unaligned 64-byte
        // load and store stays inside its slice; AVX-512F/BW are present
        // (caller's contract). A block of `dst` is read before it is
        // written, so the in-place case (`base == out`) is sound.
        unsafe {
            let mut v = _mm512_loadu_si512(base.add(i).cast::<__m512i>());
            for row in adds {
                let w = _mm512_loadu_si512(row.as_ptr().add(i).cast::<__m512i>());
                v = _mm512_add_epi16(v, w);
            }
            for row in subs {
                let w = _mm512_loadu_si512(row.as_ptr().add(i).cast::<__m512i>());
                v = _mm512_sub_epi16(v, w);
            }
            _mm512_storeu_si512(out.add(i).cast::<__m512i>(), v);
        }
        i += LANES;
    }
}

/// The SCReLU dot product: per lane, `v = clamp(x, 0, qa)`, then
/// `v · (v · w)`, with `v · w` in `i16` (it fits: |w| ≤ i16::MAX / qa) and
/// the pairwise `madd` into sixteen `i32` sums, added up at the end,
/// wrapping.
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512BW. `us.len()` must be a multiple
/// of [`LANES`], `them` as long as `us`, and `w` twice as long.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn output(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
    let n = us.len();
    let zero = _mm512_setzero_si512();
    let qa = _mm512_set1_epi16(qa.max(0));
    let mut sum = _mm512_setzero_si512();
    let (w_us, w_them) = w.split_at(n);
    for (half, weights) in [(us, w_us), (them, w_them)] {
        let mut i = 0;
        while i < n {
            // SAFETY: `i + LANES <= n` (n is a multiple of LANES) and both
            // `half` and `weights` hold `n` values, so both unaligned
            // 64-byte loads stay inside their slices; AVX-512F/BW are
            // present (caller's contract).
            let (x, w) = unsafe {
                (
                    _mm512_loadu_si512(half.as_ptr().add(i).cast::<__m512i>()),
                    _mm512_loadu_si512(weights.as_ptr().add(i).cast::<__m512i>()),
                )
            };
            let v = _mm512_min_epi16(_mm512_max_epi16(x, zero), qa);
            let vw = _mm512_mullo_epi16(v, w);
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(v, vw));
            i += LANES;
        }
    }
    _mm512_reduce_add_epi32(sum)
}
