//! `Engine`: a searcher for JavaScript, built by name from the library's one
//! place for it ([`build_search`]) with an evaluation by name
//! ([`with_evaluator!`]), searching a [`Board`]'s game under limits and
//! reporting each iteration.

use crate::board::Board;
use crate::js::{error, move_strings, strings, Obj, Options};
use fianchetto_board::{Bitboards, Board as _, CastlingMode, Move};
use fianchetto_eval::nnue::Network;
use fianchetto_eval::select::{load_network, EvalChoice, EvalName};
use fianchetto_eval::{with_evaluator, Evaluator, Score};
use fianchetto_movegen::{to_san, to_uci, Game};
use fianchetto_search::multipv::search_lines;
use fianchetto_search::select::{build_search, engine_mcts, Algo, SearchConfig};
use fianchetto_search::{Bound, Info, Limits, Search, SearchResult};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// The transposition table's size when none is asked for: PVS's default.
const DEFAULT_HASH_MB: usize = 16;
/// The largest table: wasm32's memory is 4 GiB at most, and a page may get
/// much less; a table that cannot be allocated would end the module.
const MAX_HASH_MB: u64 = 256;
/// The time a search takes when the limits set none (as `fianchetto analyse`).
const DEFAULT_MOVETIME_MS: u64 = 3000;
/// The deepest search a limit may ask for.
const MAX_DEPTH: u64 = 128;
/// The most lines a search may ask for (`multipv`).
const MAX_LINES: u64 = 64;
/// The largest whole number a JavaScript number holds exactly (2^53 − 1).
const MAX_SAFE: u64 = (1 << 53) - 1;

/// What an engine is: the algorithm, the evaluation (with its network) and
/// the table size; the searcher, built from them on first use and kept
/// between searches (its table and histories carry over, as in a game).
pub(crate) struct Core {
    algo: Algo,
    eval: EvalName,
    net: Arc<Network>,
    hash_mb: usize,
    search: Option<Box<dyn Search<Bitboards> + Send>>,
}

impl Core {
    /// PVS on the embedded NNUE, 16 MB of table.
    pub(crate) fn new() -> Result<Core, String> {
        Ok(Core {
            algo: Algo::default(),
            eval: EvalName::default(),
            net: load_network(None).map_err(|e| e.to_string())?,
            hash_mb: DEFAULT_HASH_MB,
            search: None,
        })
    }

    pub(crate) fn set_algorithm(&mut self, name: &str) -> Result<(), String> {
        self.algo = Algo::named(name).map_err(|e| e.to_string())?;
        self.search = None;
        Ok(())
    }

    pub(crate) fn set_evaluation(&mut self, name: &str) -> Result<(), String> {
        self.eval = EvalName::named(name).map_err(|e| e.to_string())?;
        self.search = None;
        Ok(())
    }

    pub(crate) fn set_hash(&mut self, mb: usize) {
        self.hash_mb = mb;
        self.search = None;
    }

    pub(crate) fn set_network(&mut self, bytes: &[u8]) -> Result<(), String> {
        let net = Network::from_bytes(bytes).map_err(|e| format!("network: {e}"))?;
        self.net = Arc::new(net);
        self.search = None;
        Ok(())
    }

    fn choice(&self) -> EvalChoice {
        EvalChoice::new(self.eval, &self.net)
    }

    /// Searches the `lines` best moves of the current position of `game`
    /// (one line: one plain search), best first, reporting each iteration
    /// of line `k` (from 1) as `report(k, info)`.
    pub(crate) fn search(
        &mut self,
        game: &Game<Bitboards>,
        limits: &Limits,
        lines: usize,
        report: &mut dyn FnMut(usize, &Info),
    ) -> Vec<SearchResult> {
        let search = match &mut self.search {
            Some(s) => s,
            None => {
                let mut config = SearchConfig {
                    algo: self.algo,
                    mcts: engine_mcts(1),
                    ..SearchConfig::default()
                };
                config.pvs.hash_mb = self.hash_mb;
                let choice = self.choice();
                let search =
                    with_evaluator!(&choice, eval => build_search::<Bitboards, _>(&config, eval));
                self.search.insert(search)
            }
        };
        search_lines(search, game, limits, lines, report)
    }

    /// The static evaluation of `board` for the side to move.
    pub(crate) fn evaluate(&self, board: &Bitboards) -> Score {
        with_evaluator!(&self.choice(), e => {
            let mut e = e;
            e.evaluate(board)
        })
    }

    pub(crate) fn clear(&mut self) {
        if let Some(s) = &mut self.search {
            s.clear();
        }
    }
}

/// A chess engine: one of the library's search algorithms (`pvs`, the
/// strong one, `alphabeta`, `scout`, `minimax`, `mcts`) on one of its
/// evaluations (`nnue` with the embedded network or one loaded from bytes,
/// `classical`, `buhochess`, `material`). It searches on the thread that
/// calls it: in a page, run it in a Web Worker (`engine-worker.js` and
/// `EngineWorker` in `engine.js` do) so that the page never freezes.
#[wasm_bindgen]
pub struct Engine {
    core: Core,
}

#[wasm_bindgen]
impl Engine {
    /// An engine with `options` (`{ algorithm, evaluation, hash }`, the
    /// table size in MB): PVS on the NNUE with 16 MB by default.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "EngineOptions | undefined")] options: JsValue,
    ) -> Result<Engine, JsError> {
        let mut engine = Engine {
            core: Core::new().map_err(error)?,
        };
        engine.configure(options)?;
        Ok(engine)
    }

    /// Changes the options given (`{ algorithm, evaluation, hash }`); the
    /// others stay. A change starts a fresh searcher (an empty table).
    pub fn configure(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "EngineOptions | undefined")] options: JsValue,
    ) -> Result<(), JsError> {
        let o = Options::new("options", &options)?;
        if let Some(algo) = o.string("algorithm")? {
            self.core.set_algorithm(&algo).map_err(error)?;
        }
        if let Some(eval) = o.string("evaluation")? {
            self.core.set_evaluation(&eval).map_err(error)?;
        }
        if let Some(mb) = o.int("hash", 1, MAX_HASH_MB)? {
            self.core.set_hash(mb as usize);
        }
        Ok(())
    }

    /// Replaces the network `nnue` evaluates with (the embedded one until
    /// then) by the network file in `bytes`; a file that is not a valid
    /// network throws, naming what is wrong, and changes nothing.
    #[wasm_bindgen(js_name = loadNetwork)]
    pub fn load_network(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        self.core.set_network(bytes).map_err(error)
    }

    /// The algorithm names.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn algorithms() -> js_sys::Array {
        strings(Algo::ALL.iter().map(|a| a.name()))
    }

    /// The evaluation names.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn evaluations() -> js_sys::Array {
        strings(EvalName::ALL.iter().map(|e| e.name()))
    }

    /// Searches the current position of `board` (its history counts for
    /// repetitions) under `limits` (`{ depth, nodes, movetime, wtime,
    /// btime, winc, binc, movestogo, mate, multipv }`, times in
    /// milliseconds; 3 s when none bounds the search: `mate` alone does
    /// not), calling `onInfo` with each iteration's report (`multipv`: the
    /// line it is about); `onInfo` returning `true` stops the search, which
    /// still answers with its best move so far. Returns the result: best
    /// move, ponder move, score, depth, nodes, time, principal variation,
    /// and `lines`, the result of each line (`multipv` of them: the best
    /// move, then the best of the others, ...; a clock or move time is
    /// shared between them). An `onInfo` that throws stops the search and
    /// the error is thrown on.
    #[wasm_bindgen(unchecked_return_type = "SearchResult")]
    pub fn search(
        &mut self,
        board: &Board,
        #[wasm_bindgen(unchecked_param_type = "Limits | undefined")] limits: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "((info: SearchInfo) => boolean | void) | undefined"
        )]
        on_info: Option<js_sys::Function>,
    ) -> Result<JsValue, JsValue> {
        let (limits, lines) = read_limits(&limits)?;
        let game = board.game();
        let root = game.board();
        let stop = limits.stop.clone();
        let mut thrown: Option<JsValue> = None;
        let mut report = |k: usize, info: &Info| {
            let Some(f) = &on_info else { return };
            if thrown.is_some() {
                return;
            }
            match f.call1(&JsValue::NULL, &info_object(root, k, info)) {
                Ok(v) if v.as_bool() == Some(true) => stop.store(true, Relaxed),
                Ok(_) => {}
                Err(e) => {
                    thrown = Some(e);
                    stop.store(true, Relaxed);
                }
            }
        };
        let results = self.core.search(game, &limits, lines, &mut report);
        if let Some(e) = thrown {
            return Err(e);
        }
        // No line: no legal move (the first line's empty result).
        let first = results.first().cloned().unwrap_or_default();
        let all: js_sys::Array = results.iter().map(|r| result_object(root, r)).collect();
        let mut out = result_fields(root, &first);
        out = out.set("lines", all);
        Ok(out.into_js())
    }

    /// The static evaluation of `board`'s position, in centipawns for the
    /// side to move (`{ cp }`, or `{ mate }` where the evaluation sees one).
    #[wasm_bindgen(unchecked_return_type = "Score")]
    pub fn evaluate(&self, board: &Board) -> JsValue {
        score_object(self.core.evaluate(board.game().board()))
    }

    /// Forgets the table and histories (a new game).
    pub fn clear(&mut self) {
        self.core.clear();
    }
}

/// The limits of a search and its number of lines (`multipv`), from the
/// JavaScript object.
fn read_limits(value: &JsValue) -> Result<(Limits, usize), JsError> {
    let o = Options::new("limits", value)?;
    let ms = |key: &str| -> Result<Option<Duration>, JsError> {
        Ok(o.int(key, 0, MAX_SAFE)?.map(Duration::from_millis))
    };
    let mut limits = Limits {
        depth: o.int("depth", 1, MAX_DEPTH)?.map(|d| d as u32),
        nodes: o.int("nodes", 1, MAX_SAFE)?,
        movetime: o.int("movetime", 1, MAX_SAFE)?.map(Duration::from_millis),
        wtime: ms("wtime")?,
        btime: ms("btime")?,
        winc: ms("winc")?,
        binc: ms("binc")?,
        movestogo: o.int("movestogo", 1, 10_000)?.map(|n| n as u32),
        mate: o.int("mate", 1, 500)?.map(|n| n as u32),
        ..Limits::default()
    };
    // `mate` alone does not bound a search (there may be no mate): it
    // gets the default time too.
    if limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.wtime.is_none()
        && limits.btime.is_none()
    {
        limits.movetime = Some(Duration::from_millis(DEFAULT_MOVETIME_MS));
    }
    let lines = o.int("multipv", 1, MAX_LINES)?.unwrap_or(1) as usize;
    Ok((limits, lines))
}

fn score_object(score: Score) -> JsValue {
    match score.mate_moves() {
        Some(m) => Obj::new().set("mate", m),
        None => Obj::new().set("cp", score.value()),
    }
    .into_js()
}

fn uci(board: &Bitboards, mv: Move) -> String {
    to_uci(board, mv, CastlingMode::Standard)
}

/// A line of moves from `root` in UCI and in SAN, up to the first move that
/// is not legal where it falls (a line taken from a table can hold one).
fn line(root: &Bitboards, pv: &[Move]) -> (js_sys::Array, js_sys::Array) {
    let mut board = root.clone();
    let mut ucis = Vec::with_capacity(pv.len());
    let mut sans = Vec::with_capacity(pv.len());
    for &m in pv {
        // `to_san` refuses a move that is not legal.
        let Ok(san) = to_san(&board, m) else { break };
        ucis.push(uci(&board, m));
        sans.push(san);
        board.play_unchecked(m);
    }
    (move_strings(ucis), move_strings(sans))
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn info_object(root: &Bitboards, multipv: usize, info: &Info) -> JsValue {
    let (pv, pv_san) = line(root, &info.pv);
    let bound = match info.bound {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    };
    Obj::new()
        .set("multipv", multipv as u32)
        .set("depth", info.depth)
        .set("seldepth", info.seldepth)
        .set("score", score_object(info.score))
        .set("bound", bound)
        .set("nodes", info.nodes as f64)
        .set("nps", info.nps as f64)
        .set("hashfull", info.hashfull)
        .set("time", millis(info.time))
        .set("pv", pv)
        .set("pvSan", pv_san)
        .into_js()
}

fn result_object(root: &Bitboards, r: &SearchResult) -> JsValue {
    result_fields(root, r).into_js()
}

fn result_fields(root: &Bitboards, r: &SearchResult) -> Obj {
    let (pv, pv_san) = line(root, &r.pv);
    let mv = |m: Option<Move>| m.map_or(JsValue::NULL, |m| uci(root, m).into());
    let ponder = match (r.best_move, r.ponder) {
        (Some(b), Some(p)) => {
            let mut after = root.clone();
            after.play_unchecked(b);
            JsValue::from(uci(&after, p))
        }
        _ => JsValue::NULL,
    };
    Obj::new()
        .set("bestmove", mv(r.best_move))
        .set("ponder", ponder)
        .set("score", score_object(r.score))
        .set("depth", r.depth)
        .set("seldepth", r.seldepth)
        .set("nodes", r.nodes as f64)
        .set("evals", r.evals as f64)
        .set("nps", r.nps() as f64)
        .set("time", millis(r.time))
        .set("pv", pv)
        .set("pvSan", pv_san)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figure the Node.js test (`crates/wasm/tests/engine.test.mjs`)
    /// checks the WebAssembly build against: PVS on the embedded NNUE, 16 MB,
    /// one thread, depth 11 from the position after 1. e4 e5 2. Nf3.
    #[test]
    fn fixed_depth_search_gives_the_figure_the_wasm_test_checks() {
        let mut core = Core::new().unwrap();
        let mut game = Game::new(Bitboards::startpos());
        for m in ["e2e4", "e7e5", "g1f3"] {
            game.play_uci(m).unwrap();
        }
        let result = core.search(&game, &Limits::depth(11), 1, &mut |_, _| {})[0].clone();
        let best = result.best_move.map(|m| uci(game.board(), m));
        assert_eq!((best.as_deref(), result.nodes), (Some("b8c6"), 27_422));
    }

    #[test]
    fn names_are_checked() {
        let mut core = Core::new().unwrap();
        let e = core.set_algorithm("abacus").unwrap_err();
        assert!(
            e.contains("unknown algorithm \"abacus\"") && e.contains("pvs"),
            "{e}"
        );
        let e = core.set_evaluation("vibes").unwrap_err();
        assert!(
            e.contains("unknown evaluation \"vibes\"") && e.contains("nnue"),
            "{e}"
        );
        let e = core
            .set_network(b"FIANNUE\x1a but not much else")
            .unwrap_err();
        assert!(e.starts_with("network: "), "{e}");
    }
}
