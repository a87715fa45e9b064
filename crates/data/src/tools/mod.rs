//! Training data files of either format, read and written game by game:
//! what `fianchetto data stats|convert|merge|dedup` and the trainer use.
//!
//! A file is told to be in the [games format](crate::games) or in
//! [marlinformat](crate::marlin) by its content (the games header), never
//! by its name. A [visits](crate::visits) file (its own header) is counted
//! by [`visit_stats`]; the other tools refuse it. Marlinformat is read as games too: consecutive records one
//! legal move apart with the same result are joined into one game (its
//! last entry's move unknown), the others stand alone. So a marlinformat
//! file converted to the games format and back is the same file, record for
//! record; what marlinformat cannot say (the moves that left a record
//! unjoined, why and how a game ended, positions it skipped) is simply not
//! there to keep.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_data::tools::{copy, CopyOptions, DataFormat};
//! use fianchetto_data::games::Filter;
//! use fianchetto_data::marlin::{PackedBoard, Wdl};
//!
//! let dir = std::env::temp_dir().join(format!("data-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! // Two marlinformat records of one game, 1. e4 and the position after it.
//! let mut board = Bitboards::startpos();
//! let mut bytes = PackedBoard::pack(&board, 30, Wdl::Draw).to_bytes().to_vec();
//! board.play_unchecked(fianchetto_movegen::uci::parse_uci(&board, "e2e4")?);
//! bytes.extend_from_slice(&PackedBoard::pack(&board, 25, Wdl::Draw).to_bytes());
//! std::fs::write(dir.join("a.bin"), &bytes)?;
//!
//! let options = |to| CopyOptions { to, filter: Filter::NONE, ..CopyOptions::default() };
//! let games = copy(&[dir.join("a.bin")], &dir.join("a.games"), &options(DataFormat::Games))?;
//! assert_eq!((games.games_written, games.positions_written), (1, 2));
//! copy(&[dir.join("a.games")], &dir.join("b.bin"), &options(DataFormat::Marlin))?;
//! assert_eq!(std::fs::read(dir.join("b.bin"))?, bytes);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod chain;
mod copy;
mod stats;
mod visit_stats;

/// Where a games file ends inside a game (defined with the games format).
pub use crate::games::CutShort;
pub use copy::{copy, CopyOptions, CopySummary};
pub use stats::{stats, Stats, SCORE_BINS};
pub use visit_stats::{visit_stats, Spread, VisitStats};

use crate::games::{
    self, Filter, FilterCounts, GameError, GameReader, GameRecord, GamesError, Location,
};
use crate::marlin::{DataError, PackedBoard, RECORD_SIZE};
use crate::visits::VisitReader;
use chain::Chains;
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The two binary formats of training data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DataFormat {
    /// Whole games ([`crate::games`]).
    #[default]
    Games,
    /// One 32-byte record per position ([`crate::marlin`]).
    Marlin,
}

impl DataFormat {
    /// The format of the file at `path`, by its content: the games header,
    /// or else a whole number of 32-byte records.
    pub fn detect(path: &Path) -> Result<DataFormat, DataFileError> {
        let io = |source| DataFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        if GameReader::is_games_file(path).map_err(io)? {
            return Ok(DataFormat::Games);
        }
        if VisitReader::is_visits_file(path).map_err(io)? {
            return Err(DataFileError::VisitsFile(path.to_path_buf()));
        }
        let len = std::fs::metadata(path).map_err(io)?.len();
        if len % RECORD_SIZE as u64 != 0 {
            return Err(DataFileError::Unknown {
                path: path.to_path_buf(),
                len,
            });
        }
        Ok(DataFormat::Marlin)
    }

    /// The format's name as the command line writes it.
    pub fn name(self) -> &'static str {
        match self {
            DataFormat::Games => "games",
            DataFormat::Marlin => "marlin",
        }
    }
}

/// What went wrong reading or writing data files.
#[derive(Debug, thiserror::Error)]
pub enum DataFileError {
    /// A file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// A games file is damaged.
    #[error(transparent)]
    Games(#[from] GamesError),
    /// A marlinformat file is damaged.
    #[error(transparent)]
    Marlin(#[from] DataError),
    /// A file of neither format.
    #[error("{path}: neither a games file (no FIANGAME header) nor marlinformat ({len} bytes is not a whole number of 32-byte records)")]
    Unknown {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: u64,
    },
    /// A visits file where games or marlinformat are read.
    #[error("{0}: a visits file (root visit distributions): `data stats` and `train --policy` read it, the other tools read games and marlinformat only")]
    VisitsFile(PathBuf),
    /// The output exists (and `force` was not given).
    #[error("{0}: exists; choose another output or overwrite it on purpose (--force)")]
    OutputExists(PathBuf),
    /// The output is one of the inputs.
    #[error("{0}: is an input too; write to another file")]
    OutputIsInput(PathBuf),
}

/// A data file of either format, read game by game (see the [module
/// documentation](self) for marlinformat).
pub struct GameSource {
    path: PathBuf,
    len: u64,
    kind: SourceKind,
}

enum SourceKind {
    Games(GameReader),
    Marlin(Chains),
}

impl GameSource {
    /// Opens `path`, telling its format by content.
    pub fn open(path: &Path) -> Result<GameSource, DataFileError> {
        let format = DataFormat::detect(path)?;
        let len = std::fs::metadata(path)
            .map_err(|source| DataFileError::Io {
                path: path.to_path_buf(),
                source,
            })?
            .len();
        let kind = match format {
            DataFormat::Games => SourceKind::Games(GameReader::open(path)?.ending_at_cut()),
            DataFormat::Marlin => SourceKind::Marlin(Chains::open(path)?),
        };
        Ok(GameSource {
            path: path.to_path_buf(),
            len,
            kind,
        })
    }

    /// The file's format.
    pub fn format(&self) -> DataFormat {
        match self.kind {
            SourceKind::Games(_) => DataFormat::Games,
            SourceKind::Marlin(_) => DataFormat::Marlin,
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes read so far, and the file's length.
    pub fn progress(&self) -> (u64, u64) {
        let read = match &self.kind {
            SourceKind::Games(r) => r.offset(),
            SourceKind::Marlin(c) => c.records_read() * RECORD_SIZE as u64,
        };
        (read, self.len)
    }

    /// Reads the next game into `game` (reusing its memory); `None` at the
    /// end. For marlinformat the location's offset is its first record's.
    /// A games file that ends inside a game (a copy cut short, or a file a
    /// running `datagen` is writing) ends before it: the half-written game
    /// is left out and [`cut_short`](GameSource::cut_short) says where it
    /// was. Any other damage is an error.
    pub fn next_game(&mut self, game: &mut GameRecord) -> Result<Option<Location>, DataFileError> {
        match &mut self.kind {
            SourceKind::Games(r) => Ok(r.read_into(game)?),
            SourceKind::Marlin(c) => {
                let games_before = c.games_read();
                Ok(c.next_game(game)?.map(|first| Location {
                    game: games_before,
                    offset: first * RECORD_SIZE as u64,
                }))
            }
        }
    }

    /// Where the file ended inside a game, once
    /// [`next_game`](GameSource::next_game) has met it.
    pub fn cut_short(&self) -> Option<&CutShort> {
        match &self.kind {
            SourceKind::Games(r) => r.cut_short(),
            SourceKind::Marlin(_) => None,
        }
    }

    /// The error for a game at `at` that does not replay.
    pub fn error_at(&self, at: Location, error: GameError) -> DataFileError {
        DataFileError::Games(GamesError::Game {
            path: self.path.clone(),
            game: at.game,
            offset: at.offset,
            error: Box::new(error),
        })
    }
}

/// Writes a data file of either format: to a temporary file beside it,
/// renamed into place by [`finish`](DataSink::finish), so that a run that
/// fails leaves no half-written output (and an existing file untouched).
pub struct DataSink {
    path: PathBuf,
    tmp: PathBuf,
    format: DataFormat,
    filter: Filter,
    writer: BufWriter<File>,
    buffer: Vec<u8>,
    records: Vec<PackedBoard>,
    /// What the filter kept and skipped (marlinformat output).
    pub counts: FilterCounts,
    /// Games written (games format) or given (marlinformat).
    pub games: u64,
    /// Positions written.
    pub positions: u64,
}

impl DataSink {
    /// Creates the output `path` in `format`; in marlinformat only the
    /// positions `filter` keeps are written (a games file keeps every
    /// position). An existing file is refused unless `force`.
    pub fn create(
        path: &Path,
        format: DataFormat,
        filter: Filter,
        force: bool,
    ) -> Result<DataSink, DataFileError> {
        if !force && path.exists() {
            return Err(DataFileError::OutputExists(path.to_path_buf()));
        }
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(format!(".tmp-{}", std::process::id()));
        let tmp = PathBuf::from(tmp);
        let file = File::create(&tmp).map_err(|source| DataFileError::Io {
            path: tmp.clone(),
            source,
        })?;
        let mut sink = DataSink {
            path: path.to_path_buf(),
            tmp,
            format,
            filter,
            writer: BufWriter::with_capacity(1 << 20, file),
            buffer: Vec::new(),
            records: Vec::new(),
            counts: FilterCounts::default(),
            games: 0,
            positions: 0,
        };
        if format == DataFormat::Games {
            sink.writer
                .write_all(&games::header())
                .map_err(|source| DataFileError::Io {
                    path: sink.tmp.clone(),
                    source,
                })?;
        }
        Ok(sink)
    }

    /// Writes `game` (whole, or as the marlinformat records of its
    /// positions that the filter keeps). A game that does not replay is
    /// refused with its error, made by `bad` (which knows where the game
    /// came from), and nothing is written.
    pub fn write_game(
        &mut self,
        game: &GameRecord,
        bad: impl FnOnce(GameError) -> DataFileError,
    ) -> Result<(), DataFileError> {
        self.buffer.clear();
        let positions = match self.format {
            DataFormat::Games => {
                game.replay(|_, _, _| {})
                    .and_then(|()| game.write_to(&mut self.buffer))
                    .map_err(bad)?;
                game.entries.len() as u64
            }
            DataFormat::Marlin => {
                self.records.clear();
                game.expand(&self.filter, &mut self.records, &mut self.counts)
                    .map_err(bad)?;
                for r in &self.records {
                    self.buffer.extend_from_slice(&r.to_bytes());
                }
                self.records.len() as u64
            }
        };
        self.writer
            .write_all(&self.buffer)
            .map_err(|source| DataFileError::Io {
                path: self.tmp.clone(),
                source,
            })?;
        self.games += 1;
        self.positions += positions;
        Ok(())
    }

    /// Flushes the output and renames it into place.
    pub fn finish(mut self) -> Result<PathBuf, DataFileError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| DataFileError::Io { path, source }
        };
        self.writer.flush().map_err(io(&self.tmp))?;
        std::fs::rename(&self.tmp, &self.path).map_err(io(&self.path))?;
        Ok(self.path.clone())
    }
}

impl Drop for DataSink {
    fn drop(&mut self) {
        // After `finish` the temporary file is gone; otherwise it is removed.
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// A progress bar over the bytes of `total` input, or nothing when hidden.
pub(crate) fn byte_bar(total: u64, visible: bool) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} ETA {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}
