//! The AVX-512 kernels: 32 `i16` lanes per 512-bit register (AVX-512F for
//! the 32-bit sums, AVX-512BW for the 16-bit lanes; the code is
//! [`super::wide`]'s). Compiled only with a compiler that has the
//! intrinsics (`fianchetto_avx512`, set by `build.rs`).

// The intrinsics are stable since Rust 1.89, above the workspace's
// rust-version; `build.rs` compiles this module only on such compilers.
#![allow(clippy::incompatible_msrv)]

use std::arch::x86_64::{
    __m512i, _mm512_add_epi16, _mm512_add_epi32, _mm512_loadu_si512, _mm512_madd_epi16,
    _mm512_max_epi16, _mm512_min_epi16, _mm512_mullo_epi16, _mm512_set1_epi16,
    _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi16,
};

super::wide::wide_kernels! {
    features: "avx512f,avx512bw",
    run_features: "avx512f,avx512bw,popcnt",
    // SAFETY: every CPU with AVX-512F has AVX2 (which `kernels` needs).
    narrower: unsafe { super::avx2::kernels() },
    vector: __m512i,
    lanes: 32,
    load: _mm512_loadu_si512,
    store: _mm512_storeu_si512,
    add16: _mm512_add_epi16,
    sub16: _mm512_sub_epi16,
    max16: _mm512_max_epi16,
    min16: _mm512_min_epi16,
    mullo16: _mm512_mullo_epi16,
    madd16: _mm512_madd_epi16,
    add32: _mm512_add_epi32,
    splat16: _mm512_set1_epi16,
    zero: _mm512_setzero_si512,
}
