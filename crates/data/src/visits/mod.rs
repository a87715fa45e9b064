//! Positions with the root visit distribution of a Monte Carlo tree search:
//! what MCTS self-play (`fianchetto datagen --mcts`) writes and the policy
//! trainer learns from (each position's target is the share of the
//! playouts each root move received, not the one move played).
//!
//! A record is the position as a [marlinformat](crate::marlin) record (with
//! the search's score and the game's result), the game it comes from, and
//! up to 255 root moves with their visits, checksummed: about 41 + 4k
//! bytes for `k` root moves (some 150 bytes for a middlegame position
//! listing every legal move). Records of one game are consecutive and share
//! its game number, so that a trainer can hold whole games out for
//! validation.
//!
//! # Layout
//!
//! All integers little-endian. A file is a 16-byte header followed by
//! records:
//!
//! | bytes | field | meaning |
//! |---|---|---|
//! | 0–7 | magic | the bytes `FIANVIS` and 0x1A |
//! | 8–11 | version | 1 |
//! | 12–15 | reserved | written 0, ignored |
//!
//! A record with `k` root moves is `41 + 4k` bytes:
//!
//! | bytes | field | meaning |
//! |---|---|---|
//! | 0–3 | game | the game the position is from (`u32`): consecutive records with the same number are one game; the writer chooses the numbers (`datagen` counts the games of the file from 0) |
//! | 4–35 | position | a [marlinformat](crate::marlin) record: the position, the search's score (28–29, centipawns **from white's point of view**), the game's result (30: 0 black won, 1 draw, 2 white won); byte 31 written 0 and ignored |
//! | 36 | `k` | the number of root moves listed, 1–255 |
//! | 37 … 36 + 4k | moves | per root move: the move (`u16`, [`Move::bits`]: from square bits 0–5, to square 6–11, kind 12–15) and its visits (`u16`) |
//! | 37 + 4k … 40 + 4k | checksum | FNV-1a (32 bits) of bytes 0 … 36 + 4k of the record |
//!
//! Every move must be legal in the position and listed once; a legal move
//! not listed had no visits. The visits need not sum to anything, but not
//! all of them may be 0: the target distribution is each move's visits
//! over their total. A search with more than 65 535 visits on a move is
//! written scaled ([`VisitRecord::from_counts`]): every count times
//! 65 535 / the largest, rounded, so the ratios are kept to within one
//! part in 65 535 of the largest.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_data::marlin::Wdl;
//! use fianchetto_data::visits::VisitRecord;
//! use fianchetto_movegen::uci::parse_uci;
//!
//! let board = Bitboards::startpos();
//! let e4 = parse_uci(&board, "e2e4")?;
//! let d4 = parse_uci(&board, "d2d4")?;
//! let record = VisitRecord::from_counts(&board, 7, 25, Wdl::Draw, [(e4, 120), (d4, 80)])?;
//! let mut bytes = Vec::new();
//! record.write_to(&mut bytes)?;
//! assert_eq!(bytes.len(), 41 + 4 * 2);
//! let (back, len) = VisitRecord::from_bytes(&bytes)?;
//! assert_eq!((back, len), (record.clone(), bytes.len()));
//! // Checked against the position: each move legal, none twice.
//! assert_eq!(record.board()?.fen(), board.fen());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod read;

pub use read::{repair_tail, VisitReader, VisitRepair};

use crate::games::{checked_body, fnv1a32};
use crate::marlin::{DataError, PackedBoard, Wdl, RECORD_SIZE};
use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_movegen::MoveGen;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// The first eight bytes of a visits file.
pub const MAGIC: [u8; 8] = *b"FIANVIS\x1a";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// The size of the file header.
pub const HEADER_SIZE: usize = 16;
/// The size of a record's fixed part: game, position, count, checksum.
pub const RECORD_OVERHEAD: usize = 4 + RECORD_SIZE + 1 + 4;
/// The size of one root move (move and visits).
pub const MOVE_SIZE: usize = 4;
/// The most root moves a record lists.
pub const MAX_MOVES: usize = u8::MAX as usize;

/// The file header's 16 bytes.
pub fn header() -> [u8; HEADER_SIZE] {
    let mut out = [0u8; HEADER_SIZE];
    out[..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out
}

/// One root move and its visits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MoveVisits {
    /// The move.
    pub mv: Move,
    /// Its visits (scaled when the search gave more than 65 535).
    pub visits: u16,
}

/// One position with its root visit distribution.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct VisitRecord {
    /// The game the position is from.
    pub game: u32,
    /// The position, its score (white's point of view) and the game's
    /// result (its extra byte is 0).
    pub position: PackedBoard,
    /// The root moves listed, with their visits.
    pub moves: Vec<MoveVisits>,
}

/// What is wrong with one record (the file-level error,
/// [`VisitsError::Record`], says where it is).
#[derive(Debug, thiserror::Error)]
pub enum VisitError {
    /// The stored checksum does not match the bytes.
    #[error("checksum {stored:#010x} does not match the record's bytes ({computed:#010x}): the record is damaged")]
    Checksum {
        /// What the file says.
        stored: u32,
        /// What the bytes give.
        computed: u32,
    },
    /// The position is not a position, or its result byte is bad.
    #[error("position: {0}")]
    Position(#[from] DataError),
    /// No root move is listed.
    #[error("no root move listed (k = 0)")]
    NoMoves,
    /// More root moves than a record holds.
    #[error("{0} root moves; a record lists at most {MAX_MOVES}")]
    TooManyMoves(usize),
    /// Every listed move has 0 visits.
    #[error("every root move has 0 visits: no distribution")]
    NoVisits,
    /// A move whose kind field (bits 12-15) is not a defined kind.
    #[error("root move {index}: move bits {bits:#06x} have an undefined kind")]
    MoveKind {
        /// The move's place in the list (0 = first).
        index: usize,
        /// The move's 16 bits.
        bits: u16,
    },
    /// A move that is not legal in the position.
    #[error("root move {index}: move bits {bits:#06x} are not a legal move in {fen}")]
    IllegalMove {
        /// The move's place in the list.
        index: usize,
        /// The move's 16 bits.
        bits: u16,
        /// The position.
        fen: String,
    },
    /// A move listed twice.
    #[error("root move {index}: move bits {bits:#06x} are listed before, as root move {first}")]
    Duplicate {
        /// The move's second place in the list.
        index: usize,
        /// Its first place.
        first: usize,
        /// The move's 16 bits.
        bits: u16,
    },
    /// The bytes are fewer than the record needs.
    #[error("{needed} bytes needed, {available} given")]
    Short {
        /// Bytes the record needs.
        needed: usize,
        /// Bytes there are.
        available: usize,
    },
}

/// A visits file that ends inside a record: a copy cut short, or a file a
/// running `datagen` is still writing. The whole records before it are
/// read; the half-written one is left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VisitsCut {
    /// The file.
    pub path: PathBuf,
    /// The half-written record's index (0 = first): the whole records
    /// before it.
    pub record: u64,
    /// Its first byte.
    pub offset: u64,
    /// Its bytes in the file (all left out).
    pub bytes: u64,
}

impl fmt::Display for VisitsCut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: ends inside record {} at byte {}: its {} bytes were left out, the {} whole records before it read",
            self.path.display(),
            self.record,
            self.offset,
            self.bytes,
            self.record
        )
    }
}

/// What is wrong with a visits file.
#[derive(Debug, thiserror::Error)]
pub enum VisitsError {
    /// The file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The file does not start with the visits header.
    #[error("{path}: not a Fianchetto visits file (it does not start with the FIANVIS header)")]
    NotVisits {
        /// The file.
        path: PathBuf,
    },
    /// A header of another version.
    #[error("{path}: byte 8: visits format version {version}; this build reads version {VERSION}")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it gives.
        version: u32,
    },
    /// The file ends inside a record.
    #[error("{path}: record {record} at byte {offset}: truncated: the record needs {needed} bytes, the file has {available} left (a copy cut short, or a run killed while writing)")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// The record's index (0 = first).
        record: u64,
        /// Its first byte.
        offset: u64,
        /// The bytes it needs (at least: its fixed part when its count
        /// was not in the file).
        needed: u64,
        /// The bytes left.
        available: u64,
    },
    /// A record is damaged.
    #[error("{path}: record {record} at byte {offset}: {error}")]
    Record {
        /// The file.
        path: PathBuf,
        /// The record's index (0 = first).
        record: u64,
        /// Its first byte.
        offset: u64,
        /// What is wrong.
        error: Box<VisitError>,
    },
}

impl VisitsError {
    /// Where a file read with [`VisitReader::ending_at_cut`] was cut.
    fn cut_short(&self) -> Option<VisitsCut> {
        match self {
            VisitsError::Truncated {
                path,
                record,
                offset,
                available,
                ..
            } => Some(VisitsCut {
                path: path.clone(),
                record: *record,
                offset: *offset,
                bytes: *available,
            }),
            _ => None,
        }
    }
}

impl VisitRecord {
    /// The record of `board` searched with `counts` root visits per move,
    /// its `score` (centipawns, **white's** point of view) and its game's
    /// `result`; counts above 65 535 are scaled (see the [module
    /// documentation](self)). Moves with 0 visits are listed too.
    ///
    /// # Errors
    ///
    /// No moves, more than [`MAX_MOVES`], or no visits at all. The moves'
    /// legality is checked by [`board`](Self::board).
    pub fn from_counts<B: Board>(
        board: &B,
        game: u32,
        score: i16,
        result: Wdl,
        counts: impl IntoIterator<Item = (Move, u64)>,
    ) -> Result<VisitRecord, VisitError> {
        let counts: Vec<(Move, u64)> = counts.into_iter().collect();
        if counts.is_empty() {
            return Err(VisitError::NoMoves);
        }
        if counts.len() > MAX_MOVES {
            return Err(VisitError::TooManyMoves(counts.len()));
        }
        let most = counts.iter().map(|&(_, v)| v).max().unwrap_or(0);
        if most == 0 {
            return Err(VisitError::NoVisits);
        }
        let top = u16::MAX as u64;
        let moves = counts
            .iter()
            .map(|&(mv, v)| MoveVisits {
                mv,
                visits: if most <= top {
                    v as u16
                } else {
                    ((v as u128 * top as u128 + most as u128 / 2) / most as u128) as u16
                },
            })
            .collect();
        Ok(VisitRecord {
            game,
            position: PackedBoard::pack(board, score, result),
            moves,
        })
    }

    /// The record's size in bytes.
    pub fn encoded_len(&self) -> usize {
        RECORD_OVERHEAD + MOVE_SIZE * self.moves.len()
    }

    /// The game's result, as the position record gives it.
    pub fn result(&self) -> Option<Wdl> {
        Wdl::from_byte(self.position.wdl)
    }

    /// The visits of every listed move together.
    pub fn total_visits(&self) -> u64 {
        self.moves.iter().map(|m| m.visits as u64).sum()
    }

    /// The most visited move (the first listed of those tied).
    pub fn most_visited(&self) -> Option<MoveVisits> {
        self.moves
            .iter()
            .copied()
            .reduce(|best, m| if m.visits > best.visits { m } else { best })
    }

    /// Appends the record's bytes to `out` (nothing is appended on error).
    ///
    /// # Errors
    ///
    /// No moves or more than [`MAX_MOVES`].
    pub fn write_to(&self, out: &mut Vec<u8>) -> Result<(), VisitError> {
        let k = self.moves.len();
        if k == 0 {
            return Err(VisitError::NoMoves);
        }
        if k > MAX_MOVES {
            return Err(VisitError::TooManyMoves(k));
        }
        let begin = out.len();
        out.reserve(self.encoded_len());
        out.extend_from_slice(&self.game.to_le_bytes());
        let mut position = self.position;
        position.extra = 0;
        out.extend_from_slice(&position.to_bytes());
        out.push(k as u8);
        for m in &self.moves {
            out.extend_from_slice(&m.mv.bits().to_le_bytes());
            out.extend_from_slice(&m.visits.to_le_bytes());
        }
        let sum = fnv1a32(&out[begin..]);
        out.extend_from_slice(&sum.to_le_bytes());
        Ok(())
    }

    /// The size of a record of `count` root moves (its byte 36).
    pub fn len_of(count: u8) -> usize {
        RECORD_OVERHEAD + MOVE_SIZE * count as usize
    }

    /// Decodes one record from the front of `bytes` and returns it with
    /// its size (extra bytes after it are ignored), checking the framing,
    /// the checksum, the count, the move codes and the result; the moves'
    /// legality is checked by [`board`](Self::board).
    ///
    /// # Errors
    ///
    /// What is wrong, as a [`VisitError`].
    pub fn from_bytes(bytes: &[u8]) -> Result<(VisitRecord, usize), VisitError> {
        let mut record = VisitRecord::default();
        let len = record.decode(bytes)?;
        Ok((record, len))
    }

    /// [`from_bytes`](Self::from_bytes) into `self`, reusing its move
    /// list's memory; returns the record's size.
    ///
    /// # Errors
    ///
    /// What is wrong, as a [`VisitError`].
    pub fn decode(&mut self, bytes: &[u8]) -> Result<usize, VisitError> {
        let short = |needed| VisitError::Short {
            needed,
            available: bytes.len(),
        };
        let Some(&count) = bytes.get(4 + RECORD_SIZE) else {
            return Err(short(RECORD_OVERHEAD));
        };
        let len = VisitRecord::len_of(count);
        if bytes.len() < len {
            return Err(short(len));
        }
        let body = checked_body(&bytes[..len])
            .map_err(|(stored, computed)| VisitError::Checksum { stored, computed })?;
        if count == 0 {
            return Err(VisitError::NoMoves);
        }
        let mut position = [0u8; RECORD_SIZE];
        position.copy_from_slice(&body[4..4 + RECORD_SIZE]);
        let mut position = PackedBoard::from_bytes(&position);
        if Wdl::from_byte(position.wdl).is_none() {
            return Err(VisitError::Position(DataError::Result(position.wdl)));
        }
        position.extra = 0;
        self.game = u32::from_le_bytes([body[0], body[1], body[2], body[3]]);
        self.position = position;
        self.moves.clear();
        let mut any = false;
        for (index, c) in body[5 + RECORD_SIZE..].chunks_exact(MOVE_SIZE).enumerate() {
            let bits = u16::from_le_bytes([c[0], c[1]]);
            let mv = Move::from_bits(bits).ok_or(VisitError::MoveKind { index, bits })?;
            let visits = u16::from_le_bytes([c[2], c[3]]);
            any |= visits > 0;
            self.moves.push(MoveVisits { mv, visits });
        }
        if !any {
            return Err(VisitError::NoVisits);
        }
        Ok(len)
    }

    /// The position as a board, every listed move checked legal in it and
    /// listed once.
    ///
    /// # Errors
    ///
    /// A position that is not one, an illegal or a duplicate move.
    pub fn board(&self) -> Result<Bitboards, VisitError> {
        let unpacked = self.position.unpack()?;
        let board = Bitboards::from_setup(&unpacked.setup)
            .map_err(|e| VisitError::Position(DataError::Position(e)))?;
        let legal = board.legal_moves();
        for (index, m) in self.moves.iter().enumerate() {
            let bits = m.mv.bits();
            if m.mv == Move::NULL || !legal.contains(&m.mv) {
                return Err(VisitError::IllegalMove {
                    index,
                    bits,
                    fen: board.fen(),
                });
            }
            if let Some(first) = self.moves[..index].iter().position(|o| o.mv == m.mv) {
                return Err(VisitError::Duplicate { index, first, bits });
            }
        }
        Ok(board)
    }
}
