//! `data convert|merge|dedup`: games read from any number of files of
//! either format, checked, optionally deduplicated, written to one file of
//! either format.

use super::{byte_bar, CutShort, DataFileError, DataFormat, DataSink, GameSource};
use crate::games::{Filter, FilterCounts, GameRecord, NO_SCORE};
use fianchetto_board::Board;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};

/// How [`copy`] writes its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyOptions {
    /// The output's format.
    pub to: DataFormat,
    /// Which positions a marlinformat output keeps (a games output keeps
    /// every position).
    pub filter: Filter,
    /// Keep each position (by its Zobrist key: placement, side to move,
    /// castling, en passant; not the clocks) once: later occurrences are
    /// dropped from a marlinformat output, and lose their score in a games
    /// output (the game stays whole; a game left without any score is
    /// dropped).
    pub dedup: bool,
    /// Overwrite an existing output.
    pub force: bool,
    /// Draw a progress bar on standard error.
    pub progress: bool,
}

impl Default for CopyOptions {
    fn default() -> CopyOptions {
        CopyOptions {
            to: DataFormat::Games,
            filter: Filter::default(),
            dedup: false,
            force: false,
            progress: false,
        }
    }
}

/// What [`copy`] did.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CopySummary {
    /// Games read (marlinformat: runs of consecutive records).
    pub games_read: u64,
    /// Positions read.
    pub positions_read: u64,
    /// Games written (or, for marlinformat, whose positions were written).
    pub games_written: u64,
    /// Positions written.
    pub positions_written: u64,
    /// Positions seen before (with `dedup`).
    pub duplicates: u64,
    /// Games dropped because every position was a duplicate.
    pub games_dropped: u64,
    /// What the filter kept and skipped (marlinformat output).
    pub counts: FilterCounts,
    /// The games files that ended inside a game (their whole games were
    /// copied, the half-written one left out).
    pub cut_short: Vec<CutShort>,
}

/// A hasher that passes a Zobrist key through: the keys are random already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// Reads every game of `inputs` in order (either format, each checked move
/// by move) and writes them to `output` as `options` say. A games file that
/// ends inside a game (cut short, or still being written) gives its whole
/// games and is listed in [`CopySummary::cut_short`]. The output is
/// written to a temporary file and renamed into place at the end, so a
/// failure leaves no partial output. Deduplication holds one key per
/// distinct position in memory (about 16 bytes each).
pub fn copy(
    inputs: &[PathBuf],
    output: &Path,
    options: &CopyOptions,
) -> Result<CopySummary, DataFileError> {
    if let Ok(out) = output.canonicalize() {
        for input in inputs {
            if input.canonicalize().is_ok_and(|i| i == out) {
                return Err(DataFileError::OutputIsInput(output.to_path_buf()));
            }
        }
    }
    let mut sources = Vec::new();
    for path in inputs {
        sources.push(GameSource::open(path)?);
    }
    let total = sources.iter().map(|s| s.progress().1).sum();
    let bar = byte_bar(total, options.progress);
    let mut sink = DataSink::create(output, options.to, options.filter, options.force)?;
    let mut summary = CopySummary::default();
    let mut seen = KeySet::default();
    let mut keys = Vec::new();
    let mut game = GameRecord::default();
    let mut done = 0;
    for mut source in sources {
        while let Some(at) = source.next_game(&mut game)? {
            summary.games_read += 1;
            summary.positions_read += game.entries.len() as u64;
            if options.dedup {
                keys.clear();
                game.replay(|_, board, _| keys.push(board.hash()))
                    .map_err(|e| source.error_at(at, e))?;
                let mut scored = 0;
                for (entry, &key) in game.entries.iter_mut().zip(&keys) {
                    if entry.score == NO_SCORE {
                        continue;
                    }
                    if seen.insert(key) {
                        scored += 1;
                    } else {
                        entry.score = NO_SCORE;
                        summary.duplicates += 1;
                    }
                }
                if scored == 0 {
                    summary.games_dropped += 1;
                    continue;
                }
            }
            sink.write_game(&game, |e| source.error_at(at, e))?;
            if summary.games_read % 1024 == 0 {
                bar.set_position(done + source.progress().0);
                bar.set_message(format!("{} games", summary.games_read));
            }
        }
        done += source.progress().1;
        summary.cut_short.extend(source.cut_short().cloned());
    }
    bar.finish_and_clear();
    summary.games_written = sink.games;
    summary.positions_written = sink.positions;
    summary.counts = sink.counts;
    sink.finish()?;
    Ok(summary)
}
