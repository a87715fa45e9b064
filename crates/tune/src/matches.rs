//! In-process games between two searchers: what SPSA plays to compare θ+
//! with θ−, and what any experiment can use to pit two configurations of the
//! library against each other without a GUI or a UCI pipe.
//!
//! A game starts from an opening position, the two searchers move in turn
//! under a [`TimeControl`] (a clock with increment, a node count or a
//! depth), and ends by the rules (mate, stalemate, repetition, fifty moves,
//! insufficient material), on time (with a clock), or by adjudication: a
//! win once both searchers' scores have agreed on a decisive advantage for
//! a few plies, a draw once the scores stay near zero late in the game, or
//! a draw after [`MatchConfig::max_plies`]. Games come in pairs: the same
//! opening with each searcher playing white once, which cancels most of an
//! opening's bias.
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
use fianchetto_board::{Bitboards, Board, Color, Setup};
use fianchetto_data::marlin::Wdl;
use fianchetto_eval::Classical;
use fianchetto_movegen::{Game, Outcome};
use fianchetto_search::{Limits, Search};
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How long each move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: `base` per side for the game, plus `increment` per move.
    Clock {
        /// Starting time of each side.
        base: Duration,
        /// Time added after each move.
        increment: Duration,
    },
    /// A fixed number of nodes per move (deterministic, load-independent).
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
}

impl std::fmt::Display for TimeControl {
    /// `2+0.02` (seconds), `nodes 20000` or `depth 6`.
    ///
    /// ```
    /// use fianchetto_tune::matches::TimeControl;
    /// assert_eq!("2+0.02".parse::<TimeControl>().unwrap().to_string(), "2+0.02");
    /// assert_eq!(TimeControl::Nodes(500).to_string(), "nodes 500");
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::Clock { base, increment } => {
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::Nodes(n) => write!(f, "nodes {n}"),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
        }
    }
}

/// A time control that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a time control; expected BASE+INC in seconds (e.g. 2+0.02 or 10+0.1)")]
pub struct TimeControlError(pub String);

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `BASE+INC` in seconds (`2+0.02`, `10+0.1`, `60`), as cutechess and
    /// OpenBench write it.
    ///
    /// ```
    /// use fianchetto_tune::matches::TimeControl;
    /// use std::time::Duration;
    /// assert_eq!("2+0.02".parse(), Ok(TimeControl::Clock {
    ///     base: Duration::from_secs(2), increment: Duration::from_millis(20) }));
    /// assert!("fast".parse::<TimeControl>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let bad = || TimeControlError(s.to_string());
        let (base, inc) = s.trim().split_once('+').unwrap_or((s.trim(), "0"));
        let secs = |t: &str| -> Result<Duration, TimeControlError> {
            let v: f64 = t.trim().parse().map_err(|_| bad())?;
            if !v.is_finite() || !(0.0..=86_400.0).contains(&v) {
                return Err(bad());
            }
            Ok(Duration::from_secs_f64(v))
        };
        let (base, increment) = (secs(base)?, secs(inc)?);
        if base.is_zero() && increment.is_zero() {
            return Err(bad());
        }
        Ok(TimeControl::Clock { base, increment })
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
    /// A game still running after this many plies is drawn.
    pub max_plies: u32,
    /// Win adjudication: both sides' scores at least this (centipawns, the
    /// winner's view) …
    pub win_score: i32,
    /// … for this many plies in a row.
    pub win_plies: u32,
    /// Draw adjudication: scores within ± this …
    pub draw_score: i32,
    /// … for this many plies in a row …
    pub draw_plies: u32,
    /// … once this many plies have been played.
    pub draw_after_plies: u32,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            time_control: TimeControl::Nodes(20_000),
            time_margin: Duration::from_millis(200),
            max_plies: 400,
            win_score: 1_000,
            win_plies: 6,
            draw_score: 10,
            draw_plies: 12,
            draw_after_plies: 80,
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
/// `white` moves for white, `black` for black. Both searchers are cleared
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
    white.clear();
    black.clear();
    let mut game = opening.clone();
    let mut clock = match config.time_control {
        TimeControl::Clock { base, .. } => [base, base],
        _ => [Duration::ZERO; 2],
    };
    let mut plies = 0;
    // Consecutive plies of agreement on a decisive score (and its winner),
    // and of near-zero scores.
    let mut win_run = crate::datagen::WinRun::default();
    let mut draw_run = 0;
    let finish = |wdl: Wdl, plies: u32, adjudicated: bool, on_time: bool| GameResult {
        wdl,
        plies,
        adjudicated,
        on_time,
    };
    loop {
        if let Some(outcome) = game.outcome_with_claims() {
            let winner = match outcome {
                Outcome::Decisive { winner, .. } => Some(winner),
                Outcome::Draw(_) => None,
            };
            return finish(Wdl::from_winner(winner), plies, false, false);
        }
        if plies >= config.max_plies {
            return finish(Wdl::Draw, plies, true, false);
        }
        let stm = game.board().turn();
        let limits = match config.time_control {
            TimeControl::Clock { increment, .. } => Limits {
                wtime: Some(clock[0]),
                btime: Some(clock[1]),
                winc: Some(increment),
                binc: Some(increment),
                ..Limits::default()
            },
            TimeControl::Nodes(n) => Limits::nodes(n),
            TimeControl::Depth(d) => Limits::depth(d),
        };
        let started = Instant::now();
        let result = match stm {
            Color::White => white.search(&game, &limits, &mut |_| {}),
            Color::Black => black.search(&game, &limits, &mut |_| {}),
        };
        if let TimeControl::Clock { increment, .. } = config.time_control {
            let used = started.elapsed();
            let side = &mut clock[stm.index()];
            if used > *side + config.time_margin {
                return finish(Wdl::from_winner(Some(!stm)), plies, false, true);
            }
            *side = side.saturating_sub(used) + increment;
        }
        let Some(mv) = result.best_move else {
            // Only a position without legal moves has no best move, and the
            // rules above end those games first.
            return finish(Wdl::Draw, plies, true, false);
        };
        let score = result.score.value();
        let white_score = if stm == Color::White { score } else { -score };

        if let Some(l) = win_run.update(white_score, config.win_score, config.win_plies) {
            return finish(Wdl::from_winner(Some(l)), plies, true, false);
        }
        if plies >= config.draw_after_plies && white_score.abs() <= config.draw_score {
            draw_run += 1;
            if draw_run >= config.draw_plies {
                return finish(Wdl::Draw, plies, true, false);
            }
        } else {
            draw_run = 0;
        }
        game.play_unchecked(mv);
        plies += 1;
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
            "10+0.1".parse(),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            })
        );
        assert_eq!(
            "60".parse(),
            Ok(TimeControl::Clock {
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
            max_plies: 40,
            ..MatchConfig::default()
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
