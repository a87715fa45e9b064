//! Datagen round trip: what `run` writes decodes to the games `play_game`
//! plays; resuming after a kill and running on more threads change nothing.

mod common;

use common::temp;
use fianchetto_board::{Bitboards, Board, CastlingSide, Color};
use fianchetto_data::games::{self, Filter, GameReader, GamesError};
use fianchetto_data::marlin::{read_all, DataError, PackedBoard, RECORD_SIZE};
use fianchetto_eval::{Material, Score};
use fianchetto_movegen::MoveGen;
use fianchetto_tune::datagen::{
    self, play_game, DatagenConfig, DatagenError, Format, RunOptions, Summary,
};
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn config() -> DatagenConfig {
    DatagenConfig {
        soft_nodes: 400,
        hard_nodes: 8_000,
        hash_mb: 1,
        ..DatagenConfig::default()
    }
}

fn opts(out: &Path, format: Format, games: u64, threads: usize) -> RunOptions {
    common::options(out, format, games, threads, 11)
}

/// [`datagen::run`] with the tests' config and evaluation, never stopped.
fn generate(options: &RunOptions) -> Result<Summary, DatagenError> {
    datagen::run(
        &config(),
        Material::classic(),
        options,
        &AtomicBool::new(false),
    )
}

fn read_games(path: &Path) -> Vec<games::GameRecord> {
    GameReader::open(path)
        .unwrap()
        .map(|g| g.unwrap().1)
        .collect()
}

#[test]
fn written_games_are_the_games_played() {
    let out = temp("roundtrip.games");
    let summary = generate(&opts(&out, Format::Games, 3, 1)).unwrap();
    assert_eq!(summary.games, 3);

    let mut searcher = config().searcher(Material::classic());
    let played: Vec<_> = (0..3)
        .map(|index| play_game(&mut searcher, &config(), &[], None, 11, index, None).game)
        .collect();
    assert_eq!(read_games(&out), played);
    let entries: u64 = played.iter().map(|g| g.entries.len() as u64).sum();
    assert_eq!(summary.positions, entries);
    assert_eq!(summary.plies, entries);

    for game in &played {
        // Every entry replays to a legal position with a move and a score.
        let mut count = 0;
        let mut last = None;
        game.replay(|index, board, entry| {
            assert_eq!(index, count);
            count += 1;
            assert!(board.legal_moves().contains(&entry.mv));
            assert!(entry.score.unsigned_abs() <= Score::INFINITE.0 as u16);
            last = Some(board.clone());
        })
        .unwrap();
        assert_eq!(count, game.entries.len());
        // The game ended where its record says.
        let mut end = last.unwrap();
        end.play_unchecked(game.entries[count - 1].mv);
        match game.ending {
            games::Ending::Checkmate => {
                assert!(end.has_no_moves() && end.in_check());
                assert_eq!(game.result.winner(), Some(!end.turn()));
            }
            games::Ending::Stalemate => assert!(end.has_no_moves() && !end.in_check()),
            _ => {}
        }
    }
}

#[test]
fn marlin_output_is_the_filtered_games() {
    let out = temp("roundtrip.bin");
    let summary = generate(&opts(&out, Format::Marlin, 3, 1)).unwrap();
    assert_eq!(summary.games, 3);

    let mut expected = Vec::new();
    let mut entries = 0;
    let mut searcher = config().searcher(Material::classic());
    for index in 0..3 {
        let played = play_game(&mut searcher, &config(), &[], None, 11, index, None);
        let records = played.records(&Filter::default()).unwrap();
        entries += played.game.entries.len();
        for record in &records {
            let position = record.unpack().unwrap();
            assert_eq!(position.wdl, played.game.result);
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
        expected.extend(records);
    }
    assert!(expected.len() < entries, "the filter skipped nothing");
    assert_eq!(summary.positions, expected.len() as u64);
    let read: Vec<_> = read_all(&out).unwrap();
    assert_eq!(read.len(), expected.len());
    for (r, e) in read.iter().zip(&expected) {
        let e = e.unpack().unwrap();
        assert_eq!((&r.setup, r.score, r.wdl), (&e.setup, e.score, e.wdl));
    }
}

#[test]
fn resume_after_a_kill_loses_only_the_game_in_flight() {
    let straight = temp("straight.games");
    generate(&opts(&straight, Format::Games, 4, 1)).unwrap();
    let whole = std::fs::read(&straight).unwrap();

    // A run that wrote two games, then was killed halfway through writing
    // the third: the file ends inside a game.
    let resumed = temp("resumed.games");
    generate(&opts(&resumed, Format::Games, 2, 1)).unwrap();
    let two = std::fs::read(&resumed).unwrap();
    let third_len = read_games(&straight)[2].encoded_len();
    let mut killed = two.clone();
    killed.extend_from_slice(&whole[two.len()..two.len() + third_len / 2]);
    std::fs::write(&resumed, &killed).unwrap();
    // A reader names the half game.
    let err = GameReader::open(&resumed)
        .unwrap()
        .find_map(|g| g.err())
        .unwrap();
    assert!(
        matches!(err, GamesError::Truncated { game: 2, offset, .. } if offset == two.len() as u64),
        "{err}"
    );
    let summary = generate(&opts(&resumed, Format::Games, 4, 2)).unwrap();
    assert_eq!(summary.games, 2);
    assert_eq!(std::fs::read(&resumed).unwrap(), whole);

    // Already done: nothing more is written.
    let again = generate(&opts(&resumed, Format::Games, 4, 2)).unwrap();
    assert_eq!(again.games, 0);

    // Without the sidecar (a copied file), the half game is found and cut
    // before appending.
    let copy = temp("copy.games");
    std::fs::write(&copy, &killed).unwrap();
    let mut options = opts(&copy, Format::Games, 1, 1);
    options.seed = 12;
    generate(&options).unwrap();
    let games = read_games(&copy);
    assert_eq!(games.len(), 3);
    assert_eq!(games[..2], read_games(&straight)[..2]);
}

#[test]
fn a_marlin_run_resumes_too() {
    let straight = temp("straight.bin");
    generate(&opts(&straight, Format::Marlin, 4, 1)).unwrap();
    let resumed = temp("resumed.bin");
    generate(&opts(&resumed, Format::Marlin, 2, 1)).unwrap();
    let mut bytes = std::fs::read(&resumed).unwrap();
    bytes.extend_from_slice(&[0xAB; RECORD_SIZE + 10]);
    std::fs::write(&resumed, &bytes).unwrap();
    generate(&opts(&resumed, Format::Marlin, 4, 2)).unwrap();
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&straight).unwrap()
    );
}

#[test]
fn a_stop_request_keeps_whole_games() {
    let out = temp("stopped.games");
    let stop = AtomicBool::new(true);
    let summary = datagen::run(
        &config(),
        Material::classic(),
        &opts(&out, Format::Games, 50, 1),
        &stop,
    )
    .unwrap();
    assert!(summary.games < 50);
    assert_eq!(read_games(&out).len() as u64, summary.games);
}

#[test]
fn chess960_openings_are_legal_and_varied() {
    let mut arrangements = std::collections::HashSet::new();
    for dfrc in [false, true] {
        let config = DatagenConfig {
            chess960_permille: 1000,
            dfrc,
            ..config()
        };
        let mut searcher = config.searcher(Material::classic());
        for index in 0..4 {
            let played = play_game(&mut searcher, &config, &[], None, 5, index, None);
            let game = played.game;
            assert!(game.chess960);
            let start = game.start_board().unwrap();
            // 8 or 9 random plies from a Chess960 start: every piece is still
            // near its home, and the game replays move by move.
            assert!(start.fullmove_number() >= 5);
            game.replay(|_, board, entry| {
                assert!(board.legal_moves().contains(&entry.mv));
            })
            .unwrap();
            let rights = start.castling();
            let rook = |color, side| rights.rook_file(color, side);
            if !dfrc {
                // Mirrored starts: where both sides may still castle on a
                // side, their rooks started on the same file.
                for side in [CastlingSide::King, CastlingSide::Queen] {
                    if let (Some(w), Some(b)) = (rook(Color::White, side), rook(Color::Black, side))
                    {
                        assert_eq!(w, b, "game {index}: {side:?}");
                    }
                }
            }
            arrangements.insert((
                rook(Color::White, CastlingSide::King),
                rook(Color::Black, CastlingSide::King),
                start.king(Color::White),
            ));
            // The record keeps the Chess960 castling rights.
            let mut bytes = Vec::new();
            game.write_to(&mut bytes).unwrap();
            let back = games::GameRecord::from_bytes(&bytes).unwrap();
            assert_eq!(back.start_board().unwrap().castling(), rights);
        }
    }
    assert!(arrangements.len() > 2, "{arrangements:?}");
}

#[test]
fn a_game_ends_where_the_tablebase_knows_the_result() {
    let tables = Path::new(env!("CARGO_MANIFEST_DIR")).join("../syzygy/tests/tables");
    let mut tablebase = fianchetto_syzygy::Tablebase::new();
    tablebase.add_directory(&tables).unwrap();
    // White takes the rook at once (no random plies): KQ v K, a win.
    let book = [fianchetto_board::Setup::from_fen("4k3/8/8/8/8/8/3r4/3QK3 w - - 0 1").unwrap()];
    let config = DatagenConfig {
        min_random_plies: 0,
        max_random_plies: 0,
        ..config()
    };
    let mut searcher = config.searcher(Material::classic());
    let played = play_game(&mut searcher, &config, &book, Some(&tablebase), 1, 0, None).game;
    assert_eq!(played.ending, games::Ending::Tablebase);
    assert_eq!(played.result, fianchetto_data::marlin::Wdl::WhiteWin);
    assert_eq!(played.entries.len(), 1);
    assert!(played.entries[0].mv.is_capture());
    // Without tables the game is played on.
    let longer = play_game(&mut searcher, &config, &book, None, 1, 0, None).game;
    assert!(longer.entries.len() > 1);
}

#[test]
fn foreign_and_truncated_files_are_refused() {
    let out = temp("foreign.bin");
    std::fs::write(&out, [1u8; 33]).unwrap();
    let err = generate(&opts(&out, Format::Marlin, 1, 1)).unwrap_err();
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
    // Nor is marlinformat data appended to as games.
    let err = generate(&opts(&out, Format::Games, 1, 1)).unwrap_err();
    assert!(matches!(err, DatagenError::FormatMismatch { .. }), "{err}");
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
