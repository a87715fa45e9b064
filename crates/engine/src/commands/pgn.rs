//! `fianchetto pgn`: read a PGN file, checking every move. `--stats` counts
//! games, plies, errors and warnings; otherwise the games are written back
//! to standard output in export format. Malformed games are reported on
//! standard error and skipped.

use super::flags::BackendFlag;
use super::CommandError;
use crate::{say, with_backend};
use fianchetto_movegen::pgn::{GameBuilder, PgnError, ReadError, Reader, Replay, Visitor, Writer};
use fianchetto_movegen::MoveGen;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `fianchetto pgn`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("backend", |a| a.help("Board backend the moves are played on")))]
pub struct PgnArgs {
    /// The PGN file (`-`: standard input).
    pub file: PathBuf,
    /// Print `games N` (every game, the malformed ones included), `plies N`
    /// (main-line half-moves of the games read without error), `errors N`
    /// (malformed games), `warnings N` (irregularities read anyway: moves in
    /// UCI notation, malformed tags, ...) and the reading speed, instead of
    /// the games.
    #[arg(long)]
    pub stats: bool,
    /// Do not play the variations (faster; their moves go unchecked).
    #[arg(long)]
    pub skip_variations: bool,
    /// `--backend`.
    #[command(flatten)]
    pub board: BackendFlag,
    /// No progress bar, and no line per malformed game on standard error.
    #[arg(long)]
    pub quiet: bool,
}

/// Counts of a run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PgnStats {
    /// Games begun, the malformed ones included.
    pub games: u64,
    /// Main-line half-moves of the games read without error.
    pub plies: u64,
    /// Malformed games.
    pub errors: u64,
    /// Irregularities the reader accepted.
    pub warnings: u64,
    /// Bytes read.
    pub bytes: u64,
}

/// Runs `pgn`.
pub fn run(args: &PgnArgs) -> Result<(), CommandError> {
    let start = Instant::now();
    let (input, len): (Box<dyn Read>, Option<u64>) = if args.file.as_os_str() == "-" {
        (Box::new(io::stdin().lock()), None)
    } else {
        let file = std::fs::File::open(&args.file).map_err(|e| {
            CommandError::Usage(format!("cannot open {}: {e}", args.file.display()))
        })?;
        let len = file.metadata().ok().map(|m| m.len());
        (Box::new(file), len)
    };
    let bar = progress_bar(len, args.quiet);
    let reader = Reader::from_buf_read(BufReader::with_capacity(1 << 16, input));
    let stats = with_backend!(args.board.kind, B => read_all::<B, _>(reader, args, &bar))?;
    bar.finish_and_clear();
    if args.stats {
        let seconds = start.elapsed().as_secs_f64().max(1e-9);
        say!("games {}", stats.games);
        say!("plies {}", stats.plies);
        say!("errors {}", stats.errors);
        say!("warnings {}", stats.warnings);
        say!(
            "speed {:.1} MB/s, {:.0} games/s ({:.2} s)",
            stats.bytes as f64 / 1e6 / seconds,
            stats.games as f64 / seconds,
            seconds
        );
    }
    Ok(())
}

/// A bar over the file's bytes on standard error (drawn only on a
/// terminal), or a spinner when the length is unknown.
fn progress_bar(len: Option<u64>, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let (bar, template) = match len {
        Some(len) => (
            ProgressBar::new(len),
            "{bar:40} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} ETA {eta} {msg}",
        ),
        None => (
            ProgressBar::new_spinner(),
            "{spinner} {binary_bytes} {binary_bytes_per_sec} {msg}",
        ),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Reads every game with the visitor `--stats` and `--skip-variations` ask
/// for, writing the games (without `--stats`) and reporting errors.
fn read_all<B: MoveGen, R: BufRead>(
    reader: Reader<R>,
    args: &PgnArgs,
    bar: &ProgressBar,
) -> Result<PgnStats, CommandError> {
    if args.stats {
        let replay = Replay::<B>::new().check_variations(!args.skip_variations);
        each_game(reader, replay, args, bar, |game| u64::from(game.plies))
    } else {
        let builder = GameBuilder::<B>::new().variations(!args.skip_variations);
        let stdout = io::stdout();
        let mut writer = Writer::new(io::BufWriter::new(stdout.lock()));
        let mut failed = None;
        let stats = each_game(reader, builder, args, bar, |game| {
            if failed.is_none() {
                if let Err(e) = writer.write_game(&game) {
                    failed = Some(e);
                }
            }
            game.game.moves().len() as u64
        })?;
        if let Some(e) = failed {
            return Err(match e {
                fianchetto_movegen::pgn::WriteError::Io(e) => CommandError::Io(e),
                other => CommandError::Usage(other.to_string()),
            });
        }
        writer.into_inner().flush()?;
        Ok(stats)
    }
}

/// Feeds every game to `visitor` and what it makes of it to `each`, which
/// returns the game's plies.
fn each_game<R: BufRead, V: Visitor>(
    mut reader: Reader<R>,
    mut visitor: V,
    args: &PgnArgs,
    bar: &ProgressBar,
    mut each: impl FnMut(V::Output) -> u64,
) -> Result<PgnStats, CommandError> {
    let mut stats = PgnStats::default();
    loop {
        match reader.read_game(&mut visitor) {
            Ok(Some(game)) => stats.plies += each(game),
            Ok(None) => break,
            Err(ReadError::Game(e)) => report(&e, args, bar),
            Err(e) => return Err(CommandError::Usage(e.to_string())),
        }
        if reader.games_read() % 256 == 0 {
            bar.set_position(reader.bytes_read());
            bar.set_message(format!("{} games", reader.games_read()));
        }
    }
    stats.games = reader.games_read();
    stats.errors = reader.errors();
    stats.warnings = reader.warnings();
    stats.bytes = reader.bytes_read();
    Ok(stats)
}

fn report(e: &PgnError, args: &PgnArgs, bar: &ProgressBar) {
    if !args.quiet {
        bar.suspend(|| eprintln!("error: {e}"));
    }
}
