//! Replays the fuzzing seed corpus (`tests/corpus/{fen,san,uci_move,game,pgn,epd}/`)
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
//! - `pgn`: the whole input is a PGN file (any bytes).
//! - `epd`: the whole input is an EPD file, one record a line.

use fianchetto_board::{validate, Bitboards, Board, CastlingMode, FenOptions, Setup};
use fianchetto_movegen::epd::Epd;
use fianchetto_movegen::pgn::{
    Flow, GameResult, PgnError, PgnGame, PgnWarning, ReadError, Reader, Replay, Replayed, Visit,
    Visitor,
};
use fianchetto_movegen::uci::UciMove;
use fianchetto_movegen::{
    parse_san, parse_uci, san_line, to_san, to_uci, Game, MoveGen, San, SanError,
};
use std::io::BufReader;
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
    fuzz_fen_lenient(s);
}

/// The same text read leniently: no panic; what strict reading accepts as
/// a valid position, lenient reading accepts as the same position (once
/// validated: both keep an en-passant square no pawn can capture on, which
/// validation drops); what lenient reading
/// accepts is repaired into a valid position whose FEN reads strictly to
/// the same setup, and a board loads from it with the same hash.
fn fuzz_fen_lenient(s: &str) {
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let options = FenOptions::LENIENT.with_castling_mode(mode);
        let lenient = Setup::from_fen_with_options(s, options);
        if let Ok(strict) = Setup::from_fen_with(s, mode) {
            if let Ok(valid) = validate(&strict) {
                let repaired = lenient.as_ref().ok().map(validate);
                assert_eq!(repaired, Some(Ok(valid)), "{s:?} ({mode:?})");
            }
        }
        let Ok(setup) = lenient else { continue };
        let Ok(board) = Bitboards::from_fen_with_options(s, options) else {
            // Syntax repaired, but the position is still not one a board
            // holds (two kings of a colour, the side not to move in check).
            assert!(validate(&setup).is_err(), "{s:?} ({mode:?})");
            continue;
        };
        let fen = board.fen();
        let again = Bitboards::from_fen_with(&fen, mode)
            .unwrap_or_else(|e| panic!("{s:?} leniently wrote {fen:?}, which does not load: {e}"));
        assert_eq!((again.fen(), again.hash()), (fen, board.hash()), "{s:?}");
    }
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
            let text = to_uci(&board, mv, fianchetto_board::CastlingMode::Chess960);
            assert_eq!(parse_uci(&board, &text), Ok(mv), "UCI {text} in {s:?}");
            let san = to_san(&board, mv).unwrap_or_else(|e| panic!("{e}"));
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
    let san = to_san(board, mv).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parse_san(board, &san), Ok(mv), "SAN {san} in {fen}");
    let uci = mv.to_string();
    assert_eq!(parse_uci(board, &uci), Ok(mv), "UCI {uci} in {fen}");
    let mut after = board.clone();
    after.play_unchecked(mv);
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
    check_san_type(&board, text);
    match parse_san(&board, text) {
        Ok(mv) => {
            assert!(
                board.is_legal(mv),
                "{text:?} gave the illegal {mv} in {fen}"
            );
            let san = to_san(&board, mv).unwrap_or_else(|e| panic!("{e}"));
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

/// The position-free [`San`]: what it reads writes back to text that reads
/// as the same `San`, and it names the same move as [`parse_san`] (or is
/// refused exactly when `parse_san` refuses the text for its syntax).
fn check_san_type(board: &Bitboards, text: &str) {
    match San::parse(text) {
        Ok(san) => {
            let written = san.to_string();
            assert_eq!(San::parse(&written), Ok(san), "{text:?} -> {written:?}");
            assert_eq!(
                san.to_move(board).ok(),
                parse_san(board, text).ok(),
                "{text:?} in {}",
                board.fen()
            );
        }
        Err(e) => {
            assert_eq!(e.text, text);
            assert!(
                matches!(parse_san(board, text), Err(SanError::Syntax { .. })),
                "{text:?}: San::parse refuses it, parse_san does not"
            );
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
    if let Ok(uci) = UciMove::parse(text) {
        let written = uci.to_string();
        assert_eq!(UciMove::parse(&written), Ok(uci), "{text:?} -> {written:?}");
        assert_eq!(
            uci.to_move(&board),
            parse_uci(&board, text),
            "{text:?} in {fen}"
        );
    }
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
        board.play_unchecked(mv);
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

/// A game read, compared on everything the reader fills in.
#[derive(Debug)]
struct ReadGame(PgnGame<Bitboards>);

impl PartialEq for ReadGame {
    fn eq(&self, other: &ReadGame) -> bool {
        let (a, b) = (&self.0, &other.0);
        a.tags == b.tags
            && a.game.start() == b.game.start()
            && a.game.moves() == b.game.moves()
            && a.comments == b.comments
            && a.notes == b.notes
            && a.result == b.result
    }
}

/// What reading one game gave.
#[derive(Debug, PartialEq)]
enum Read {
    Game(ReadGame),
    Error(PgnError),
}

/// Every game of a PGN reader, until the end or an input error (which a
/// byte slice never gives).
fn read_games<R: std::io::BufRead>(reader: Reader<R>) -> Vec<Read> {
    reader
        .games::<Bitboards>()
        .map_while(|r| match r {
            Ok(game) => Some(Read::Game(ReadGame(game))),
            Err(ReadError::Game(e)) => Some(Read::Error(e)),
            Err(_) => None,
        })
        .collect()
}

/// [`Replay`] with the comments asked for (and dropped): the reader then
/// takes every token through its general path, where `Replay` alone has
/// most moves read by the scanner's shortcut for visitors that read no
/// comments.
struct Listening(Replay<Bitboards>);

impl Visitor for Listening {
    type Output = Replayed<Bitboards>;
    fn begin_game(&mut self) {
        self.0.begin_game();
    }
    fn tag(&mut self, name: &str, value: &str) -> Visit {
        self.0.tag(name, value)
    }
    fn wants_tag(&self, name: &str) -> bool {
        self.0.wants_tag(name)
    }
    fn end_tags(&mut self) -> Visit<Flow> {
        self.0.end_tags()
    }
    fn san(&mut self, san: &str) -> Visit {
        self.0.san(san)
    }
    fn null_move(&mut self) -> Visit {
        self.0.null_move()
    }
    fn warning(&mut self, warning: &PgnWarning) {
        self.0.warning(warning);
    }
    fn nag(&mut self, nag: u8) -> Visit {
        self.0.nag(nag)
    }
    fn comment(&mut self, _comment: &str) -> Visit {
        Ok(())
    }
    fn wants_comments(&self) -> bool {
        true
    }
    fn begin_variation(&mut self) -> Visit<Flow> {
        self.0.begin_variation()
    }
    fn end_variation(&mut self) -> Visit {
        self.0.end_variation()
    }
    fn outcome(&mut self, result: Option<GameResult>) -> Visit {
        self.0.outcome(result)
    }
    fn end_game(&mut self) -> Replayed<Bitboards> {
        self.0.end_game()
    }
}

/// Each game's replay (or error message), and the reader's counts of
/// games, errors and warnings.
type Replays = (Vec<Result<Replayed<Bitboards>, String>>, [u64; 3]);

fn replays<V: Visitor<Output = Replayed<Bitboards>>>(data: &[u8], mut visitor: V) -> Replays {
    let mut reader = Reader::from_buf_read(data).with_max_line_len(4096);
    let mut games = Vec::new();
    loop {
        match reader.read_game(&mut visitor) {
            Ok(Some(game)) => games.push(Ok(game)),
            Ok(None) => break,
            Err(e) => games.push(Err(e.to_string())),
        }
    }
    let counts = [reader.games_read(), reader.errors(), reader.warnings()];
    (games, counts)
}

/// The reader's shortcut for the moves of visitors that read no comments
/// gives what its general path gives: the same games, positions, errors
/// and warnings, with variations played or not.
pub fn check_move_shortcut(data: &[u8]) {
    for variations in [false, true] {
        let replay = || Replay::<Bitboards>::new().check_variations(variations);
        let short = replays(data, replay());
        let general = replays(data, Listening(replay()));
        assert_eq!(short, general, "variations {variations}");
    }
}

/// PGN reading: no panic, whatever the bytes. The same games and errors
/// come out whether the input arrives whole or one byte at a time; every
/// error names a game and a line. Every game read writes as PGN that reads
/// back to the same game (tags, moves, comments, NAGs, variations, result)
/// and writes again to the same text, and the lean [`Replay`] visitor
/// reads that text to the same final position.
pub fn fuzz_pgn(data: &[u8]) {
    // A small line limit keeps pathological inputs fast; it is part of what
    // is tested (the limit errors and the resynchronisation after them).
    const MAX_LINE: usize = 4096;
    let whole = read_games(Reader::from_buf_read(data).with_max_line_len(MAX_LINE));
    let bytewise = read_games(
        Reader::from_buf_read(BufReader::with_capacity(1, data)).with_max_line_len(MAX_LINE),
    );
    assert_eq!(whole, bytewise, "reading byte by byte differs");
    check_move_shortcut(data);
    for read in &whole {
        let game = match read {
            Read::Game(ReadGame(game)) => game,
            Read::Error(e) => {
                assert!(e.game >= 1 && e.line >= 1, "{e}");
                continue;
            }
        };
        let text = game
            .to_pgn()
            .unwrap_or_else(|e| panic!("a game read cannot be written: {e}"));
        let back = match read_games(Reader::from_buf_read(text.as_bytes())).as_slice() {
            [Read::Game(ReadGame(back))] => back.clone(),
            other => panic!("{text}\nreads back as {other:?}"),
        };
        // The writer adds the roster's defaults and writes FEN from the
        // position, so compare the other tags one by one.
        for (name, value) in game.tags.iter() {
            if name != "FEN" && name != "SetUp" {
                assert_eq!(back.tags.get(name), Some(value), "tag {name} in\n{text}");
            }
        }
        assert_eq!(back.game.start(), game.game.start(), "{text}");
        assert_eq!(back.game.moves(), game.game.moves(), "{text}");
        assert_eq!(back.comments, game.comments, "{text}");
        assert_eq!(back.notes, game.notes, "{text}");
        let result = game.result.unwrap_or_else(|| {
            game.tags
                .get("Result")
                .and_then(|r| r.parse().ok())
                .unwrap_or(fianchetto_movegen::pgn::GameResult::Unknown)
        });
        assert_eq!(back.result, Some(result), "{text}");
        assert_eq!(back.to_pgn().ok().as_deref(), Some(text.as_str()));
        let mut reader = Reader::from_buf_read(text.as_bytes());
        match reader.read_game(&mut Replay::<Bitboards>::new()) {
            Ok(Some(r)) => {
                assert_eq!(&r.board, game.game.board(), "{text}");
                assert_eq!(r.plies as usize, game.game.moves().len(), "{text}");
            }
            other => panic!("{text}\nreplays as {other:?}"),
        }
    }
}

/// EPD reading: no panic; every record read writes back to text that
/// reads as the same record, and writes again to the same text; an error
/// names its line.
pub fn fuzz_epd(data: &[u8]) {
    let Some(text) = text(data) else { return };
    for (i, line) in text.lines().enumerate() {
        match Epd::parse_line(line, i + 1) {
            Ok(record) => {
                let written = record.to_string();
                let back = Epd::parse(&written)
                    .unwrap_or_else(|e| panic!("{line:?} wrote {written:?}: {e}"));
                assert_eq!(back, record, "{line:?} -> {written:?}");
                assert_eq!(back.to_string(), written);
            }
            Err(e) => {
                assert_eq!(e.line, i + 1);
                assert!(e.to_string().starts_with(&format!("EPD line {}: ", i + 1)));
            }
        }
    }
}

/// Runs `check` on every file of `tests/corpus/<name>/`; returns how many.
fn replay(name: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name);
    check_files(&dir, |_| true, check)
}

/// Runs `check` on every file of `dir` that `keep` accepts; returns how
/// many. A failure names the file (the panic message alone may not).
fn check_files(dir: &Path, keep: fn(&Path) -> bool, check: fn(&[u8])) -> usize {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut count = 0;
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .path();
        if !path.is_file() || !keep(&path) {
            continue;
        }
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let result = std::panic::catch_unwind(|| check(&data));
        if let Err(cause) = result {
            eprintln!("file {} failed", path.display());
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

#[test]
fn pgn_corpus() {
    assert!(replay("pgn", fuzz_pgn) >= 10);
}

#[test]
fn epd_corpus() {
    assert!(replay("epd", fuzz_epd) >= 5);
}

/// The moves shortcut against the general path on the python-chess corpus
/// of `tests/data/pgn`, and on the tokens the shortcut hands back to the
/// general path mid-line.
#[test]
fn move_shortcut_reads_as_the_general_path() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn");
    let pgn = |path: &Path| path.extension().is_some_and(|e| e == "pgn");
    assert!(check_files(&dir, pgn, check_move_shortcut) >= 12);
    let mid_line = "1. e4 { a } d5 2. exd5 c5 3. dxc6 e.p. Nxc6 4. g1f3 Z0 5. Nf3 -- 6. Bc4 $1 e5 !? \
                    7. O-O (7. Ng5 Nh6 (7... Qf6) 8. O-O) 7... Be7 1-0 8. Re1 *\n\n\
                    1. e4 e5 2. Ke3 Nc6 3. Kd3 { x } *\n\n\
                    1. d4 d5 2. c4 Qd6 3. Qa4+ Bd7 4. Qxd7+ Nxd7 5. Nc3 0-1\n\
                    [Event \"next\"]\n\n1. e4 e5 ; line comment\n2. Nf3 Nc6 { open\nover lines } 3. Bb5 *\n\n\
                    Event \"broken\"]\n1. a3 a6 2. a4 h5 3. exf5 *\n\n\
                    1. e4 e5\nWhite \"x\"]\n2. Nf3 Nc6 *\n";
    check_move_shortcut(mid_line.as_bytes());
    let (games, counts) = replays(mid_line.as_bytes(), Replay::<Bitboards>::new());
    assert_eq!(counts[0] as usize, games.len());
    assert!(counts[1] >= 2 && counts[2] >= 2, "{counts:?}: {games:#?}");
}
