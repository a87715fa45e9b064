//! Reads a PGN file with the streaming reader and prints what the
//! `fianchetto pgn --stats` command prints: games, plies, errors and speed.
//! With `--generate N`, first writes N random games (with clock comments,
//! remarks, NAGs and variations) to the file: the benchmark input.
//!
//! ```text
//! cargo run --release --example pgn_stats -- games.pgn
//! cargo run --release --example pgn_stats -- /tmp/random.pgn --generate 20000 [--seed 1]
//! ```

#[path = "support/random_games.rs"]
mod random_games;

use fianchetto::board::Bitboards;
use fianchetto::movegen::pgn::{ReadError, Reader, Replay, Writer};
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

/// Writes `count` random games to `path`.
fn generate(path: &str, count: u64, seed: u64) -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = random_games::Rng::new(seed);
    let mut writer = Writer::new(BufWriter::new(std::fs::File::create(path)?));
    for i in 0..count {
        writer.write_game(&random_games::random_game(&mut rng, i))?;
    }
    writer.into_inner().flush()?;
    Ok(())
}

fn run(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let path = args
        .first()
        .ok_or("usage: pgn_stats FILE [--generate N] [--seed S]")?;
    let option = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map(|v| v.parse::<u64>())
            .transpose()
    };
    if let Some(count) = option("--generate")? {
        let start = Instant::now();
        generate(path, count, option("--seed")?.unwrap_or(1))?;
        eprintln!(
            "wrote {count} games to {path} in {:.2} s",
            start.elapsed().as_secs_f64()
        );
    }

    let start = Instant::now();
    let mut reader = Reader::open(path)?;
    // Play every main line and every variation, keeping nothing.
    let mut replay = Replay::<Bitboards>::new().check_variations(true);
    let mut plies = 0u64;
    loop {
        match reader.read_game(&mut replay) {
            Ok(Some(game)) => plies += u64::from(game.plies),
            Ok(None) => break,
            Err(ReadError::Game(e)) => eprintln!("error: {e}"),
            Err(e) => return Err(e.into()),
        }
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    println!("games {}", reader.games_read());
    println!("plies {plies}");
    println!("errors {}", reader.errors());
    println!(
        "speed {:.1} MB/s, {:.0} games/s ({:.2} s)",
        reader.bytes_read() as f64 / 1e6 / seconds,
        reader.games_read() as f64 / seconds,
        seconds
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
