//! `fianchetto datagen`: self-play training data, kept as whole games (the
//! games format) or as marlinformat records; with `--mcts`, MCTS self-play
//! writing each position's root visits (the visits format).

use super::flags::{EvalSelect, HashFlag, ThreadsFlag};
use super::CommandError;
use crate::{say, with_evaluator};
use fianchetto_board::Bitboards;
use fianchetto_eval::policy::PolicyNet;
use fianchetto_eval::Evaluator;
use fianchetto_search::mcts::{Blend, HandPolicy, Mcts, MctsConfig, NetPolicy, ENGINE_NET_WEIGHT};
use fianchetto_syzygy::Tablebase;
use fianchetto_tune::datagen::{self, DatagenConfig, Format, RunOptions, Target};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Arguments of `fianchetto datagen`. `--threads` and `--hash` are the
/// search flags' own, with datagen's meaning and default: workers each
/// playing their own games, 1 MB each.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("threads", |a| a
        .help("Worker threads, each playing its own games (every search in them runs on one thread)")
        .value_parser(clap::value_parser!(u32).range(1..=1024))),
    mut_arg("hash", |a| a
        .default_value("1")
        .help("Hash table per worker, in MB (default 1, not the 16 of analyse and bench: \
               a small table stays in the caches, and the games a seed gives depend on it)")),
)]
pub struct DatagenArgs {
    /// Output file. An existing file is resumed (same seed) or appended to
    /// (another seed); it must hold data of the chosen format.
    #[arg(long)]
    pub out: PathBuf,
    /// `games`: whole games, every searched position with its move and
    /// score, about 4.4 bytes a position, filtered when read (`fianchetto
    /// data`, `train`). `marlin`: 32 bytes per training position, filtered
    /// as written (no position in check, no capture or promotion as best
    /// move, no mate score).
    #[arg(long, value_enum, default_value_t = FormatArg::Games)]
    pub format: FormatArg,
    /// MCTS self-play: the engine's MCTS (PUCT, the embedded policy
    /// network blended with the hand-written policy, the chosen
    /// evaluation) plays both sides at `--playouts` a move, and every
    /// position is written with its root visits (the visits format, for
    /// `train --policy`). The move played is the most visited. `--hash`
    /// bounds each worker's tree.
    #[arg(long, conflicts_with_all = ["format", "nodes"])]
    pub mcts: bool,
    /// With `--mcts`: playouts per move (one thread, a fixed seed: the
    /// same games every run).
    #[arg(long, requires = "mcts", default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: u64,
    /// Stop once the file holds this many positions.
    #[arg(long, conflicts_with = "games")]
    pub positions: Option<u64>,
    /// Stop once this many games have been written to the file.
    #[arg(long)]
    pub games: Option<u64>,
    /// Worker threads (`--threads`).
    #[command(flatten)]
    pub workers: ThreadsFlag,
    /// Soft node limit of each search (it ends after the iteration that
    /// passes it).
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Seed: game i of seed s is always the same game.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Opening book (FEN or EPD, one position a line); default: the start
    /// position. Random plies are played after it either way.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// The share of games (0 to 1) that start from a random Chess960
    /// position instead (random plies follow as well): variety for the
    /// network.
    #[arg(long, default_value_t = 0.0, value_parser = parse_share)]
    pub chess960_share: f64,
    /// Chess960 starts give each side its own arrangement (double Fischer
    /// random chess) rather than mirrored ones.
    #[arg(long)]
    pub dfrc: bool,
    /// Syzygy tables (directories separated by `:`): a game ends as soon as
    /// a capture reaches a position they hold, with their result.
    #[arg(long)]
    pub syzygy: Option<String>,
    /// The evaluation the searcher uses (`--eval nnue` for data from the
    /// network engine).
    #[command(flatten)]
    pub eval: EvalSelect,
    /// Hash table per worker (`--hash`).
    #[command(flatten)]
    pub table: HashFlag,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The output formats, as `--format` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Whole games (the games format).
    Games,
    /// Marlinformat records.
    Marlin,
}

fn parse_share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{text:?} is not a share between 0 and 1")),
    }
}

/// Runs `datagen` until the target is reached or Ctrl-C; either way the
/// file holds whole games and the next run resumes.
pub fn run(args: &DatagenArgs) -> Result<(), CommandError> {
    let target = match (args.positions, args.games) {
        (Some(n), _) => Target::Positions(n),
        (None, Some(n)) => Target::Games(n),
        (None, None) => {
            return Err(CommandError::Usage(
                "datagen needs --positions N or --games N".into(),
            ))
        }
    };
    let book = match &args.book {
        Some(path) => datagen::read_book(path).map_err(|e| CommandError::Usage(e.to_string()))?,
        None => Vec::new(),
    };
    let config = DatagenConfig {
        soft_nodes: args.nodes,
        hard_nodes: args.nodes.saturating_mul(20),
        hash_mb: args.table.mb as usize,
        chess960_permille: (args.chess960_share * 1000.0).round() as u32,
        dfrc: args.dfrc,
        ..DatagenConfig::default()
    };
    let tablebase = match &args.syzygy {
        Some(dirs) => {
            let mut tb = Tablebase::new();
            tb.add_directories(dirs)
                .map_err(|e| CommandError::Usage(format!("--syzygy: {e}")))?;
            Some(Arc::new(tb))
        }
        None => None,
    };
    let opts = RunOptions {
        out: args.out.clone(),
        format: match (args.mcts, args.format) {
            (true, _) => Format::Visits,
            (false, FormatArg::Games) => Format::Games,
            (false, FormatArg::Marlin) => Format::Marlin,
        },
        target,
        threads: args.workers.count as usize,
        seed: args.seed,
        book,
        tablebase,
        progress: !args.quiet,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // A second Ctrl-C is not caught: the handler stays installed, but the
    // flag is already up, so the user can press it again and then kill.
    let _ = ctrlc::set_handler(move || {
        eprintln!("\nstopping: finishing the games written so far (the run resumes later)");
        flag.store(true, Ordering::Relaxed);
    });
    let choice = args.eval.choice()?;
    let summary = if args.mcts {
        let net = fianchetto_eval::policy::embedded_policy()
            .map_err(|e| CommandError::Usage(format!("the embedded policy network: {e}")))?;
        let mcts = MctsConfig::puct()
            .iterations(args.playouts)
            .memory_mb(config.hash_mb.max(1));
        with_evaluator!(&choice, eval => datagen::run_with(&config, &opts, &stop, || {
            engine_mcts(&eval, &net, &mcts)
        }))
    } else {
        with_evaluator!(&choice, eval => datagen::run(&config, eval, &opts, &stop))
    }
    .map_err(|e| CommandError::Usage(e.to_string()))?;
    say!("{summary}");
    Ok(())
}

/// The engine's MCTS on `eval` with `config`: PUCT with the policy network
/// `net` blended with the hand-written policy, as `Algorithm mcts` plays.
fn engine_mcts<E: Evaluator<Bitboards> + Clone>(
    eval: &E,
    net: &Arc<PolicyNet>,
    config: &MctsConfig,
) -> Mcts<E, Blend<NetPolicy, HandPolicy>> {
    let policy = Blend::engine(net.clone(), ENGINE_NET_WEIGHT);
    Mcts::with_policy(eval.clone(), policy, config.clone())
}
