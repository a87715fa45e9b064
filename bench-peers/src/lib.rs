//! What the comparisons share: timing by the thread's CPU time.
//!
//! `cargo run --release` compares perft (`src/main.rs`); `cargo run
//! --release --bin pgn -- FILE` compares PGN reading (`src/bin/pgn.rs`).

use std::time::Duration;

/// CPU time of the calling thread: on a machine shared with other work, the
/// time the thread actually ran, not the time it waited for a core (which
/// wall-clock timing would count, to the advantage of whichever library ran
/// while the machine was quieter).
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The `--runs N` argument (at least 1), or `default`.
pub fn runs(args: &[String], default: usize) -> usize {
    args.iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(default)
        .max(1)
}
