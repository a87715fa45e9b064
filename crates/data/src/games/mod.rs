//! Training data kept as whole games: the start position once, then two
//! bytes of move and two of score per position, then the next game.
//!
//! A self-play game of a hundred plies is 100 positions; in
//! [marlinformat](crate::marlin) it is 3 200 bytes, here 440 (4.4 bytes a
//! position), so 64 MiB carries about 15 M positions. Nothing is filtered
//! when a game is written: which positions a trainer learns from (not in
//! check, no capture as best move, no mate scores, not the first plies…)
//! is decided when the file is read, by a [`Filter`], so the same data can
//! be filtered again another way later. The idea is Viridithas'
//! "viriformat"; the framing (a file header, a length and a checksum per
//! game) is ours, so that a damaged file is refused with the game and the
//! byte where it goes wrong instead of being read as garbage.
//!
//! # Layout
//!
//! All integers little-endian. A file is a 16-byte header followed by games:
//!
//! | bytes | field | meaning |
//! |---|---|---|
//! | 0–7 | magic | the ASCII bytes `FIANGAME` |
//! | 8–11 | version | 1 |
//! | 12–15 | reserved | written 0, ignored |
//!
//! A header may also stand between two games (so `cat a.games b.games`
//! is a games file); a game never starts with those bytes, because its
//! third byte (the ending) is below 16. A game of `n` entries is
//! `40 + 4n` bytes:
//!
//! | bytes | field | meaning |
//! |---|---|---|
//! | 0–1 | `n` | the number of entries (positions with a score), 0–65 535 |
//! | 2 | ending | how the game ended: [`Ending`] |
//! | 3 | flags | bit 0: a Chess960 game (castling rooks on any files); other bits 0 |
//! | 4–35 | start | the first position, a [marlinformat](crate::marlin) record whose result byte (30) is the game's result (0 black won, 1 draw, 2 white won); its score (28–29) and extra byte (31) are written 0 and ignored |
//! | 36 … 36 + 4n − 1 | entries | per position, in game order: the move played from it (`u16`, [`Move::bits`]: from square bits 0–5, to square 6–11, kind 12–15) and its search score (`i16`, centipawns **from white's point of view**, mates at ±31 000 and beyond ([`MATE_BOUND`](crate::score::MATE_BOUND)), [`NO_SCORE`] for a position that is not a training position) |
//! | 36 + 4n … 39 + 4n | checksum | FNV-1a (32 bits) of bytes 0 … 36 + 4n − 1 of the game |
//!
//! Entry 0 is the start position; entry `i + 1` is the position after entry
//! `i`'s move. The last entry's move is the one that ended the game (or a
//! move into an adjudicated position), or [`Move::NULL`] when it is
//! unknown (data converted from marlinformat); no other entry may have a
//! null move. Every move must be legal in its position: a reader replays
//! the game and refuses it otherwise.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_movegen::MoveGen;
//! use fianchetto_data::games::{Ending, Entry, GameRecord, Filter};
//! use fianchetto_data::marlin::Wdl;
//!
//! // 1. e4 e5 2. Qh5 Nc6, then white resigns the game to a draw.
//! let start = Bitboards::startpos();
//! let mut game = GameRecord::new(&start, false);
//! let mut board = start.clone();
//! for (uci, score) in [("e2e4", 30), ("e7e5", 25), ("d1h5", 10), ("b8c6", 40)] {
//!     let mv = fianchetto_movegen::uci::parse_uci(&board, uci)?;
//!     game.entries.push(Entry { mv, score });
//!     board.play_unchecked(mv);
//! }
//! game.result = Wdl::Draw;
//! game.ending = Ending::AdjudicatedDraw;
//!
//! let mut bytes = Vec::new();
//! game.write_to(&mut bytes)?;
//! assert_eq!(bytes.len(), 40 + 4 * 4);
//! let back = GameRecord::from_bytes(&bytes)?;
//! assert_eq!(back, game);
//!
//! // Expanded to training positions with the default filter.
//! let mut positions = Vec::new();
//! back.expand(&Filter::default(), &mut positions, &mut Default::default())?;
//! assert_eq!(positions.len(), 4);
//! assert_eq!(positions[2].unpack()?.score, 10);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod filter;
mod indexed;
mod read;

pub use filter::{Filter, FilterCounts, FilterError, Skip};
pub use indexed::GamesFile;
pub use read::{repair_tail, GameReader, Location, Repair, TrainingPositions};

use crate::marlin::{DataError, PackedBoard, Wdl, RECORD_SIZE};
use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_movegen::MoveGen;
use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;

/// A games file that ends inside a game: a copy cut short, or a file a
/// running `datagen` is still writing. The whole games before it are read;
/// the half-written one is left out. Only a file whose last bytes are the
/// first bytes of a game is taken for one: an entry count that runs past
/// the end over bytes that do not continue the game is
/// [`GameError::CountPastEnd`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutShort {
    /// The file.
    pub path: PathBuf,
    /// The half-written game's index (0 = first): the whole games before it.
    pub game: u64,
    /// Its first byte.
    pub offset: u64,
    /// Its bytes in the file (all left out).
    pub bytes: u64,
}

impl fmt::Display for CutShort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: ends inside game {} at byte {}: its {} bytes were left out, the {} whole games before it read",
            self.path.display(),
            self.game,
            self.offset,
            self.bytes,
            self.game
        )
    }
}

/// The first eight bytes of a games file (and of every header in it).
pub const MAGIC: [u8; 8] = *b"FIANGAME";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// The size of the file header.
pub const HEADER_SIZE: usize = 16;
/// The size of a game's fixed part: count, ending, flags, start position,
/// checksum.
pub const GAME_OVERHEAD: usize = 4 + RECORD_SIZE + 4;
/// The size of one entry (move and score).
pub const ENTRY_SIZE: usize = 4;
/// The score of an entry that is not a training position (a duplicate
/// marked by `dedup`, or a position without a known score). No search
/// score is ever this low (they stay within ±32 001).
pub const NO_SCORE: i16 = i16::MIN;
/// The most entries a game can hold.
pub const MAX_ENTRIES: usize = u16::MAX as usize;

/// Flags bit: the game is Chess960.
const FLAG_CHESS960: u8 = 1;

/// The file header's 16 bytes.
pub fn header() -> [u8; HEADER_SIZE] {
    let mut out = [0u8; HEADER_SIZE];
    out[..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out
}

/// How a game ended, as the ending byte records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Ending {
    /// Not recorded (data converted from marlinformat).
    #[default]
    Unknown = 0,
    /// Checkmate on the board.
    Checkmate = 1,
    /// Stalemate.
    Stalemate = 2,
    /// Neither side can mate.
    InsufficientMaterial = 3,
    /// The fifty-move rule.
    FiftyMoves = 4,
    /// Threefold repetition.
    Repetition = 5,
    /// Adjudicated a win: the score stayed decisive for one side.
    AdjudicatedWin = 6,
    /// Adjudicated a draw: the score stayed near zero late in the game.
    AdjudicatedDraw = 7,
    /// Drawn because the game reached the ply limit.
    MaxPlies = 8,
    /// Adjudicated by an endgame tablebase.
    Tablebase = 9,
}

impl Ending {
    /// Every ending, in code order.
    pub const ALL: [Ending; 10] = [
        Ending::Unknown,
        Ending::Checkmate,
        Ending::Stalemate,
        Ending::InsufficientMaterial,
        Ending::FiftyMoves,
        Ending::Repetition,
        Ending::AdjudicatedWin,
        Ending::AdjudicatedDraw,
        Ending::MaxPlies,
        Ending::Tablebase,
    ];

    /// The ending of a code byte, `None` for an undefined code.
    pub fn from_code(code: u8) -> Option<Ending> {
        Ending::ALL.get(code as usize).copied()
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Unknown => "unknown",
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::InsufficientMaterial => "insufficient material",
            Ending::FiftyMoves => "fifty moves",
            Ending::Repetition => "repetition",
            Ending::AdjudicatedWin => "adjudicated win",
            Ending::AdjudicatedDraw => "adjudicated draw",
            Ending::MaxPlies => "ply limit",
            Ending::Tablebase => "tablebase",
        }
    }
}

/// One position of a game: the move played from it and its search score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Entry {
    /// The move played from the position ([`Move::NULL`] only in the last
    /// entry, when unknown).
    pub mv: Move,
    /// The search score, centipawns from white's point of view;
    /// [`NO_SCORE`] when the position is not a training position.
    pub score: i16,
}

/// What is wrong with one game record (the file-level error,
/// [`GamesError::Game`], says where it is).
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The stored checksum does not match the bytes.
    #[error("checksum {stored:#010x} does not match the game's bytes ({computed:#010x}): the record is damaged")]
    Checksum {
        /// What the file says.
        stored: u32,
        /// What the bytes give.
        computed: u32,
    },
    /// The ending byte is not a defined code.
    #[error("ending code {0} is not defined (0-9)")]
    Ending(u8),
    /// Undefined flag bits are set.
    #[error("flags byte {0:#04x} sets undefined bits")]
    Flags(u8),
    /// The start position is not a position, or the result byte is bad.
    #[error("start position: {0}")]
    Start(#[from] DataError),
    /// A move is not legal in its position.
    #[error("entry {index}: move bits {bits:#06x} are not a legal move in {fen}")]
    IllegalMove {
        /// The entry (0 = the start position).
        index: usize,
        /// The move's 16 bits.
        bits: u16,
        /// The position.
        fen: String,
    },
    /// A move whose kind field (bits 12-15) is not a defined kind.
    #[error("entry {index}: move bits {bits:#06x} have an undefined kind")]
    MoveKind {
        /// The entry.
        index: usize,
        /// The move's 16 bits.
        bits: u16,
    },
    /// A null move before the last entry.
    #[error("entry {index}: a null move before the last entry")]
    NullMove {
        /// The entry.
        index: usize,
    },
    /// Too many entries to write.
    #[error("{0} entries; a game holds at most {MAX_ENTRIES}")]
    TooLong(usize),
    /// The entry count runs past the end of the file, but the bytes there
    /// do not continue such a game, as the first bytes of a game cut short
    /// do: more games follow it, or it is whole and its checksum says so.
    /// The count is damaged.
    #[error("its entry count {entries} needs {needed} bytes, more than the {available} left in the file, but they do not continue such a game: at byte {byte}, {why}; the count is damaged, the file not merely cut short")]
    CountPastEnd {
        /// The count the game's first two bytes give.
        entries: usize,
        /// The bytes that count needs.
        needed: u64,
        /// The bytes left in the file from the game's first.
        available: u64,
        /// The byte of the file where they stop continuing the game.
        byte: u64,
        /// What is there.
        why: Box<GameError>,
    },
    /// The bytes before are a whole game of this many entries, and these
    /// four its checksum: the count that says otherwise is wrong.
    #[error("the checksum of a whole game of {0} entries")]
    WholeGame(usize),
    /// The bytes are fewer than the game needs.
    #[error("{needed} bytes needed, {available} given")]
    Short {
        /// Bytes the record needs.
        needed: usize,
        /// Bytes there are.
        available: usize,
    },
}

/// What is wrong with a games file.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    /// The file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The file does not start with the games header.
    #[error("{path}: not a Fianchetto games file (it does not start with the FIANGAME header)")]
    NotGames {
        /// The file.
        path: PathBuf,
    },
    /// A header of another version.
    #[error(
        "{path}: byte {offset}: games format version {version}; this build reads version {VERSION}"
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// Where the header starts.
        offset: u64,
        /// The version it gives.
        version: u32,
    },
    /// The file ends inside a game: its last bytes are the first bytes of
    /// a game (a damaged count that runs past the end is
    /// [`GameError::CountPastEnd`] instead).
    #[error("{path}: game {game} at byte {offset}: truncated: the record needs {needed} bytes, the file has {available} left (a copy cut short, or a run killed while writing; `fianchetto data convert` keeps the whole games)")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// The game's index (0 = first).
        game: u64,
        /// Its first byte.
        offset: u64,
        /// The bytes it needs.
        needed: u64,
        /// The bytes left.
        available: u64,
    },
    /// A game is damaged.
    #[error("{path}: game {game} at byte {offset}: {error}")]
    Game {
        /// The file.
        path: PathBuf,
        /// The game's index (0 = first).
        game: u64,
        /// Its first byte.
        offset: u64,
        /// What is wrong.
        error: Box<GameError>,
    },
}

/// One game: where it started, how it went, how it ended.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// The start position (its score, result and extra fields are not
    /// used: a decoded record has them 0, draw and 0, as
    /// [`GameRecord::new`] sets them; [`GameRecord::result`] is the result).
    pub start: PackedBoard,
    /// Whether the game is Chess960.
    pub chess960: bool,
    /// The positions from the start on, each with its move and score.
    pub entries: Vec<Entry>,
    /// The result.
    pub result: Wdl,
    /// How it ended.
    pub ending: Ending,
}

/// FNV-1a, 32 bits.
pub(crate) fn fnv1a32(bytes: &[u8]) -> u32 {
    fnv1a32_on(0x811C_9DC5, bytes)
}

/// A record whose last 4 bytes are the FNV-1a of the rest: the rest, or
/// the checksum stored and the one computed when they differ.
pub(crate) fn checked_body(record: &[u8]) -> Result<&[u8], (u32, u32)> {
    let (body, tail) = record.split_at(record.len().saturating_sub(4));
    let stored = u32::from_le_bytes(tail.try_into().map_err(|_| (0, fnv1a32(body)))?);
    let computed = fnv1a32(body);
    if stored == computed {
        Ok(body)
    } else {
        Err((stored, computed))
    }
}

/// FNV-1a, 32 bits, going on from `hash` (the hash of the bytes before).
pub(crate) fn fnv1a32_on(mut hash: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        hash = (hash ^ b as u32).wrapping_mul(0x0100_0193);
    }
    hash
}

impl GameRecord {
    /// An empty game (no entries, drawn, ending unknown) from `start`.
    pub fn new<B: Board>(start: &B, chess960: bool) -> GameRecord {
        GameRecord {
            start: PackedBoard::pack(start, 0, Wdl::Draw),
            chess960,
            entries: Vec::new(),
            result: Wdl::Draw,
            ending: Ending::Unknown,
        }
    }

    /// The record's size in bytes.
    pub fn encoded_len(&self) -> usize {
        GAME_OVERHEAD + ENTRY_SIZE * self.entries.len()
    }

    /// Appends the record's bytes to `out` (nothing is appended on error).
    pub fn write_to(&self, out: &mut Vec<u8>) -> Result<(), GameError> {
        let n = self.entries.len();
        if n > MAX_ENTRIES {
            return Err(GameError::TooLong(n));
        }
        let begin = out.len();
        out.reserve(self.encoded_len());
        out.extend_from_slice(&(n as u16).to_le_bytes());
        out.push(self.ending as u8);
        out.push(if self.chess960 { FLAG_CHESS960 } else { 0 });
        let mut start = self.start;
        start.score = 0;
        start.wdl = self.result as u8;
        start.extra = 0;
        out.extend_from_slice(&start.to_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.mv.bits().to_le_bytes());
            out.extend_from_slice(&e.score.to_le_bytes());
        }
        let sum = fnv1a32(&out[begin..]);
        out.extend_from_slice(&sum.to_le_bytes());
        Ok(())
    }

    /// Writes the record to `w`, through `buffer` (cleared first).
    pub fn write(&self, w: &mut impl Write, buffer: &mut Vec<u8>) -> io::Result<()> {
        buffer.clear();
        self.write_to(buffer)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        w.write_all(buffer)
    }

    /// The number of entries a game whose first four bytes are `head`
    /// holds, and so its size: `GAME_OVERHEAD + 4 × entries`.
    pub fn entries_in(head: [u8; 4]) -> usize {
        u16::from_le_bytes([head[0], head[1]]) as usize
    }

    /// Decodes one record from the front of `bytes` (extra bytes after it
    /// are ignored), checking its framing, checksum and codes; the moves are
    /// checked when the game is [replayed](GameRecord::replay).
    pub fn from_bytes(bytes: &[u8]) -> Result<GameRecord, GameError> {
        let mut record = GameRecord::default();
        record.decode(bytes)?;
        Ok(record)
    }

    /// [`from_bytes`](GameRecord::from_bytes) into `self`, reusing its
    /// entry list's memory.
    pub fn decode(&mut self, bytes: &[u8]) -> Result<(), GameError> {
        let short = |needed| GameError::Short {
            needed,
            available: bytes.len(),
        };
        if bytes.len() < GAME_OVERHEAD {
            return Err(short(GAME_OVERHEAD));
        }
        let n = GameRecord::entries_in([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let len = GAME_OVERHEAD + ENTRY_SIZE * n;
        if bytes.len() < len {
            return Err(short(len));
        }
        let body = checked_body(&bytes[..len])
            .map_err(|(stored, computed)| GameError::Checksum { stored, computed })?;
        let ending = Ending::from_code(bytes[2]).ok_or(GameError::Ending(bytes[2]))?;
        let flags = bytes[3];
        if flags & !FLAG_CHESS960 != 0 {
            return Err(GameError::Flags(flags));
        }
        let mut start = [0u8; RECORD_SIZE];
        start.copy_from_slice(&body[4..4 + RECORD_SIZE]);
        let mut start = PackedBoard::from_bytes(&start);
        let result = Wdl::from_byte(start.wdl).ok_or(DataError::Result(start.wdl))?;
        // The fields the record does not use read as `GameRecord::new` sets them.
        (start.score, start.wdl, start.extra) = (0, Wdl::Draw as u8, 0);
        self.start = start;
        self.chess960 = flags & FLAG_CHESS960 != 0;
        self.result = result;
        self.ending = ending;
        self.entries.clear();
        for (index, c) in body[4 + RECORD_SIZE..].chunks_exact(ENTRY_SIZE).enumerate() {
            let bits = u16::from_le_bytes([c[0], c[1]]);
            let mv = Move::from_bits(bits).ok_or(GameError::MoveKind { index, bits })?;
            self.entries.push(Entry {
                mv,
                score: i16::from_le_bytes([c[2], c[3]]),
            });
        }
        Ok(())
    }

    /// The start position as a board.
    pub fn start_board(&self) -> Result<Bitboards, GameError> {
        let unpacked = self.start.unpack()?;
        Bitboards::from_setup(&unpacked.setup).map_err(|e| GameError::Start(DataError::Position(e)))
    }

    /// Plays the game through from its start, calling `visit` with each
    /// entry's index, position and entry, in order, and checking that every
    /// move is legal where it is played.
    pub fn replay(&self, mut visit: impl FnMut(usize, &Bitboards, Entry)) -> Result<(), GameError> {
        let mut board = self.start_board()?;
        let last = self.entries.len().saturating_sub(1);
        for (index, &entry) in self.entries.iter().enumerate() {
            if entry.mv == Move::NULL {
                if index != last {
                    return Err(GameError::NullMove { index });
                }
            } else if !board.legal_moves().contains(&entry.mv) {
                return Err(GameError::IllegalMove {
                    index,
                    bits: entry.mv.bits(),
                    fen: board.fen(),
                });
            }
            visit(index, &board, entry);
            if entry.mv != Move::NULL {
                board.play_unchecked(entry.mv);
            }
        }
        Ok(())
    }

    /// Appends to `out` the training positions of the game that `filter`
    /// keeps, as marlinformat records carrying their score and the game's
    /// result, and counts in `counts` what was kept and skipped. On error
    /// nothing is appended.
    pub fn expand(
        &self,
        filter: &Filter,
        out: &mut Vec<PackedBoard>,
        counts: &mut FilterCounts,
    ) -> Result<(), GameError> {
        let before = out.len();
        let mut local = FilterCounts::default();
        let result = self.replay(
            |index, board, entry| match filter.skip(index, board, entry) {
                Some(reason) => local.skipped[reason as usize] += 1,
                None => {
                    local.kept += 1;
                    out.push(PackedBoard::pack(board, entry.score, self.result));
                }
            },
        );
        match result {
            Ok(()) => {
                counts.add(&local);
                Ok(())
            }
            Err(e) => {
                out.truncate(before);
                Err(e)
            }
        }
    }
}
