//! `fianchetto eval` accepts every evaluation and backend and rejects bad input.

use fianchetto_engine::backend::Backend;
use fianchetto_engine::commands::eval::{run, EvalArgs};
use fianchetto_engine::evals::{EvalName, EvalSelect};
use std::process::Command;

#[test]
fn eval_command_runs_and_rejects_bad_input() {
    for &backend in Backend::ALL {
        for eval in EvalName::ALL {
            let args = EvalArgs {
                fen: fianchetto_board::START_FEN.to_string(),
                eval: EvalSelect {
                    eval,
                    evalfile: None,
                },
                backend,
            };
            assert!(run(&args).is_ok());
        }
    }
    let bad = EvalArgs {
        fen: "not a fen".into(),
        eval: EvalSelect::default(),
        backend: Backend::Bitboard,
    };
    assert!(run(&bad).is_err());
    let missing_net = EvalArgs {
        fen: fianchetto_board::START_FEN.to_string(),
        eval: EvalSelect {
            eval: EvalName::Nnue,
            evalfile: Some("/no/such.nnue".into()),
        },
        backend: Backend::Bitboard,
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
