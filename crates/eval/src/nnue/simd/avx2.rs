//! The AVX2 kernels: 16 `i16` lanes per 256-bit register (the code is
//! [`super::wide`]'s).

use std::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16,
    _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16, _mm256_set1_epi16,
    _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16,
};

super::wide::wide_kernels! {
    features: "avx2",
    run_features: "avx2,popcnt",
    narrower: super::Portable,
    vector: __m256i,
    lanes: 16,
    load: _mm256_loadu_si256,
    store: _mm256_storeu_si256,
    add16: _mm256_add_epi16,
    sub16: _mm256_sub_epi16,
    max16: _mm256_max_epi16,
    min16: _mm256_min_epi16,
    mullo16: _mm256_mullo_epi16,
    madd16: _mm256_madd_epi16,
    add32: _mm256_add_epi32,
    splat16: _mm256_set1_epi16,
    zero: _mm256_setzero_si256,
}
