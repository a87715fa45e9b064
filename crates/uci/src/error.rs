//! What is wrong with a line of protocol text.

use fianchetto_movegen::ParseUciMoveError;

/// A line that is not a valid command or reply. The message names the
/// command, the keyword and the text that is wrong, so that a user typing
/// by hand (or reading an engine's log) can fix it.
///
/// ```
/// use fianchetto_uci::Command;
/// let err = "go depth x".parse::<Command>().unwrap_err();
/// assert_eq!(err.to_string(), "`go`: `depth` expects a non-negative whole number, got `x`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A blank line (the protocol says to ignore it).
    #[error("empty line")]
    Empty,
    /// The first word is not a command (or reply) of the protocol.
    #[error("unknown {kind} `{word}`")]
    Unknown {
        /// `command` or `reply`.
        kind: &'static str,
        /// The word.
        word: String,
    },
    /// A keyword needs a value that is missing.
    #[error("`{command}`: `{keyword}` needs a value")]
    MissingValue {
        /// The command.
        command: &'static str,
        /// The keyword.
        keyword: String,
    },
    /// A value is not a number of the kind the keyword takes.
    #[error("`{command}`: `{keyword}` expects {expected}, got `{value}`")]
    BadNumber {
        /// The command.
        command: &'static str,
        /// The keyword.
        keyword: String,
        /// The text given.
        value: String,
        /// What would have been valid.
        expected: &'static str,
    },
    /// A word that is not one of the command's keywords.
    #[error("`{command}`: unexpected `{word}`; expected {expected}")]
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        word: String,
        /// What would have been valid there.
        expected: &'static str,
    },
    /// A move in a list is not UCI notation.
    #[error("`{command}`: move {index} after `{keyword}`: {source}")]
    BadMove {
        /// The command.
        command: &'static str,
        /// The keyword the list follows (`moves`, `searchmoves`, …).
        keyword: String,
        /// Its place in the list, from 1.
        index: usize,
        /// What is wrong with it.
        source: ParseUciMoveError,
    },
}
