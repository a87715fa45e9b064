//! Principal variation search with every feature, then with each feature
//! group switched off, on Kiwipete; then on two threads.
//!
//! `cargo run --release --example pvs`

use fianchetto::board::{Bitboards, Board};
use fianchetto::eval::Classical;
use fianchetto::movegen::Game;
use fianchetto::search::pvs::{Pvs, PvsConfig};
use fianchetto::search::{Limits, Search};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let game = Game::new(Bitboards::from_fen(fen)?);
    let limits = Limits::depth(10);
    let mut pvs = Pvs::new(Classical::default());
    let r = pvs.search(&game, &limits, &mut |info| println!("{}", info.to_uci()));
    println!("position {fen}");
    println!(
        "all on:       nodes {:>9} in {:.3} s, score {}, best {}",
        r.nodes,
        r.time.as_secs_f64(),
        r.score,
        r.pv[0]
    );
    println!(
        "pv {}",
        r.pv.iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    for off in ["null", "lmr", "futility,rfp,razoring", "tt"] {
        let mut config = PvsConfig::default();
        config.disable(off)?;
        let r = Pvs::with_config(Classical::default(), config).search(&game, &limits, &mut |_| {});
        println!(
            "without {off:<21} nodes {:>9} in {:.3} s, score {}",
            r.nodes,
            r.time.as_secs_f64(),
            r.score
        );
    }
    let config = PvsConfig {
        threads: 2,
        ..PvsConfig::default()
    };
    let r = Pvs::with_config(Classical::default(), config).search(&game, &limits, &mut |_| {});
    println!(
        "two threads:  nodes {:>9} in {:.3} s, score {}",
        r.nodes,
        r.time.as_secs_f64(),
        r.score
    );
    Ok(())
}
