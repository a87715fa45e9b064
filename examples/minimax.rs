//! Minimax (negamax) on a tactical middlegame: every move searched to the
//! full depth. Compare the node count with `alphabeta`, `scout` and `pvs`.
//!
//! `cargo run --release --example minimax`

use fianchetto::board::{Bitboards, Board};
use fianchetto::eval::Classical;
use fianchetto::movegen::Game;
use fianchetto::search::minimax::Minimax;
use fianchetto::search::{Limits, Search};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let game = Game::new(Bitboards::from_fen(fen)?);
    let mut search = Minimax::new(Classical::default());
    let result = search.search(&game, &Limits::depth(4), &mut |info| {
        println!("{}", info.to_uci())
    });
    println!("position {fen}");
    println!(
        "nodes    {} ({} evaluations) in {:.3} s",
        result.nodes,
        result.evals,
        result.time.as_secs_f64()
    );
    println!("score    {}", result.score);
    println!(
        "pv       {}",
        result
            .pv
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    Ok(())
}
