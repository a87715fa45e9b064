//! Perft (bulk and plain) and move generation on each board backend.
//!
//! `cargo bench --bench backends`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fianchetto::board::{Bitboards, Board0x88, Color, Mailbox, Role, START_FEN};
use fianchetto::movegen::{perft, perft_plain, MoveGen};
use std::hint::black_box;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITIONS: [(&str, &str); 2] = [("start", START_FEN), ("kiwipete", KIWIPETE)];

fn bench_backend<B: MoveGen>(c: &mut Criterion) {
    for (name, fen) in POSITIONS {
        let Ok(board) = B::from_fen(fen) else {
            continue;
        };
        let nodes = perft(&board, 3);
        let mut group = c.benchmark_group(format!("perft3/{name}"));
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::new("bulk", B::NAME), |b| {
            b.iter(|| perft(black_box(&board), 3))
        });
        group.bench_function(BenchmarkId::new("plain", B::NAME), |b| {
            b.iter(|| perft_plain(black_box(&board), 3))
        });
        group.finish();

        let mut group = c.benchmark_group(format!("movegen/{name}"));
        group.throughput(Throughput::Elements(1));
        group.bench_function(BenchmarkId::new("legal_moves", B::NAME), |b| {
            b.iter(|| black_box(&board).legal_moves())
        });
        group.bench_function(BenchmarkId::new("count_legal", B::NAME), |b| {
            b.iter(|| black_box(&board).count_legal())
        });
        group.bench_function(BenchmarkId::new("captures", B::NAME), |b| {
            b.iter(|| black_box(&board).captures())
        });
        group.finish();

        // The array backends compute their bitboards from the piece lists
        // rather than keeping them up to date on every move: what that costs.
        let mut group = c.benchmark_group(format!("bitboards/{name}"));
        group.bench_function(BenchmarkId::new("occupied", B::NAME), |b| {
            b.iter(|| black_box(&board).occupied())
        });
        group.bench_function(BenchmarkId::new("pieces", B::NAME), |b| {
            b.iter(|| black_box(&board).pieces(Color::White, Role::Pawn))
        });
        group.finish();
    }
}

fn backends(c: &mut Criterion) {
    bench_backend::<Bitboards>(c);
    bench_backend::<Board0x88>(c);
    bench_backend::<Mailbox>(c);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = backends
}
criterion_main!(benches);
