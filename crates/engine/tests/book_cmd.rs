//! Polyglot books in the engine: the `book` subcommand, and the `OwnBook`,
//! `BookFile` and `BookBestMove` UCI options, on books written by the test.

use fianchetto_board::{Bitboards, Board};
use fianchetto_engine::uci::{Output, Session};
use fianchetto_movegen::parse_uci;
use fianchetto_movegen::polyglot::{Book, BookEntry};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const CASTLE_FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

/// A fresh path under Cargo's temporary directory for integration tests.
fn temp_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("book-cmd-{}-{name}", std::process::id()))
}

/// Writes a book: the start position with e2e4 (weight 10), d2d4 (30),
/// g1f3 (10), c2c4 (0: deleted); after 1.e4, e7e5 (5); and in
/// [`CASTLE_FEN`], castling short (written e1h1, weight 7).
fn write_book(name: &str) -> PathBuf {
    let start = Bitboards::startpos();
    let entry = |board: &Bitboards, uci: &str, weight| {
        BookEntry::new(board, parse_uci(board, uci).unwrap(), weight)
    };
    let mut after_e4 = start.clone();
    after_e4.play_unchecked(parse_uci(&after_e4, "e2e4").unwrap());
    let castle = Bitboards::from_fen(CASTLE_FEN).unwrap();
    let book = Book::from_entries(vec![
        entry(&start, "e2e4", 10),
        entry(&start, "d2d4", 30),
        entry(&start, "g1f3", 10),
        entry(&start, "c2c4", 0),
        entry(&after_e4, "e7e5", 5),
        entry(&castle, "e1g1", 7),
    ]);
    let path = temp_path(name);
    std::fs::write(&path, book.to_bytes()).unwrap();
    path
}

fn run_book(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .arg("book")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn book_subcommand_lists_moves_by_weight() {
    let path = write_book("cli.bin");
    let file = path.to_str().unwrap();
    // Highest weight first; e2e4 and g1f3 (equal weights) in file order;
    // the deleted c2c4 left out.
    let (code, out, _) = run_book(&[file]);
    assert_eq!(code, 0);
    assert_eq!(out, "d2d4 30\ne2e4 10\ng1f3 10\n");
    let (code, out, _) = run_book(&[file, "--fen", CASTLE_FEN]);
    assert_eq!((code, out.as_str()), (0, "e1g1 7\n"));
    // Not in the book: nothing listed, a note on standard error.
    let (code, out, err) = run_book(&[file, "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("not in the book"), "{err}");
    // Bad input: a clear message and exit code 2, no panic.
    let (code, _, err) = run_book(&[file, "--fen", "not a fen"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: invalid FEN"), "{err}");
    let truncated = temp_path("cli-truncated.bin");
    std::fs::write(&truncated, [0u8; 20]).unwrap();
    let (code, _, err) = run_book(&[truncated.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not a multiple of 16"), "{err}");
    let (code, _, err) = run_book(&["/no/such/book.bin"]);
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/book.bin"), "{err}");
    for p in [path, truncated] {
        let _ = std::fs::remove_file(p);
    }
}

/// What a session writes, kept for the test to read.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    /// Every line written so far, emptying the buffer.
    fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Lines until a `bestmove` (waiting for a search thread), emptying the
    /// buffer.
    fn until_bestmove(&self) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut lines = Vec::new();
        loop {
            lines.extend(self.take());
            if lines.iter().any(|l| l.starts_with("bestmove")) {
                return lines;
            }
            assert!(Instant::now() < deadline, "no bestmove: {lines:#?}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

fn session() -> (Session, Capture) {
    let capture = Capture::default();
    let session = Session::new(Output::new(Box::new(capture.clone())));
    (session, capture)
}

fn bestmove(lines: &[String]) -> &str {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_default()
}

#[test]
fn own_book_answers_go_from_the_book() {
    let path = write_book("uci.bin");
    let (mut s, out) = session();
    s.handle_line("uci");
    let lines = out.take();
    for want in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookBestMove type check default false",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want}: {lines:#?}");
    }
    s.handle_line(&format!("setoption name BookFile value {}", path.display()));
    let lines = out.take();
    assert!(
        lines[0].starts_with("info string loaded book") && lines[0].contains("(6 entries)"),
        "{lines:?}"
    );

    // OwnBook off: a search.
    s.handle_line("go depth 1");
    let lines = out.until_bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");

    // OwnBook on, best move: d2d4 at once, no search.
    s.handle_line("setoption name OwnBook value true");
    s.handle_line("setoption name BookBestMove value true");
    s.handle_line("go wtime 1000 btime 1000");
    let lines = out.take();
    assert_eq!(
        lines,
        [
            "info string book move d2d4 weight 30 of 50",
            "bestmove d2d4"
        ]
    );

    // Weighted choice: only book moves of weight >= 1, and over many
    // tries each of them.
    s.handle_line("setoption name BookBestMove value false");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        s.handle_line("go depth 5");
        let lines = out.take();
        assert_eq!(lines.len(), 2, "{lines:?}");
        seen.insert(bestmove(&lines).to_string());
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["d2d4", "e2e4", "g1f3"]
    );

    // After 1.e4 the book has one reply; after 1.e4 e5 none: a search.
    s.handle_line("position startpos moves e2e4");
    s.handle_line("go depth 3");
    assert_eq!(bestmove(&out.take()), "e7e5");
    s.handle_line("position startpos moves e2e4 e7e5");
    s.handle_line("go depth 1");
    let lines = out.until_bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );

    // Castling from the book, written as the king's move, or as king
    // takes rook with UCI_Chess960.
    s.handle_line(&format!("position fen {CASTLE_FEN}"));
    s.handle_line("go depth 3");
    assert_eq!(bestmove(&out.take()), "e1g1");
    s.handle_line("setoption name UCI_Chess960 value true");
    s.handle_line(&format!("position fen {CASTLE_FEN}"));
    s.handle_line("go depth 3");
    assert_eq!(bestmove(&out.take()), "e1h1");
    s.handle_line("setoption name UCI_Chess960 value false");

    // Analysis searches even in the book.
    s.handle_line("position startpos");
    s.handle_line("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    s.handle_line("stop");
    let lines = out.until_bestmove();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    s.handle_line("go depth 2 searchmoves a2a3");
    assert_eq!(bestmove(&out.until_bestmove()), "a2a3");

    // Pondering on a book position: the move waits for `ponderhit`.
    s.handle_line("setoption name BookBestMove value true");
    s.handle_line("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(30));
    let lines = out.take();
    assert_eq!(lines, ["info string book move d2d4 weight 30 of 50"]);
    s.handle_line("ponderhit");
    assert_eq!(bestmove(&out.until_bestmove()), "d2d4");

    // A bad BookFile: an error, and the previous book stays.
    let unsorted = temp_path("uci-unsorted.bin");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.rotate_left(16);
    std::fs::write(&unsorted, &bytes).unwrap();
    for bad in [unsorted.display().to_string(), "/no/such/book.bin".into()] {
        s.handle_line(&format!("setoption name BookFile value {bad}"));
        let lines = out.take();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("info string error: BookFile")
                && lines[0].ends_with("the previous book stays"),
            "{lines:?}"
        );
        s.handle_line("go depth 1");
        assert_eq!(bestmove(&out.take()), "d2d4");
    }

    // An empty BookFile drops the book: a search again.
    s.handle_line("setoption name BookFile value <empty>");
    assert!(out.take().is_empty());
    s.handle_line("go depth 1");
    let lines = out.until_bestmove();
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    s.handle_line("quit");
    for p in [path, unsorted] {
        let _ = std::fs::remove_file(p);
    }
}
