//! Polyglot keys and books: the keys the format's specification publishes,
//! python-chess's keys for random positions, a synthetic book written and
//! read back, and (where it is installed) GNU Chess's book compared with
//! python-chess's reading of it.
//!
//! The fixtures under `tests/data/polyglot/` were made by `generate.py`
//! beside them, with python-chess as the reference.

use fianchetto_board::{Bitboards, Board, Board0x88, Mailbox, Setup};
use fianchetto_movegen::polyglot::{self, Book, BookEntry, BookError, BookMove};
use fianchetto_movegen::{parse_uci, Game, MoveGen};
use std::path::{Path, PathBuf};

/// The example positions of the Polyglot specification: moves from the
/// start position, and the key after them.
const SPEC: &[(&str, u64)] = &[
    ("", 0x463b96181691fc9c),
    ("e2e4", 0x823c9b50fd114196),
    ("e2e4 d7d5", 0x0756b94461c50fb0),
    ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
    ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
    ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
    ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
    ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
    ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
];

/// The same positions as FEN, as the specification writes them.
const SPEC_FENS: &[(&str, u64)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        0x463b96181691fc9c,
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        0x823c9b50fd114196,
    ),
    (
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
        0x0756b94461c50fb0,
    ),
    (
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        0x662fafb965db29d4,
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        0x22a48b5a8e47ff78,
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
        0x652a607ca3f242c1,
    ),
    (
        "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
        0x00fdd303c946bdd9,
    ),
    (
        "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
        0x3c8123ea7b067637,
    ),
    (
        "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
        0x5c3f9b829b279560,
    ),
];

fn spec_keys_on<B: MoveGen>() {
    for &(moves, key) in SPEC {
        let mut game = Game::new(B::startpos());
        for mv in moves.split_whitespace() {
            game.play_uci(mv).unwrap();
        }
        assert_eq!(
            polyglot::hash(game.board()),
            key,
            "{} after `{moves}`",
            B::NAME
        );
    }
    for &(fen, key) in SPEC_FENS {
        let board = B::from_fen(fen).unwrap();
        assert_eq!(polyglot::hash(&board), key, "{} {fen}", B::NAME);
    }
}

#[test]
fn specification_keys() {
    spec_keys_on::<Bitboards>();
    spec_keys_on::<Board0x88>();
    spec_keys_on::<Mailbox>();
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/polyglot")
        .join(name)
}

/// The lines of a fixture, comments and blank lines left out.
fn fixture_lines(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(data(name)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn keys_equal_python_chess_on_random_positions() {
    let lines = fixture_lines("hashes.txt");
    assert!(lines.len() >= 300, "only {} positions", lines.len());
    let mut with_ep = 0;
    for line in &lines {
        let (fen, key) = line.split_once(';').unwrap();
        let key = u64::from_str_radix(key, 16).unwrap();
        let setup = Setup::from_fen(fen).unwrap();
        with_ep += usize::from(setup.ep_square.is_some());
        let b = Bitboards::from_setup(&setup).unwrap();
        assert_eq!(polyglot::hash(&b), key, "bitboard {fen}");
        let b = Board0x88::from_setup(&setup).unwrap();
        assert_eq!(polyglot::hash(&b), key, "0x88 {fen}");
        let b = Mailbox::from_setup(&setup).unwrap();
        assert_eq!(polyglot::hash(&b), key, "mailbox {fen}");
    }
    // The fixture exercises the en-passant rule, both ways.
    assert!(
        with_ep >= 20,
        "{with_ep} positions with an en-passant square"
    );
}

/// A fresh path under Cargo's temporary directory for integration tests.
fn temp_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("polyglot-{}-{name}", std::process::id()))
}

/// A raw move from its squares and promotion code.
fn raw(from: &str, to: &str, promotion: u16) -> u16 {
    let sq = |s: &str| s.parse::<fianchetto_board::Square>().unwrap().index() as u16;
    sq(to) | sq(from) << 6 | promotion << 12
}

fn listed(moves: &[BookMove]) -> Vec<(String, u16)> {
    moves.iter().map(|m| (m.mv.to_string(), m.weight)).collect()
}

fn owned(moves: &[(&str, u16)]) -> Vec<(String, u16)> {
    moves.iter().map(|&(m, w)| (m.to_string(), w)).collect()
}

/// A book written entry by entry, in the file's byte format, then read.
#[test]
fn synthetic_book() {
    let start = Bitboards::startpos();
    let castles = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let black_castles = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
    let promotes = Bitboards::from_fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let entry = |board: &Bitboards, raw_move: u16, weight: u16| BookEntry {
        key: polyglot::hash(board),
        raw_move,
        weight,
        learn: u32::from(weight) * 2,
    };
    let entries = vec![
        entry(&start, raw("e2", "e4", 0), 50),
        entry(&start, raw("d2", "d4", 0), 80),
        // Illegal here (a collision or a damaged book): skipped.
        entry(&start, raw("e2", "e5", 0), 500),
        // Deleted (weight 0): left out by default.
        entry(&start, raw("c2", "c4", 0), 0),
        entry(&start, raw("g1", "f3", 0), 80),
        entry(&start, raw("b1", "c3", 0), 1),
        // Castling as king takes rook, and once as the king's move.
        entry(&castles, raw("e1", "h1", 0), 10),
        entry(&castles, raw("e1", "a1", 0), 20),
        entry(&black_castles, raw("e8", "h8", 0), 7),
        entry(&black_castles, raw("e8", "c8", 0), 3),
        // Promotions: queen and knight, straight and capturing.
        entry(&promotes, raw("a7", "a8", 4), 9),
        entry(&promotes, raw("a7", "b8", 1), 4),
        entry(&promotes, raw("a7", "b8", 4), 6),
        // A promotion code the format does not define: skipped.
        entry(&promotes, raw("a7", "a8", 6), 100),
    ];
    // Written in the order a book file has (sorted by key, ties in the
    // order given), with our writer, and read back from a file.
    let written = Book::from_entries(entries.clone());
    let path = temp_path("synthetic.bin");
    std::fs::write(&path, written.to_bytes()).unwrap();
    let book = Book::open(&path).unwrap();
    assert_eq!(book, written);
    assert_eq!(book.len(), entries.len());
    let keys: Vec<u64> = book.entries().iter().map(|e| e.key).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));

    // The raw entries under a key, in the order written.
    let raws = book.entries_for_key(0x463b96181691fc9c);
    assert_eq!(raws.len(), 6);
    assert_eq!(raws[1], entries[1]);

    // Legal moves of weight >= 1, file order; then ranked.
    assert_eq!(
        listed(&book.moves(&start)),
        owned(&[("e2e4", 50), ("d2d4", 80), ("g1f3", 80), ("b1c3", 1)])
    );
    assert_eq!(
        listed(&book.moves_with_min_weight(&start, 0)),
        owned(&[
            ("e2e4", 50),
            ("d2d4", 80),
            ("c2c4", 0),
            ("g1f3", 80),
            ("b1c3", 1)
        ])
    );
    assert_eq!(
        listed(&book.ranked_moves(&start)),
        owned(&[("d2d4", 80), ("g1f3", 80), ("e2e4", 50), ("b1c3", 1)])
    );
    // Best: the first of the highest weight.
    let best = book.best_move(&start).unwrap();
    assert_eq!(
        (best.mv.to_string(), best.weight, best.learn),
        ("d2d4".into(), 80, 160)
    );

    // Castling decodes to our castling moves.
    let moves = book.moves(&castles);
    assert_eq!(listed(&moves), owned(&[("e1g1", 10), ("e1c1", 20)]));
    assert!(moves.iter().all(|m| m.mv.is_castle()));
    let moves = book.moves(&black_castles);
    assert_eq!(listed(&moves), owned(&[("e8g8", 7), ("e8c8", 3)]));
    assert!(moves.iter().all(|m| m.mv.is_castle()));

    // Promotions.
    let moves = book.moves(&promotes);
    assert_eq!(
        listed(&moves),
        owned(&[("a7a8q", 9), ("a7b8n", 4), ("a7b8q", 6)])
    );
    assert!(moves[1].mv.is_capture() && moves[1].mv.is_promotion());

    // A position not in the book.
    let after_e4 = {
        let mut b = start.clone();
        b.play_unchecked(parse_uci(&b, "e2e4").unwrap());
        b
    };
    assert!(book.moves(&after_e4).is_empty());
    assert_eq!(book.best_move(&after_e4), None);
    assert_eq!(book.weighted_move(&after_e4, 12345), None);

    // Weighted choice: over evenly spread random numbers, each move is
    // picked in proportion to its weight (total 211).
    let total = 211u64;
    let mut counts = std::collections::HashMap::new();
    for i in 0..total {
        let random = ((i as u128) << 64).div_ceil(total as u128) as u64;
        let m = book.weighted_move(&start, random).unwrap();
        *counts.entry(m.mv.to_string()).or_insert(0) += 1;
    }
    let count = |m: &str| counts.get(m).copied().unwrap_or(0);
    assert_eq!(
        (count("e2e4"), count("d2d4"), count("g1f3"), count("b1c3")),
        (50, 80, 80, 1)
    );
    assert_eq!(
        book.weighted_move(&start, 0).unwrap().mv.to_string(),
        "e2e4"
    );
    assert_eq!(
        book.weighted_move(&start, u64::MAX).unwrap().mv.to_string(),
        "b1c3"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn malformed_book_files_are_refused() {
    let start = Bitboards::startpos();
    let e4 = parse_uci(&start, "e2e4").unwrap();
    let good = Book::from_entries(vec![
        BookEntry::new(&start, e4, 1),
        BookEntry {
            key: 1,
            ..BookEntry::default()
        },
    ])
    .to_bytes();

    let truncated = temp_path("truncated.bin");
    std::fs::write(&truncated, &good[..good.len() - 3]).unwrap();
    let err = Book::open(&truncated).unwrap_err();
    assert!(matches!(err, BookError::Length { len: 29 }), "{err}");
    assert!(err.to_string().contains("not a multiple of 16"), "{err}");

    // The two entries swapped: keys out of order.
    let mut swapped = good[16..].to_vec();
    swapped.extend_from_slice(&good[..16]);
    let unsorted = temp_path("unsorted.bin");
    std::fs::write(&unsorted, &swapped).unwrap();
    let err = Book::open(&unsorted).unwrap_err();
    assert!(matches!(err, BookError::Unsorted { index: 1, .. }), "{err}");

    let missing = temp_path("does-not-exist.bin");
    let err = Book::open(&missing).unwrap_err();
    assert!(matches!(err, BookError::Io { .. }), "{err}");
    assert!(err.to_string().contains("does-not-exist.bin"), "{err}");

    // Text is not a book either (and must not panic).
    let err = Book::from_bytes(b"this is not a polyglot book!").unwrap_err();
    assert!(matches!(err, BookError::Length { len: 28 }));
    // A directory is not a readable book; an endless device reads as its
    // (zero) size rather than filling memory.
    let err = Book::open(env!("CARGO_TARGET_TMPDIR")).unwrap_err();
    assert!(matches!(err, BookError::Io { .. }), "{err}");
    if Path::new("/dev/zero").exists() {
        assert!(Book::open("/dev/zero").unwrap().is_empty());
    }
    for path in [truncated, unsorted] {
        let _ = std::fs::remove_file(path);
    }
}

/// Where GNU Chess's book is installed (`apt-get install gnuchess-book`),
/// or the file `FIANCHETTO_GNUCHESS_BOOK` names.
fn gnuchess_book() -> PathBuf {
    std::env::var_os("FIANCHETTO_GNUCHESS_BOOK")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/games/gnuchess/book.bin"))
}

/// GNU Chess's book (GPL, so not in this repository) read by us and by
/// python-chess: the same key, raw entry count, moves and weights, in the
/// same order, for every position of the fixture (random walks through
/// the book, and a step out of it at the end of each walk).
#[test]
fn gnuchess_book_matches_python_chess() {
    let path = gnuchess_book();
    if !path.exists() {
        println!(
            "skipped: {} is not installed (apt-get install gnuchess-book)",
            path.display()
        );
        return;
    }
    let book = Book::open(&path).unwrap();
    let lines = fixture_lines("gnuchess-book.txt");
    assert!(lines.len() >= 200, "only {} positions", lines.len());
    let mut in_book = 0;
    for line in &lines {
        let fields: Vec<&str> = line.split(';').collect();
        let [fen, key, raw_count, moves] = fields[..] else {
            panic!("bad fixture line {line}");
        };
        let board = Bitboards::from_fen(fen).unwrap();
        let key = u64::from_str_radix(key, 16).unwrap();
        assert_eq!(polyglot::hash(&board), key, "{fen}");
        assert_eq!(
            book.entries_for_key(key).len(),
            raw_count.parse::<usize>().unwrap(),
            "{fen}"
        );
        let want: Vec<(String, u16)> = moves
            .split_whitespace()
            .map(|m| {
                let (mv, w) = m.split_once(':').unwrap();
                (mv.to_string(), w.parse().unwrap())
            })
            .collect();
        assert_eq!(listed(&book.moves(&board)), want, "{fen}");
        in_book += usize::from(!want.is_empty());
    }
    println!(
        "GNU Chess book: {} positions compared with python-chess ({in_book} in the book), all equal",
        lines.len()
    );
}
