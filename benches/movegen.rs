//! Move generation benchmarks, generic over the backend: bulk perft on the
//! standard positions, legal-move listing, counting, and copy-make (clone,
//! then play). A new backend is one line in `criterion_group!` plus a
//! one-line wrapper function.
//!
//! Run briefly with
//! `cargo bench --bench movegen -- --warm-up-time 1 --measurement-time 3`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fianchetto::board::Bitboards;
use fianchetto::movegen::{perft, MoveGen};
use std::hint::black_box;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

/// Perft cases: name, FEN, depth, and the node count (checked once before
/// timing, so that a wrong generator cannot post a fast time).
const PERFT: [(&str, &str, u32, u64); 4] = [
    ("start", START, 4, 197_281),
    ("start", START, 5, 4_865_609),
    ("kiwipete", KIWIPETE, 4, 4_085_603),
    ("position3", POSITION_3, 5, 674_624),
];

/// Positions for the per-position benchmarks: an opening, a busy middlegame
/// and a sparse endgame.
const POSITIONS: [(&str, &str); 3] = [
    ("start", START),
    ("kiwipete", KIWIPETE),
    ("position3", POSITION_3),
];

fn bench_backend<B: MoveGen>(c: &mut Criterion) {
    let mut g = c.benchmark_group(format!("perft/{}", B::NAME));
    // A depth-5 perft takes tens of milliseconds: ten samples are plenty.
    g.sample_size(10);
    for (name, fen, depth, nodes) in PERFT {
        let board = B::from_fen(fen).unwrap();
        assert_eq!(
            perft(&board, depth),
            nodes,
            "{} {name} depth {depth}",
            B::NAME
        );
        g.throughput(Throughput::Elements(nodes));
        g.bench_with_input(BenchmarkId::new(name, depth), &board, |b, board| {
            b.iter(|| perft(black_box(board), depth))
        });
    }
    g.finish();

    let mut g = c.benchmark_group(format!("movegen/{}", B::NAME));
    for (name, fen) in POSITIONS {
        let board = B::from_fen(fen).unwrap();
        let moves = board.legal_moves();
        // Throughput in moves: generated, counted, or played per second.
        g.throughput(Throughput::Elements(moves.len() as u64));
        g.bench_with_input(BenchmarkId::new("legal_moves", name), &board, |b, board| {
            b.iter(|| black_box(board).legal_moves())
        });
        g.bench_with_input(BenchmarkId::new("count_legal", name), &board, |b, board| {
            b.iter(|| black_box(board).count_legal())
        });
        // Copy-make, as searches do it: every legal move played on a clone.
        g.bench_with_input(
            BenchmarkId::new("clone_play_all", name),
            &board,
            |b, board| {
                b.iter(|| {
                    let mut h = 0u64;
                    for &mv in &moves {
                        let mut child = black_box(board).clone();
                        child.play_unchecked(mv);
                        h ^= child.hash();
                    }
                    h
                })
            },
        );
    }
    g.finish();
}

fn bitboards(c: &mut Criterion) {
    bench_backend::<Bitboards>(c);
}

criterion_group!(benches, bitboards);
criterion_main!(benches);
