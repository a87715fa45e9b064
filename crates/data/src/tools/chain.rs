//! Marlinformat records read back as games: consecutive records one legal
//! move apart (with the same result) are joined into one game, so that
//! marlinformat data converts to the games format and back unchanged.

use crate::games::{Entry, GameRecord, MAX_ENTRIES};
use crate::marlin::{DataError, PackedBoard, RecordReader, Wdl};
use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_movegen::MoveGen;
use std::path::{Path, PathBuf};

/// Reads a marlinformat file as games (see the [module documentation](self)).
pub(crate) struct Chains {
    path: PathBuf,
    records: RecordReader,
    /// Records read so far.
    index: u64,
    /// A record read but not yet placed: the start of the next game.
    pending: Option<PackedBoard>,
    /// Games given out so far.
    games: u64,
}

impl Chains {
    pub(crate) fn open(path: &Path) -> Result<Chains, DataError> {
        Ok(Chains {
            path: path.to_path_buf(),
            records: RecordReader::open(path)?,
            index: 0,
            pending: None,
            games: 0,
        })
    }

    /// Games given out so far.
    pub(crate) fn games_read(&self) -> u64 {
        self.games
    }

    /// Records read so far (the index of the next one).
    pub(crate) fn records_read(&self) -> u64 {
        self.index - self.pending.is_some() as u64
    }

    fn read(&mut self) -> Result<Option<PackedBoard>, DataError> {
        if let Some(p) = self.pending.take() {
            return Ok(Some(p));
        }
        match self.records.next() {
            None => Ok(None),
            Some(r) => {
                self.index += 1;
                r.map(Some)
            }
        }
    }

    fn decode(&self, record: &PackedBoard, index: u64) -> Result<Bitboards, DataError> {
        let damaged = |error| DataError::Record {
            path: self.path.clone(),
            index,
            error: Box::new(error),
        };
        let unpacked = record.unpack().map_err(damaged)?;
        Bitboards::from_setup(&unpacked.setup).map_err(|e| damaged(DataError::Position(e)))
    }

    /// Reads the next game into `game`: the next record and every record
    /// after it that is one legal move further on, with the same result.
    /// Returns the index of its first record, or `None` at the end.
    pub(crate) fn next_game(&mut self, game: &mut GameRecord) -> Result<Option<u64>, DataError> {
        let Some(first) = self.read()? else {
            return Ok(None);
        };
        let first_index = self.index - 1;
        let mut board = self.decode(&first, first_index)?;
        *game = GameRecord {
            entries: std::mem::take(&mut game.entries),
            ..GameRecord::new(&board, !board.castling().is_standard())
        };
        game.entries.clear();
        game.result = Wdl::from_byte(first.wdl).unwrap_or_default();
        let mut score = first.score;
        loop {
            let next = if game.entries.len() + 1 < MAX_ENTRIES {
                self.read()?
            } else {
                None
            };
            let Some(next) = next else {
                game.entries.push(Entry {
                    mv: Move::NULL,
                    score,
                });
                self.games += 1;
                return Ok(Some(first_index));
            };
            match (next.wdl == first.wdl)
                .then(|| step(&board, &next))
                .flatten()
            {
                Some((mv, after)) => {
                    game.entries.push(Entry { mv, score });
                    board = after;
                    score = next.score;
                }
                None => {
                    self.pending = Some(next);
                    game.entries.push(Entry {
                        mv: Move::NULL,
                        score,
                    });
                    self.games += 1;
                    return Ok(Some(first_index));
                }
            }
        }
    }
}

/// The legal move from `board` to the position of `next` and the board
/// after it, when there is one and `next` is exactly what that position
/// packs to (clocks, castling rights and en passant included).
fn step(board: &Bitboards, next: &PackedBoard) -> Option<(Move, Bitboards)> {
    if next.extra != 0 {
        return None;
    }
    board.legal_moves().into_iter().find_map(|mv| {
        let mut after = board.clone();
        after.play_unchecked(mv);
        if after.occupied().0 != next.occupancy {
            return None;
        }
        let mut packed = PackedBoard::pack(&after, next.score, Wdl::Draw);
        packed.wdl = next.wdl;
        (packed == *next).then_some((mv, after))
    })
}
