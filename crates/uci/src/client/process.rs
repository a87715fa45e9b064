//! The engine's process: its input, a thread that reads its output into a
//! channel (so that every read can time out), and the last lines it wrote.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How many of the engine's last lines an error quotes.
const REMEMBERED: usize = 12;

/// The longest line an engine may write, in bytes (its newline not
/// counted): 1 MiB. A longer one is a fault of that engine
/// ([`ClientError::LineTooLong`](super::ClientError::LineTooLong)), found
/// once this many bytes are read, so memory stays bounded however much it
/// writes.
pub const MAX_LINE: usize = 1 << 20;

/// What the reader thread passes on.
enum FromEngine {
    /// One line, without its line ending.
    Line(String),
    /// A line longer than [`MAX_LINE`]: nothing more is read.
    TooLong,
}

/// A running engine process.
pub(crate) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<FromEngine>,
    /// The last lines read, for error messages.
    recent: VecDeque<String>,
    /// Whether the engine wrote a line longer than [`MAX_LINE`]: the
    /// conversation is over.
    too_long: bool,
}

/// Why no line came.
pub(crate) enum NoLine {
    /// The time ran out.
    Timeout,
    /// The engine closed its output (it has ended).
    Closed,
    /// The engine wrote a line longer than [`MAX_LINE`].
    TooLong,
}

impl Process {
    /// Starts `program` with `args`; its standard error goes to ours when
    /// `stderr` is set, nowhere otherwise.
    pub(crate) fn spawn(program: &str, args: &[String], stderr: bool) -> std::io::Result<Process> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other(
                "the engine's pipes could not be opened",
            ));
        };
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                // At most one byte past the limit and its newline: enough to
                // tell a line that is too long, never more.
                let mut bounded = (&mut reader).take(MAX_LINE as u64 + 2);
                match bounded.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let body = buf.strip_suffix(b"\n").unwrap_or(&buf);
                        let body = body.strip_suffix(b"\r").unwrap_or(body);
                        if body.len() > MAX_LINE {
                            let _ = tx.send(FromEngine::TooLong);
                            break;
                        }
                        // Engines are not always valid UTF-8; a bad byte
                        // must not end the conversation.
                        let line = String::from_utf8_lossy(body).into_owned();
                        if tx.send(FromEngine::Line(line)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
            recent: VecDeque::with_capacity(REMEMBERED),
            too_long: false,
        })
    }

    /// Writes one line; an error means the engine has gone.
    pub(crate) fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// The next line, waiting until `deadline` at most (`None`: forever).
    pub(crate) fn recv(&mut self, deadline: Option<Instant>) -> Result<String, NoLine> {
        if self.too_long {
            return Err(NoLine::TooLong);
        }
        let read = match deadline {
            None => self.lines.recv().map_err(|_| NoLine::Closed)?,
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                self.lines.recv_timeout(left).map_err(|e| match e {
                    RecvTimeoutError::Timeout => NoLine::Timeout,
                    RecvTimeoutError::Disconnected => NoLine::Closed,
                })?
            }
        };
        let line = match read {
            FromEngine::Line(line) => line,
            FromEngine::TooLong => {
                self.too_long = true;
                return Err(NoLine::TooLong);
            }
        };
        if self.recent.len() == REMEMBERED {
            self.recent.pop_front();
        }
        self.recent.push_back(line.clone());
        Ok(line)
    }

    /// The last lines read.
    pub(crate) fn recent(&self) -> Vec<String> {
        self.recent.iter().cloned().collect()
    }

    /// How the process ended, waiting up to `wait` for it to end; `None`
    /// if it is still running.
    pub(crate) fn exit_status(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => return None,
            }
        }
    }

    /// Ends the process: `quit`, then a kill if it is still there after
    /// `wait`. The process is always reaped.
    pub(crate) fn shut_down(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        let _ = self.send("quit");
        if let Some(status) = self.exit_status(wait) {
            return Some(status);
        }
        let _ = self.child.kill();
        self.child.wait().ok()
    }
}
