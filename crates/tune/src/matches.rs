//! In-process games between two searchers: what SPSA plays to compare θ+
//! with θ−, and what any experiment can use to pit two configurations of the
//! library against each other without a GUI or a UCI pipe.
//!
//! The games are played by the one game loop,
//! [`fianchetto_uci::matches::play_game`], with each searcher as a
//! [`SearchPlayer`]. A game starts from an opening position, the two
//! searchers move in turn under a [`TimeControl`] (a clock with increment, a
//! node count, a depth or a time per move), and ends by the rules (mate,
//! stalemate, repetition, fifty moves, insufficient material), on time (with
//! a clock), or by [adjudication](MatchConfig::adjudication): a win once both
//! searchers' scores have agreed on a decisive advantage for a few plies, a
//! draw once the scores stay near zero late in the game, or a draw at a ply
//! limit. Games come in pairs: the same opening with each searcher playing
//! white once, which cancels most of an opening's bias.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::{Classical, Material};
//! use fianchetto_movegen::Game;
//! use fianchetto_search::pvs::Pvs;
//! use fianchetto_tune::matches::{play_pair, MatchConfig, TimeControl};
//!
//! let config = MatchConfig { time_control: TimeControl::Nodes(400), ..MatchConfig::default() };
//! let opening = Game::new(Bitboards::startpos());
//! let mut strong = Pvs::new(Classical::default());
//! let mut weak = Pvs::new(Material::classic());
//! let points = play_pair(&mut strong, &mut weak, &opening, &config);
//! assert!((0.0..=2.0).contains(&points));
//! ```

use crate::datagen::{opening_position, DatagenConfig};
use fianchetto_board::{Bitboards, Board, Setup};
use fianchetto_data::marlin::Wdl;
use fianchetto_eval::Classical;
use fianchetto_movegen::Game;
use fianchetto_search::{Limits, Search, SearchResult};
use fianchetto_uci::matches::{
    self as game_loop, Answer, Ending, FaultKind, GameRules, MoveLimit, Player, PlayerError,
    Players,
};
use std::time::{Duration, Instant};

/// How long each move may take: the one type of `fianchetto-uci`'s game
/// loop ([`fianchetto_uci::matches::Limit`]), under its former name here.
pub use fianchetto_uci::matches::Limit as TimeControl;
/// The adjudication rules: the one type of `fianchetto-uci`'s game loop.
pub use fianchetto_uci::matches::{Adjudication, PlyOrigin};

/// An in-process searcher as a [`Player`] of the game loop: each move is
/// one search under the move's limit (capped at a depth when asked).
pub struct SearchPlayer<'a, S: ?Sized> {
    search: &'a mut S,
    max_depth: Option<u32>,
}

impl<'a, S: Search<Bitboards> + ?Sized> SearchPlayer<'a, S> {
    /// `search` as a player.
    pub fn new(search: &'a mut S) -> SearchPlayer<'a, S> {
        SearchPlayer {
            search,
            max_depth: None,
        }
    }

    /// The same player, never searching deeper than `depth` plies.
    pub fn max_depth(mut self, depth: Option<u32>) -> SearchPlayer<'a, S> {
        self.max_depth = depth;
        self
    }
}

/// A search's score as the UCI protocol (and so the game loop) reports it.
pub fn uci_score(score: fianchetto_eval::Score) -> fianchetto_uci::Score {
    match score.mate_moves() {
        Some(moves) => fianchetto_uci::Score::Mate(moves),
        None => fianchetto_uci::Score::Cp(score.value()),
    }
}

/// The search limits of one move.
pub fn search_limits(limit: &MoveLimit) -> Limits {
    match *limit {
        MoveLimit::Clock {
            white,
            black,
            increment,
        } => Limits {
            wtime: Some(white),
            btime: Some(black),
            winc: Some(increment),
            binc: Some(increment),
            ..Limits::default()
        },
        MoveLimit::Nodes(n) => Limits::nodes(n),
        MoveLimit::Depth(d) => Limits::depth(d),
        MoveLimit::MoveTime(t) => Limits::movetime(t),
    }
}

impl<S: Search<Bitboards> + ?Sized> Player for SearchPlayer<'_, S> {
    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.search.clear();
        Ok(())
    }

    fn play(&mut self, game: &Game<Bitboards>, limit: &MoveLimit) -> Result<Answer, PlayerError> {
        let mut limits = search_limits(limit);
        if self.max_depth.is_some() {
            limits.depth = self.max_depth;
        }
        let started = Instant::now();
        let result = self.search.search(game, &limits, &mut |_| {});
        Ok(answer(&result, started.elapsed()))
    }
}

/// A search's result as a player's answer, taking `elapsed`.
pub(crate) fn answer(result: &SearchResult, elapsed: Duration) -> Answer {
    Answer {
        best: result.best_move,
        score: Some(uci_score(result.score)),
        depth: Some(result.depth),
        elapsed,
    }
}

/// The rules of a match game besides the searchers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// How long each move may take.
    pub time_control: TimeControl,
    /// With a clock: the time a side may overrun before it loses on time
    /// (in-process games still see the scheduler's hiccups).
    pub time_margin: Duration,
    /// The adjudication rules. The defaults, plies counted from the
    /// opening: a win once both searchers' scores have been at least 1000
    /// centipawns for the same side for 6 plies in a row, a draw once they
    /// have stayed within ±10 for 12 plies from ply 81 on, a draw at ply
    /// 400.
    pub adjudication: Adjudication,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            time_control: TimeControl::Nodes(20_000),
            time_margin: Duration::from_millis(200),
            adjudication: Adjudication {
                resign_score: 1_000,
                resign_plies: 6,
                draw_score: 10,
                draw_plies: 12,
                draw_from_ply: 81,
                max_plies: 400,
                ply_origin: PlyOrigin::Opening,
                scores_first: false,
            },
        }
    }
}

impl MatchConfig {
    /// The game loop's rules.
    pub fn rules(&self) -> GameRules {
        GameRules {
            limit: self.time_control,
            margin: self.time_margin,
            adjudication: self.adjudication,
        }
    }
}

/// How a match game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The result, white's point of view.
    pub wdl: Wdl,
    /// Plies played.
    pub plies: u32,
    /// Ended by adjudication (score, or the ply cap).
    pub adjudicated: bool,
    /// Ended by a side running out of time.
    pub on_time: bool,
}

/// Plays one game from `opening` (its history counts for repetitions):
/// `white` moves for white, `black` for black, through the game loop of
/// [`fianchetto_uci::matches::play_game`]. Both searchers are cleared
/// first.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_eval::Material;
/// use fianchetto_movegen::Game;
/// use fianchetto_search::pvs::Pvs;
/// use fianchetto_data::marlin::Wdl;
/// use fianchetto_tune::matches::{play_game, MatchConfig, TimeControl};
///
/// // Black to move is mated at once: Qh4#.
/// let opening = Game::new(Bitboards::from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")?);
/// let config = MatchConfig { time_control: TimeControl::Depth(2), ..MatchConfig::default() };
/// let r = play_game(&mut Pvs::new(Material::classic()), &mut Pvs::new(Material::classic()), &opening, &config);
/// assert_eq!((r.wdl, r.plies), (Wdl::BlackWin, 1));
/// # Ok::<(), fianchetto_board::FenError>(())
/// ```
pub fn play_game<W, K>(
    white: &mut W,
    black: &mut K,
    opening: &Game<Bitboards>,
    config: &MatchConfig,
) -> GameResult
where
    W: Search<Bitboards> + ?Sized,
    K: Search<Bitboards> + ?Sized,
{
    let (mut white, mut black) = (SearchPlayer::new(white), SearchPlayer::new(black));
    let end = game_loop::play_game(
        Players::Two(&mut white, &mut black),
        opening,
        &config.rules(),
        None,
    );
    GameResult {
        wdl: Wdl::from_winner(end.winner()),
        plies: end.moves.len() as u32,
        adjudicated: end.adjudicated(),
        on_time: matches!(
            end.ending,
            Ending::Fault {
                kind: FaultKind::Time,
                ..
            }
        ),
    }
}

/// Plays `opening` twice, `a` with white first and then with black, and
/// returns `a`'s points (0 to 2).
pub fn play_pair<A, B>(a: &mut A, b: &mut B, opening: &Game<Bitboards>, config: &MatchConfig) -> f64
where
    A: Search<Bitboards> + ?Sized,
    B: Search<Bitboards> + ?Sized,
{
    let [first, second] = play_pair_games(a, b, opening, config);
    first + second
}

/// [`play_pair`], game by game: `a`'s points in the game it played white,
/// then in the game it played black (each 0, ½ or 1).
pub fn play_pair_games<A, B>(
    a: &mut A,
    b: &mut B,
    opening: &Game<Bitboards>,
    config: &MatchConfig,
) -> [f64; 2]
where
    A: Search<Bitboards> + ?Sized,
    B: Search<Bitboards> + ?Sized,
{
    let first = play_game(a, b, opening, config).wdl.white_score() as f64;
    let second = 1.0 - play_game(b, a, opening, config).wdl.white_score() as f64;
    [first, second]
}

/// Where match openings come from.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Positions of a book (FEN/EPD lines, see [`crate::datagen::read_book`]),
    /// opening `i` being line `i` modulo the book's length.
    Book(Vec<Setup>),
    /// The start position plus 8 or 9 random plies, kept when a short
    /// search finds them balanced (as [`crate::datagen`] draws them);
    /// opening `i` of seed `s` is always the same.
    Random {
        /// The seed.
        seed: u64,
    },
}

impl Openings {
    /// Opening number `index` as a game (no history before it).
    ///
    /// ```
    /// use fianchetto_board::{Board, Setup};
    /// use fianchetto_tune::matches::Openings;
    /// let book = Openings::Book(vec![Setup::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?]);
    /// assert_eq!(book.get(7).board().fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    /// # Ok::<(), fianchetto_board::FenError>(())
    /// ```
    pub fn get(&self, index: u64) -> Game<Bitboards> {
        match self {
            Openings::Book(book) if !book.is_empty() => {
                let setup = &book[(index % book.len() as u64) as usize];
                Game::from_setup(setup).unwrap_or_else(|_| Game::new(Bitboards::startpos()))
            }
            Openings::Book(_) => Game::new(Bitboards::startpos()),
            Openings::Random { seed } => {
                let config = DatagenConfig {
                    soft_nodes: 2_000,
                    hard_nodes: 20_000,
                    max_opening_score: 300,
                    hash_mb: 1,
                    ..DatagenConfig::default()
                };
                let mut pvs = config.searcher(Classical::default());
                Game::new(opening_position(&mut pvs, &config, &[], *seed, index))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_eval::Material;
    use fianchetto_search::pvs::Pvs;

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            "10+0.1".parse::<TimeControl>().ok(),
            Some(TimeControl::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            })
        );
        assert_eq!(
            "60".parse::<TimeControl>().ok(),
            Some(TimeControl::Clock {
                base: Duration::from_secs(60),
                increment: Duration::ZERO
            })
        );
        for bad in ["", "+", "1+x", "-1+0", "0+0", "nan+1", "1e99"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_mate_in_one_is_played_and_scored() {
        let opening =
            Game::new(Bitboards::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").expect("valid"));
        let config = MatchConfig {
            time_control: TimeControl::Depth(3),
            ..MatchConfig::default()
        };
        let mut a = Pvs::new(Material::classic());
        let mut b = Pvs::new(Material::classic());
        let r = play_game(&mut a, &mut b, &opening, &config);
        assert_eq!((r.wdl, r.plies, r.adjudicated), (Wdl::WhiteWin, 1, false));
    }

    #[test]
    fn clock_games_finish_and_openings_repeat() {
        let config = MatchConfig {
            time_control: "0.2+0.01".parse().expect("valid"),
            time_margin: Duration::from_secs(5),
            adjudication: Adjudication {
                max_plies: 40,
                ..MatchConfig::default().adjudication
            },
        };
        let openings = Openings::Random { seed: 3 };
        let opening = openings.get(1);
        assert_eq!(opening.board().fen(), openings.get(1).board().fen());
        let mut a = Pvs::new(Material::classic());
        let mut b = Pvs::new(Material::classic());
        let r = play_game(&mut a, &mut b, &opening, &config);
        assert!(r.plies <= 40 && !r.on_time);
    }
}
