//! Reading games files: the framing checked game by game, errors naming the
//! file, the game and its byte; training positions streamed out of them.

use super::{
    fnv1a32, fnv1a32_on, CutShort, Ending, Filter, FilterCounts, GameError, GameRecord, GamesError,
    ENTRY_SIZE, FLAG_CHESS960, GAME_OVERHEAD, HEADER_SIZE, MAGIC, VERSION,
};
use crate::marlin::{DataError, PackedBoard, Wdl, RECORD_SIZE};
use fianchetto_board::{Board, Move};
use fianchetto_movegen::MoveGen;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Streams the games of a file in constant memory, checking each game's
/// framing and checksum (its moves are checked when it is replayed).
///
/// A file that does not start with the header is refused at
/// [`open`](GameReader::open); a file that ends inside a game gives
/// [`GamesError::Truncated`] for that game after every whole game before it,
/// or, [`ending_at_cut`](GameReader::ending_at_cut), ends before that game.
/// A game "ends past the file" only when the bytes left are the first bytes
/// of such a game (valid codes and start position, each whole entry a legal
/// move, no checksum of a shorter game among them); otherwise its entry
/// count is damaged, and that is [`GameError::CountPastEnd`] for the game
/// whatever the reader.
pub struct GameReader {
    path: PathBuf,
    reader: BufReader<File>,
    len: u64,
    offset: u64,
    game: u64,
    bytes: Vec<u8>,
    failed: bool,
    ends_at_cut: bool,
    cut_short: Option<CutShort>,
}

/// Where a game is in its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// The game's index (0 = first).
    pub game: u64,
    /// Its first byte.
    pub offset: u64,
}

impl GameReader {
    /// Opens `path` and checks its header.
    pub fn open(path: &Path) -> Result<GameReader, GamesError> {
        let io = |source| GamesError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut reader = GameReader {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(1 << 20, file),
            len,
            offset: 0,
            game: 0,
            bytes: Vec::new(),
            failed: false,
            ends_at_cut: false,
            cut_short: None,
        };
        if len < HEADER_SIZE as u64 {
            return Err(GamesError::NotGames {
                path: path.to_path_buf(),
            });
        }
        let mut head = [0u8; HEADER_SIZE];
        reader.reader.read_exact(&mut head).map_err(io)?;
        reader.check_header(&head)?;
        reader.offset = HEADER_SIZE as u64;
        Ok(reader)
    }

    /// Opens `path` at the game `at` of an earlier reading of the same file
    /// (the header was checked then).
    pub fn open_at(path: &Path, at: Location) -> Result<GameReader, GamesError> {
        let io = |source| GamesError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        file.seek(SeekFrom::Start(at.offset)).map_err(io)?;
        Ok(GameReader {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(1 << 16, file),
            len,
            offset: at.offset,
            game: at.game,
            bytes: Vec::new(),
            failed: false,
            ends_at_cut: false,
            cut_short: None,
        })
    }

    /// The same reader, made to end before a game the file ends inside (a
    /// copy cut short, or a file a running `datagen` is still writing)
    /// instead of failing on it: the whole games before it are read, and
    /// [`cut_short`](GameReader::cut_short) says where the file was cut.
    /// Damage anywhere else, a damaged entry count that runs past the end
    /// included, is still an error.
    pub fn ending_at_cut(mut self) -> GameReader {
        self.ends_at_cut = true;
        self
    }

    /// Where the file ended inside a game, once an
    /// [`ending_at_cut`](GameReader::ending_at_cut) reader has met it.
    pub fn cut_short(&self) -> Option<&CutShort> {
        self.cut_short.as_ref()
    }

    /// Whether `path` starts with the games header (the way the format is
    /// told from marlinformat by content). Unreadable files are errors.
    pub fn is_games_file(path: &Path) -> io::Result<bool> {
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

    fn check_header(&self, head: &[u8; HEADER_SIZE]) -> Result<(), GamesError> {
        if head[..8] != MAGIC {
            return Err(GamesError::NotGames {
                path: self.path.clone(),
            });
        }
        let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
        if version != VERSION {
            return Err(GamesError::Version {
                path: self.path.clone(),
                offset: self.offset,
                version,
            });
        }
        Ok(())
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

    /// Bytes read so far: where the next game starts.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The error for `error` in the game at `at`.
    pub fn error_at(&self, at: Location, error: GameError) -> GamesError {
        GamesError::Game {
            path: self.path.clone(),
            game: at.game,
            offset: at.offset,
            error: Box::new(error),
        }
    }

    fn io(&self, source: io::Error) -> GamesError {
        GamesError::Io {
            path: self.path.clone(),
            source,
        }
    }

    /// Reads the next game into `record` (reusing its memory) and returns
    /// where it was, or `None` at the end of the file. After an error the
    /// reader yields nothing more.
    pub fn read_into(&mut self, record: &mut GameRecord) -> Result<Option<Location>, GamesError> {
        if self.failed {
            return Ok(None);
        }
        let result = self.read_next(record);
        if result.is_err() {
            self.failed = true;
        }
        match result {
            Err(GamesError::Truncated {
                path,
                game,
                offset,
                available,
                ..
            }) if self.ends_at_cut => {
                self.cut_short = Some(CutShort {
                    path,
                    game,
                    offset,
                    bytes: available,
                });
                Ok(None)
            }
            result => result,
        }
    }

    fn read_next(&mut self, record: &mut GameRecord) -> Result<Option<Location>, GamesError> {
        loop {
            let left = self.len - self.offset.min(self.len);
            if left == 0 {
                return Ok(None);
            }
            let at = Location {
                game: self.game,
                offset: self.offset,
            };
            let truncated = |needed: u64| GamesError::Truncated {
                path: self.path.clone(),
                game: at.game,
                offset: at.offset,
                needed,
                available: left,
            };
            if left < 4 {
                return Err(self.cut_at(at, &[], left, GAME_OVERHEAD as u64));
            }
            let mut head = [0u8; 4];
            self.reader.read_exact(&mut head).map_err(|e| self.io(e))?;
            if head == MAGIC[..4] {
                // Another file's header (files joined with `cat`).
                if left < HEADER_SIZE as u64 {
                    return Err(truncated(HEADER_SIZE as u64));
                }
                let mut rest = [0u8; HEADER_SIZE];
                rest[..4].copy_from_slice(&head);
                self.reader
                    .read_exact(&mut rest[4..])
                    .map_err(|e| self.io(e))?;
                self.check_header(&rest)?;
                self.offset += HEADER_SIZE as u64;
                continue;
            }
            let needed = (GAME_OVERHEAD + ENTRY_SIZE * GameRecord::entries_in(head)) as u64;
            if left < needed {
                return Err(self.cut_at(at, &head, left, needed));
            }
            self.bytes.clear();
            self.bytes.extend_from_slice(&head);
            self.bytes.resize(needed as usize, 0);
            self.reader
                .read_exact(&mut self.bytes[4..])
                .map_err(|e| self.io(e))?;
            record
                .decode(&self.bytes)
                .map_err(|e| self.error_at(at, e))?;
            self.offset += needed;
            self.game += 1;
            return Ok(Some(at));
        }
    }

    /// The error for the game at `at` that the file ends inside: the rest
    /// of the file, `left` bytes (fewer than the `needed` the game needs;
    /// `head` those of them read already), is read and checked to be the
    /// first bytes of such a game, as in a file cut short
    /// ([`GamesError::Truncated`]); if it is not, the game is damaged
    /// ([`GameError::CountPastEnd`]).
    fn cut_at(&mut self, at: Location, head: &[u8], left: u64, needed: u64) -> GamesError {
        self.bytes.clear();
        self.bytes.extend_from_slice(head);
        // Fewer than a game needs: at most GAME_OVERHEAD + 4 × 65 535 bytes.
        self.bytes.resize(left as usize, 0);
        if let Err(e) = self.reader.read_exact(&mut self.bytes[head.len()..]) {
            return self.io(e);
        }
        match check_cut(&self.bytes, at.offset) {
            Ok(()) => GamesError::Truncated {
                path: self.path.clone(),
                game: at.game,
                offset: at.offset,
                needed,
                available: left,
            },
            Err(e) => self.error_at(at, e),
        }
    }
}

/// Checks that `tail`, the last bytes of a file from a game's first byte on
/// and fewer than the game needs, are the first bytes of such a game, as a
/// file cut short while the game was written ends: valid codes, a start
/// position that is a position, each whole entry a legal move (a null move
/// only as the game's last), and neither the bytes nor the entries that
/// continue the game ending with the checksum of a whole game of fewer
/// entries. `offset` is the game's first byte in the file.
///
/// Otherwise the count, not the file's length, is wrong:
/// [`GameError::CountPastEnd`] says at which byte the bytes stop
/// continuing the game, and what is there.
fn check_cut(tail: &[u8], offset: u64) -> Result<(), GameError> {
    let [lo, hi, ..] = *tail else {
        return Ok(());
    };
    let entries = GameRecord::entries_in([lo, hi, 0, 0]);
    let damaged = |at: usize, why: GameError| GameError::CountPastEnd {
        entries,
        needed: (GAME_OVERHEAD + ENTRY_SIZE * entries) as u64,
        available: tail.len() as u64,
        byte: offset + at as u64,
        why: Box::new(why),
    };
    // Whether `tail[end - 4..end]` is the checksum of the whole game of
    // the bytes before it (the count read as what they hold).
    let whole_game_to = |end: usize| -> Option<usize> {
        let body = end.checked_sub(GAME_OVERHEAD)?;
        if body % ENTRY_SIZE != 0 || end > tail.len() {
            return None;
        }
        let count = u16::try_from(body / ENTRY_SIZE).ok()?;
        let hash = fnv1a32_on(fnv1a32(&count.to_le_bytes()), &tail[2..end - 4]);
        let stored = u32::from_le_bytes(tail[end - 4..end].try_into().ok()?);
        (hash == stored).then_some(count as usize)
    };
    // At `at`, an entry that does not continue the game: a checksum, or `why`.
    let stopped = |at: usize, why: GameError| match whole_game_to(at + ENTRY_SIZE) {
        Some(count) => damaged(at, GameError::WholeGame(count)),
        None => damaged(at, why),
    };
    if let Some(count) = whole_game_to(tail.len()) {
        return Err(damaged(tail.len() - 4, GameError::WholeGame(count)));
    }
    if let Some(&code) = tail.get(2) {
        Ending::from_code(code).ok_or_else(|| damaged(2, GameError::Ending(code)))?;
    }
    if let Some(&flags) = tail.get(3) {
        if flags & !FLAG_CHESS960 != 0 {
            return Err(damaged(3, GameError::Flags(flags)));
        }
    }
    let Some(start) = tail.get(4..).and_then(<[u8]>::first_chunk::<RECORD_SIZE>) else {
        return Ok(());
    };
    let mut start = PackedBoard::from_bytes(start);
    if Wdl::from_byte(start.wdl).is_none() {
        return Err(damaged(
            4 + 30,
            GameError::Start(DataError::Result(start.wdl)),
        ));
    }
    (start.score, start.wdl, start.extra) = (0, Wdl::Draw as u8, 0);
    let game = GameRecord {
        start,
        ..GameRecord::default()
    };
    let mut board = game.start_board().map_err(|e| damaged(4, e))?;
    let first = 4 + RECORD_SIZE;
    for (index, c) in tail[first..].chunks_exact(ENTRY_SIZE).enumerate() {
        let at = first + ENTRY_SIZE * index;
        let bits = u16::from_le_bytes([c[0], c[1]]);
        let Some(mv) = Move::from_bits(bits) else {
            return Err(stopped(at, GameError::MoveKind { index, bits }));
        };
        if mv == Move::NULL {
            if index + 1 != entries {
                return Err(stopped(at, GameError::NullMove { index }));
            }
        } else if board.legal_moves().contains(&mv) {
            board.play_unchecked(mv);
        } else {
            return Err(stopped(
                at,
                GameError::IllegalMove {
                    index,
                    bits,
                    fen: board.fen(),
                },
            ));
        }
    }
    Ok(())
}

impl Iterator for GameReader {
    type Item = Result<(Location, GameRecord), GamesError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut record = GameRecord::default();
        self.read_into(&mut record)
            .transpose()
            .map(|r| r.map(|at| (at, record)))
    }
}

/// The training positions of a games file, as marlinformat records with
/// their scores and results, picked by a [`Filter`] and streamed game by
/// game (each game is checked whole, moves included, before any of its
/// positions is given out).
pub struct TrainingPositions {
    reader: GameReader,
    filter: Filter,
    game: GameRecord,
    positions: Vec<PackedBoard>,
    next: usize,
    counts: FilterCounts,
}

impl TrainingPositions {
    /// Opens `path` with `filter`.
    pub fn open(path: &Path, filter: Filter) -> Result<TrainingPositions, GamesError> {
        Ok(TrainingPositions {
            reader: GameReader::open(path)?,
            filter,
            game: GameRecord::default(),
            positions: Vec::new(),
            next: 0,
            counts: FilterCounts::default(),
        })
    }

    /// What the filter kept and skipped so far.
    pub fn counts(&self) -> FilterCounts {
        self.counts
    }

    /// Bytes of the file read so far, and its length (for progress bars).
    pub fn progress(&self) -> (u64, u64) {
        (self.reader.offset(), self.reader.len())
    }
}

impl Iterator for TrainingPositions {
    type Item = Result<PackedBoard, GamesError>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.next == self.positions.len() {
            self.positions.clear();
            self.next = 0;
            let at = match self.reader.read_into(&mut self.game) {
                Ok(Some(at)) => at,
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            };
            if let Err(e) = self
                .game
                .expand(&self.filter, &mut self.positions, &mut self.counts)
            {
                // Stop here: the reader yields nothing after an error.
                self.reader.failed = true;
                return Some(Err(self.reader.error_at(at, e)));
            }
        }
        let p = self.positions[self.next];
        self.next += 1;
        Some(Ok(p))
    }
}

/// What [`repair_tail`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repair {
    /// Whole games in the file.
    pub games: u64,
    /// Their entries (positions).
    pub positions: u64,
    /// The file's length now.
    pub len: u64,
    /// Bytes cut from its end (a game half-written when a run was killed).
    pub cut: u64,
}

/// Cuts a game left half-written at the end of a games file (a run killed
/// while writing) and returns what the file holds. Only the framing and
/// checksums are read, not the moves. A damaged game anywhere, or a file
/// that is not a games file, is an error and nothing is cut.
pub fn repair_tail(path: &Path) -> Result<Repair, GamesError> {
    let mut reader = GameReader::open(path)?;
    let mut record = GameRecord::default();
    let (mut games, mut positions) = (0, 0);
    let cut_at = loop {
        match reader.read_into(&mut record) {
            Ok(Some(_)) => {
                games += 1;
                positions += record.entries.len() as u64;
            }
            Ok(None) => break None,
            Err(GamesError::Truncated { offset, .. }) => break Some(offset),
            Err(e) => return Err(e),
        }
    };
    let len = reader.len();
    let Some(offset) = cut_at else {
        return Ok(Repair {
            games,
            positions,
            len,
            cut: 0,
        });
    };
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|source| GamesError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    file.set_len(offset).map_err(|source| GamesError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(Repair {
        games,
        positions,
        len: offset,
        cut: len - offset,
    })
}
