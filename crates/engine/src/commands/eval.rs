//! `fianchetto eval`: the static evaluation of a position, term by term,
//! and the network's output beside it.

use super::flags::{BackendFlag, EvalSelect};
use super::CommandError;
use crate::evals::EvalChoice;
use crate::{say, with_backend};
use fianchetto_board::{Board, START_FEN};
use fianchetto_eval::nnue::Nnue;
use fianchetto_eval::Evaluator;

/// Arguments of `fianchetto eval`.
#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// Position to evaluate (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalSelect,
    /// `--backend`.
    #[command(flatten)]
    pub board: BackendFlag,
}

/// Runs `eval`: prints the breakdown table (term, white mg/eg, black mg/eg,
/// blended from white's view), then as the last line
/// `Final evaluation: <N> cp (side to move)`.
pub fn run(args: &EvalArgs) -> Result<(), CommandError> {
    let choice = args.eval.choice()?;
    with_backend!(args.board.kind, B => run_on::<B>(args, &choice))
}

fn run_on<B: Board>(args: &EvalArgs, choice: &EvalChoice) -> Result<(), CommandError> {
    let board = B::from_fen(&args.fen)?;
    say!("{}", report(&board, choice));
    Ok(())
}

/// The evaluation report of `board`: a header, the breakdown table of the
/// hand-crafted evaluation (the classical one when NNUE is chosen, with the
/// network's output beside it), and `Final evaluation: <N> cp (side to
/// move)` last. Shared by `fianchetto eval` and the UCI `eval` command.
pub fn report<B: Board>(board: &B, choice: &EvalChoice) -> String {
    let nnue = match choice {
        EvalChoice::Nnue(net) => Some(Nnue::new(net.clone())),
        _ => None,
    };
    let mut evaluator = choice.hand_crafted();
    let preset = evaluator.preset();
    let breakdown = evaluator.breakdown(board);
    let hce = evaluator.evaluate(board);
    let header = format!(
        "Evaluation {} on backend {}: {}",
        choice.name(),
        B::NAME,
        board.fen()
    );
    match nnue {
        None => format!(
            "{header}\n{breakdown}\nFinal evaluation: {} cp (side to move)",
            hce.value()
        ),
        Some(mut nnue) => {
            let net = nnue.evaluate(board);
            format!(
                "{header}\n{preset} breakdown (for comparison):\n{breakdown}\n\
                 {preset} evaluation: {} cp (side to move)\n\
                 NNUE {:?}: {} cp (side to move)\n\
                 Final evaluation: {} cp (side to move)",
                hce.value(),
                nnue.network(),
                net.value(),
                net.value()
            )
        }
    }
}
