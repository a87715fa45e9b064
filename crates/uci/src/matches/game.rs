//! The one game loop: a game between two [`Player`]s (UCI engines through
//! the [client](crate::client), or in-process searchers through an adapter
//! of the crate that has them), from an opening to its end.
//!
//! - **Limits.** Each move is limited by a clock with increment, a node
//!   count, a depth or a fixed time ([`Limit`]); a move past its clock
//!   (beyond a margin) loses on time.
//! - **Rules.** Mate, stalemate, threefold repetition, the fifty-move rule
//!   (both as claims) and insufficient material end a game.
//! - **Adjudication** ([`Adjudication`]): a win once the scores agree on a
//!   decisive advantage for some plies in a row, a draw once they stay near
//!   zero, a draw at a move limit; and, through an optional judge, whatever
//!   an outside authority says of a position (the Syzygy tables, or an
//!   experiment's own rule), without this crate depending on it.
//! - **Faults.** An illegal move, a time forfeit, a crash or a hang loses
//!   the game ([`FaultKind`]).
//! - **Record.** Every move with its score, depth, time and clock
//!   ([`MoveNote`]); [`GameEnd::pgn`] writes them as PGN comments
//!   (`[%eval]`, `[%clk]`, `[%emt]`).
//!
//! ```
//! use fianchetto_board::{Bitboards, Board, Move};
//! use fianchetto_movegen::{Game, MoveGen};
//! use fianchetto_uci::matches::{
//!     play_game, Answer, Ending, GameRules, Limit, MoveLimit, Player, PlayerError, Players,
//! };
//! use std::time::Duration;
//!
//! /// Plays the first legal move it finds.
//! struct First;
//! impl Player for First {
//!     fn new_game(&mut self) -> Result<(), PlayerError> {
//!         Ok(())
//!     }
//!     fn play(&mut self, game: &Game<Bitboards>, _: &MoveLimit) -> Result<Answer, PlayerError> {
//!         Ok(Answer::new(game.board().legal_moves().first().copied()))
//!     }
//! }
//! let rules = GameRules::new(Limit::Nodes(1));
//! let end = play_game(Players::SelfPlay(&mut First), &Game::new(Bitboards::startpos()), &rules, None);
//! assert!(matches!(end.ending, Ending::Rules(_) | Ending::MoveLimit));
//! assert_eq!(end.moves.len(), end.game.moves().len());
//! ```

use super::MatchError;
use crate::{ClientError, Engine, Go, Score};
use fianchetto_board::{Bitboards, Board, Color, Move};
use fianchetto_movegen::pgn::{GameResult, PgnGame};
use fianchetto_movegen::{Game, Outcome, Termination};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// What limits each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// A clock for each side: `base` for the game, `increment` added after
    /// each move (`10+0.1`).
    Clock {
        /// Time for the whole game.
        base: Duration,
        /// Time added after each move.
        increment: Duration,
    },
    /// A fixed number of nodes a move (`go nodes N`): deterministic and
    /// independent of the machine's load.
    Nodes(u64),
    /// A fixed depth a move (`go depth N`).
    Depth(u32),
    /// A fixed time a move (`go movetime T`); no clock is kept.
    MoveTime(Duration),
}

impl Limit {
    /// The PGN `TimeControl` tag: `10+0.1`, or `-` (none) without a clock.
    pub fn time_control_tag(&self) -> String {
        match self {
            Limit::Clock { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            Limit::Nodes(_) | Limit::Depth(_) | Limit::MoveTime(_) => "-".to_string(),
        }
    }

    /// Whether moves are played on a clock.
    pub fn is_clock(&self) -> bool {
        matches!(self, Limit::Clock { .. })
    }
}

impl fmt::Display for Limit {
    /// `2+0.02` (seconds), `nodes 20000`, `depth 6` or `movetime 0.1`.
    ///
    /// ```
    /// use fianchetto_uci::matches::Limit;
    /// assert_eq!("2+0.02".parse::<Limit>().unwrap().to_string(), "2+0.02");
    /// assert_eq!(Limit::Nodes(500).to_string(), "nodes 500");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Clock { base, increment } => {
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::Depth(d) => write!(f, "depth {d}"),
            Limit::MoveTime(t) => write!(f, "movetime {}", t.as_secs_f64()),
        }
    }
}

impl FromStr for Limit {
    type Err = MatchError;

    /// A time control as cutechess-cli and OpenBench write it: seconds for
    /// the game, then `+` and the increment in seconds (`10+0.1`, `60`).
    fn from_str(text: &str) -> Result<Limit, MatchError> {
        let bad = || MatchError::TimeControl(text.to_string());
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e9)
                .map(Duration::from_secs_f64)
        };
        let (base, increment) = (
            seconds(base).ok_or_else(bad)?,
            seconds(inc).ok_or_else(bad)?,
        );
        if base.is_zero() && increment.is_zero() {
            return Err(bad());
        }
        Ok(Limit::Clock { base, increment })
    }
}

/// Where the ply numbers of [`Adjudication::draw_from_ply`] and
/// [`Adjudication::max_plies`] count from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlyOrigin {
    /// From the game's first move, as the opening position's move number
    /// says: a game from a position after 1. e4 e5 starts at ply 2.
    #[default]
    GameStart,
    /// From the opening position: the first move played is ply 1.
    Opening,
}

/// The adjudication rules, applied after every move from the score the
/// mover reported (seen from White's side; a mate score counts as a very
/// large one):
///
/// - **Win.** When `resign_plies` is not 0 and the scores of `resign_plies`
///   moves in a row (both players' moves) are at least `resign_score`
///   centipawns for the same side, that side wins.
/// - **Draw by score.** When `draw_plies` is not 0 and, from ply
///   `draw_from_ply` on (the ply of the move whose score counts), the scores
///   of `draw_plies` moves in a row are within `draw_score` centipawns of 0,
///   the game is drawn.
/// - **Move limit.** The game is drawn when it reaches ply `max_plies`.
///
/// A move without a score resets both counts. The defaults are those of
/// `fianchetto match`: a win after 8 plies in a row at 1000 cp or more for
/// the same side, a draw at ply 400 of the game, no draw by score. Self-play
/// ([`fianchetto-tune`'s datagen and matches]) passes its own values.
///
/// [`fianchetto-tune`'s datagen and matches]: https://docs.rs/fianchetto-tune
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// The score (centipawns, for the side ahead) that counts as decisive.
    pub resign_score: i32,
    /// Plies in a row of decisive scores that end the game (0: never).
    pub resign_plies: u32,
    /// The first ply at which the draw rule counts.
    pub draw_from_ply: u32,
    /// The largest score (centipawns, either side) that counts as drawn.
    pub draw_score: i32,
    /// Plies in a row of drawn scores that end the game (0: never).
    pub draw_plies: u32,
    /// The game is drawn when this ply is reached.
    pub max_plies: u32,
    /// Where `draw_from_ply` and `max_plies` count from.
    pub ply_origin: PlyOrigin,
    /// Whether the score rules also judge a move that ends the game by the
    /// rules, and then win over them. Off, a mate is a mate; self-play data
    /// has always recorded such a game's ending as adjudicated.
    pub scores_first: bool,
}

impl Default for Adjudication {
    fn default() -> Adjudication {
        Adjudication {
            resign_score: 1000,
            resign_plies: 8,
            draw_from_ply: 0,
            draw_score: 0,
            draw_plies: 0,
            max_plies: 400,
            ply_origin: PlyOrigin::GameStart,
            scores_first: false,
        }
    }
}

/// Everything that rules a game besides its players and its opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// What limits each move.
    pub limit: Limit,
    /// How far past its clock a move may end before it loses on time.
    pub margin: Duration,
    /// The adjudication rules.
    pub adjudication: Adjudication,
}

impl GameRules {
    /// `limit` with the default adjudication and a 100 ms margin.
    pub fn new(limit: Limit) -> GameRules {
        GameRules {
            limit,
            margin: Duration::from_millis(100),
            adjudication: Adjudication::default(),
        }
    }
}

/// The limit of one move, as a player is asked to keep it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// Both clocks (never negative) and the increment.
    Clock {
        /// White's time left.
        white: Duration,
        /// Black's time left.
        black: Duration,
        /// The increment of both.
        increment: Duration,
    },
    /// A node count.
    Nodes(u64),
    /// A depth.
    Depth(u32),
    /// A fixed time.
    MoveTime(Duration),
}

impl MoveLimit {
    /// The same limit as a UCI `go`.
    pub fn go(&self) -> Go {
        match *self {
            MoveLimit::Clock {
                white,
                black,
                increment,
            } => Go::clock(white, black, increment, increment),
            MoveLimit::Nodes(n) => Go::nodes(n),
            MoveLimit::Depth(d) => Go::depth(d),
            MoveLimit::MoveTime(t) => Go::movetime(t),
        }
    }
}

/// A player's answer to "your move".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move; `None` only where there is none (the loop counts it a
    /// fault: the rules end such games before asking).
    pub best: Option<Move>,
    /// Its score, from the mover's point of view.
    pub score: Option<Score>,
    /// The depth searched.
    pub depth: Option<u32>,
    /// The time it took (what the clock is charged).
    pub elapsed: Duration,
}

impl Answer {
    /// A move with no score, depth or time.
    pub fn new(best: Option<Move>) -> Answer {
        Answer {
            best,
            score: None,
            depth: None,
            elapsed: Duration::ZERO,
        }
    }
}

/// What a player did wrong, ending a game it then loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// It answered an illegal move (or none where it had moves).
    Illegal,
    /// Its clock ran out (beyond the tolerated margin).
    Time,
    /// Its process ended.
    Crash,
    /// It stopped answering (not even `stop` brought a move), or answered
    /// with a line that is not UCI or longer than
    /// [`MAX_LINE`](crate::client::MAX_LINE).
    Hang,
}

impl FaultKind {
    /// The PGN `Termination` tag's value for it.
    pub fn termination(self) -> &'static str {
        match self {
            FaultKind::Illegal => "illegal move",
            FaultKind::Time => "time forfeit",
            FaultKind::Crash => "abandoned",
            FaultKind::Hang => "stalled connection",
        }
    }

    /// What the player did, in words ("lost on time").
    fn text(self) -> &'static str {
        match self {
            FaultKind::Illegal => "played an illegal move",
            FaultKind::Time => "lost on time",
            FaultKind::Crash => "crashed",
            FaultKind::Hang => "stopped answering",
        }
    }
}

/// A player that could not play: the fault, what happened, and whether it
/// must be restarted before its next game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerError {
    /// The fault.
    pub kind: FaultKind,
    /// What happened, in words.
    pub message: String,
    /// Whether the player must be restarted.
    pub restart: bool,
}

/// One side of a game.
pub trait Player {
    /// Gets ready for a new game (`ucinewgame`; an in-process searcher
    /// clears its tables).
    fn new_game(&mut self) -> Result<(), PlayerError>;

    /// The move to play in `game`'s last position under `limit`.
    fn play(&mut self, game: &Game<Bitboards>, limit: &MoveLimit) -> Result<Answer, PlayerError>;
}

impl Player for Engine {
    fn new_game(&mut self) -> Result<(), PlayerError> {
        Engine::new_game(self).map_err(|e| client_fault(&e, false))
    }

    fn play(&mut self, game: &Game<Bitboards>, limit: &MoveLimit) -> Result<Answer, PlayerError> {
        let clocked = matches!(limit, MoveLimit::Clock { .. });
        let played =
            Engine::play(self, game, &limit.go()).map_err(|e| client_fault(&e, clocked))?;
        Ok(Answer {
            best: played.best,
            score: played.info.score.map(|s| s.score),
            depth: played.info.depth,
            elapsed: played.elapsed,
        })
    }
}

/// The fault a client error is.
fn client_fault(e: &ClientError, clocked: bool) -> PlayerError {
    let kind = match e {
        ClientError::IllegalMove { .. } => FaultKind::Illegal,
        ClientError::Terminated { .. } | ClientError::Spawn { .. } => FaultKind::Crash,
        // With a clock, a search past its whole clock and the grace is lost
        // on time, whatever the engine does next.
        ClientError::Timeout { .. } if clocked => FaultKind::Time,
        _ => FaultKind::Hang,
    };
    PlayerError {
        kind,
        message: e.to_string(),
        restart: e.needs_restart(),
    }
}

/// Who plays.
pub enum Players<'a> {
    /// Two players: White's and Black's.
    Two(&'a mut dyn Player, &'a mut dyn Player),
    /// One player for both sides (self-play).
    SelfPlay(&'a mut dyn Player),
}

impl Players<'_> {
    fn get(&mut self, color: Color) -> &mut dyn Player {
        match self {
            Players::Two(white, _) if color == Color::White => &mut **white,
            Players::Two(_, black) => &mut **black,
            Players::SelfPlay(player) => &mut **player,
        }
    }
}

/// What a judge (see [`play_game`]) says of a position: the winner (`None`:
/// a draw) and why, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why ("Syzygy tablebase"), for the record.
    pub reason: String,
}

/// A judge consulted before every move but the first, after the rules: it
/// gets the game and the plies played since the opening, and ends the game
/// with a [`Judgement`] (the Syzygy tables' result for a position they hold,
/// or an experiment's own rule).
pub type Judge<'a> = &'a mut dyn FnMut(&Game<Bitboards>, u32) -> Option<Judgement>;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (claims included).
    Rules(Outcome),
    /// By the judge.
    Judged(Judgement),
    /// The scores agreed on a winner for [`Adjudication::resign_plies`].
    Resigned(Color),
    /// The scores stayed near 0 for [`Adjudication::draw_plies`].
    DrawnByScore,
    /// [`Adjudication::max_plies`] was reached.
    MoveLimit,
    /// A player's fault.
    Fault {
        /// The faulty player's colour.
        by: Color,
        /// What it did.
        kind: FaultKind,
        /// Why the game ended, in words ("White's clock ran out").
        reason: String,
        /// The error that requires a restart of the player, if one does.
        restart: Option<String>,
    },
}

/// One move played, with what its player said of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// The move.
    pub mv: Move,
    /// Its score, from the mover's point of view.
    pub score: Option<Score>,
    /// The depth searched.
    pub depth: Option<u32>,
    /// The time it took.
    pub elapsed: Duration,
    /// With a clock: the mover's time left after it, before the increment.
    pub clock: Option<Duration>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameEnd {
    /// The opening the game started from.
    pub opening: Game<Bitboards>,
    /// The whole game: the opening and the moves played.
    pub game: Game<Bitboards>,
    /// The moves played after the opening, with their notes.
    pub moves: Vec<MoveNote>,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub ending: Ending,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn win(winner: Option<Color>) -> GameResult {
    match winner {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    }
}

impl GameEnd {
    /// The winner; `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self.result {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }

    /// Whether the game ended by adjudication (score, move limit or judge)
    /// rather than by the rules or a fault.
    pub fn adjudicated(&self) -> bool {
        matches!(
            self.ending,
            Ending::Judged(_) | Ending::Resigned(_) | Ending::DrawnByScore | Ending::MoveLimit
        )
    }

    /// Why it ended, in words ("White mates", "Black's clock ran out").
    pub fn reason(&self) -> String {
        match &self.ending {
            Ending::Rules(Outcome::Decisive { winner, .. }) => {
                format!("{} mates", color_name(*winner))
            }
            Ending::Rules(Outcome::Draw(how)) => match how {
                Termination::Stalemate => "Draw by stalemate".into(),
                Termination::InsufficientMaterial => "Draw by insufficient mating material".into(),
                Termination::FiftyMoves | Termination::SeventyFiveMoves => {
                    "Draw by fifty moves rule".into()
                }
                _ => "Draw by 3-fold repetition".into(),
            },
            Ending::Judged(judgement) => judgement.reason.clone(),
            Ending::Resigned(winner) => format!("{} wins by adjudication", color_name(*winner)),
            Ending::DrawnByScore => "Draw by adjudication".into(),
            Ending::MoveLimit => "Draw by move limit".into(),
            Ending::Fault { reason, .. } => reason.clone(),
        }
    }

    /// The PGN `Termination` tag's value.
    pub fn termination(&self) -> &'static str {
        match &self.ending {
            Ending::Fault { kind, .. } => kind.termination(),
            Ending::Rules(_) => "normal",
            _ => "adjudication",
        }
    }

    /// The game as PGN, without tags, each move commented with its score
    /// (`[%eval 0.35,12]`, White's view, and the depth), its clock
    /// (`[%clk 0:00:09.875]`) and its time (`[%emt 0:00:00.125]`).
    pub fn pgn(&self) -> PgnGame<Bitboards> {
        let mut pgn = PgnGame::new(self.opening.clone());
        for note in &self.moves {
            let mover = pgn.game.board().turn();
            if pgn.play(note.mv).is_err() {
                break;
            }
            let mut comment = Vec::new();
            if let Some(score) = note.score {
                let white = score.pov(mover, Color::White);
                let depth = note.depth.unwrap_or(0);
                comment.push(format!("[%eval {},{depth}]", eval_text(white)));
            }
            if let Some(clock) = note.clock {
                comment.push(format!("[%clk {}]", clock_text(clock.as_secs_f64())));
            }
            comment.push(format!("[%emt {}]", clock_text(note.elapsed.as_secs_f64())));
            if let Some(notes) = pgn.notes.last_mut() {
                notes.comments.push(comment.join(" "));
            }
        }
        pgn.result = Some(self.result);
        pgn
    }
}

/// `h:mm:ss.mmm` for a PGN `%clk` or `%emt` command (negative times read 0).
fn clock_text(seconds: f64) -> String {
    let ms = (seconds.max(0.0) * 1000.0).round() as u64;
    format!(
        "{}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// `%eval` text from White's point of view: pawns (`0.35`) or a mate (`#-3`).
fn eval_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        Score::Mate(m) => format!("#{m}"),
    }
}

/// The resign and draw rules, counted over consecutive plies.
#[derive(Default)]
struct Adjudicator {
    /// Plies in a row whose mover's score was decisive, and for whom.
    decisive: u32,
    leader: Option<Color>,
    /// Plies in a row whose score was near zero.
    quiet: u32,
}

impl Adjudicator {
    /// Takes in the score of the move just made by `mover`, the move of
    /// ply `ply` (counted as the rules say); answers an ending when a rule
    /// applies.
    fn update(
        &mut self,
        rules: &Adjudication,
        mover: Color,
        score: Option<Score>,
        ply: u32,
    ) -> Option<Ending> {
        let Some(score) = score else {
            *self = Adjudicator::default();
            return None;
        };
        let white = score.pov(mover, Color::White);
        // Mate scores count as decisive and as far from a draw.
        let value = white.value(100_000);
        let leader = if value > 0 {
            Color::White
        } else {
            Color::Black
        };
        if rules.resign_plies > 0 && value.unsigned_abs() >= rules.resign_score.unsigned_abs() {
            if self.leader == Some(leader) {
                self.decisive += 1;
            } else {
                self.leader = Some(leader);
                self.decisive = 1;
            }
        } else {
            self.leader = None;
            self.decisive = 0;
        }
        if value.unsigned_abs() <= rules.draw_score.unsigned_abs() && ply >= rules.draw_from_ply {
            self.quiet += 1;
        } else {
            self.quiet = 0;
        }
        if let (true, Some(winner)) = (
            rules.resign_plies > 0 && self.decisive >= rules.resign_plies,
            self.leader,
        ) {
            return Some(Ending::Resigned(winner));
        }
        if rules.draw_plies > 0 && self.quiet >= rules.draw_plies {
            return Some(Ending::DrawnByScore);
        }
        None
    }
}

/// The ply number of `board` counted from the start of the game (as the
/// FEN's move number says).
fn game_ply(board: &Bitboards) -> u32 {
    2 * board.fullmove_number().saturating_sub(1) + u32::from(board.turn() == Color::Black)
}

/// Plays a game from `opening` (whose history counts for repetitions) to
/// its end: `players` move in turn under `rules`; `judge`, when given, is
/// asked before every move but the first (after the rules) whether the game
/// is over. Each player is told of the new game first; one that cannot
/// start it loses.
pub fn play_game(
    mut players: Players<'_>,
    opening: &Game<Bitboards>,
    rules: &GameRules,
    mut judge: Option<Judge<'_>>,
) -> GameEnd {
    let adjudication = &rules.adjudication;
    let mut game = opening.clone();
    let mut moves: Vec<MoveNote> = Vec::new();
    let mut clocks = match rules.limit {
        Limit::Clock { base, .. } => [base.as_secs_f64(); 2],
        _ => [0.0; 2],
    };
    let origin = match adjudication.ply_origin {
        PlyOrigin::GameStart => game_ply(opening.board()),
        PlyOrigin::Opening => 0,
    };
    let mut adjudicator = Adjudicator::default();
    let end = |game, moves, result, ending| GameEnd {
        opening: opening.clone(),
        game,
        moves,
        result,
        ending,
    };
    let fault = |by: Color, kind: FaultKind, reason: String, restart: Option<String>| {
        (
            win(Some(!by)),
            Ending::Fault {
                by,
                kind,
                reason,
                restart,
            },
        )
    };
    let seats: &[Color] = match players {
        Players::Two(..) => &[Color::White, Color::Black],
        Players::SelfPlay(_) => &[Color::White],
    };
    for &color in seats {
        if let Err(e) = players.get(color).new_game() {
            // Neither moved: the game is lost by whoever is broken.
            let reason = format!("{} {}: {}", color_name(color), e.kind.text(), e.message);
            let restart = e.restart.then_some(e.message);
            let (result, ending) = fault(color, e.kind, reason, restart);
            return end(game, moves, result, ending);
        }
    }
    loop {
        if let Some(outcome) = game.outcome_with_claims() {
            let result = GameResult::from_outcome(outcome);
            return end(game, moves, result, Ending::Rules(outcome));
        }
        let played = moves.len() as u32;
        if played > 0 {
            if let Some(judgement) = judge.as_mut().and_then(|judge| judge(&game, played)) {
                let result = win(judgement.winner);
                return end(game, moves, result, Ending::Judged(judgement));
            }
        }
        if origin + played >= adjudication.max_plies {
            return end(game, moves, GameResult::Draw, Ending::MoveLimit);
        }
        let mover = game.board().turn();
        let secs = |s: f64| Duration::from_secs_f64(s.max(0.0));
        let limit = match rules.limit {
            Limit::Clock { increment, .. } => MoveLimit::Clock {
                white: secs(clocks[0]),
                black: secs(clocks[1]),
                increment,
            },
            Limit::Nodes(n) => MoveLimit::Nodes(n),
            Limit::Depth(d) => MoveLimit::Depth(d),
            Limit::MoveTime(t) => MoveLimit::MoveTime(t),
        };
        let answer = match players.get(mover).play(&game, &limit) {
            Ok(answer) => answer,
            Err(e) => {
                let reason = format!("{} {}: {}", color_name(mover), e.kind.text(), e.message);
                let restart = e.restart.then_some(e.message);
                let (result, ending) = fault(mover, e.kind, reason, restart);
                return end(game, moves, result, ending);
            }
        };
        let spent = answer.elapsed.as_secs_f64();
        let mut clock = None;
        if let Limit::Clock { increment, .. } = rules.limit {
            let left = &mut clocks[mover.index()];
            *left -= spent;
            if *left < -rules.margin.as_secs_f64() {
                let reason = format!("{}'s clock ran out", color_name(mover));
                let (result, ending) = fault(mover, FaultKind::Time, reason, None);
                return end(game, moves, result, ending);
            }
            clock = Some(secs(*left));
            *left += increment.as_secs_f64();
        }
        let Some(mv) = answer.best else {
            // A player answers no move only where there is none, and the
            // rules have ended such a game above.
            let reason = format!("{} answered no move", color_name(mover));
            let (result, ending) = fault(mover, FaultKind::Illegal, reason, None);
            return end(game, moves, result, ending);
        };
        if game.play(mv).is_err() {
            let reason = format!("{} played an illegal move", color_name(mover));
            let (result, ending) = fault(mover, FaultKind::Illegal, reason, None);
            return end(game, moves, result, ending);
        }
        moves.push(MoveNote {
            mv,
            score: answer.score,
            depth: answer.depth,
            elapsed: answer.elapsed,
            clock,
        });
        if adjudication.scores_first || game.outcome_with_claims().is_none() {
            let ply = origin + played + 1;
            if let Some(ending) = adjudicator.update(adjudication, mover, answer.score, ply) {
                let result = match ending {
                    Ending::Resigned(winner) => win(Some(winner)),
                    _ => GameResult::Draw,
                };
                return end(game, moves, result, ending);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_texts() {
        assert_eq!(clock_text(9.8745), "0:00:09.875");
        assert_eq!(clock_text(3725.0), "1:02:05.000");
        assert_eq!(clock_text(-1.0), "0:00:00.000");
        assert_eq!(eval_text(Score::Cp(-35)), "-0.35");
        assert_eq!(eval_text(Score::Mate(-3)), "#-3");
    }

    #[test]
    fn adjudication_needs_agreement_for_the_whole_count() {
        let rules = Adjudication::default();
        let mut a = Adjudicator::default();
        // White is winning: white's scores positive, black's negative.
        let mut result = None;
        for ply in 0..rules.resign_plies {
            let mover = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let score = Score::Cp(if mover == Color::White { 1200 } else { -1100 });
            result = a.update(&rules, mover, Some(score), 100 + ply);
            if ply + 1 < rules.resign_plies {
                assert_eq!(result, None, "ply {ply}");
            }
        }
        assert_eq!(result, Some(Ending::Resigned(Color::White)));
        // One small score resets the count.
        let mut a = Adjudicator::default();
        for ply in 0..20 {
            let mover = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let cp = if ply % 6 == 5 { 0 } else { 1500 };
            let score = Score::Cp(if mover == Color::White { cp } else { -cp });
            assert_eq!(a.update(&rules, mover, Some(score), ply), None);
        }
        // The draw rule, when on.
        let rules = Adjudication {
            draw_from_ply: 10,
            draw_score: 10,
            draw_plies: 4,
            ..Adjudication::default()
        };
        let mut a = Adjudicator::default();
        let results: Vec<_> = (0..16)
            .map(|ply| a.update(&rules, Color::White, Some(Score::Cp(5)), ply))
            .collect();
        assert_eq!(results.iter().position(Option::is_some), Some(13));
    }
}
