//! The work a tab asks for, each on a thread of its own so that requests
//! are answered at once: the engine's move, the analysis, and the Learn
//! experiment. A job reports into its session only while it is still the
//! session's job; a newer one (or a closed tab) makes it stop and its
//! results are dropped.

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

    /// Ends the job: no longer counted as running, then `f` on the session
    /// (if it is still this job's), which forgets the job first.
    fn finish(mut self, f: impl FnOnce(&mut Session, &Arc<Shared>)) {
        self.running = None;
        let shared = self.shared.clone();
        self.update(|s| {
            s.job = None;
            f(s, &shared);
            s.publish();
        });
    }
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

/// Starts `work` as the session's job, stopping the one before.
fn start(
    s: &mut Session,
    kind: JobKind,
    shared: &Arc<Shared>,
    work: impl FnOnce(JobCtx) + Send + 'static,
) -> Result<(), GuiError> {
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
    std::thread::Builder::new()
        .name(format!("gui-{kind:?}"))
        .spawn(move || work(ctx))
        .map_err(|e| GuiError::Busy(format!("cannot start a search thread: {e}")))?;
    s.job = Some(Job { id, kind, stop });
    Ok(())
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
/// plays the move it finds (the first legal move if the search answered
/// none or an illegal one: a bug, told on the page).
pub fn engine_move(s: &mut Session, shared: &Arc<Shared>) -> Result<(), GuiError> {
    let game = s.game.clone();
    let settings = s.settings.clone();
    s.analysis = Some(Analysis::new(game.board().clone(), 1, "engine"));
    start(s, JobKind::EngineMove, shared, move |ctx| {
        let mut search = searcher(&settings, &ctx.shared.net);
        let limits = settings.move_limits().with_stop(ctx.stop.clone());
        let result = search.search(&game, &limits, &mut |info| {
            ctx.update(|s| show_line(s, 0, info));
        });
        let board = game.board();
        let (mv, notice) = match result.best_move {
            Some(m) if board.is_legal(m) => (Some(m), None),
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
                (first, notice)
            }
        };
        ctx.finish(|s, shared| {
            if notice.is_some() {
                s.notice = notice;
            }
            if let Some(mv) = mv {
                s.game.play_unchecked(mv);
                refresh(s, shared, true);
            }
        });
    })
}

/// Records a report as line `k` of the session's analysis and sends it.
fn show_line(s: &mut Session, k: usize, info: &Info) {
    if let Some(a) = &mut s.analysis {
        a.report(k, info);
    }
    s.publish();
}

/// Starts the analysis of the position: `multipv` lines, deeper and
/// deeper until stopped (or after ten minutes). One line is one search
/// reporting each iteration; several lines are searched depth by depth,
/// each excluding the best moves of the lines above it.
pub fn analyse(s: &mut Session, shared: &Arc<Shared>) -> Result<(), GuiError> {
    let game = s.game.clone();
    let settings = s.settings.clone();
    let legal: Vec<Move> = game.board().legal_moves().to_vec();
    let lines = settings.multipv.min(legal.len()).max(1);
    s.analysis = Some(Analysis::new(game.board().clone(), lines, "analysis"));
    start(s, JobKind::Analysis, shared, move |ctx| {
        let mut search = searcher(&settings, &ctx.shared.net);
        let base = Limits {
            movetime: Some(ANALYSIS_CAP),
            ..Limits::infinite()
        }
        .with_stop(ctx.stop.clone());
        if lines == 1 {
            search.search(&game, &base, &mut |info| {
                ctx.update(|s| show_line(s, 0, info));
            });
        } else {
            'deeper: for depth in 1..fianchetto_search::MAX_PLY as u32 {
                let mut candidates = legal.clone();
                for k in 0..lines {
                    let limits = Limits {
                        depth: Some(depth),
                        searchmoves: candidates.clone(),
                        ..base.clone()
                    };
                    let r = search.search(&game, &limits, &mut |info| {
                        if info.depth == depth {
                            ctx.update(|s| show_line(s, k, info));
                        }
                    });
                    ctx.update(|s| {
                        if let Some(a) = &mut s.analysis {
                            a.finished(r.nodes);
                        }
                    });
                    if limits.stopped() || r.depth < depth {
                        break 'deeper;
                    }
                    let Some(best) = r.best_move else { break };
                    candidates.retain(|&m| m != best);
                }
            }
        }
        ctx.finish(|_, _| {});
    })
}

/// Starts the Learn experiment on the position: every algorithm to the
/// same depth (Rookie's cumulative alpha-beta versions, Scout, PVS without
/// and with its features), then the cumulative PVS ablation of `ablate`,
/// one bar at a time.
pub fn learn(s: &mut Session, shared: &Arc<Shared>) -> Result<(), GuiError> {
    let game = s.game.clone();
    let settings = s.settings.clone();
    let choice = EvalChoice::new(settings.eval, &shared.net);
    s.learn = Some(Learn {
        fen: game.board().fen(),
        depth: settings.learn_depth,
        ablation_depth: settings.ablation_depth,
        eval: settings.eval.name(),
        algorithms: Vec::new(),
        ablation: Vec::new(),
    });
    start(s, JobKind::Learn, shared, move |ctx| {
        with_evaluator!(&choice, eval => run_learn(&ctx, &game, &settings, &eval));
        ctx.finish(|_, _| {});
    })
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
    ctx: &JobCtx,
    game: &Game<Bitboards>,
    settings: &Settings,
    eval: &E,
) {
    let depth = settings.learn_depth;
    for mut c in learn_contenders(eval) {
        let limits = Limits::depth(depth)
            .with_nodes(LEARN_MAX_NODES)
            .with_stop(ctx.stop.clone());
        let r = c.search.search(game, &limits, &mut |_| {});
        let row = LearnRow {
            name: c.name,
            meaning: c.meaning,
            nodes: r.nodes,
            time: r.time,
            complete: r.depth >= depth && r.nodes < LEARN_MAX_NODES && !limits.stopped(),
        };
        let current = ctx.update(|s| {
            if let Some(l) = &mut s.learn {
                l.algorithms.push(row);
            }
            s.publish();
        });
        if !current || limits.stopped() {
            return;
        }
    }
    let fen = game.board().fen();
    let depth = settings.ablation_depth;
    for step in configurations(HASH_MB) {
        let started = std::time::Instant::now();
        let cells = match measure::<Bitboards, E>(
            eval,
            &step.config,
            &[&fen],
            depth,
            LEARN_MAX_NODES,
            &ctx.stop,
        ) {
            Ok(cells) => cells,
            Err(_) => return,
        };
        // A configuration that gave up is drawn at the node budget, with
        // the time it took to give up.
        let (nodes, time, complete) = match cells.last().copied().flatten() {
            Some((nodes, time)) => (nodes, time, true),
            None => (LEARN_MAX_NODES, started.elapsed(), false),
        };
        let row = LearnRow {
            name: step.name,
            meaning: step.meaning,
            nodes,
            time,
            complete,
        };
        let current = ctx.update(|s| {
            if let Some(l) = &mut s.learn {
                l.ablation.push(row);
            }
            s.publish();
        });
        if !current || ctx.stop.load(Ordering::Relaxed) {
            return;
        }
    }
}
