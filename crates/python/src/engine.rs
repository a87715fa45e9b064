//! `fianchetto.Engine`: the engine in-process. The searcher is built the
//! way the engine builds it ([`build_search`] with the evaluation, table
//! size, threads and Syzygy tables of the options), searches run with the
//! GIL released, several lines come from [`search_lines`], and `stop()`
//! from another thread raises the running search's stop flag.

use crate::board::{AnyBoard, PyBoard};
use crate::syzygy::open_tables;
use crate::wait::interruptible;
use fianchetto_board::{Bitboards, Board, Color};
use fianchetto_eval::nnue::Network;
use fianchetto_eval::select::{load_network, EvalChoice, EvalName, LoadNetError};
use fianchetto_eval::with_evaluator;
use fianchetto_eval::Score;
use fianchetto_movegen::MoveGen;
use fianchetto_search::multipv::search_lines;
use fianchetto_search::pvs::{PvsConfig, Syzygy};
use fianchetto_search::select::{build_search, engine_mcts, Algo, SearchConfig};
use fianchetto_search::strength::{strength_nodes, ELO_RANGE};
use fianchetto_search::tt::{Replacement, TranspositionTable};
use fianchetto_search::{Bound as ScoreBound, Info, Limits, Search, SearchResult};
use fianchetto_syzygy::Tablebase;
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the engine is set to.
#[derive(Clone, Debug)]
struct Options {
    hash_mb: usize,
    threads: usize,
    evaluation: EvalName,
    eval_file: Option<PathBuf>,
    syzygy_path: Option<String>,
    elo: Option<i64>,
    algorithm: Algo,
}

/// What the engine is set to and what it loaded for it.
#[derive(Clone)]
struct Config {
    options: Options,
    net: Arc<Network>,
    tables: Option<Arc<Tablebase>>,
}

impl Config {
    /// A searcher for this configuration (its table starts empty).
    fn searcher(&self) -> Box<dyn Search<Bitboards> + Send> {
        let o = &self.options;
        let config = SearchConfig {
            algo: o.algorithm,
            pvs: PvsConfig {
                threads: o.threads,
                hash_mb: o.hash_mb,
                ..PvsConfig::default()
            },
            mcts: engine_mcts(o.threads).memory_mb(o.hash_mb),
            policy: fianchetto_eval::policy::embedded_policy().ok(),
            policy_net_weight: fianchetto_search::mcts::ENGINE_NET_WEIGHT,
            // The engine's defaults: SyzygyProbeDepth 1, SyzygyProbeLimit 7,
            // Syzygy50MoveRule on.
            syzygy: self.tables.as_ref().map(|t| Syzygy {
                tables: t.clone(),
                probe_depth: 1,
                probe_limit: 7,
                rule50: true,
            }),
        };
        let choice = EvalChoice::new(o.evaluation, &self.net);
        with_evaluator!(&choice, e => build_search::<Bitboards, _>(&config, e))
    }
}

/// A network file's error: a file that is not there is a
/// `FileNotFoundError`, a bad one a `ValueError`.
fn net_err(e: LoadNetError) -> PyErr {
    match &e {
        LoadNetError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(e.to_string())
        }
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// A search score, from the side to move's point of view (`cp` or `mate`
/// in moves, negative when the side to move is mated).
#[pyclass(name = "Score", module = "fianchetto", frozen, eq)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PyScore {
    /// Centipawns (None for a mate score).
    #[pyo3(get)]
    cp: Option<i32>,
    /// Moves to mate (negative: the side to move is mated), or None.
    #[pyo3(get)]
    mate: Option<i32>,
    /// Whether white is to move in the position scored.
    turn: bool,
}

impl PyScore {
    fn new(score: Score, turn: Color) -> PyScore {
        let mate = score.mate_moves();
        PyScore {
            cp: mate.is_none().then(|| score.value()),
            mate,
            turn: turn == Color::White,
        }
    }
}

#[pymethods]
impl PyScore {
    /// The same score from white's point of view.
    fn white(&self) -> PyScore {
        if self.turn {
            *self
        } else {
            PyScore {
                cp: self.cp.map(|c| -c),
                mate: self.mate.map(|m| -m),
                turn: true,
            }
        }
    }

    /// Whether this is a mate score.
    fn is_mate(&self) -> bool {
        self.mate.is_some()
    }

    fn __repr__(&self) -> String {
        match (self.cp, self.mate) {
            (_, Some(m)) => format!("Score(mate={m})"),
            (Some(c), None) => format!("Score(cp={c})"),
            (None, None) => "Score()".to_string(),
        }
    }
}

/// What `play` answers: the move, the expected reply and the analysis.
#[pyclass(name = "PlayResult", module = "fianchetto", frozen)]
pub struct PyPlayResult {
    /// The move to play (UCI), None when there is no legal move.
    #[pyo3(get, name = "move")]
    mv: Option<String>,
    /// The expected reply (UCI), if known.
    #[pyo3(get)]
    ponder: Option<String>,
    /// The analysis of the move (as `analyse` gives it).
    #[pyo3(get)]
    info: Py<PyDict>,
}

#[pymethods]
impl PyPlayResult {
    fn __repr__(&self) -> String {
        let quoted =
            |m: &Option<String>| m.as_ref().map_or("None".to_string(), |m| format!("'{m}'"));
        format!(
            "PlayResult(move={}, ponder={})",
            quoted(&self.mv),
            quoted(&self.ponder)
        )
    }
}

/// The engine, in-process: analyses and plays positions of `Board`s.
#[pyclass(name = "Engine", module = "fianchetto", frozen)]
pub struct PyEngine {
    /// The configuration: locked only for moments, never during a search.
    config: Mutex<Config>,
    /// The searcher: locked only while the GIL is released.
    search: Mutex<Box<dyn Search<Bitboards> + Send>>,
    /// The stop flag of the running (or last) search.
    stop: Mutex<Arc<AtomicBool>>,
}

/// The limits of a search from `analyse`'s and `play`'s arguments: a
/// `limit` object (a python-chess `chess.engine.Limit`, or anything with
/// `depth`, `nodes`, `time` attributes) and keywords, which win.
#[allow(clippy::too_many_arguments)]
fn limits_of(
    limit: Option<&Bound<'_, PyAny>>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    infinite: bool,
    elo: Option<i64>,
    turn: Color,
) -> PyResult<Limits> {
    let attr = |name: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        match limit {
            Some(l) if l.hasattr(name)? => {
                let v = l.getattr(name)?;
                Ok((!v.is_none()).then_some(v))
            }
            _ => Ok(None),
        }
    };
    let depth = match depth {
        Some(d) => Some(d),
        None => attr("depth")?.map(|v| v.extract()).transpose()?,
    };
    let nodes = match nodes {
        Some(n) => Some(n),
        None => attr("nodes")?.map(|v| v.extract()).transpose()?,
    };
    let time = match time {
        Some(t) => Some(t),
        None => attr("time")?.map(|v| v.extract()).transpose()?,
    };
    let seconds = |name: &str| -> PyResult<Option<Duration>> {
        attr(name)?
            .map(|v| duration(v.extract()?, name))
            .transpose()
    };
    let mut limits = Limits {
        depth,
        nodes,
        movetime: time.map(|t| duration(t, "time")).transpose()?,
        wtime: seconds("white_clock")?,
        btime: seconds("black_clock")?,
        winc: seconds("white_inc")?,
        binc: seconds("black_inc")?,
        infinite,
        ..Limits::default()
    };
    if depth == Some(0) || nodes == Some(0) {
        return Err(PyValueError::new_err("depth and nodes are at least 1"));
    }
    let clock = match turn {
        Color::White => limits.wtime,
        Color::Black => limits.btime,
    };
    if !infinite
        && depth.is_none()
        && nodes.is_none()
        && limits.movetime.is_none()
        && clock.is_none()
    {
        return Err(PyValueError::new_err(
            "no limit: give depth=, nodes=, time= (seconds), a Limit, or infinite=True (and stop())",
        ));
    }
    if let Some(elo) = elo {
        let cap = strength_nodes(elo);
        limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
    }
    Ok(limits)
}

/// `seconds` as a duration; a negative or not finite number is refused.
fn duration(seconds: f64, name: &str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        PyValueError::new_err(format!("{name} is a number of seconds ≥ 0, not {seconds}"))
    })
}

/// One line of analysis as a dict, python-chess's `InfoDict` keys.
fn info_dict<'py>(
    py: Python<'py>,
    board: &PyBoard,
    result: &SearchResult,
    last: Option<&Info>,
    multipv: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let root = board.game.board();
    let d = PyDict::new(py);
    d.set_item("score", PyScore::new(result.score, root.turn()))?;
    // The PV in this board's notation, each move in its own position.
    let mut pos = root.clone();
    let mut pv = Vec::with_capacity(result.pv.len());
    for &mv in &result.pv {
        // A PV is legal; should one not be, it is cut where it stops being.
        if !pos.is_legal(mv) {
            break;
        }
        pv.push(board.uci(&pos, mv));
        pos.play_unchecked(mv);
    }
    d.set_item("pv", pv)?;
    d.set_item("depth", result.depth)?;
    d.set_item("seldepth", result.seldepth)?;
    d.set_item("nodes", result.nodes)?;
    d.set_item("nps", result.nps())?;
    d.set_item("time", result.time.as_secs_f64())?;
    if let Some(info) = last {
        d.set_item("hashfull", info.hashfull)?;
        d.set_item("tbhits", info.tbhits)?;
        let bound = match info.bound {
            ScoreBound::Exact => "exact",
            ScoreBound::Lower => "lowerbound",
            ScoreBound::Upper => "upperbound",
        };
        d.set_item("bound", bound)?;
    }
    if let Some(k) = multipv {
        d.set_item("multipv", k)?;
    }
    Ok(d)
}

impl PyEngine {
    /// The options now.
    fn options_now(&self) -> Options {
        self.config
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .options
            .clone()
    }

    /// Runs the search with the GIL released (Ctrl-C stops it and raises
    /// `KeyboardInterrupt`); the results and each line's last progress
    /// report.
    fn run(
        &self,
        py: Python<'_>,
        board: &PyBoard,
        mut limits: Limits,
        lines: usize,
    ) -> PyResult<Vec<(SearchResult, Option<Info>)>> {
        let stop = Arc::new(AtomicBool::new(false));
        limits = limits.with_stop(stop.clone());
        *self.stop.lock().unwrap_or_else(|p| p.into_inner()) = stop.clone();
        let game = board.game.clone();
        interruptible(py, &stop, || {
            let mut search = self.search.lock().unwrap_or_else(|p| p.into_inner());
            let mut last: Vec<Option<Info>> = vec![None; lines.max(1)];
            let results = search_lines(&mut **search, &game, &limits, lines, &mut |k, info| {
                if let Some(slot) = last.get_mut(k - 1) {
                    *slot = Some(info.clone());
                }
            });
            results.into_iter().zip(last).collect()
        })
    }
}

#[pymethods]
impl PyEngine {
    /// An engine: `hash` (MB), `threads`, `evaluation` (`nnue`,
    /// `classical`, `buhochess`, `material`), `eval_file` (a network for
    /// `nnue`; the embedded one by default), `syzygy_path` (directories of
    /// tables, `:`-separated), `elo` (play at this strength, 800-2800: a
    /// node budget a move), `algorithm` (`pvs`, `alphabeta`, `scout`,
    /// `minimax`, `mcts`).
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (*, hash=16, threads=1, evaluation="nnue", eval_file=None, syzygy_path=None, elo=None, algorithm="pvs"))]
    fn new(
        py: Python<'_>,
        hash: usize,
        threads: usize,
        evaluation: &str,
        eval_file: Option<PathBuf>,
        syzygy_path: Option<String>,
        elo: Option<i64>,
        algorithm: &str,
    ) -> PyResult<PyEngine> {
        let config = Config {
            options: Options {
                hash_mb: hash,
                threads,
                evaluation: EvalName::default(),
                eval_file: None,
                syzygy_path: None,
                elo: None,
                algorithm: Algo::default(),
            },
            net: Arc::new(Network::zero()),
            tables: None,
        };
        // A searcher of the smallest table until `configure` builds the one
        // asked for.
        let small = Config {
            options: Options {
                hash_mb: 1,
                ..config.options.clone()
            },
            ..config.clone()
        };
        let engine = PyEngine {
            search: Mutex::new(small.searcher()),
            config: Mutex::new(config),
            stop: Mutex::new(Arc::new(AtomicBool::new(false))),
        };
        engine.configure(
            py,
            Some(hash),
            Some(threads),
            Some(evaluation),
            Some(eval_file.unwrap_or_default()),
            Some(syzygy_path.unwrap_or_default()),
            Some(elo.unwrap_or(0)),
            Some(algorithm),
        )?;
        Ok(engine)
    }

    /// Changes options (those given); a bad value raises and changes
    /// nothing. `eval_file=""`, `syzygy_path=""` and `elo=0` turn those
    /// off. The hash table starts empty after any change.
    #[pyo3(signature = (*, hash=None, threads=None, evaluation=None, eval_file=None, syzygy_path=None, elo=None, algorithm=None))]
    #[allow(clippy::too_many_arguments)]
    fn configure(
        &self,
        py: Python<'_>,
        hash: Option<usize>,
        threads: Option<usize>,
        evaluation: Option<&str>,
        eval_file: Option<PathBuf>,
        syzygy_path: Option<String>,
        elo: Option<i64>,
        algorithm: Option<&str>,
    ) -> PyResult<()> {
        let Config {
            options: mut o,
            mut net,
            mut tables,
        } = self
            .config
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if let Some(mb) = hash {
            if mb == 0 || TranspositionTable::try_new(mb, Replacement::default()).is_err() {
                return Err(PyValueError::new_err(format!(
                    "cannot allocate a {mb} MB hash table"
                )));
            }
            o.hash_mb = mb;
        }
        if let Some(t) = threads {
            if !(1..=1024).contains(&t) {
                return Err(PyValueError::new_err(format!(
                    "threads is from 1 to 1024, not {t}"
                )));
            }
            o.threads = t;
        }
        if let Some(name) = evaluation {
            o.evaluation =
                EvalName::named(name).map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        if let Some(name) = algorithm {
            o.algorithm = Algo::named(name).map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        if let Some(file) = eval_file {
            let file = (!file.as_os_str().is_empty()).then_some(file);
            net = py
                .allow_threads(|| load_network(file.as_deref()))
                .map_err(net_err)?;
            o.eval_file = file;
        }
        if let Some(path) = syzygy_path {
            tables = if path.is_empty() {
                None
            } else {
                Some(Arc::new(open_tables(&path)?))
            };
            o.syzygy_path = (!path.is_empty()).then_some(path);
        }
        if let Some(elo) = elo {
            if elo != 0 && !(ELO_RANGE.0..=ELO_RANGE.1).contains(&elo) {
                return Err(PyValueError::new_err(format!(
                    "elo is from {} to {} (0: full strength), not {elo}",
                    ELO_RANGE.0, ELO_RANGE.1
                )));
            }
            o.elo = (elo != 0).then_some(elo);
        }
        let config = Config {
            options: o,
            net,
            tables,
        };
        let search = py.allow_threads(|| config.searcher());
        // Waits for a running search to end (without the GIL).
        py.allow_threads(|| *self.search.lock().unwrap_or_else(|p| p.into_inner()) = search);
        *self.config.lock().unwrap_or_else(|p| p.into_inner()) = config;
        Ok(())
    }

    /// The options now, as a dict.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let o = self.options_now();
        let d = PyDict::new(py);
        d.set_item("hash", o.hash_mb)?;
        d.set_item("threads", o.threads)?;
        d.set_item("evaluation", o.evaluation.name())?;
        d.set_item("eval_file", o.eval_file.clone())?;
        d.set_item("syzygy_path", o.syzygy_path.clone())?;
        d.set_item("elo", o.elo)?;
        d.set_item("algorithm", o.algorithm.name())?;
        Ok(d)
    }

    /// Analyses `board` (its history counts for repetitions) until a limit:
    /// `depth` plies, `nodes`, `time` seconds, a `limit` object, or
    /// `infinite` (until `stop()`). With `multipv=None` a dict (`score`,
    /// `pv`, `depth`, `seldepth`, `nodes`, `nps`, `time`, `hashfull`,
    /// `tbhits`); with `multipv=k` a list of the k best lines' dicts, best
    /// first. The GIL is released while the engine thinks.
    #[pyo3(signature = (board, limit=None, *, depth=None, nodes=None, time=None, multipv=None, infinite=false))]
    #[allow(clippy::too_many_arguments)]
    fn analyse(
        &self,
        py: Python<'_>,
        board: AnyBoard,
        limit: Option<&Bound<'_, PyAny>>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
        multipv: Option<usize>,
        infinite: bool,
    ) -> PyResult<PyObject> {
        let board = &board.0;
        let elo = self.options_now().elo;
        let turn = board.game.board().turn();
        let limits = limits_of(limit, depth, nodes, time, infinite, elo, turn)?;
        if multipv == Some(0) {
            return Err(PyValueError::new_err("multipv is at least 1"));
        }
        let lines = self.run(py, board, limits, multipv.unwrap_or(1))?;
        match multipv {
            None => {
                let (result, last) = lines.into_iter().next().unwrap_or_default();
                Ok(info_dict(py, board, &result, last.as_ref(), None)?
                    .into_any()
                    .unbind())
            }
            Some(_) => {
                let list = pyo3::types::PyList::empty(py);
                for (k, (result, last)) in lines.iter().enumerate() {
                    list.append(info_dict(py, board, result, last.as_ref(), Some(k + 1))?)?;
                }
                Ok(list.into_any().unbind())
            }
        }
    }

    /// The move the engine plays in `board` under the limit (as
    /// `analyse`), with the expected reply and the analysis.
    #[pyo3(signature = (board, limit=None, *, depth=None, nodes=None, time=None))]
    fn play(
        &self,
        py: Python<'_>,
        board: AnyBoard,
        limit: Option<&Bound<'_, PyAny>>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
    ) -> PyResult<PyPlayResult> {
        let board = &board.0;
        let elo = self.options_now().elo;
        let root = board.game.board();
        let limits = limits_of(limit, depth, nodes, time, false, elo, root.turn())?;
        let (result, last) = self
            .run(py, board, limits, 1)?
            .into_iter()
            .next()
            .unwrap_or_default();
        let mv = result.best_move.filter(|&m| root.is_legal(m));
        let info = info_dict(py, board, &result, last.as_ref(), None)?.unbind();
        // The reply in the position after the move, if it is legal there.
        let ponder = mv.zip(result.ponder).and_then(|(m, p)| {
            let mut after = root.clone();
            after.play_unchecked(m);
            after.is_legal(p).then(|| board.uci(&after, p))
        });
        Ok(PyPlayResult {
            mv: mv.map(|m| board.uci(root, m)),
            ponder,
            info,
        })
    }

    /// Stops the running search (from another thread); it returns its best
    /// result so far.
    fn stop(&self) {
        self.stop
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .store(true, Ordering::Relaxed);
    }

    /// Forgets the hash table and histories (a new game).
    fn clear(&self, py: Python<'_>) {
        py.allow_threads(|| {
            self.search
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .clear()
        });
    }

    fn __repr__(&self) -> String {
        let o = self.options_now();
        format!(
            "Engine(algorithm='{}', evaluation='{}', hash={}, threads={})",
            o.algorithm.name(),
            o.evaluation.name(),
            o.hash_mb,
            o.threads
        )
    }
}

/// Adds the engine classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEngine>()?;
    m.add_class::<PyScore>()?;
    m.add_class::<PyPlayResult>()?;
    Ok(())
}
