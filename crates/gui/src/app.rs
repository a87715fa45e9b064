//! The app without its transport: the tabs' sessions, and what each
//! request does to them. The HTTP server (`server`) only turns requests
//! into calls of [`App::handle`] and replies back, so that everything here
//! is tested without a socket or a browser.

use super::jobs::{self, Handoff, Shared};
use super::params::Params;
use super::session::{lock, Session};
use super::settings::{json_text, options_json};
use super::GuiError;
use fianchetto_board::{Bitboards, Board};
use fianchetto_eval::nnue::Network;
use fianchetto_movegen::pgn::{parse_game, GameResult, PgnGame};
use fianchetto_movegen::{parse_uci, Game};
use fianchetto_search::time::Instant;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::AtomicUsize;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// The page and its parts, embedded in the binary.
const INDEX_HTML: &str = include_str!("../web/index.html");
const APP_JS: &str = include_str!("../web/app.js");
const STYLE_CSS: &str = include_str!("../web/style.css");

/// The longest FEN accepted (a legal one has under 100 characters).
pub const MAX_FEN: usize = 256;
/// The longest PGN accepted.
pub const MAX_PGN: usize = 64 * 1024;
/// The longest move accepted (`e7e8q`; SAN is not taken here).
const MAX_MOVE: usize = 8;
/// Snapshots queued for a live connection that reads slowly.
const QUEUE: usize = 32;
/// Live connections one tab may hold (a page that reconnects replaces its
/// oldest).
const LISTENERS_PER_TAB: usize = 4;

/// The app's limits.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The most tabs with a session at once.
    pub max_sessions: usize,
    /// A session not heard from for this long is closed.
    pub expiry: Duration,
    /// The most searches running at once, all tabs together.
    pub max_jobs: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_sessions: 64,
            expiry: Duration::from_secs(15 * 60),
            max_jobs: std::thread::available_parallelism().map_or(2, |n| n.get().max(2)),
        }
    }
}

/// A reply to a request.
pub enum Reply {
    /// A whole body.
    Body {
        /// The HTTP status.
        status: u16,
        /// Its `Content-Type`.
        content_type: &'static str,
        /// The body.
        body: String,
        /// A file name to save it under (`Content-Disposition`).
        download: Option<String>,
    },
    /// A stream of JSON snapshots of a session, each sent as a
    /// Server-Sent Event, for as long as the session and the connection
    /// live.
    Events(Subscription),
}

impl Reply {
    fn json(body: String) -> Reply {
        Reply::Body {
            status: 200,
            content_type: "application/json; charset=utf-8",
            body,
            download: None,
        }
    }

    fn asset(content_type: &'static str, body: &str) -> Reply {
        Reply::Body {
            status: 200,
            content_type,
            body: body.to_string(),
            download: None,
        }
    }

    /// The reply for an error: its status, and `{"error": "…"}`.
    pub fn error(e: &GuiError) -> Reply {
        Reply::Body {
            status: e.status(),
            content_type: "application/json; charset=utf-8",
            body: json_text(&serde_json::json!({ "error": e.to_string() })),
            download: None,
        }
    }

    /// The status (200 for a stream).
    pub fn status(&self) -> u16 {
        match self {
            Reply::Body { status, .. } => *status,
            Reply::Events(_) => 200,
        }
    }

    /// The body (empty for a stream).
    pub fn body(&self) -> &str {
        match self {
            Reply::Body { body, .. } => body,
            Reply::Events(_) => "",
        }
    }
}

/// A live connection's end of a session: snapshots arrive on `events`;
/// `touch` tells the session the tab is still open.
pub struct Subscription {
    /// The snapshots, the current one first.
    pub events: Receiver<String>,
    session: Weak<Mutex<Session>>,
}

impl Subscription {
    /// Marks the session as seen now; false once it is closed.
    pub fn touch(&self) -> bool {
        match self.session.upgrade() {
            Some(s) => {
                lock(&s).last_seen = Instant::now();
                true
            }
            None => false,
        }
    }
}

/// The request methods the app answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Reads.
    Get,
    /// Changes.
    Post,
}

/// The app: every tab's session and what they share.
pub struct App {
    sessions: Mutex<HashMap<String, Arc<Mutex<Session>>>>,
    shared: Arc<Shared>,
    limits: Limits,
    ids: RandomState,
    counter: AtomicUsize,
}

impl App {
    /// An app evaluating NNUE with `net`, under `limits`, each job on a
    /// thread of its own.
    pub fn new(net: Arc<Network>, limits: Limits) -> App {
        App::with_jobs(net, limits, None)
    }

    /// An app that hands its jobs to its host instead of starting threads
    /// (where there are none: the app in WebAssembly). The host takes them
    /// with [`App::take_handoffs`] after each request, runs them and sends
    /// their reports back through each [`Handoff`].
    pub fn handing_off(net: Arc<Network>, limits: Limits) -> App {
        App::with_jobs(net, limits, Some(Mutex::new(Vec::new())))
    }

    fn with_jobs(net: Arc<Network>, limits: Limits, handoffs: Option<Mutex<Vec<Handoff>>>) -> App {
        App {
            sessions: Mutex::new(HashMap::new()),
            shared: Arc::new(Shared {
                net,
                running: AtomicUsize::new(0),
                max_jobs: limits.max_jobs,
                handoffs,
            }),
            limits,
            ids: RandomState::new(),
            counter: AtomicUsize::new(0),
        }
    }

    /// The jobs started since the last call, oldest first, for the host to
    /// run (always none for an app made by [`App::new`]). A job that a
    /// later one replaced already answers false to
    /// [`Handoff::is_current`].
    pub fn take_handoffs(&self) -> Vec<Handoff> {
        match &self.shared.handoffs {
            Some(queue) => std::mem::take(&mut *queue.lock().unwrap_or_else(|e| e.into_inner())),
            None => Vec::new(),
        }
    }

    /// Searches running now, all tabs together.
    pub fn running_jobs(&self) -> usize {
        self.shared
            .running
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Open sessions.
    pub fn session_count(&self) -> usize {
        self.sessions().len()
    }

    /// Runs `f` on the session `id`, if it is open.
    pub fn inspect<R>(&self, id: &str, f: impl FnOnce(&Session) -> R) -> Option<R> {
        let session = self.sessions().get(id).cloned()?;
        let s = lock(&session);
        Some(f(&s))
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Mutex<Session>>>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A fresh id no one can guess: 128 bits from the process's random
    /// hash keys and a counter.
    fn new_id(&self) -> String {
        let n = self
            .counter
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut words = [0u64; 2];
        for (i, w) in words.iter_mut().enumerate() {
            let mut h = self.ids.build_hasher();
            h.write_usize(n);
            h.write_usize(i);
            *w = h.finish();
        }
        format!("{:016x}{:016x}", words[0], words[1])
    }

    /// Closes the sessions not heard from since `expiry` before `now`,
    /// stopping their jobs; returns how many were closed. (Their live
    /// connections end when their senders go.)
    pub fn expire(&self, now: Instant) -> usize {
        let mut sessions = self.sessions();
        let before = sessions.len();
        sessions.retain(|_, s| {
            let mut s = lock(s);
            let alive = now.saturating_duration_since(s.last_seen) < self.limits.expiry;
            if !alive {
                s.close();
            }
            alive
        });
        before - sessions.len()
    }

    fn session(&self, params: &Params) -> Result<Arc<Mutex<Session>>, GuiError> {
        let id = params.require("session")?;
        let session = self
            .sessions()
            .get(id)
            .cloned()
            .ok_or(GuiError::UnknownSession)?;
        lock(&session).last_seen = Instant::now();
        Ok(session)
    }

    fn create_session(&self) -> Result<String, GuiError> {
        self.expire(Instant::now());
        let mut sessions = self.sessions();
        if sessions.len() >= self.limits.max_sessions {
            // Room is made by closing the least recently seen session that
            // runs no search (a tab gone quiet), so that no client can lock
            // new tabs out by opening sessions; a tab whose session is
            // closed is told to reload.
            let idle = sessions
                .iter()
                .filter_map(|(id, s)| {
                    let s = lock(s);
                    s.job.is_none().then(|| (s.last_seen, id.clone()))
                })
                .min();
            match idle.and_then(|(_, id)| sessions.remove(&id)) {
                Some(evicted) => {
                    lock(&evicted).close();
                }
                None => {
                    return Err(GuiError::Busy(format!(
                        "{} tabs are open already, each running a search; stop one and reload",
                        sessions.len()
                    )))
                }
            }
        }
        let id = self.new_id();
        let session =
            Arc::new_cyclic(|me| Mutex::new(Session::new(id.clone(), me.clone(), Instant::now())));
        let state = lock(&session).to_json();
        sessions.insert(id, session);
        Ok(state)
    }

    /// Answers a request: `path` with its parameters (query string and
    /// form body together). Errors become replies with their status.
    pub fn handle(&self, method: Method, path: &str, params: &Params) -> Reply {
        match self.route(method, path, params) {
            Ok(reply) => reply,
            Err(e) => Reply::error(&e),
        }
    }

    fn route(&self, method: Method, path: &str, params: &Params) -> Result<Reply, GuiError> {
        use Method::{Get, Post};
        match (method, path) {
            (Get, "/" | "/index.html") => Ok(Reply::asset("text/html; charset=utf-8", INDEX_HTML)),
            (Get, "/app.js") => Ok(Reply::asset("text/javascript; charset=utf-8", APP_JS)),
            (Get, "/style.css") => Ok(Reply::asset("text/css; charset=utf-8", STYLE_CSS)),
            (Get, "/api/options") => Ok(Reply::json(options_json())),
            (Post, "/api/session") => Ok(Reply::json(self.create_session()?)),
            (Get, "/api/state") => {
                let s = self.session(params)?;
                let state = lock(&s).to_json();
                Ok(Reply::json(state))
            }
            (Get, "/api/events") => self.subscribe(params),
            (Get, "/api/pgn") => self.pgn(params),
            (Post, "/api/new") => self.change(params, new_game),
            (Post, "/api/move") => self.change(params, play_move),
            (Post, "/api/undo") => self.change(params, undo),
            (Post, "/api/settings") => self.change(params, settings),
            (Post, "/api/go") => self.change(params, go),
            (Post, "/api/analyse") => self.change(params, analyse),
            (Post, "/api/stop") => self.change(params, stop),
            (Post, "/api/learn") => self.change(params, learn),
            (Post, "/api/flip") => self.change(params, flip),
            (_, p) if p.starts_with("/api/") || p == "/" => Err(GuiError::Method),
            _ => Err(GuiError::NotFound(path.to_string())),
        }
    }

    /// Runs `f` on the session the request names, then replies with the
    /// new state (also sent to the tab's live connections).
    fn change(
        &self,
        params: &Params,
        f: fn(&mut Session, &Params, &Arc<Shared>) -> Result<(), GuiError>,
    ) -> Result<Reply, GuiError> {
        let session = self.session(params)?;
        let mut s = lock(&session);
        s.notice = None;
        f(&mut s, params, &self.shared)?;
        s.publish();
        Ok(Reply::json(s.to_json()))
    }

    fn subscribe(&self, params: &Params) -> Result<Reply, GuiError> {
        let session = self.session(params)?;
        let mut s = lock(&session);
        let (tx, rx) = sync_channel(QUEUE);
        // The queue is empty: the current state always fits.
        let _ = tx.try_send(s.to_json());
        if s.listeners.len() >= LISTENERS_PER_TAB {
            s.listeners.remove(0);
        }
        s.listeners.push(tx);
        Ok(Reply::Events(Subscription {
            events: rx,
            session: Arc::downgrade(&session),
        }))
    }

    fn pgn(&self, params: &Params) -> Result<Reply, GuiError> {
        let session = self.session(params)?;
        let s = lock(&session);
        let mut pgn = PgnGame::new(s.game.clone());
        for (name, value) in s.tags.iter() {
            pgn.tags.set(name, value);
        }
        if s.tags.is_empty() {
            let engine = format!(
                "Fianchetto ({}, {})",
                s.settings.algo.name(),
                s.settings.eval.name()
            );
            let side = s.settings.engine;
            let name = |c| {
                if side.plays(c) {
                    engine.as_str()
                } else {
                    "Human"
                }
            };
            pgn.tags.set("Event", "Fianchetto GUI game");
            pgn.tags.set("White", name(fianchetto_board::Color::White));
            pgn.tags.set("Black", name(fianchetto_board::Color::Black));
        }
        let result = s
            .outcome()
            .map_or(GameResult::Unknown, GameResult::from_outcome);
        pgn.result = Some(result);
        pgn.tags.set("Result", result.to_string());
        let text = pgn
            .to_pgn()
            .map_err(|e| GuiError::BadInput(format!("the game cannot be written as PGN: {e}")))?;
        Ok(Reply::Body {
            status: 200,
            content_type: "application/x-chess-pgn; charset=utf-8",
            body: text,
            download: Some("fianchetto.pgn".to_string()),
        })
    }
}

/// `new`: the start position, a FEN, or the main line of a PGN game.
fn new_game(s: &mut Session, params: &Params, shared: &Arc<Shared>) -> Result<(), GuiError> {
    let (game, tags) = match (params.get("fen"), params.get("pgn")) {
        (Some(_), Some(_)) => {
            return Err(GuiError::BadInput("give a FEN or a PGN, not both".into()))
        }
        (Some(fen), None) => {
            let fen = fen.trim();
            if fen.len() > MAX_FEN {
                return Err(GuiError::TooLarge {
                    what: "the FEN",
                    len: fen.len(),
                    limit: MAX_FEN,
                });
            }
            let board = Bitboards::from_fen(fen)
                .map_err(|e| GuiError::BadInput(format!("invalid FEN: {e}")))?;
            (Game::new(board), Default::default())
        }
        (None, Some(pgn)) => {
            if pgn.len() > MAX_PGN {
                return Err(GuiError::TooLarge {
                    what: "the PGN",
                    len: pgn.len(),
                    limit: MAX_PGN,
                });
            }
            let read: PgnGame<Bitboards> =
                parse_game(pgn).map_err(|e| GuiError::BadInput(format!("invalid PGN: {e}")))?;
            let mut tags = read.tags;
            tags.remove("Result");
            (read.game, tags)
        }
        (None, None) => (Game::new(Bitboards::startpos()), Default::default()),
    };
    s.game = game;
    s.tags = tags;
    s.analysis = None;
    jobs::refresh(s, shared, true);
    Ok(())
}

/// `move`: the user's move in UCI notation, if it is the user's turn.
fn play_move(s: &mut Session, params: &Params, shared: &Arc<Shared>) -> Result<(), GuiError> {
    let text = params.require("move")?.trim();
    if text.len() > MAX_MOVE {
        return Err(GuiError::BadInput(format!("`{text}` is not a move")));
    }
    if let Some(outcome) = s.outcome() {
        return Err(GuiError::Conflict(format!(
            "the game is over ({outcome}); take back a move or start a new game"
        )));
    }
    if s.engine_to_move() {
        return Err(GuiError::Conflict(
            "it is the engine's turn; wait for its move, or press Stop to make it move now".into(),
        ));
    }
    let mv = parse_uci(s.game.board(), text)
        .map_err(|e| GuiError::BadInput(format!("move {text}: {e}")))?;
    s.game.play_unchecked(mv);
    jobs::refresh(s, shared, true);
    Ok(())
}

/// `undo`: takes back to the user's previous turn (one ply when the
/// engine plays neither side or both).
fn undo(s: &mut Session, _: &Params, shared: &Arc<Shared>) -> Result<(), GuiError> {
    if s.game.moves().is_empty() {
        return Err(GuiError::Conflict("there is no move to take back".into()));
    }
    s.stop_job();
    let side = s.settings.engine;
    s.game.undo();
    while side.plays(s.game.board().turn())
        && !side.plays(!s.game.board().turn())
        && s.game.undo().is_some()
    {}
    jobs::refresh(s, shared, true);
    Ok(())
}

/// `settings`: the engine's side, algorithm, evaluation, limit, lines.
fn settings(s: &mut Session, params: &Params, shared: &Arc<Shared>) -> Result<(), GuiError> {
    let next = s.settings.updated(params)?;
    if next != s.settings {
        s.settings = next;
        jobs::refresh(s, shared, false);
    }
    Ok(())
}

/// `go`: the engine plays the side to move now.
fn go(s: &mut Session, _: &Params, shared: &Arc<Shared>) -> Result<(), GuiError> {
    if let Some(outcome) = s.outcome() {
        return Err(GuiError::Conflict(format!("the game is over ({outcome})")));
    }
    jobs::engine_move(s, shared)
}

/// `analyse`: analysis on (it follows the moves until stopped).
fn analyse(s: &mut Session, _: &Params, shared: &Arc<Shared>) -> Result<(), GuiError> {
    if let Some(outcome) = s.outcome() {
        return Err(GuiError::Conflict(format!(
            "the game is over ({outcome}): there is nothing to analyse"
        )));
    }
    s.analysing = true;
    if s.engine_to_move() {
        // The engine's thinking is shown; the analysis resumes after it.
        return Ok(());
    }
    jobs::analyse(s, shared)
}

/// `stop`: stops the running job (an engine thinking plays the best move
/// found so far) and the analysis.
fn stop(s: &mut Session, _: &Params, _: &Arc<Shared>) -> Result<(), GuiError> {
    s.analysing = false;
    match &s.job {
        Some(job) if job.kind == super::session::JobKind::EngineMove => {
            // Move now: the job ends and plays what it has.
            job.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        _ => s.stop_job(),
    }
    Ok(())
}

/// `flip`: the board drawn from the other side.
fn flip(s: &mut Session, _: &Params, _: &Arc<Shared>) -> Result<(), GuiError> {
    s.flipped = !s.flipped;
    Ok(())
}

/// `learn`: the Learn experiment on the position.
fn learn(s: &mut Session, params: &Params, shared: &Arc<Shared>) -> Result<(), GuiError> {
    let next = s.settings.updated(params)?;
    s.settings = next;
    s.analysing = false;
    jobs::learn(s, shared)
}
