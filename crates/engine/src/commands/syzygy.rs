//! `fianchetto syzygy --path DIR --fen FEN`: what the Syzygy tables say of a
//! position (WDL, DTZ, the best move, every move with `--moves`), and
//! `--bench FILE`: probes per second over a file of positions, and
//! `--verify DIR [--checksums FILE]`: every table file of a folder decoded
//! whole and checked (and its MD5 sum compared with a list).

use super::flags::BackendFlag;
use super::CommandError;
use crate::{say, with_backend};
use fianchetto_board::CastlingMode;
use fianchetto_movegen::{to_san, to_uci, MoveGen};
use fianchetto_syzygy::{Material, SyzygyError, Tablebase};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `fianchetto syzygy`.
#[derive(Debug, clap::Args)]
pub struct SyzygyArgs {
    /// Directories of tables (`KQvKR.rtbw`, `KQvKR.rtbz`, ...): the option
    /// may be repeated, and each may hold several separated by `:` (`;` on
    /// Windows), as in the UCI option SyzygyPath.
    #[arg(long, required_unless_present = "verify")]
    pub path: Vec<String>,
    /// The position to probe (no castling rights).
    #[arg(long, required_unless_present_any = ["bench", "verify"])]
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
    /// Instead: check every table file (`.rtbw`, `.rtbz`) of this folder,
    /// every block decoded; names each bad file and fails if any is.
    #[arg(long, conflicts_with_all = ["path", "fen", "moves", "bench"])]
    pub verify: Option<PathBuf>,
    /// With `--verify`: a file of MD5 sums as `md5sum` writes them (`HEX
    /// NAME` lines); each table file listed must match its sum.
    #[arg(long, requires = "verify")]
    pub checksums: Option<PathBuf>,
    /// With `--verify`: also walk every position of each material of at
    /// most this many pieces whose files passed, checking each position's
    /// WDL against its best move's and its DTZ against its WDL (minutes
    /// for the 4-piece tables; 0 walks none).
    #[arg(long, requires = "verify", default_value_t = 4)]
    pub walk_pieces: u32,
    /// `--backend`.
    #[command(flatten)]
    pub board: BackendFlag,
}

/// Runs `syzygy`.
pub fn run(args: &SyzygyArgs) -> Result<(), CommandError> {
    if let Some(dir) = &args.verify {
        verify(dir, args.checksums.as_deref())?;
        return with_backend!(args.board.kind, B => walk::<B>(dir, args.walk_pieces));
    }
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
    let wdl = tables.probe_wdl(&board).map_err(usage)?.value();
    let dtz = tables.probe_dtz(&board).map_err(usage)?;
    let moves = tables.root_moves(&board, true).map_err(usage)?;
    say!("wdl {wdl}");
    say!("dtz {dtz}");
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

/// Reads a file of MD5 sums (`HEX  NAME` lines, as `md5sum` writes them;
/// a `*` before the name, binary mode, is allowed): the sums by file name.
fn read_checksums(file: &Path) -> Result<HashMap<String, String>, CommandError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| CommandError::Usage(format!("{}: {e}", file.display())))?;
    let mut sums = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || {
            CommandError::Usage(format!(
                "{} line {}: not an MD5 sum and a file name: `{line}`",
                file.display(),
                n + 1
            ))
        };
        let (hex, name) = line.split_once(char::is_whitespace).ok_or_else(bad)?;
        let name = name.trim_start();
        let name = name.strip_prefix('*').unwrap_or(name);
        if hex.len() != 32 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) || name.is_empty() {
            return Err(bad());
        }
        // A name with a folder (`./KQvK.rtbw`, `3-4-5/KQvK.rtbw`) counts by
        // its last part.
        let name = name.rsplit('/').next().unwrap_or(name);
        sums.insert(name.to_string(), hex.to_ascii_lowercase());
    }
    Ok(sums)
}

/// `--verify DIR [--checksums FILE]`: prints `ok NAME` or `bad NAME: what`
/// for each table file of `dir` in name order, then a count; fails when a
/// file is bad: refused by [`fianchetto_syzygy::verify_file`], or with
/// `checksums`, not listed there or with another MD5 sum.
fn verify(dir: &Path, checksums: Option<&Path>) -> Result<(), CommandError> {
    let sums = match checksums {
        Some(file) => Some(read_checksums(file)?),
        None => None,
    };
    let listing = |e: std::io::Error| CommandError::Usage(format!("{}: {e}", dir.display()));
    let mut names = Vec::new();
    for item in std::fs::read_dir(dir).map_err(listing)? {
        let name = item
            .map_err(listing)?
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".rtbw") || name.ends_with(".rtbz") {
            names.push(name);
        }
    }
    names.sort();
    if names.is_empty() {
        return Err(CommandError::Usage(format!(
            "no Syzygy tables (files such as KQvKR.rtbw or KQvKR.rtbz) in {}",
            dir.display()
        )));
    }
    let mut bad = 0;
    for name in &names {
        let path = dir.join(name);
        let mut problems = Vec::new();
        if let Err(e) = fianchetto_syzygy::verify_file(&path) {
            problems.push(match e {
                fianchetto_syzygy::SyzygyError::BadTable { problem, .. } => problem.to_string(),
                other => other.to_string(),
            });
        }
        if let Some(sums) = &sums {
            match sums.get(name) {
                Some(want) => match fianchetto_syzygy::file_md5(&path) {
                    Ok(got) if &got == want => {}
                    Ok(got) => problems.push(format!("MD5 {got}, the checksum file says {want}")),
                    Err(e) => problems.push(format!("cannot read the file: {e}")),
                },
                None => problems.push("not in the checksum file".to_string()),
            }
        }
        if problems.is_empty() {
            say!("ok {name}");
        } else {
            bad += 1;
            say!("bad {name}: {}", problems.join("; "));
        }
    }
    // Sums of files not in the folder are left alone: a folder may hold
    // part of the tables a checksum file lists.
    say!("{} table files, {bad} bad", names.len());
    if bad > 0 {
        return Err(CommandError::Usage(format!(
            "{bad} bad table files in {}",
            dir.display()
        )));
    }
    Ok(())
}

/// The walk of `--verify`: every material of `dir` with at most
/// `max_pieces` pieces, in name order, checked position by position
/// ([`Tablebase::check_material`]) on every core, with a progress bar.
/// Prints `consistent NAME: N positions`, `contradiction NAME: ...` or
/// `not walked NAME: ...` (a table a capture leads to is missing); fails
/// when a material contradicts itself.
fn walk<B: MoveGen>(dir: &Path, max_pieces: u32) -> Result<(), CommandError> {
    if max_pieces == 0 {
        return Ok(());
    }
    let mut tables = Tablebase::new();
    tables.add_directory(dir).map_err(usage)?;
    let mut materials: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| CommandError::Usage(format!("{}: {e}", dir.display())))?
        .filter_map(|item| {
            let name = item.ok()?.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".rtbw")?;
            let material = Material::from_name(stem)?;
            (material.pieces() <= max_pieces).then(|| stem.to_string())
        })
        .collect();
    materials.sort_by_key(|name| (name.len(), name.clone()));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut bad = 0;
    for name in &materials {
        let Some(material) = Material::from_name(name) else {
            continue;
        };
        let bar = ProgressBar::new(0);
        bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} ETA {eta} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(name.clone());
        let result = tables.check_material::<B>(&material, threads, &|done, total| {
            bar.set_length(total);
            bar.set_position(done);
        });
        bar.finish_and_clear();
        match result {
            Ok(n) => say!("consistent {name}: {n} positions"),
            Err(e @ SyzygyError::Contradiction { .. }) => {
                bad += 1;
                say!("contradiction {name}: {e}");
            }
            Err(e) => say!("not walked {name}: {e}"),
        }
    }
    if bad > 0 {
        return Err(CommandError::Usage(format!(
            "{bad} materials of {} contradict themselves",
            dir.display()
        )));
    }
    Ok(())
}
