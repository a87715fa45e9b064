//! MCTS's costs: the policy's logits for one position (the policy network
//! with each kernel version the CPU runs, the engine's blend, and the
//! hand-written policy), and whole searches of a fixed number of playouts
//! with each (playouts per second on one thread).
//! Run: `cargo bench --bench mcts`. Throughput is positions or playouts per
//! second ("elem/s").

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fianchetto::board::{Bitboards, Board};
use fianchetto::eval::nnue::Simd;
use fianchetto::eval::policy::embedded_policy;
use fianchetto::eval::Nnue;
use fianchetto::movegen::{Game, MoveGen};
use fianchetto::search::mcts::{
    Blend, HandPolicy, Mcts, MctsConfig, NetPolicy, Policy, ENGINE_NET_WEIGHT,
};
use fianchetto::search::{Limits, Search};
use std::hint::black_box;

#[path = "support/positions.rs"]
mod positions;
use positions::POSITIONS;

/// Playouts per search in the whole-search benchmark.
const PLAYOUTS: u64 = 2_000;

fn bench(c: &mut Criterion) {
    let (Ok(net), Ok(nnue)) = (embedded_policy(), Nnue::embedded()) else {
        eprintln!("the embedded networks do not load: nothing to measure");
        return;
    };
    let boards: Vec<Bitboards> = POSITIONS
        .iter()
        .filter_map(|(_, fen)| Bitboards::from_fen(fen).ok())
        .collect();
    let moves: Vec<_> = boards.iter().map(|b| b.legal_moves()).collect();
    let mut out = [0f32; 256];

    let mut group = c.benchmark_group("policy-logits");
    group.throughput(Throughput::Elements(boards.len() as u64));
    for simd in Simd::supported() {
        group.bench_function(BenchmarkId::new("net", simd.name()), |b| {
            b.iter(|| {
                for (board, moves) in boards.iter().zip(&moves) {
                    net.logits_with(simd, black_box(board), moves, &mut out);
                }
                black_box(out[0])
            })
        });
    }
    group.bench_function(BenchmarkId::new("blend", "engine"), |b| {
        let mut blend = Blend::engine(net.clone(), ENGINE_NET_WEIGHT);
        b.iter(|| {
            for (board, moves) in boards.iter().zip(&moves) {
                blend.logits(black_box(board), moves, &mut out);
            }
            black_box(out[0])
        })
    });
    group.bench_function(BenchmarkId::new("hand", "-"), |b| {
        let mut hand = HandPolicy;
        b.iter(|| {
            for (board, moves) in boards.iter().zip(&moves) {
                hand.logits(black_box(board), moves, &mut out);
            }
            black_box(out[0])
        })
    });
    group.finish();

    let mut group = c.benchmark_group("mcts-playouts");
    group.throughput(Throughput::Elements(PLAYOUTS));
    group.sample_size(10);
    let config = MctsConfig::puct().iterations(PLAYOUTS);
    for ((name, _), board) in POSITIONS.iter().zip(&boards) {
        let game = Game::new(board.clone());
        // Each search starts afresh: no tree kept from the one before.
        let fresh = |mcts: &mut dyn Search<Bitboards>| {
            mcts.clear();
            black_box(mcts.search(&game, &Limits::default(), &mut |_| {}))
        };
        let mut with_net =
            Mcts::with_policy(nnue.clone(), NetPolicy::new(net.clone()), config.clone());
        group.bench_function(BenchmarkId::new("net", name), |b| {
            b.iter(|| fresh(&mut with_net))
        });
        let blend = Blend::engine(net.clone(), ENGINE_NET_WEIGHT);
        let mut with_blend = Mcts::with_policy(nnue.clone(), blend, config.clone());
        group.bench_function(BenchmarkId::new("blend", name), |b| {
            b.iter(|| fresh(&mut with_blend))
        });
        let mut with_hand = Mcts::with_config(nnue.clone(), config.clone());
        group.bench_function(BenchmarkId::new("hand", name), |b| {
            b.iter(|| fresh(&mut with_hand))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
