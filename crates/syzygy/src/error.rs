//! What can go wrong: a directory without tables, a missing table, a file
//! that is not a valid table, a position the tables do not hold.

use crate::Material;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The two kinds of table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Win/draw/loss (`.rtbw`).
    Wdl,
    /// Distance to zeroing the fifty-move counter (`.rtbz`).
    Dtz,
}

impl TableKind {
    /// The file extension, without the dot.
    pub const fn extension(self) -> &'static str {
        match self {
            TableKind::Wdl => "rtbw",
            TableKind::Dtz => "rtbz",
        }
    }

    /// The four bytes every file of this kind starts with.
    pub(crate) const fn magic(self) -> [u8; 4] {
        match self {
            TableKind::Wdl => [0x71, 0xe8, 0x23, 0x5d],
            TableKind::Dtz => [0xd7, 0x66, 0x0c, 0xa5],
        }
    }
}

impl fmt::Display for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableKind::Wdl => "WDL",
            TableKind::Dtz => "DTZ",
        })
    }
}

/// Why a probe or a directory failed. Cheap to clone: a table that failed to
/// open keeps its error and hands out copies, without allocating.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyzygyError {
    /// A directory given to [`Tablebase::add_directory`](crate::Tablebase::add_directory)
    /// could not be listed.
    #[error("cannot read the Syzygy directory {}: {message}", path.display())]
    Directory {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// A directory holds no file named like a table (`KQvKR.rtbw`, `KQvKR.rtbz`).
    #[error("no Syzygy tables (files such as KQvKR.rtbw or KQvKR.rtbz) in {}", path.display())]
    NoTables {
        /// The directory.
        path: PathBuf,
    },
    /// The position needs a table that none of the directories has.
    #[error("missing Syzygy table {material}.{}", kind.extension())]
    MissingTable {
        /// The table's material, named as its file would be.
        material: Material,
        /// WDL or DTZ.
        kind: TableKind,
    },
    /// A table file exists but is not a valid table.
    #[error("{}: {problem}", path.display())]
    BadTable {
        /// The file.
        path: Arc<Path>,
        /// What is wrong with it.
        problem: TableProblem,
    },
    /// The position has castling rights, which no table holds.
    #[error("the Syzygy tables hold no position with castling rights")]
    CastlingRights,
    /// The position has more pieces than the largest table loaded.
    #[error("{pieces} pieces on the board: the Syzygy tables loaded have at most {max}")]
    TooManyPieces {
        /// Pieces on the board, kings included.
        pieces: u32,
        /// The most pieces of a table loaded (at least 3: with none loaded
        /// the error is [`NoTablesLoaded`](SyzygyError::NoTablesLoaded)).
        max: u32,
    },
    /// The tablebase has no tables yet: the position (more than the two
    /// kings) needs one.
    #[error(
        "no Syzygy tables are loaded: add a directory of .rtbw and .rtbz files with \
         Tablebase::add_directory (the engine's SyzygyPath option)"
    )]
    NoTablesLoaded,
    /// The tables' values break their own rules at a position: its WDL
    /// does not agree with its best move's, or its DTZ with its WDL. A
    /// table file is corrupt where its codes still decode; only the walk of
    /// [`Tablebase::check_material`](crate::Tablebase::check_material) or
    /// the files' MD5 sums tell which.
    #[error(
        "the Syzygy tables contradict themselves at {fen}: {what}; a table file is corrupt \
         (check them with `fianchetto syzygy --verify DIR --checksums FILE`)"
    )]
    Contradiction {
        /// The position, as FEN.
        fen: String,
        /// Which rule it breaks.
        what: &'static str,
    },
}

/// What is wrong with a table file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableProblem {
    /// The file could not be opened or mapped.
    #[error("cannot read the file: {0}")]
    Io(Arc<str>),
    /// The file does not start with the four bytes of its kind.
    #[error("not a Syzygy {kind} table: wrong magic number {found:02x?}")]
    Magic {
        /// The kind the file's name says it is.
        kind: TableKind,
        /// Its first four bytes.
        found: [u8; 4],
    },
    /// The file ends before the data its header describes.
    #[error("truncated: {len} bytes, but its header describes {needed}")]
    Truncated {
        /// The file's length.
        len: usize,
        /// The length its header needs.
        needed: usize,
    },
    /// The header's pieces are not those of the file's name (a renamed table).
    #[error("holds the table {found}, not {named} as its name says")]
    WrongMaterial {
        /// The material the name gives.
        named: Material,
        /// The material the header lists.
        found: Material,
    },
    /// Anything else that a valid table cannot contain.
    #[error("corrupt: {0}")]
    Corrupt(&'static str),
}
