//! `fianchetto book FILE [--fen FEN]`: the moves a Polyglot opening book
//! gives for a position.

use super::CommandError;
use crate::say;
use fianchetto_board::{Bitboards, Board, START_FEN};
use fianchetto_movegen::polyglot::Book;
use std::path::PathBuf;

/// Arguments of `fianchetto book`.
#[derive(Debug, clap::Args)]
pub struct BookArgs {
    /// The Polyglot book (`.bin`).
    pub file: PathBuf,
    /// The position to look up (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
}

/// The lines `book` prints: `<uci move> <weight>` for each legal move of
/// weight at least 1 the book gives, highest weight first, moves of equal
/// weight in the book's file order (python-chess's `find_all` order, sorted
/// stably by weight). None when the position is not in the book.
pub fn lines(args: &BookArgs) -> Result<Vec<String>, CommandError> {
    let board = Bitboards::from_fen(&args.fen)?;
    let book = Book::open(&args.file).map_err(|e| CommandError::Usage(e.to_string()))?;
    Ok(book
        .ranked_moves(&board)
        .iter()
        .map(|m| format!("{} {}", m.mv, m.weight))
        .collect())
}

/// Runs `book`: prints [`lines`], or a note on standard error when the
/// position is not in the book.
pub fn run(args: &BookArgs) -> Result<(), CommandError> {
    let lines = lines(args)?;
    if lines.is_empty() {
        eprintln!("the position is not in the book");
    }
    for line in lines {
        say!("{line}");
    }
    Ok(())
}
