//! The trainer reads the same positions from either data format: whole
//! games filtered as they are read, or the marlinformat records
//! `fianchetto data convert` writes from them with the same filter.

use fianchetto_data::games::{Filter, GameRecord};
use fianchetto_data::testing;
use fianchetto_data::tools::DataFormat;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The tests' games, each drawn from a generator seeded with its seed.
fn played() -> Vec<GameRecord> {
    testing::played(|seed| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        move || rng.next_u64()
    })
}

/// The stored mate bound of the data is the evaluation's.
#[test]
fn the_data_mate_bound_is_the_evaluation_one() {
    use fianchetto_eval::Score;
    assert_eq!(
        fianchetto_data::score::MATE_BOUND as i32,
        Score::MATE_BOUND.0
    );
    for s in [-32_000, -31_000, -30_999, 0, 30_999, 31_000, 31_499, 32_000] {
        assert_eq!(
            fianchetto_data::score::is_mate(s as i16),
            Score(s).is_decisive(),
            "{s}"
        );
    }
}

#[test]
fn a_trainer_reads_the_same_positions_from_either_format() {
    use fianchetto_train::TrainData;
    let dir =
        testing::scratch_dir("a_trainer_reads_the_same_positions_from_either_format").unwrap();
    let games = played();
    let source = testing::write_games(&dir, "train.games", &games).unwrap();
    for filter in [Filter::default(), Filter::NONE] {
        let marlin = dir.join(format!("train-{filter}.bin"));
        testing::convert(&source, &marlin, DataFormat::Marlin, filter).unwrap();
        let from_games = TrainData::load_filtered(std::slice::from_ref(&source), &filter).unwrap();
        let from_marlin = TrainData::load(&[marlin]).unwrap();
        assert_eq!(from_games.len(), from_marlin.len());
        assert_eq!(from_games.fingerprint(), from_marlin.fingerprint());
    }
    // A games file that ends inside its last game (a datagen still
    // writing it) trains on the whole games before the cut, and says so.
    let mut bytes = std::fs::read(&source).unwrap();
    bytes.truncate(bytes.len() - 3);
    let cut = dir.join("cut.games");
    std::fs::write(&cut, &bytes).unwrap();
    let whole = testing::write_games(&dir, "whole.games", &games[..games.len() - 1]).unwrap();
    let from_cut = TrainData::load(std::slice::from_ref(&cut)).unwrap();
    let from_whole = TrainData::load(&[whole]).unwrap();
    assert!(!from_cut.is_empty());
    assert_eq!(from_cut.len(), from_whole.len());
    assert_eq!(from_cut.fingerprint(), from_whole.fingerprint());
    let cuts = from_cut.cut_short();
    assert_eq!(cuts.len(), 1);
    assert_eq!(cuts[0].game, games.len() as u64 - 1);
    assert_eq!(cuts[0].offset + cuts[0].bytes, bytes.len() as u64);
    assert!(from_whole.cut_short().is_empty());
    // Damage before the cut is still refused, with the game named.
    let mut damaged = bytes;
    damaged[cuts[0].offset as usize - 10] ^= 0x55;
    let inner = dir.join("inner.games");
    std::fs::write(&inner, &damaged).unwrap();
    let err = TrainData::load(&[inner]).unwrap_err().to_string();
    let game = games.len() - 2;
    assert!(
        err.contains(&format!("inner.games: game {game} at byte")),
        "{err}"
    );
}
