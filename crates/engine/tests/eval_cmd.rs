//! `fianchetto eval` accepts every evaluation and backend and rejects bad input.

use fianchetto_engine::backend::Backend;
use fianchetto_engine::commands::eval::{run, EvalArgs};
use fianchetto_engine::commands::flags::BackendFlag;
use fianchetto_engine::evals::{EvalName, EvalSelect};
use std::process::Command;

mod common;

#[test]
fn eval_command_runs_and_rejects_bad_input() {
    for &backend in Backend::ALL {
        for eval in EvalName::ALL {
            let args = EvalArgs {
                fen: fianchetto_board::START_FEN.to_string(),
                eval: EvalSelect {
                    eval: Some(eval),
                    evalfile: None,
                    weights: None,
                },
                board: BackendFlag { kind: backend },
            };
            assert!(run(&args).is_ok());
        }
    }
    let bad = EvalArgs {
        fen: "not a fen".into(),
        eval: EvalSelect::default(),
        board: BackendFlag {
            kind: Backend::Bitboard,
        },
    };
    assert!(run(&bad).is_err());
    let missing_net = EvalArgs {
        fen: fianchetto_board::START_FEN.to_string(),
        eval: EvalSelect {
            eval: Some(EvalName::Nnue),
            evalfile: Some("/no/such.nnue".into()),
            weights: None,
        },
        board: BackendFlag {
            kind: Backend::Bitboard,
        },
    };
    assert!(run(&missing_net).is_err());
}

#[test]
fn nnue_report_shows_the_network_beside_the_classical_breakdown() {
    let out = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .args([
            "eval",
            "--eval",
            "nnue",
            "--fen",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("classical evaluation: "), "{text}");
    let nnue_line = text
        .lines()
        .find(|l| l.starts_with("NNUE "))
        .expect("an NNUE line");
    let last = text.lines().last().unwrap();
    let cp = |line: &str| -> i32 {
        line.split(": ")
            .last()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(cp(nnue_line), cp(last));
    assert!(cp(last) > 300, "a queen up: {text}");
}

/// `--weights` changes the hand-crafted evaluation by the weights it names,
/// and a bad file, or weights for an evaluation without any, are refused
/// with the reason.
#[test]
fn weights_file_changes_the_classical_evaluation() {
    let dir = std::env::temp_dir().join(format!("fianchetto-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("tempo.txt");
    // White to move in the start position: only the tempo is not zero.
    std::fs::write(&good, "# tuned\ntempo[0] 40\ntempo[1] 40\n").unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "tempo[0] 40\nno_such_weight 3\n").unwrap();
    let eval = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
            .args(["eval", "--fen", fianchetto_board::START_FEN])
            .args(extra)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    };
    let final_line = |text: &str| text.lines().last().unwrap_or_default().to_string();
    let (ok, plain) = eval(&["--eval", "classical"]);
    assert!(ok, "{plain}");
    let (ok, tuned) = eval(&["--eval", "classical", "--weights", good.to_str().unwrap()]);
    assert!(ok, "{tuned}");
    assert_eq!(
        final_line(&tuned),
        "Final evaluation: 40 cp (side to move)",
        "{tuned}"
    );
    assert_ne!(final_line(&plain), final_line(&tuned));
    let (ok, text) = eval(&["--eval", "classical", "--weights", bad.to_str().unwrap()]);
    assert!(!ok && text.contains("line 2"), "{text}");
    let (ok, text) = eval(&["--eval", "nnue", "--weights", good.to_str().unwrap()]);
    assert!(
        !ok && text.contains("apply to classical and buhochess"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the engine with `args` and `stdin`, and gives up (killing it) after
/// `secs` seconds: whether it exited successfully, and its output (both
/// streams). A run that hangs fails the test.
#[cfg(unix)]
fn run_within(args: &[&str], stdin: &str, secs: u64) -> (bool, String) {
    let out = common::run_within(args, stdin, std::time::Duration::from_secs(secs));
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_oversized_nets_are_refused_fast_by_eval_and_uci() {
    let dir = std::env::temp_dir().join(format!("fianchetto-net-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A 2 GiB net with a valid header, sparse (nothing written past it).
    let huge = dir.join("huge.nnue");
    let header = fianchetto_eval::nnue::embedded_network()
        .unwrap()
        .to_bytes();
    std::fs::write(&huge, &header[..fianchetto_eval::nnue::HEADER_SIZE]).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&huge)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let fifo = dir.join("net.fifo");
    let have_fifo = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut nets = vec![(huge.display().to_string(), "2147483648 bytes")];
    nets.push(("/dev/zero".to_string(), "a device, not a regular file"));
    if have_fifo {
        nets.push((fifo.display().to_string(), "a FIFO, not a regular file"));
    }
    let fen = fianchetto_board::START_FEN;
    for (path, why) in &nets {
        let (ok, text) = run_within(
            &["eval", "--eval", "nnue", "--evalfile", path, "--fen", fen],
            "",
            10,
        );
        assert!(
            !ok && text.contains(path.as_str()) && text.contains(why),
            "{text}"
        );
        // The UCI engine refuses it, names it, and stays responsive.
        let (_, text) = run_within(
            &[],
            &format!("setoption name EvalFile value {path}\nisready\nquit\n"),
            10,
        );
        assert!(
            text.contains("readyok") && text.contains(path.as_str()) && text.contains(why),
            "{text}"
        );
    }
    let mut weights = vec!["/dev/zero".to_string()];
    if have_fifo {
        weights.push(fifo.display().to_string());
    }
    for path in &weights {
        let (ok, text) = run_within(
            &[
                "eval",
                "--eval",
                "classical",
                "--weights",
                path,
                "--fen",
                fen,
            ],
            "",
            10,
        );
        assert!(
            !ok && text.contains(path.as_str()) && text.contains("not a regular file"),
            "{text}"
        );
        let (_, text) = run_within(
            &[],
            &format!("setoption name EvalWeights value {path}\nisready\nquit\n"),
            10,
        );
        assert!(
            text.contains("readyok")
                && text.contains(path.as_str())
                && text.contains("not a regular file"),
            "{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
