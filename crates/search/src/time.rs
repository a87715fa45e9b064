//! Time management: turning the clock into a soft deadline (do not start
//! another iteration after it) and a hard deadline (abort the iteration in
//! progress), and stopping early when the best move is stable.
//!
//! The shape is Stockfish's: an "optimum" time that is scaled by how stable
//! the best move has been, and a "maximum" time that is never exceeded.
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
//! ```

use crate::Limits;
use fianchetto_board::Color;
use std::time::{Duration, Instant};

/// Moves we plan for when the time control does not say (sudden death).
const DEFAULT_MOVES_TO_GO: u32 = 30;

/// Deadlines of one search, measured from its start.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Deadlines for `side` to move under `limits`, starting now.
    pub fn new(limits: &Limits, side: Color) -> TimeManager {
        let start = Instant::now();
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(t) = limits.movetime {
            // A fixed time is a hard promise: use all of it, minus the lag.
            let t = t
                .saturating_sub(limits.move_overhead)
                .max(Duration::from_millis(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        let inc = inc.unwrap_or_default();
        // Never plan with the reserve that covers communication lag.
        let left = time
            .saturating_sub(limits.move_overhead)
            .max(Duration::from_millis(1));
        let mtg = limits
            .movestogo
            .unwrap_or(DEFAULT_MOVES_TO_GO)
            .clamp(1, DEFAULT_MOVES_TO_GO);
        // Optimum: an equal share of what is left plus most of the increment.
        let optimum = left / mtg + inc * 3 / 4;
        // Maximum: several optimums when the search is unstable, but never
        // more than a fraction of the clock (less when the control is near).
        let cap = if mtg == 1 {
            left * 9 / 10
        } else {
            left * 4 / 10
        };
        let soft = optimum.min(cap);
        let hard = (optimum * 4).min(cap).max(soft);
        TimeManager {
            start,
            soft: Some(soft),
            hard: Some(hard),
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

    /// The optimum thinking time (before stability scaling), if the limits
    /// set one.
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The time that is never exceeded, if the limits set one.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// Whether the hard deadline has passed: abort the search now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to stop after a completed iteration. `stable_iterations`
    /// counts the iterations in a row that returned the same best move: a
    /// stable search stops well before the optimum, an unstable one may use
    /// up to twice of it (never past the hard deadline).
    pub fn soft_expired(&self, stable_iterations: u32) -> bool {
        let Some(soft) = self.soft else { return false };
        let scale = match stable_iterations {
            0 => 2.0,
            1 => 1.3,
            2 => 1.0,
            3 => 0.8,
            _ => 0.6,
        };
        let target = soft.mul_f64(scale).min(self.hard.unwrap_or(Duration::MAX));
        // The next iteration takes a few times longer than the last one: do
        // not start one that would certainly hit the hard deadline.
        self.elapsed() >= target
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
    }
}
