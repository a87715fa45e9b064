//! Positions for the tuners, read from either kind of file a user has: a
//! marlinformat data file (our `datagen` output) or a text file of FEN/EPD
//! lines, one position a line. The kind is told apart by content, not by
//! the file's name: a file whose first non-blank, non-`#` line starts with
//! a FEN board (eight ranks) is text.
//!
//! ```
//! use fianchetto_data::positions::{for_each_position, Annotation};
//!
//! let path = std::env::temp_dir().join(format!("positions-mod-doc-{}.epd", std::process::id()));
//! std::fs::write(&path, "# two positions\n4k3/8/8/8/8/8/8/R3K3 w Q - c9 \"1-0\";\n\n8/8/4k3/8/8/3NK3/8/8 b - - 0 1\n")?;
//! let mut seen = Vec::new();
//! for_each_position(&path, |_board, annotation| {
//!     if let Annotation::Text { line, rest } = annotation {
//!         seen.push((line, rest.to_string()));
//!     }
//!     Ok(true)
//! })?;
//! assert_eq!(seen, [(2, "c9 \"1-0\";".to_string()), (4, String::new())]);
//! # std::fs::remove_file(path)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::marlin::{DataError, RecordReader, Wdl};
use fianchetto_board::{Bitboards, Board, Setup};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why a positions file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PositionsError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A marlinformat file is damaged.
    #[error(transparent)]
    Data(#[from] DataError),
    /// A line of a text file holds no usable position.
    #[error("{path}:{line}: {why}")]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
}

impl PositionsError {
    /// The error for line `line` (1-based) of `path`.
    pub fn line(path: &Path, line: usize, why: impl Into<String>) -> PositionsError {
        PositionsError::Line {
            path: path.to_path_buf(),
            line,
            why: why.into(),
        }
    }
}

/// What the file says about a position besides the position itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Annotation<'a> {
    /// From a text file: the 1-based line number and the text after the
    /// FEN fields (EPD operations, a result, a comment; trimmed).
    Text {
        /// 1-based line number.
        line: usize,
        /// What follows the position on its line.
        rest: &'a str,
    },
    /// From a marlinformat record.
    Record {
        /// The search score, centipawns from white's point of view.
        score: i16,
        /// The game's result.
        wdl: Wdl,
    },
}

/// Calls `visit` with every position of `path`, in file order, and its
/// [`Annotation`], until `visit` returns `Ok(false)` or an error (which is
/// passed on). A marlinformat file is streamed, never held whole.
///
/// A text line is the four FEN fields of the board, side, castling and en
/// passant, then the two clocks when both are numbers, then anything;
/// blank lines and lines starting with `#` are skipped. A line that is not
/// a legal position is an error naming the file and the line.
pub fn for_each_position(
    path: &Path,
    mut visit: impl FnMut(Bitboards, Annotation<'_>) -> Result<bool, PositionsError>,
) -> Result<(), PositionsError> {
    let io = |source| PositionsError::Io {
        path: path.to_path_buf(),
        source,
    };
    if is_text_file(path).map_err(io)? {
        let text = std::fs::read_to_string(path).map_err(io)?;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: String| PositionsError::line(path, i + 1, why);
            let (fen, rest) = split_fen(line);
            let setup = Setup::from_fen(&fen).map_err(|e| bad(e.to_string()))?;
            let board = Bitboards::from_setup(&setup).map_err(|e| bad(e.to_string()))?;
            if !visit(board, Annotation::Text { line: i + 1, rest })? {
                break;
            }
        }
    } else {
        for (index, record) in RecordReader::open(path)?.enumerate() {
            let damaged = |error| DataError::Record {
                path: path.to_path_buf(),
                index: index as u64,
                error: Box::new(error),
            };
            let unpacked = record?.unpack().map_err(damaged)?;
            let board = Bitboards::from_setup(&unpacked.setup)
                .map_err(|e| damaged(DataError::Position(e)))?;
            let annotation = Annotation::Record {
                score: unpacked.score,
                wdl: unpacked.wdl,
            };
            if !visit(board, annotation)? {
                break;
            }
        }
    }
    Ok(())
}

/// Whether `path` holds FEN/EPD text rather than marlinformat records,
/// judged from its first 4 KiB.
fn is_text_file(path: &Path) -> std::io::Result<bool> {
    let mut head = Vec::with_capacity(4096);
    std::fs::File::open(path)?
        .take(4096)
        .read_to_end(&mut head)?;
    // A text file cut in the middle of a UTF-8 sequence is still text.
    let cut = head.len().saturating_sub(4);
    Ok(looks_like_text(&head) || (head.len() == 4096 && looks_like_text(&head[..cut])))
}

/// Whether `bytes` are UTF-8 whose first non-blank, non-`#` line starts
/// with a FEN board.
fn looks_like_text(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|f| f.matches('/').count() == 7)
        })
}

/// Splits a trimmed line into its FEN (four fields, or six when the two
/// after them are the clocks) and the rest of the line.
fn split_fen(line: &str) -> (String, &str) {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let clocks =
        fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    let n = if clocks { 6 } else { fields.len().min(4) };
    let fen = fields[..n].join(" ");
    // The rest starts after the n-th field, wherever the whitespace fell.
    let mut rest = line;
    for _ in 0..n {
        rest = rest.trim_start();
        rest = rest
            .find(char::is_whitespace)
            .map_or("", |end| &rest[end..]);
    }
    (fen, rest.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fen_is_four_fields_or_six_with_clocks() {
        let with_clocks = "4k3/8/8/8/8/8/8/4K3 w - - 3 40 c9 \"1-0\";";
        assert_eq!(
            split_fen(with_clocks),
            ("4k3/8/8/8/8/8/8/4K3 w - - 3 40".to_string(), "c9 \"1-0\";")
        );
        let epd = "4k3/8/8/8/8/8/8/4K3  w  - -   bm Kd2; id \"x\";";
        assert_eq!(
            split_fen(epd),
            ("4k3/8/8/8/8/8/8/4K3 w - -".to_string(), "bm Kd2; id \"x\";")
        );
        assert_eq!(
            split_fen("8/8/8/8/8/8/8/8 w"),
            ("8/8/8/8/8/8/8/8 w".to_string(), "")
        );
    }

    #[test]
    fn a_bad_line_or_a_damaged_file_is_named() {
        let dir = std::env::temp_dir();
        let id = std::process::id();
        let text = dir.join(format!("positions-bad-{id}.epd"));
        std::fs::write(
            &text,
            "4k3/8/8/8/8/8/8/4K3 w - -\n4k3/8/8/8/8/8/8/4KK2 w - -\n",
        )
        .unwrap();
        let mut read = 0;
        let err = for_each_position(&text, |_, _| {
            read += 1;
            Ok(true)
        })
        .unwrap_err();
        assert_eq!(read, 1);
        assert!(matches!(err, PositionsError::Line { line: 2, .. }), "{err}");
        assert!(
            err.to_string()
                .starts_with(&format!("{}:2: ", text.display())),
            "{err}"
        );

        let records = dir.join(format!("positions-bad-{id}.bin"));
        std::fs::write(&records, [1u8; 33]).unwrap();
        let err = for_each_position(&records, |_, _| Ok(true)).unwrap_err();
        assert!(
            matches!(err, PositionsError::Data(DataError::Truncated { .. })),
            "{err}"
        );

        let missing = dir.join(format!("positions-missing-{id}.bin"));
        let err = for_each_position(&missing, |_, _| Ok(true)).unwrap_err();
        assert!(matches!(err, PositionsError::Io { .. }), "{err}");
        std::fs::remove_file(text).unwrap();
        std::fs::remove_file(records).unwrap();
    }

    #[test]
    fn text_is_told_from_records_by_content() {
        assert!(looks_like_text(b"\n# c\n4k3/8/8/8/8/8/8/4K3 w - - 0 1\n"));
        assert!(!looks_like_text(b"e4 e5\n"));
        assert!(!looks_like_text(&[0xff, 0x00, 0x2f, 0x2f]));
    }
}
