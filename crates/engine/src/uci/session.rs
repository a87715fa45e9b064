//! The UCI session: reads commands, keeps the position and options, and runs
//! each search on its own thread so that `stop`, `isready` and `ponderhit`
//! are answered at once. A command that fails leaves every piece of state as
//! it was and answers `info string error: …`.

use super::options::{Applied, EngineOptions};
use crate::commands::eval::report;
use crate::evals::{load_network, read_weights, EvalChoice, EvalName};
use crate::searchers::{build_driver, Driver};
use crate::with_backend;
use fianchetto_board::{diagram, Bitboards, Board, CastlingMode, CastlingRights, Move, Setup};
use fianchetto_eval::nnue::Network;
use fianchetto_eval::policy::{load_policy, PolicyNet};
use fianchetto_movegen::perft::perft_until;
use fianchetto_movegen::polyglot::{Book, BookMove};
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::tt::{Replacement, TranspositionTable};
use fianchetto_search::{time::TimeManager, Bound, Info, Limits, SearchResult};
use fianchetto_syzygy::{SyzygyError, Tablebase};
use fianchetto_uci::{
    BestMove, BoundedScore, Command, Go, Id, ParseError, Position, Reply, UciMove,
};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

mod setoption;

/// Where the session writes: shared with the search thread, each line
/// written whole and flushed.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to `w`.
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one reply.
    pub fn reply(&self, reply: &Reply) {
        self.line(&reply.to_string());
    }

    /// Writes `info string <text>`.
    pub fn string(&self, text: &str) {
        self.reply(&Reply::Info(Box::new(fianchetto_uci::Info {
            string: Some(text.to_string()),
            ..fianchetto_uci::Info::default()
        })));
    }

    /// Writes one line. A GUI that closed its end is not our problem to
    /// report: errors are dropped.
    pub fn line(&self, text: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// A search in progress.
struct Running {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    /// Raised by `ponderhit`: the search may now print its move.
    ponder_hit: Arc<AtomicBool>,
    /// The clock limits of a `go ponder`, used when the ponder hit comes.
    ponder_limits: Option<Limits>,
    /// Whether only `stop` ends it (`go infinite`, `go ponder`).
    unbounded: bool,
}

/// The state of a UCI session.
pub struct Session {
    out: Output,
    options: EngineOptions,
    /// The position: a validated start and the moves played from it.
    start: Setup,
    moves: Vec<Move>,
    driver: Arc<Mutex<Box<dyn Driver>>>,
    /// The network NNUE runs (`EvalFile`).
    net: Arc<Network>,
    /// The policy network MCTS runs (`PolicyFile`); `None` for the
    /// hand-written policy.
    policy: Option<Arc<PolicyNet>>,
    /// The text of `EvalWeights`' file, checked, if one is set.
    weights: Option<String>,
    running: Option<Running>,
    debug: bool,
    /// The Polyglot book of `BookFile`, if one is loaded.
    book: Option<Book>,
    /// The state of the generator behind weighted book choices.
    book_random: u64,
    /// The Syzygy tables of `SyzygyPath`, if any.
    syzygy: Option<Arc<Tablebase>>,
}

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received.
    Quit,
}

const NAME: &str = concat!("Fianchetto ", env!("CARGO_PKG_VERSION"));

impl Session {
    /// A session writing to `out`, at the start position with default options.
    pub fn new(out: Output) -> Session {
        let options = EngineOptions::default();
        // The embedded network passes its checks (a test loads it); should a
        // bad build-time EVALFILE slip through, NNUE scores 0 and says why.
        let net = load_network(None).unwrap_or_else(|_| Arc::new(Network::zero()));
        let choice = EvalChoice::new(EvalName::default(), &net);
        // The embedded policy passes its checks too (`build.rs` and a test);
        // should it not, MCTS falls back to the hand-written policy.
        let policy = load_policy(&options.policy_file).ok().flatten();
        let driver = Arc::new(Mutex::new(build_driver(
            &options,
            &choice,
            None,
            policy.as_ref(),
        )));
        Session {
            out,
            options,
            start: Setup::start(),
            moves: Vec::new(),
            driver,
            net,
            policy,
            weights: None,
            running: None,
            debug: false,
            book: None,
            syzygy: None,
            // Seeded from the clock, so that games differ from run to run.
            book_random: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
        }
    }

    /// Reads commands from `input` until `quit` or the end of input.
    ///
    /// Lines are read as bytes: one that is not UTF-8 (a Latin-1 path in
    /// `setoption`, a stray byte) is refused with `info string error: …`
    /// naming its number and the first bad byte, and the session goes on
    /// (a running search too). Only the end of input or a read error ends it.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut bytes = Vec::new();
        let mut number = 0u64;
        loop {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
            number += 1;
            let line = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let line = match std::str::from_utf8(line) {
                Ok(line) => line,
                Err(e) => {
                    self.error(not_utf8(number, line, &e));
                    continue;
                }
            };
            if self.handle_line(line) == Flow::Quit {
                return;
            }
        }
        // End of input: a bounded search (`echo "go depth 9" | fianchetto`)
        // finishes and prints its move; an unbounded one is stopped.
        if let Some(running) = self.running.take() {
            if running.unbounded {
                running.stop.store(true, Ordering::Relaxed);
                running.ponder_hit.store(true, Ordering::Relaxed);
            }
            let _ = running.handle.join();
        }
    }

    fn error(&self, text: impl std::fmt::Display) {
        self.out.string(&format!("error: {text}"));
    }

    /// Handles one line of input.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let cmd = match line.parse::<Command>() {
            Ok(cmd) => cmd,
            Err(ParseError::Empty) => return Flow::Continue,
            Err(e) => {
                self.error(e);
                return Flow::Continue;
            }
        };
        // Commands that must not wait for a running search.
        match &cmd {
            Command::IsReady => {
                self.out.reply(&Reply::ReadyOk);
                return Flow::Continue;
            }
            Command::Stop => {
                self.stop_search();
                return Flow::Continue;
            }
            Command::PonderHit => {
                self.ponder_hit();
                return Flow::Continue;
            }
            Command::Debug(on) => {
                self.debug = *on;
                return Flow::Continue;
            }
            Command::Quit => {
                self.stop_search();
                return Flow::Quit;
            }
            Command::Display => {
                self.display();
                return Flow::Continue;
            }
            Command::Eval => {
                let choice = self.eval_choice();
                let game = self.current();
                let text = with_backend!(self.options.backend, B => {
                    match Game::<B>::from_setup(&game.board().to_setup()) {
                        Ok(g) => report(g.board(), &choice),
                        Err(e) => e.to_string(),
                    }
                });
                for line in text.lines() {
                    self.out.line(line);
                }
                return Flow::Continue;
            }
            Command::Uci => {
                self.out.reply(&Reply::Id(Id::Name(NAME.into())));
                self.out
                    .reply(&Reply::Id(Id::Author("the Fianchetto developers".into())));
                for o in self.options.declarations() {
                    self.out.reply(&Reply::Option(o.clone()));
                }
                self.out.reply(&Reply::UciOk);
                return Flow::Continue;
            }
            _ => {}
        }
        // Everything else changes state: finish any search first (a GUI
        // should not send these while searching, but if it does, the search
        // ends with its best move and the command then applies).
        self.stop_search();
        match cmd {
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => self.with_driver(|d| d.clear()),
            Command::Position(position) => self.set_position(&position),
            Command::Go(params) => self.go(params),
            _ => {}
        }
        Flow::Continue
    }

    fn with_driver<T>(&self, f: impl FnOnce(&mut Box<dyn Driver>) -> T) -> T {
        let mut d = match self.driver.lock() {
            Ok(d) => d,
            Err(poisoned) => poisoned.into_inner(),
        };
        f(&mut d)
    }

    /// The book's move for `board`, when `OwnBook` is on, a book is loaded
    /// and the position is in it. Analysis (`go infinite`, `go mate`,
    /// `searchmoves`) always searches.
    fn book_move(&mut self, board: &Bitboards, params: &Go) -> Option<BookMove> {
        if !self.options.own_book
            || params.infinite
            || params.mate.is_some()
            || !params.searchmoves.is_empty()
        {
            return None;
        }
        let book = self.book.as_ref()?;
        if self.options.book_best_move {
            return book.best_move(board);
        }
        let random = splitmix(&mut self.book_random);
        book.weighted_move(board, random)
    }

    /// Answers `go` with a book move: `info string book move …`, then
    /// `bestmove` at once, or, for `go ponder`, once `ponderhit` or `stop`
    /// comes.
    fn play_book_move(&mut self, board: &Bitboards, book_move: BookMove, ponder: bool) {
        let notation = Notation::of(board, self.options.chess960);
        let total: u64 = self
            .book
            .as_ref()
            .map(|b| b.moves(board).iter().map(|m| u64::from(m.weight)).sum())
            .unwrap_or_default();
        let mv = notation.write(book_move.mv);
        self.out.string(&format!(
            "book move {mv} weight {} of {total}",
            book_move.weight
        ));
        let line = Reply::BestMove(BestMove { mv, ponder: None }).to_string();
        if !ponder {
            self.out.line(&line);
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let ponder_hit = Arc::new(AtomicBool::new(false));
        let (stop_t, hit_t, out) = (stop.clone(), ponder_hit.clone(), self.out.clone());
        let handle = std::thread::spawn(move || {
            while !stop_t.load(Ordering::Relaxed) && !hit_t.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            out.line(&line);
        });
        self.running = Some(Running {
            handle,
            stop,
            ponder_hit,
            // The move is known: `ponderhit` only has to release it (any
            // limits do, they only time a search that is not running).
            ponder_limits: Some(Limits::default()),
            unbounded: true,
        });
    }

    /// Validates the whole command before changing anything: a bad FEN or an
    /// illegal move keeps the previous position.
    fn set_position(&mut self, position: &Position) {
        let setup = match position.fen.as_deref() {
            None => Setup::start(),
            Some(fen) => match Bitboards::from_fen_with(
                fen,
                CastlingMode::from_chess960(self.options.chess960),
            ) {
                Ok(b) => b.to_setup(),
                Err(e) => {
                    return self.error(format!("invalid FEN `{fen}`: {e}; position unchanged"))
                }
            },
        };
        let mut game = match Game::<Bitboards>::from_setup(&setup) {
            Ok(g) => g,
            Err(e) => return self.error(format!("{e}; position unchanged")),
        };
        let mut played = Vec::with_capacity(position.moves.len());
        for (i, text) in position.moves.iter().enumerate() {
            match text.to_move(game.board()) {
                Ok(mv) => {
                    game.play_unchecked(mv);
                    played.push(mv);
                }
                Err(e) => {
                    return self.error(format!(
                        "move {} of the list: {e}; position unchanged",
                        i + 1
                    ))
                }
            }
        }
        self.start = setup;
        self.moves = played;
    }

    fn current(&self) -> Game<Bitboards> {
        let mut game = Game::<Bitboards>::from_setup(&self.start)
            .unwrap_or_else(|_| Game::new(Bitboards::startpos()));
        for &mv in &self.moves {
            game.play_unchecked(mv);
        }
        game
    }

    fn display(&self) {
        let game = self.current();
        let b = game.board();
        for line in diagram(&b.to_setup()).lines() {
            self.out.line(line);
        }
        self.out.line(&format!("Fen: {}", b.fen()));
        self.out.line(&format!("Key: {:016X}", b.hash()));
        let checkers: Vec<String> = b.checkers().iter().map(|s| s.to_string()).collect();
        self.out.line(&format!("Checkers: {}", checkers.join(" ")));
    }

    fn limits(&self, p: &Go, board: &Bitboards) -> Limits {
        let mut limits = Limits {
            depth: p.depth,
            nodes: p.nodes,
            movetime: p.movetime,
            wtime: p.wtime,
            btime: p.btime,
            winc: p.winc,
            binc: p.binc,
            movestogo: p.movestogo,
            infinite: p.infinite || p.ponder,
            mate: p.mate,
            move_overhead: Duration::from_millis(self.options.move_overhead_ms),
            ..Limits::default()
        };
        for text in &p.searchmoves {
            match text.to_move(board) {
                Ok(mv) => limits.searchmoves.push(mv),
                Err(e) => self.error(format!("searchmoves: {e}; ignored")),
            }
        }
        if self.options.limit_strength {
            let nodes = strength_nodes(self.options.elo);
            limits.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
        }
        limits
    }

    fn go(&mut self, params: Go) {
        let game = self.current();
        if let Some(depth) = params.perft {
            return self.go_perft(&game, depth.max(1));
        }
        if let Some(book_move) = self.book_move(game.board(), &params) {
            return self.play_book_move(game.board(), book_move, params.ponder);
        }
        self.report_table_contradiction(game.board());
        let limits = self.limits(&params, game.board());
        let stop = limits.stop.clone();
        let ponder_hit = Arc::new(AtomicBool::new(false));
        let ponder_limits = params.ponder.then(|| Limits {
            infinite: false,
            ..limits.clone()
        });
        let wait_for_stop = limits.infinite;
        let multipv = self.options.multipv;
        // Rights are only ever lost: the root's name the rook of every
        // castling the search will print.
        let notation = Notation::of(game.board(), self.options.chess960);
        let (driver, out, start, moves) = (
            self.driver.clone(),
            self.out.clone(),
            self.start.clone(),
            self.moves.clone(),
        );
        let (stop_t, hit_t) = (stop.clone(), ponder_hit.clone());
        let handle = std::thread::spawn(move || {
            let mut d = match driver.lock() {
                Ok(d) => d,
                Err(poisoned) => poisoned.into_inner(),
            };
            let result = search_multipv(&mut **d, &start, &moves, &limits, multipv, &out, notation);
            // In infinite and ponder mode the move may only be sent after
            // `stop` (or `ponderhit` then the time running out).
            while wait_for_stop && !stop_t.load(Ordering::Relaxed) && !hit_t.load(Ordering::Relaxed)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            out.reply(&Reply::BestMove(legal_bestmove(
                &game, &result, notation, &out,
            )));
        });
        self.running = Some(Running {
            handle,
            stop,
            ponder_hit,
            ponder_limits,
            unbounded: wait_for_stop,
        });
    }

    /// Names in an `info string error` a root in the tables whose values
    /// contradict each other (a corrupt file that still decodes): the
    /// search then leaves the tables out rather than trust them.
    fn report_table_contradiction(&self, board: &Bitboards) {
        let Some(tables) = &self.syzygy else { return };
        if board.occupied().count() > tables.max_pieces() || !board.castling().is_empty() {
            return;
        }
        if let Err(e @ SyzygyError::Contradiction { .. }) = tables.root_moves_wdl(board, true) {
            self.error(format!("{e}; this search does not use the tables"));
        }
    }

    /// `go perft N` on the search thread, so that `stop` and `isready` are
    /// answered while it counts: a divide, then `Nodes searched: N`. `stop`
    /// ends it at once, with the total of the moves listed so far and a note.
    fn go_perft(&mut self, game: &Game<Bitboards>, depth: u32) {
        let stop = Arc::new(AtomicBool::new(false));
        let notation = Notation::of(game.board(), self.options.chess960);
        let (board, out, flag) = (game.board().clone(), self.out.clone(), stop.clone());
        let handle = std::thread::spawn(move || {
            let mut total = 0;
            for mv in board.legal_moves() {
                let mut child = board.clone();
                child.play_unchecked(mv);
                let Some(count) = perft_until(&child, depth - 1, &flag) else {
                    out.string("perft stopped; the total counts the moves listed");
                    break;
                };
                out.line(&format!("{}: {count}", notation.write(mv)));
                total += count;
            }
            out.line("");
            out.line(&format!("Nodes searched: {total}"));
        });
        self.running = Some(Running {
            handle,
            stop,
            ponder_hit: Arc::new(AtomicBool::new(false)),
            ponder_limits: None,
            unbounded: false,
        });
    }

    /// `ponderhit`: the pondered move was played; the search now runs on our
    /// clock, so a timer stops it when the time it may use is spent.
    fn ponder_hit(&mut self) {
        let side = self.current().board().turn();
        let Some(running) = &mut self.running else {
            return;
        };
        let Some(limits) = running.ponder_limits.take() else {
            return;
        };
        let budget = TimeManager::new(&limits, side).soft();
        let stop = running.stop.clone();
        match budget {
            Some(t) => {
                std::thread::spawn(move || {
                    std::thread::sleep(t);
                    stop.store(true, Ordering::Relaxed);
                });
            }
            None => stop.store(true, Ordering::Relaxed),
        }
        running.ponder_hit.store(true, Ordering::Relaxed);
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            running.ponder_hit.store(true, Ordering::Relaxed);
            let _ = running.handle.join();
        }
    }
}

/// How moves are written to the GUI: castling as the king's move, or with
/// `UCI_Chess960` as king takes rook, the rook found in the root's rights.
#[derive(Clone, Copy, Debug)]
struct Notation {
    rights: CastlingRights,
    chess960: bool,
}

impl Notation {
    fn of(root: &impl Board, chess960: bool) -> Notation {
        Notation {
            rights: root.castling(),
            chess960,
        }
    }

    fn write(self, mv: Move) -> UciMove {
        UciMove::from_move(mv, self.rights, CastlingMode::from_chess960(self.chess960))
    }

    /// The `info` reply of a search report, its PV in this notation, and
    /// `multipv k` when several lines are searched.
    fn info(self, info: &Info, multipv: Option<u32>) -> Reply {
        let score = match info.score.mate_moves() {
            Some(moves) => fianchetto_uci::Score::Mate(moves),
            None => fianchetto_uci::Score::Cp(info.score.value()),
        };
        let bound = match info.bound {
            Bound::Exact => fianchetto_uci::Bound::Exact,
            Bound::Lower => fianchetto_uci::Bound::Lower,
            Bound::Upper => fianchetto_uci::Bound::Upper,
        };
        Reply::Info(Box::new(fianchetto_uci::Info {
            depth: Some(info.depth),
            seldepth: Some(info.seldepth),
            multipv,
            score: Some(BoundedScore { score, bound }),
            nodes: Some(info.nodes),
            nps: Some(info.nps),
            hashfull: Some(info.hashfull),
            // Only when there were some: searches without tables print none.
            tbhits: (info.tbhits > 0).then_some(info.tbhits),
            time: Some(info.time),
            pv: info.pv.iter().map(|&mv| self.write(mv)).collect(),
            ..fianchetto_uci::Info::default()
        }))
    }
}

/// Runs `multipv` searches, each excluding the best moves of the previous
/// ones ([`search_lines`]), and prints their lines with `multipv k`;
/// returns the first.
fn search_multipv(
    driver: &mut dyn Driver,
    start: &Setup,
    moves: &[Move],
    limits: &Limits,
    multipv: usize,
    out: &Output,
    notation: Notation,
) -> SearchResult {
    if multipv <= 1 {
        return driver.go(start, moves, limits, &mut |info| {
            out.reply(&notation.info(info, None))
        });
    }
    driver
        .go_lines(start, moves, limits, multipv, &mut |k, info| {
            out.reply(&notation.info(info, Some(k as u32)))
        })
        .into_iter()
        .next()
        .unwrap_or_default()
}

/// The `bestmove` line, made safe: a move that is not legal here, or no
/// move where there are legal moves, is a search bug; it is reported (an
/// `info string error: …` on `out` and the same on standard error, so that
/// tests and logs see it) and replaced by the first legal move, so that the
/// game goes on. A position without moves answers `0000`.
fn legal_bestmove(
    game: &Game<Bitboards>,
    result: &SearchResult,
    notation: Notation,
    out: &Output,
) -> BestMove {
    let board = game.board();
    let legal = board.legal_moves();
    let best = match result.best_move {
        Some(m) if board.is_legal(m) => Some(m),
        _ if legal.is_empty() => None,
        other => {
            let said = other.map_or("no move".to_string(), |m| format!("`{m}`"));
            let text = format!(
                "info string error: search bug: it answered {said}, not a legal move in {}; \
                 playing the first legal move instead",
                board.fen()
            );
            eprintln!("{text}");
            out.line(&text);
            legal.first().copied()
        }
    };
    let Some(best) = best else {
        return BestMove {
            mv: UciMove::Null,
            ponder: None,
        };
    };
    let ponder = result.ponder.filter(|&p| {
        let mut after = board.clone();
        after.play_unchecked(best);
        Some(best) == result.best_move && after.is_legal(p)
    });
    BestMove {
        mv: notation.write(best),
        ponder: ponder.map(|p| notation.write(p)),
    }
}

/// The error for input line `number`, `line`, which is not UTF-8: the line
/// number, the first bad byte and its column (counted from 1).
fn not_utf8(number: u64, line: &[u8], e: &std::str::Utf8Error) -> String {
    let at = e.valid_up_to();
    let byte = line.get(at).copied().unwrap_or_default();
    format!(
        "input line {number} is not UTF-8 (byte 0x{byte:02x} at column {}); ignored",
        at + 1
    )
}

/// One step of SplitMix64: the next number of a small seeded generator,
/// enough to choose among book moves.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub use fianchetto_search::strength::strength_nodes;

/// Runs a UCI session on standard input and output.
pub fn run_stdio() {
    let mut session = Session::new(Output::new(Box::new(std::io::stdout())));
    session.run(std::io::stdin().lock());
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_movegen::parse_uci;

    /// A writer that keeps what it is given.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::ErrorKind::Other)?
                .write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_of_arbitrary_bytes_never_end_the_session() {
        // 300 lines of random bytes (half of them not UTF-8), each followed
        // by `isready`: every `isready` is answered, each bad line named.
        let mut state = 0x5eed_u64;
        let mut input = Vec::new();
        let mut bad = 0;
        for _ in 0..300 {
            let len = (splitmix(&mut state) % 40) as usize;
            let mut line: Vec<u8> = (0..len)
                .map(|_| splitmix(&mut state) as u8)
                .filter(|&b| b != b'\n')
                .collect();
            if splitmix(&mut state) % 2 == 0 {
                line.push(0xff);
            }
            bad += usize::from(std::str::from_utf8(&line).is_err());
            input.extend_from_slice(&line);
            input.extend_from_slice(b"\nisready\n");
        }
        let sink = Sink::default();
        let mut session = Session::new(Output::new(Box::new(sink.clone())));
        session.run(std::io::Cursor::new(input));
        let text = String::from_utf8_lossy(&sink.0.lock().unwrap()).into_owned();
        assert_eq!(text.lines().filter(|l| *l == "readyok").count(), 300);
        let named = text.lines().filter(|l| l.contains("is not UTF-8")).count();
        assert_eq!(named, bad, "{text}");
    }

    #[test]
    fn the_safety_net_reports_what_it_replaces() {
        let sink = Sink::default();
        let out = Output::new(Box::new(sink.clone()));
        let game = Game::new(Bitboards::startpos());
        let notation = Notation::of(game.board(), false);
        // e2e5 is no move at all: replaced, and said loudly.
        let bad = SearchResult {
            best_move: parse_uci(game.board(), "e2e4")
                .ok()
                .map(|m| Move::new(m.from(), fianchetto_board::Square::E5, m.kind())),
            ..SearchResult::default()
        };
        let best = legal_bestmove(&game, &bad, notation, &out);
        assert!(game
            .board()
            .is_legal(best.mv.to_move(game.board()).unwrap()));
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        assert!(text.starts_with("info string error: search bug"), "{text}");
        // A legal move passes silently.
        sink.0.lock().unwrap().clear();
        let good = SearchResult {
            best_move: parse_uci(game.board(), "e2e4").ok(),
            ..SearchResult::default()
        };
        assert_eq!(
            legal_bestmove(&game, &good, notation, &out).to_string(),
            "bestmove e2e4"
        );
        assert!(sink.0.lock().unwrap().is_empty());
    }
}
