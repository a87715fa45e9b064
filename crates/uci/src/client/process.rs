//! The engine's process: its input, a thread that reads its output into a
//! channel (so that every read can time out), and the last lines it wrote.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How many of the engine's last lines an error quotes.
const REMEMBERED: usize = 12;

/// A running engine process.
pub(crate) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The last lines read, for error messages.
    recent: VecDeque<String>,
}

/// Why no line came.
pub(crate) enum NoLine {
    /// The time ran out.
    Timeout,
    /// The engine closed its output (it has ended).
    Closed,
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
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Engines are not always valid UTF-8; a bad byte
                        // must not end the conversation.
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
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
        })
    }

    /// Writes one line; an error means the engine has gone.
    pub(crate) fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// The next line, waiting until `deadline` at most (`None`: forever).
    pub(crate) fn recv(&mut self, deadline: Option<Instant>) -> Result<String, NoLine> {
        let line = match deadline {
            None => self.lines.recv().map_err(|_| NoLine::Closed)?,
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                self.lines.recv_timeout(left).map_err(|e| match e {
                    RecvTimeoutError::Timeout => NoLine::Timeout,
                    RecvTimeoutError::Disconnected => NoLine::Closed,
                })?
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
