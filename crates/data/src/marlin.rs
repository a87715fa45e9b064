//! Training data in marlinformat: one position, its search score and its
//! game's result in 32 bytes.
//!
//! The layout (all integers little-endian) is the one marlinflow defined and
//! bullet, Viridithas and most open-source trainers read, so our data files
//! and the community's are interchangeable:
//!
//! | bytes | field | meaning |
//! |---|---|---|
//! | 0–7 | `occupancy` | bitboard of occupied squares (a1 = bit 0) |
//! | 8–23 | `pieces` | one 4-bit code per occupied square, in square order, low nibble first: bits 0–2 the role (0 pawn … 5 king, 6 a rook that still has its castling right), bit 3 set for black |
//! | 24 | `stm_ep` | bit 7 set when black is to move; bits 0–6 the en-passant square, 64 for none |
//! | 25 | `halfmove` | the halfmove clock (saturated at 255) |
//! | 26–27 | `fullmove` | the move number |
//! | 28–29 | `score` | the search score in centipawns, **from white's point of view** |
//! | 30 | `wdl` | the game's result: 0 black won, 1 draw, 2 white won |
//! | 31 | `extra` | unused, 0 |
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_data::marlin::{PackedBoard, Wdl};
//!
//! let board = Bitboards::from_fen("r3k2r/8/8/8/4Pp2/8/8/R3K2R b KQq e3 0 20")?;
//! let packed = PackedBoard::pack(&board, -35, Wdl::Draw);
//! let bytes = packed.to_bytes();
//! let back = PackedBoard::from_bytes(&bytes).unpack()?;
//! assert_eq!(back.setup.to_fen(), board.fen());
//! assert_eq!((back.score, back.wdl), (-35, Wdl::Draw));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use fianchetto_board::{
    validate, Bitboard, Board, CastlingRights, CastlingSide, Color, Piece, PositionError, Rank,
    Role, Setup, Square,
};
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

/// The size of one record in bytes.
pub const RECORD_SIZE: usize = 32;

/// The role code of a rook whose castling right still stands.
const UNMOVED_ROOK: u8 = 6;
/// The colour bit of a piece code.
const BLACK_BIT: u8 = 8;
/// The en-passant field's "no square".
const NO_EP: u8 = 64;

/// A game's result, from white's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Wdl {
    /// Black won.
    BlackWin = 0,
    /// Drawn.
    #[default]
    Draw = 1,
    /// White won.
    WhiteWin = 2,
}

impl Wdl {
    /// The result as a score for white: 0, ½ or 1.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// The side that won, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Wdl::BlackWin => Some(Color::Black),
            Wdl::Draw => None,
            Wdl::WhiteWin => Some(Color::White),
        }
    }

    /// The result for a game that `winner` won (`None`: drawn).
    pub fn from_winner(winner: Option<Color>) -> Wdl {
        match winner {
            Some(Color::White) => Wdl::WhiteWin,
            Some(Color::Black) => Wdl::BlackWin,
            None => Wdl::Draw,
        }
    }

    /// The result of a result byte (0, 1 or 2), `None` for any other.
    pub fn from_byte(b: u8) -> Option<Wdl> {
        match b {
            0 => Some(Wdl::BlackWin),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::WhiteWin),
            _ => None,
        }
    }
}

/// What is wrong with a record or a data file.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// A data file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The file's length is not a whole number of records.
    #[error("{path}: {len} bytes is not a whole number of {RECORD_SIZE}-byte marlinformat records (truncated, or not a data file?)")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Its length in bytes.
        len: u64,
    },
    /// A record has more than 32 occupied squares.
    #[error("record has {0} occupied squares; at most 32 fit")]
    TooManyPieces(u32),
    /// A piece code is not one of the defined ones.
    #[error("record has piece code {code} on {square}; expected 0-6 or 8-14")]
    PieceCode {
        /// The code.
        code: u8,
        /// The square it stands on.
        square: Square,
    },
    /// An unmoved-rook code on a square that gives no castling right.
    #[error("record marks the rook on {0} as unmoved, but it is not on its king's back rank, or another unmoved rook holds that side's right")]
    UnmovedRook(Square),
    /// The en-passant byte names no square.
    #[error("record has en-passant square {0}; expected 0-63 or 64 for none")]
    EnPassant(u8),
    /// The result byte is not 0, 1 or 2.
    #[error("record has result {0}; expected 0 (black won), 1 (draw) or 2 (white won)")]
    Result(u8),
    /// The record decodes to an impossible position.
    #[error("record decodes to an impossible position: {0}")]
    Position(#[from] PositionError),
    /// A games-format file read as training positions is damaged.
    #[error(transparent)]
    Games(Box<crate::games::GamesError>),
    /// A record in a file is malformed.
    #[error("{path}: record {index}: {error}")]
    Record {
        /// The file.
        path: PathBuf,
        /// The record's index (0 = first).
        index: u64,
        /// What is wrong with it.
        error: Box<DataError>,
    },
}

/// One marlinformat record; see the [module documentation](self) for the
/// layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PackedBoard {
    /// Occupied squares.
    pub occupancy: u64,
    /// Piece codes, two per byte, in the order of the occupied squares.
    pub pieces: [u8; 16],
    /// Side to move (bit 7) and en-passant square (bits 0-6, 64 for none).
    pub stm_ep: u8,
    /// Halfmove clock.
    pub halfmove: u8,
    /// Fullmove number.
    pub fullmove: u16,
    /// Score in centipawns from white's point of view.
    pub score: i16,
    /// The game's result: 0 black won, 1 draw, 2 white won.
    pub wdl: u8,
    /// Unused.
    pub extra: u8,
}

/// A record decoded: the position, the score and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unpacked {
    /// The position (validated).
    pub setup: Setup,
    /// The search score, from white's point of view.
    pub score: i16,
    /// The game's result.
    pub wdl: Wdl,
}

impl PackedBoard {
    /// Packs `board` with its `score` (centipawns, **white's** point of
    /// view) and the game's result.
    pub fn pack<B: Board>(board: &B, score: i16, wdl: Wdl) -> PackedBoard {
        let occupied = board.occupied();
        let castling = board.castling();
        let mut pieces = [0u8; 16];
        for (i, sq) in occupied.into_iter().enumerate() {
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            let mut code = piece.role as u8;
            if piece.role == Role::Rook && castling_rook(castling, piece.color, sq) {
                code = UNMOVED_ROOK;
            }
            if piece.color == Color::Black {
                code |= BLACK_BIT;
            }
            pieces[i / 2] |= code << (4 * (i % 2));
        }
        let stm = if board.turn() == Color::Black {
            0x80
        } else {
            0
        };
        let ep = board.ep_square().map_or(NO_EP, |sq| sq.index() as u8);
        PackedBoard {
            occupancy: occupied.0,
            pieces,
            stm_ep: stm | ep,
            halfmove: board.halfmove_clock().min(255) as u8,
            fullmove: board.fullmove_number().min(u16::MAX as u32) as u16,
            score,
            wdl: wdl as u8,
            extra: 0,
        }
    }

    /// The 32 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut out = [0u8; RECORD_SIZE];
        out[0..8].copy_from_slice(&self.occupancy.to_le_bytes());
        out[8..24].copy_from_slice(&self.pieces);
        out[24] = self.stm_ep;
        out[25] = self.halfmove;
        out[26..28].copy_from_slice(&self.fullmove.to_le_bytes());
        out[28..30].copy_from_slice(&self.score.to_le_bytes());
        out[30] = self.wdl;
        out[31] = self.extra;
        out
    }

    /// The record held in 32 bytes (any bytes are a record; [`unpack`](Self::unpack)
    /// says whether it describes a position).
    pub fn from_bytes(bytes: &[u8; RECORD_SIZE]) -> PackedBoard {
        let mut pieces = [0u8; 16];
        pieces.copy_from_slice(&bytes[8..24]);
        PackedBoard {
            occupancy: u64::from_le_bytes([
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            ]),
            pieces,
            stm_ep: bytes[24],
            halfmove: bytes[25],
            fullmove: u16::from_le_bytes([bytes[26], bytes[27]]),
            score: i16::from_le_bytes([bytes[28], bytes[29]]),
            wdl: bytes[30],
            extra: bytes[31],
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        if self.stm_ep & 0x80 != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The occupied squares with their pieces, without validating anything
    /// beyond the piece codes (what a trainer needs, fast). Unmoved rooks are
    /// reported as rooks.
    pub fn pieces(&self) -> impl Iterator<Item = Result<(Square, Piece), DataError>> + '_ {
        Bitboard(self.occupancy)
            .into_iter()
            .enumerate()
            .map(move |(i, sq)| {
                let code = self
                    .pieces
                    .get(i / 2)
                    .map_or(0, |b| (b >> (4 * (i % 2))) & 0xF);
                decode_piece(code)
                    .map(|p| (sq, p))
                    .ok_or(DataError::PieceCode { code, square: sq })
            })
    }

    /// Decodes the record into a validated position, its score and its result.
    pub fn unpack(&self) -> Result<Unpacked, DataError> {
        let count = self.occupancy.count_ones();
        if count > 32 {
            return Err(DataError::TooManyPieces(count));
        }
        let mut setup = Setup::empty();
        let mut unmoved_rooks = Vec::new();
        for (i, sq) in Bitboard(self.occupancy).into_iter().enumerate() {
            let code = (self.pieces[i / 2] >> (4 * (i % 2))) & 0xF;
            let piece = decode_piece(code).ok_or(DataError::PieceCode { code, square: sq })?;
            if code & 7 == UNMOVED_ROOK {
                unmoved_rooks.push((piece.color, sq));
            }
            setup.board[sq.index()] = Some(piece);
        }
        // A rook that keeps a castling right castles towards its side of its
        // own king on the back rank (any files: Chess960 too).
        let mut castling = CastlingRights::NONE;
        for (color, sq) in unmoved_rooks {
            let back = Rank::new(if color == Color::White { 0 } else { 7 });
            let king = Square::all().find(|&k| {
                Some(k.rank()) == back
                    && setup.board[k.index()] == Some(Piece::new(color, Role::King))
            });
            let side = king
                .filter(|_| Some(sq.rank()) == back)
                .and_then(|k| CastlingSide::of_rook(k.file(), sq.file()).map(|s| (k, s)));
            // Two unmoved rooks on one side of the king: which one castles?
            let Some((king, side)) = side.filter(|&(_, side)| !castling.has(color, side)) else {
                return Err(DataError::UnmovedRook(sq));
            };
            castling = castling.with_files(color, side, king.file(), sq.file());
        }
        setup.turn = self.turn();
        setup.castling = castling;
        let ep = self.stm_ep & 0x7F;
        setup.ep_square = match ep {
            NO_EP => None,
            0..=63 => Square::new(ep),
            _ => return Err(DataError::EnPassant(ep)),
        };
        setup.halfmove_clock = self.halfmove as u32;
        setup.fullmove_number = (self.fullmove as u32).max(1);
        let wdl = Wdl::from_byte(self.wdl).ok_or(DataError::Result(self.wdl))?;
        validate(&setup)?;
        Ok(Unpacked {
            setup,
            score: self.score,
            wdl,
        })
    }
}

/// The piece of a 4-bit code (unmoved rooks are rooks), `None` for the two
/// undefined codes (7 and 15).
fn decode_piece(code: u8) -> Option<Piece> {
    let color = if code & BLACK_BIT != 0 {
        Color::Black
    } else {
        Color::White
    };
    let role = match code & 7 {
        UNMOVED_ROOK => Role::Rook,
        r => Role::from_index(r as usize)?,
    };
    Some(Piece::new(color, role))
}

/// Whether a rook of `color` on `sq` carries one of the castling rights.
fn castling_rook(castling: CastlingRights, color: Color, sq: Square) -> bool {
    CastlingSide::ALL
        .into_iter()
        .any(|side| castling.has(color, side) && castling.rook_square(color, side) == Some(sq))
}

/// How many whole records a file of `len` bytes holds, or the error for a
/// length that is not a multiple of [`RECORD_SIZE`].
pub fn record_count(path: &Path) -> Result<u64, DataError> {
    let len = std::fs::metadata(path)
        .map_err(|source| DataError::Io {
            path: path.to_path_buf(),
            source,
        })?
        .len();
    if len % RECORD_SIZE as u64 != 0 {
        return Err(DataError::Truncated {
            path: path.to_path_buf(),
            len,
        });
    }
    Ok(len / RECORD_SIZE as u64)
}

/// Streams the records of a marlinformat file in constant memory.
///
/// The file's length is checked first: a file that is not a whole number
/// of records (a truncated copy, a file of another format) is refused
/// before anything is read.
pub struct RecordReader {
    path: PathBuf,
    reader: BufReader<File>,
    remaining: u64,
    index: u64,
}

impl RecordReader {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<RecordReader, DataError> {
        let remaining = record_count(path)?;
        let file = File::open(path).map_err(|source| DataError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(RecordReader {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(1 << 16, file),
            remaining,
            index: 0,
        })
    }

    /// How many records are left to read.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }
}

impl Iterator for RecordReader {
    type Item = Result<PackedBoard, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        let mut bytes = [0u8; RECORD_SIZE];
        if let Err(source) = self.reader.read_exact(&mut bytes) {
            self.remaining = 0;
            return Some(Err(DataError::Io {
                path: self.path.clone(),
                source,
            }));
        }
        self.remaining -= 1;
        self.index += 1;
        Some(Ok(PackedBoard::from_bytes(&bytes)))
    }
}

/// Reads every record of `path` and decodes it, naming the first bad one.
pub fn read_all(path: &Path) -> Result<Vec<Unpacked>, DataError> {
    let mut out = Vec::new();
    for (index, record) in RecordReader::open(path)?.enumerate() {
        let unpacked = record?.unpack().map_err(|error| DataError::Record {
            path: path.to_path_buf(),
            index: index as u64,
            error: Box::new(error),
        })?;
        out.push(unpacked);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Bitboards;

    #[test]
    fn start_position_bytes() {
        let packed = PackedBoard::pack(&Bitboards::startpos(), 25, Wdl::WhiteWin);
        let b = packed.to_bytes();
        assert_eq!(&b[0..8], &0xFFFF_0000_0000_FFFFu64.to_le_bytes());
        // a1 white unmoved rook (6), b1 knight (1): low nibble first.
        assert_eq!(b[8], 0x16);
        // c1 bishop (2) and d1 queen (4); e1 king (5) and f1 bishop (2).
        assert_eq!(b[9], 0x42);
        assert_eq!(b[10], 0x25);
        // a8 black unmoved rook: 6 | 8 = 14, b8 black knight 9.
        assert_eq!(b[20], 0x9E);
        assert_eq!(b[24], 64);
        assert_eq!((b[25], b[26], b[27]), (0, 1, 0));
        assert_eq!(i16::from_le_bytes([b[28], b[29]]), 25);
        assert_eq!((b[30], b[31]), (2, 0));
    }

    #[test]
    fn round_trips_castling_and_en_passant() {
        for fen in [
            "r3k2r/8/8/8/4Pp2/8/8/R3K2R b KQq e3 0 20",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 33",
            "r3k2r/8/8/8/8/8/8/R3K2R w Kk - 12 40",
            "8/8/8/8/8/8/8/K6k w - - 99 300",
        ] {
            let board = Bitboards::from_fen(fen).unwrap();
            let unpacked =
                PackedBoard::from_bytes(&PackedBoard::pack(&board, 7, Wdl::BlackWin).to_bytes())
                    .unpack()
                    .unwrap();
            assert_eq!(unpacked.setup.to_fen(), fen);
            assert_eq!(unpacked.wdl, Wdl::BlackWin);
        }
    }

    #[test]
    fn chess960_castling_rights_survive() {
        use fianchetto_board::CastlingMode;
        let fen = "bqnb1rkr/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/BQNB1RKR w HFhf - 2 3";
        let board = Bitboards::from_fen_with(fen, CastlingMode::Chess960).unwrap();
        let packed = PackedBoard::pack(&board, 0, Wdl::Draw);
        let back = Bitboards::from_setup(&packed.unpack().unwrap().setup).unwrap();
        assert_eq!(back.castling(), board.castling());
        assert_eq!(back.shredder_fen(), board.shredder_fen());
    }

    #[test]
    fn bad_records_are_named() {
        let good = PackedBoard::pack(&Bitboards::startpos(), 0, Wdl::Draw);
        let mut bad = good;
        bad.wdl = 3;
        assert!(matches!(bad.unpack(), Err(DataError::Result(3))));
        let mut bad = good;
        bad.stm_ep = 70;
        assert!(matches!(bad.unpack(), Err(DataError::EnPassant(70))));
        let mut bad = good;
        bad.pieces[0] = 0x17; // a1 code 7
        assert!(matches!(
            bad.unpack(),
            Err(DataError::PieceCode { code: 7, .. })
        ));
        let mut bad = good;
        bad.pieces[0] = 0x66; // b1 marked as an unmoved rook
        assert!(matches!(bad.unpack(), Err(DataError::UnmovedRook(_))));
        let mut bad = good;
        bad.occupancy = u64::MAX;
        assert!(matches!(bad.unpack(), Err(DataError::TooManyPieces(64))));
        let kings = PackedBoard::pack(
            &Bitboards::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
            0,
            Wdl::Draw,
        );
        assert_eq!(kings.pieces[0], 0xD5);
        let mut bad = kings;
        bad.pieces[0] = 0x55; // the black king becomes a second white king
        assert!(matches!(bad.unpack(), Err(DataError::Position(_))));
    }
}
