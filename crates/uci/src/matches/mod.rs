//! Engine-against-engine matches through the [client](crate::client):
//! what `fianchetto match` runs, so that an engine author needs no other
//! tool to test a change.
//!
//! - Each opening is played twice, each engine white once (a game pair),
//!   which cancels most of an opening's bias.
//! - Moves are timed by a clock with increment or fixed at a node budget
//!   ([`Limit`]); a move past the clock (beyond a margin) loses on time.
//! - Games end by the rules (claims of threefold repetition and the
//!   fifty-move rule included), or by adjudication ([`Adjudication`]): a
//!   win once the scores agree on a decisive advantage for some plies in a
//!   row, a draw (when enabled) once they stay near zero, a draw at a move
//!   limit.
//! - Illegal moves, time forfeits, crashes and hangs lose the game and are
//!   counted; an engine that crashed or hung is restarted (its options set
//!   again) and the match goes on with every game already played kept.
//! - Results: W/D/L, the Elo difference with a 95% interval, game pairs
//!   (pentanomial) and, when asked, an SPRT that stops the match once it
//!   decides ([`stats`]).
//!
//! Each game is played by [`play_game`], the one game loop of the
//! workspace, between two [`Player`]s: here two [`Engine`]s; in
//! `fianchetto-tune` (self-play data, SPSA) in-process searchers.
//!
//! ```no_run
//! use fianchetto_uci::matches::{run, Event, Limit, MatchConfig, EngineSpec};
//! use fianchetto_uci::EngineConfig;
//! let config = MatchConfig::new(
//!     EngineSpec::new(EngineConfig::new("target/release/fianchetto")),
//!     EngineSpec::new(EngineConfig::new("/usr/games/stockfish")),
//!     Limit::Nodes(5_000),
//! );
//! let summary = run(&config, |event| {
//!     if let Event::Game { record, .. } = event {
//!         println!("{}", record.pgn_text());
//!     }
//! })?;
//! println!("{}", summary.score_line());
//! # Ok::<(), fianchetto_uci::matches::MatchError>(())
//! ```

mod game;
mod openings;
pub mod stats;

pub use game::{
    play_game, Adjudication, Answer, Ending, FaultKind, GameEnd, GameRules, Judge, Judgement,
    Limit, MoveLimit, MoveNote, Player, PlayerError, Players, PlyOrigin,
};
pub use openings::{read_openings, start_position, OpeningsError};
pub use stats::{Sprt, Tally, Verdict};

use crate::{ClientError, Engine, EngineConfig};
use fianchetto_board::{Bitboards, Color};
use fianchetto_movegen::pgn::{GameResult, PgnGame};
use fianchetto_movegen::Game;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::time::Duration;

/// One engine of a match: how to start it, the options to set, and the
/// name it plays under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program and its waits.
    pub config: EngineConfig,
    /// `(name, value)` options, set (and checked against the engine's
    /// declarations) after every start.
    pub options: Vec<(String, String)>,
    /// The name shown in the PGN tags (`White`, `Black`) and the results
    /// (`Score of A vs B`); `None`: the name the engine gives (`id name`).
    /// Tells two copies of one engine apart when they play each other with
    /// other options.
    pub name: Option<String>,
}

impl EngineSpec {
    /// An engine with its own option defaults, under the name it gives.
    pub fn new(config: EngineConfig) -> EngineSpec {
        EngineSpec {
            config,
            options: Vec::new(),
            name: None,
        }
    }

    /// The same engine under the display name `name` (in the PGN tags and
    /// the results) instead of its `id name`.
    ///
    /// ```
    /// use fianchetto_uci::matches::EngineSpec;
    /// use fianchetto_uci::EngineConfig;
    ///
    /// let spec = EngineSpec::new(EngineConfig::new("stockfish")).named("Stockfish Hash=64");
    /// assert_eq!(spec.name.as_deref(), Some("Stockfish Hash=64"));
    /// ```
    pub fn named(mut self, name: impl Into<String>) -> EngineSpec {
        self.name = Some(name.into());
        self
    }

    /// The name `engine` (started from this spec) plays under: the display
    /// name if one is set, else the engine's own.
    pub fn display_name(&self, engine: &Engine) -> String {
        match &self.name {
            Some(name) => name.clone(),
            None => engine.name().to_string(),
        }
    }

    /// Starts the engine and sets its options.
    pub fn start(&self) -> Result<Engine, ClientError> {
        let mut engine = Engine::start(self.config.clone())?;
        for (name, value) in &self.options {
            engine.set_option(name, Some(value))?;
        }
        engine.is_ready()?;
        Ok(engine)
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first engine (the one under test: results are its).
    pub a: EngineSpec,
    /// Its opponent.
    pub b: EngineSpec,
    /// Games to play (at most, with an SPRT); an odd count leaves the last
    /// opening played once.
    pub games: usize,
    /// What limits each move.
    pub limit: Limit,
    /// Games played at the same time.
    pub concurrency: usize,
    /// The openings, used in turn, each for a game pair.
    pub openings: Vec<Game<Bitboards>>,
    /// Stop once this test decides.
    pub sprt: Option<Sprt>,
    /// The adjudication rules.
    pub adjudication: Adjudication,
    /// How far past its clock a move may end before it loses on time.
    pub margin: Duration,
}

impl MatchConfig {
    /// Two games from the start position under `limit`, one at a time,
    /// with the default adjudication and a 100 ms margin.
    pub fn new(a: EngineSpec, b: EngineSpec, limit: Limit) -> MatchConfig {
        MatchConfig {
            a,
            b,
            games: 2,
            limit,
            concurrency: 1,
            openings: vec![start_position()],
            sprt: None,
            adjudication: Adjudication::default(),
            margin: Duration::from_millis(100),
        }
    }
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A time control that is not `seconds+increment`.
    #[error("time control `{0}` is not seconds+increment, like 10+0.1 or 60")]
    TimeControl(String),
    /// The openings could not be read.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// An engine could not be started (or refused an option) at the start.
    #[error("engine {which}: {source}")]
    Start {
        /// `A` or `B`.
        which: &'static str,
        /// Why.
        source: ClientError,
    },
    /// An engine could not be restarted after a fault, three times running.
    #[error("engine {which} could not be restarted: {source}")]
    Restart {
        /// `A` or `B`.
        which: &'static str,
        /// The last attempt's error.
        source: ClientError,
    },
    /// Nothing to play.
    #[error("a match needs at least one game and one opening")]
    Empty,
}

/// A fault that ended a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Whether engine A made it (else B).
    pub by_a: bool,
    /// What it did.
    pub kind: FaultKind,
    /// Why the engine was restarted after it (crashes, hangs).
    pub restarted: Option<String>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Its number, from 1, in the order the games were started.
    pub number: usize,
    /// The opening's index.
    pub opening: usize,
    /// Whether engine A had white.
    pub a_white: bool,
    /// The result.
    pub result: GameResult,
    /// Why it ended, in words.
    pub reason: String,
    /// The fault that ended it, if one did.
    pub fault: Option<Fault>,
    /// The game, tagged, with clock and score comments.
    pub pgn: PgnGame<Bitboards>,
}

impl GameRecord {
    /// Engine A's points: 1, ½ or 0.
    pub fn a_points(&self) -> f64 {
        let white = match self.result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            _ => 0.5,
        };
        if self.a_white {
            white
        } else {
            1.0 - white
        }
    }

    /// The game in PGN (empty if it cannot be written).
    pub fn pgn_text(&self) -> String {
        self.pgn.to_pgn().unwrap_or_default()
    }
}

/// The counts of faults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Illegal moves.
    pub illegal: u64,
    /// Time forfeits.
    pub time: u64,
    /// Crashes.
    pub crash: u64,
    /// Hangs.
    pub hang: u64,
    /// Faults of engine A.
    pub by_a: u64,
    /// Faults of engine B.
    pub by_b: u64,
    /// Engines restarted.
    pub restarts: u64,
}

impl Faults {
    fn add(&mut self, fault: &Fault) {
        match fault.kind {
            FaultKind::Illegal => self.illegal += 1,
            FaultKind::Time => self.time += 1,
            FaultKind::Crash => self.crash += 1,
            FaultKind::Hang => self.hang += 1,
        }
        if fault.by_a {
            self.by_a += 1;
        } else {
            self.by_b += 1;
        }
        self.restarts += u64::from(fault.restarted.is_some());
    }
}

/// The state of a match: after each game, and at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Engine A's name ([`EngineSpec::name`], else its `id name`).
    pub a: String,
    /// Engine B's name ([`EngineSpec::name`], else its `id name`).
    pub b: String,
    /// W/D/L and pairs, for A.
    pub tally: Tally,
    /// Faults.
    pub faults: Faults,
    /// The test, if one runs.
    pub sprt: Option<Sprt>,
    /// Games the match was to play.
    pub planned: usize,
}

impl Summary {
    /// The last line of cutechess-cli, which tools parse:
    /// `Score of A vs B: W - L - D  [0.xxx] N`.
    pub fn score_line(&self) -> String {
        let t = &self.tally;
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            self.a,
            self.b,
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        )
    }

    /// `Elo difference: +12.3 [-5.1, +29.8] (95%), pairs LL 1 LD 2 …`.
    pub fn elo_line(&self) -> String {
        let (elo, lo, hi) = self.tally.elo_interval();
        let p = self.tally.pairs;
        format!(
            "Elo difference: {elo:+.1} [{lo:+.1}, {hi:+.1}] (95%); pairs 0: {} 0.5: {} 1: {} 1.5: {} 2: {}",
            p[0], p[1], p[2], p[3], p[4]
        )
    }

    /// The SPRT's state: `SPRT [0, 5]: LLR 1.23 [-2.94, 2.94] continue`.
    pub fn sprt_line(&self) -> Option<String> {
        let sprt = self.sprt?;
        let (lower, upper) = sprt.bounds();
        let verdict = match sprt.verdict(&self.tally) {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Continue => "continue",
        };
        Some(format!(
            "SPRT [{}, {}]: LLR {:.2} [{lower:.2}, {upper:.2}] {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.llr(&self.tally)
        ))
    }

    /// `Faults: illegal 0 time 0 crash 0 hang 0 (A 0, B 0), restarts 0`.
    pub fn faults_line(&self) -> String {
        let f = &self.faults;
        format!(
            "Faults: illegal {} time {} crash {} hang {} (A {}, B {}), restarts {}",
            f.illegal, f.time, f.crash, f.hang, f.by_a, f.by_b, f.restarts
        )
    }

    /// Whether the test has decided.
    pub fn decided(&self) -> bool {
        self.sprt
            .is_some_and(|s| s.verdict(&self.tally) != Verdict::Continue)
    }
}

/// What [`run`] reports as the match goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// A game ended.
    Game {
        /// The game.
        record: &'a GameRecord,
        /// The match so far.
        summary: &'a Summary,
    },
    /// An engine was restarted after a fault.
    Restarted {
        /// Which engine (`A` or `B`).
        which: &'static str,
        /// The error that made it necessary.
        reason: String,
    },
}

/// What a worker sends the thread that keeps the score.
enum Message {
    Game(Box<GameRecord>),
    Restarted(&'static str, String),
    Fatal(MatchError),
}

/// Today's date as PGN writes it (`2025.01.31`), from the system clock.
fn pgn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// One worker's engines, started on demand and restarted after a fault.
struct Seats<'c> {
    config: &'c MatchConfig,
    a: Option<Engine>,
    b: Option<Engine>,
}

impl Seats<'_> {
    /// The engine of A or B, started if it is not running; three failed
    /// starts in a row are fatal.
    fn get(&mut self, is_a: bool) -> Result<&mut Engine, MatchError> {
        let (slot, spec, which) = if is_a {
            (&mut self.a, &self.config.a, "A")
        } else {
            (&mut self.b, &self.config.b, "B")
        };
        if slot.is_none() {
            let mut last = None;
            for _ in 0..3 {
                match spec.start() {
                    Ok(engine) => {
                        *slot = Some(engine);
                        break;
                    }
                    Err(e) => last = Some(e),
                }
            }
            if slot.is_none() {
                if let Some(source) = last {
                    return Err(MatchError::Restart { which, source });
                }
            }
        }
        slot.as_mut().ok_or(MatchError::Empty)
    }
}

/// Plays game `index` (from 0) on a worker's engines.
fn play_indexed(seats: &mut Seats, index: usize, tx: &Sender<Message>) -> Result<(), MatchError> {
    let config = seats.config;
    let opening = (index / 2) % config.openings.len();
    let a_white = index % 2 == 0;
    // Both engines must be running: take them out, play, put them back.
    seats.get(true)?;
    seats.get(false)?;
    let (Some(mut a), Some(mut b)) = (seats.a.take(), seats.b.take()) else {
        return Err(MatchError::Empty);
    };
    let (white, black) = if a_white {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let (white_spec, black_spec) = if a_white {
        (&config.a, &config.b)
    } else {
        (&config.b, &config.a)
    };
    let names = [
        white_spec.display_name(white),
        black_spec.display_name(black),
    ];
    let rules = GameRules {
        limit: config.limit,
        margin: config.margin,
        adjudication: config.adjudication,
    };
    let end = game::play_game(
        Players::Two(white, black),
        &config.openings[opening],
        &rules,
        None,
    );
    seats.a = Some(a);
    seats.b = Some(b);
    let fault = match &end.ending {
        Ending::Fault {
            by, kind, restart, ..
        } => Some(Fault {
            by_a: (*by == Color::White) == a_white,
            kind: *kind,
            restarted: restart.clone(),
        }),
        _ => None,
    };
    if let Some(Fault {
        by_a,
        restarted: Some(reason),
        ..
    }) = &fault
    {
        // Dropping the engine ends its process; the next game starts a
        // fresh one with the same options.
        let (slot, which) = if *by_a {
            (&mut seats.a, "A")
        } else {
            (&mut seats.b, "B")
        };
        *slot = None;
        let _ = tx.send(Message::Restarted(which, reason.clone()));
    }
    let reason = end.reason();
    let mut pgn = end.pgn();
    let tags = [
        ("Event", "fianchetto match".to_string()),
        ("Site", "?".to_string()),
        ("Date", pgn_date()),
        ("Round", (index + 1).to_string()),
        ("White", names[0].clone()),
        ("Black", names[1].clone()),
        ("Result", end.result.as_str().to_string()),
        ("TimeControl", config.limit.time_control_tag()),
        ("Termination", end.termination().to_string()),
    ];
    for (name, value) in tags {
        pgn.tags.set(name, value);
    }
    if let Limit::Nodes(n) = config.limit {
        pgn.tags.set("Nodes", n.to_string());
    }
    pgn.result = Some(end.result);
    match pgn.notes.last_mut() {
        Some(notes) if !pgn.game.moves().is_empty() => notes.comments.push(reason.clone()),
        _ => pgn.comments.push(reason.clone()),
    }
    let record = GameRecord {
        number: index + 1,
        opening,
        a_white,
        result: end.result,
        reason,
        fault,
        pgn,
    };
    let _ = tx.send(Message::Game(Box::new(record)));
    Ok(())
}

/// Plays the match, `config.concurrency` games at a time, calling
/// `on_event` (on this thread) as games end; the final [`Summary`].
/// The engines are started (and their options checked) before any game,
/// so that a bad command or option is an error at once.
pub fn run(config: &MatchConfig, mut on_event: impl FnMut(Event)) -> Result<Summary, MatchError> {
    if config.games == 0 || config.openings.is_empty() {
        return Err(MatchError::Empty);
    }
    let workers = config.concurrency.clamp(1, config.games);
    let mut seats = Vec::with_capacity(workers);
    for _ in 0..workers {
        let a = config
            .a
            .start()
            .map_err(|source| MatchError::Start { which: "A", source })?;
        let b = config
            .b
            .start()
            .map_err(|source| MatchError::Start { which: "B", source })?;
        seats.push(Seats {
            config,
            a: Some(a),
            b: Some(b),
        });
    }
    let name = |spec: &EngineSpec, s: &Option<Engine>| {
        s.as_ref().map_or(String::new(), |e| spec.display_name(e))
    };
    let mut summary = Summary {
        a: name(&config.a, &seats[0].a),
        b: name(&config.b, &seats[0].b),
        tally: Tally::default(),
        faults: Faults::default(),
        sprt: config.sprt,
        planned: config.games,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel();
    let mut fatal = None;
    std::thread::scope(|scope| {
        for mut seat in seats {
            let (tx, next, stop) = (tx.clone(), &next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    if let Err(e) = play_indexed(&mut seat, index, &tx) {
                        let _ = tx.send(Message::Fatal(e));
                        break;
                    }
                }
            });
        }
        drop(tx);
        // The first game of each pair, waiting for its partner.
        let mut halves: HashMap<usize, f64> = HashMap::new();
        for message in rx {
            match message {
                Message::Game(record) => {
                    let points = record.a_points();
                    summary.tally.add_game(points);
                    let pair = (record.number - 1) / 2;
                    match halves.remove(&pair) {
                        Some(first) => summary.tally.add_pair_only(first + points),
                        None => {
                            halves.insert(pair, points);
                        }
                    }
                    if let Some(f) = &record.fault {
                        summary.faults.add(f);
                    }
                    if summary.decided() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    on_event(Event::Game {
                        record: &record,
                        summary: &summary,
                    });
                }
                Message::Restarted(which, reason) => on_event(Event::Restarted { which, reason }),
                Message::Fatal(e) => {
                    stop.store(true, Ordering::Relaxed);
                    fatal.get_or_insert(e);
                }
            }
        }
    });
    match fatal {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let secs = Duration::from_secs_f64;
        assert_eq!(
            "10+0.1".parse::<Limit>().ok(),
            Some(Limit::Clock {
                base: secs(10.0),
                increment: secs(0.1)
            })
        );
        assert_eq!(
            "60".parse::<Limit>().ok(),
            Some(Limit::Clock {
                base: secs(60.0),
                increment: secs(0.0)
            })
        );
        for bad in ["", "ten", "10+", "-5+1", "0+0", "1e300", "NaN"] {
            assert!(bad.parse::<Limit>().is_err(), "{bad}");
        }
        assert_eq!(
            Limit::Clock {
                base: secs(10.0),
                increment: secs(0.1)
            }
            .time_control_tag(),
            "10+0.1"
        );
    }

    #[test]
    fn the_score_line_is_cutechess_s() {
        let mut tally = Tally::default();
        tally.add_pair(1.0, 0.5);
        tally.add_pair(0.0, 0.5);
        let summary = Summary {
            a: "New".into(),
            b: "Old".into(),
            tally,
            faults: Faults::default(),
            sprt: Some(Sprt::new(0.0, 5.0)),
            planned: 4,
        };
        assert_eq!(
            summary.score_line(),
            "Score of New vs Old: 1 - 1 - 2  [0.500] 4"
        );
        assert!(summary
            .sprt_line()
            .is_some_and(|l| l.starts_with("SPRT [0, 5]: LLR ")));
        assert!(!summary.decided());
    }

    #[test]
    fn dates_are_pgn_dates() {
        let d = pgn_date();
        assert_eq!(d.len(), 10);
        assert!(d.as_bytes()[4] == b'.' && d.as_bytes()[7] == b'.');
        assert!(d.as_str() >= "2024.01.01", "{d}");
    }
}
