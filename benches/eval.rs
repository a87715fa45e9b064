//! `evaluate` per preset on a few positions (opening, middlegame, endgame).
//! Run: `cargo bench --bench eval`. Throughput is reported in evaluations
//! per second ("elem/s").

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fianchetto_board::{Bitboards, Board};
use fianchetto_eval::{Evaluator, Preset};
use std::hint::black_box;

const POSITIONS: &[(&str, &str)] = &[
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "middlegame",
        "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
];

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

criterion_group!(benches, bench);
criterion_main!(benches);
