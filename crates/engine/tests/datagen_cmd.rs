//! `fianchetto datagen` and `genfens` driven as a user (or OpenBench) runs them.

use fianchetto_board::{Bitboards, Board};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fianchetto"))
}

#[test]
fn datagen_writes_resumable_games_and_marlinformat() {
    let dir = std::env::temp_dir().join(format!("fianchetto-dg-cmd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |out: &std::path::Path, games: &str, extra: &[&str]| {
        bin()
            .args([
                "datagen", "--games", games, "--nodes", "300", "--hash", "1", "--quiet", "--out",
            ])
            .arg(out)
            .args(extra)
            .output()
            .unwrap()
    };

    let games = dir.join("data.games");
    let first = run(&games, "2", &["--chess960-share", "0.5", "--dfrc"]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(text.starts_with("2 games, "), "{text}");
    let read = fianchetto_data::games::GameReader::open(&games)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    assert_eq!(read.len(), 2);
    // Asking for more resumes where the first run ended.
    let second = run(&games, "3", &["--chess960-share", "0.5", "--dfrc"]);
    assert!(second.status.success());
    assert!(String::from_utf8_lossy(&second.stdout).starts_with("1 games, "));

    let marlin = dir.join("data.bin");
    let first = run(&marlin, "2", &["--format", "marlin"]);
    assert!(first.status.success());
    let len = std::fs::metadata(&marlin).unwrap().len();
    assert!(len > 0 && len % 32 == 0);
    let records = fianchetto_data::marlin::read_all(&marlin).unwrap();
    assert_eq!(records.len() as u64, len / 32);
    // The formats are not mixed in one file.
    let mixed = run(&marlin, "3", &[]);
    assert_eq!(mixed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("--format"));

    // No target is a usage error, not a crash; so is a share beyond 1.
    let bad = bin()
        .args(["datagen", "--out"])
        .arg(&games)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--positions N or --games N"));
    let bad = run(&games, "9", &["--chess960-share", "1.5"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn datagen_mcts_writes_visits_that_data_stats_counts() {
    let dir = std::env::temp_dir().join(format!("fianchetto-dg-mcts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("data.visits");
    let _ = std::fs::remove_file(&out);
    let run = bin()
        .args([
            "datagen",
            "--mcts",
            "--playouts",
            "40",
            "--games",
            "1",
            "--quiet",
        ])
        .args(["--eval", "material", "--seed", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stats = bin()
        .args(["data", "stats", "--quiet"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&stats.stdout);
    assert!(
        stats.status.success(),
        "{}",
        String::from_utf8_lossy(&stats.stderr)
    );
    assert!(
        text.contains("files: 1 visits-format") && text.contains("games: 1"),
        "{text}"
    );
    // --nodes is PVS's budget, and convert reads no visits files.
    let bad = bin()
        .args([
            "datagen", "--mcts", "--nodes", "100", "--games", "1", "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let convert = bin()
        .args(["data", "convert"])
        .arg(&out)
        .arg(dir.join("x.games"))
        .output()
        .unwrap();
    assert!(!convert.status.success());
    assert!(String::from_utf8_lossy(&convert.stderr).contains("a visits file"));
}

#[test]
fn genfens_speaks_openbench() {
    let out = bin()
        .args(["genfens 3 seed 9 book None", "quit"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let fens: Vec<&str> = text
        .lines()
        .map(|l| {
            l.strip_prefix("info string genfens ")
                .expect("genfens line")
        })
        .collect();
    assert_eq!(fens.len(), 3);
    for fen in &fens {
        assert!(Bitboards::from_fen(fen).is_ok(), "{fen}");
    }
    // The same request in separate words gives the same positions.
    let again = bin().args(["genfens", "3", "seed", "9"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&again.stdout), text);
    let bad = bin().args(["genfens", "x"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
