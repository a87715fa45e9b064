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
//! - After each completed iteration the optimum is scaled by how stable the
//!   best move has been ([`IterationTracker`]): an unstable search may take
//!   up to about twice the optimum, a long-stable one stops before it. The
//!   search stops once the elapsed time passes the scaled optimum.
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
use std::time::Duration;

/// The clock deadlines are measured on: [`std::time::Instant`], except on
/// `wasm32-unknown-unknown` (the browser and Node.js), where the standard
/// library has no clock (`std::time::Instant::now` panics there) and
/// `web_time::Instant`, the same API over the host's `performance.now()`,
/// stands in for it.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;

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
    /// by `scale`; the scaled target never
    /// passes the hard deadline. A fixed move time never stops here.
    pub fn soft_expired_scaled(&self, scale: f64) -> bool {
        self.soft_target(scale)
            .is_some_and(|target| self.elapsed() >= target)
    }

    /// When a search should stop with the optimum scaled by `scale` (never
    /// past the hard deadline); `None` without an optimum or with a fixed
    /// move time.
    pub fn soft_target(&self, scale: f64) -> Option<Duration> {
        let soft = self.soft.filter(|_| !self.fixed)?;
        let scale = if scale.is_finite() {
            scale.max(0.0)
        } else {
            1.0
        };
        Some(soft.mul_f64(scale).min(self.hard.unwrap_or(Duration::MAX)))
    }

    /// Whether to stop after a completed iteration, by best-move stability
    /// alone: `stable_iterations` counts the iterations in a row that
    /// returned the same best move (the simple algorithms, which do not
    /// track the other signals; MCTS scales [`TimeManager::soft_target`] by
    /// its root's visits instead).
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

/// How many iterations in a row of one search returned the same best
/// move, for [`TimeManager::soft_expired`]. Fixed-size, no allocation.
///
/// ```
/// use fianchetto_board::{Move, MoveKind, Square};
/// use fianchetto_search::time::IterationTracker;
///
/// let e4 = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
/// let d4 = Move::new(Square::D2, Square::D4, MoveKind::DoublePush);
/// let mut t = IterationTracker::default();
/// for _ in 0..4 {
///     t.record(e4);
/// }
/// assert_eq!(t.stable_iterations(), 3);
/// t.record(d4);
/// assert_eq!(t.stable_iterations(), 0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct IterationTracker {
    best: Option<Move>,
    stable: u32,
}

impl IterationTracker {
    /// Records a completed iteration's best move.
    pub fn record(&mut self, best: Move) {
        if self.best == Some(best) {
            self.stable += 1;
        } else {
            self.stable = 0;
        }
        self.best = Some(best);
    }

    /// Iterations in a row that returned the same best move.
    pub fn stable_iterations(&self) -> u32 {
        self.stable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
