//! The same perft on every board backend, bulk-counting and plain, as a
//! table of nodes, time and millions of nodes per second.
//!
//! ```text
//! cargo run --release --example backends              # start position d5, Kiwipete d4
//! cargo run --release --example backends -- 4 "<FEN>" # one position at depth 4
//! ```

use fianchetto::board::{Bitboards, Board0x88, Mailbox, START_FEN};
use fianchetto::movegen::{perft, perft_plain, MoveGen};
use std::process::ExitCode;
use std::time::Instant;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Prints one row per counting mode for backend `B` (an error if it rejects the FEN).
fn measure<B: MoveGen>(fen: &str, depth: u32) -> Result<(), String> {
    let board = B::from_fen(fen).map_err(|e| format!("{}: {e}", B::NAME))?;
    for (mode, count) in [
        ("bulk", perft::<B> as fn(&B, u32) -> u64),
        ("plain", perft_plain::<B>),
    ] {
        let start = Instant::now();
        let nodes = count(&board, depth);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{:<9} {:<6} {:>12} {:>9.3} s {:>8.1}",
            B::NAME,
            mode,
            nodes,
            secs,
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}

fn table(fen: &str, depth: u32) -> Result<(), String> {
    println!("perft {depth} of {fen}");
    println!(
        "{:<9} {:<6} {:>12} {:>11} {:>8}",
        "backend", "mode", "nodes", "time", "Mnps"
    );
    measure::<Bitboards>(fen, depth)?;
    measure::<Board0x88>(fen, depth)?;
    measure::<Mailbox>(fen, depth)?;
    println!();
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: Vec<(String, u32)> = match args.as_slice() {
        [] => vec![(START_FEN.to_string(), 5), (KIWIPETE.to_string(), 4)],
        [depth, rest @ ..] => match depth.parse::<u32>() {
            Ok(d) if (1..=10).contains(&d) => {
                let fen = if rest.is_empty() {
                    START_FEN.to_string()
                } else {
                    rest.join(" ")
                };
                vec![(fen, d)]
            }
            _ => {
                eprintln!("usage: backends [DEPTH 1-10] [FEN]");
                return ExitCode::from(2);
            }
        },
    };
    for (fen, depth) in runs {
        if let Err(e) = table(&fen, depth) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
