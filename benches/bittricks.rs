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
//! Two sets of functions are timed:
//!
//! - the library's (`fianchetto_board::bittricks`), as the compiler builds
//!   them. LLVM recognises all three software idioms: Kernighan's loop and the
//!   SWAR sequence both become one `popcnt`, and the de Bruijn lookup becomes
//!   `tzcnt` (checked in the generated assembly with `-C target-cpu=native`,
//!   the workspace's build flag). Their times are the hardware instruction's.
//! - `*_opaque` copies of the same algorithms with one empty `asm!` barrier
//!   that hides a value from the optimiser (it emits no instruction), so the
//!   loop, the shifts and masks, or the table lookup really run. These are the
//!   figures comparable with the thesis.
//!
//! `baseline` (a plain truncation) is the cost of the benchmark loop and
//! `black_box` alone; the single-input figures include it, as Go's do.

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use fianchetto_board::bittricks::{
    lsb_debruijn, lsb_hardware, lsb_popcount, popcount_hardware, popcount_kernighan, popcount_swar,
};
use std::hint::black_box;

/// Hides `x` from the optimiser without costing an instruction: an empty
/// assembly block that claims to read and rewrite the register holding it.
#[inline(always)]
fn opaque(mut x: u64) -> u64 {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: the template is an assembler comment: no instruction is
    // emitted, no memory or stack is touched, `x` keeps its value.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        x = black_box(x);
    }
    x
}

/// Kernighan's loop, kept a loop: `b &= b - 1` once per set bit.
#[inline]
fn popcount_kernighan_opaque(mut b: u64) -> u32 {
    let mut n = 0;
    while b != 0 {
        b = opaque(b & (b - 1));
        n += 1;
    }
    n
}

/// SWAR divide-and-conquer, kept as shifts, masks and one multiplication.
#[inline]
fn popcount_swar_opaque(mut b: u64) -> u32 {
    b -= (b >> 1) & 0x5555_5555_5555_5555;
    b = opaque(b);
    b = (b & 0x3333_3333_3333_3333) + ((b >> 2) & 0x3333_3333_3333_3333);
    b = (b + (b >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    (b.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

const DEBRUIJN: u64 = 0x03f7_9d71_b4ca_8b09;
const DEBRUIJN_TABLE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[((1u64 << i).wrapping_mul(DEBRUIJN) >> 58) as usize] = i as u8;
        i += 1;
    }
    t
};

/// De Bruijn multiplication, kept as a multiplication and a table load.
#[inline]
fn lsb_debruijn_opaque(b: u64) -> u32 {
    DEBRUIJN_TABLE[(opaque(b & b.wrapping_neg()).wrapping_mul(DEBRUIJN) >> 58) as usize] as u32
}

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

/// The opaque copies compute what the library computes (the test that the
/// `unsafe` barrier changes nothing but the optimiser's view).
fn check_opaque_copies(mix: &[u64]) {
    for &w in mix
        .iter()
        .chain(&[1, 1 << 63, u64::MAX, 0x8000_0000_0000_0001])
    {
        assert_eq!(popcount_kernighan_opaque(w), w.count_ones(), "{w:#x}");
        assert_eq!(popcount_swar_opaque(w), w.count_ones(), "{w:#x}");
        assert_eq!(lsb_debruijn_opaque(w), w.trailing_zeros(), "{w:#x}");
    }
    assert_eq!(popcount_kernighan_opaque(0), 0);
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
    check_opaque_copies(&mix);
    let mut g = c.benchmark_group("popcount");
    bench_trick(&mut g, "baseline", baseline, &mix);
    bench_trick(&mut g, "hardware", popcount_hardware, &mix);
    bench_trick(&mut g, "swar", popcount_swar, &mix);
    bench_trick(&mut g, "kernighan", popcount_kernighan, &mix);
    bench_trick(&mut g, "swar_opaque", popcount_swar_opaque, &mix);
    bench_trick(&mut g, "kernighan_opaque", popcount_kernighan_opaque, &mix);
    g.finish();
}

fn lsb(c: &mut Criterion) {
    let mix = random_mix();
    let mut g = c.benchmark_group("lsb");
    bench_trick(&mut g, "hardware", lsb_hardware, &mix);
    bench_trick(&mut g, "debruijn", lsb_debruijn, &mix);
    bench_trick(&mut g, "popcount", lsb_popcount, &mix);
    bench_trick(&mut g, "debruijn_opaque", lsb_debruijn_opaque, &mix);
    g.finish();
}

criterion_group!(benches, popcount, lsb);
criterion_main!(benches);
