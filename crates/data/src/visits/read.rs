//! Reading visits files: the framing checked record by record, errors
//! naming the file, the record and its byte.

use super::{
    VisitError, VisitRecord, VisitsCut, VisitsError, HEADER_SIZE, MAGIC, RECORD_OVERHEAD, VERSION,
};
use crate::games::Location;
use crate::marlin::RECORD_SIZE;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

/// Streams the records of a visits file in constant memory, checking each
/// record's framing and checksum (the moves' legality is checked by
/// [`VisitRecord::board`]).
///
/// A file that does not start with the header is refused at
/// [`open`](VisitReader::open); a file that ends inside a record gives
/// [`VisitsError::Truncated`] for it after every whole record before it,
/// or, [`ending_at_cut`](VisitReader::ending_at_cut), ends before it.
pub struct VisitReader {
    path: PathBuf,
    reader: BufReader<File>,
    len: u64,
    offset: u64,
    record: u64,
    bytes: Vec<u8>,
    failed: bool,
    ends_at_cut: bool,
    cut_short: Option<VisitsCut>,
}

impl VisitReader {
    /// Opens `path` and checks its header.
    ///
    /// # Errors
    ///
    /// A file that cannot be read, is not a visits file or is of another
    /// version.
    pub fn open(path: &Path) -> Result<VisitReader, VisitsError> {
        let io = |source| VisitsError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let not = || VisitsError::NotVisits {
            path: path.to_path_buf(),
        };
        if len < HEADER_SIZE as u64 {
            return Err(not());
        }
        let mut head = [0u8; HEADER_SIZE];
        reader.read_exact(&mut head).map_err(io)?;
        if head[..8] != MAGIC {
            return Err(not());
        }
        let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
        if version != VERSION {
            return Err(VisitsError::Version {
                path: path.to_path_buf(),
                version,
            });
        }
        Ok(VisitReader {
            path: path.to_path_buf(),
            reader,
            len,
            offset: HEADER_SIZE as u64,
            record: 0,
            bytes: Vec::new(),
            failed: false,
            ends_at_cut: false,
            cut_short: None,
        })
    }

    /// Whether `path` starts with the visits header (the way the format is
    /// told apart by content). Unreadable files are errors.
    ///
    /// # Errors
    ///
    /// A file that cannot be read.
    pub fn is_visits_file(path: &Path) -> io::Result<bool> {
        let mut head = [0u8; 8];
        let mut file = File::open(path)?;
        let mut got = 0;
        while got < head.len() {
            let n = file.read(&mut head[got..])?;
            if n == 0 {
                return Ok(false);
            }
            got += n;
        }
        Ok(head == MAGIC)
    }

    /// The same reader, made to end before a record the file ends inside
    /// (a copy cut short, or a file a running `datagen` is still writing)
    /// instead of failing on it: the whole records before it are read, and
    /// [`cut_short`](VisitReader::cut_short) says where the file was cut.
    pub fn ending_at_cut(mut self) -> VisitReader {
        self.ends_at_cut = true;
        self
    }

    /// Where the file ended inside a record, once an
    /// [`ending_at_cut`](Self::ending_at_cut) reader has met it.
    pub fn cut_short(&self) -> Option<&VisitsCut> {
        self.cut_short.as_ref()
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's length when it was opened.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file holds only its header.
    pub fn is_empty(&self) -> bool {
        self.len <= HEADER_SIZE as u64
    }

    /// Bytes read so far: where the next record starts.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The error for `error` in the record at `at` (its `game` field is
    /// the record's index).
    pub fn error_at(&self, at: Location, error: VisitError) -> VisitsError {
        VisitsError::Record {
            path: self.path.clone(),
            record: at.game,
            offset: at.offset,
            error: Box::new(error),
        }
    }

    /// Reads the next record into `record` (reusing its memory) and
    /// returns where it was (`game`: the record's index), or `None` at the
    /// end of the file. After an error the reader yields nothing more.
    ///
    /// # Errors
    ///
    /// A record that is damaged or cut short (unless
    /// [`ending_at_cut`](Self::ending_at_cut)), or a read that fails.
    pub fn read_into(&mut self, record: &mut VisitRecord) -> Result<Option<Location>, VisitsError> {
        if self.failed {
            return Ok(None);
        }
        let result = self.read_next(record);
        if let Err(e) = &result {
            self.failed = true;
            if self.ends_at_cut {
                if let Some(cut) = e.cut_short() {
                    self.cut_short = Some(cut);
                    return Ok(None);
                }
            }
        }
        result
    }

    fn read_next(&mut self, record: &mut VisitRecord) -> Result<Option<Location>, VisitsError> {
        let left = self.len - self.offset.min(self.len);
        if left == 0 {
            return Ok(None);
        }
        let at = Location {
            game: self.record,
            offset: self.offset,
        };
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| VisitsError::Io { path, source }
        };
        let truncated = |needed: usize| VisitsError::Truncated {
            path: self.path.clone(),
            record: at.game,
            offset: at.offset,
            needed: needed as u64,
            available: left,
        };
        let head = 5 + RECORD_SIZE;
        if left < head as u64 {
            return Err(truncated(RECORD_OVERHEAD));
        }
        self.bytes.clear();
        self.bytes.resize(head, 0);
        self.reader
            .read_exact(&mut self.bytes)
            .map_err(io(&self.path))?;
        let needed = VisitRecord::len_of(self.bytes[head - 1]);
        if left < needed as u64 {
            return Err(truncated(needed));
        }
        self.bytes.resize(needed, 0);
        self.reader
            .read_exact(&mut self.bytes[head..])
            .map_err(io(&self.path))?;
        record
            .decode(&self.bytes)
            .map_err(|e| self.error_at(at, e))?;
        self.offset += needed as u64;
        self.record += 1;
        Ok(Some(at))
    }
}

impl Iterator for VisitReader {
    type Item = Result<(Location, VisitRecord), VisitsError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut record = VisitRecord::default();
        self.read_into(&mut record)
            .transpose()
            .map(|r| r.map(|at| (at, record)))
    }
}

/// What [`repair_tail`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VisitRepair {
    /// Whole records in the file.
    pub records: u64,
    /// Games in the file (runs of records with the same game number).
    pub games: u64,
    /// The game number of the last whole record.
    pub last_game: Option<u32>,
    /// The file's length now.
    pub len: u64,
    /// Bytes cut from its end (a record half-written when a run was
    /// killed).
    pub cut: u64,
}

/// Cuts a record left half-written at the end of a visits file (a run
/// killed while writing) and returns what the file holds. Only the framing
/// and checksums are read, not the moves. A damaged record anywhere, or a
/// file that is not a visits file, is an error and nothing is cut.
///
/// # Errors
///
/// As said, or a file that cannot be read or cut.
pub fn repair_tail(path: &Path) -> Result<VisitRepair, VisitsError> {
    let mut reader = VisitReader::open(path)?.ending_at_cut();
    let mut record = VisitRecord::default();
    let (mut records, mut games, mut last_game) = (0, 0, None);
    while reader.read_into(&mut record)?.is_some() {
        records += 1;
        if last_game != Some(record.game) {
            games += 1;
        }
        last_game = Some(record.game);
    }
    let full = reader.len();
    let len = reader.cut_short().map_or(full, |c| c.offset);
    if len < full {
        let io = |source| VisitsError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = OpenOptions::new().write(true).open(path).map_err(io)?;
        file.set_len(len).map_err(io)?;
    }
    Ok(VisitRepair {
        records,
        games,
        last_game,
        len,
        cut: full - len,
    })
}
