//! What a search is asked to do ([`Limits`]), what it says while it runs
//! ([`Info`]) and what it answers ([`SearchResult`]).

use fianchetto_board::Move;
use fianchetto_eval::Score;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The limits of one search: the UCI `go` parameters plus a stop flag that
/// another thread (the UCI reader, a GUI) can raise at any time.
///
/// Every limit is optional; with none set the search runs until it reaches
/// [`crate::MAX_PLY`] or `stop` is raised. When several are set the first
/// one reached ends the search.
///
/// ```
/// use fianchetto_search::Limits;
/// use std::time::Duration;
///
/// let l = Limits::depth(6);
/// assert_eq!(l.depth, Some(6));
/// let l = Limits::movetime(Duration::from_millis(100)).with_nodes(50_000);
/// assert_eq!(l.nodes, Some(50_000));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Search at most this many plies deep (iterations of iterative deepening).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked every few hundred nodes).
    pub nodes: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// White's remaining clock time.
    pub wtime: Option<Duration>,
    /// Black's remaining clock time.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves until the next time control (none: sudden death).
    pub movestogo: Option<u32>,
    /// Search until stopped (clock limits are ignored).
    pub infinite: bool,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Only consider these root moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
    /// Time kept in reserve for communication lag when playing on a clock.
    pub move_overhead: Duration,
    /// Raised by anyone to end the search as soon as possible; the search
    /// still returns its best move so far. Shared, so a UCI `stop` can reach
    /// a search running on another thread.
    pub stop: Arc<AtomicBool>,
}

impl Limits {
    /// No limit at all: search until `stop` (or the maximum depth).
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// A fixed depth in plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed number of nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A fixed thinking time.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// Adds a depth limit.
    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// Adds a node limit.
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// Uses `stop` as the stop flag (to stop the search from elsewhere).
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = stop;
        self
    }

    /// Whether the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// What kind of bound a reported score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Bound {
    /// The true score (a completed iteration).
    #[default]
    Exact,
    /// The true score is at least this (failed high at the aspiration window).
    Lower,
    /// The true score is at most this (failed low at the aspiration window).
    Upper,
}

/// A progress report: one per completed iteration (and per aspiration
/// failure), shaped after the UCI `info` line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Info {
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// The deepest ply reached (extensions and quiescence included).
    pub seldepth: u32,
    /// Score for the side to move at the root.
    pub score: Score,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Transposition table fill, per mille (0 without a table).
    pub hashfull: u32,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, root move first.
    pub pv: Vec<Move>,
    /// Endgame tablebase probes that gave a value (0 without tables).
    pub tbhits: u64,
}

impl Info {
    /// The UCI `info …` line.
    ///
    /// ```
    /// use fianchetto_search::Info;
    /// use fianchetto_eval::Score;
    /// let info = Info { depth: 3, seldepth: 5, score: Score::cp(20), nodes: 1000, ..Info::default() };
    /// assert_eq!(info.to_uci(), "info depth 3 seldepth 5 score cp 20 nodes 1000 nps 0 hashfull 0 time 0 pv");
    /// ```
    pub fn to_uci(&self) -> String {
        let bound = match self.bound {
            Bound::Exact => "",
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
        };
        // `tbhits` only when there were some: searches without tables print
        // the line they always did.
        let tbhits = if self.tbhits > 0 {
            format!(" tbhits {}", self.tbhits)
        } else {
            String::new()
        };
        let mut line = format!(
            "info depth {} seldepth {} score {}{} nodes {} nps {} hashfull {}{tbhits} time {} pv",
            self.depth,
            self.seldepth,
            self.score,
            bound,
            self.nodes,
            self.nps,
            self.hashfull,
            self.time.as_millis()
        );
        for mv in &self.pv {
            line.push(' ');
            line.push_str(&mv.to_string());
        }
        line
    }
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SearchResult {
    /// The move to play; `None` only when the root has no legal move (or no
    /// legal move among `searchmoves`).
    pub best_move: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
    /// Score of the best move for the side to move.
    pub score: Score,
    /// The principal variation, `best_move` first.
    pub pv: Vec<Move>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched (every position visited, all threads).
    pub nodes: u64,
    /// Static evaluations made ("positions evaluated").
    pub evals: u64,
    /// Time spent.
    pub time: Duration,
}

impl SearchResult {
    /// The UCI `bestmove …` line (`bestmove 0000` when there is no move).
    pub fn to_uci(&self) -> String {
        match (self.best_move, self.ponder) {
            (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
            (Some(b), None) => format!("bestmove {b}"),
            (None, _) => "bestmove 0000".to_string(),
        }
    }

    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.time)
    }
}

/// `nodes` per second over `time`.
pub(crate) fn nps(nodes: u64, time: Duration) -> u64 {
    let us = time.as_micros().max(1);
    (nodes as u128 * 1_000_000 / us) as u64
}
