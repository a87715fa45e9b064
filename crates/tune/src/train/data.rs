//! Training positions in memory: the 32-byte marlinformat records, checked
//! once when loaded, and the features the network sees in each.

use super::TrainError;
use crate::marlin::{record_count, DataError, PackedBoard, RecordReader};
use fianchetto_board::{Bitboard, Color, Piece, Role, Square};
use fianchetto_eval::nnue::feature;
use std::path::{Path, PathBuf};

/// The most positions one data set may hold (positions are indexed by
/// `u32` to keep the shuffled index lists small).
pub const MAX_POSITIONS: usize = (u32::MAX >> 1) as usize;

/// Set in a training index: the record is seen mirrored left to right
/// (files a↔h). Chess without castling rights is symmetric under that
/// mirror, so the mirrored record is another true example with the same
/// score and result: the data set doubles for free. Only records without
/// castling rights are ever mirrored (see [`mirrorable`]).
pub(crate) const MIRRORED: u32 = 1 << 31;

/// The positions a [`Trainer`](super::Trainer) learns from: every record of
/// the data files, validated and kept as the 32-byte records themselves.
///
/// Nothing is skipped: a record that does not decode to a legal position
/// with a result of 0, 1 or 2 is an error naming its file and index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainData {
    records: Vec<PackedBoard>,
    fingerprint: u64,
}

/// FNV-1a, 64 bits, continued from `hash`.
fn fnv1a64(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash = (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    hash
}
const FNV64_START: u64 = 0xCBF2_9CE4_8422_2325;

impl TrainData {
    /// Reads every record of `paths`, in order, through
    /// [`RecordReader`]. Fails on the first file that is not a whole number
    /// of records and on the first record that does not decode (naming the
    /// file and the record's index).
    pub fn load<P: AsRef<Path>>(paths: &[P]) -> Result<TrainData, TrainError> {
        // Every file's length first: a truncated file is refused before the
        // others are read, and the memory is reserved once.
        let mut total = 0u64;
        for path in paths {
            total = total.saturating_add(record_count(path.as_ref())?);
        }
        if total > MAX_POSITIONS as u64 {
            return Err(TrainError::TooManyPositions(total));
        }
        let mut records = Vec::with_capacity(total as usize);
        for path in paths {
            let path = path.as_ref();
            for (index, record) in RecordReader::open(path)?.enumerate() {
                let record = record?;
                check(&record, path, index as u64)?;
                records.push(record);
            }
        }
        Self::finish(records)
    }

    /// A data set from records already in memory, checked like
    /// [`load`](Self::load)'s (errors name the file `(memory)`).
    pub fn from_records(records: Vec<PackedBoard>) -> Result<TrainData, TrainError> {
        let memory = PathBuf::from("(memory)");
        for (index, record) in records.iter().enumerate() {
            check(record, &memory, index as u64)?;
        }
        Self::finish(records)
    }

    fn finish(records: Vec<PackedBoard>) -> Result<TrainData, TrainError> {
        if records.len() > MAX_POSITIONS {
            return Err(TrainError::TooManyPositions(records.len() as u64));
        }
        let fingerprint = records
            .iter()
            .fold(FNV64_START, |h, r| fnv1a64(h, &r.to_bytes()));
        Ok(TrainData {
            records,
            fingerprint,
        })
    }

    /// How many positions.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The records, in file order.
    pub fn records(&self) -> &[PackedBoard] {
        &self.records
    }

    /// A 64-bit FNV-1a hash of every record's bytes in order: a checkpoint
    /// remembers it so that a run is resumed only on the data it started on.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The record of a training index (its [`MIRRORED`] bit ignored).
    pub(crate) fn get(&self, index: u32) -> &PackedBoard {
        &self.records[(index & !MIRRORED) as usize]
    }
}

/// Refuses a record that is not a position (the trainer would otherwise
/// learn from garbage without a word).
fn check(record: &PackedBoard, path: &Path, index: u64) -> Result<(), DataError> {
    record
        .unpack()
        .map(|_| ())
        .map_err(|error| DataError::Record {
            path: path.to_path_buf(),
            index,
            error: Box::new(error),
        })
}

/// The piece of each 4-bit marlinformat code (unmoved rooks are rooks);
/// `None` for the two undefined codes.
const PIECE_OF_CODE: [Option<Piece>; 16] = {
    let mut t = [None; 16];
    let mut code = 0;
    while code < 16 {
        let color = if code & 8 != 0 {
            Color::Black
        } else {
            Color::White
        };
        let role = match code & 7 {
            0 => Some(Role::Pawn),
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 | 6 => Some(Role::Rook),
            4 => Some(Role::Queen),
            5 => Some(Role::King),
            _ => None,
        };
        if let Some(role) = role {
            t[code] = Some(Piece::new(color, role));
        }
        code += 1;
    }
    t
};

/// The active features of a position from both perspectives: the side to
/// move's (`stm`) and the other side's (`nstm`), as indices into the
/// feature-major weight rows. Returns how many were written to each (at
/// most 32; extra pieces and undefined codes are ignored, which only a
/// record that failed [`TrainData`]'s checks can have).
/// With `mirror`, every piece stands on the square of the mirrored file.
#[inline]
pub(crate) fn active_features(
    record: &PackedBoard,
    mirror: bool,
    stm: &mut [u16; 32],
    nstm: &mut [u16; 32],
) -> usize {
    let us = record.turn();
    let them = match us {
        Color::White => Color::Black,
        Color::Black => Color::White,
    };
    let mut n = 0;
    for (i, sq) in Bitboard(record.occupancy).into_iter().enumerate() {
        if n == 32 {
            break;
        }
        let code = (record.pieces[i / 2] >> (4 * (i % 2))) & 0xF;
        let Some(piece) = PIECE_OF_CODE[code as usize] else {
            continue;
        };
        let sq: Square = if mirror {
            Square::from_coords(sq.file().mirror(), sq.rank())
        } else {
            sq
        };
        stm[n] = feature(us, piece, sq) as u16;
        nstm[n] = feature(them, piece, sq) as u16;
        n += 1;
    }
    n
}

/// Whether the record may be mirrored left to right: it has no castling
/// right (a castling right ties the king and rook to their files; en
/// passant is no feature, so it does not matter).
pub(crate) fn mirrorable(record: &PackedBoard) -> bool {
    let pieces = record.occupancy.count_ones() as usize;
    (0..pieces.min(32)).all(|i| (record.pieces[i / 2] >> (4 * (i % 2))) & 0x7 != 6)
}

/// The training target of a record, from the side to move's point of view:
/// `(1 - wdl) · sigmoid(score / 400) + wdl · result`.
#[inline]
pub(crate) fn target(record: &PackedBoard, wdl_weight: f32) -> f32 {
    let white = record.turn() == Color::White;
    let score = record.score as f32;
    let score_stm = if white { score } else { -score };
    let result_white = record.wdl.min(2) as f32 * 0.5;
    let result_stm = if white {
        result_white
    } else {
        1.0 - result_white
    };
    (1.0 - wdl_weight) * sigmoid(score_stm / fianchetto_eval::nnue::SCALE as f32)
        + wdl_weight * result_stm
}

/// The logistic function.
#[inline]
pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marlin::Wdl;
    use fianchetto_board::{Bitboards, Board};

    #[test]
    fn features_match_the_network_definition() {
        let board =
            Bitboards::from_fen("r3k2r/pp3ppp/8/3Pp3/8/8/PP3PPP/R3K2R b KQkq - 0 20").unwrap();
        let record = PackedBoard::pack(&board, 50, Wdl::Draw);
        let (mut s, mut n) = ([0u16; 32], [0u16; 32]);
        let count = active_features(&record, false, &mut s, &mut n);
        assert_eq!(count as u32, board.occupied().count());
        let mut expect_s = Vec::new();
        let mut expect_n = Vec::new();
        for (sq, piece) in record.pieces().map(Result::unwrap) {
            expect_s.push(feature(Color::Black, piece, sq) as u16);
            expect_n.push(feature(Color::White, piece, sq) as u16);
        }
        assert_eq!(&s[..count], &expect_s[..]);
        assert_eq!(&n[..count], &expect_n[..]);
    }

    #[test]
    fn targets_are_from_the_side_to_move() {
        let white = Bitboards::startpos();
        let black =
            Bitboards::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .unwrap();
        let w = PackedBoard::pack(&white, 400, Wdl::WhiteWin);
        let b = PackedBoard::pack(&black, 400, Wdl::WhiteWin);
        assert!((target(&w, 0.0) - sigmoid(1.0)).abs() < 1e-6);
        assert!((target(&b, 0.0) - sigmoid(-1.0)).abs() < 1e-6);
        assert_eq!(target(&w, 1.0), 1.0);
        assert_eq!(target(&b, 1.0), 0.0);
        let d = PackedBoard::pack(&black, 0, Wdl::Draw);
        assert!((target(&d, 0.3) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn a_mirrored_record_has_the_features_of_the_mirrored_position() {
        let fen = "4k3/pp3ppp/2n5/3Pp3/1b6/5N2/PP1B1PPP/R3K3 w - e6 0 20";
        let mirrored = "3k4/ppp3pp/5n2/3pP3/6b1/2N5/PPP1B1PP/3K3R w - d6 0 20";
        let record = PackedBoard::pack(&Bitboards::from_fen(fen).unwrap(), 50, Wdl::Draw);
        let other = PackedBoard::pack(&Bitboards::from_fen(mirrored).unwrap(), 50, Wdl::Draw);
        assert!(mirrorable(&record));
        let (mut s, mut n) = ([0u16; 32], [0u16; 32]);
        let (mut s2, mut n2) = ([0u16; 32], [0u16; 32]);
        let count = active_features(&record, true, &mut s, &mut n);
        assert_eq!(count, active_features(&other, false, &mut s2, &mut n2));
        let sorted = |v: &[u16]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&s[..count]), sorted(&s2[..count]));
        assert_eq!(sorted(&n[..count]), sorted(&n2[..count]));
        assert_ne!(sorted(&s[..count]), {
            active_features(&record, false, &mut s2, &mut n2);
            sorted(&s2[..count])
        });
    }

    #[test]
    fn castling_rights_forbid_the_mirror() {
        let with = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1").unwrap();
        let without = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap();
        assert!(!mirrorable(&PackedBoard::pack(&with, 0, Wdl::Draw)));
        assert!(mirrorable(&PackedBoard::pack(&without, 0, Wdl::Draw)));
    }
}
