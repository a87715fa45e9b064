//! `fianchetto eval`: the static evaluation of a position, term by term.

use super::CommandError;
use crate::backend::Backend;
use crate::{say, with_backend};
use fianchetto_board::{Board, START_FEN};
use fianchetto_eval::{Evaluator, Preset};

/// Arguments of `fianchetto eval`.
#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// Position to evaluate (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Evaluation: material, buhochess or classical.
    #[arg(long = "eval", default_value = "classical", value_parser = parse_preset)]
    pub eval: Preset,
    /// Board backend.
    #[arg(long, value_enum, default_value_t = Backend::Bitboard)]
    pub backend: Backend,
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    s.parse()
        .map_err(|e: fianchetto_eval::UnknownPreset| e.to_string())
}

/// Runs `eval`: prints the breakdown table (term, white mg/eg, black mg/eg,
/// blended from white's view), then as the last line
/// `Final evaluation: <N> cp (side to move)`.
pub fn run(args: &EvalArgs) -> Result<(), CommandError> {
    with_backend!(args.backend, B => run_on::<B>(args))
}

fn run_on<B: Board>(args: &EvalArgs) -> Result<(), CommandError> {
    let board = B::from_fen(&args.fen)?;
    say!("{}", report(&board, args.eval));
    Ok(())
}

/// The evaluation report of `board` under `preset`: a header, the
/// breakdown table, and `Final evaluation: <N> cp (side to move)` last.
/// Shared by `fianchetto eval` and the UCI `eval` command.
pub fn report<B: Board>(board: &B, preset: Preset) -> String {
    let mut evaluator = preset.evaluator();
    let breakdown = evaluator.breakdown(board);
    let score = evaluator.evaluate(board);
    format!(
        "Evaluation {preset} on backend {}: {}\n{breakdown}\nFinal evaluation: {} cp (side to move)",
        B::NAME,
        board.fen(),
        score.value()
    )
}
