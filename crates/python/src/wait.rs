//! Long work that Ctrl-C stops: a search or a perft runs on a thread of its
//! own while the calling thread waits without the GIL, waking every 50 ms
//! to let Python see a signal. On `KeyboardInterrupt` (or any exception a
//! signal handler raises) the work's stop flag is raised, the work ends at
//! its next check, and the exception is raised.

use pyo3::panic::PanicException;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the waiting thread looks for a signal.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own and waits for it, releasing the GIL
/// meanwhile; a signal's exception raises `stop` (which `work` must watch)
/// and is returned once `work` has ended.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let done = AtomicBool::new(false);
    let waiter = std::thread::current();
    std::thread::scope(|s| {
        let worker = s.spawn(|| {
            let out = work();
            done.store(true, Ordering::Release);
            waiter.unpark();
            out
        });
        let mut interrupted = None;
        while !done.load(Ordering::Acquire) {
            py.allow_threads(|| std::thread::park_timeout(POLL));
            if interrupted.is_none() && !done.load(Ordering::Acquire) {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupted = Some(e);
                }
            }
        }
        let out = py
            .allow_threads(|| worker.join())
            .map_err(|_| PanicException::new_err("the work thread panicked"))?;
        match interrupted {
            Some(e) => Err(e),
            None => Ok(out),
        }
    })
}
