//! `fianchetto fit-probcut`: Buro's ProbCut regressions measured on many
//! positions (see `fianchetto_tune::probcut`), printed and written as the
//! table the search's ProbCut reads.

use super::flags::{HashFlag, ThreadsFlag};
use super::CommandError;
use crate::say;
use fianchetto_tune::probcut::{
    fit, format_table, generate_positions, observe_all, parse_pairs, read_positions, FitConfig,
};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `fianchetto fit-probcut`. `--threads` and `--hash` are
/// the search flags' own; `--threads` counts positions searched at once.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("threads", |a| a.help("Positions searched at once (each search runs on one thread)")),
    mut_arg("hash", |a| a.help("Hash table per searcher, in MB")),
)]
pub struct FitProbcutArgs {
    /// Positions to search.
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u32).range(3..))]
    pub positions: u32,
    /// Depth pairs SHALLOW:DEEP, comma-separated.
    #[arg(long, default_value = "1:4,2:5,3:6,4:7,5:8,6:9", value_parser = pairs_arg)]
    pub pairs: Pairs,
    /// Positions from this file (marlinformat or FEN/EPD lines), spread
    /// evenly over it; default: positions of fresh self-play games.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Positions searched at once (`--threads`).
    #[command(flatten)]
    pub parallel: ThreadsFlag,
    /// Hash table per searcher (`--hash`).
    #[command(flatten)]
    pub table: HashFlag,
    /// Scores beyond ± this (centipawns) are left out of the fit.
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(i32).range(50..=30_000))]
    pub max_score: i32,
    /// Seed of the generated games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The table file.
    #[arg(long, default_value = "probcut.txt")]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// A list of depth pairs, as `--pairs` gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairs(pub Vec<(i32, i32)>);

fn pairs_arg(s: &str) -> Result<Pairs, String> {
    parse_pairs(s).map(Pairs)
}

/// Runs `fit-probcut`.
pub fn run(args: &FitProbcutArgs) -> Result<(), CommandError> {
    let started = Instant::now();
    let count = args.positions as usize;
    let pairs = args.pairs.0.clone();
    let positions = match &args.data {
        Some(path) => {
            read_positions(path, count).map_err(|e| CommandError::Usage(e.to_string()))?
        }
        None => {
            say!("generating {count} positions by self-play …");
            generate_positions(count, args.seed)
        }
    };
    let config = FitConfig {
        pairs: pairs.clone(),
        max_score: args.max_score,
        hash_mb: args.table.mb as usize,
        threads: args.parallel.count as usize,
        progress: !args.quiet,
    };
    say!(
        "searching {} positions to depth {} …",
        positions.len(),
        pairs.iter().map(|p| p.1).max().unwrap_or(0)
    );
    let observations = observe_all(&positions, &config);
    let fits = fit(&observations, &pairs, args.max_score);
    say!(
        "{:>7} {:>5} {:>8} {:>8} {:>8} {:>7} {:>6}",
        "pair",
        "phase",
        "a",
        "b",
        "sigma",
        "R2",
        "n"
    );
    for f in &fits {
        say!(
            "{:>7} {:>5} {:>8.4} {:>8.2} {:>8.2} {:>7.4} {:>6}",
            format!("{}:{}", f.shallow, f.deep),
            f.phase.map_or("all".to_string(), |p| p.to_string()),
            f.fit.a,
            f.fit.b,
            f.fit.sigma,
            f.fit.r2,
            f.fit.n
        );
    }
    std::fs::write(&args.out, format_table(&fits))
        .map_err(|e| CommandError::Usage(format!("{}: {e}", args.out.display())))?;
    say!(
        "written to {} ({:.1} s)",
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
