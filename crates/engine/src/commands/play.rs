//! `fianchetto play`: a game against the computer in the terminal, with the
//! algorithm, depth or time, and evaluation selectable, or a difficulty level
//! that picks them (the Rookie app's idea).

use super::flags::{BackendFlag, EvalSelect};
use super::CommandError;
use crate::evals::EvalName;
use crate::play::{play_session, Opponent};
use crate::searchers::{build_search, engine_mcts, Algo, SearchConfig};
use crate::{with_backend, with_evaluator};
use fianchetto_board::{Board, Color, Move, START_FEN};
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::{Limits, Search};
use std::time::Duration;

/// Which side the human plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    /// White (moves first).
    White,
    /// Black.
    Black,
}

/// Arguments of `fianchetto play`. `--eval`, `--evalfile`, `--weights` and
/// `--backend` are the search flags' own; `--eval` has no default of its
/// own here, the level picks it.
#[derive(Debug, clap::Args)]
#[command(mut_arg("eval", |a| a
    .default_value(None::<&'static str>)
    .help("Evaluation: nnue, classical, buhochess or material (default: the level's)")))]
pub struct PlayArgs {
    /// Difficulty 1 (a beginner's minimax) to 8 (full-strength PVS, 3 s a
    /// move); `--algo`, `--depth`, `--movetime` and `--eval` override it.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub level: u8,
    /// The side you play.
    #[arg(long, value_enum, default_value_t = Side::White)]
    pub color: Side,
    /// Starting position.
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Search algorithm.
    #[arg(long, value_enum)]
    pub algo: Option<Algo>,
    /// Search depth in plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Thinking time per move in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// The evaluation (`--eval` overrides the level's).
    #[command(flatten)]
    pub eval: EvalSelect,
    /// `--backend`.
    #[command(flatten)]
    pub board: BackendFlag,
}

/// What a level means: algorithm, depth, move time (ms), evaluation.
pub fn level(n: u8) -> (Algo, Option<u32>, Option<u64>, EvalName) {
    use Algo::{Alphabeta, Minimax, Pvs};
    use EvalName::{Buhochess, Classical, Material};
    match n {
        1 => (Minimax, Some(1), None, Material),
        2 => (Alphabeta, Some(2), None, Material),
        3 => (Alphabeta, Some(3), None, Buhochess),
        4 => (Pvs, Some(4), None, Buhochess),
        5 => (Pvs, None, Some(200), Classical),
        6 => (Pvs, None, Some(500), Classical),
        7 => (Pvs, None, Some(1000), Classical),
        _ => (Pvs, None, Some(3000), Classical),
    }
}

struct SearchOpponent<B: MoveGen> {
    search: Box<dyn Search<B> + Send>,
    limits: Limits,
    description: String,
}

impl<B: MoveGen> Opponent<B> for SearchOpponent<B> {
    fn describe(&self) -> String {
        self.description.clone()
    }
    fn choose(&mut self, game: &Game<B>) -> Option<Move> {
        self.search
            .search(game, &self.limits, &mut |_| {})
            .best_move
    }
    fn new_game(&mut self) {
        self.search.clear();
    }
}

/// Runs `play` on the terminal.
pub fn run(args: &PlayArgs) -> Result<(), CommandError> {
    let (algo, depth, movetime, eval) = level(args.level);
    let algo = args.algo.unwrap_or(algo);
    let eval = args.eval.eval.unwrap_or(eval);
    let choice = EvalSelect {
        eval: Some(eval),
        ..args.eval.clone()
    }
    .choice()?;
    let (depth, movetime) = match (args.depth, args.movetime) {
        (None, None) => (depth, movetime),
        explicit => explicit,
    };
    let limits = Limits {
        depth,
        movetime: movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let description = match (depth, movetime) {
        (Some(d), _) => format!("{} to depth {d} with the {eval} evaluation", algo.name()),
        (_, Some(t)) => format!(
            "{} for {t} ms a move with the {eval} evaluation",
            algo.name()
        ),
        _ => format!("{} with the {eval} evaluation", algo.name()),
    };
    let human = match args.color {
        Side::White => Color::White,
        Side::Black => Color::Black,
    };
    with_backend!(args.board.kind, B => {
        let start = B::from_fen(&args.fen)?;
        let config = SearchConfig {
            algo,
            mcts: engine_mcts(1),
            ..SearchConfig::default()
        };
        let search = with_evaluator!(&choice, e => build_search::<B, _>(&config, e));
        let mut opponent = SearchOpponent::<B> { search, limits, description };
        let stdin = std::io::stdin();
        play_session(start, human, &mut opponent, &mut stdin.lock(), &mut std::io::stdout())?;
        Ok(())
    })
}
