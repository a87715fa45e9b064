//! The data tools on random legal games: marlinformat and the games format
//! convert into each other without loss of what both hold; merge, dedup and
//! stats count what they should; bad inputs leave no output behind.

use fianchetto_board::{Bitboards, Board};
use fianchetto_data::games::{self, Filter, GameReader, GameRecord, Skip};
use fianchetto_data::marlin::{read_all, PackedBoard, RECORD_SIZE};
use fianchetto_data::testing::{self, options};
use fianchetto_data::tools::{copy, stats, CopyOptions, DataFileError, DataFormat};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The tests' games, each drawn from a generator seeded with its seed.
fn played() -> Vec<GameRecord> {
    testing::played(|seed| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        move || rng.next_u64()
    })
}

#[test]
fn marlin_and_games_convert_without_loss() {
    let dir = testing::scratch_dir("marlin_and_games_convert_without_loss").unwrap();
    let games = played();
    let source = testing::write_games(&dir, "played.games", &games).unwrap();

    // games -> marlin, unfiltered: one record per position, each the
    // position the moves reach, with its score and the game's result.
    let marlin = dir.join("all.bin");
    let s = testing::convert(&source, &marlin, DataFormat::Marlin, Filter::NONE).unwrap();
    let entries: usize = games.iter().map(|g| g.entries.len()).sum();
    assert_eq!(s.positions_written, entries as u64);
    let mut expected = Vec::new();
    for g in &games {
        g.replay(|_, board, e| expected.push(PackedBoard::pack(board, e.score, g.result)))
            .unwrap();
    }
    let bytes = std::fs::read(&marlin).unwrap();
    let records: Vec<PackedBoard> = bytes
        .chunks_exact(RECORD_SIZE)
        .map(|c| PackedBoard::from_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(records, expected);

    // marlin -> games: every game comes back whole, but for the last move
    // (which no record holds) and the ending (which marlinformat does not
    // record).
    let back = dir.join("back.games");
    let s = testing::convert(&marlin, &back, DataFormat::Games, Filter::NONE).unwrap();
    assert_eq!(s.games_written, games.len() as u64);
    let read: Vec<GameRecord> = GameReader::open(&back)
        .unwrap()
        .map(|g| g.unwrap().1)
        .collect();
    for (r, g) in read.iter().zip(&games) {
        assert_eq!(r.start, g.start);
        assert_eq!(r.result, g.result);
        assert_eq!(r.chess960, g.chess960);
        assert_eq!(r.ending, games::Ending::Unknown);
        let n = g.entries.len();
        assert_eq!(r.entries[..n - 1], g.entries[..n - 1]);
        assert_eq!(r.entries[n - 1].score, g.entries[n - 1].score);
        assert!(r.entries[n - 1].mv.is_null());
    }

    // ... and back to marlin: the same bytes.
    let again = dir.join("again.bin");
    testing::convert(&back, &again, DataFormat::Marlin, Filter::NONE).unwrap();
    assert_eq!(std::fs::read(&again).unwrap(), bytes);

    // Filtered marlin (what datagen's marlin output holds) round-trips too,
    // as runs of records.
    let filtered = dir.join("filtered.bin");
    copy(
        std::slice::from_ref(&source),
        &filtered,
        &options(DataFormat::Marlin, Filter::default()),
    )
    .unwrap();
    let as_games = dir.join("filtered.games");
    testing::convert(&filtered, &as_games, DataFormat::Games, Filter::NONE).unwrap();
    let round = dir.join("round.bin");
    testing::convert(&as_games, &round, DataFormat::Marlin, Filter::NONE).unwrap();
    assert_eq!(
        std::fs::read(&round).unwrap(),
        std::fs::read(&filtered).unwrap()
    );
    for r in read_all(&round).unwrap() {
        assert!(!Bitboards::from_setup(&r.setup).unwrap().in_check());
    }
}

#[test]
fn merge_dedup_and_stats_count_what_they_should() {
    let dir = testing::scratch_dir("merge_dedup_and_stats_count_what_they_should").unwrap();
    let games = played();
    let a = testing::write_games(&dir, "a.games", &games).unwrap();
    let b = dir.join("b.bin");
    testing::convert(&a, &b, DataFormat::Marlin, Filter::NONE).unwrap();

    let merged = dir.join("merged.games");
    let s = copy(
        &[a.clone(), b.clone()],
        &merged,
        &options(DataFormat::Games, Filter::NONE),
    )
    .unwrap();
    let entries: u64 = games.iter().map(|g| g.entries.len() as u64).sum();
    assert_eq!(s.positions_read, 2 * entries);
    assert_eq!(s.positions_written, 2 * entries);

    // Every position of b is one of a's.
    let deduped = dir.join("dedup.bin");
    let s = copy(
        &[a.clone(), b.clone()],
        &deduped,
        &CopyOptions {
            dedup: true,
            ..options(DataFormat::Marlin, Filter::NONE)
        },
    )
    .unwrap();
    assert!(s.duplicates >= entries);
    assert_eq!(s.games_dropped, games.len() as u64);
    let unique: std::collections::HashSet<u64> = read_all(&deduped)
        .unwrap()
        .iter()
        .map(|r| Bitboards::from_setup(&r.setup).unwrap().hash())
        .collect();
    assert_eq!(unique.len() as u64, s.positions_written);
    assert_eq!(s.positions_written + s.duplicates, 2 * entries);

    // In a games output the duplicates stay in their games, unscored.
    let deduped_games = dir.join("dedup.games");
    copy(
        std::slice::from_ref(&merged),
        &deduped_games,
        &CopyOptions {
            dedup: true,
            ..options(DataFormat::Games, Filter::NONE)
        },
    )
    .unwrap();
    let st = stats(std::slice::from_ref(&deduped_games), &Filter::NONE, false).unwrap();
    assert_eq!(st.games, games.len() as u64);
    assert_eq!(st.positions, entries);
    assert_eq!(st.positions - st.unscored, unique.len() as u64);
    assert_eq!(st.counts.skipped[Skip::NoScore as usize], st.unscored);

    let st = stats(std::slice::from_ref(&a), &Filter::default(), false).unwrap();
    assert_eq!(st.games, games.len() as u64);
    assert_eq!(st.positions, entries);
    assert_eq!(st.chess960, 1);
    assert_eq!(st.counts.total(), entries);
    assert_eq!(st.scores.iter().sum::<u64>(), entries);
    assert_eq!(st.game_results.iter().sum::<u64>(), games.len() as u64);
    let text = st.to_string();
    assert!(
        text.contains("filter check,tactical,mates: keeps"),
        "{text}"
    );
}

#[test]
fn bad_inputs_and_outputs_are_refused_and_nothing_is_left() {
    let dir =
        testing::scratch_dir("bad_inputs_and_outputs_are_refused_and_nothing_is_left").unwrap();
    let games = played();
    let good = testing::write_games(&dir, "good.games", &games).unwrap();
    let out = dir.join("out.bin");
    let _ = std::fs::remove_file(&out);

    // A damaged second input: the error names it, and no output exists.
    let mut bytes = std::fs::read(&good).unwrap();
    let at = 16 + games[0].encoded_len() + 50;
    bytes[at] ^= 1;
    let bad = dir.join("bad.games");
    std::fs::write(&bad, &bytes).unwrap();
    let opts = CopyOptions {
        to: DataFormat::Marlin,
        ..CopyOptions::default()
    };
    let err = copy(&[good.clone(), bad.clone()], &out, &opts).unwrap_err();
    assert!(
        err.to_string().contains("bad.games: game 1 at byte"),
        "{err}"
    );
    assert!(!out.exists());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty());

    // A file of neither format.
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [7u8; 33]).unwrap();
    assert!(matches!(
        copy(&[odd], &out, &opts),
        Err(DataFileError::Unknown { len: 33, .. })
    ));

    // An existing output is kept unless forced; an input is never the output.
    std::fs::write(&out, b"keep").unwrap();
    assert!(matches!(
        copy(std::slice::from_ref(&good), &out, &opts),
        Err(DataFileError::OutputExists(_))
    ));
    assert_eq!(std::fs::read(&out).unwrap(), b"keep");
    let forced = CopyOptions {
        force: true,
        ..opts
    };
    assert!(matches!(
        copy(std::slice::from_ref(&good), &good, &forced),
        Err(DataFileError::OutputIsInput(_))
    ));
    copy(std::slice::from_ref(&good), &out, &forced).unwrap();
    assert_ne!(std::fs::read(&out).unwrap(), b"keep");
}

#[test]
fn a_file_cut_inside_a_game_gives_its_whole_games() {
    // What a copy cut short, or a file `datagen` is still writing, looks
    // like: two whole games and the first half of a third.
    let dir = testing::scratch_dir("a_file_cut_inside_a_game_gives_its_whole_games").unwrap();
    let games = played();
    let whole = testing::write_games(&dir, "whole.games", &games[..2]).unwrap();
    let mut bytes = std::fs::read(&whole).unwrap();
    let third = bytes.len();
    let mut tail = Vec::new();
    games[2].write_to(&mut tail).unwrap();
    bytes.extend_from_slice(&tail[..tail.len() / 2]);
    let cut = dir.join("cut.games");
    std::fs::write(&cut, &bytes).unwrap();

    // Stats count the whole games and say where the file was cut.
    let s = stats(std::slice::from_ref(&cut), &Filter::NONE, false).unwrap();
    let positions = (games[0].entries.len() + games[1].entries.len()) as u64;
    assert_eq!((s.games, s.positions), (2, positions));
    assert_eq!(s.cut_short.len(), 1);
    let c = &s.cut_short[0];
    assert_eq!((c.game, c.offset), (2, third as u64));
    assert_eq!(c.bytes, (tail.len() / 2) as u64);
    let text = s.to_string();
    assert!(
        text.contains(&format!("cut.games: ends inside game 2 at byte {third}")),
        "{text}"
    );

    // Convert copies them: the output is the whole file before the cut.
    let out = dir.join("cut-copy.games");
    let summary = testing::convert(&cut, &out, DataFormat::Games, Filter::NONE).unwrap();
    assert_eq!(summary.games_written, 2);
    assert_eq!(summary.cut_short, s.cut_short);
    assert_eq!(std::fs::read(&out).unwrap(), bytes[..third]);

    // A whole file is not cut short.
    let s = stats(std::slice::from_ref(&whole), &Filter::NONE, false).unwrap();
    assert!(s.cut_short.is_empty());

    // Damage inside the file is still an error, not a cut.
    let mut damaged = std::fs::read(&whole).unwrap();
    damaged[16 + games[0].encoded_len() + 50] ^= 1;
    damaged.extend_from_slice(&tail[..tail.len() / 2]);
    let bad = dir.join("damaged-and-cut.games");
    std::fs::write(&bad, &damaged).unwrap();
    let err = stats(std::slice::from_ref(&bad), &Filter::NONE, false).unwrap_err();
    assert!(
        err.to_string()
            .contains("damaged-and-cut.games: game 1 at byte"),
        "{err}"
    );
}
