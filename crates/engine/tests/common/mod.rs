//! The `fianchetto` binary driven over stdin/stdout: run once on an input,
//! or as a GUI would (the process and its reader thread), shared by the
//! tests of its commands and of UCI.

// Each test binary uses a different part of this helper.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Runs the binary under test once with `args`, `input` on its standard
/// input (then closed), and waits for it: its status and both outputs.
pub fn run(args: &[&str], input: &str) -> Output {
    start_once(args, input)
        .wait_with_output()
        .expect("the binary ends")
}

/// [`run`], killing the binary and failing the test if it has not exited
/// within `limit`. Its output must fit the pipes (it is read at the end).
pub fn run_within(args: &[&str], input: &str, limit: Duration) -> Output {
    let mut child = start_once(args, input);
    let deadline = Instant::now() + limit;
    while child.try_wait().expect("the binary runs").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().expect("the binary ends");
            panic!(
                "fianchetto {args:?} did not finish within {limit:?}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("the binary ends")
}

/// Starts the binary with `args` and piped streams, and writes `input` to
/// its standard input, then closes it.
fn start_once(args: &[&str], input: &str) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("the binary reads its input");
    child
}

/// How long [`Engine::expect`] waits for its line.
const EXPECT_TIMEOUT: Duration = Duration::from_secs(60);

/// The engine process, its input, and its output lines.
pub struct Engine {
    /// The process.
    pub child: Child,
    /// The engine's input; `None` once [`Engine::close_input`] closed it.
    pub stdin: Option<ChildStdin>,
    /// Its output, line by line, from a reader thread.
    pub lines: Receiver<String>,
}

impl Engine {
    /// Starts the binary under test with piped stdin and stdout.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    /// Sends one command line.
    pub fn send(&mut self, cmd: &str) {
        let stdin = self.stdin.as_mut().expect("the input is open");
        writeln!(stdin, "{cmd}").expect("engine reads");
        stdin.flush().expect("flush");
    }

    /// Reads lines until one satisfies `pred`; returns every line read.
    pub fn until(&mut self, pred: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    // The session's safety net replaces an illegal best move
                    // and says so: that is a search bug, never acceptable.
                    assert!(
                        !line.contains("search bug"),
                        "the bestmove safety net was used: {line}; lines so far: {seen:#?}"
                    );
                    let done = pred(&line);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; lines so far: {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; lines: {seen:#?}"),
            }
        }
    }

    /// The next line that starts with `prefix` (lines before it skipped).
    pub fn expect(&mut self, prefix: &str) -> String {
        let lines = self.until(|l| l.starts_with(prefix), EXPECT_TIMEOUT);
        lines.last().cloned().unwrap_or_default()
    }

    /// Reads up to the `bestmove` line: the move it names and every line read.
    pub fn bestmove(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let lines = self.until(|l| l.starts_with("bestmove"), timeout);
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or_default()
            .to_string();
        (best, lines)
    }

    /// Closes the engine's input, as a GUI that exits without `quit` does.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Sends `quit` and checks that the process exits cleanly within 5 s.
    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("engine did not quit");
    }
}

impl Drop for Engine {
    /// An engine a test leaves behind (or that failed) is told to quit and
    /// reaped, so no process outlives the test.
    fn drop(&mut self) {
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = writeln!(stdin, "quit");
        }
        let _ = self.child.wait();
    }
}
