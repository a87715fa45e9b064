//! A games file as an ordered list of training positions that can be read
//! by range: what a trainer that shuffles chunks of a file needs.

use super::{CutShort, Filter, FilterCounts, GameReader, GameRecord, GamesError, Location};
use crate::marlin::PackedBoard;
use std::path::{Path, PathBuf};

/// The training positions of a games file, as a [`Filter`] picks them,
/// numbered in file order and readable by range.
///
/// [`open`](GamesFile::open) reads the whole file once (every game checked
/// move by move) and keeps, per game that holds a training position, where
/// it starts in the file and the number of its first position: 24 bytes a
/// game, 24 MB for a million games (about 100 M positions). A read then
/// seeks to the game holding its first position and replays from there.
/// The file's length is taken at `open`: games appended later are not seen.
/// A file that ends inside a game (one a running `datagen` is still
/// writing, or a copy cut short) gives its whole games, and
/// [`cut_short`](GamesFile::cut_short) says where it was cut; damage
/// anywhere else is an error, a damaged entry count that runs past the end
/// of the file included ([`GameError::CountPastEnd`](super::GameError::CountPastEnd)).
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::MoveGen;
/// use fianchetto_data::games::{self, Entry, Filter, GameRecord, GamesFile};
///
/// let mut board = Bitboards::startpos();
/// let mut game = GameRecord::new(&board, false);
/// for _ in 0..6 {
///     let mv = board.legal_moves()[0];
///     game.entries.push(Entry { mv, score: 12 });
///     board.play_unchecked(mv);
/// }
/// let mut bytes = games::header().to_vec();
/// for _ in 0..3 {
///     game.write_to(&mut bytes)?;
/// }
/// let path = std::env::temp_dir().join(format!("indexed-doc-{}.games", std::process::id()));
/// std::fs::write(&path, &bytes)?;
///
/// let file = GamesFile::open(&path, Filter::NONE)?;
/// assert_eq!(file.len(), 18);
/// let mut out = Vec::new();
/// file.read(5, 3, &mut out)?; // the last of game 0, the first two of game 1
/// assert_eq!(out.len(), 3);
/// assert_eq!(out[1].fullmove, 1);
/// # std::fs::remove_file(path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct GamesFile {
    path: PathBuf,
    filter: Filter,
    /// Per game with a training position: its location and the number of
    /// its first training position.
    index: Vec<(Location, u64)>,
    len: u64,
    counts: FilterCounts,
    cut_short: Option<CutShort>,
}

impl GamesFile {
    /// Opens `path`, checks every game and indexes the positions `filter`
    /// keeps.
    pub fn open(path: &Path, filter: Filter) -> Result<GamesFile, GamesError> {
        let mut reader = GameReader::open(path)?.ending_at_cut();
        let mut game = GameRecord::default();
        let mut positions = Vec::new();
        let mut counts = FilterCounts::default();
        let mut index = Vec::new();
        let mut len = 0u64;
        while let Some(at) = reader.read_into(&mut game)? {
            positions.clear();
            game.expand(&filter, &mut positions, &mut counts)
                .map_err(|e| reader.error_at(at, e))?;
            if !positions.is_empty() {
                index.push((at, len));
                len += positions.len() as u64;
            }
        }
        Ok(GamesFile {
            path: path.to_path_buf(),
            filter,
            index,
            len,
            counts,
            cut_short: reader.cut_short().cloned(),
        })
    }

    /// Where the file ended inside a game, if it did: that game and
    /// anything after it are not read.
    pub fn cut_short(&self) -> Option<&CutShort> {
        self.cut_short.as_ref()
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many training positions.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// What the filter kept and skipped over the whole file.
    pub fn counts(&self) -> FilterCounts {
        self.counts
    }

    /// Appends training positions `start .. start + count` (clipped to
    /// [`len`](Self::len)) to `out`, in order.
    pub fn read(
        &self,
        start: u64,
        count: usize,
        out: &mut Vec<PackedBoard>,
    ) -> Result<(), GamesError> {
        let end = start.saturating_add(count as u64).min(self.len);
        if start >= end {
            return Ok(());
        }
        // The game holding `start`: the last one whose first position is at
        // or before it.
        let g = self.index.partition_point(|&(_, first)| first <= start) - 1;
        let (at, first) = self.index[g];
        let mut reader = GameReader::open_at(&self.path, at)?;
        let mut game = GameRecord::default();
        let mut positions = Vec::new();
        let mut skip = start - first;
        let mut wanted = end - start;
        while wanted > 0 {
            let Some(at) = reader.read_into(&mut game)? else {
                break;
            };
            positions.clear();
            game.expand(&self.filter, &mut positions, &mut FilterCounts::default())
                .map_err(|e| reader.error_at(at, e))?;
            let from = (skip as usize).min(positions.len());
            skip -= from as u64;
            let take = (positions.len() - from).min(wanted as usize);
            out.extend_from_slice(&positions[from..from + take]);
            wanted -= take as u64;
        }
        if wanted > 0 {
            return Err(GamesError::Io {
                path: self.path.clone(),
                source: std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the file holds fewer games than when it was opened",
                ),
            });
        }
        Ok(())
    }
}
