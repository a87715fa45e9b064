//! Where training positions come from, and the features the network sees
//! in each.
//!
//! A [`PositionSource`] is anything that holds training positions in a
//! fixed order and can read a range of them: a marlinformat file
//! ([`MarlinFile`]), records in memory ([`MemorySource`]), or another
//! format converted on the fly. [`TrainData`] puts sources end to end,
//! checks every record once, and fingerprints them; the trainer then reads
//! them in shuffled chunks ([`crate::loader`]), so the data never has to
//! fit in memory.

use crate::TrainError;
use fianchetto_board::{Bitboard, Color, Piece, Role, Square};
use fianchetto_data::games::{CutShort, Filter, GameReader, GamesFile};
use fianchetto_data::marlin::{record_count, DataError, PackedBoard, RECORD_SIZE};
use fianchetto_eval::nnue::{Arch, SCALE};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A flag of a position in a batch: it is seen mirrored left to right
/// (files a↔h). Chess without castling rights is symmetric under that
/// mirror, so the mirrored record is another true example with the same
/// score and result: the data set doubles for free. Only records without
/// castling rights are ever mirrored (see [`mirrorable`]).
pub(crate) const MIRRORED: u32 = 1;

/// Positions read per call when a source is checked.
const CHECK_CHUNK: usize = 1 << 16;

/// A fixed, ordered collection of training positions that can be read by
/// range. Implement it to train on another format: the trainer only ever
/// calls these two methods.
pub trait PositionSource: Send + Sync {
    /// Names the source in messages (a file's path).
    fn name(&self) -> String;

    /// How many positions it holds.
    fn len(&self) -> u64;

    /// Whether it holds none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends positions `start .. start + count` (within
    /// [`len`](Self::len)) to `out`, in order.
    fn read(&self, start: u64, count: usize, out: &mut Vec<PackedBoard>) -> Result<(), DataError>;

    /// Where a file source ended inside a game (its whole games are the
    /// source); `None` for whole files and other sources.
    fn cut_short(&self) -> Option<&CutShort> {
        None
    }
}

/// A marlinformat file (32 bytes a record), read by range with a seek.
#[derive(Clone, Debug)]
pub struct MarlinFile {
    path: PathBuf,
    len: u64,
}

impl MarlinFile {
    /// Opens `path`, refusing a file that is not a whole number of records.
    /// The length is taken now: records appended later are not seen.
    pub fn open(path: &Path) -> Result<MarlinFile, DataError> {
        Ok(MarlinFile {
            len: record_count(path)?,
            path: path.to_path_buf(),
        })
    }
}

impl PositionSource for MarlinFile {
    fn name(&self) -> String {
        self.path.display().to_string()
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn read(&self, start: u64, count: usize, out: &mut Vec<PackedBoard>) -> Result<(), DataError> {
        let io = |source| DataError::Io {
            path: self.path.clone(),
            source,
        };
        let mut file = File::open(&self.path).map_err(io)?;
        file.seek(SeekFrom::Start(start * RECORD_SIZE as u64))
            .map_err(io)?;
        let mut bytes = vec![0u8; count * RECORD_SIZE];
        file.read_exact(&mut bytes).map_err(io)?;
        out.extend(bytes.chunks_exact(RECORD_SIZE).map(|c| {
            let mut record = [0u8; RECORD_SIZE];
            record.copy_from_slice(c);
            PackedBoard::from_bytes(&record)
        }));
        Ok(())
    }
}

/// A games-format file: its training positions as `filter` picks them
/// (see [`GamesFile`]), each game checked move by move when it is opened.
impl PositionSource for GamesFile {
    fn name(&self) -> String {
        self.path().display().to_string()
    }

    fn len(&self) -> u64 {
        GamesFile::len(self)
    }

    fn read(&self, start: u64, count: usize, out: &mut Vec<PackedBoard>) -> Result<(), DataError> {
        GamesFile::read(self, start, count, out).map_err(|e| DataError::Games(Box::new(e)))
    }

    fn cut_short(&self) -> Option<&CutShort> {
        GamesFile::cut_short(self)
    }
}

/// Records held in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemorySource {
    records: Vec<PackedBoard>,
}

impl MemorySource {
    /// A source of `records`, in order.
    pub fn new(records: Vec<PackedBoard>) -> MemorySource {
        MemorySource { records }
    }
}

impl PositionSource for MemorySource {
    fn name(&self) -> String {
        "(memory)".to_string()
    }

    fn len(&self) -> u64 {
        self.records.len() as u64
    }

    fn read(&self, start: u64, count: usize, out: &mut Vec<PackedBoard>) -> Result<(), DataError> {
        let start = usize::try_from(start)
            .unwrap_or(usize::MAX)
            .min(self.records.len());
        let end = start.saturating_add(count).min(self.records.len());
        out.extend_from_slice(&self.records[start..end]);
        Ok(())
    }
}

/// The positions a [`Trainer`](crate::Trainer) learns from: sources end to
/// end, every record checked once when the data set is made (a record that
/// does not decode to a legal position with a result of 0, 1 or 2 is an
/// error naming its source and index; nothing is skipped), and a
/// fingerprint of all of them, so that a run is resumed only on its own
/// data.
#[derive(Clone)]
pub struct TrainData {
    sources: Vec<Arc<dyn PositionSource>>,
    /// Where each source starts in the global order, and the total last.
    starts: Vec<u64>,
    fingerprint: u64,
}

impl std::fmt::Debug for TrainData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.sources.iter().map(|s| s.name()).collect();
        f.debug_struct("TrainData")
            .field("sources", &names)
            .field("positions", &self.len())
            .field("fingerprint", &format_args!("{:016x}", self.fingerprint))
            .finish()
    }
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
    /// The data files `paths`, in order, with the default [`Filter`] for
    /// games-format files: [`load_filtered`](Self::load_filtered).
    pub fn load<P: AsRef<Path>>(paths: &[P]) -> Result<TrainData, TrainError> {
        Self::load_filtered(paths, &Filter::default())
    }

    /// The data files `paths`, in order: marlinformat files (every record)
    /// and games-format files (the positions `filter` keeps), told apart by
    /// content. Every marlinformat file's length is checked and every games
    /// file indexed (each game checked move by move) before any position
    /// is read; then every record (see [`from_sources`](Self::from_sources)).
    pub fn load_filtered<P: AsRef<Path>>(
        paths: &[P],
        filter: &Filter,
    ) -> Result<TrainData, TrainError> {
        let mut sources: Vec<Arc<dyn PositionSource>> = Vec::with_capacity(paths.len());
        for path in paths {
            let path = path.as_ref();
            let games = GameReader::is_games_file(path).map_err(|source| DataError::Io {
                path: path.to_path_buf(),
                source,
            })?;
            if games {
                let file =
                    GamesFile::open(path, *filter).map_err(|e| DataError::Games(Box::new(e)))?;
                sources.push(Arc::new(file));
            } else {
                sources.push(Arc::new(MarlinFile::open(path)?));
            }
        }
        Self::from_sources(sources)
    }

    /// A data set from records already in memory, checked like
    /// [`load`](Self::load)'s (errors name the source `(memory)`).
    pub fn from_records(records: Vec<PackedBoard>) -> Result<TrainData, TrainError> {
        Self::from_sources(vec![Arc::new(MemorySource::new(records))])
    }

    /// A data set of `sources` end to end. Reads every position once:
    /// checks it and adds it to the fingerprint.
    pub fn from_sources(sources: Vec<Arc<dyn PositionSource>>) -> Result<TrainData, TrainError> {
        let mut starts = Vec::with_capacity(sources.len() + 1);
        let mut total = 0u64;
        for s in &sources {
            starts.push(total);
            total = total.saturating_add(s.len());
        }
        starts.push(total);
        let mut fingerprint = FNV64_START;
        let mut buf = Vec::with_capacity(CHECK_CHUNK);
        for source in &sources {
            let mut at = 0u64;
            while at < source.len() {
                let n = (source.len() - at).min(CHECK_CHUNK as u64) as usize;
                buf.clear();
                source.read(at, n, &mut buf)?;
                for (i, record) in buf.iter().enumerate() {
                    check(record, source.as_ref(), at + i as u64)?;
                    fingerprint = fnv1a64(fingerprint, &record.to_bytes());
                }
                at += n as u64;
            }
        }
        Ok(TrainData {
            sources,
            starts,
            fingerprint,
        })
    }

    /// The games files that ended inside a game, in order: each gives the
    /// whole games before the cut (see [`GamesFile::cut_short`]).
    pub fn cut_short(&self) -> Vec<CutShort> {
        self.sources
            .iter()
            .filter_map(|s| s.cut_short().cloned())
            .collect()
    }

    /// The names of the sources, in order (for a file, its path).
    pub fn source_names(&self) -> Vec<String> {
        self.sources.iter().map(|s| s.name()).collect()
    }

    /// How many positions.
    pub fn len(&self) -> u64 {
        self.starts.last().copied().unwrap_or(0)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A 64-bit FNV-1a hash of every record's bytes in order: a checkpoint
    /// remembers it so that a run is resumed only on the data it started on.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// Appends the positions `start .. start + count` of the whole data set
    /// (across sources) to `out`.
    pub fn read(
        &self,
        start: u64,
        count: u64,
        out: &mut Vec<PackedBoard>,
    ) -> Result<(), TrainError> {
        let end = start.saturating_add(count).min(self.len());
        let mut at = start;
        while at < end {
            // The source holding `at`: the last one starting at or before it.
            let s = self.starts.partition_point(|&b| b <= at) - 1;
            let source = &self.sources[s];
            let local = at - self.starts[s];
            let n = (end - at).min(source.len() - local);
            source.read(local, n as usize, out)?;
            at += n;
        }
        Ok(())
    }

    /// The position at global index `index` (for tools and tests; reads
    /// its source).
    pub fn get(&self, index: u64) -> Result<Option<PackedBoard>, TrainError> {
        let mut one = Vec::with_capacity(1);
        self.read(index, 1, &mut one)?;
        Ok(one.pop())
    }
}

/// Refuses a record that is not a position (the trainer would otherwise
/// learn from garbage without a word).
fn check(record: &PackedBoard, source: &dyn PositionSource, index: u64) -> Result<(), DataError> {
    record
        .unpack()
        .map(|_| ())
        .map_err(|error| DataError::Record {
            path: PathBuf::from(source.name()),
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

/// What the network sees of one record: the active feature rows of both
/// perspectives (the side to move's first) and the output bucket.
pub(crate) struct Features {
    /// Rows of the side to move's perspective.
    pub stm: [u32; 32],
    /// Rows of the other side's perspective.
    pub nstm: [u32; 32],
    /// How many of each are set.
    pub len: usize,
    /// The output bucket.
    pub bucket: usize,
}

impl Features {
    /// The side to move's rows.
    pub fn stm(&self) -> &[u32] {
        &self.stm[..self.len]
    }

    /// The other side's rows.
    pub fn nstm(&self) -> &[u32] {
        &self.nstm[..self.len]
    }
}

/// The features of `record` under `arch` (king buckets, mirroring, output
/// bucket), the same rows the inference reads. With `mirror`, every piece
/// first stands on the square of the mirrored file (the data augmentation
/// of [`TrainConfig::mirror`](crate::TrainConfig::mirror)). Extra pieces
/// and undefined codes are ignored, which only a record that failed
/// [`TrainData`]'s checks can have.
#[inline]
pub(crate) fn features(arch: &Arch, record: &PackedBoard, mirror: bool) -> Features {
    let us = record.turn();
    let mut placed = [(Piece::new(Color::White, Role::Pawn), Square::A1); 32];
    let mut n = 0;
    let mut kings = [Square::A1; 2];
    for (i, sq) in Bitboard(record.occupancy).into_iter().enumerate() {
        if n == 32 {
            break;
        }
        let code = (record.pieces[i / 2] >> (4 * (i % 2))) & 0xF;
        let Some(piece) = PIECE_OF_CODE[code as usize] else {
            continue;
        };
        let sq = if mirror {
            Square::from_coords(sq.file().mirror(), sq.rank())
        } else {
            sq
        };
        if piece.role == Role::King {
            kings[piece.color.index()] = sq;
        }
        placed[n] = (piece, sq);
        n += 1;
    }
    let them = match us {
        Color::White => Color::Black,
        Color::Black => Color::White,
    };
    let kb = &arch.king_buckets;
    let (v_us, v_them) = (
        kb.view(us.index(), kings[us.index()].index()),
        kb.view(them.index(), kings[them.index()].index()),
    );
    let mut f = Features {
        stm: [0; 32],
        nstm: [0; 32],
        len: n,
        bucket: arch.output_buckets.bucket(n as u32),
    };
    for (k, &(piece, sq)) in placed[..n].iter().enumerate() {
        let role = piece.role.index();
        f.stm[k] = v_us.index((piece.color != us) as usize, role, sq.index()) as u32;
        f.nstm[k] = v_them.index((piece.color != them) as usize, role, sq.index()) as u32;
    }
    f
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
    (1.0 - wdl_weight) * sigmoid(score_stm / SCALE as f32) + wdl_weight * result_stm
}

/// The logistic function.
#[inline]
pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, Board};
    use fianchetto_data::marlin::Wdl;
    use fianchetto_eval::nnue::{feature, KingBuckets};

    #[test]
    fn features_match_the_network_definition() {
        let board =
            Bitboards::from_fen("r3k2r/pp3ppp/8/3Pp3/8/8/PP3PPP/R3K2R b KQkq - 0 20").unwrap();
        let record = PackedBoard::pack(&board, 50, Wdl::Draw);
        let f = features(&Arch::plain(16), &record, false);
        assert_eq!(f.len as u32, board.occupied().count());
        let mut expect_s = Vec::new();
        let mut expect_n = Vec::new();
        for (sq, piece) in record.pieces().map(Result::unwrap) {
            expect_s.push(feature(Color::Black, piece, sq) as u32);
            expect_n.push(feature(Color::White, piece, sq) as u32);
        }
        assert_eq!(f.stm(), &expect_s[..]);
        assert_eq!(f.nstm(), &expect_n[..]);
        assert_eq!(f.bucket, 0);
    }

    #[test]
    fn bucketed_features_use_the_kings_view_and_the_piece_count() {
        // White's king on g1 (mirrored, back rank), black's on c8.
        let board = Bitboards::from_fen("2k5/8/8/8/8/8/5PPP/6K1 w - - 0 1").unwrap();
        let record = PackedBoard::pack(&board, 0, Wdl::Draw);
        let arch = Arch::plain(16)
            .with_king_buckets(KingBuckets::MIRRORED_4)
            .with_output_buckets(8);
        let f = features(&arch, &record, false);
        let kb = &arch.king_buckets;
        let white = kb.view(0, Square::G1.index());
        let black = kb.view(1, Square::C8.index());
        let mut expect_s = Vec::new();
        let mut expect_n = Vec::new();
        for (sq, piece) in record.pieces().map(Result::unwrap) {
            let side = |p: Color| (piece.color != p) as usize;
            expect_s.push(white.index(side(Color::White), piece.role.index(), sq.index()) as u32);
            expect_n.push(black.index(side(Color::Black), piece.role.index(), sq.index()) as u32);
        }
        assert_eq!(f.stm(), &expect_s[..]);
        assert_eq!(f.nstm(), &expect_n[..]);
        // g1 mirrors to b1: bucket 0; c8 is black's c1: bucket 1.
        assert_eq!((white.base, black.base), (0, 768));
        // 5 pieces: (5 - 2) / 4 = bucket 0; output buckets by piece count.
        assert_eq!(f.bucket, 0);
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
        let sorted = |v: &[u32]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        for arch in [
            Arch::plain(16),
            Arch::plain(16).with_king_buckets(KingBuckets::MIRRORED_9),
        ] {
            let a = features(&arch, &record, true);
            let b = features(&arch, &other, false);
            assert_eq!(sorted(a.stm()), sorted(b.stm()));
            assert_eq!(sorted(a.nstm()), sorted(b.nstm()));
        }
        let plain = Arch::plain(16);
        assert_ne!(
            sorted(features(&plain, &record, true).stm()),
            sorted(features(&plain, &record, false).stm())
        );
    }

    #[test]
    fn castling_rights_forbid_the_mirror() {
        let with = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1").unwrap();
        let without = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1").unwrap();
        assert!(!mirrorable(&PackedBoard::pack(&with, 0, Wdl::Draw)));
        assert!(mirrorable(&PackedBoard::pack(&without, 0, Wdl::Draw)));
    }

    #[test]
    fn sources_read_by_range_across_files() {
        let boards: Vec<PackedBoard> = (0..10)
            .map(|i| PackedBoard::pack(&Bitboards::startpos(), i, Wdl::Draw))
            .collect();
        let data = TrainData::from_sources(vec![
            Arc::new(MemorySource::new(boards[..3].to_vec())),
            Arc::new(MemorySource::new(Vec::new())),
            Arc::new(MemorySource::new(boards[3..].to_vec())),
        ])
        .unwrap();
        assert_eq!(data.len(), 10);
        let mut out = Vec::new();
        data.read(1, 6, &mut out).unwrap();
        assert_eq!(out, boards[1..7]);
        assert_eq!(data.get(9).unwrap(), Some(boards[9]));
        assert_eq!(data.get(10).unwrap(), None);
    }
}
