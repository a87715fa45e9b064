//! The work a tab asks for, each away from the requests so that they are
//! answered at once: the engine's move, the analysis, and the Learn
//! experiment. A job is a [`JobOrder`] that [`run`] carries out, sending
//! [`Report`]s; it runs on a thread of its own, or, where there are no
//! threads (the app in WebAssembly), is handed to the host as a
//! [`Handoff`] and run in another Web Worker. A job reports into its
//! session only while it is still the session's job; a newer one (or a
//! closed tab) makes it stop and its results are dropped.

use super::session::{lock, Analysis, Job, JobKind, Learn, LearnRow, Session};
use super::settings::Settings;
use super::GuiError;
use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_eval::nnue::Network;
use fianchetto_eval::select::EvalChoice;
use fianchetto_eval::with_evaluator;
use fianchetto_eval::Evaluator;
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::ablation::{configurations, measure, rookie_searches, Contender};
use fianchetto_search::pvs::{Pvs, PvsConfig};
use fianchetto_search::scout::Scout;
use fianchetto_search::select::{build_search, engine_mcts, SearchConfig};
use fianchetto_search::time::Instant;
use fianchetto_search::{Info, Limits, Search};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// The transposition table of every PVS search the app runs, in MB.
const HASH_MB: usize = 16;
/// The longest an analysis runs unless stopped.
const ANALYSIS_CAP: Duration = Duration::from_secs(600);
/// A Learn bar gives up after this many nodes (minimax grows fast).
const LEARN_MAX_NODES: u64 = 3_000_000;

/// What all sessions share: the network, and the count of running jobs
/// (the app runs at most `max_jobs` searches at once, whatever the number
/// of tabs).
pub struct Shared {
    /// The NNUE network.
    pub net: Arc<Network>,
    /// Jobs running now.
    pub running: AtomicUsize,
    /// The most jobs that may run at once.
    pub max_jobs: usize,
    /// Where jobs wait for the host to run them, when the app hands them
    /// over; `None`: each job runs on a thread of its own.
    pub handoffs: Option<Mutex<Vec<Handoff>>>,
}

/// Counts a running job while it lives.
struct Running(Arc<Shared>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A job's handle on its session.
struct JobCtx {
    session: Weak<Mutex<Session>>,
    id: u64,
    stop: Arc<AtomicBool>,
    shared: Arc<Shared>,
    running: Option<Running>,
}

impl JobCtx {
    /// Runs `f` on the session if this is still its job; false otherwise
    /// (and the job should end).
    fn update(&self, f: impl FnOnce(&mut Session)) -> bool {
        let Some(session) = self.session.upgrade() else {
            return false;
        };
        let mut s = lock(&session);
        if s.job.as_ref().map(|j| j.id) != Some(self.id) {
            return false;
        }
        f(&mut s);
        true
    }

    /// Ends the job: no longer counted as running, then (if it is still
    /// the session's job) the session forgets it and plays `moved`.
    fn finish(mut self, moved: Option<Moved>) {
        self.running = None;
        let shared = self.shared.clone();
        self.update(|s| {
            s.job = None;
            if let Some(moved) = moved {
                play_engine_move(s, &shared, moved);
            }
            s.publish();
        });
    }
}

/// What a job is asked to do: its kind, the game (its history decides
/// repetitions) and the settings it runs with. It holds everything the job
/// needs, so that it can run apart from the session: on a thread, or in
/// another Web Worker (it travels as JSON: [`crate::wire`]).
#[derive(Clone, Debug)]
pub struct JobOrder {
    /// What the job does.
    pub kind: JobKind,
    /// The game, the position to search last.
    pub game: Game<Bitboards>,
    /// The settings.
    pub settings: Settings,
}

/// What a running job reports to its session.
#[derive(Clone, Debug)]
pub enum Report {
    /// Line `k` of the analysis (line 0 when the engine thinks about its
    /// move): an iteration's report.
    Line(usize, Info),
    /// One line's search of an analysis with several lines ended after
    /// this many nodes.
    LineDone(u64),
    /// A bar of the Learn view's algorithms.
    Algorithm(LearnRow),
    /// A bar of the Learn view's PVS ablation.
    Ablation(LearnRow),
}

/// The engine's move, what an engine-move job ends with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The move (none when the position has no legal move).
    pub mv: Option<Move>,
    /// What to tell the page (a search that answered no legal move).
    pub notice: Option<String>,
}

/// A searcher for `settings` with the evaluation it names.
fn searcher(settings: &Settings, net: &Arc<Network>) -> Box<dyn Search<Bitboards> + Send> {
    let config = SearchConfig {
        algo: settings.algo,
        pvs: PvsConfig {
            threads: 1,
            hash_mb: HASH_MB,
            ..PvsConfig::default()
        },
        mcts: engine_mcts(1),
        ..SearchConfig::default()
    };
    let choice = EvalChoice::new(settings.eval, net);
    with_evaluator!(&choice, e => build_search::<Bitboards, _>(&config, e))
}

/// Starts `order` as the session's job, stopping the one before: on a
/// thread of its own, or queued for the host when the app hands its jobs
/// over ([`Shared::handoffs`]).
fn start(s: &mut Session, order: JobOrder, shared: &Arc<Shared>) -> Result<(), GuiError> {
    let had_job = s.job.is_some();
    s.stop_job();
    // The job just stopped ends within moments: it does not count.
    let others = shared
        .running
        .load(Ordering::SeqCst)
        .saturating_sub(usize::from(had_job));
    if others >= shared.max_jobs {
        return Err(GuiError::Busy(format!(
            "{others} searches are running for other tabs; try again when one ends"
        )));
    }
    shared.running.fetch_add(1, Ordering::SeqCst);
    let running = Running(shared.clone());
    let stop = Arc::new(AtomicBool::new(false));
    let id = s.next_job;
    s.next_job += 1;
    let ctx = JobCtx {
        session: s.me.clone(),
        id,
        stop: stop.clone(),
        shared: shared.clone(),
        running: Some(running),
    };
    let kind = order.kind;
    match &shared.handoffs {
        Some(queue) => queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Handoff { order, ctx }),
        None => {
            std::thread::Builder::new()
                .name(format!("gui-{kind:?}"))
                .spawn(move || {
                    let net = ctx.shared.net.clone();
                    let moved = run(&order, &net, &ctx.stop, &mut |report| {
                        ctx.update(|s| take_report(s, report))
                    });
                    ctx.finish(moved);
                })
                .map_err(|e| GuiError::Busy(format!("cannot start a search thread: {e}")))?;
        }
    }
    s.job = Some(Job { id, kind, stop });
    Ok(())
}

/// A job the app hands to its host instead of starting a thread (the app
/// in WebAssembly, where another Web Worker runs [`run`] on the order and
/// sends the reports back). It counts as running while it lives.
pub struct Handoff {
    order: JobOrder,
    ctx: JobCtx,
}

impl Handoff {
    /// What to run.
    pub fn order(&self) -> &JobOrder {
        &self.order
    }

    /// Whether the session still wants this job (a newer job, a stop or a
    /// closed tab ends it: its runner should be stopped and the handoff
    /// dropped).
    pub fn is_current(&self) -> bool {
        self.ctx.update(|_| {}) && !self.ctx.stop.load(Ordering::Relaxed)
    }

    /// Whether the engine was told to move now: the job is still the
    /// session's, but its stop flag is raised (see [`Handoff::move_now`]).
    pub fn move_now_asked(&self) -> bool {
        self.order.kind == JobKind::EngineMove
            && self.ctx.stop.load(Ordering::Relaxed)
            && self.ctx.update(|_| {})
    }

    /// Takes a report of the job; false when the job is no longer wanted.
    pub fn report(&self, report: Report) -> bool {
        self.ctx.update(|s| take_report(s, report))
    }

    /// The job ended, with the engine's move for an engine-move job.
    pub fn finish(self, moved: Option<Moved>) {
        self.ctx.finish(moved);
    }

    /// Ends an engine-move job whose runner was stopped: the engine plays
    /// the first move of the line it reported last, as a thread stopped by
    /// the same request would.
    pub fn move_now(self) {
        let moved = self.ctx.session.upgrade().map(|s| best_reported(&lock(&s)));
        self.ctx.finish(moved);
    }
}

/// The first move of the engine's last reported line, when legal; else the
/// first legal move (the search reported nothing yet).
fn best_reported(s: &Session) -> Moved {
    let board = s.game.board();
    let reported = s
        .analysis
        .as_ref()
        .and_then(|a| a.lines.first()?.as_ref()?.pv.first().copied())
        .filter(|&m| board.is_legal(m));
    Moved {
        mv: reported.or_else(|| board.legal_moves().first().copied()),
        notice: None,
    }
}

/// Takes a job's report into the session and sends the new state.
fn take_report(s: &mut Session, report: Report) {
    match report {
        Report::Line(k, info) => {
            if let Some(a) = &mut s.analysis {
                a.report(k, &info);
            }
        }
        Report::LineDone(nodes) => {
            if let Some(a) = &mut s.analysis {
                a.finished(nodes);
            }
            return;
        }
        Report::Algorithm(row) => {
            if let Some(l) = &mut s.learn {
                l.algorithms.push(row);
            }
        }
        Report::Ablation(row) => {
            if let Some(l) = &mut s.learn {
                l.ablation.push(row);
            }
        }
    }
    s.publish();
}

/// Plays the engine's move (checked legal here: it may come from another
/// worker) and goes on: the next engine move, or the analysis.
fn play_engine_move(s: &mut Session, shared: &Arc<Shared>, moved: Moved) {
    if moved.notice.is_some() {
        s.notice = moved.notice;
    }
    if let Some(mv) = moved.mv.filter(|&m| s.game.board().is_legal(m)) {
        s.game.play_unchecked(mv);
        refresh(s, shared, true);
    }
}

/// After the position or the settings changed: the engine moves if it is
/// its turn, else the analysis follows the position if it is on; a job
/// that no longer fits is stopped (a Learn run only when the position
/// changed). A job that cannot start is told on the page.
pub fn refresh(s: &mut Session, shared: &Arc<Shared>, position_changed: bool) {
    if position_changed || s.job_kind() != Some(JobKind::Learn) {
        s.stop_job();
    }
    let started = if s.engine_to_move() {
        engine_move(s, shared)
    } else if s.analysing && s.outcome().is_none() {
        analyse(s, shared)
    } else {
        Ok(())
    };
    if let Err(e) = started {
        s.notice = Some(e.to_string());
    }
}

/// Starts the engine's move: it searches with the session's settings and
/// plays the move it finds.
pub fn engine_move(s: &mut Session, shared: &Arc<Shared>) -> Result<(), GuiError> {
    s.analysis = Some(Analysis::new(s.game.board().clone(), 1, "engine"));
    let order = s.order(JobKind::EngineMove);
    start(s, order, shared)
}

/// Starts the analysis of the position: `multipv` lines, deeper and
/// deeper until stopped (or after ten minutes).
pub fn analyse(s: &mut Session, shared: &Arc<Shared>) -> Result<(), GuiError> {
    let order = s.order(JobKind::Analysis);
    let lines = analysis_lines(&order);
    s.analysis = Some(Analysis::new(s.game.board().clone(), lines, "analysis"));
    start(s, order, shared)
}

/// Starts the Learn experiment on the position: every algorithm to the
/// same depth (Rookie's cumulative alpha-beta versions, Scout, PVS without
/// and with its features), then the cumulative PVS ablation of `ablate`,
/// one bar at a time.
pub fn learn(s: &mut Session, shared: &Arc<Shared>) -> Result<(), GuiError> {
    let settings = &s.settings;
    s.learn = Some(Learn {
        fen: s.game.board().fen(),
        depth: settings.learn_depth,
        ablation_depth: settings.ablation_depth,
        eval: settings.eval.name(),
        algorithms: Vec::new(),
        ablation: Vec::new(),
    });
    let order = s.order(JobKind::Learn);
    start(s, order, shared)
}

/// The lines an analysis shows: as many as asked, at most one per legal move.
fn analysis_lines(order: &JobOrder) -> usize {
    let legal = order.game.board().legal_moves().len();
    order.settings.multipv.min(legal).max(1)
}

/// Runs `order` with the network `net` until it ends or `stop` is raised,
/// telling `report` what it finds (`report` answers false when the job is
/// no longer wanted: the job then ends). An engine-move job returns the
/// move it chose: the best move found, or the first legal move when the
/// search answered none or an illegal one (a bug, told on the page).
pub fn run(
    order: &JobOrder,
    net: &Arc<Network>,
    stop: &Arc<AtomicBool>,
    report: &mut dyn FnMut(Report) -> bool,
) -> Option<Moved> {
    match order.kind {
        JobKind::EngineMove => Some(run_engine_move(order, net, stop, report)),
        JobKind::Analysis => {
            run_analysis(order, net, stop, report);
            None
        }
        JobKind::Learn => {
            let choice = EvalChoice::new(order.settings.eval, net);
            with_evaluator!(&choice, eval => run_learn(order, &eval, stop, report));
            None
        }
    }
}

fn run_engine_move(
    order: &JobOrder,
    net: &Arc<Network>,
    stop: &Arc<AtomicBool>,
    report: &mut dyn FnMut(Report) -> bool,
) -> Moved {
    let (game, settings) = (&order.game, &order.settings);
    let mut search = searcher(settings, net);
    let limits = settings.move_limits().with_stop(stop.clone());
    let result = search.search(game, &limits, &mut |info| {
        report(Report::Line(0, info.clone()));
    });
    let board = game.board();
    match result.best_move {
        Some(m) if board.is_legal(m) => Moved {
            mv: Some(m),
            notice: None,
        },
        other => {
            let first = board.legal_moves().first().copied();
            let notice = first.map(|_| {
                format!(
                    "search bug: {} answered {} in {}; the first legal move was played",
                    settings.algo.name(),
                    other.map_or("no move".to_string(), |m| m.to_string()),
                    board.fen()
                )
            });
            Moved { mv: first, notice }
        }
    }
}

/// One line is one search reporting each iteration; several lines are
/// searched depth by depth, each excluding the best moves of the lines
/// above it.
fn run_analysis(
    order: &JobOrder,
    net: &Arc<Network>,
    stop: &Arc<AtomicBool>,
    report: &mut dyn FnMut(Report) -> bool,
) {
    let game = &order.game;
    let lines = analysis_lines(order);
    let legal: Vec<Move> = game.board().legal_moves().to_vec();
    let mut search = searcher(&order.settings, net);
    let base = Limits {
        movetime: Some(ANALYSIS_CAP),
        ..Limits::infinite()
    }
    .with_stop(stop.clone());
    if lines == 1 {
        search.search(game, &base, &mut |info| {
            report(Report::Line(0, info.clone()));
        });
        return;
    }
    for depth in 1..fianchetto_search::MAX_PLY as u32 {
        let mut candidates = legal.clone();
        for k in 0..lines {
            let limits = Limits {
                depth: Some(depth),
                searchmoves: candidates.clone(),
                ..base.clone()
            };
            let r = search.search(game, &limits, &mut |info| {
                if info.depth == depth {
                    report(Report::Line(k, info.clone()));
                }
            });
            if !report(Report::LineDone(r.nodes)) || limits.stopped() || r.depth < depth {
                return;
            }
            let Some(best) = r.best_move else { break };
            candidates.retain(|&m| m != best);
        }
    }
}

/// The algorithms of the Learn view: Rookie's versions, then Scout and PVS.
fn learn_contenders<E: Evaluator<Bitboards> + Clone + Send + 'static>(
    eval: &E,
) -> Vec<Contender<Bitboards>> {
    let mut list = rookie_searches::<Bitboards, E>(eval);
    let bare = PvsConfig {
        pvs: true,
        hash_mb: HASH_MB,
        threads: 1,
        ..PvsConfig::all_off()
    };
    let full = PvsConfig {
        hash_mb: HASH_MB,
        threads: 1,
        ..PvsConfig::default()
    };
    list.push(Contender {
        name: "Scout",
        meaning: "Pearl's Scout: tests each later move with a null window first, and searches it fully only if the test says it is better.",
        search: Box::new(Scout::new(eval.clone()).iterative(false)),
    });
    list.push(Contender {
        name: "PVS, no features",
        meaning: "Principal variation search alone: null windows after the first move, with no table, ordering, pruning or quiescence.",
        search: Box::new(Pvs::with_config(eval.clone(), bare)),
    });
    list.push(Contender {
        name: "PVS, every feature",
        meaning: "The engine's search: iterative deepening, table, ordering, pruning, reductions, extensions and quiescence, all on.",
        search: Box::new(Pvs::with_config(eval.clone(), full)),
    });
    list
}

fn run_learn<E: Evaluator<Bitboards> + Clone + Send + 'static>(
    order: &JobOrder,
    eval: &E,
    stop: &Arc<AtomicBool>,
    report: &mut dyn FnMut(Report) -> bool,
) {
    let (game, settings) = (&order.game, &order.settings);
    let depth = settings.learn_depth;
    for mut c in learn_contenders(eval) {
        let limits = Limits::depth(depth)
            .with_nodes(LEARN_MAX_NODES)
            .with_stop(stop.clone());
        let r = c.search.search(game, &limits, &mut |_| {});
        let row = LearnRow {
            name: c.name.to_string(),
            meaning: c.meaning.to_string(),
            nodes: r.nodes,
            time: r.time,
            complete: r.depth >= depth && r.nodes < LEARN_MAX_NODES && !limits.stopped(),
        };
        if !report(Report::Algorithm(row)) || limits.stopped() {
            return;
        }
    }
    let fen = game.board().fen();
    let depth = settings.ablation_depth;
    for step in configurations(HASH_MB) {
        let started = Instant::now();
        let Ok(cells) =
            measure::<Bitboards, E>(eval, &step.config, &[&fen], depth, LEARN_MAX_NODES, stop)
        else {
            return;
        };
        // A configuration that gave up is drawn at the node budget, with
        // the time it took to give up.
        let (nodes, time, complete) = match cells.last().copied().flatten() {
            Some((nodes, time)) => (nodes, time, true),
            None => (LEARN_MAX_NODES, started.elapsed(), false),
        };
        let row = LearnRow {
            name: step.name.to_string(),
            meaning: step.meaning.to_string(),
            nodes,
            time,
            complete,
        };
        if !report(Report::Ablation(row)) || stop.load(Ordering::Relaxed) {
            return;
        }
    }
}
