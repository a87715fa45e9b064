//! The bit-trick comparison of the Zanin thesis (section 000 of the seeds):
//! population count by the hardware instruction, SWAR divide-and-conquer and
//! Kernighan's loop; least-significant bit by the hardware instruction, de
//! Bruijn multiplication and the popcount method. Each on a 1-bit input, a
//! 64-bit (all ones) input, and a mix of 1 024 random words.
//!
//! The thesis' Go figures (ns per call): Kernighan 1.47 (1 bit) and 39.9
//! (64 bits); SWAR 0.254 and 0.238; LSB popcount method 0.238, de Bruijn 0.241.
//!
//! Run briefly with
//! `cargo bench --bench bittricks -- --warm-up-time 1 --measurement-time 3`.
//!
//! The library keeps each software trick the algorithm its name says (an
//! empty optimisation barrier stops LLVM turning them into `popcnt`/`tzcnt`).
//!
//! `baseline` (a plain truncation) is the cost of the benchmark loop and
//! `black_box` alone; the single-input figures include it, as Go's do.

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use fianchetto::board::bittricks::{
    lsb_debruijn, lsb_hardware, lsb_popcount, popcount_hardware, popcount_kernighan, popcount_swar,
};
use std::hint::black_box;

/// The cost of the harness: a call that does nothing but truncate.
#[inline]
fn baseline(b: u64) -> u32 {
    b as u32
}

/// The two inputs the thesis times: one set bit (the best case for
/// Kernighan's loop) and 64 set bits (its worst case).
const SINGLE_INPUTS: [(&str, u64); 2] = [("1bit", 1 << 37), ("64bits", u64::MAX)];

/// 1 024 deterministic pseudo-random words (xorshift64), none zero, most
/// with about 32 bits set and every fourth sparse (a few bits, like a piece
/// set), so that branch prediction cannot learn one loop count.
fn random_mix() -> Vec<u64> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..1024)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if i % 4 == 0 {
                x & (x >> 3) & (x >> 5) | 1 << (i % 64)
            } else {
                x | 1
            }
        })
        .collect()
}

/// Benchmarks one trick on every input. Generic over the function (each
/// function item is its own type) so that the call is inlined as it would be
/// in an engine, rather than made through a function pointer.
fn bench_trick<F: Fn(u64) -> u32>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    trick: &str,
    f: F,
    mix: &[u64],
) {
    g.throughput(Throughput::Elements(1));
    for (input_name, input) in SINGLE_INPUTS {
        g.bench_with_input(BenchmarkId::new(trick, input_name), &input, |b, &x| {
            b.iter(|| f(black_box(x)))
        });
    }
    g.throughput(Throughput::Elements(mix.len() as u64));
    g.bench_with_input(BenchmarkId::new(trick, "mix1024"), mix, |b, words| {
        // Each word goes through black_box so that the calls are not
        // vectorised together or hoisted out of the loop.
        b.iter(|| words.iter().map(|&w| f(black_box(w))).sum::<u32>())
    });
}

fn popcount(c: &mut Criterion) {
    let mix = random_mix();
    let mut g = c.benchmark_group("popcount");
    bench_trick(&mut g, "baseline", baseline, &mix);
    bench_trick(&mut g, "hardware", popcount_hardware, &mix);
    bench_trick(&mut g, "swar", popcount_swar, &mix);
    bench_trick(&mut g, "kernighan", popcount_kernighan, &mix);
    g.finish();
}

fn lsb(c: &mut Criterion) {
    let mix = random_mix();
    let mut g = c.benchmark_group("lsb");
    bench_trick(&mut g, "hardware", lsb_hardware, &mix);
    bench_trick(&mut g, "debruijn", lsb_debruijn, &mix);
    bench_trick(&mut g, "popcount", lsb_popcount, &mix);
    g.finish();
}

criterion_group!(benches, popcount, lsb);
criterion_main!(benches);
