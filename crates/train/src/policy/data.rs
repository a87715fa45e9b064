//! The policy trainer's data: whole games held in memory (about four bytes
//! a position, as in the file), or positions with their root visits, each
//! checked move by move when it is loaded, and the training examples they
//! give.
//!
//! An example is a position and its target distribution over the legal
//! moves: from a games file, the move the search played (every entry of a
//! game whose move is not null); from a visits file, each root move's
//! share of the visits. Positions with fewer than two legal moves are left
//! out (a forced move teaches nothing).

use crate::policy::model::{encode_move, top_of, Example};
use crate::TrainError;
use arrayvec::ArrayVec;
use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_data::games::{CutShort, GameError, GameReader, GameRecord, GamesError, Location};
use fianchetto_data::marlin::DataError;
use fianchetto_data::visits::{VisitError, VisitReader, VisitRecord, VisitsCut, VisitsError};
use fianchetto_eval::policy::{features_with, Threats, MAX_FEATURES};
use fianchetto_movegen::{MoveGen, MoveList};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Target pairs (index among the legal moves, weight) of one example; see
/// [`Example::targets`].
pub(crate) type Targets = ArrayVec<u16, 512>;

/// Names games handed over in memory in error messages.
const MEMORY: &str = "(memory)";

/// The games a [`PolicyTrainer`](super::PolicyTrainer) learns from, every
/// one checked (each move legal where it is played) and fingerprinted when
/// the data set is made, so that a run is resumed only on its own data.
///
/// Games of a games file teach the move played; the records of a visits
/// file teach the root visit distribution, and each run of records with
/// the same game number is one game for the validation split.
#[derive(Clone, Debug)]
pub struct PolicyData {
    games: Vec<GameRecord>,
    visits: Vec<VisitRecord>,
    /// The visits games: runs of `visits` with the same game number.
    visit_games: Vec<Range<usize>>,
    positions: u64,
    sources: Vec<String>,
    cut_short: Vec<CutShort>,
    visits_cut: Vec<VisitsCut>,
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
/// legal moves and the target (the move played, weight 1). Fails on a move
/// that is not legal where it is played.
pub(crate) fn examples_of(
    game: &GameRecord,
    mut visit: impl FnMut(&Bitboards, &MoveList, &[u16]),
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
            visit(board, &moves, &[target as u16, 1]);
        }
    })
}

/// Calls `visit` with the training example of `record`, unless its
/// position has fewer than two legal moves: the position, its legal moves
/// and the target pairs (each visited move's index and visits). Fails on a
/// position that is not one, or a move illegal or listed twice.
pub(crate) fn example_of_visits(
    record: &VisitRecord,
    mut visit: impl FnMut(&Bitboards, &MoveList, &[u16]),
) -> Result<(), VisitError> {
    let board = record.board()?;
    let moves = board.legal_moves();
    if moves.len() < 2 {
        return Ok(());
    }
    let mut targets = Targets::new();
    for m in &record.moves {
        // `board` checked that every move is legal, so it is found.
        if let Some(i) = moves.iter().position(|&l| l == m.mv) {
            if m.visits > 0 && targets.remaining_capacity() >= 2 {
                targets.push(i as u16);
                targets.push(m.visits);
            }
        }
    }
    visit(&board, &moves, &targets);
    Ok(())
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

/// `board` and its legal `moves` mirrored left to right (the a-file
/// becoming the h-file), `None` for a position with castling rights, which
/// a mirror would break: the same example seen in a mirror, with each move
/// at the same index, so that its targets still hold.
pub(crate) fn mirrored(board: &Bitboards, moves: &[Move]) -> Option<(Bitboards, MoveList)> {
    if !board.castling().is_empty() {
        return None;
    }
    let mirror = Bitboards::from_setup(&board.to_setup().mirrored()).ok()?;
    let flip = |m: &Move| {
        Move::new(
            m.from().flip_horizontal(),
            m.to().flip_horizontal(),
            m.kind(),
        )
    };
    Some((mirror, moves.iter().map(flip).collect()))
}

/// The examples of `game`, its moves checked.
fn count(game: &GameRecord) -> Result<u64, GameError> {
    let mut n = 0;
    examples_of(game, |_, _, _| n += 1)?;
    Ok(n)
}

/// The error for `error` in the visits record `at` of `path`.
fn visits_error(path: &Path, at: Location, error: VisitError) -> TrainError {
    TrainError::Visits(Box::new(VisitsError::Record {
        path: path.to_path_buf(),
        record: at.game,
        offset: at.offset,
        error: Box::new(error),
    }))
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
/// the number of target pairs, its features, its target pairs, then its
/// move codes, all `u16` in one buffer (about 130 bytes a position with
/// the move played as its target, some 40 more with root visits).
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

    pub(crate) fn push(&mut self, features: &[u16], moves: &[u16], targets: &[u16]) {
        self.data.push(features.len() as u16);
        self.data.push((targets.len() / 2) as u16);
        self.data.extend_from_slice(features);
        self.data.extend_from_slice(targets);
        self.data.extend_from_slice(moves);
        self.starts.push(self.data.len() as u64);
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub(crate) fn get(&self, i: usize) -> Example<'_> {
        let s = &self.data[self.starts[i] as usize..self.starts[i + 1] as usize];
        let n = s[0] as usize;
        let t = 2 + n + 2 * s[1] as usize;
        let targets = &s[2 + n..t];
        Example {
            features: &s[2..2 + n],
            moves: &s[t..],
            targets,
            top: top_of(targets),
        }
    }
}

impl PolicyData {
    /// The data files `paths`, in order: games files (what `fianchetto
    /// datagen` writes) and visits files (what `datagen --mcts` writes),
    /// each told by its content. A file that ends inside a game or a record
    /// (one a running `datagen` is still writing, or a copy cut short)
    /// gives what comes before, and [`cut_short`](Self::cut_short) or
    /// [`visits_cut_short`](Self::visits_cut_short) says where; any other
    /// damage, or a file of neither kind, is an error naming the file and,
    /// for a damaged game or record, which one and its byte.
    pub fn load<P: AsRef<Path>>(paths: &[P]) -> Result<PolicyData, TrainError> {
        let mut data = PolicyData {
            games: Vec::new(),
            visits: Vec::new(),
            visit_games: Vec::new(),
            positions: 0,
            sources: Vec::with_capacity(paths.len()),
            cut_short: Vec::new(),
            visits_cut: Vec::new(),
            fingerprint: 0,
        };
        for path in paths {
            let path = path.as_ref();
            let is_visits = VisitReader::is_visits_file(path).map_err(|source| {
                TrainError::Data(DataError::Io {
                    path: path.to_path_buf(),
                    source,
                })
            })?;
            if is_visits {
                data.load_visits(path)?;
            } else {
                data.load_games(path)?;
            }
            data.sources.push(path.display().to_string());
        }
        data.assemble()
    }

    /// Reads the games file `path` into the data.
    fn load_games(&mut self, path: &Path) -> Result<(), TrainError> {
        let games_error = |e| TrainError::Data(DataError::Games(Box::new(e)));
        let mut reader = GameReader::open(path).map_err(games_error)?.ending_at_cut();
        let first = self.games.len();
        let mut locations = Vec::new();
        loop {
            let mut game = GameRecord::default();
            match reader.read_into(&mut game).map_err(games_error)? {
                Some(at) => {
                    self.games.push(game);
                    locations.push(at);
                }
                None => break,
            }
        }
        // The moves are checked here, so that the error names the game.
        for (game, &at) in self.games[first..].iter().zip(&locations) {
            self.positions += count(game).map_err(|e| games_error(reader.error_at(at, e)))?;
        }
        self.cut_short.extend(reader.cut_short().cloned());
        Ok(())
    }

    /// Reads the visits file `path` into the data, each record checked
    /// (the position, each move legal and listed once).
    fn load_visits(&mut self, path: &Path) -> Result<(), TrainError> {
        let file_error = |e| TrainError::Visits(Box::new(e));
        let mut reader = VisitReader::open(path).map_err(file_error)?.ending_at_cut();
        let mut last_game = None;
        loop {
            let mut record = VisitRecord::default();
            let Some(at) = reader.read_into(&mut record).map_err(file_error)? else {
                break;
            };
            let mut n = 0;
            example_of_visits(&record, |_, _, _| n += 1).map_err(|e| visits_error(path, at, e))?;
            self.positions += n;
            let index = self.visits.len();
            match self.visit_games.last_mut() {
                Some(run) if last_game == Some(record.game) => run.end = index + 1,
                _ => self.visit_games.push(index..index + 1),
            }
            last_game = Some(record.game);
            self.visits.push(record);
        }
        self.visits_cut.extend(reader.cut_short().cloned());
        Ok(())
    }

    /// A data set of `games` held in memory, checked like
    /// [`load`](Self::load)'s (errors name the source `(memory)` and the
    /// game's index).
    pub fn from_games(games: Vec<GameRecord>) -> Result<PolicyData, TrainError> {
        let mut positions = 0;
        for (i, game) in games.iter().enumerate() {
            positions += count(game).map_err(|error| memory_error(i, error))?;
        }
        PolicyData {
            games,
            visits: Vec::new(),
            visit_games: Vec::new(),
            positions,
            sources: vec![MEMORY.to_string()],
            cut_short: Vec::new(),
            visits_cut: Vec::new(),
            fingerprint: 0,
        }
        .assemble()
    }

    /// Fingerprints the games and records (checked already).
    fn assemble(mut self) -> Result<PolicyData, TrainError> {
        let mut fingerprint = FNV64_START;
        let mut bytes = Vec::new();
        for (i, game) in self.games.iter().enumerate() {
            bytes.clear();
            // A game too long to write could not come from a file (only
            // one built in memory can be), and could not be fingerprinted.
            game.write_to(&mut bytes)
                .map_err(|error| memory_error(i, error))?;
            fingerprint = fnv1a64(fingerprint, &bytes);
        }
        for (i, record) in self.visits.iter().enumerate() {
            bytes.clear();
            // Records read from a file always write back.
            record.write_to(&mut bytes).map_err(|error| {
                visits_error(
                    Path::new(MEMORY),
                    Location {
                        game: i as u64,
                        offset: 0,
                    },
                    error,
                )
            })?;
            fingerprint = fnv1a64(fingerprint, &bytes);
        }
        self.fingerprint = fingerprint;
        Ok(self)
    }

    /// Calls `visit` with each training example of game `g` (the games of
    /// games files first, then those of visits files; see
    /// [`game_count`](Self::game_count)): its position, legal moves and
    /// target pairs.
    pub(crate) fn examples_of_game(
        &self,
        g: usize,
        mut visit: impl FnMut(&Bitboards, &MoveList, &[u16]),
    ) -> Result<(), TrainError> {
        if let Some(game) = self.games.get(g) {
            return examples_of(game, visit).map_err(|e| memory_error(g, e));
        }
        let run = self
            .visit_games
            .get(g - self.games.len())
            .cloned()
            .unwrap_or_default();
        for i in run {
            example_of_visits(&self.visits[i], &mut visit).map_err(|e| {
                let at = Location {
                    game: i as u64,
                    offset: 0,
                };
                visits_error(Path::new(MEMORY), at, e)
            })?;
        }
        Ok(())
    }

    /// Games in all: those of games files and those of visits files (runs
    /// of records with the same game number). The validation split holds
    /// whole games out.
    pub fn game_count(&self) -> usize {
        self.games.len() + self.visit_games.len()
    }

    /// Training examples (positions with a target and two or more legal
    /// moves), before the validation split.
    pub fn len(&self) -> u64 {
        self.positions
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.positions == 0
    }

    /// The games of the games files, in order.
    pub fn games(&self) -> &[GameRecord] {
        &self.games
    }

    /// The records of the visits files, in order.
    pub fn visit_records(&self) -> &[VisitRecord] {
        &self.visits
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

    /// The games files that ended inside a game: those games were left
    /// out.
    pub fn cut_short(&self) -> &[CutShort] {
        &self.cut_short
    }

    /// The visits files that ended inside a record: those records were
    /// left out.
    pub fn visits_cut_short(&self) -> &[VisitsCut] {
        &self.visits_cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(board: &Bitboards, moves: &[Move]) -> (Vec<u16>, Vec<u16>) {
        let (mut feats, mut codes) = (ArrayVec::new(), ArrayVec::new());
        encode(board, moves, &mut feats, &mut codes);
        let mut feats = feats.to_vec();
        feats.sort_unstable();
        (feats, codes.to_vec())
    }

    #[test]
    fn a_mirrored_example_is_the_mirrored_position_with_its_moves_in_order() {
        // A pawn that can take en passant, a promotion and a capture: each
        // kind of move keeps its kind in the mirror.
        let board = Bitboards::from_fen("r3k3/1P6/8/3pP3/8/8/1n6/4K2R w - d6 0 2").unwrap();
        let mirror = Bitboards::from_fen("3k3r/6P1/8/3Pp3/8/8/6n1/R2K4 w - e6 0 2").unwrap();
        let moves = board.legal_moves();
        let (got, got_moves) = mirrored(&board, &moves).unwrap();
        assert_eq!(got.to_setup(), mirror.to_setup());
        assert_eq!(got_moves.len(), moves.len());
        for (m, g) in moves.iter().zip(&got_moves) {
            assert_eq!(g.from(), m.from().flip_horizontal());
            assert_eq!(g.to(), m.to().flip_horizontal());
            assert_eq!(g.kind(), m.kind());
        }
        let mut legal = mirror.legal_moves().to_vec();
        let mut flipped = got_moves.to_vec();
        legal.sort_unstable_by_key(|m| m.bits());
        flipped.sort_unstable_by_key(|m| m.bits());
        assert_eq!(legal, flipped);
        assert_eq!(encoded(&got, &got_moves), encoded(&mirror, &got_moves));
        assert!(moves.iter().any(|m| m.is_en_passant()));
        assert!(moves.iter().any(|m| m.is_promotion()));
    }

    #[test]
    fn castling_rights_forbid_the_mirror() {
        let board = Bitboards::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert!(mirrored(&board, &board.legal_moves()).is_none());
    }
}
