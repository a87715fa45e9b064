//! A client that drives any UCI engine as a child process, as python-chess's
//! `chess.engine` does:
//!
//! - [`Engine::start`] runs the program and does the handshake (`uci` …
//!   `uciok`), keeping its name, author and declared options.
//! - [`Engine::set_option`] checks a value against the engine's own
//!   declaration (type, range, choices) before anything is sent.
//! - [`Engine::play`] sends the position of a [`Game`] and a [`Go`] with any
//!   limits and waits for `bestmove`; [`Engine::go`] returns a [`Search`]
//!   that yields each `info` as it comes and can be stopped or told of a
//!   ponder hit. Every move the engine sends is checked against the
//!   position: `bestmove` must be legal (else [`ClientError::IllegalMove`]),
//!   a PV is cut at its first illegal move (noted in
//!   [`Engine::warnings`]).
//! - Every wait has a deadline: a search's own limit plus
//!   [`EngineConfig::grace`], or [`EngineConfig::search_timeout`] for
//!   searches without a time limit. An engine past its deadline is told to
//!   `stop`; one that still does not answer is hung
//!   ([`ClientError::Timeout`]); one whose process ended has crashed
//!   ([`ClientError::Terminated`], with its last lines).
//!
//! ```no_run
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_movegen::Game;
//! use fianchetto_uci::{Engine, EngineConfig, Go};
//!
//! let mut engine = Engine::start(EngineConfig::new("/usr/games/stockfish"))?;
//! engine.set_option("Hash", Some("32"))?;
//! let mut game = Game::new(Bitboards::startpos());
//! game.play_uci("e2e4")?;
//! let played = engine.play(&game, &Go::depth(12))?;
//! println!("{} answers {:?} ({:?})", engine.name(), played.best, played.info.score);
//! engine.quit();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod process;

pub use error::ClientError;
pub use process::MAX_LINE;

use crate::{
    BestMove, Command, Go, IllegalInfoMove, Info, OptionValue, Position, Reply, UciOption,
};
use fianchetto_board::{CastlingMode, Move};
use fianchetto_movegen::{Game, MoveGen, UciMove};
use process::{NoLine, Process};
use std::time::{Duration, Instant};

/// How to start an engine, and how long to wait for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// A name for messages and PGN tags; the engine's `id name` when `None`.
    pub label: Option<String>,
    /// The longest wait for `uciok`.
    pub handshake_timeout: Duration,
    /// The longest wait for `readyok`.
    pub ready_timeout: Duration,
    /// How long past a search's own limit (its move time, or the whole of
    /// its clock) the engine may take before it is told to stop, and then
    /// how long it has to answer `stop` before it counts as hung.
    pub grace: Duration,
    /// The longest wait for a search without a time limit (depth, nodes,
    /// mate) before it is told to stop.
    pub search_timeout: Duration,
    /// Let the engine's standard error through to ours (otherwise dropped).
    pub stderr: bool,
}

impl EngineConfig {
    /// `program` without arguments, with the default waits: 10 s for the
    /// handshake, 30 s for `readyok`, 5 s of grace, 10 min for searches
    /// without a time limit.
    pub fn new(program: impl Into<String>) -> EngineConfig {
        EngineConfig {
            program: program.into(),
            args: Vec::new(),
            label: None,
            handshake_timeout: Duration::from_secs(10),
            ready_timeout: Duration::from_secs(30),
            grace: Duration::from_secs(5),
            search_timeout: Duration::from_secs(600),
            stderr: false,
        }
    }

    /// A command line split at white space: the program and its arguments
    /// (`"/usr/games/gnuchess --uci"`). `None` for a blank line.
    pub fn from_command_line(line: &str) -> Option<EngineConfig> {
        let mut words = line.split_whitespace();
        let mut config = EngineConfig::new(words.next()?);
        config.args = words.map(str::to_string).collect();
        Some(config)
    }

    /// The command line, for messages.
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The answer to a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move; `None` only when the position has no legal move.
    pub best: Option<Move>,
    /// The reply the engine expects (dropped if it is not legal).
    pub ponder: Option<Move>,
    /// Everything the engine reported about its first line, merged (each
    /// `info` overrides the fields it names): depth, score, nodes, PV…
    pub info: Info<Move>,
    /// The same for every line of a MultiPV search, `lines[k - 1]` for
    /// `multipv k` (`lines[0]` is `info`).
    pub lines: Vec<Info<Move>>,
    /// From sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// Most warnings kept; later ones are counted but not stored.
const MAX_WARNINGS: usize = 100;

/// A running UCI engine.
pub struct Engine {
    config: EngineConfig,
    process: Process,
    name: String,
    author: String,
    options: Vec<UciOption>,
    warnings: Vec<String>,
    /// How castling is written to the engine (Chess960 once `UCI_Chess960`
    /// is set).
    castling: CastlingMode,
    /// A search was abandoned without its `bestmove`: it is read (and
    /// thrown away) before the next request.
    pending_bestmove: bool,
    ended: bool,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("command", &self.config.command_line())
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Starts the engine and does the handshake: `uci`, then its `id` and
    /// `option` lines up to `uciok`.
    pub fn start(config: EngineConfig) -> Result<Engine, ClientError> {
        let process =
            Process::spawn(&config.program, &config.args, config.stderr).map_err(|source| {
                ClientError::Spawn {
                    command: config.command_line(),
                    source,
                }
            })?;
        let fallback = std::path::Path::new(&config.program)
            .file_name()
            .map_or(config.program.clone(), |f| f.to_string_lossy().into_owned());
        let mut engine = Engine {
            name: config.label.clone().unwrap_or(fallback),
            config,
            process,
            author: String::new(),
            options: Vec::new(),
            warnings: Vec::new(),
            castling: CastlingMode::Standard,
            pending_bestmove: false,
            ended: false,
        };
        engine.send(&Command::Uci, "starting")?;
        let deadline = Instant::now() + engine.config.handshake_timeout;
        loop {
            match engine.recv(Some(deadline), "uciok", "starting")? {
                Reply::UciOk => break,
                // The name heads every message about the engine, printed on
                // a terminal: its control characters are written out.
                Reply::Id(crate::Id::Name(name)) if engine.config.label.is_none() => {
                    engine.name = error::escape(&name)
                }
                Reply::Id(crate::Id::Author(author)) => engine.author = author,
                Reply::Option(option) => engine.options.push(option),
                _ => {}
            }
        }
        Ok(engine)
    }

    /// Its name: the label configured, else its `id name`, else the
    /// program's file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its `id author` (empty if it gave none).
    pub fn author(&self) -> &str {
        &self.author
    }

    /// The options it declared.
    pub fn options(&self) -> &[UciOption] {
        &self.options
    }

    /// The option called `name` (case does not matter).
    pub fn option(&self, name: &str) -> Option<&UciOption> {
        self.options.iter().find(|o| o.is_named(name))
    }

    /// How it was started.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Lines it wrote that the client did not understand or had to
    /// correct (a bad `info`, a PV with an illegal move, an illegal ponder
    /// move), each with the reason; the first 100.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn warn(&mut self, text: String) {
        if self.warnings.len() < MAX_WARNINGS {
            // They quote the engine's lines, and end up on a terminal.
            self.warnings.push(error::escape(&text));
        }
    }

    /// Sends `setoption`, once the engine's declaration of the option
    /// accepts `value` (text as a GUI would send it; `None` for a button).
    /// Nothing is sent for an unknown option or a refused value.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), ClientError> {
        let checked = self
            .declared(name)?
            .check_value(value)
            .map_err(|source| self.option_error(source))?;
        self.send_option(name, checked)
    }

    /// [`Engine::set_option`] with a typed value, which must be of the
    /// option's type.
    pub fn set_option_value(&mut self, name: &str, value: &OptionValue) -> Result<(), ClientError> {
        let checked = self
            .declared(name)?
            .check_typed(value)
            .map_err(|source| self.option_error(source))?;
        self.send_option(name, checked)
    }

    fn declared(&self, name: &str) -> Result<&UciOption, ClientError> {
        self.option(name)
            .ok_or_else(|| self.option_error(crate::OptionError::Unknown(name.to_string())))
    }

    fn option_error(&self, source: crate::OptionError) -> ClientError {
        ClientError::Option {
            engine: self.name.clone(),
            source,
        }
    }

    fn send_option(&mut self, name: &str, value: OptionValue) -> Result<(), ClientError> {
        let declared = self.declared(name)?.name.clone();
        if declared.eq_ignore_ascii_case("UCI_Chess960") {
            self.castling = CastlingMode::from_chess960(value == OptionValue::Check(true));
        }
        let cmd = Command::SetOption {
            name: declared,
            value: value.to_text(),
        };
        self.send(&cmd, "setting an option")
    }

    /// Sends `isready` and waits for `readyok`.
    pub fn is_ready(&mut self) -> Result<(), ClientError> {
        self.settle()?;
        self.send(&Command::IsReady, "waiting for readyok")?;
        let deadline = Instant::now() + self.config.ready_timeout;
        while self.recv(Some(deadline), "readyok", "waiting for readyok")? != Reply::ReadyOk {}
        Ok(())
    }

    /// Sends `ucinewgame` and waits until the engine is ready.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.settle()?;
        self.send(&Command::UciNewGame, "starting a game")?;
        self.is_ready()
    }

    /// Searches the position `game` has reached (sent with its start and
    /// moves) under `go`, and waits for the answer.
    pub fn play<B: MoveGen>(&mut self, game: &Game<B>, go: &Go) -> Result<Played, ClientError> {
        self.go(game, go)?.wait()
    }

    /// Starts a search of the position `game` has reached under `go`; the
    /// [`Search`] reads its reports and its answer. `searchmoves` must be
    /// legal there.
    pub fn go<B: MoveGen>(
        &mut self,
        game: &Game<B>,
        go: &Go,
    ) -> Result<Search<'_, B>, ClientError> {
        self.settle()?;
        let board = game.board().clone();
        for mv in &go.searchmoves {
            if let Err(e) = mv.to_move(&board) {
                return Err(ClientError::Usage {
                    engine: self.name.clone(),
                    problem: format!("searchmoves: {e}"),
                });
            }
        }
        let position = Position::of_game(game, self.castling);
        self.send(&Command::Position(position), "sending a position")?;
        self.send(&Command::Go(go.clone()), "starting a search")?;
        let started = Instant::now();
        let deadline = self.deadline(go, board.turn(), started);
        Ok(Search {
            engine: self,
            board,
            go: go.clone(),
            started,
            deadline,
            stopped: false,
            lines: Vec::new(),
            done: None,
        })
    }

    /// When a search under `go` must have answered by itself: its move
    /// time or its side's whole clock, plus the grace; the search time-out
    /// for searches without a time limit; never for `infinite` and `ponder`
    /// (until `stop` or `ponderhit`).
    fn deadline(&self, go: &Go, turn: fianchetto_board::Color, from: Instant) -> Option<Instant> {
        if go.is_unbounded() {
            return None;
        }
        let clock = match turn {
            fianchetto_board::Color::White => go.wtime,
            fianchetto_board::Color::Black => go.btime,
        };
        let limit = match (go.movetime, clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Some(from + limit.map_or(self.config.search_timeout, |t| t + self.config.grace))
    }

    /// Reads the `bestmove` of an abandoned search, so that the next request
    /// starts in step.
    fn settle(&mut self) -> Result<(), ClientError> {
        if !self.pending_bestmove {
            return Ok(());
        }
        let deadline = Instant::now() + self.config.grace;
        loop {
            let reply = self.recv(Some(deadline), "bestmove", "ending an abandoned search")?;
            if matches!(reply, Reply::BestMove(_)) {
                self.pending_bestmove = false;
                return Ok(());
            }
        }
    }

    /// Sends a command as it is (for what the typed methods do not cover).
    pub fn send(&mut self, cmd: &Command, doing: &str) -> Result<(), ClientError> {
        let line = cmd.to_string();
        if self.process.send(&line).is_err() {
            return Err(self.terminated(doing));
        }
        Ok(())
    }

    /// The next reply the engine writes, waiting until `deadline` at most
    /// (`None`: forever). Lines that are not replies are noted in
    /// [`Engine::warnings`] and skipped, except a malformed `bestmove`,
    /// which is an error. `expected` and `doing` are for the error message.
    pub fn recv(
        &mut self,
        deadline: Option<Instant>,
        expected: &'static str,
        doing: &str,
    ) -> Result<Reply, ClientError> {
        let start = Instant::now();
        loop {
            let line = match self.process.recv(deadline) {
                Ok(line) => line,
                Err(NoLine::Closed) => return Err(self.terminated(doing)),
                Err(NoLine::TooLong) => {
                    return Err(ClientError::LineTooLong {
                        engine: self.name.clone(),
                        limit: MAX_LINE,
                        doing: doing.to_string(),
                        last: self.process.recent(),
                    });
                }
                Err(NoLine::Timeout) => {
                    return Err(ClientError::Timeout {
                        engine: self.name.clone(),
                        expected,
                        waited: start.elapsed(),
                        doing: doing.to_string(),
                        last: self.process.recent(),
                    });
                }
            };
            match line.parse::<Reply>() {
                Ok(reply) => return Ok(reply),
                Err(crate::ParseError::Empty) => {}
                // A search's answer must be understood: waiting on would
                // only turn the error into a time-out.
                Err(source) if line.split_whitespace().next() == Some("bestmove") => {
                    return Err(ClientError::BadReply {
                        engine: self.name.clone(),
                        line,
                        source: Box::new(source),
                    })
                }
                Err(e) => self.warn(format!("`{line}`: {e}")),
            }
        }
    }

    fn terminated(&mut self, doing: &str) -> ClientError {
        self.ended = true;
        let status = self
            .process
            .exit_status(Duration::from_millis(500))
            .map_or("no exit status yet".to_string(), |s| s.to_string());
        ClientError::Terminated {
            engine: self.name.clone(),
            status,
            doing: doing.to_string(),
            last: self.process.recent(),
        }
    }

    /// Ends the engine: `quit`, and a kill if it has not ended within a
    /// second. Its exit status, when it has one.
    pub fn quit(mut self) -> Option<std::process::ExitStatus> {
        self.ended = true;
        self.process.shut_down(Duration::from_secs(1))
    }
}

impl Drop for Engine {
    /// An engine dropped without [`Engine::quit`] is ended the same way,
    /// so that no process outlives its client.
    fn drop(&mut self) {
        if !self.ended {
            self.process.shut_down(Duration::from_millis(200));
        }
    }
}

/// Checks `moves` from `board`, one after another: all of them, or the
/// index of the first illegal one with the reason.
fn check_line<B: MoveGen>(board: &B, moves: &[UciMove]) -> Result<Vec<Move>, (usize, String)> {
    let mut board = board.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = text.to_move(&board).map_err(|e| (i, e.to_string()))?;
        board.play_unchecked(mv);
        out.push(mv);
    }
    Ok(out)
}

/// [`check_line`], keeping the legal start of a line that goes wrong.
fn legal_prefix<B: MoveGen>(board: &B, moves: &[UciMove]) -> Vec<Move> {
    let mut board = board.clone();
    let mut out = Vec::new();
    for text in moves {
        let Ok(mv) = text.to_move(&board) else { break };
        board.play_unchecked(mv);
        out.push(mv);
    }
    out
}

/// A search in progress (see [`Engine::go`]).
pub struct Search<'e, B: MoveGen> {
    engine: &'e mut Engine,
    board: B,
    go: Go,
    started: Instant,
    deadline: Option<Instant>,
    stopped: bool,
    lines: Vec<Info<Move>>,
    done: Option<(BestMove, Duration)>,
}

impl<B: MoveGen> Search<'_, B> {
    /// The next `info` the engine reports, its moves checked against the
    /// position; `None` once `bestmove` has come (then [`Search::wait`]
    /// answers at once).
    pub fn next_info(&mut self) -> Result<Option<Info<Move>>, ClientError> {
        while self.done.is_none() {
            let reply = self.recv()?;
            match reply {
                Reply::Info(info) => {
                    let info = self.check_info(*info);
                    let k = info.multipv.unwrap_or(1).max(1) as usize;
                    if self.lines.len() < k {
                        self.lines.resize_with(k, Info::default);
                    }
                    self.lines[k - 1].merge(info.clone());
                    return Ok(Some(info));
                }
                Reply::BestMove(best) => self.done = Some((best, self.started.elapsed())),
                _ => {}
            }
        }
        Ok(None)
    }

    /// The next reply, with the deadline rules: past the deadline the
    /// engine is told to stop and gets the grace to answer.
    fn recv(&mut self) -> Result<Reply, ClientError> {
        loop {
            match self.engine.recv(self.deadline, "bestmove", "searching") {
                Err(ClientError::Timeout { .. }) if !self.stopped => self.stop()?,
                other => return other,
            }
        }
    }

    fn check_info(&mut self, info: Info) -> Info<Move> {
        let board = &self.board;
        match info.clone().try_map_moves(|moves| check_line(board, moves)) {
            Ok(info) => info,
            Err(IllegalInfoMove {
                field,
                index,
                text,
                reason,
            }) => {
                self.engine.warn(format!(
                    "`{field}` move {index} (`{text}`) is illegal and was cut: {reason}"
                ));
                // Infallible: the prefix map refuses nothing.
                info.try_map_moves(|moves| Ok(legal_prefix(board, moves)))
                    .unwrap_or_default()
            }
        }
    }

    /// Sends `stop`: the engine ends the search and answers now (it has the
    /// grace to do so).
    pub fn stop(&mut self) -> Result<(), ClientError> {
        if self.done.is_none() && !self.stopped {
            self.stopped = true;
            self.deadline = Some(Instant::now() + self.engine.config.grace);
            self.engine.send(&Command::Stop, "stopping a search")?;
        }
        Ok(())
    }

    /// Sends `ponderhit`: the move pondered on was played, and the search
    /// goes on under its limits as a normal search, timed from now.
    pub fn ponderhit(&mut self) -> Result<(), ClientError> {
        if self.done.is_some() || !self.go.ponder {
            return Ok(());
        }
        self.engine.send(&Command::PonderHit, "sending ponderhit")?;
        let normal = Go {
            ponder: false,
            ..self.go.clone()
        };
        self.deadline = self
            .engine
            .deadline(&normal, self.board.turn(), Instant::now());
        self.go = normal;
        Ok(())
    }

    /// Waits for `bestmove` (reading any `info` before it) and checks it.
    pub fn wait(mut self) -> Result<Played, ClientError> {
        let (best, elapsed) = loop {
            if let Some(done) = self.done {
                break done;
            }
            self.next_info()?;
        };
        let legal = self.board.legal_moves();
        let best_move = match (best.mv, legal.is_empty()) {
            (UciMove::Null, true) => None,
            (UciMove::Null, false) => {
                return Err(self.illegal(best.mv, "the null move where there are legal moves"))
            }
            (mv, _) => Some(
                mv.to_move(&self.board)
                    .map_err(|e| self.illegal(mv, &e.to_string()))?,
            ),
        };
        let ponder = match (best_move, best.ponder) {
            (Some(mv), Some(p)) => {
                let mut after = self.board.clone();
                after.play_unchecked(mv);
                match p.to_move(&after) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        self.engine.warn(format!("ponder move `{p}` dropped: {e}"));
                        None
                    }
                }
            }
            _ => None,
        };
        let mut lines = std::mem::take(&mut self.lines);
        if lines.is_empty() {
            lines.push(Info::default());
        }
        Ok(Played {
            best: best_move,
            ponder,
            info: lines[0].clone(),
            lines,
            elapsed,
        })
    }

    fn illegal(&self, mv: UciMove, reason: &str) -> ClientError {
        ClientError::IllegalMove {
            engine: self.engine.name.clone(),
            text: mv.to_string(),
            fen: self.board.fen(),
            reason: reason.to_string(),
        }
    }
}

impl<B: MoveGen> Drop for Search<'_, B> {
    /// A search dropped before its `bestmove` is stopped; the engine reads
    /// that `bestmove` before its next request.
    fn drop(&mut self) {
        if self.done.is_none() {
            if !self.stopped {
                let _ = self.engine.send(&Command::Stop, "stopping a search");
            }
            self.engine.pending_bestmove = true;
        }
    }
}
