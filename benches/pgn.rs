//! PGN reading and writing speed on a generated database (clock comments on
//! half the games, remarks, NAGs, variations: see
//! `examples/support/random_games.rs`), in MB/s and in games/s.
//!
//! Run: `cargo bench --bench pgn`. Set `FIANCHETTO_PGN=/path/to/file.pgn`
//! to read a file of your own instead of the 2 000 generated games.
//!
//! - `syntax`: the reader with a visitor that ignores everything (tokens,
//!   tags, comments, the game grammar);
//! - `replay`: every main-line SAN move resolved and played (the work of
//!   `fianchetto pgn --stats --skip-variations`);
//! - `replay+variations`: variations played as well (`--stats`);
//! - `games`: whole `PgnGame`s built (tags, positions, comments, NAGs,
//!   variations);
//! - `write`: the same games written back.

#[path = "../examples/support/random_games.rs"]
mod random_games;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fianchetto::board::Bitboards;
use fianchetto::movegen::pgn::{GameBuilder, PgnGame, Reader, Replay, Visitor, Writer};
use std::hint::black_box;
use std::time::Duration;

/// Ignores everything: only the syntax is read.
struct Nothing;

impl Visitor for Nothing {
    type Output = ();
    fn end_game(&mut self) {}
}

/// Reads every game of `text` with `visitor`; returns how many read.
fn read_with<V: Visitor>(text: &[u8], visitor: &mut V) -> usize {
    let mut reader = Reader::from_buf_read(text);
    let mut n = 0;
    while let Ok(Some(game)) = reader.read_game(visitor) {
        black_box(game);
        n += 1;
    }
    n
}

fn input() -> Vec<u8> {
    if let Some(path) = std::env::var_os("FIANCHETTO_PGN") {
        return std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.to_string_lossy()));
    }
    let mut rng = random_games::Rng::new(7);
    let mut writer = Writer::new(Vec::new());
    for i in 0..2_000 {
        if let Err(e) = writer.write_game(&random_games::random_game(&mut rng, i)) {
            panic!("{e}");
        }
    }
    writer.into_inner()
}

fn bench(c: &mut Criterion) {
    let text = input();
    let games = read_with(&text, &mut Nothing) as u64;
    assert!(games > 0, "no game in the input");
    let parsed: Vec<PgnGame<Bitboards>> = Reader::from_buf_read(&text[..])
        .games::<Bitboards>()
        .filter_map(Result::ok)
        .collect();
    println!("input: {games} games, {:.1} MB", text.len() as f64 / 1e6);
    for (unit, throughput) in [
        ("bytes", Throughput::Bytes(text.len() as u64)),
        ("games", Throughput::Elements(games)),
    ] {
        let mut group = c.benchmark_group(format!("pgn-{unit}"));
        group.throughput(throughput);
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(5));
        group.bench_function("syntax", |b| b.iter(|| read_with(&text, &mut Nothing)));
        group.bench_function("replay", |b| {
            let mut v = Replay::<Bitboards>::new();
            b.iter(|| read_with(&text, &mut v))
        });
        group.bench_function("replay+variations", |b| {
            let mut v = Replay::<Bitboards>::new().check_variations(true);
            b.iter(|| read_with(&text, &mut v))
        });
        group.bench_function("games", |b| {
            let mut v = GameBuilder::<Bitboards>::new();
            b.iter(|| read_with(&text, &mut v))
        });
        group.bench_function("write", |b| {
            b.iter(|| {
                let mut writer = Writer::new(Vec::with_capacity(text.len()));
                for game in &parsed {
                    let _ = writer.write_game(game);
                }
                black_box(writer.into_inner().len())
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
