//! The NNUE trainer end to end: it learns, its export matches its float
//! predictions, a checkpoint resumes exactly, and bad inputs are refused
//! with clear errors.

use fianchetto_board::{Bitboards, Board, Color, Piece, Role, Setup, Square};
use fianchetto_data::marlin::{DataError, PackedBoard, Wdl};
use fianchetto_eval::nnue::{Arch, KingBuckets, Network, Nnue, View, QA, QB, SCALE};
use fianchetto_eval::Evaluator;
use fianchetto_train::{
    Checkpoint, CheckpointError, ConfigRequest, RunFile, RunOutcome, TrainConfig, TrainData,
    TrainError, Trainer,
};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

fn below(rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    rng.next_u64() % n
}

/// Random legal positions (two kings and up to 12 other pieces a side),
/// scored by their material balance from white's point of view.
fn material_positions(n: usize, seed: u64) -> Vec<PackedBoard> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let values = [100, 300, 310, 500, 900];
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut setup = Setup::empty();
        let place = |setup: &mut Setup, piece: Piece, rng: &mut Xoshiro256PlusPlus| loop {
            let sq = below(rng, 64) as usize;
            let back_rank = !(8..56).contains(&sq);
            if setup.board[sq].is_none() && !(piece.role == Role::Pawn && back_rank) {
                setup.board[sq] = Some(piece);
                return;
            }
        };
        let mut balance = 0i32;
        for color in [Color::White, Color::Black] {
            place(&mut setup, Piece::new(color, Role::King), &mut rng);
            for _ in 0..below(&mut rng, 13) {
                let r = below(&mut rng, 5) as usize;
                place(&mut setup, Piece::new(color, Role::ALL[r]), &mut rng);
                balance += if color == Color::White {
                    values[r]
                } else {
                    -values[r]
                };
            }
        }
        setup.turn = if below(&mut rng, 2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let Ok(board) = Bitboards::from_setup(&setup) else {
            continue; // the side not to move in check, too many pawns, …
        };
        let wdl = match balance {
            b if b > 150 => Wdl::WhiteWin,
            b if b < -150 => Wdl::BlackWin,
            _ => Wdl::Draw,
        };
        out.push(PackedBoard::pack(&board, balance as i16, wdl));
    }
    out
}

fn small_config() -> TrainConfig {
    TrainConfig {
        arch: Arch::plain(32),
        epochs: 8,
        batch_size: 256,
        lr: 0.005,
        wdl: 0.0,
        val_fraction: 0.1,
        seed: 3,
        threads: 2,
        ..TrainConfig::default()
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fianchetto-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `trainer` through every epoch its configuration asks for.
fn train_to_end(trainer: &mut Trainer) {
    while !trainer.is_finished() {
        trainer.train_epoch().unwrap();
    }
}

#[test]
fn the_trainer_learns_material() {
    let data = TrainData::from_records(material_positions(6000, 1)).unwrap();
    let mut trainer = Trainer::new(small_config(), data).unwrap();
    let val = trainer.validation_records().to_vec();
    // 94 blocks of 64 (the last of 48), 9 of them held out.
    assert!((8 * 64 + 48..=9 * 64).contains(&val.len()), "{}", val.len());
    assert_eq!(trainer.val_len() as usize, val.len());
    assert_eq!(trainer.train_len() as usize + val.len(), 6000);
    let constant = trainer.constant_loss(&val);
    let before = trainer.validation_loss().unwrap();
    while !trainer.is_finished() {
        let stats = trainer.train_epoch().unwrap();
        eprintln!(
            "epoch {}: train {:.5} val {:.5} (constant {constant:.5})",
            stats.epoch,
            stats.train_loss,
            stats.val_loss.unwrap()
        );
    }
    let history = trainer.history();
    assert_eq!(history.len(), 8);
    let last = history[7];
    let val_loss = last.val_loss.unwrap();
    assert!(val_loss < before);
    assert!(
        val_loss < 0.2 * constant,
        "validation loss {val_loss} is not well below the best constant's {constant}"
    );
    assert!(last.train_loss < history[0].train_loss);
    // A queen up for the side to move is clearly good, from either side.
    let white = Bitboards::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    let black = Bitboards::from_fen("3qk3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
    for board in [white, black] {
        let cp = trainer.predict(&PackedBoard::pack(&board, 0, Wdl::Draw));
        assert!(cp > 400.0, "a queen up evaluates to {cp}");
    }
}

/// The views of both perspectives of `record` (the side to move's first),
/// found from the kings' squares, and its output bucket.
fn views(net: &Network, record: &PackedBoard) -> ([(Color, View); 2], usize) {
    let us = record.turn();
    let them = match us {
        Color::White => Color::Black,
        Color::Black => Color::White,
    };
    let pieces: Vec<(Square, Piece)> = record.pieces().map(Result::unwrap).collect();
    let king = |c: Color| {
        pieces
            .iter()
            .find(|(_, p)| *p == Piece::new(c, Role::King))
            .map(|(sq, _)| sq.index())
            .unwrap()
    };
    let arch = net.arch();
    let view = |c: Color| (c, arch.king_buckets.view(c.index(), king(c)));
    let bucket = arch.output_buckets.bucket(pieces.len() as u32);
    ([view(us), view(them)], bucket)
}

/// The quantized forward pass, in integers, from `Network`'s accessors:
/// what the engine's evaluator computes. Also checks that no accumulator
/// leaves the `i16` range.
fn quantized_eval(net: &Network, record: &PackedBoard) -> i32 {
    let h = net.hidden();
    let (persp, bucket) = views(net, record);
    let out_w = &net.out_weights()[2 * h * bucket..2 * h * (bucket + 1)];
    let mut sum = 0i64;
    for (half, (perspective, view)) in persp.into_iter().enumerate() {
        let mut acc: Vec<i32> = net.ft_bias().iter().map(|&b| b as i32).collect();
        for item in record.pieces() {
            let (sq, piece): (Square, Piece) = item.unwrap();
            let side = usize::from(piece.color != perspective);
            let f = view.index(side, piece.role.index(), sq.index());
            for (a, &w) in acc.iter_mut().zip(&net.ft_weights()[f * h..(f + 1) * h]) {
                *a += w as i32;
            }
        }
        for (i, &a) in acc.iter().enumerate() {
            assert!(a.abs() <= i16::MAX as i32, "accumulator {a} overflows i16");
            let c = a.clamp(0, QA) as i64;
            sum += c * c * out_w[half * h + i] as i64;
        }
    }
    let out = sum / QA as i64 + net.out_bias()[bucket] as i64;
    (out * SCALE as i64 / (QA * QB) as i64) as i32
}

/// The same forward pass in floats on the exported weights divided back by
/// their scales: what the integer pass computes, before its truncations.
fn dequantized_eval(net: &Network, record: &PackedBoard) -> f32 {
    let h = net.hidden();
    let (persp, bucket) = views(net, record);
    let out_w = &net.out_weights()[2 * h * bucket..2 * h * (bucket + 1)];
    let mut out = net.out_bias()[bucket] as f32 / (QA * QB) as f32;
    for (half, (perspective, view)) in persp.into_iter().enumerate() {
        let mut acc: Vec<f32> = net
            .ft_bias()
            .iter()
            .map(|&b| b as f32 / QA as f32)
            .collect();
        for item in record.pieces() {
            let (sq, piece) = item.unwrap();
            let side = usize::from(piece.color != perspective);
            let f = view.index(side, piece.role.index(), sq.index());
            for (a, &w) in acc.iter_mut().zip(&net.ft_weights()[f * h..(f + 1) * h]) {
                *a += w as f32 / QA as f32;
            }
        }
        for (i, &a) in acc.iter().enumerate() {
            let c = a.clamp(0.0, 1.0);
            out += c * c * out_w[half * h + i] as f32 / QB as f32;
        }
    }
    out * SCALE as f32
}

/// Tolerances: the integer pass equals the float pass on the exported
/// weights up to its truncation to whole centipawns (< 1 cp, 1.5 allowed
/// for float rounding). Against the trainer's float weights, the rounding
/// of the output weights to 1/64 (QB) dominates: this small net (H = 32,
/// evaluations up to thousands of cp) is about 5 cp off on average and 15
/// at worst; the bounds are a mean of 8 cp and a worst case of 25 cp.
#[test]
fn the_quantized_export_reproduces_the_float_predictions() {
    let records = material_positions(4000, 2);
    let data = TrainData::from_records(records.clone()).unwrap();
    for arch in [
        Arch::plain(32),
        Arch::plain(32)
            .with_king_buckets(KingBuckets::MIRRORED_4)
            .with_output_buckets(8),
    ] {
        let config = TrainConfig {
            arch,
            epochs: 5,
            ..small_config()
        };
        let mut trainer = Trainer::new(config, data.clone()).unwrap();
        train_to_end(&mut trainer);
        let net = Network::from_bytes(&trainer.export().to_bytes()).unwrap();
        assert_eq!(net, trainer.export());
        assert_eq!(*net.arch(), arch);
        assert!(net.out_weights().iter().all(|w| w.abs() <= 128));
        let (mut worst, mut total, mut worst_int) = (0.0f32, 0.0f32, 0.0f32);
        let sample = &records[..1000];
        // The engine's evaluator, loaded from the exported bytes.
        let mut engine = Nnue::from_bytes(&trainer.export().to_bytes()).unwrap();
        for record in sample {
            let board = Bitboards::from_setup(&record.unpack().unwrap().setup).unwrap();
            let from_engine = engine.evaluate(&board).value();
            assert_eq!(
                from_engine,
                quantized_eval(&net, record),
                "{arch}: engine vs reference"
            );
            let quantized = from_engine as f32;
            worst_int = worst_int.max((dequantized_eval(&net, record) - quantized).abs());
            let diff = (trainer.predict(record) - quantized).abs();
            worst = worst.max(diff);
            total += diff;
        }
        let mean = total / sample.len() as f32;
        eprintln!(
            "{arch}: quantized vs float: mean {mean:.2} cp, worst {worst:.2} cp; \
             integer vs dequantized float: worst {worst_int:.2} cp"
        );
        assert!(
            worst_int < 1.5,
            "{arch}: the integer pass is {worst_int} cp off"
        );
        assert!(
            mean <= 8.0,
            "{arch}: the quantized net is {mean} cp from the float one on average"
        );
        assert!(
            worst <= 25.0,
            "{arch}: the quantized net is {worst} cp from the float one"
        );
    }
}

#[test]
fn a_resumed_run_matches_a_straight_one() {
    let data = TrainData::from_records(material_positions(1500, 3)).unwrap();
    // Small chunks and windows, so that the epochs stream several windows
    // and the stop falls inside one.
    let config = TrainConfig {
        arch: Arch::plain(16).with_king_buckets(KingBuckets::MIRRORED_4),
        epochs: 3,
        batch_size: 150,
        chunk: 200,
        window: 2,
        warmup: 5,
        wdl_end: 0.5,
        ..small_config()
    };
    let mut straight = Trainer::new(config.clone(), data.clone()).unwrap();
    train_to_end(&mut straight);

    // One epoch, then three batches of the second before "Ctrl-C".
    let mut first = Trainer::new(config.clone(), data.clone()).unwrap();
    first.train_epoch().unwrap();
    let stop = AtomicBool::new(false);
    let mut batches = 0;
    let mut done = Vec::new();
    let stopped = first
        .train_epoch_with(Some(&stop), &mut |p| {
            done.push(p);
            batches += 1;
            if batches == 6 {
                stop.store(true, Ordering::Relaxed);
            }
        })
        .unwrap();
    assert!(stopped.is_none());
    assert_eq!(first.epochs_done(), 1);
    assert_eq!(first.epoch_progress(), done[5]);
    // The windows' last batches are smaller: 6 batches are not 900 positions.
    assert!(done.windows(2).any(|w| w[1] - w[0] < 150), "{done:?}");
    let bytes = first.checkpoint_bytes();
    drop(first);

    let checkpoint = Checkpoint::from_bytes(&bytes).unwrap();
    assert_eq!(checkpoint.config(), &config);
    let mut resumed = Trainer::resume(checkpoint, config, data).unwrap();
    train_to_end(&mut resumed);
    assert_eq!(resumed.steps(), straight.steps());
    assert!(
        resumed.parameters() == straight.parameters(),
        "resumed weights differ from a straight run's"
    );
    assert_eq!(resumed.export(), straight.export());
    let losses = |t: &Trainer| -> Vec<(u64, Option<u64>)> {
        t.history()
            .iter()
            .map(|e| (e.train_loss.to_bits(), e.val_loss.map(f64::to_bits)))
            .collect()
    };
    assert_eq!(losses(&resumed), losses(&straight));
}

#[test]
fn runs_are_deterministic_for_a_seed_and_thread_count() {
    let data = TrainData::from_records(material_positions(800, 4)).unwrap();
    let config = TrainConfig {
        arch: Arch::plain(16).with_output_buckets(4),
        epochs: 1,
        batch_size: 64,
        threads: 3,
        ..small_config()
    };
    let mut a = Trainer::new(config.clone(), data.clone()).unwrap();
    let mut b = Trainer::new(config.clone(), data.clone()).unwrap();
    a.train_epoch().unwrap();
    b.train_epoch().unwrap();
    assert!(a.parameters() == b.parameters());
    let mut c = Trainer::new(TrainConfig { seed: 99, ..config }, data).unwrap();
    c.train_epoch().unwrap();
    assert!(a.parameters() != c.parameters());
}

#[test]
fn the_run_writes_net_checkpoint_and_plot_and_resumes_after_a_stop() {
    let dir = temp_dir("run");
    let data_path = dir.join("data.bin");
    let bytes: Vec<u8> = material_positions(1200, 5)
        .iter()
        .flat_map(|r| r.to_bytes())
        .collect();
    std::fs::write(&data_path, bytes).unwrap();
    let out = dir.join("net.nnue");
    let request = ConfigRequest {
        hidden: Some(16),
        epochs: Some(2),
        batch_size: Some(128),
        threads: Some(2),
        val_fraction: Some(0.1),
        ..ConfigRequest::default()
    };
    let load = || TrainData::load(&[&data_path]).unwrap();

    // Stopped before the first batch: everything saved anyway.
    let mut trainer = fianchetto_train::start(&request, load(), &out, false).unwrap();
    let stop = AtomicBool::new(true);
    let outcome = fianchetto_train::run(&mut trainer, &out, false, &stop, &mut |_| {}).unwrap();
    assert_eq!(
        outcome,
        RunOutcome::Interrupted {
            epochs_done: 0,
            positions: 0
        }
    );
    assert!(fianchetto_train::checkpoint_path(&out).exists());
    assert!(Network::from_bytes(&std::fs::read(&out).unwrap()).is_ok());

    // A new run does not overwrite it; a resumed one must keep its settings.
    let err = fianchetto_train::start(&request, load(), &out, false).unwrap_err();
    assert!(matches!(err, TrainError::CheckpointExists(_)), "{err}");
    let clash = ConfigRequest {
        hidden: Some(32),
        ..request.clone()
    };
    let err = fianchetto_train::start(&clash, load(), &out, true).unwrap_err();
    assert!(err.to_string().contains("hidden 16 vs 32"), "{err}");

    let mut trainer = fianchetto_train::start(&request, load(), &out, true).unwrap();
    let mut epochs = Vec::new();
    let stop = AtomicBool::new(false);
    let outcome = fianchetto_train::run(&mut trainer, &out, false, &stop, &mut |e| {
        epochs.push(e.epoch)
    })
    .unwrap();
    assert_eq!(outcome, RunOutcome::Finished);
    assert_eq!(epochs, [1, 2]);
    let net = Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(net, trainer.export());
    let saved = Checkpoint::read(&fianchetto_train::checkpoint_path(&out)).unwrap();
    assert_eq!(saved.epochs_done(), 2);
    assert_eq!(saved.history().len(), 2);
    let svg = std::fs::read_to_string(fianchetto_train::plot_path(&out)).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("validation") && svg.contains("epoch"),
        "{svg}"
    );
    // The run file names the data and every setting.
    let run = RunFile::read(&fianchetto_train::run_path(&out)).unwrap();
    assert_eq!(run.data, std::slice::from_ref(&data_path));
    assert_eq!(run.out.as_deref(), Some(out.as_path()));
    assert_eq!(&run.request.fresh().unwrap(), trainer.config());

    // Training longer continues the same run.
    let longer = ConfigRequest {
        epochs: Some(3),
        ..request
    };
    let mut trainer = fianchetto_train::start(&longer, load(), &out, true).unwrap();
    assert_eq!(trainer.epochs_done(), 2);
    fianchetto_train::run(&mut trainer, &out, false, &stop, &mut |_| {}).unwrap();
    assert_eq!(trainer.history().len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_data_files_are_named() {
    let dir = temp_dir("data");
    let good: Vec<u8> = material_positions(4, 6)
        .iter()
        .flat_map(|r| r.to_bytes())
        .collect();

    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, &good[..good.len() - 5]).unwrap();
    let err = TrainData::load(&[&truncated]).unwrap_err();
    assert!(
        matches!(err, TrainError::Data(DataError::Truncated { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("truncated.bin"), "{err}");

    let bad = dir.join("bad.bin");
    let mut bytes = good.clone();
    bytes[2 * 32 + 30] = 7; // record 2's result
    std::fs::write(&bad, &bytes).unwrap();
    let err = TrainData::load(&[&bad]).unwrap_err().to_string();
    assert!(
        err.contains("bad.bin") && err.contains("record 2") && err.contains("result 7"),
        "{err}"
    );

    let err = TrainData::load(&[dir.join("missing.bin")]).unwrap_err();
    assert!(err.to_string().contains("missing.bin"), "{err}");

    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let data = TrainData::load(&[&empty]).unwrap();
    let err = Trainer::new(small_config(), data).unwrap_err();
    assert!(matches!(err, TrainError::NoTrainingData(0)), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_checkpoints_are_refused_clearly() {
    let data = TrainData::from_records(material_positions(300, 7)).unwrap();
    let config = TrainConfig {
        arch: Arch::plain(16),
        epochs: 2,
        batch_size: 64,
        ..small_config()
    };
    let mut trainer = Trainer::new(config.clone(), data.clone()).unwrap();
    trainer.train_epoch().unwrap();
    let bytes = trainer.checkpoint_bytes();
    assert!(Checkpoint::from_bytes(&bytes).is_ok());

    assert_eq!(
        Checkpoint::from_bytes(&bytes[..50]),
        Err(CheckpointError::TooShort(50))
    );
    assert!(matches!(
        Checkpoint::from_bytes(&bytes[..bytes.len() - 1]),
        Err(CheckpointError::Length { epochs: 1, .. })
    ));
    let mut b = bytes.clone();
    b[0] = b'X';
    assert_eq!(Checkpoint::from_bytes(&b), Err(CheckpointError::Magic));
    let mut b = bytes.clone();
    b[8] = 9;
    assert_eq!(Checkpoint::from_bytes(&b), Err(CheckpointError::Version(9)));
    let mut b = bytes.clone();
    let mid = b.len() / 2;
    b[mid] ^= 0x40;
    assert!(matches!(
        Checkpoint::from_bytes(&b),
        Err(CheckpointError::Checksum { .. })
    ));

    // Through a file: the error names it.
    let dir = temp_dir("ckpt");
    let path = dir.join("net.ckpt");
    std::fs::write(&path, &bytes[..1000]).unwrap();
    let err = Checkpoint::read(&path).unwrap_err().to_string();
    assert!(
        err.contains("net.ckpt") && err.contains("truncated"),
        "{err}"
    );
    let err = Checkpoint::read(&dir.join("none.ckpt")).unwrap_err();
    assert!(matches!(err, TrainError::Io { .. }), "{err}");

    // The right file, the wrong data or settings.
    let other = TrainData::from_records(material_positions(300, 8)).unwrap();
    let err = Trainer::resume(
        Checkpoint::from_bytes(&bytes).unwrap(),
        config.clone(),
        other,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("other data"), "{err}");
    let err = Trainer::resume(
        Checkpoint::from_bytes(&bytes).unwrap(),
        TrainConfig { lr: 0.1, ..config },
        data,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("lr"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn settings_are_checked() {
    let data = || TrainData::from_records(material_positions(50, 9)).unwrap();
    let d = TrainConfig::default;
    for (config, word) in [
        (
            TrainConfig {
                arch: Arch::plain(100),
                ..d()
            },
            "multiple of 16",
        ),
        (
            TrainConfig {
                arch: Arch::plain(16).with_output_buckets(17),
                ..d()
            },
            "17 output buckets",
        ),
        (TrainConfig { window: 0, ..d() }, "window"),
        (
            TrainConfig {
                wdl_end: -0.1,
                ..d()
            },
            "wdl-end",
        ),
        (
            TrainConfig {
                batch_size: 0,
                ..d()
            },
            "batch",
        ),
        (
            TrainConfig {
                lr: f32::NAN,
                ..d()
            },
            "learning rate",
        ),
        (TrainConfig { wdl: 1.5, ..d() }, "wdl"),
        (
            TrainConfig {
                val_fraction: 0.9,
                ..d()
            },
            "validation",
        ),
        (TrainConfig { threads: 0, ..d() }, "threads"),
    ] {
        let err = Trainer::new(config, data()).unwrap_err().to_string();
        assert!(err.contains(word), "{err}");
    }
    let fresh = ConfigRequest {
        hidden: Some(64),
        ..ConfigRequest::default()
    }
    .fresh()
    .unwrap();
    assert_eq!(fresh.arch, Arch::plain(64));
    assert_eq!(fresh.batch_size, 16_384);
}

/// A network trained by the whole run `config` on `records`, and written to
/// `path`.
fn trained_net_file(config: &TrainConfig, records: &[PackedBoard], path: &Path) -> Network {
    let mut trainer = Trainer::new(
        config.clone(),
        TrainData::from_records(records.to_vec()).unwrap(),
    )
    .unwrap();
    train_to_end(&mut trainer);
    let net = trainer.export();
    std::fs::write(path, net.to_bytes()).unwrap();
    net
}

#[test]
fn a_network_widens_into_buckets_and_neurons_and_keeps_its_predictions() {
    let dir = temp_dir("widen");
    let records = material_positions(2000, 9);
    let plain = TrainConfig {
        epochs: 2,
        ..small_config()
    };
    let path = dir.join("plain.nnue");
    let net = trained_net_file(&plain, &records, &path);
    let start_from = |init: &PathBuf, arch: Arch| {
        Trainer::new(
            TrainConfig {
                arch,
                init: Some(init.clone()),
                ..plain.clone()
            },
            TrainData::from_records(records.clone()).unwrap(),
        )
        .map(|t| t.export())
    };
    let start = |arch: Arch| start_from(&path, arch);

    // Eight sets of output weights, each a copy of the one: every position
    // evaluates as before.
    let outputs = start(Arch::plain(32).with_output_buckets(8)).unwrap();
    assert_eq!(outputs.arch().output_buckets.count, 8);
    for r in &records {
        assert_eq!(dequantized_eval(&outputs, r), dequantized_eval(&net, r));
    }

    // Four mirrored king buckets as well: positions with both kings on
    // files a-d see the board as the plain network did.
    let kings = start(
        Arch::plain(32)
            .with_king_buckets(KingBuckets::MIRRORED_4)
            .with_output_buckets(8),
    )
    .unwrap();
    let on_queen_side = |r: &PackedBoard| {
        r.pieces()
            .map(Result::unwrap)
            .filter(|(_, p)| p.role == Role::King)
            .all(|(sq, _)| sq.index() % 8 < 4)
    };
    let mut same = 0;
    for r in records.iter().filter(|r| on_queen_side(r)) {
        assert_eq!(dequantized_eval(&kings, r), dequantized_eval(&net, r));
        same += 1;
    }
    assert!(same > 100, "{same} positions with both kings on files a-d");

    // A wider hidden layer: the added neurons have no say until trained,
    // so every position evaluates as before, and their feature weights
    // differ from each other's.
    let wider = start(Arch::plain(48).with_output_buckets(8)).unwrap();
    assert_eq!(wider.arch().hidden, 48);
    for r in &records {
        assert_eq!(dequantized_eval(&wider, r), dequantized_eval(&net, r));
    }
    let row = &wider.ft_weights()[..48];
    assert_eq!(&row[..32], &net.ft_weights()[..32]);
    assert!(row[32..].iter().any(|&w| w != row[32]), "{row:?}");

    // A narrower hidden layer, or a bucketed network into a plain run, is
    // not a widening.
    assert!(matches!(
        start(Arch::plain(16)).err(),
        Some(TrainError::Init { .. })
    ));
    let bucketed = dir.join("bucketed.nnue");
    std::fs::write(&bucketed, outputs.to_bytes()).unwrap();
    let err = start_from(&bucketed, Arch::plain(32)).err().unwrap();
    assert!(err.to_string().contains("bucketed.nnue"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_can_start_from_a_network_and_refuses_one_that_does_not_fit() {
    let dir = temp_dir("init");
    let records = material_positions(3000, 7);
    // A trained net, written to a file.
    let config = TrainConfig {
        arch: Arch::plain(32).with_output_buckets(2),
        ..small_config()
    };
    let path = dir.join("start.nnue");
    let net = trained_net_file(&config, &records, &path);

    // Started from it, a run holds its weights exactly: the export before
    // any step is the same network, and it predicts what the file does.
    let tuned = TrainConfig {
        init: Some(path.clone()),
        seed: 11,
        ..config.clone()
    };
    let mut second = Trainer::new(
        tuned.clone(),
        TrainData::from_records(records.clone()).unwrap(),
    )
    .unwrap();
    assert_eq!(second.export(), net);
    for r in records.iter().take(50) {
        let from_file = dequantized_eval(&net, r);
        assert!(
            (second.predict(r) - from_file).abs() < 0.5,
            "{} vs {from_file}",
            second.predict(r)
        );
    }
    // Fine-tuning begins where the first run ended, not from scratch.
    let fresh = Trainer::new(
        TrainConfig {
            init: None,
            ..tuned.clone()
        },
        TrainData::from_records(records.clone()).unwrap(),
    )
    .unwrap();
    let val = second.validation_records().to_vec();
    let mut fresh = fresh;
    let (tuned_loss, fresh_loss) = (second.loss_on(&val), fresh.loss_on(&val));
    assert!(
        tuned_loss < 0.8 * fresh_loss,
        "{tuned_loss} vs {fresh_loss}"
    );
    second.train_epoch().unwrap();

    // The run file keeps the starting network.
    let run = RunFile::of(&tuned, &["d.bin".into()], &dir.join("out.nnue"));
    let text = run.to_text();
    assert!(
        text.contains(&format!("init = {}\n", path.display())),
        "{text}"
    );
    assert_eq!(
        RunFile::parse(&text, &dir.join("out.nnue.run"))
            .unwrap()
            .request
            .fresh()
            .unwrap(),
        tuned
    );

    // Another architecture, a missing file and a corrupt one are refused
    // with the file named.
    let other = TrainConfig {
        arch: Arch::plain(48),
        ..tuned.clone()
    };
    let err = Trainer::new(other, TrainData::from_records(records.clone()).unwrap())
        .err()
        .unwrap();
    let msg = err.to_string();
    assert!(matches!(err, TrainError::Init { .. }), "{msg}");
    assert!(
        msg.contains("start.nnue") && msg.contains("--hidden"),
        "{msg}"
    );
    let missing = TrainConfig {
        init: Some(dir.join("nowhere.nnue")),
        ..tuned.clone()
    };
    let err = Trainer::new(missing, TrainData::from_records(records.clone()).unwrap())
        .err()
        .unwrap();
    assert!(err.to_string().contains("nowhere.nnue"), "{err}");
    let bad = dir.join("bad.nnue");
    let mut bytes = net.to_bytes();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&bad, bytes).unwrap();
    let err = Trainer::new(
        TrainConfig {
            init: Some(bad),
            ..tuned
        },
        TrainData::from_records(records).unwrap(),
    )
    .err()
    .unwrap();
    assert!(
        matches!(err, TrainError::Init { .. }) && err.to_string().contains("bad.nnue"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
