//! Self-play games: the openings (a start position, a Chess960 one or a
//! book position, plus random plies, checked balanced by the game's first
//! search) and the games themselves, played by the one game loop
//! ([`fianchetto_uci::matches::play_game`]) with the searcher at its budget
//! (PVS at its soft node limit, MCTS at its playouts: [`SelfPlaySearch`]),
//! written down as the games format keeps them, with MCTS's root visits
//! beside.

use super::DatagenConfig;
use crate::matches::answer;
use fianchetto_board::{Bitboards, Board, Color, Move, Setup};
use fianchetto_data::games::{Ending, Entry, Filter, FilterCounts, GameError, GameRecord};
use fianchetto_data::marlin::{PackedBoard, Wdl};
use fianchetto_eval::Evaluator;
use fianchetto_movegen::{Game, MoveGen, Outcome, Termination};
use fianchetto_search::mcts::{Mcts, Policy};
use fianchetto_search::pvs::Pvs;
use fianchetto_search::{Bound, Limits, Search, SearchResult};
use fianchetto_syzygy::{Tablebase, Wdl as TbWdl};
use fianchetto_uci::matches::{
    self as game_loop, Answer, Ending as End, GameRules, Judgement, Limit, MoveLimit, Player,
    PlayerError, Players,
};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// One self-play game and how it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The game as the games format keeps it: every searched position with
    /// the move played and its score, the result and the ending.
    pub game: GameRecord,
    /// The root visits of each entry's search, in entry order: per root
    /// move its visits (empty for a searcher without visits, PVS).
    pub visits: Vec<Vec<(Move, u64)>>,
    /// Openings thrown away as unbalanced (or ended) before this one.
    pub rejected_openings: u32,
    /// Nodes searched for the game (its openings' checks included).
    pub nodes: u64,
}

impl PlayedGame {
    /// Whether the game ended by adjudication rather than by the rules.
    pub fn adjudicated(&self) -> bool {
        matches!(
            self.game.ending,
            Ending::AdjudicatedWin | Ending::AdjudicatedDraw | Ending::MaxPlies
        )
    }

    /// The positions `filter` keeps, as marlinformat records.
    pub fn records(&self, filter: &Filter) -> Result<Vec<PackedBoard>, GameError> {
        let mut out = Vec::new();
        self.game
            .expand(filter, &mut out, &mut FilterCounts::default())?;
        Ok(out)
    }
}

/// A searcher self-play plays with: searches a position at the run's
/// budget, and tells the root visits of its last search when it has them.
pub trait SelfPlaySearch {
    /// Forgets everything learnt (before each opening's check, so that a
    /// game depends only on its seed and index).
    fn clear(&mut self);

    /// Searches `game` at the budget self-play gives it under `config`.
    fn search_move(&mut self, game: &Game<Bitboards>, config: &DatagenConfig) -> SearchResult;

    /// Writes into `out` (cleared first) the root moves of the last search
    /// with their visits; a searcher without visits leaves it empty.
    fn root_visits(&self, out: &mut Vec<(Move, u64)>) {
        out.clear();
    }
}

/// PVS at the soft node limit: a search stops after the first complete
/// iteration that passed `config.soft_nodes`, or at the hard limit.
impl<E: Evaluator<Bitboards> + Clone> SelfPlaySearch for Pvs<E> {
    fn clear(&mut self) {
        Search::<Bitboards>::clear(self);
    }

    fn search_move(&mut self, game: &Game<Bitboards>, config: &DatagenConfig) -> SearchResult {
        let limits = config.limits();
        let stop = limits.stop.clone();
        let soft = config.soft_nodes;
        self.search(game, &limits, &mut |info| {
            if info.bound == Bound::Exact && info.nodes >= soft {
                stop.store(true, Ordering::Relaxed);
            }
        })
    }
}

/// MCTS at the playout budget of its own configuration
/// ([`MctsConfig::iterations`](fianchetto_search::mcts::MctsConfig#structfield.iterations));
/// the move played is the search's, its most visited root move (a proven
/// win whatever its visits, a move proven lost passed over). One thread and a fixed seed make it reproducible.
impl<E: Evaluator<Bitboards> + Clone, P: Policy<Bitboards>> SelfPlaySearch for Mcts<E, P> {
    fn clear(&mut self) {
        Search::<Bitboards>::clear(self);
    }

    fn search_move(&mut self, game: &Game<Bitboards>, _: &DatagenConfig) -> SearchResult {
        self.search(game, &Limits::infinite(), &mut |_| {})
    }

    fn root_visits(&self, out: &mut Vec<(Move, u64)>) {
        out.clear();
        out.extend(self.root_children().iter().map(|c| (c.mv, c.visits)));
    }
}

/// The random generator of game `index` of `seed` (SplitMix64 of both, so
/// that neighbouring seeds and indices give unrelated games).
fn game_rng(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Xoshiro256PlusPlus::seed_from_u64(z ^ (z >> 31))
}

/// A uniformly drawn number below `n` (`n` > 0).
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// The position an opening starts from before its random plies, and
/// whether it is a Chess960 one.
fn opening_start(
    config: &DatagenConfig,
    book: &[Setup],
    rng: &mut Xoshiro256PlusPlus,
) -> (Bitboards, bool) {
    if config.chess960_permille > 0 && (below(rng, 1000) as u32) < config.chess960_permille {
        let white = below(rng, 960) as u32;
        let black = if config.dfrc {
            below(rng, 960) as u32
        } else {
            white
        };
        // Numbers below 960 always give a position, and every Chess960
        // start is legal.
        if let Some(board) =
            Setup::double_chess960(white, black).and_then(|s| Bitboards::from_setup(&s).ok())
        {
            return (board, true);
        }
    }
    let board = if book.is_empty() {
        Bitboards::startpos()
    } else {
        // Book positions were validated when the book was read.
        Bitboards::from_setup(&book[below(rng, book.len())])
            .unwrap_or_else(|_| Bitboards::startpos())
    };
    // A book position may itself carry Chess960 castling rights.
    let chess960 = !board.castling().is_standard();
    (board, chess960)
}

/// An opening the game can start from: its position (after the random
/// plies), whether it is Chess960, the first search of it (which found it
/// balanced) and the openings thrown away before it.
struct Opening {
    game: Game<Bitboards>,
    chess960: bool,
    first: SearchResult,
    rejected: u32,
    /// Nodes of the rejected openings' searches.
    nodes: u64,
}

/// Draws openings until one is balanced: a start position (see
/// [`opening_start`]) plus random plies, searched once from an empty table.
/// That search is the game's first, so checking the opening costs nothing.
fn opening<S: SelfPlaySearch>(
    searcher: &mut S,
    config: &DatagenConfig,
    book: &[Setup],
    rng: &mut Xoshiro256PlusPlus,
) -> Opening {
    let mut rejected = 0;
    let mut nodes = 0;
    loop {
        let (start, chess960) = opening_start(config, book, rng);
        let mut board = start;
        let span = config
            .max_random_plies
            .saturating_sub(config.min_random_plies) as usize
            + 1;
        let plies = config.min_random_plies as usize + below(rng, span);
        let mut ok = true;
        // The random plies are played on a bare board: the game (and its
        // record) starts after them, so that replaying the record sees the
        // same history the players saw.
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            board.play_unchecked(moves[below(rng, moves.len())]);
        }
        let game = Game::new(board);
        if ok && game.outcome_with_claims().is_none() {
            searcher.clear();
            let first = searcher.search_move(&game, config);
            if first.best_move.is_some() && first.score.value().abs() <= config.max_opening_score {
                return Opening {
                    game,
                    chess960,
                    first,
                    rejected,
                    nodes,
                };
            }
            nodes += first.nodes;
        }
        rejected += 1;
    }
}

/// The opening of game `index` of `seed`: the position self-play starts
/// from (after the random plies, verified balanced). What `genfens` prints
/// for OpenBench workers.
pub fn opening_position<S: SelfPlaySearch>(
    searcher: &mut S,
    config: &DatagenConfig,
    book: &[Setup],
    seed: u64,
    index: u64,
) -> Bitboards {
    let mut rng = game_rng(seed, index);
    opening(searcher, config, book, &mut rng)
        .game
        .board()
        .clone()
}

/// The games format's ending for a game the rules ended.
fn ending_of(outcome: Outcome) -> Ending {
    let how = match outcome {
        Outcome::Decisive { how, .. } | Outcome::Draw(how) => how,
    };
    match how {
        Termination::Checkmate => Ending::Checkmate,
        Termination::Stalemate => Ending::Stalemate,
        Termination::InsufficientMaterial => Ending::InsufficientMaterial,
        Termination::FiftyMoves | Termination::SeventyFiveMoves => Ending::FiftyMoves,
        Termination::ThreefoldRepetition | Termination::FivefoldRepetition => Ending::Repetition,
    }
}

/// The result the tablebase gives for `board`, when it is a position the
/// tables hold and was just reached by a capture or a pawn move (so that
/// their fifty-move-free answer is exact; a position with fewer pieces than
/// before is always such a one).
fn tablebase_result(tablebase: &Tablebase, board: &Bitboards) -> Option<Option<Color>> {
    if board.halfmove_clock() != 0 || board.occupied().count() > tablebase.max_pieces() {
        return None;
    }
    let wdl = tablebase.probe_wdl(board).ok()?;
    Some(match wdl {
        TbWdl::Win => Some(board.turn()),
        TbWdl::Loss => Some(!board.turn()),
        TbWdl::CursedWin | TbWdl::Draw | TbWdl::BlessedLoss => None,
    })
}

/// Self-play's side of the game loop: the searcher at its budget, playing
/// both colours, writing down every searched position's move, score and
/// root visits as it goes.
struct SelfPlayer<'a, S> {
    searcher: &'a mut S,
    config: &'a DatagenConfig,
    /// The opening's check, which is the game's first search (and the
    /// searcher's last until the first move is asked for).
    first: Option<SearchResult>,
    record: GameRecord,
    visits: Vec<Vec<(Move, u64)>>,
    nodes: u64,
    stop: Option<&'a AtomicBool>,
}

impl<S: SelfPlaySearch> Player for SelfPlayer<'_, S> {
    fn new_game(&mut self) -> Result<(), PlayerError> {
        // Cleared before the opening's check, which was the first search.
        Ok(())
    }

    fn play(&mut self, game: &Game<Bitboards>, _: &MoveLimit) -> Result<Answer, PlayerError> {
        if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            // No move: the game ends here and is dropped.
            return Ok(Answer::new(None));
        }
        let result = match self.first.take() {
            Some(first) => first,
            None => self.searcher.search_move(game, self.config),
        };
        self.nodes += result.nodes;
        if let Some(best) = result.best_move {
            let white_score = if game.board().turn() == Color::White {
                result.score
            } else {
                -result.score
            };
            // Search scores stay within ±32 001, so the clamp never reaches
            // `games::NO_SCORE`.
            let score = white_score
                .value()
                .clamp(-(i16::MAX as i32), i16::MAX as i32) as i16;
            self.record.entries.push(Entry { mv: best, score });
            let mut visits = Vec::new();
            self.searcher.root_visits(&mut visits);
            self.visits.push(visits);
        }
        Ok(answer(&result, result.time))
    }
}

/// Plays game `index` of `seed` with `searcher`; with a `tablebase`, a game
/// that reaches a position its tables hold ends there with their result.
/// `stop` (when given) abandons the game between moves; the returned game
/// then has no entries.
///
/// The game is played by the one game loop
/// ([`fianchetto_uci::matches::play_game`]) under the rules of
/// [`DatagenConfig::adjudication`].
pub fn play_game<S: SelfPlaySearch>(
    searcher: &mut S,
    config: &DatagenConfig,
    book: &[Setup],
    tablebase: Option<&Tablebase>,
    seed: u64,
    index: u64,
    stop: Option<&AtomicBool>,
) -> PlayedGame {
    let mut rng = game_rng(seed, index);
    let Opening {
        game,
        chess960,
        first,
        rejected,
        nodes,
    } = opening(searcher, config, book, &mut rng);
    let mut player = SelfPlayer {
        searcher,
        config,
        first: Some(first),
        record: GameRecord::new(game.board(), chess960),
        visits: Vec::new(),
        nodes,
        stop,
    };
    let rules = GameRules {
        limit: Limit::Nodes(config.hard_nodes),
        margin: Duration::ZERO,
        adjudication: config.adjudication(game.board()),
    };
    let mut judge = |game: &Game<Bitboards>, _plies: u32| {
        let winner = tablebase_result(tablebase?, game.board())?;
        Some(Judgement {
            winner,
            reason: "Syzygy tablebase".to_string(),
        })
    };
    let end = game_loop::play_game(
        Players::SelfPlay(&mut player),
        &game,
        &rules,
        Some(&mut judge),
    );
    let (winner, ending) = match end.ending {
        End::Rules(outcome) => (end.winner(), ending_of(outcome)),
        End::Judged(judgement) => (judgement.winner, Ending::Tablebase),
        End::Resigned(winner) => (Some(winner), Ending::AdjudicatedWin),
        End::DrawnByScore => (None, Ending::AdjudicatedDraw),
        End::MoveLimit => (None, Ending::MaxPlies),
        // No move where the rules saw one: only a stopped game.
        End::Fault { .. } => (None, Ending::Unknown),
    };
    let SelfPlayer {
        mut record,
        mut visits,
        nodes,
        ..
    } = player;
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        record.entries.clear();
        visits.clear();
    }
    record.result = Wdl::from_winner(winner);
    record.ending = ending;
    PlayedGame {
        game: record,
        visits,
        rejected_openings: rejected,
        nodes,
    }
}
