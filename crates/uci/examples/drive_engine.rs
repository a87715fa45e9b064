//! Drives a UCI engine through a few moves of a game, printing what it
//! reports: `cargo run -p fianchetto-uci --example drive_engine [ENGINE]`.
//! Without an argument it tries our own release build and then Debian's
//! Stockfish, and says so and stops when neither is there.

use fianchetto_board::{Bitboards, Board};
use fianchetto_movegen::{to_san, Game};
use fianchetto_uci::{Engine, EngineConfig, Go};
use std::time::Duration;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let candidates = ["target/release/fianchetto", "/usr/games/stockfish"];
    let Some(program) = std::env::args().nth(1).or_else(|| {
        candidates
            .iter()
            .find(|p| std::path::Path::new(p).exists())
            .map(|p| p.to_string())
    }) else {
        println!(
            "no engine found (tried {}); pass one as the argument",
            candidates.join(", ")
        );
        return Ok(());
    };
    let config = EngineConfig::from_command_line(&program).ok_or("an empty command")?;
    let mut engine = Engine::start(config)?;
    println!(
        "{} by {}, {} options",
        engine.name(),
        engine.author(),
        engine.options().len()
    );
    if engine.option("Hash").is_some() {
        engine.set_option("Hash", Some("16"))?;
    }
    engine.new_game()?;

    // Six plies at 100 ms a move, each reported with its score and PV.
    let mut game = Game::new(Bitboards::startpos());
    for _ in 0..6 {
        let played = engine.play(&game, &Go::movetime(Duration::from_millis(100)))?;
        let Some(best) = played.best else { break };
        let pv: Vec<String> = played.info.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "{:>6}  depth {:?}  score {:?}  pv {}",
            to_san(game.board(), best),
            played.info.depth.unwrap_or(0),
            played.info.score.map(|s| s.score),
            pv.join(" ")
        );
        game.play(best)?;
    }

    // An infinite analysis of the final position, stopped after three reports.
    let mut search = engine.go(&game, &Go::infinite())?;
    for _ in 0..3 {
        if let Some(info) = search.next_info()? {
            println!("info: {info}");
        }
    }
    search.stop()?;
    let played = search.wait()?;
    println!(
        "stopped: best {:?}, {}",
        played.best.map(|m| m.to_string()),
        game.board().fen()
    );
    engine.quit();
    Ok(())
}
