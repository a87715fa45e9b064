//! `fianchetto syzygy --path DIR --fen FEN`: what the Syzygy tables say of a
//! position (WDL, DTZ, the best move, every move with `--moves`), and
//! `--bench FILE`: probes per second over a file of positions.

use super::flags::BackendFlag;
use super::CommandError;
use crate::{say, with_backend};
use fianchetto_board::CastlingMode;
use fianchetto_movegen::{to_san, to_uci, MoveGen};
use fianchetto_syzygy::Tablebase;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `fianchetto syzygy`.
#[derive(Debug, clap::Args)]
pub struct SyzygyArgs {
    /// Directories of tables (`KQvKR.rtbw`, `KQvKR.rtbz`, ...): the option
    /// may be repeated, and each may hold several separated by `:` (`;` on
    /// Windows), as in the UCI option SyzygyPath.
    #[arg(long, required = true)]
    pub path: Vec<String>,
    /// The position to probe (no castling rights).
    #[arg(long, required_unless_present = "bench")]
    pub fen: Option<String>,
    /// Also list every legal move, best first, with its WDL and DTZ.
    #[arg(long)]
    pub moves: bool,
    /// Instead: time WDL and DTZ probes over a file of positions (one FEN
    /// per line, `#` comments) and print probes per second.
    #[arg(long, conflicts_with_all = ["fen", "moves"])]
    pub bench: Option<PathBuf>,
    /// Passes over the file's positions for `--bench`.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// `--backend`.
    #[command(flatten)]
    pub board: BackendFlag,
}

/// Runs `syzygy`.
pub fn run(args: &SyzygyArgs) -> Result<(), CommandError> {
    let mut tables = Tablebase::new();
    for list in &args.path {
        tables
            .add_directories(list)
            .map_err(|e| CommandError::Usage(e.to_string()))?;
    }
    with_backend!(args.board.kind, B => match &args.bench {
        Some(file) => bench::<B>(&tables, file, args.rounds),
        None => probe::<B>(&tables, args),
    })
}

fn usage(e: fianchetto_syzygy::SyzygyError) -> CommandError {
    CommandError::Usage(e.to_string())
}

/// Prints `wdl N`, `dtz N`, `best <uci> <san> dtz N` and with `--moves` a
/// line `<uci> <san> wdl N dtz N` per legal move, best first.
fn probe<B: MoveGen>(tables: &Tablebase, args: &SyzygyArgs) -> Result<(), CommandError> {
    let board = B::from_fen(args.fen.as_deref().unwrap_or_default())?;
    say!("wdl {}", tables.probe_wdl(&board).map_err(usage)?.value());
    say!("dtz {}", tables.probe_dtz(&board).map_err(usage)?);
    let moves = tables.root_moves(&board, true).map_err(usage)?;
    match moves.first() {
        Some(best) => say!(
            "best {} {} dtz {}",
            to_uci(&board, best.mv, CastlingMode::Standard),
            to_san(&board, best.mv).unwrap_or_else(|_| best.mv.to_string()),
            best.dtz
        ),
        None => say!("best none"),
    }
    if args.moves {
        for m in &moves {
            say!(
                "{} {} wdl {} dtz {}",
                to_uci(&board, m.mv, CastlingMode::Standard),
                to_san(&board, m.mv).unwrap_or_else(|_| m.mv.to_string()),
                m.wdl.value(),
                m.dtz
            );
        }
    }
    Ok(())
}

/// Times `rounds` passes of WDL probes, then of DTZ probes, over the file's
/// positions; prints `wdl N probes/s` and `dtz N probes/s`.
fn bench<B: MoveGen>(tables: &Tablebase, file: &PathBuf, rounds: u32) -> Result<(), CommandError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| CommandError::Usage(format!("{}: {e}", file.display())))?;
    let mut boards = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let board = B::from_fen(line)
            .map_err(|e| CommandError::Usage(format!("{} line {}: {e}", file.display(), n + 1)))?;
        // Open every table the positions need before timing.
        tables.probe_dtz(&board).map_err(usage)?;
        boards.push(board);
    }
    say!(
        "{} positions, {rounds} rounds, backend {}",
        boards.len(),
        B::NAME
    );
    let mut check = 0i64;
    let start = Instant::now();
    for _ in 0..rounds {
        for b in &boards {
            check += tables.probe_wdl(b).map_err(usage)?.value() as i64;
        }
    }
    let wdl_rate = (boards.len() as f64 * rounds as f64) / start.elapsed().as_secs_f64();
    let start = Instant::now();
    for _ in 0..rounds {
        for b in &boards {
            check += tables.probe_dtz(b).map_err(usage)? as i64;
        }
    }
    let dtz_rate = (boards.len() as f64 * rounds as f64) / start.elapsed().as_secs_f64();
    say!("wdl {wdl_rate:.0} probes/s");
    say!("dtz {dtz_rate:.0} probes/s");
    say!("checksum {check}");
    Ok(())
}
