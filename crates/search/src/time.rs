//! Time management: turning the clock into a soft deadline (do not start
//! another iteration after it) and a hard deadline (abort the iteration in
//! progress), and deciding after each iteration whether to go on.
//!
//! - `go movetime N` is a promise to think N ms: the search runs until the
//!   hard deadline, `N − Move Overhead`, and never stops early.
//! - On a clock the planner takes an equal share of what is left (plus most
//!   of the increment) as the *optimum*, and a few optimums, capped at a
//!   fraction of the clock, as the *maximum*: the hard deadline, never
//!   exceeded.
//! - After each completed iteration [`IterationTracker`] scales the optimum
//!   by three signals: how stable the best move has been, what share of the
//!   iteration's nodes went to the best move (a move that took nearly all of
//!   them is clearly best; one that took half is contested), and whether the
//!   score is falling compared with the earlier iterations (a falling score
//!   asks for more time to find a defence). The search stops once the
//!   elapsed time passes the scaled optimum.
//!
//! ```
//! use fianchetto_board::Color;
//! use fianchetto_search::{Limits, time::TimeManager};
//! use std::time::Duration;
//!
//! let limits = Limits { wtime: Some(Duration::from_secs(60)), winc: Some(Duration::from_secs(1)),
//!                       ..Limits::default() };
//! let tm = TimeManager::new(&limits, Color::White);
//! let (soft, hard) = (tm.soft().unwrap(), tm.hard().unwrap());
//! assert!(soft < hard && hard < Duration::from_secs(60));
//!
//! // A fixed move time uses the time given, less the overhead.
//! let limits = Limits { move_overhead: Duration::from_millis(10),
//!                       ..Limits::movetime(Duration::from_millis(500)) };
//! let tm = TimeManager::new(&limits, Color::White);
//! assert_eq!(tm.hard(), Some(Duration::from_millis(490)));
//! assert!(!tm.soft_expired(10));
//! ```

use crate::Limits;
use fianchetto_board::{Color, Move};
use fianchetto_eval::Score;
use std::time::{Duration, Instant};

/// Moves we plan for when the time control does not say (sudden death).
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// The share of the increment the optimum spends on this move, in quarters
/// (the rest pads the clock).
const INCREMENT_QUARTERS: u32 = 3;
/// The hard deadline is at most this many optimums (before the cap).
const MAX_OPTIMUMS: u32 = 4;
/// The cap on one move's time, in tenths of what is left on the clock: most
/// of it just before the time control refills the clock, less otherwise.
const CAP_TENTHS_LAST_MOVE: u32 = 9;
const CAP_TENTHS: u32 = 4;
/// The optimum's scale by the number of iterations the best move has not
/// changed (the last entry for longer runs): an unstable search may take
/// up to about twice the optimum, a long-stable one stops well before.
const STABILITY_SCALE: [f64; 7] = [1.9, 1.4, 1.1, 0.95, 0.85, 0.8, 0.75];
/// Node share: the scale is `NODES_SCALE_AT_ZERO − NODES_SCALE_SLOPE ×
/// share`, within `NODES_SCALE_RANGE` (all nodes on the best move: 0.6; one
/// half: 1.3).
const NODES_SCALE_AT_ZERO: f64 = 2.0;
const NODES_SCALE_SLOPE: f64 = 1.4;
const NODES_SCALE_RANGE: (f64, f64) = (0.6, 1.6);
/// Iterations before the node share counts (shallow ones say little: they
/// count as an even split).
const NODES_SCALE_MIN_ITERATIONS: u32 = 6;
/// Falling score: the scale grows by this per centipawn the last score is
/// below the average of the earlier ones (about 40% per 100 cp), within
/// `FALLING_SCALE_RANGE` (a rising score gives a little back).
const FALLING_SCALE_PER_CP: f64 = 0.004;
const FALLING_SCALE_RANGE: (f64, f64) = (0.85, 1.6);
/// The weight of the history in the exponential average of the scores.
const SCORE_AVERAGE_DECAY: f64 = 0.6;
/// Scores are clamped to ± this many centipawns before averaging: mates
/// are decided, not falling.
const SCORE_CLAMP_CP: i32 = 2_000;

/// Deadlines of one search, measured from its start.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// A fixed move time: only the hard deadline stops the search.
    fixed: bool,
}

impl TimeManager {
    /// Deadlines for `side` to move under `limits`, starting now.
    pub fn new(limits: &Limits, side: Color) -> TimeManager {
        TimeManager::starting_at(limits, side, Instant::now())
    }

    /// Deadlines for `side` to move under `limits`, counted from `start`
    /// (a search that began before this manager was made: the time already
    /// spent counts).
    pub fn starting_at(limits: &Limits, side: Color, start: Instant) -> TimeManager {
        let unlimited = TimeManager {
            start,
            soft: None,
            hard: None,
            fixed: false,
        };
        if limits.infinite {
            return unlimited;
        }
        if let Some(t) = limits.movetime {
            // A fixed time is a promise: use all of it, minus the lag.
            let t = t
                .saturating_sub(limits.move_overhead)
                .max(Duration::from_millis(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
                fixed: true,
            };
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else { return unlimited };
        let (soft, hard) = plan(time, inc.unwrap_or_default(), limits);
        TimeManager {
            start,
            soft: Some(soft),
            hard: Some(hard),
            fixed: false,
        }
    }

    /// When the search started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The optimum thinking time (before scaling), if the limits set one.
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The time that is never exceeded, if the limits set one.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// Whether the limits fix the thinking time (`go movetime`): the search
    /// then never stops before the hard deadline.
    pub fn is_fixed(&self) -> bool {
        self.fixed
    }

    /// Whether the hard deadline has passed: abort the search now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to stop after a completed iteration, with the optimum scaled
    /// by `scale` (see [`IterationTracker::scale`]); the scaled target never
    /// passes the hard deadline. A fixed move time never stops here.
    pub fn soft_expired_scaled(&self, scale: f64) -> bool {
        let Some(soft) = self.soft else { return false };
        if self.fixed {
            return false;
        }
        let scale = if scale.is_finite() {
            scale.max(0.0)
        } else {
            1.0
        };
        let target = soft.mul_f64(scale).min(self.hard.unwrap_or(Duration::MAX));
        self.elapsed() >= target
    }

    /// Whether to stop after a completed iteration, by best-move stability
    /// alone: `stable_iterations` counts the iterations in a row that
    /// returned the same best move (the simple algorithms and MCTS, which
    /// do not track the other signals).
    pub fn soft_expired(&self, stable_iterations: u32) -> bool {
        self.soft_expired_scaled(stability_factor(stable_iterations))
    }
}

/// The optimum and maximum for a clock of `time` with increment `inc`.
fn plan(time: Duration, inc: Duration, limits: &Limits) -> (Duration, Duration) {
    // Never plan with the reserve that covers communication lag.
    let left = time
        .saturating_sub(limits.move_overhead)
        .max(Duration::from_millis(1));
    // UCI sends `movestogo` only above 0: a 0 is read as not sent (sudden
    // death), never as "this is the last move" (which spends most of the
    // clock).
    let mtg = limits
        .movestogo
        .filter(|&m| m > 0)
        .unwrap_or(DEFAULT_MOVES_TO_GO)
        .min(DEFAULT_MOVES_TO_GO);
    // Optimum: an equal share of what is left plus most of the increment.
    let optimum = left / mtg + inc * INCREMENT_QUARTERS / 4;
    // Maximum: several optimums when the search is unstable, but never
    // more than a fraction of the clock (more when the control is near,
    // where the clock is refilled).
    let cap = if mtg == 1 {
        left * CAP_TENTHS_LAST_MOVE / 10
    } else {
        left * CAP_TENTHS / 10
    };
    let soft = optimum.min(cap);
    let hard = (optimum * MAX_OPTIMUMS).min(cap).max(soft);
    (soft, hard)
}

/// How the optimum scales with best-move stability ([`STABILITY_SCALE`]).
fn stability_factor(stable_iterations: u32) -> f64 {
    STABILITY_SCALE[(stable_iterations as usize).min(STABILITY_SCALE.len() - 1)]
}

/// What the iterations of one search said so far, for scaling the optimum
/// (see the [module documentation](self)). Fixed-size, no allocation.
///
/// ```
/// use fianchetto_board::{Move, Square, MoveKind};
/// use fianchetto_eval::Score;
/// use fianchetto_search::time::IterationTracker;
///
/// let e4 = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
/// let mut t = IterationTracker::default();
/// for _ in 0..8 {
///     t.record(e4, Score::cp(30), 0.95);
/// }
/// let calm = t.scale();
/// let mut u = IterationTracker::default();
/// for s in [30, 30, 30, -40] {
///     u.record(e4, Score::cp(s), 0.5);
/// }
/// assert!(calm < 1.0 && u.scale() > 1.5 * calm);
/// ```
#[derive(Clone, Debug, Default)]
pub struct IterationTracker {
    iterations: u32,
    best: Option<Move>,
    stable: u32,
    /// Exponential average of the earlier iterations' scores (centipawns).
    average: f64,
    last: f64,
    /// The best move's share of the last iteration's nodes.
    fraction: f64,
}

impl IterationTracker {
    /// Records a completed iteration: its best move, its score, and the
    /// share (0 to 1) of the iteration's nodes the best move took.
    pub fn record(&mut self, best: Move, score: Score, best_fraction: f64) {
        if self.best == Some(best) {
            self.stable += 1;
        } else {
            self.stable = 0;
        }
        self.best = Some(best);
        let cp = f64::from(score.0.clamp(-SCORE_CLAMP_CP, SCORE_CLAMP_CP));
        if self.iterations == 0 {
            self.average = cp;
        } else {
            self.average =
                SCORE_AVERAGE_DECAY * self.average + (1.0 - SCORE_AVERAGE_DECAY) * self.last;
        }
        self.last = cp;
        self.fraction = if best_fraction.is_finite() {
            best_fraction.clamp(0.0, 1.0)
        } else {
            0.5
        };
        self.iterations += 1;
    }

    /// Iterations in a row that returned the same best move.
    pub fn stable_iterations(&self) -> u32 {
        self.stable
    }

    /// The factor for [`TimeManager::soft_expired_scaled`] by best-move
    /// stability alone.
    pub fn stability_scale(&self) -> f64 {
        stability_factor(self.stable)
    }

    /// The factor for [`TimeManager::soft_expired_scaled`]: the product of
    /// the stability, node-share and falling-score factors.
    pub fn scale(&self) -> f64 {
        if self.iterations == 0 {
            return 1.0;
        }
        let stability = stability_factor(self.stable);
        let fraction = if self.iterations < NODES_SCALE_MIN_ITERATIONS {
            0.5
        } else {
            self.fraction
        };
        let nodes = (NODES_SCALE_AT_ZERO - NODES_SCALE_SLOPE * fraction)
            .clamp(NODES_SCALE_RANGE.0, NODES_SCALE_RANGE.1);
        let drop = if self.iterations < 2 {
            0.0
        } else {
            self.average - self.last
        };
        let falling =
            (1.0 + drop * FALLING_SCALE_PER_CP).clamp(FALLING_SCALE_RANGE.0, FALLING_SCALE_RANGE.1);
        stability * nodes * falling
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{MoveKind, Square};

    #[test]
    fn movetime_and_clock() {
        let l = Limits::movetime(Duration::from_millis(500));
        let tm = TimeManager::new(&l, Color::Black);
        assert_eq!(tm.hard(), Some(Duration::from_millis(500)));
        assert!(tm.is_fixed());
        assert!(!tm.soft_expired_scaled(0.0));
        let l = Limits {
            btime: Some(Duration::from_secs(10)),
            movestogo: Some(1),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, Color::Black);
        assert!(tm.hard().unwrap() <= Duration::from_secs(9));
        let tm = TimeManager::new(&l, Color::White);
        assert_eq!(tm.hard(), None);
        assert!(!tm.soft_expired(0));
        // `movestogo 0` (which UCI never sends) is sudden death, not the
        // last move before the control.
        let plan_of = |movestogo| {
            let l = Limits {
                btime: Some(Duration::from_secs(10)),
                movestogo,
                ..Limits::default()
            };
            TimeManager::new(&l, Color::Black).hard()
        };
        assert_eq!(plan_of(Some(0)), plan_of(None));
        assert!(plan_of(Some(0)) < plan_of(Some(1)));
    }

    #[test]
    fn the_scaled_target_never_passes_the_hard_deadline() {
        let l = Limits {
            wtime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let tm =
            TimeManager::starting_at(&l, Color::White, Instant::now() - Duration::from_millis(60));
        // 40 ms is the cap (40% of the clock): past it, any scale stops.
        assert!(tm.hard().unwrap() <= Duration::from_millis(40));
        assert!(tm.soft_expired_scaled(1e9));
        assert!(tm.soft_expired_scaled(f64::NAN));
    }

    #[test]
    fn signals_move_the_scale_the_right_way() {
        let a = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
        let b = Move::new(Square::D2, Square::D4, MoveKind::DoublePush);
        let run = |moves: &[Move], scores: &[i32], fraction: f64| {
            let mut t = IterationTracker::default();
            for (&m, &s) in moves.iter().zip(scores) {
                t.record(m, Score::cp(s), fraction);
            }
            t.scale()
        };
        let same = [a; 10];
        let flat = [20; 10];
        let base = run(&same, &flat, 0.9);
        // A contested best move (half the nodes) asks for more time.
        assert!(run(&same, &flat, 0.5) > base);
        // A falling score asks for more time, a rising one for less.
        let mut falling = flat;
        falling[9] = -80;
        assert!(run(&same, &falling, 0.9) > base);
        let mut rising = flat;
        rising[9] = 120;
        assert!(run(&same, &rising, 0.9) < base);
        // A best move that just changed asks for more time.
        let mut changed = same;
        changed[9] = b;
        assert!(run(&changed, &flat, 0.9) > base);
    }
}
