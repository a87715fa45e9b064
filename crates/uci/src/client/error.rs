//! What can go wrong when driving an engine.

use crate::{OptionError, ParseError};
use std::time::Duration;

/// An engine that could not be driven: it would not start, died, hung,
/// broke the protocol or answered with an illegal move. Each message names
/// the engine and, where there are some, ends with the last lines it wrote
/// (what usually explains a crash).
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The program could not be started.
    #[error("cannot start engine `{command}`: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// The engine's process ended (crashed, or quit by itself).
    #[error("engine {engine} terminated ({status}) while {doing}{}", last_lines(.last))]
    Terminated {
        /// The engine.
        engine: String,
        /// How it ended: an exit status, or "no exit status yet".
        status: String,
        /// What the client was waiting for.
        doing: String,
        /// The last lines it wrote.
        last: Vec<String>,
    },
    /// The engine did not answer in time.
    #[error("engine {engine} did not answer `{expected}` within {waited:?} while {doing}{}", last_lines(.last))]
    Timeout {
        /// The engine.
        engine: String,
        /// The reply waited for.
        expected: &'static str,
        /// How long.
        waited: Duration,
        /// What the client was doing.
        doing: String,
        /// The last lines it wrote.
        last: Vec<String>,
    },
    /// The engine wrote a line longer than [`MAX_LINE`](super::MAX_LINE)
    /// bytes: it is out of step for good (nothing more of it is read).
    #[error("engine {engine} wrote a line longer than {limit} bytes while {doing}{}", last_lines(.last))]
    LineTooLong {
        /// The engine.
        engine: String,
        /// The limit, in bytes.
        limit: usize,
        /// What the client was waiting for.
        doing: String,
        /// The last whole lines it wrote before.
        last: Vec<String>,
    },
    /// The engine's best move (or a move it searched) is not legal in the
    /// position it was given.
    #[error("engine {engine} answered the illegal move `{}` in {fen}: {reason}", escape(.text))]
    IllegalMove {
        /// The engine.
        engine: String,
        /// The move as written.
        text: String,
        /// The position.
        fen: String,
        /// Why it is refused.
        reason: String,
    },
    /// A reply that does not parse where a well-formed one is required
    /// (a `bestmove` line).
    #[error("engine {engine} wrote `{}`: {source}", escape(.line))]
    BadReply {
        /// The engine.
        engine: String,
        /// The line.
        line: String,
        /// What is wrong.
        source: Box<ParseError>,
    },
    /// An option the engine did not declare, or a value its declaration refuses.
    #[error("engine {engine}: {source}")]
    Option {
        /// The engine.
        engine: String,
        /// What is wrong.
        source: OptionError,
    },
    /// A request the client refuses before sending anything (a search while
    /// another runs, a position the engine cannot be given).
    #[error("engine {engine}: {problem}")]
    Usage {
        /// The engine.
        engine: String,
        /// What is wrong.
        problem: String,
    },
}

fn last_lines(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let lines: Vec<String> = lines.iter().map(|l| escape(l)).collect();
    format!("; its last lines:\n  {}", lines.join("\n  "))
}

/// `text` with every control character written out, so that an engine's
/// output quoted in a message cannot drive the terminal it is printed on:
/// ESC, BEL and the other C0 controls and DEL as `\x1b`, `\x07`, `\x7f`
/// (tab too), the C1 controls as `\u{9b}`. Everything else is kept.
pub(crate) fn escape(text: &str) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if !c.is_control() {
            out.push(c);
        } else if c.is_ascii() {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    out
}

impl ClientError {
    /// Whether the engine is gone or in an unknown state (crashed, hung,
    /// or out of step with the protocol) and must be restarted before it
    /// is used again. An illegal move or a refused option leaves it usable.
    pub fn needs_restart(&self) -> bool {
        matches!(
            self,
            ClientError::Terminated { .. }
                | ClientError::Timeout { .. }
                | ClientError::LineTooLong { .. }
                | ClientError::BadReply { .. }
        )
    }
}
