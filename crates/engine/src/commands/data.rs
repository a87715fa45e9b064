//! `fianchetto data stats|convert|merge|dedup`: training data files of
//! either format (games or marlinformat, told apart by content); `stats`
//! also counts visits files (root visit distributions).

use super::CommandError;
use crate::say;
use fianchetto_data::games::{Filter, Skip};
use fianchetto_data::tools::{self as data, CopyOptions, CopySummary, DataFormat};
use fianchetto_data::visits::VisitReader;
use std::path::PathBuf;

/// Arguments of `fianchetto data`.
#[derive(Debug, clap::Args)]
pub struct DataArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: DataAction,
}

/// The data tools.
#[derive(Debug, clap::Subcommand)]
pub enum DataAction {
    /// Count games, positions, results, endings, scores, and what a filter
    /// keeps (of visits files: games, positions, root moves, visits,
    /// results).
    Stats(StatsArgs),
    /// Write one file in the other format (or the same: a checked copy).
    Convert(ConvertArgs),
    /// Join files (of either format) into one.
    Merge(MergeArgs),
    /// Join files keeping each position once (by its Zobrist key).
    Dedup(MergeArgs),
}

/// The default filter, as `--filter` writes it.
const DEFAULT_FILTER: &str = "check,tactical,mates";

/// Arguments of `fianchetto data stats`.
#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// Data files (games or marlinformat; or visits files, all of them).
    #[arg(required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// The filter whose kept and skipped positions are counted: rules
    /// `check`, `tactical`, `mates`, `first=N`, `max-score=CP`,
    /// comma-separated, or `none`.
    #[arg(long, default_value = DEFAULT_FILTER)]
    pub filter: Filter,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The output settings `convert`, `merge` and `dedup` share.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// The output's format: `games` keeps every position of every game;
    /// `marlin` writes the positions the filter keeps, 32 bytes each.
    #[arg(long, value_enum, default_value_t = ToFormat::Games)]
    pub to: ToFormat,
    /// For `--to marlin`: which positions are written (rules `check`,
    /// `tactical`, `mates`, `first=N`, `max-score=CP`, comma-separated, or
    /// `none`). Default: check,tactical,mates. A games output keeps
    /// everything; filter it when reading.
    #[arg(long)]
    pub filter: Option<Filter>,
    /// Overwrite the output if it exists.
    #[arg(long)]
    pub force: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `fianchetto data convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// The input (games or marlinformat).
    pub input: PathBuf,
    /// The output.
    pub output: PathBuf,
    /// Output settings.
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Arguments of `fianchetto data merge` and `dedup`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The inputs (games or marlinformat, mixed as you like), in order.
    #[arg(required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    /// The output.
    #[arg(long)]
    pub out: PathBuf,
    /// Output settings.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The formats, as `--to` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ToFormat {
    /// Whole games.
    Games,
    /// Marlinformat records.
    Marlin,
}

/// Runs `data`.
pub fn run(args: &DataArgs) -> Result<(), CommandError> {
    let usage = |e: &dyn std::fmt::Display| CommandError::Usage(e.to_string());
    match &args.action {
        DataAction::Stats(a) => {
            let mut visits = 0;
            for path in &a.files {
                visits += VisitReader::is_visits_file(path)
                    .map_err(|e| usage(&format!("{}: {e}", path.display())))?
                    as usize;
            }
            let text = if visits == 0 {
                data::stats(&a.files, &a.filter, !a.quiet)
                    .map_err(|e| usage(&e))?
                    .to_string()
            } else if visits == a.files.len() {
                data::visit_stats(&a.files, !a.quiet)
                    .map_err(|e| usage(&e))?
                    .to_string()
            } else {
                return Err(CommandError::Usage(
                    "data stats: visits files are counted apart from games and marlinformat \
                     files; give one kind at a time"
                        .into(),
                ));
            };
            say!("{}", text.trim_end());
        }
        DataAction::Convert(a) => {
            let summary = copy(std::slice::from_ref(&a.input), &a.output, &a.out, false)?;
            report(&summary, &a.output)?;
        }
        DataAction::Merge(a) => {
            let summary = copy(&a.inputs, &a.out, &a.output, false)?;
            report(&summary, &a.out)?;
        }
        DataAction::Dedup(a) => {
            let summary = copy(&a.inputs, &a.out, &a.output, true)?;
            report(&summary, &a.out)?;
        }
    }
    Ok(())
}

fn copy(
    inputs: &[PathBuf],
    output: &std::path::Path,
    out: &OutputArgs,
    dedup: bool,
) -> Result<CopySummary, CommandError> {
    let to = match out.to {
        ToFormat::Games => DataFormat::Games,
        ToFormat::Marlin => DataFormat::Marlin,
    };
    if to == DataFormat::Games && out.filter.is_some() {
        return Err(CommandError::Usage(
            "--filter chooses the positions of a marlinformat output; a games file keeps every \
             position (filter it when reading it, e.g. `train --filter`)"
                .into(),
        ));
    }
    let options = CopyOptions {
        to,
        filter: out.filter.unwrap_or_default(),
        dedup,
        force: out.force,
        progress: !out.quiet,
    };
    data::copy(inputs, output, &options).map_err(|e| CommandError::Usage(e.to_string()))
}

fn report(s: &CopySummary, output: &std::path::Path) -> Result<(), CommandError> {
    say!(
        "read {} games, {} positions; wrote {} positions of {} games to {}",
        s.games_read,
        s.positions_read,
        s.positions_written,
        s.games_written,
        output.display()
    );
    if s.duplicates > 0 || s.games_dropped > 0 {
        say!(
            "duplicates: {} positions ({} games had nothing else and were dropped)",
            s.duplicates,
            s.games_dropped
        );
    }
    let skipped: Vec<String> = Skip::ALL
        .iter()
        .filter(|&&r| s.counts.skipped[r as usize] > 0)
        .map(|&r| format!("{} {}", r.name(), s.counts.skipped[r as usize]))
        .collect();
    if !skipped.is_empty() {
        say!("filtered out: {}", skipped.join(", "));
    }
    for cut in &s.cut_short {
        say!("cut short: {cut}");
    }
    Ok(())
}
