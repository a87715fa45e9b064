//! `fianchetto eval` accepts every evaluation and backend and rejects bad input.

use fianchetto_engine::backend::Backend;
use fianchetto_engine::commands::eval::{run, EvalArgs};
use fianchetto_engine::commands::flags::BackendFlag;
use fianchetto_engine::evals::{EvalName, EvalSelect};
use std::process::Command;

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
