//! `fianchetto analyse`: search one position with any algorithm and print
//! UCI `info` lines and the `bestmove`.

use super::flags::SearchFlags;
use super::CommandError;
use crate::say;
use crate::searchers::{build_search, Algo, SearchConfig};
use crate::{with_backend, with_evaluator};
use fianchetto_board::START_FEN;
use fianchetto_eval::{Evaluator, Preset};
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::mcts::{MctsConfig, Parallelism, Variant};
use fianchetto_search::pvs::Syzygy;
use fianchetto_search::tt::Replacement;
use fianchetto_search::Limits;
use std::time::Duration;

/// Arguments of `fianchetto analyse`.
#[derive(Debug, clap::Args)]
pub struct AnalyseArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Moves (UCI notation) played from the position first; the search
    /// knows them (repetitions).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Search algorithm.
    #[arg(long, value_enum, default_value_t = Algo::Pvs)]
    pub algo: Algo,
    /// MCTS variant (with `--algo mcts`): uct, ic, ir, ip or puct.
    #[arg(long, default_value = "puct", value_parser = parse_variant)]
    pub mcts: Variant,
    /// The policy network of PUCT (with `--algo mcts`): a file, `<embedded>`,
    /// or `<hand>` for the hand-written move ordering.
    #[arg(long, default_value = fianchetto_eval::policy::EMBEDDED_POLICY_NAME)]
    pub policy: String,
    /// Depth limit in plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Node limit.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Time limit in milliseconds (default when no limit is given: 3000).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Threads (PVS and MCTS), hash, backend, evaluation and switches.
    #[command(flatten)]
    pub search: SearchFlags,
    /// Transposition table replacement policy: always, depth, depth-always.
    #[arg(long, default_value = "depth-always")]
    pub replacement: Replacement,
    /// Syzygy tablebase directories (`:`-separated, as the UCI option
    /// SyzygyPath): PVS ranks the root moves and probes the tree with them.
    #[arg(long)]
    pub syzygy_path: Option<String>,
}

/// `--enable` and `--disable`, declared with the other search flags.
pub use super::flags::SwitchArgs;

/// Parses an MCTS variant name (for clap).
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::parse(s)
        .ok_or_else(|| format!("unknown MCTS variant `{s}`; expected uct, ic, ir, ip or puct"))
}

/// Parses an evaluation preset name (for clap).
pub fn parse_preset(s: &str) -> Result<Preset, String> {
    s.parse()
        .map_err(|e: fianchetto_eval::UnknownPreset| e.to_string())
}

/// Builds the game: the position, then the moves.
pub fn build_game<B: MoveGen>(fen: &str, moves: &[String]) -> Result<Game<B>, CommandError> {
    let mut game = Game::new(B::from_fen(fen)?);
    for m in moves {
        game.play_uci(m)
            .map_err(|e| CommandError::Move(format!("move `{m}`: {e}")))?;
    }
    Ok(game)
}

/// Runs `analyse`: `info` lines as the search goes, then `bestmove`.
pub fn run(args: &AnalyseArgs) -> Result<(), CommandError> {
    let mut config = args.search.pvs_config()?;
    config.replacement = args.replacement;
    let config = SearchConfig {
        algo: args.algo,
        mcts: MctsConfig::new(args.mcts)
            .threads(args.search.threads.count as usize, Parallelism::Tree),
        pvs: config,
        policy: fianchetto_eval::policy::load_policy(&args.policy)
            .map_err(|e| CommandError::Usage(e.to_string()))?,
        policy_net_weight: fianchetto_search::mcts::ENGINE_NET_WEIGHT,
        syzygy: match &args.syzygy_path {
            Some(path) => {
                let mut tables = fianchetto_syzygy::Tablebase::new();
                tables
                    .add_directories(path)
                    .map_err(|e| CommandError::Usage(e.to_string()))?;
                Some(Syzygy::new(std::sync::Arc::new(tables)))
            }
            None => None,
        },
    };
    let choice = args.search.eval.choice()?;
    with_backend!(args.search.backend.kind, B => with_evaluator!(&choice, eval => run_on::<B, _>(args, &config, eval, choice.name())))
}

fn run_on<B: MoveGen, E: Evaluator<B> + Clone + Send + 'static>(
    args: &AnalyseArgs,
    config: &SearchConfig,
    eval: E,
    eval_name: &str,
) -> Result<(), CommandError> {
    let game = build_game::<B>(&args.fen, &args.moves)?;
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.movetime = Some(Duration::from_millis(3000));
    }
    if args.algo == Algo::Pvs {
        say!("info string pvs: {}", config.pvs);
    }
    let mut search = build_search::<B, E>(config, eval);
    say!(
        "info string {} on {} with {} evaluation, backend {}",
        search.name(),
        game.board().fen(),
        eval_name,
        B::NAME
    );
    // The reports cannot return an error: keep the first one for after.
    let mut failed = None;
    let result = search.search(&game, &limits, &mut |info| {
        if failed.is_none() {
            use std::io::Write as _;
            failed = writeln!(std::io::stdout().lock(), "{}", info.to_uci()).err();
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    say!(
        "info string {} nodes {} evals {} nps in {:.3} s",
        result.nodes,
        result.evals,
        result.nps(),
        result.time.as_secs_f64()
    );
    say!("{}", result.to_uci());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Bitboards;

    #[test]
    fn game_from_fen_and_moves() {
        let g = build_game::<Bitboards>(START_FEN, &["e2e4".into(), "e7e5".into()]).unwrap();
        assert_eq!(g.moves().len(), 2);
        let err = build_game::<Bitboards>(START_FEN, &["e2e5".into()]).unwrap_err();
        assert!(err.to_string().contains("e2e5"));
        assert!(build_game::<Bitboards>("not a fen", &[]).is_err());
    }
}
