//! Alpha-beta on the same position as `minimax`, with each move ordering of
//! the Rookie thesis: the same score, far fewer nodes.
//!
//! `cargo run --release --example alphabeta`

use fianchetto::board::{Bitboards, Board};
use fianchetto::eval::Classical;
use fianchetto::movegen::Game;
use fianchetto::search::alphabeta::{AlphaBeta, Horizon, MoveOrdering};
use fianchetto::search::{Limits, Search};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let game = Game::new(Bitboards::from_fen(fen)?);
    println!("position {fen}, depth 5");
    for ordering in [
        MoveOrdering::None,
        MoveOrdering::MvvLva,
        MoveOrdering::Killers,
    ] {
        let mut search = AlphaBeta::new(Classical::default())
            .ordering(ordering)
            .iterative(false);
        let r = search.search(&game, &Limits::depth(5), &mut |_| {});
        println!(
            "{:<8} nodes {:>9}  {:>7.3} s  score {:<8} pv {}",
            format!("{ordering:?}"),
            r.nodes,
            r.time.as_secs_f64(),
            r.score.to_string(),
            r.pv.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    // With a quiescence search the leaves are quiet: a different (better)
    // score, so it is not comparable node for node.
    let mut search = AlphaBeta::new(Classical::default())
        .ordering(MoveOrdering::Killers)
        .horizon(Horizon::Quiescence);
    let r = search.search(&game, &Limits::depth(5), &mut |_| {});
    println!(
        "killers + quiescence: nodes {} score {} pv {}",
        r.nodes,
        r.score,
        r.pv.iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    Ok(())
}
