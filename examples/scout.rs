//! Pearl's Scout: test each move with a boolean search, evaluate it only
//! when the test says it is better. Same score as minimax and alpha-beta.
//!
//! `cargo run --release --example scout`

use fianchetto::board::{Bitboards, Board};
use fianchetto::eval::Classical;
use fianchetto::movegen::Game;
use fianchetto::search::alphabeta::AlphaBeta;
use fianchetto::search::scout::Scout;
use fianchetto::search::{Limits, Search};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let game = Game::new(Bitboards::from_fen(fen)?);
    let limits = Limits::depth(5);
    let scout = Scout::new(Classical::default())
        .search(&game, &limits, &mut |info| println!("{}", info.to_uci()));
    let ab = AlphaBeta::new(Classical::default()).search(&game, &limits, &mut |_| {});
    println!("position {fen}, depth 5");
    println!(
        "scout      nodes {:>9} score {} pv {}",
        scout.nodes,
        scout.score,
        scout
            .pv
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "alpha-beta nodes {:>9} score {} (unordered)",
        ab.nodes, ab.score
    );
    Ok(())
}
