//! Datagen round trip: what `run` writes decodes to the games `play_game`
//! plays; resuming after a kill and running on more threads change nothing.

use fianchetto_board::{Bitboards, Board};
use fianchetto_eval::{Material, Score};
use fianchetto_movegen::MoveGen;
use fianchetto_tune::datagen::{self, play_game, DatagenConfig, DatagenError, RunOptions, Target};
use fianchetto_tune::marlin::{read_all, DataError, PackedBoard, RECORD_SIZE};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

fn config() -> DatagenConfig {
    DatagenConfig {
        soft_nodes: 400,
        hard_nodes: 8_000,
        hash_mb: 1,
        ..DatagenConfig::default()
    }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fianchetto-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(path.with_extension("bin.progress"));
    path
}

fn opts(out: &Path, games: u64, threads: usize) -> RunOptions {
    RunOptions {
        out: out.to_path_buf(),
        target: Target::Games(games),
        threads,
        seed: 11,
        book: Vec::new(),
        progress: false,
    }
}

#[test]
fn written_records_are_the_games_played() {
    let out = temp("roundtrip.bin");
    let stop = AtomicBool::new(false);
    let summary = datagen::run(&config(), Material::classic(), &opts(&out, 3, 1), &stop).unwrap();
    assert_eq!(summary.games, 3);

    let mut expected = Vec::new();
    let mut searcher = config().searcher(Material::classic());
    for index in 0..3 {
        let game = play_game(&mut searcher, &config(), &[], 11, index, None);
        assert!(game.plies > 0);
        for record in &game.records {
            let position = record.unpack().unwrap();
            assert_eq!(position.wdl, game.result);
            let board = Bitboards::from_setup(&position.setup).unwrap();
            assert!(!board.in_check(), "a position in check was kept");
            assert!(!board.has_no_moves());
            assert!(!Score(position.score as i32).is_decisive());
            // The FEN written is the FEN read back.
            assert_eq!(
                PackedBoard::pack(&board, position.score, position.wdl),
                *record
            );
        }
        expected.extend(game.records);
    }
    assert_eq!(summary.positions, expected.len() as u64);
    let read: Vec<_> = read_all(&out).unwrap();
    assert_eq!(read.len(), expected.len());
    for (r, e) in read.iter().zip(&expected) {
        let e = e.unpack().unwrap();
        assert_eq!((&r.setup, r.score, r.wdl), (&e.setup, e.score, e.wdl));
    }
}

#[test]
fn resume_after_a_kill_and_more_threads_give_the_same_file() {
    let stop = AtomicBool::new(false);
    let straight = temp("straight.bin");
    datagen::run(
        &config(),
        Material::classic(),
        &opts(&straight, 4, 1),
        &stop,
    )
    .unwrap();

    // A run that wrote two games, then was killed halfway through a record.
    let resumed = temp("resumed.bin");
    datagen::run(&config(), Material::classic(), &opts(&resumed, 2, 1), &stop).unwrap();
    let mut bytes = std::fs::read(&resumed).unwrap();
    bytes.extend_from_slice(&[0xAB; RECORD_SIZE + 10]);
    std::fs::write(&resumed, &bytes).unwrap();
    let summary =
        datagen::run(&config(), Material::classic(), &opts(&resumed, 4, 2), &stop).unwrap();
    assert_eq!(summary.games, 2);
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&straight).unwrap()
    );

    // Already done: nothing more is written.
    let again = datagen::run(&config(), Material::classic(), &opts(&resumed, 4, 2), &stop).unwrap();
    assert_eq!(again.games, 0);
}

#[test]
fn a_stop_request_keeps_whole_games() {
    let out = temp("stopped.bin");
    let stop = AtomicBool::new(true);
    let summary = datagen::run(&config(), Material::classic(), &opts(&out, 50, 1), &stop).unwrap();
    assert!(summary.games < 50);
    assert_eq!(
        std::fs::metadata(&out).unwrap().len() % RECORD_SIZE as u64,
        0
    );
}

#[test]
fn foreign_and_truncated_files_are_refused() {
    let out = temp("foreign.bin");
    std::fs::write(&out, [1u8; 33]).unwrap();
    let stop = AtomicBool::new(false);
    let err = datagen::run(&config(), Material::classic(), &opts(&out, 1, 1), &stop).unwrap_err();
    assert!(
        matches!(
            err,
            DatagenError::Data(DataError::Truncated { len: 33, .. })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("not a whole number"));
    // Nothing was written to it.
    assert_eq!(std::fs::read(&out).unwrap(), vec![1u8; 33]);

    let err = read_all(&out).unwrap_err();
    assert!(matches!(err, DataError::Truncated { .. }));

    // A whole number of garbage records: the bad one is named.
    std::fs::write(&out, [0xFFu8; 64]).unwrap();
    let err = read_all(&out).unwrap_err();
    assert!(err.to_string().contains("record 0"), "{err}");
}

#[test]
fn book_lines_are_read_and_bad_ones_named() {
    let path = temp("book.epd");
    std::fs::write(
        &path,
        "# openings\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\n8/8/8/8/8/8/8/K6k w - - 0 1\n",
    )
    .unwrap();
    assert_eq!(datagen::read_book(&path).unwrap().len(), 2);
    std::fs::write(&path, "8/8/8/8/8/8/8/K6k w - - 0 1\nnot a fen\n").unwrap();
    let err = datagen::read_book(&path).unwrap_err();
    assert!(err.to_string().contains(":2:"), "{err}");
}
