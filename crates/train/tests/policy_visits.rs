//! The policy trainer on root visit distributions: it learns a
//! distribution (soft targets) from a visits file, reads visits and games
//! files together, and refuses damaged visits files naming them.

use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_data::games::{self, Entry, GameRecord};
use fianchetto_data::marlin::Wdl;
use fianchetto_data::visits::{self, MoveVisits, VisitRecord};
use fianchetto_eval::policy::{move_rows, TO_ROWS};
use fianchetto_movegen::MoveGen;
use fianchetto_train::policy::{PolicyData, PolicyTrainConfig, PolicyTrainer};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;

/// A "search" whose root visits follow a fixed taste: each from-square row
/// and destination row has a score drawn once, and a move gets visits in
/// proportion to the softmax of its two scores, 200 in all. A policy
/// network can learn that distribution (with a constant hidden layer, its
/// logits are such sums).
struct Taste {
    from: [f32; 64],
    to: Vec<f32>,
}

impl Taste {
    fn new(seed: u64) -> Taste {
        let mut r = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut unit = || 4.0 * (r.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        Taste {
            from: std::array::from_fn(|_| unit()),
            to: (0..TO_ROWS).map(|_| unit()).collect(),
        }
    }

    fn visits(&self, board: &Bitboards, moves: &[Move]) -> Vec<(Move, u64)> {
        let logits: Vec<f32> = moves
            .iter()
            .map(|&m| {
                let (f, t) = move_rows(board, m);
                self.from[f] + self.to[t]
            })
            .collect();
        let max = logits.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
        let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
        moves
            .iter()
            .zip(&logits)
            .map(|(&m, l)| (m, (200.0 * (l - max).exp() / sum).round() as u64))
            .collect()
    }
}

/// The records of `n` games of 30 random plies, each position with the
/// taste's visits.
fn taste_records(n: u32, seed: u64) -> Vec<VisitRecord> {
    let taste = Taste::new(seed);
    let mut r = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5151);
    let mut out = Vec::new();
    for game in 0..n {
        let mut board = Bitboards::startpos();
        for _ in 0..30 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let visits = taste.visits(&board, &moves);
            let record = VisitRecord::from_counts(&board, game, 0, Wdl::Draw, visits).unwrap();
            out.push(record);
            board.play_unchecked(moves[(r.next_u64() % moves.len() as u64) as usize]);
        }
    }
    out
}

fn visits_file(records: &[VisitRecord]) -> Vec<u8> {
    let mut bytes = visits::header().to_vec();
    for r in records {
        r.write_to(&mut bytes).unwrap();
    }
    bytes
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fianchetto-policy-visits-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The mean entropy of the records' visit distributions: the least
/// cross-entropy a policy can reach on them.
fn mean_entropy(records: &[VisitRecord]) -> f64 {
    let mut sum = 0.0;
    for r in records {
        let total = r.total_visits() as f64;
        for m in &r.moves {
            if m.visits > 0 {
                let p = m.visits as f64 / total;
                sum -= p * p.ln();
            }
        }
    }
    sum / records.len() as f64
}

#[test]
fn a_tiny_run_learns_a_visit_distribution() {
    let dir = temp_dir("learn");
    let records = taste_records(60, 4);
    let path = dir.join("taste.visits");
    std::fs::write(&path, visits_file(&records)).unwrap();
    let data = PolicyData::load(&[&path]).unwrap();
    assert_eq!(data.game_count(), 60);
    assert_eq!(data.visit_records().len(), records.len());
    let examples = data.len();
    let config = PolicyTrainConfig {
        hidden: 32,
        epochs: 8,
        batch_size: 64,
        lr: 0.01,
        val_fraction: 0.2,
        seed: 3,
        threads: 2,
        // The taste prefers squares, not shapes: mirrored positions would
        // contradict it.
        mirror: false,
        ..PolicyTrainConfig::default()
    };
    let mut trainer = PolicyTrainer::new(config, data).unwrap();
    // Whole games are held out: 12 of 60.
    assert_eq!(trainer.val_len() + trainer.train_len(), examples);
    assert!((12 * 29..=12 * 30).contains(&trainer.val_len()));
    let uniform = trainer.uniform_validation().unwrap();
    let first = trainer.train_epoch();
    while !trainer.is_finished() {
        trainer.train_epoch();
    }
    let last = *trainer.history().last().unwrap();
    let val = last.val.unwrap();
    let floor = mean_entropy(&records);
    // The cross-entropy falls most of the way from a uniform policy's to
    // the targets' own entropy (the floor no policy goes below).
    assert!(last.train_loss < first.train_loss, "{last:?}");
    assert!(
        val.loss >= floor - 1e-3,
        "{} below the floor {floor}",
        val.loss
    );
    assert!(
        val.loss - floor < 0.35 * (uniform.loss - floor),
        "validation {:.4}, uniform {:.4}, floor {floor:.4}",
        val.loss,
        uniform.loss
    );
    // Its first choice is mostly the most visited move.
    assert!(
        val.top1 > 3.0 * uniform.top1 && val.top1 > 0.4,
        "top-1 {:.3}, chance {:.3}",
        val.top1,
        uniform.top1
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn visits_and_games_files_are_read_together() {
    let dir = temp_dir("mixed");
    let records = taste_records(3, 5);
    let visits_path = dir.join("a.visits");
    std::fs::write(&visits_path, visits_file(&records)).unwrap();
    // One game of the first record's most visited moves, as a games file.
    let mut board = Bitboards::startpos();
    let mut game = GameRecord::new(&board, false);
    for _ in 0..6 {
        let mv = board.legal_moves()[0];
        game.entries.push(Entry { mv, score: 0 });
        board.play_unchecked(mv);
    }
    let mut bytes = games::header().to_vec();
    game.write_to(&mut bytes).unwrap();
    let games_path = dir.join("b.games");
    std::fs::write(&games_path, &bytes).unwrap();
    let data = PolicyData::load(&[&games_path, &visits_path]).unwrap();
    assert_eq!(data.game_count(), 4);
    assert_eq!(data.len(), 6 + records.len() as u64);
    // Games of games files come first whatever the order of the files.
    let other = PolicyData::load(&[&visits_path, &games_path]).unwrap();
    assert_eq!(data.fingerprint(), other.fingerprint());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_visits_files_are_refused_with_the_file_named() {
    let dir = temp_dir("bad");
    let mut records = taste_records(1, 6);
    // Record 1 lists a move twice.
    let again = records[1].moves[0];
    records[1].moves.push(MoveVisits {
        mv: again.mv,
        visits: 1,
    });
    let bad = dir.join("dup.visits");
    std::fs::write(&bad, visits_file(&records[..4])).unwrap();
    let err = PolicyData::load(&[&bad]).unwrap_err().to_string();
    assert!(
        err.contains("dup.visits") && err.contains("record 1") && err.contains("listed before"),
        "{err}"
    );
    // A flipped byte: the checksum.
    let good = taste_records(1, 6);
    let mut bytes = visits_file(&good);
    bytes[16 + good[0].encoded_len() + 10] ^= 4;
    let flipped = dir.join("flip.visits");
    std::fs::write(&flipped, &bytes).unwrap();
    let err = PolicyData::load(&[&flipped]).unwrap_err().to_string();
    assert!(
        err.contains("flip.visits") && err.contains("record 1") && err.contains("checksum"),
        "{err}"
    );
    // Another version.
    let mut bytes = visits_file(&good);
    bytes[8] = 9;
    let version = dir.join("v9.visits");
    std::fs::write(&version, &bytes).unwrap();
    let err = PolicyData::load(&[&version]).unwrap_err().to_string();
    assert!(
        err.contains("v9.visits") && err.contains("version 9"),
        "{err}"
    );
    // Cut inside its last record: the whole records are read.
    let bytes = visits_file(&good);
    let cut = dir.join("cut.visits");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let data = PolicyData::load(&[&cut]).unwrap();
    assert_eq!(data.visit_records().len(), good.len() - 1);
    assert_eq!(data.visits_cut_short().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}
