//! `fianchetto bench`: a fixed set of positions searched by PVS to a fixed
//! depth. The total node count is a signature of the search (it changes
//! only when the search or the evaluation changes); the nps measures speed.

use super::flags::SearchFlags;
use super::CommandError;
use crate::evals::EvalChoice;
use crate::say;
use crate::{with_backend, with_evaluator};
use fianchetto_eval::nnue::Simd;
use fianchetto_eval::Evaluator;
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::pvs::{Pvs, PvsConfig};
use fianchetto_search::{Limits, Search};
use std::time::Duration;

/// The bench positions: openings, middlegames (tactical and quiet) and
/// endgames, most from the standard perft and test suites.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r3k1/pp3ppp/2n1b3/3p4/3P4/2N1B3/PP3PPP/2R3K1 w - - 0 20",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/5pk1/6p1/3R4/8/6P1/r4PK1/8 w - - 0 40",
];

/// Arguments of `fianchetto bench`. The node signature (OpenBench's
/// `bench`) is the total at the defaults: depth 12, 1 thread, 16 MB (the
/// search flags' own defaults), the default evaluation, every switch as
/// declared; the table is cleared before each position.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The node signature (OpenBench) is the total at the defaults: \
    depth 12, --threads 1, --hash 16, the default --eval, no --enable/--disable."
)]
pub struct BenchArgs {
    /// Search depth in plies.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Threads, hash, backend, evaluation and switches.
    #[command(flatten)]
    pub search: SearchFlags,
}

/// Runs `bench`: one line per position, then `<nodes> nodes <nps> nps`.
pub fn run(args: &BenchArgs) -> Result<(), CommandError> {
    let config = args.search.pvs_config()?;
    let choice = args.search.eval.choice()?;
    let hidden = match &choice {
        EvalChoice::Nnue(net) => Some(net.hidden()),
        _ => None,
    };
    with_backend!(args.search.backend.kind, B => with_evaluator!(&choice, eval => run_on::<B, _>(args, eval, config, choice.name(), hidden)))
}

fn run_on<B: MoveGen, E: Evaluator<B> + Clone>(
    args: &BenchArgs,
    eval: E,
    config: PvsConfig,
    eval_name: &str,
    hidden: Option<usize>,
) -> Result<(), CommandError> {
    let mut pvs = Pvs::with_config(eval, config);
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    for (i, fen) in POSITIONS.iter().enumerate() {
        let game = Game::new(B::from_fen(fen)?);
        pvs.clear();
        let r = pvs.search(&game, &Limits::depth(args.depth), &mut |_| {});
        say!(
            "{:>2} {:>10} nodes {:>8.3} s  {:<10} {:<14} {}",
            i + 1,
            r.nodes,
            r.time.as_secs_f64(),
            r.score.to_string(),
            r.best_move.map_or("0000".to_string(), |m| m.to_string()),
            fen
        );
        nodes += r.nodes;
        time += r.time;
    }
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    // NNUE's kernels are chosen at run time like the board's code path.
    let kernels = if let Some(hidden) = hidden {
        format!(" ({} kernels)", Simd::detect_for(hidden).name())
    } else {
        String::new()
    };
    say!(
        "depth {} threads {} hash {} MB eval {}{} backend {} ({}): {:.3} s",
        args.depth,
        args.search.threads.count,
        args.search.hash.mb,
        eval_name,
        kernels,
        B::NAME,
        fianchetto_board::cpu::describe(),
        time.as_secs_f64()
    );
    say!("{nodes} nodes {nps} nps");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse() {
        for fen in POSITIONS {
            assert!(
                <fianchetto_board::Bitboards as fianchetto_board::Board>::from_fen(fen).is_ok(),
                "{fen}"
            );
        }
    }
}
