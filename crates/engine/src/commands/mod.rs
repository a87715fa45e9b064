//! One module per subcommand of the `fianchetto` binary. Each has a clap
//! `Args` struct and a `run` function returning the process exit code.

pub mod ablate;
pub mod analyse;
pub mod bench;
pub mod book;
pub mod data;
pub mod datagen;
pub mod engine_match;
pub mod eval;
pub mod fit_probcut;
pub mod flags;
pub mod genfens;
pub mod perft;
pub mod pgn;
pub mod play;
pub mod spsa_params;
pub mod svg;
pub mod syzygy;
pub mod train;
pub mod tune;

/// `println!` for subcommands: a closed standard output (`fianchetto perft 6 | head -1`)
/// becomes a [`CommandError::Io`] instead of a panic.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err($crate::commands::CommandError::from)?
    }};
}

/// A user-facing failure of a subcommand: printed as one line, exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// A FEN that does not parse or is impossible.
    #[error("invalid FEN: {0}")]
    Fen(#[from] fianchetto_board::FenError),
    /// A move that does not parse or is illegal.
    #[error("{0}")]
    Move(String),
    /// Anything else the user can fix, described.
    #[error("{0}")]
    Usage(String),
    /// Reading or writing a file failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
