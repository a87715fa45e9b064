//! Replays the fuzzing seed corpus (`tests/corpus/{fen,san,uci_move,game}/`)
//! through the same checks the cargo-fuzz targets in `fuzz/` run, so that
//! every input the fuzzers ever found interesting stays a regression test
//! in a plain `cargo test`.
//!
//! The `fuzz_*` functions below are the fuzz targets' bodies: `fuzz/`
//! includes this file as a module and calls them on every input. They
//! return normally on inputs that are rejected with an error and panic
//! (which the fuzzer reports as a crash) only when a property fails.
//!
//! Input formats:
//! - `fen`: the whole input is FEN text.
//! - `san`, `uci_move`: a FEN, a newline, then the move text. Without a
//!   newline the whole input is the move text, read in the start position.
//! - `game`: a FEN, a newline, then bytes that each pick a legal move.
//!   Without a newline every byte picks a move from the start position.

use fianchetto_board::{validate, Bitboards, Board, CastlingMode, Setup};
use fianchetto_movegen::{parse_san, parse_uci, san_line, to_san, to_uci, Game, MoveGen, SanError};
use std::path::Path;

/// Inputs that are not UTF-8 are skipped: every API under test takes `&str`.
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Splits `FEN\nmove` into the position and the move text.
fn position_and_move(data: &[u8]) -> Option<(Bitboards, &str)> {
    let s = text(data)?;
    match s.split_once('\n') {
        None => Some((Bitboards::startpos(), s)),
        Some((fen, mv)) => Bitboards::from_fen(fen).ok().map(|b| (b, mv)),
    }
}

/// FEN parsing: no panic; what parses writes back and re-reads to the same
/// thing; a valid position can generate, write and read back its moves.
pub fn fuzz_fen(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(setup) = Setup::from_fen(s) {
        let fen = setup.to_fen();
        let again = Setup::from_fen(&fen)
            .unwrap_or_else(|e| panic!("{s:?} wrote {fen:?}, which does not parse: {e}"));
        assert_eq!(again, setup, "{s:?} -> {fen:?} changed the setup");
        assert_eq!(again.to_fen(), fen);
    }
    if let Ok(board) = Bitboards::from_fen(s) {
        let fen = board.fen();
        let again = Bitboards::from_fen(&fen)
            .unwrap_or_else(|e| panic!("{s:?} wrote {fen:?}, which does not load: {e}"));
        assert_eq!(again.fen(), fen, "{s:?}");
        assert_eq!(
            again.hash(),
            board.hash(),
            "{s:?}: hash differs after a FEN round trip"
        );
        check_moves(&board);
    }
    fuzz_fen_960(s);
}

/// The same text read as Chess960 (X-FEN or Shredder-FEN castling): no
/// panic; a valid position round-trips through both FEN forms, and its
/// moves through UCI king-takes-rook text.
fn fuzz_fen_960(s: &str) {
    let mode = CastlingMode::Chess960;
    if let Ok(setup) = Setup::from_fen_with(s, mode) {
        if let Ok(valid) = validate(&setup) {
            for fen in [valid.to_fen(), valid.to_shredder_fen()] {
                let again = Setup::from_fen_with(&fen, mode)
                    .unwrap_or_else(|e| panic!("{s:?} wrote {fen:?}, which does not parse: {e}"));
                assert_eq!(again, valid, "{s:?} -> {fen:?} changed the setup");
            }
        }
    }
    if let Ok(board) = Bitboards::from_fen_with(s, mode) {
        let fen = board.fen();
        let again = Bitboards::from_fen_with(&fen, mode)
            .unwrap_or_else(|e| panic!("{s:?} wrote {fen:?}, which does not load: {e}"));
        assert_eq!((again.fen(), again.hash()), (fen, board.hash()), "{s:?}");
        for &mv in &board.legal_moves() {
            let text = to_uci(&board, mv, true);
            assert_eq!(parse_uci(&board, &text), Ok(mv), "UCI {text} in {s:?}");
            let san = to_san(&board, mv);
            assert_eq!(parse_san(&board, &san), Ok(mv), "SAN {san} in {s:?}");
        }
    }
}

/// Every legal move of `board` passes [`check_move`].
fn check_moves(board: &Bitboards) {
    for &mv in &board.legal_moves() {
        check_move(board, mv);
    }
}

/// The legal move `mv` round-trips through SAN and UCI, and the position
/// after it writes a FEN that loads again with the same hash.
fn check_move(board: &Bitboards, mv: fianchetto_board::Move) {
    let fen = board.fen();
    let san = to_san(board, mv);
    assert_eq!(parse_san(board, &san), Ok(mv), "SAN {san} in {fen}");
    let uci = mv.to_string();
    assert_eq!(parse_uci(board, &uci), Ok(mv), "UCI {uci} in {fen}");
    let mut after = board.clone();
    after.play(mv);
    let after_fen = after.fen();
    match Bitboards::from_fen(&after_fen) {
        Ok(reloaded) => assert_eq!(
            reloaded.hash(),
            after.hash(),
            "{uci} in {fen}: incremental hash differs from {after_fen}'s"
        ),
        Err(e) => panic!("{uci} in {fen} gives {after_fen}, which does not load: {e}"),
    }
}

/// SAN parsing: no panic; an accepted move is legal and writes back to SAN
/// that reads as the same move; an error names the position, and an
/// ambiguity lists at least two candidates that each read unambiguously.
pub fn fuzz_san(data: &[u8]) {
    let Some((board, text)) = position_and_move(data) else {
        return;
    };
    let fen = board.fen();
    match parse_san(&board, text) {
        Ok(mv) => {
            assert!(
                board.is_legal(mv),
                "{text:?} gave the illegal {mv} in {fen}"
            );
            let san = to_san(&board, mv);
            assert_eq!(
                parse_san(&board, &san),
                Ok(mv),
                "{text:?} -> {san} in {fen}"
            );
            let mut game = Game::new(board.clone());
            assert_eq!(game.play_san(text), Ok(mv));
        }
        Err(e) => {
            assert!(e.to_string().contains(&fen), "{e}");
            if let SanError::Ambiguous { candidates, .. } = e {
                assert!(candidates.len() >= 2, "{text:?} in {fen}: {candidates:?}");
                for c in candidates {
                    assert!(
                        parse_san(&board, &c).is_ok(),
                        "candidate {c} of {text:?} in {fen}"
                    );
                }
            }
        }
    }
}

/// UCI move parsing: no panic; an accepted move is legal, and its UCI text
/// reads as the same move.
pub fn fuzz_uci_move(data: &[u8]) {
    let Some((board, text)) = position_and_move(data) else {
        return;
    };
    let fen = board.fen();
    match parse_uci(&board, text) {
        Ok(mv) => {
            assert!(
                board.is_legal(mv),
                "{text:?} gave the illegal {mv} in {fen}"
            );
            assert_eq!(
                parse_uci(&board, &mv.to_string()),
                Ok(mv),
                "{text:?} in {fen}"
            );
            let mut game = Game::new(board.clone());
            assert_eq!(game.play_uci(text), Ok(mv));
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// Random play: a FEN line (or none: the start position), then every byte
/// picks one of the legal moves. Each move played round-trips through SAN
/// and UCI and gives a position whose FEN loads with the same hash, so the
/// fuzzer explores positions that only play reaches (castling rights lost,
/// en passant, promotions, clocks); the final position gets [`fuzz_fen`]'s
/// checks on every legal move, and the game's SAN line reads back.
pub fn fuzz_game(data: &[u8]) {
    let (mut board, choices) = match data.iter().position(|&b| b == b'\n') {
        None => (Bitboards::startpos(), data),
        Some(i) => {
            let Some(fen) = text(&data[..i]) else { return };
            let Ok(board) = Bitboards::from_fen(fen) else {
                return;
            };
            (board, &data[i + 1..])
        }
    };
    let start = board.clone();
    let mut played = Vec::new();
    for &choice in choices {
        let legal = board.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[usize::from(choice) % legal.len()];
        check_move(&board, mv);
        board.play(mv);
        played.push(mv);
    }
    check_moves(&board);
    let line = san_line(&start, &played).unwrap_or_else(|e| panic!("{e}"));
    let mut game = Game::new(start.clone());
    for token in line.split_whitespace().filter(|t| !t.ends_with('.')) {
        game.play_san(token)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    assert_eq!(game.moves(), &played[..], "{line}");
}

/// Runs `check` on every file of `tests/corpus/<name>/`; returns how many.
fn replay(name: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut count = 0;
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .path();
        if !path.is_file() {
            continue;
        }
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Name the file if a check fails: the panic message alone may not.
        let result = std::panic::catch_unwind(|| check(&data));
        if let Err(cause) = result {
            eprintln!("corpus file {} failed", path.display());
            std::panic::resume_unwind(cause);
        }
        count += 1;
    }
    count
}

#[test]
fn fen_corpus() {
    assert!(replay("fen", fuzz_fen) >= 100);
}

/// The hand-written FEN seeds say in their names whether they should load:
/// `valid-*` and `perft-*` must, `bad-*` must not.
#[test]
fn fen_corpus_names_tell_the_truth() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/fen");
    let mut wrong = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let loads = text(&data).is_some_and(|s| Bitboards::from_fen(s).is_ok());
        let should = if name.starts_with("valid-") || name.starts_with("perft-") {
            Some(true)
        } else if name.starts_with("bad-") {
            Some(false)
        } else {
            // `lenient-*`: accepted though not strictly FEN; fuzzer finds.
            None
        };
        if should.is_some_and(|s| s != loads) {
            wrong.push(name);
        }
    }
    assert!(
        wrong.is_empty(),
        "these seeds do not behave as named: {wrong:?}"
    );
}

#[test]
fn san_corpus() {
    assert!(replay("san", fuzz_san) >= 20);
}

#[test]
fn game_corpus() {
    assert!(replay("game", fuzz_game) >= 5);
}

#[test]
fn uci_move_corpus() {
    assert!(replay("uci_move", fuzz_uci_move) >= 10);
}
