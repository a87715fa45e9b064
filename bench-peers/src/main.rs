//! Perft (bulk counting at the last ply, one thread, no hash table) with
//! fianchetto-movegen and the other Rust move generators on the standard
//! positions, best of several runs taken in turn, printed as Mnps side by
//! side with fianchetto's ratio to the fastest peer. Times are the thread's
//! CPU time (Linux and other Unix systems with `CLOCK_THREAD_CPUTIME_ID`).
//!
//! `cargo run --release -- [--runs N] [--quick]`: `--quick` uses one ply less
//! everywhere.

use fianchetto_bench_peers::{runs, thread_cpu_time};
use std::str::FromStr;

const POSITIONS: &[(&str, &str, u32, u64)] = &[
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        119_060_324,
    ),
    (
        "Kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    ),
    (
        "position 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        7,
        178_633_661,
    ),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        6,
        706_045_033,
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        5,
        89_941_194,
    ),
];

/// The leaf counts of smaller depths, for `--quick`.
const QUICK: &[u64] = &[4_865_609, 4_085_603, 11_030_083, 15_833_292, 2_103_487];

type Perft = fn(&str, u32) -> u64;

fn fianchetto(fen: &str, depth: u32) -> u64 {
    use fianchetto_board::{Bitboards, Board};
    let board = Bitboards::from_fen(fen).expect("a valid FEN");
    fianchetto_movegen::perft(&board, depth)
}

fn cozy(fen: &str, depth: u32) -> u64 {
    fn perft(board: &cozy_chess::Board, depth: u32) -> u64 {
        let mut nodes = 0;
        if depth == 1 {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        } else {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += perft(&child, depth - 1);
                }
                false
            });
        }
        nodes
    }
    let board = cozy_chess::Board::from_fen(fen, false).expect("a valid FEN");
    perft(&board, depth)
}

fn shakmaty(fen: &str, depth: u32) -> u64 {
    use shakmaty::{fen::Fen, CastlingMode, Chess};
    let pos: Chess = Fen::from_ascii(fen.as_bytes())
        .expect("a valid FEN")
        .into_position(CastlingMode::Standard)
        .expect("a legal position");
    shakmaty::perft(&pos, depth)
}

fn jordanbray(fen: &str, depth: u32) -> u64 {
    let board = chess::Board::from_str(fen).expect("a valid FEN");
    chess::MoveGen::movegen_perft_test(&board, depth as usize) as u64
}

const LIBRARIES: &[(&str, Perft)] = &[
    ("fianchetto", fianchetto),
    ("cozy-chess", cozy),
    ("shakmaty", shakmaty),
    ("chess", jordanbray),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let runs = runs(&args, 3);
    println!(
        "perft, bulk counting, 1 thread, thread CPU time, best of {runs} (fianchetto on {})",
        fianchetto_board::cpu::describe()
    );
    print!("| position | depth |");
    for (name, _) in LIBRARIES {
        print!(" {name} Mnps |");
    }
    println!(" fianchetto / fastest peer |");
    print!("|---|---:|");
    for _ in LIBRARIES {
        print!("---:|");
    }
    println!("---:|");
    let mut log_ratio = 0.0;
    for (i, &(name, fen, depth, nodes)) in POSITIONS.iter().enumerate() {
        let (depth, nodes) = if quick {
            (depth - 1, QUICK[i])
        } else {
            (depth, nodes)
        };
        let mut best = vec![f64::INFINITY; LIBRARIES.len()];
        for _ in 0..runs {
            for (j, &(lib, perft)) in LIBRARIES.iter().enumerate() {
                let start = thread_cpu_time();
                let n = perft(fen, depth);
                let secs = (thread_cpu_time() - start).as_secs_f64();
                assert_eq!(n, nodes, "{lib} miscounts {name} at depth {depth}");
                best[j] = best[j].min(secs);
            }
        }
        let mnps: Vec<f64> = best.iter().map(|s| nodes as f64 / s / 1e6).collect();
        let peer = mnps[1..].iter().cloned().fold(0.0, f64::max);
        let ratio = mnps[0] / peer;
        log_ratio += ratio.ln();
        print!("| {name} | {depth} |");
        for m in &mnps {
            print!(" {m:.1} |");
        }
        println!(" {ratio:.2} |");
    }
    let mean = (log_ratio / POSITIONS.len() as f64).exp();
    println!("geometric mean of the ratios: {mean:.2}");
}
