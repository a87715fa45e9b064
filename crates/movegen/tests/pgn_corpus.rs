//! The PGN corpus of `tests/data/pgn`: files of each kind that real
//! programs write (byte-order marks, blank lines, escapes, broken tag
//! brackets, missing results, Chess960, null moves, UCI moves, variants,
//! comment commands, errors to recover from, and ugly hand-edited files).
//! On every file the reader counts the same games, errors and main-line
//! plies as python-chess (`python-chess.txt`, made by `python-chess.py`
//! beside it), as `fianchetto pgn FILE --stats` counts them.

use fianchetto_board::Bitboards;
use fianchetto_movegen::pgn::{ReadError, Reader, Replay};
use std::path::Path;

/// What `fianchetto pgn --stats` counts: games, errors, and the plies of
/// the games read without error; and the errors' messages.
fn stats(path: &Path) -> ((u64, u64, u64), Vec<String>) {
    let mut reader = Reader::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut replay = Replay::<Bitboards>::new().check_variations(true);
    let (mut plies, mut errors) = (0, Vec::new());
    loop {
        match reader.read_game(&mut replay) {
            Ok(Some(game)) => plies += u64::from(game.plies),
            Ok(None) => break,
            Err(ReadError::Game(e)) => errors.push(e.to_string()),
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
    ((reader.games_read(), reader.errors(), plies), errors)
}

#[test]
fn every_file_counts_as_python_chess_counts_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn");
    let expected = std::fs::read_to_string(dir.join("python-chess.txt"))
        .unwrap_or_else(|e| panic!("python-chess.txt: {e}"));
    let mut listed = Vec::new();
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [name, games, errors, plies] = fields[..] else {
            panic!("bad line {line:?}");
        };
        let number = |s: &str| -> u64 { s.parse().unwrap_or_else(|e| panic!("{line}: {e}")) };
        let want = (number(games), number(errors), number(plies));
        let (got, errors) = stats(&dir.join(name));
        assert_eq!(
            got, want,
            "{name}: (games, errors, plies) against python-chess; errors: {errors:#?}"
        );
        listed.push(name.to_string());
    }
    // Every file of the corpus is compared (a new one needs the script run).
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".pgn"))
        .collect();
    files.sort();
    listed.sort();
    assert_eq!(files, listed, "run python-chess.py to count the new files");
    assert!(files.len() >= 12);
}
