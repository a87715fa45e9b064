//! The policy trainer end to end: it learns a habit well above chance, its
//! export ranks moves as the float network does, a checkpoint resumes
//! exactly, and damaged files are refused with errors naming them.

use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_data::games::{self, Entry, GameRecord};
use fianchetto_eval::policy::{move_rows, PolicyNet, TO_ROWS};
use fianchetto_movegen::MoveGen;
use fianchetto_train::policy::{
    self, PolicyCheckpoint, PolicyData, PolicyTrainConfig, PolicyTrainer,
};
use fianchetto_train::{checkpoint_path, plot_path, RunOutcome, TrainError};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// A "search" with a fixed taste: each from-square row and each
/// destination row has a score drawn once, and it plays the legal move
/// whose two scores add up highest. A policy network can learn exactly
/// that (with a constant hidden layer, its logits are such sums).
struct Habit {
    from: [f32; 64],
    to: Vec<f32>,
}

impl Habit {
    fn new(seed: u64) -> Habit {
        let mut r = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut unit = || (r.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        Habit {
            from: std::array::from_fn(|_| unit()),
            to: (0..TO_ROWS).map(|_| unit()).collect(),
        }
    }

    fn choose(&self, board: &Bitboards, moves: &[Move]) -> Move {
        let score = |&m: &Move| {
            let (f, t) = move_rows(board, m);
            self.from[f] + self.to[t]
        };
        let mut best = moves[0];
        for m in moves {
            if score(m) > score(&best) {
                best = *m;
            }
        }
        best
    }
}

/// `n` games of up to 40 plies by the habit, each from a start reached by
/// two to seven random plies (so that the games differ).
fn habit_games(n: usize, seed: u64) -> Vec<GameRecord> {
    let habit = Habit::new(seed);
    let mut r = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0xABCD);
    let mut out = Vec::new();
    while out.len() < n {
        let mut board = Bitboards::startpos();
        for _ in 0..2 + r.next_u64() % 6 {
            let moves = board.legal_moves();
            board.play_unchecked(moves[(r.next_u64() % moves.len() as u64) as usize]);
        }
        let mut game = GameRecord::new(&board, false);
        for _ in 0..40 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = habit.choose(&board, &moves);
            game.entries.push(Entry { mv, score: 0 });
            board.play_unchecked(mv);
        }
        if game.entries.len() >= 10 {
            out.push(game);
        }
    }
    out
}

/// Every position of `games` with the index of the move played.
fn positions(games: &[GameRecord]) -> Vec<(Bitboards, Vec<Move>, usize)> {
    let mut out = Vec::new();
    for game in games {
        game.replay(|_, board, entry| {
            let moves: Vec<Move> = board.legal_moves().to_vec();
            if moves.len() >= 2 {
                let target = moves.iter().position(|&m| m == entry.mv).unwrap();
                out.push((board.clone(), moves, target));
            }
        })
        .unwrap();
    }
    out
}

fn argmax(values: &[f32]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

/// How often the float network's first choice is the move played.
fn float_top1(trainer: &PolicyTrainer, positions: &[(Bitboards, Vec<Move>, usize)]) -> f64 {
    let mut hits = 0;
    for (board, moves, target) in positions {
        let mut out = vec![0.0; moves.len()];
        trainer.logits(board, moves, &mut out);
        hits += (argmax(&out) == *target) as usize;
    }
    hits as f64 / positions.len() as f64
}

fn small_config() -> PolicyTrainConfig {
    PolicyTrainConfig {
        hidden: 32,
        epochs: 6,
        batch_size: 64,
        lr: 0.01,
        val_fraction: 0.2,
        seed: 3,
        threads: 2,
        // The habit prefers squares, not shapes: its mirror image is
        // another habit, so the mirrored positions would contradict it.
        mirror: false,
        ..PolicyTrainConfig::default()
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fianchetto-policy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn games_file(games: &[GameRecord]) -> Vec<u8> {
    let mut bytes = games::header().to_vec();
    for game in games {
        game.write_to(&mut bytes).unwrap();
    }
    bytes
}

#[test]
fn a_tiny_run_learns_a_habit_well_above_chance() {
    let games = habit_games(60, 1);
    let all = positions(&games);
    let data = PolicyData::from_games(games).unwrap();
    assert_eq!(data.len(), all.len() as u64);
    let mut trainer = PolicyTrainer::new(small_config(), data).unwrap();
    assert!(trainer.val_len() > 0 && trainer.train_len() > 1000);
    let chance = trainer.uniform_validation().unwrap();
    let before = float_top1(&trainer, &all);
    let first = trainer.train_epoch();
    while !trainer.is_finished() {
        trainer.train_epoch();
    }
    let last = *trainer.history().last().unwrap();
    assert!(
        last.train_loss < 0.6 * first.train_loss,
        "train loss {} -> {}",
        first.train_loss,
        last.train_loss
    );
    let after = float_top1(&trainer, &all);
    assert!(
        after > 0.5 && after > before + 0.3,
        "top-1 on the games {before:.3} -> {after:.3}"
    );
    // The held-out games too, by the quantized network.
    let val = last.val.unwrap();
    assert!(
        val.top1 > 4.0 * chance.top1 && val.top1 > 0.4,
        "validation top-1 {:.3}, chance {:.3}",
        val.top1,
        chance.top1
    );
    assert!(val.top3 >= val.top1 && val.loss < chance.loss);
}

#[test]
fn positions_without_castling_rights_are_also_trained_mirrored() {
    let games = habit_games(20, 5);
    let all = positions(&games);
    let uncastled = all.iter().filter(|p| p.0.castling().is_empty()).count() as u64;
    assert!(uncastled > 0 && uncastled < all.len() as u64);
    let config = |mirror| PolicyTrainConfig {
        val_fraction: 0.0,
        mirror,
        ..small_config()
    };
    let data = PolicyData::from_games(games).unwrap();
    let plain = PolicyTrainer::new(config(false), data.clone()).unwrap();
    let mirrored = PolicyTrainer::new(config(true), data).unwrap();
    assert_eq!(plain.train_len(), all.len() as u64);
    assert_eq!(mirrored.train_len(), all.len() as u64 + uncastled);
}

#[test]
fn the_export_loads_and_ranks_moves_as_the_float_net_does() {
    let games = habit_games(30, 2);
    let all = positions(&games);
    let config = PolicyTrainConfig {
        epochs: 3,
        ..small_config()
    };
    let mut trainer = PolicyTrainer::new(config, PolicyData::from_games(games).unwrap()).unwrap();
    while !trainer.is_finished() {
        trainer.train_epoch();
    }
    let net = trainer.export();
    let loaded = PolicyNet::from_bytes(&net.to_bytes()).unwrap();
    assert_eq!(loaded, net);
    let mut same = 0;
    let mut worst = 0.0f32;
    for (board, moves, _) in &all {
        let (mut float, mut quant) = (vec![0.0; moves.len()], vec![0.0; moves.len()]);
        trainer.logits(board, moves, &mut float);
        loaded.logits(board, moves, &mut quant);
        same += (argmax(&float) == argmax(&quant)) as usize;
        for (f, q) in float.iter().zip(&quant) {
            worst = worst.max((f - q).abs());
        }
    }
    let share = same as f64 / all.len() as f64;
    assert!(
        share > 0.9,
        "the same first choice in {share:.3} of the positions"
    );
    assert!(
        worst < 0.25,
        "a quantized logit {worst} away from the float one"
    );
}

#[test]
fn a_resumed_run_matches_a_straight_one() {
    let games = habit_games(20, 4);
    let config = PolicyTrainConfig {
        epochs: 3,
        ..small_config()
    };
    let data = PolicyData::from_games(games).unwrap();
    let mut straight = PolicyTrainer::new(config.clone(), data.clone()).unwrap();
    while !straight.is_finished() {
        straight.train_epoch();
    }

    // Stopped after the third batch of the second epoch, saved, read back.
    let mut first = PolicyTrainer::new(config.clone(), data.clone()).unwrap();
    first.train_epoch();
    let stop = AtomicBool::new(false);
    let mut batches = 0;
    let done = first.train_epoch_with(Some(&stop), &mut |_| {
        batches += 1;
        if batches == 3 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert!(done.is_none());
    assert_eq!(first.epoch_progress(), 3 * 64);
    let saved = PolicyCheckpoint::from_bytes(&first.checkpoint_bytes()).unwrap();
    assert_eq!(saved, first.checkpoint());
    let mut resumed = PolicyTrainer::resume(saved, config.clone(), data.clone()).unwrap();
    while !resumed.is_finished() {
        resumed.train_epoch();
    }
    assert_eq!(resumed.parameters(), straight.parameters());
    let losses = |t: &PolicyTrainer| -> Vec<(f64, Option<f64>)> {
        t.history()
            .iter()
            .map(|e| (e.train_loss, e.val.map(|v| v.top1)))
            .collect()
    };
    assert_eq!(losses(&resumed), losses(&straight));

    // Other settings or other data are refused.
    let other = PolicyTrainConfig {
        lr: 0.02,
        ..config.clone()
    };
    let err = PolicyTrainer::resume(first.checkpoint(), other, data).unwrap_err();
    assert!(err.to_string().contains("lr 0.01 vs 0.02"), "{err}");
    let fewer = PolicyData::from_games(habit_games(19, 4)).unwrap();
    let err = PolicyTrainer::resume(first.checkpoint(), config, fewer).unwrap_err();
    assert!(err.to_string().contains("other data"), "{err}");
}

#[test]
fn the_run_writes_net_checkpoint_and_curve_and_resumes() {
    let dir = temp_dir("run");
    let out = dir.join("net.policy");
    let config = PolicyTrainConfig {
        epochs: 2,
        ..small_config()
    };
    let data = PolicyData::from_games(habit_games(10, 5)).unwrap();
    let mut trainer = policy::start(config.clone(), data.clone(), &out, false).unwrap();
    let stop = AtomicBool::new(false);
    let mut epochs = Vec::new();
    let outcome = policy::run(&mut trainer, &out, false, &stop, &mut |e| {
        epochs.push(e.epoch)
    })
    .unwrap();
    assert_eq!(outcome, RunOutcome::Finished);
    assert_eq!(epochs, [1, 2]);
    assert_eq!(PolicyNet::from_file(&out).unwrap(), trainer.export());
    let svg = std::fs::read_to_string(plot_path(&out)).unwrap();
    assert!(svg.contains("<svg") && svg.contains("Policy training"));

    // A second run would overwrite the checkpoint; --resume goes on.
    let err = policy::start(config.clone(), data.clone(), &out, false).unwrap_err();
    assert!(matches!(err, TrainError::CheckpointExists(_)), "{err}");
    let saved = PolicyCheckpoint::read(&checkpoint_path(&out)).unwrap();
    assert_eq!(saved.epochs_done(), 2);
    let more = PolicyTrainConfig {
        epochs: 3,
        threads: 1,
        ..saved.config().clone()
    };
    let mut resumed = policy::start(more, data, &out, true).unwrap();
    assert_eq!(resumed.epochs_done(), 2);
    policy::run(&mut resumed, &out, false, &stop, &mut |_| {}).unwrap();
    assert_eq!(resumed.history().len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_checkpoints_are_refused_with_the_file_named() {
    let dir = temp_dir("ckpt");
    let config = PolicyTrainConfig {
        epochs: 1,
        ..small_config()
    };
    let mut trainer =
        PolicyTrainer::new(config, PolicyData::from_games(habit_games(6, 6)).unwrap()).unwrap();
    trainer.train_epoch();
    let good = trainer.checkpoint_bytes();
    let path = dir.join("net.policy.ckpt");
    let refuse = |bytes: &[u8], what: &str| {
        std::fs::write(&path, bytes).unwrap();
        let err = PolicyCheckpoint::read(&path).unwrap_err().to_string();
        assert!(
            err.contains("net.policy.ckpt") && err.contains(what),
            "{err}"
        );
    };
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x10;
    refuse(&flipped, "checksum");
    refuse(&good[..good.len() - 3], "truncated");
    refuse(&good[..40], "shorter than its header");
    let mut magic = good.clone();
    magic[..8].copy_from_slice(b"FIANCKPT");
    refuse(&magic, "not a Fianchetto policy");
    let err = PolicyCheckpoint::read(&dir.join("missing.ckpt")).unwrap_err();
    assert!(err.to_string().contains("missing.ckpt"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_data_files_are_refused_with_the_file_named() {
    let dir = temp_dir("data");
    let games = habit_games(3, 7);
    let good = games_file(&games);

    let path = dir.join("good.games");
    std::fs::write(&path, &good).unwrap();
    let data = PolicyData::load(&[&path]).unwrap();
    assert_eq!(data.len(), positions(&games).len() as u64);
    assert_eq!(data.source_names(), [path.display().to_string()]);

    // A byte of game 1's moves changed: its checksum no longer matches.
    let second = 16 + games[0].encoded_len();
    let mut bytes = good.clone();
    bytes[second + 40] ^= 0x01;
    let bad = dir.join("bad.games");
    std::fs::write(&bad, &bytes).unwrap();
    let err = PolicyData::load(&[&path, &bad]).unwrap_err().to_string();
    assert!(
        err.contains("bad.games") && err.contains("game 1") && err.contains("checksum"),
        "{err}"
    );

    // Not a games file at all.
    let other = dir.join("records.bin");
    std::fs::write(&other, [0u8; 64]).unwrap();
    let err = PolicyData::load(&[&other]).unwrap_err().to_string();
    assert!(
        err.contains("records.bin") && err.contains("not a Fianchetto games file"),
        "{err}"
    );

    // A file cut inside its last game (one datagen is still writing) gives
    // its whole games.
    let cut = dir.join("cut.games");
    std::fs::write(&cut, &good[..good.len() - 7]).unwrap();
    let data = PolicyData::load(&[&cut]).unwrap();
    assert_eq!(data.games().len(), 2);
    assert_eq!(data.cut_short().len(), 1);

    let err = PolicyData::load(&[dir.join("missing.games")]).unwrap_err();
    assert!(err.to_string().contains("missing.games"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn settings_out_of_range_are_named() {
    for (config, what) in [
        (
            PolicyTrainConfig {
                hidden: 70,
                ..PolicyTrainConfig::default()
            },
            "hidden size 70",
        ),
        (
            PolicyTrainConfig {
                batch_size: 0,
                ..PolicyTrainConfig::default()
            },
            "batch size 0",
        ),
        (
            PolicyTrainConfig {
                val_fraction: 0.9,
                ..PolicyTrainConfig::default()
            },
            "validation fraction 0.9",
        ),
        (
            PolicyTrainConfig {
                threads: 0,
                ..PolicyTrainConfig::default()
            },
            "threads 0",
        ),
    ] {
        let err = config.validate().unwrap_err().to_string();
        assert!(err.contains(what), "{err}");
    }
    let data = PolicyData::from_games(Vec::new()).unwrap();
    let err = PolicyTrainer::new(PolicyTrainConfig::default(), data).unwrap_err();
    assert!(matches!(err, TrainError::NoTrainingData(0)), "{err}");
}
