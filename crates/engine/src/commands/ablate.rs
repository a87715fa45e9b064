//! `fianchetto ablate`: the two search experiments of the source theses.
//!
//! - BuhoChess (Lugo): nodes and time to each depth on middlegame and
//!   endgame positions for cumulative PVS configurations, from plain
//!   alpha-beta through the histories, correction history and singular
//!   extensions, then the defaults; plus the table replacement policies.
//! - Rookie (Galloppo), `--rookie`: positions evaluated and time on the
//!   fool's-mate position for minimax, alpha-beta, MVV-LVA, killers and the
//!   horizon variants, at depths 4 and 6.
//!
//! Both print Markdown tables. The configurations, the searchers and the
//! measurement live in [`fianchetto_search::ablation`] (re-exported here).

use super::flags::{BackendFlag, EvalSelect, HashFlag};
use super::CommandError;
use crate::say;
use crate::{with_backend, with_evaluator};
use fianchetto_eval::Evaluator;
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::pvs::{Pvs, PvsConfig};
use fianchetto_search::tt::Replacement;
use fianchetto_search::{Limits, Search, SearchResult};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub use fianchetto_search::ablation::{
    configurations, measure, rookie_searches, Contender, Row, Step, ENDGAMES, FOOLS_MATE,
    MIDDLEGAMES,
};

/// Arguments of `fianchetto ablate`.
#[derive(Debug, clap::Args)]
pub struct AblateArgs {
    /// Deepest depth of the BuhoChess table.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub depth: u32,
    /// Run the Rookie experiment (fool's mate, depths 4 and 6) instead.
    #[arg(long)]
    pub rookie: bool,
    /// Give up a configuration's deeper depths once one search takes more
    /// nodes than this (plain alpha-beta explodes).
    #[arg(long, default_value_t = 5_000_000)]
    pub max_nodes: u64,
    /// `--hash`: every configuration's table (the replacement-policy table
    /// has 4096 entries whatever it says).
    #[command(flatten)]
    pub table: HashFlag,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalSelect,
    /// `--backend`.
    #[command(flatten)]
    pub board: BackendFlag,
}

/// Runs the experiment and prints its tables.
pub fn run(args: &AblateArgs) -> Result<(), CommandError> {
    let choice = args.eval.choice()?;
    with_backend!(args.board.kind, B => with_evaluator!(&choice, eval => {
        if args.rookie { rookie::<B, _>(args, eval) } else { buhochess::<B, _>(args, eval) }
    }))
}

fn buhochess<B: MoveGen, E: Evaluator<B> + Clone>(
    args: &AblateArgs,
    eval: E,
) -> Result<(), CommandError> {
    let configs = configurations(args.table.mb as usize);
    let never = Arc::new(AtomicBool::new(false));
    for (title, fens) in [("Middlegame", MIDDLEGAMES), ("Endgame", ENDGAMES)] {
        say!(
            "\n### {title}: nodes to depth (sum over {} positions; {} eval, {} backend)\n",
            fens.len(),
            args.eval.name(),
            B::NAME
        );
        let mut header = "| configuration |".to_string();
        let mut rule = "|---|".to_string();
        for d in 1..=args.depth {
            header += &format!(" d{d} |");
            rule += "---:|";
        }
        header += &format!(" time to d{} | vs previous |", args.depth);
        rule += "---:|---:|";
        say!("{header}\n{rule}");
        let mut previous: Option<u64> = None;
        let mut times = Vec::new();
        for Step { name, config, .. } in &configs {
            let row = measure::<B, E>(&eval, config, fens, args.depth, args.max_nodes, &never)?;
            let mut line = format!("| {name} |");
            for cell in &row {
                line += &match cell {
                    Some((n, _)) => format!(" {n} |"),
                    None => " — |".to_string(),
                };
            }
            let last = row.last().copied().flatten();
            line += &match last {
                Some((_, t)) => format!(" {:.3} s |", t.as_secs_f64()),
                None => " — |".to_string(),
            };
            line += &match (previous, last) {
                (Some(p), Some((n, _))) => {
                    format!(" {:+.1}% |", (n as f64 / p as f64 - 1.0) * 100.0)
                }
                _ => " |".to_string(),
            };
            say!("{line}");
            previous = last.map(|(n, _)| n);
            times.push((name, row));
        }
        say!("\n{title}: time to depth, milliseconds\n");
        let mut header = "| configuration |".to_string();
        let mut rule = "|---|".to_string();
        for d in 1..=args.depth {
            header += &format!(" d{d} |");
            rule += "---:|";
        }
        say!("{header}\n{rule}");
        for (name, row) in times {
            let mut line = format!("| {name} |");
            for cell in &row {
                line += &match cell {
                    Some((_, t)) => format!(" {:.1} |", t.as_secs_f64() * 1000.0),
                    None => " — |".to_string(),
                };
            }
            say!("{line}");
        }
    }
    // BuhoChess's other claim: Depth–Always beats Depth beats Always. The
    // policies only matter once the table overflows: a 4096-entry table
    // (64 KB) and three plies deeper.
    let depth = args.depth + 3;
    say!("\n### Replacement policies (everything on, 4096-entry table, all six positions, depth {depth})\n");
    say!("| policy | nodes | time |\n|---|---:|---:|");
    let all: Vec<&str> = MIDDLEGAMES.iter().chain(ENDGAMES).copied().collect();
    for policy in Replacement::ALL {
        let config = PvsConfig {
            replacement: policy,
            ..PvsConfig::default()
        };
        let (mut nodes, mut time) = (0, Duration::ZERO);
        for fen in &all {
            let game = Game::new(B::from_fen(fen)?);
            let mut pvs = Pvs::with_config(eval.clone(), config.clone()).with_tt_entries(4096);
            let r = pvs.search(&game, &Limits::depth(depth), &mut |_| {});
            nodes += r.nodes;
            time += r.time;
        }
        say!(
            "| {} | {nodes} | {:.3} s |",
            policy.name(),
            time.as_secs_f64()
        );
    }
    Ok(())
}

fn rookie<B: MoveGen, E: Evaluator<B> + Clone + Send + 'static>(
    args: &AblateArgs,
    eval: E,
) -> Result<(), CommandError> {
    let game = Game::new(B::from_fen(FOOLS_MATE)?);
    // Published depth 4 (positions, ms) and depth 6 (positions, ms), in the
    // order of `rookie_searches`.
    type Published = (Option<(u64, f64)>, Option<(u64, f64)>);
    let published: [Published; 6] = [
        (Some((367_562, 2338.0)), None),
        (Some((6_360, 82.6)), Some((759_118, 8700.0))),
        (Some((5_502, 77.7)), Some((434_011, 6100.0))),
        (Some((1_411, 45.5)), Some((51_070, 1200.0))),
        (Some((2_049, 62.3)), Some((114_768, 3200.0))),
        (None, None),
    ];
    say!(
        "\n### Rookie experiment: fool's mate (black to play Qd8-h4#), fixed depth, {} eval, {} backend, best time of 5 runs\n",
        args.eval.name(),
        B::NAME
    );
    say!("| search | depth | positions evaluated | nodes | time | best | Rookie: positions | Rookie: time |");
    say!("|---|---:|---:|---:|---:|---|---:|---:|");
    for depth in [4u32, 6] {
        let limits = Limits::depth(depth);
        for (i, (mut c, published)) in rookie_searches::<B, E>(&eval)
            .into_iter()
            .zip(published)
            .enumerate()
        {
            let name = c.name;
            // The machine may be busy: the best of five runs is the time
            // the search needs (node counts are the same every run).
            let mut run = || -> SearchResult {
                let mut best = c.search.search(&game, &limits, &mut |_| {});
                for _ in 1..5 {
                    let r = c.search.search(&game, &limits, &mut |_| {});
                    best.time = best.time.min(r.time);
                }
                best
            };
            // Minimax to depth 6 takes minutes.
            let result = (i > 0 || depth <= 4).then(&mut run);
            let published = if depth == 4 { published.0 } else { published.1 };
            let (pp, pt) = match published {
                Some((p, ms)) if depth == 4 => (p.to_string(), format!("{ms} ms")),
                Some((p, ms)) => (p.to_string(), format!("{:.1} s", ms / 1000.0)),
                None => ("—".to_string(), "—".to_string()),
            };
            match result {
                Some(r) => say!(
                    "| {name} | {depth} | {} | {} | {:.1} ms | {} {} | {pp} | {pt} |",
                    r.evals,
                    r.nodes,
                    r.time.as_secs_f64() * 1000.0,
                    r.best_move.map_or("0000".to_string(), |m| m.to_string()),
                    r.score,
                ),
                None => say!("| {name} | {depth} | (skipped: too slow) | | | | {pp} | {pt} |"),
            }
        }
    }
    Ok(())
}
