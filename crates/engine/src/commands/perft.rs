//! `fianchetto perft`: count the leaves of the move tree, with divide,
//! statistics, threads and a hash table.

use super::CommandError;
use crate::backend::Backend;
use crate::{say, with_backend};
use fianchetto_board::{CastlingMode, START_FEN};
use fianchetto_movegen::{divide, perft_parallel, perft_plain, perft_stats, to_uci, MoveGen};
use std::time::Instant;

/// Arguments of `fianchetto perft`.
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// Depth in plies (1 or more).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Position to count from (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Board backend.
    #[arg(long, value_enum, default_value_t = Backend::Bitboard)]
    pub backend: Backend,
    /// Chess960: read the FEN's castling field as X-FEN or Shredder-FEN
    /// (king and rooks on any files) and write castling in `--divide` as
    /// king takes rook (e1h1).
    #[arg(long)]
    pub chess960: bool,
    /// Print the count below each legal move.
    #[arg(long)]
    pub divide: bool,
    /// Print the perft table (captures, en passant, castles, promotions,
    /// checks, discovered and double checks, mates) of the leaf moves.
    #[arg(long)]
    pub stats: bool,
    /// Threads to share the root moves between.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Hash table size in MB (0 = none): counts each transposition once.
    #[arg(long, default_value_t = 0)]
    pub hash: usize,
    /// Play every move, the last ply included, instead of counting the last
    /// ply's moves without playing them (bulk counting, the default). Runs on
    /// one thread.
    #[arg(long, conflicts_with_all = ["divide", "stats", "hash", "threads"])]
    pub plain: bool,
}

/// Runs `perft`; the last line printed is `Nodes searched: <N>`.
pub fn run(args: &PerftArgs) -> Result<(), CommandError> {
    with_backend!(args.backend, B => run_on::<B>(args))
}

fn run_on<B: MoveGen>(args: &PerftArgs) -> Result<(), CommandError> {
    let board = B::from_fen_with(&args.fen, CastlingMode::from_chess960(args.chess960))?;
    let start = Instant::now();
    let nodes = if args.stats {
        let s = perft_stats(&board, args.depth);
        say!("depth      {}", args.depth);
        say!("nodes      {}", s.nodes);
        say!("captures   {}", s.captures);
        say!("e.p.       {}", s.en_passant);
        say!("castles    {}", s.castles);
        say!("promotions {}", s.promotions);
        say!("checks     {}", s.checks);
        say!("disc. chk  {}", s.discovered_checks);
        say!("double chk {}", s.double_checks);
        say!("checkmates {}", s.checkmates);
        s.nodes
    } else if args.divide {
        let mut total = 0;
        for (mv, n) in divide(&board, args.depth) {
            say!(
                "{}: {n}",
                to_uci(&board, mv, CastlingMode::from_chess960(args.chess960))
            );
            total += n;
        }
        say!("");
        total
    } else if args.plain {
        perft_plain(&board, args.depth)
    } else {
        perft_parallel(&board, args.depth, args.threads as usize, args.hash)
    };
    let secs = start.elapsed().as_secs_f64();
    let mode = if args.plain { "plain" } else { "bulk" };
    say!(
        "Time: {:.3} s ({:.1} Mnps, backend {}, {mode}, {})",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6,
        B::NAME,
        fianchetto_board::cpu::describe()
    );
    say!("Nodes searched: {nodes}");
    Ok(())
}
