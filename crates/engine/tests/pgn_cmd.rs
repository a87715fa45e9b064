//! `fianchetto pgn FILE --stats` prints exactly `games`, `plies`, `errors`
//! and `warnings` (then a speed line), reports each malformed game on
//! standard error and goes on, and counts as python-chess does on every
//! file of the movegen crate's PGN corpus; without `--stats` it writes the
//! games back as PGN.

use common::run;
use std::path::PathBuf;

mod common;

const PGN: &str = "[Event \"one\"]\n[Result \"1-0\"]\n\n\
    1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 {oops} 4. Qxf7# 1-0\n\n\
    [Event \"two: an illegal move\"]\n\n1. e4 e5 2. Ke3 *\n\n\
    [Event \"three\"]\n\n1. d4 (1. c4 e5) 1... d5 2. c4 $1 *\n\n\
    [Event \"four: an illegal move in a variation\"]\n\n1. d4 (1. Qh5) 1... d5 *\n";

/// A file in the temporary directory holding `text`.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("fianchetto-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn stats_counts_games_plies_and_errors() {
    let path = temp_file("stats.pgn", PGN);
    let path_text = path.to_string_lossy().to_string();
    let out = run(&["pgn", &path_text, "--stats"], "");
    assert!(out.status.success(), "{out:?}");
    let stdout = lines(&out.stdout);
    // Games one (7 plies) and three (3 plies) read; two and four do not.
    assert_eq!(
        stdout[..4],
        ["games 4", "plies 10", "errors 2", "warnings 0"],
        "{stdout:?}"
    );
    assert_eq!(stdout.len(), 5, "{stdout:?}");
    assert!(stdout[4].starts_with("speed ") && stdout[4].contains("games/s"));
    let stderr = lines(&out.stderr);
    assert_eq!(stderr.len(), 2, "{stderr:?}");
    assert!(
        stderr[0].starts_with("error: game 2, line 8, at `Ke3`: "),
        "{stderr:?}"
    );
    assert!(
        stderr[1].starts_with("error: game 4, line 16, at `Qh5`: "),
        "{stderr:?}"
    );

    // Without checking variations, game four reads; `--quiet` prints no errors.
    let out = run(
        &["pgn", &path_text, "--stats", "--skip-variations", "--quiet"],
        "",
    );
    assert_eq!(lines(&out.stdout)[..3], ["games 4", "plies 12", "errors 1"]);
    assert!(out.stderr.is_empty(), "{:?}", lines(&out.stderr));

    // From standard input, on another backend.
    let out = run(
        &["pgn", "-", "--stats", "--backend", "mailbox", "--quiet"],
        PGN,
    );
    assert_eq!(lines(&out.stdout)[..3], ["games 4", "plies 10", "errors 2"]);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn without_stats_the_games_are_written_back() {
    let out = run(&["pgn", "-", "--quiet"], PGN);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
    assert!(
        text.contains("\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 { oops } 4. Qxf7# 1-0\n"),
        "{text}"
    );
    assert!(
        text.contains("\n\n1. d4 (1. c4 e5) 1... d5 2. c4 $1 *\n"),
        "{text}"
    );
    // What it writes reads again without error.
    let again = run(&["pgn", "-", "--stats", "--quiet"], &text);
    assert_eq!(
        lines(&again.stdout)[..3],
        ["games 2", "plies 10", "errors 0"]
    );
}

/// The counts `--stats` prints for the corpus files equal python-chess's,
/// which `python-chess.py` wrote into `python-chess.txt` beside them.
#[test]
fn stats_agree_with_python_chess_on_the_corpus() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../movegen/tests/data/pgn");
    let expected = std::fs::read_to_string(dir.join("python-chess.txt"))
        .unwrap_or_else(|e| panic!("python-chess.txt: {e}"));
    let mut files = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [name, games, errors, plies] = fields[..] else {
            panic!("bad line {line:?}");
        };
        let path = dir.join(name).to_string_lossy().to_string();
        let out = run(&["pgn", &path, "--stats", "--quiet"], "");
        assert!(out.status.success(), "{name}: {out:?}");
        assert_eq!(
            lines(&out.stdout)[..3],
            [
                format!("games {games}"),
                format!("plies {plies}"),
                format!("errors {errors}")
            ],
            "{name}"
        );
        files += 1;
    }
    assert!(files >= 12);
}

#[test]
fn a_missing_file_is_a_clear_error() {
    let out = run(&["pgn", "/nonexistent/games.pgn", "--stats"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: cannot open /nonexistent/games.pgn: "),
        "{stderr}"
    );
}
