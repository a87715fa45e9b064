//! Monte Carlo tree search: every variant for the same number of
//! iterations on one position, PUCT on two threads (tree and root
//! parallel), then PUCT with its priors from the policy network alone and
//! from the network blended with the hand-written ordering (what the engine
//! plays). Prints each one's visits, value and chosen move.
//!
//! `cargo run --release --example mcts [iterations] [FEN]`

use fianchetto::board::{Bitboards, Board};
use fianchetto::eval::policy::embedded_policy;
use fianchetto::eval::Classical;
use fianchetto::movegen::Game;
use fianchetto::search::mcts::{
    Blend, Mcts, MctsConfig, NetPolicy, Parallelism, Policy, Variant, ENGINE_NET_WEIGHT,
};
use fianchetto::search::{Limits, Search};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let iterations: u64 = match args.next() {
        Some(n) => n.parse()?,
        None => 10_000,
    };
    let fen = args.next().unwrap_or_else(|| {
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R b KQkq - 0 5".to_string()
    });
    let game = Game::new(Bitboards::from_fen(&fen)?);
    println!("position {fen}, {iterations} iterations each\n");
    println!(
        "{:<28} {:>6} {:>8} {:>7} {:>7} {:>9} {:>10} {:>8}  pv",
        "variant", "move", "visits", "value", "score", "nodes", "nodes/s", "time"
    );
    let mut configs: Vec<MctsConfig> = Variant::ALL.iter().map(|&v| MctsConfig::new(v)).collect();
    configs.push(MctsConfig::new(Variant::Puct).threads(2, Parallelism::Tree));
    configs.push(MctsConfig::new(Variant::Puct).threads(2, Parallelism::Root));
    for config in configs {
        let label = config.to_string();
        let mcts = Mcts::with_config(Classical::default(), config.iterations(iterations));
        report(&label, mcts, &game);
    }
    // PUCT with the shipped policy network, alone and blended.
    let net = embedded_policy()?;
    let config = MctsConfig::puct().iterations(iterations);
    let alone = NetPolicy::new(net.clone());
    report(
        "puct, network policy",
        Mcts::with_policy(Classical::default(), alone, config.clone()),
        &game,
    );
    let blend = Blend::engine(net, ENGINE_NET_WEIGHT);
    report(
        "puct, blended (the engine's)",
        Mcts::with_policy(Classical::default(), blend, config),
        &game,
    );
    Ok(())
}

/// Runs `mcts` on `game` and prints its line and its most visited moves.
fn report<P: Policy<Bitboards>>(label: &str, mut mcts: Mcts<Classical, P>, game: &Game<Bitboards>) {
    let r = mcts.search(game, &Limits::default(), &mut |_| {});
    let best = r
        .best_move
        .and_then(|b| mcts.root_children().iter().find(|c| c.mv == b));
    let (visits, value) = best.map_or((0, 0.5), |c| (c.visits, c.value));
    let pv: Vec<String> = r.pv.iter().take(6).map(|m| m.to_string()).collect();
    println!(
        "{:<28} {:>6} {:>8} {:>7.3} {:>7} {:>9} {:>10} {:>7.2}s  {}",
        label,
        r.best_move.map_or("-".to_string(), |m| m.to_string()),
        visits,
        value,
        r.score.to_string(),
        r.nodes,
        r.nps(),
        r.time.as_secs_f64(),
        pv.join(" ")
    );
    // The most visited root moves.
    let mut children = mcts.root_children().to_vec();
    children.sort_by_key(|c| std::cmp::Reverse(c.visits));
    let top: Vec<String> = children
        .iter()
        .take(4)
        .map(|c| format!("{} {} ({:.3})", c.mv, c.visits, c.value))
        .collect();
    println!("{:<28} {}", "", top.join(", "));
}
