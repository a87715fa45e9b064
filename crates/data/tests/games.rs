//! The games format: records round-trip, expand to the legal positions
//! they describe, and damaged files are refused with the game and byte
//! named, never a panic.

use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_data::games::{
    self, repair_tail, Ending, Entry, Filter, FilterCounts, GameError, GameReader, GameRecord,
    GamesError, GamesFile, Skip, TrainingPositions, NO_SCORE,
};
use fianchetto_data::marlin::Wdl;
use fianchetto_data::testing;
use fianchetto_data::tools::{stats, DataFileError};
use fianchetto_movegen::MoveGen;
use proptest::prelude::*;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fianchetto-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A random legal game of up to `plies` plies from the start position,
/// with made-up scores (some mates).
fn random_game(seed: u64, plies: usize) -> GameRecord {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut board = Bitboards::startpos();
    let mut game = GameRecord::new(&board, false);
    for _ in 0..plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
        let score = match rng.next_u64() % 10 {
            0 => 31_990,
            1 => -31_995,
            _ => (rng.next_u64() % 2001) as i16 - 1000,
        };
        game.entries.push(Entry { mv, score });
        board.play_unchecked(mv);
    }
    game.result = [Wdl::BlackWin, Wdl::Draw, Wdl::WhiteWin][(seed % 3) as usize];
    game.ending = Ending::ALL[(seed % 10) as usize];
    game
}

fn file_of(games: &[GameRecord]) -> Vec<u8> {
    let mut bytes = games::header().to_vec();
    for g in games {
        g.write_to(&mut bytes).unwrap();
    }
    bytes
}

#[test]
fn every_record_expands_to_its_legal_positions() {
    let games: Vec<GameRecord> = (0..20).map(|s| random_game(s, 120)).collect();
    let path = temp("roundtrip.games");
    let bytes = file_of(&games);
    assert_eq!(
        bytes.len(),
        16 + games
            .iter()
            .map(|g| 40 + 4 * g.entries.len())
            .sum::<usize>()
    );
    std::fs::write(&path, &bytes).unwrap();

    let read: Vec<GameRecord> = GameReader::open(&path)
        .unwrap()
        .map(|g| g.unwrap().1)
        .collect();
    assert_eq!(read, games);

    // Expanded without a filter: one record per entry, in order, each the
    // position reached by the moves before it, with its score and the result.
    let mut expected = Vec::new();
    for g in &games {
        let mut board = Bitboards::startpos();
        for e in &g.entries {
            expected.push((board.fen(), e.score, g.result));
            board.play_unchecked(e.mv);
        }
    }
    let positions: Vec<_> = TrainingPositions::open(&path, Filter::NONE)
        .unwrap()
        .map(|p| {
            let u = p.unwrap().unpack().unwrap();
            (u.setup.to_fen(), u.score, u.wdl)
        })
        .collect();
    assert_eq!(positions, expected);

    // The default filter drops exactly what its rules say, and counts it.
    let mut reader = TrainingPositions::open(&path, Filter::default()).unwrap();
    let kept = reader.by_ref().count() as u64;
    let counts = reader.counts();
    assert_eq!(counts.kept, kept);
    assert_eq!(counts.total(), expected.len() as u64);
    assert!(counts.skipped[Skip::Mate as usize] > 0);
    assert!(counts.skipped[Skip::Tactical as usize] > 0);
    let mut by_hand = FilterCounts::default();
    let mut out = Vec::new();
    for g in &games {
        g.expand(&Filter::default(), &mut out, &mut by_hand)
            .unwrap();
    }
    assert_eq!(by_hand, counts);
    assert_eq!(out.len() as u64, kept);
}

#[test]
fn ranges_of_an_indexed_file_are_its_positions() {
    let games: Vec<GameRecord> = (20..40).map(|s| random_game(s, 60)).collect();
    let path = temp("indexed.games");
    std::fs::write(&path, file_of(&games)).unwrap();
    for filter in [Filter::NONE, Filter::default()] {
        let all: Vec<_> = TrainingPositions::open(&path, filter)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let file = GamesFile::open(&path, filter).unwrap();
        assert_eq!(file.len(), all.len() as u64);
        for (start, count) in [
            (0, 1),
            (0, all.len()),
            (59, 2),
            (100, 333),
            (all.len() - 1, 5),
        ] {
            let mut out = Vec::new();
            file.read(start as u64, count, &mut out).unwrap();
            let end = (start + count).min(all.len());
            assert_eq!(out, all[start..end], "{start} {count}");
        }
        let mut out = Vec::new();
        file.read(all.len() as u64, 3, &mut out).unwrap();
        assert!(out.is_empty());
    }
    // A file cut after it was indexed: an error, not a panic.
    let file = GamesFile::open(&path, Filter::NONE).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let mut out = Vec::new();
    assert!(file.read(file.len() - 10, 10, &mut out).is_err());
}

#[test]
fn files_joined_end_to_end_are_one_file() {
    let a = file_of(&[random_game(1, 30), random_game(2, 30)]);
    let b = file_of(&[random_game(3, 30)]);
    let path = temp("joined.games");
    std::fs::write(&path, [a, b].concat()).unwrap();
    let offsets: Vec<u64> = GameReader::open(&path)
        .unwrap()
        .map(|g| g.unwrap().0.offset)
        .collect();
    let first = 16 + random_game(1, 30).encoded_len() as u64;
    let second = first + random_game(2, 30).encoded_len() as u64;
    assert_eq!(offsets, [16, first, second + 16]);
}

#[test]
fn unscored_entries_are_never_training_positions() {
    let mut game = random_game(4, 10);
    game.entries[3].score = NO_SCORE;
    let mut out = Vec::new();
    let mut counts = FilterCounts::default();
    game.expand(&Filter::NONE, &mut out, &mut counts).unwrap();
    assert_eq!(out.len(), 9);
    assert_eq!(counts.skipped[Skip::NoScore as usize], 1);
}

#[test]
fn the_first_plies_are_skipped_on_request() {
    let game = random_game(5, 40);
    let filter = Filter {
        first_plies: 16,
        ..Filter::NONE
    };
    let mut out = Vec::new();
    game.expand(&filter, &mut out, &mut FilterCounts::default())
        .unwrap();
    assert_eq!(out.len(), game.entries.len() - 16);
    assert!(out[0].fullmove >= 9);
}

#[test]
fn a_truncated_file_names_the_game_and_its_byte() {
    let games = [random_game(6, 50), random_game(7, 50), random_game(8, 50)];
    let bytes = file_of(&games);
    let third = 16 + games[0].encoded_len() + games[1].encoded_len();
    let path = temp("truncated.games");
    for cut in [third + 1, third + 3, third + 39, bytes.len() - 1] {
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let results: Vec<_> = GameReader::open(&path).unwrap().collect();
        assert_eq!(results.len(), 3);
        assert!(results[..2].iter().all(Result::is_ok));
        let err = results[2].as_ref().unwrap_err();
        assert!(
            matches!(err, GamesError::Truncated { game: 2, offset, .. } if *offset == third as u64),
            "{err}"
        );
        let text = err.to_string();
        assert!(text.contains("truncated.games"), "{text}");
        assert!(text.contains(&format!("game 2 at byte {third}")), "{text}");
    }
    // Training positions stop with the same error.
    let err = TrainingPositions::open(&path, Filter::NONE)
        .unwrap()
        .find_map(Result::err)
        .unwrap();
    assert!(
        matches!(err, GamesError::Truncated { game: 2, .. }),
        "{err}"
    );

    // repair_tail cuts the half game and keeps the whole ones.
    let repair = repair_tail(&path).unwrap();
    assert_eq!((repair.games, repair.len), (2, third as u64));
    assert_eq!(std::fs::read(&path).unwrap(), bytes[..third]);
    assert_eq!(repair_tail(&path).unwrap().cut, 0);
}

/// A game whose entry count runs past the end of the file, while the bytes
/// there do not continue it (more games follow, or the game is whole and
/// its checksum says so): a damaged count, an error naming the game and
/// its byte, never a file cut short that is read up to it.
#[test]
fn a_count_past_the_end_that_the_bytes_do_not_continue_is_an_error() {
    let games: Vec<GameRecord> = (50..67).map(|s| random_game(s, 40)).collect();
    let bytes = file_of(&games);
    let fifth = 16
        + games[..4]
            .iter()
            .map(GameRecord::encoded_len)
            .sum::<usize>();
    let last = bytes.len() - games[16].encoded_len();
    let path = temp("bad-count.games");
    for (game, at) in [(4u64, fifth), (16, last)] {
        let left = bytes.len() - at;
        // Just past the end, and as far as a count goes.
        for count in [(left / 4) as u16, u16::MAX] {
            let mut bad = bytes.clone();
            bad[at..at + 2].copy_from_slice(&count.to_le_bytes());
            std::fs::write(&path, &bad).unwrap();
            let named = |err: &GamesError| {
                matches!(err, GamesError::Game { game: g, offset, error, .. }
                    if *g == game && *offset == at as u64
                        && matches!(**error, GameError::CountPastEnd { .. }))
                    && err
                        .to_string()
                        .contains(&format!("bad-count.games: game {game} at byte {at}: "))
            };
            let err = GameReader::open(&path)
                .unwrap()
                .find_map(Result::err)
                .unwrap();
            assert!(named(&err), "{err}");
            // What `data stats`, `data convert` and the trainer read: an
            // error too, not the games before it and a warning.
            let mut reader = GameReader::open(&path).unwrap().ending_at_cut();
            let read: Vec<_> = reader.by_ref().collect();
            assert_eq!(read.len() as u64, game + 1);
            assert!(named(read.last().unwrap().as_ref().unwrap_err()));
            assert!(reader.cut_short().is_none());
            let err = GamesFile::open(&path, Filter::NONE).unwrap_err();
            assert!(named(&err), "{err}");
            let err = stats(std::slice::from_ref(&path), &Filter::NONE, false).unwrap_err();
            assert!(matches!(&err, DataFileError::Games(e) if named(e)), "{err}");
            let err = TrainingPositions::open(&path, Filter::NONE)
                .unwrap()
                .find_map(Result::err)
                .unwrap();
            assert!(named(&err), "{err}");
            // Nothing is cut from it.
            assert!(repair_tail(&path).is_err());
            assert_eq!(std::fs::read(&path).unwrap(), bad);
        }
    }
    // The game in the middle: the next game's bytes are not its moves, and
    // the error says which byte stops it and that its checksum is there.
    let mut bad = bytes.clone();
    bad[fifth..fifth + 2].copy_from_slice(&u16::MAX.to_le_bytes());
    std::fs::write(&path, &bad).unwrap();
    let text = GameReader::open(&path)
        .unwrap()
        .find_map(Result::err)
        .unwrap()
        .to_string();
    let checksum = fifth + games[4].encoded_len() - 4;
    assert!(
        text.contains(&format!(
            "at byte {checksum}, the checksum of a whole game of {} entries",
            games[4].entries.len()
        )),
        "{text}"
    );
    assert!(text.contains("the count is damaged"), "{text}");
}

/// A file cut anywhere inside its last game (a copy cut short, a run
/// killed while writing, a file `datagen` is still writing) reads as its
/// whole games and says where it was cut, whatever the last game holds.
#[test]
fn a_file_cut_anywhere_in_its_last_game_is_cut_short() {
    let mut games = testing::played(|seed| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed + 74);
        move || rng.next_u64()
    });
    // A last move unknown, as marlinformat conversions write it.
    let mut open_end = random_game(12, 30);
    open_end.entries.last_mut().unwrap().mv = Move::NULL;
    games.push(open_end);
    for (i, last) in games.iter().enumerate().skip(1) {
        let whole = file_of(&games[..i]);
        let mut full = whole.clone();
        last.write_to(&mut full).unwrap();
        for cut in whole.len() + 1..full.len() {
            let path = temp("cut-anywhere.games");
            std::fs::write(&path, &full[..cut]).unwrap();
            let mut reader = GameReader::open(&path).unwrap();
            let err = reader.by_ref().find_map(Result::err).unwrap();
            assert!(
                matches!(err, GamesError::Truncated { game, offset, .. }
                    if game == i as u64 && offset == whole.len() as u64),
                "cut at {cut}: {err}"
            );
            let file = GamesFile::open(&path, Filter::NONE).unwrap();
            let cut_short = file.cut_short().unwrap();
            assert_eq!(
                (cut_short.game, cut_short.offset, cut_short.bytes),
                (i as u64, whole.len() as u64, (cut - whole.len()) as u64)
            );
        }
    }
}

#[test]
fn corrupt_games_are_named() {
    let games = [random_game(9, 40), random_game(10, 40)];
    let bytes = file_of(&games);
    let second = 16 + games[0].encoded_len();
    let path = temp("corrupt.games");
    let read_err = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        GameReader::open(&path)
            .and_then(|r| r.collect::<Result<Vec<_>, _>>())
            .unwrap_err()
    };

    // A flipped bit in a score: the checksum catches it.
    let mut bad = bytes.clone();
    bad[second + 40] ^= 0x10;
    let err = read_err(&bad);
    assert!(
        matches!(&err, GamesError::Game { game: 1, offset, error, .. }
            if *offset == second as u64 && matches!(**error, GameError::Checksum { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("game 1 at byte"), "{err}");
    // repair_tail refuses to cut anything from a damaged file.
    assert!(repair_tail(&path).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), bad);

    // Not a games file; another version.
    assert!(matches!(
        read_err(&bytes[16..]),
        GamesError::NotGames { .. }
    ));
    let mut v2 = bytes.clone();
    v2[8] = 2;
    assert!(matches!(
        read_err(&v2),
        GamesError::Version { version: 2, .. }
    ));
    assert!(matches!(read_err(b"FIAN"), GamesError::NotGames { .. }));

    // An illegal move with a good checksum: found when the game is replayed.
    let mut illegal = games[1].clone();
    illegal.entries[5].mv = illegal.entries[4].mv;
    let path2 = temp("illegal.games");
    std::fs::write(&path2, file_of(&[games[0].clone(), illegal])).unwrap();
    let err = TrainingPositions::open(&path2, Filter::NONE)
        .unwrap()
        .find_map(Result::err)
        .unwrap();
    assert!(
        matches!(&err, GamesError::Game { game: 1, error, .. }
            if matches!(**error, GameError::IllegalMove { index: 5, .. })),
        "{err}"
    );

    // A null move in the middle of a game.
    let mut null = games[0].clone();
    null.entries[2].mv = Move::NULL;
    assert!(matches!(
        null.replay(|_, _, _| {}),
        Err(GameError::NullMove { index: 2 })
    ));
    // ... but at the end it stands for an unknown last move.
    let mut open_end = games[0].clone();
    open_end.entries.last_mut().unwrap().mv = Move::NULL;
    assert!(open_end.replay(|_, _, _| {}).is_ok());
}

#[test]
fn a_bad_start_or_code_is_named() {
    let game = random_game(11, 5);
    let mut bytes = Vec::new();
    game.write_to(&mut bytes).unwrap();
    let reseal = |mut b: Vec<u8>| {
        let n = b.len() - 4;
        let sum = fnv(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let mut bad = bytes.clone();
    bad[2] = 200;
    assert!(matches!(
        GameRecord::from_bytes(&reseal(bad)),
        Err(GameError::Ending(200))
    ));
    let mut bad = bytes.clone();
    bad[3] = 0x80;
    assert!(matches!(
        GameRecord::from_bytes(&reseal(bad)),
        Err(GameError::Flags(0x80))
    ));
    let mut bad = bytes.clone();
    bad[4 + 30] = 3; // the result byte
    assert!(matches!(
        GameRecord::from_bytes(&reseal(bad)),
        Err(GameError::Start(_))
    ));
    let mut bad = bytes.clone();
    bad[37] |= 0x60; // an entry's kind bits set to 6
    bad[37] &= !0x90;
    assert!(matches!(
        GameRecord::from_bytes(&reseal(bad)),
        Err(GameError::MoveKind { index: 0, .. })
    ));
    let mut bad = bytes.clone();
    bad[4 + 8] = 0x77; // two undefined piece codes on a1 and b1
    let record = GameRecord::from_bytes(&reseal(bad)).unwrap();
    assert!(matches!(
        record.replay(|_, _, _| {}),
        Err(GameError::Start(_))
    ));
    assert!(matches!(
        GameRecord::from_bytes(&bytes[..30]),
        Err(GameError::Short { .. })
    ));
}

/// FNV-1a 32, as the format defines the checksum.
fn fnv(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any bytes after a header read to games or an error, never a panic.
    #[test]
    fn reading_any_bytes_never_panics(body in proptest::collection::vec(any::<u8>(), 0..300)) {
        let path = temp(&format!("fuzz-{}.games", fnv(&body)));
        let mut bytes = games::header().to_vec();
        bytes.extend_from_slice(&body);
        std::fs::write(&path, &bytes).unwrap();
        for p in TrainingPositions::open(&path, Filter::default()).unwrap() {
            if p.is_err() {
                break;
            }
        }
        let _ = GameRecord::from_bytes(&body).map(|g| g.replay(|_, _, _| {}));
        std::fs::remove_file(&path).unwrap();
    }

    /// A flipped byte anywhere in a game is caught before its positions are
    /// given out (the checksum, or the framing it changes).
    #[test]
    fn a_flipped_byte_is_caught(seed in 0u64..1000, at in 0usize..10_000, flip in 1u8..=255) {
        let game = random_game(seed, 20);
        let mut bytes = Vec::new();
        game.write_to(&mut bytes).unwrap();
        let at = at % bytes.len();
        bytes[at] ^= flip;
        prop_assert!(GameRecord::from_bytes(&bytes).is_err());
    }
}
