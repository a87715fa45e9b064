//! `fianchetto train`: trains on a small self-play file, writes the net,
//! checkpoint, loss curve and run file, refuses to overwrite a run, resumes
//! it, runs the run file again to the same net, and rejects bad settings
//! and bad data with a message.

use fianchetto_data::games::Filter;
use fianchetto_engine::commands::train::{run, TrainArgs};
use fianchetto_eval::nnue::{KingBuckets, Network};
use fianchetto_eval::policy::PolicyNet;
use fianchetto_tune::datagen::{play_game, DatagenConfig};
use std::path::PathBuf;

fn args(data: PathBuf, out: PathBuf) -> TrainArgs {
    TrainArgs {
        data: vec![data],
        out: Some(out),
        hidden: Some(16),
        king_buckets: Some(KingBuckets::MIRRORED_4),
        output_buckets: Some(4),
        epochs: Some(2),
        batch: Some(64),
        warmup: Some(3),
        threads: Some(2),
        val_fraction: Some(0.1),
        ..empty()
    }
}

/// Arguments that give nothing but quiet.
fn empty() -> TrainArgs {
    TrainArgs {
        policy: false,
        config: None,
        data: Vec::new(),
        out: None,
        hidden: None,
        king_buckets: None,
        output_buckets: None,
        epochs: None,
        batch: None,
        lr: None,
        lr_schedule: None,
        warmup: None,
        wdl: None,
        wdl_end: None,
        threads: None,
        val_fraction: None,
        seed: None,
        chunk: None,
        window: None,
        filter: None,
        init: None,
        no_mirror: false,
        resume: false,
        quiet: true,
    }
}

#[test]
fn train_command_trains_resumes_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("fianchetto-train-cmd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = DatagenConfig {
        soft_nodes: 200,
        ..DatagenConfig::default()
    };
    let mut searcher = config.searcher(fianchetto_eval::Material::classic());
    let mut bytes = Vec::new();
    let mut games = fianchetto_data::games::header().to_vec();
    for index in 0..4 {
        let game = play_game(&mut searcher, &config, &[], None, 11, index, None);
        for record in game.records(&Filter::default()).unwrap() {
            bytes.extend_from_slice(&record.to_bytes());
        }
        game.game.write_to(&mut games).unwrap();
    }
    assert!(bytes.len() >= 32 * 50, "too few positions for the test");
    let data = dir.join("games.bin");
    std::fs::write(&data, &bytes).unwrap();
    let out = dir.join("net.nnue");

    // The same games kept whole train the same net: the default filter
    // picks the positions datagen used to write.
    let games_file = dir.join("games.games");
    std::fs::write(&games_file, &games).unwrap();
    let from_games = dir.join("from-games.nnue");
    run(&args(games_file.clone(), from_games.clone())).unwrap();
    let text = std::fs::read_to_string(dir.join("from-games.nnue.run")).unwrap();
    assert!(text.contains("filter = check,tactical,mates"), "{text}");

    run(&args(data.clone(), out.clone())).unwrap();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&from_games).unwrap()
    );
    assert!(Network::from_bytes(&std::fs::read(&out).unwrap()).is_ok());
    assert!(dir.join("net.nnue.ckpt").exists());
    assert!(std::fs::read_to_string(dir.join("net.nnue.svg"))
        .unwrap()
        .contains("<svg"));
    let first = std::fs::read(&out).unwrap();

    // The run file runs the whole run again, here into another file.
    let run_file = dir.join("net.nnue.run");
    let text = std::fs::read_to_string(&run_file).unwrap();
    assert!(text.contains("king-buckets = mirrored-4"), "{text}");
    assert!(text.contains("epochs = 2"), "{text}");
    let again = dir.join("again.nnue");
    let from_file = TrainArgs {
        config: Some(run_file),
        data: Vec::new(),
        out: Some(again.clone()),
        ..empty()
    };
    run(&from_file).unwrap();
    assert_eq!(
        std::fs::read(&again).unwrap(),
        first,
        "the run file reproduces the net"
    );
    let err = run(&TrainArgs {
        config: Some(dir.join("missing.run")),
        ..empty()
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("missing.run"), "{err}");

    let again = run(&args(data.clone(), out.clone()))
        .unwrap_err()
        .to_string();
    assert!(again.contains("--resume"), "{again}");
    let resumed = TrainArgs {
        epochs: Some(3),
        resume: true,
        ..args(data.clone(), out.clone())
    };
    run(&resumed).unwrap();

    // Fine-tuning: a run started from the first net records it in its run
    // file; a wider hidden layer is a widening of it, and one of another
    // architecture is refused, naming the net.
    let tuned = dir.join("tuned.nnue");
    run(&TrainArgs {
        init: Some(out.clone()),
        ..args(data.clone(), tuned.clone())
    })
    .unwrap();
    let text = std::fs::read_to_string(dir.join("tuned.nnue.run")).unwrap();
    assert!(
        text.contains(&format!("init = {}\n", out.display())),
        "{text}"
    );
    run(&TrainArgs {
        init: Some(out.clone()),
        hidden: Some(32),
        ..args(data.clone(), dir.join("wider.nnue"))
    })
    .unwrap();
    let err = run(&TrainArgs {
        init: Some(out.clone()),
        output_buckets: Some(8),
        ..args(data.clone(), dir.join("wrong.nnue"))
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("net.nnue") && err.contains("--output-buckets"),
        "{err}"
    );

    let bad_hidden = TrainArgs {
        hidden: Some(24),
        ..args(data.clone(), dir.join("other.nnue"))
    };
    let err = run(&bad_hidden).unwrap_err().to_string();
    assert!(err.contains("multiple of 16"), "{err}");

    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, &bytes[..bytes.len() - 3]).unwrap();
    let err = run(&args(truncated, dir.join("t.nnue")))
        .unwrap_err()
        .to_string();
    assert!(err.contains("truncated.bin"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_policy_trains_resumes_and_refuses_what_it_does_not_take() {
    let dir = std::env::temp_dir().join(format!("fianchetto-train-policy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = DatagenConfig {
        soft_nodes: 200,
        ..DatagenConfig::default()
    };
    let mut searcher = config.searcher(fianchetto_eval::Material::classic());
    let mut games = fianchetto_data::games::header().to_vec();
    for index in 0..4 {
        let game = play_game(&mut searcher, &config, &[], None, 12, index, None);
        game.game.write_to(&mut games).unwrap();
    }
    let data = dir.join("games.games");
    std::fs::write(&data, &games).unwrap();
    let out = dir.join("net.policy");
    let policy = |out: &std::path::Path| TrainArgs {
        policy: true,
        data: vec![data.clone()],
        out: Some(out.to_path_buf()),
        hidden: Some(16),
        epochs: Some(2),
        batch: Some(32),
        threads: Some(2),
        val_fraction: Some(0.25),
        ..empty()
    };
    run(&policy(&out)).unwrap();
    let net = PolicyNet::from_file(&out).unwrap();
    assert_eq!(net.arch().hidden, 16);
    assert!(dir.join("net.policy.ckpt").exists());
    assert!(std::fs::read_to_string(dir.join("net.policy.svg"))
        .unwrap()
        .contains("<svg"));

    let again = run(&policy(&out)).unwrap_err().to_string();
    assert!(again.contains("--resume"), "{again}");
    // A resumed run keeps the checkpoint's settings, more epochs aside.
    run(&TrainArgs {
        policy: true,
        data: vec![data.clone()],
        out: Some(out.clone()),
        epochs: Some(3),
        resume: true,
        ..empty()
    })
    .unwrap();
    let err = run(&TrainArgs {
        hidden: Some(32),
        resume: true,
        ..policy(&out)
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("hidden 16 vs 32"), "{err}");
    // The mirror changes what is trained on: a resumed run keeps it.
    let err = run(&TrainArgs {
        no_mirror: true,
        resume: true,
        ..policy(&out)
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("mirror true vs false"), "{err}");

    let err = run(&TrainArgs {
        king_buckets: Some(KingBuckets::MIRRORED_4),
        wdl: Some(0.5),
        ..policy(&dir.join("other.policy"))
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("--king-buckets, --wdl do not apply to --policy"),
        "{err}"
    );

    let truncated = dir.join("damaged.games");
    let mut bytes = games.clone();
    bytes[60] ^= 0x40;
    std::fs::write(&truncated, &bytes).unwrap();
    let err = run(&TrainArgs {
        data: vec![truncated],
        ..policy(&dir.join("d.policy"))
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("damaged.games") && err.contains("game 0"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_policy_learns_from_mcts_visits() {
    let dir = std::env::temp_dir().join(format!("fianchetto-train-visits-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("self.visits");
    let opts = fianchetto_tune::datagen::RunOptions {
        out: data.clone(),
        format: fianchetto_tune::datagen::Format::Visits,
        target: fianchetto_tune::datagen::Target::Games(3),
        threads: 1,
        seed: 4,
        book: Vec::new(),
        tablebase: None,
        progress: false,
    };
    let net = fianchetto_eval::policy::embedded_policy().unwrap();
    let mcts = fianchetto_search::mcts::MctsConfig::puct()
        .iterations(40)
        .memory_mb(1);
    fianchetto_tune::datagen::run_with(
        &DatagenConfig::default(),
        &opts,
        &std::sync::atomic::AtomicBool::new(false),
        || {
            fianchetto_search::mcts::Mcts::with_policy(
                fianchetto_eval::Material::classic(),
                fianchetto_search::mcts::Blend::engine(net.clone(), 1.0),
                mcts.clone(),
            )
        },
    )
    .unwrap();
    let out = dir.join("visits.policy");
    run(&TrainArgs {
        policy: true,
        data: vec![data],
        out: Some(out.clone()),
        hidden: Some(16),
        epochs: Some(2),
        batch: Some(32),
        threads: Some(1),
        val_fraction: Some(0.34),
        ..empty()
    })
    .unwrap();
    let trained = PolicyNet::from_file(&out).unwrap();
    assert_eq!(trained.arch().hidden, 16);
    assert!(dir.join("visits.policy.ckpt").exists());

    // A file of neither kind is refused with its name.
    let junk = dir.join("junk.visits");
    std::fs::write(&junk, b"FIANVIS\x1a\x07\0\0\0\0\0\0\0").unwrap();
    let err = run(&TrainArgs {
        policy: true,
        data: vec![junk],
        out: Some(dir.join("junk.policy")),
        ..empty()
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("junk.visits") && err.contains("version 7"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
