//! The policy trainer's data: whole games held in memory (about four bytes
//! a position, as in the file), each checked move by move when it is
//! loaded, and the training examples they give.
//!
//! An example is a position and the move the search played from it: every
//! entry of a game whose move is not null and whose position has at least
//! two legal moves (a forced move teaches nothing).

use crate::policy::model::{encode_move, Example};
use crate::TrainError;
use arrayvec::ArrayVec;
use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_data::games::{CutShort, GameError, GameReader, GameRecord, GamesError};
use fianchetto_data::marlin::DataError;
use fianchetto_eval::policy::{features_with, Threats, MAX_FEATURES};
use fianchetto_movegen::{MoveGen, MoveList};
use std::path::{Path, PathBuf};

/// Names games handed over in memory in error messages.
const MEMORY: &str = "(memory)";

/// The games a [`PolicyTrainer`](super::PolicyTrainer) learns from, every
/// one checked (each move legal where it is played) and fingerprinted when
/// the data set is made, so that a run is resumed only on its own data.
#[derive(Clone, Debug)]
pub struct PolicyData {
    games: Vec<GameRecord>,
    positions: u64,
    sources: Vec<String>,
    cut_short: Vec<CutShort>,
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

/// Calls `visit` with each training example of `game`: the position, its
/// legal moves and the index of the move played among them. Fails on a
/// move that is not legal where it is played.
pub(crate) fn examples_of(
    game: &GameRecord,
    mut visit: impl FnMut(&Bitboards, &MoveList, usize),
) -> Result<(), GameError> {
    game.replay(|_, board, entry| {
        if entry.mv == Move::NULL {
            return;
        }
        let moves = board.legal_moves();
        if moves.len() < 2 {
            return;
        }
        // The replay checked that the move is legal.
        if let Some(target) = moves.iter().position(|&m| m == entry.mv) {
            visit(board, &moves, target);
        }
    })
}

/// The feature rows of `board` and the codes of `moves` (see
/// [`encode_move`]), into `feats` and `codes` (cleared first).
pub(crate) fn encode<B: Board>(
    board: &B,
    moves: &[Move],
    feats: &mut ArrayVec<u16, MAX_FEATURES>,
    codes: &mut ArrayVec<u16, 256>,
) {
    let threats = Threats::of(board);
    let mut rows: ArrayVec<usize, MAX_FEATURES> = ArrayVec::new();
    features_with(board, &threats, &mut rows);
    feats.clear();
    feats.extend(rows.into_iter().map(|f| f as u16));
    codes.clear();
    codes.extend(moves.iter().map(|&m| {
        let (from, to) = threats.move_rows(board, m);
        encode_move(from, to)
    }));
}

/// The examples of `game`, its moves checked.
fn count(game: &GameRecord) -> Result<u64, GameError> {
    let mut n = 0;
    examples_of(game, |_, _, _| n += 1)?;
    Ok(n)
}

/// The error for game `game` of those handed over in memory.
pub(crate) fn memory_error(game: usize, error: GameError) -> TrainError {
    TrainError::Data(DataError::Games(Box::new(GamesError::Game {
        path: PathBuf::from(MEMORY),
        game: game as u64,
        offset: 0,
        error: Box::new(error),
    })))
}

/// The training examples, encoded once: per example its feature count,
/// the index of the move played, its features, then its move codes, all
/// `u16` in one buffer (about 130 bytes a position).
pub(crate) struct Examples {
    data: Vec<u16>,
    starts: Vec<u64>,
}

impl Examples {
    pub(crate) fn new() -> Examples {
        Examples {
            data: Vec::new(),
            starts: vec![0],
        }
    }

    pub(crate) fn push(&mut self, features: &[u16], moves: &[u16], target: usize) {
        self.data.push(features.len() as u16);
        self.data.push(target as u16);
        self.data.extend_from_slice(features);
        self.data.extend_from_slice(moves);
        self.starts.push(self.data.len() as u64);
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub(crate) fn get(&self, i: usize) -> Example<'_> {
        let s = &self.data[self.starts[i] as usize..self.starts[i + 1] as usize];
        let n = s[0] as usize;
        Example {
            features: &s[2..2 + n],
            moves: &s[2 + n..],
            target: s[1] as usize,
        }
    }
}

impl PolicyData {
    /// The games files `paths` (what `fianchetto datagen` writes), in
    /// order. A file that ends inside a game (one a running `datagen` is
    /// still writing, or a copy cut short) gives its whole games, and
    /// [`cut_short`](Self::cut_short) says where; any other damage, or a
    /// file that is not a games file, is an error naming the file and, for
    /// a damaged game, the game and its byte.
    pub fn load<P: AsRef<Path>>(paths: &[P]) -> Result<PolicyData, TrainError> {
        let mut games = Vec::new();
        let mut sources = Vec::with_capacity(paths.len());
        let mut cut_short = Vec::new();
        let mut locations = Vec::new();
        let mut positions = 0;
        for path in paths {
            let path = path.as_ref();
            let games_error = |e| TrainError::Data(DataError::Games(Box::new(e)));
            let mut reader = GameReader::open(path).map_err(games_error)?.ending_at_cut();
            let first = games.len();
            locations.clear();
            loop {
                let mut game = GameRecord::default();
                match reader.read_into(&mut game).map_err(games_error)? {
                    Some(at) => {
                        games.push(game);
                        locations.push(at);
                    }
                    None => break,
                }
            }
            // The moves are checked here, so that the error names the game.
            for (game, &at) in games[first..].iter().zip(&locations) {
                positions += count(game).map_err(|e| games_error(reader.error_at(at, e)))?;
            }
            cut_short.extend(reader.cut_short().cloned());
            sources.push(path.display().to_string());
        }
        Self::assemble(games, positions, sources, cut_short)
    }

    /// A data set of `games` held in memory, checked like
    /// [`load`](Self::load)'s (errors name the source `(memory)` and the
    /// game's index).
    pub fn from_games(games: Vec<GameRecord>) -> Result<PolicyData, TrainError> {
        let mut positions = 0;
        for (i, game) in games.iter().enumerate() {
            positions += count(game).map_err(|error| memory_error(i, error))?;
        }
        Self::assemble(games, positions, vec![MEMORY.to_string()], Vec::new())
    }

    /// Fingerprints the games (checked already).
    fn assemble(
        games: Vec<GameRecord>,
        positions: u64,
        sources: Vec<String>,
        cut_short: Vec<CutShort>,
    ) -> Result<PolicyData, TrainError> {
        let mut fingerprint = FNV64_START;
        let mut bytes = Vec::new();
        for (i, game) in games.iter().enumerate() {
            bytes.clear();
            // A game too long to write could not come from a file (only
            // one built in memory can be), and could not be fingerprinted.
            game.write_to(&mut bytes)
                .map_err(|error| memory_error(i, error))?;
            fingerprint = fnv1a64(fingerprint, &bytes);
        }
        Ok(PolicyData {
            games,
            positions,
            sources,
            cut_short,
            fingerprint,
        })
    }

    /// Training examples (positions with a move played and two or more
    /// legal moves), before the validation split.
    pub fn len(&self) -> u64 {
        self.positions
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.positions == 0
    }

    /// The games, in order.
    pub fn games(&self) -> &[GameRecord] {
        &self.games
    }

    /// A hash of every game: a checkpoint remembers it, so that a run is
    /// resumed only on the data it started on.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The files read (or `(memory)`), in order.
    pub fn source_names(&self) -> &[String] {
        &self.sources
    }

    /// The files that ended inside a game: those games were left out.
    pub fn cut_short(&self) -> &[CutShort] {
        &self.cut_short
    }
}
