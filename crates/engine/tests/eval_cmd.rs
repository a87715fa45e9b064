//! `fianchetto eval` accepts every preset and backend and rejects bad FENs.

use fianchetto_engine::backend::Backend;
use fianchetto_engine::commands::eval::{run, EvalArgs};
use fianchetto_eval::Preset;

#[test]
fn eval_command_runs_and_rejects_bad_input() {
    for &backend in Backend::ALL {
        for eval in Preset::ALL {
            let args = EvalArgs {
                fen: fianchetto_board::START_FEN.to_string(),
                eval,
                backend,
            };
            assert!(run(&args).is_ok());
        }
    }
    let bad = EvalArgs {
        fen: "not a fen".into(),
        eval: Preset::Classical,
        backend: Backend::Bitboard,
    };
    assert!(run(&bad).is_err());
}
