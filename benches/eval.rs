//! `evaluate` per preset on a few positions (opening, middlegame, endgame),
//! and NNUE inference (full refresh, incremental update, output layer) per
//! architecture (the shipped 256-wide shape, a bucketed 1024-wide one) with
//! every kernel version the CPU runs (AVX-512, AVX2, scalar).
//! Run: `cargo bench --bench eval` (`cargo bench --bench eval -- nnue` for
//! NNUE only). Throughput is reported in evaluations per second ("elem/s").

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fianchetto::board::{Bitboards, Board, Move};
use fianchetto::eval::nnue::{Arch, KingBuckets, Network, Simd, MAX_OUTPUT_WEIGHT};
use fianchetto::eval::{Evaluator, Nnue, Preset};
use fianchetto::movegen::MoveGen;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::sync::Arc;

#[path = "support/positions.rs"]
mod positions;
use positions::POSITIONS;

fn bench(c: &mut Criterion) {
    let boards: Vec<Bitboards> = POSITIONS
        .iter()
        .filter_map(|(_, fen)| Bitboards::from_fen(fen).ok())
        .collect();
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(boards.len() as u64));
    for preset in Preset::ALL {
        let mut e = preset.evaluator();
        group.bench_function(BenchmarkId::new(preset.name(), "4 positions"), |b| {
            b.iter(|| {
                for board in &boards {
                    black_box(e.evaluate(black_box(board)));
                }
            })
        });
    }
    group.finish();
    // Per position, Classical (the engine's evaluation).
    let mut group = c.benchmark_group("eval-classical");
    group.throughput(Throughput::Elements(1));
    for ((name, _), board) in POSITIONS.iter().zip(&boards) {
        let mut e = Preset::Classical.evaluator();
        group.bench_function(*name, |b| {
            b.iter(|| black_box(e.evaluate(black_box(board))))
        });
    }
    group.finish();
}

/// A random network of hidden size `hidden`, the same on every run: weights
/// of the size trained nets have, so that SCReLU clips as it would.
fn random_net(arch: Arch) -> Network {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x00f1_ac4e_7700);
    let mut uniform = |range: i16| {
        let value = (rng.next_u64() % (2 * range as u64 + 1)) as i32 - i32::from(range);
        value as i16
    };
    let ft_weights = (0..arch.ft_weight_count()).map(|_| uniform(80)).collect();
    let ft_bias = (0..arch.hidden).map(|_| uniform(100)).collect();
    let out_weights = (0..arch.out_weight_count())
        .map(|_| uniform(MAX_OUTPUT_WEIGHT))
        .collect();
    let out_bias = vec![0; arch.output_buckets.count];
    match Network::new(arch, ft_weights, ft_bias, out_weights, out_bias) {
        Ok(net) => net,
        Err(e) => panic!("benchmark network refused: {e}"),
    }
}

/// NNUE per hidden size and kernels:
/// * `refresh`: evaluating positions the stack does not hold (accumulators
///   from scratch, then the output layer), per position;
/// * `incremental`: push + evaluate + pop of every move from kiwipete (one
///   accumulator update from the parent, then the output layer), per move;
/// * `output`: evaluating the position already on top (output layer only).
fn bench_nnue(c: &mut Criterion) {
    let boards: Vec<Bitboards> = POSITIONS
        .iter()
        .filter_map(|(_, fen)| Bitboards::from_fen(fen).ok())
        .collect();
    let Some(root) = boards.get(1).cloned() else {
        return;
    };
    let children: Vec<(Move, Bitboards)> = root
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = root.clone();
            child.play_unchecked(mv);
            (mv, child)
        })
        .collect();
    // The shipped net's shape and a bucketed 1024-wide one.
    let bucketed = Arch::plain(1024)
        .with_king_buckets(KingBuckets::MIRRORED_4)
        .with_output_buckets(8);
    for (name, arch) in [("nnue-256", Arch::plain(256)), ("nnue-1024x4x8", bucketed)] {
        let net = Arc::new(random_net(arch));
        let mut group = c.benchmark_group(name);
        for simd in Simd::ALL {
            let Some(mut nnue) = Nnue::new(net.clone()).with_simd_version(simd) else {
                eprintln!("note: no {simd} on this CPU or build; not measured");
                continue;
            };
            let kernels = simd.name();

            group.throughput(Throughput::Elements(boards.len() as u64));
            group.bench_function(BenchmarkId::new("refresh", kernels), |b| {
                b.iter(|| {
                    // Each board differs from the one before: a refresh.
                    for board in &boards {
                        black_box(nnue.evaluate(black_box(board)));
                    }
                })
            });

            nnue.reset(&root);
            group.throughput(Throughput::Elements(children.len() as u64));
            group.bench_function(BenchmarkId::new("incremental", kernels), |b| {
                b.iter(|| {
                    for (mv, child) in &children {
                        nnue.push(&root, *mv, black_box(child));
                        black_box(nnue.evaluate(child));
                        nnue.pop();
                    }
                })
            });

            group.throughput(Throughput::Elements(1));
            group.bench_function(BenchmarkId::new("output", kernels), |b| {
                b.iter(|| black_box(nnue.evaluate(black_box(&root))))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench, bench_nnue);
criterion_main!(benches);
