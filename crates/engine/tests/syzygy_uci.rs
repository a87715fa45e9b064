//! The engine with `SyzygyPath` set, driven over UCI at 2 000 nodes a move:
//! it converts won 3- and 4-piece endgames (K+B+N v K, K+Q v K+R, K+R v
//! K+P, K+P v K) against the tables' own defence, and holds drawn ones
//! (K+P v K+R, K+P v K+Q, K v K+P, K+R v K+R) against the tables' attack.
//! Both PVS and MCTS (`Algorithm mcts`) are played. Also: a bad path is an
//! `info string error` and the engine plays on.

mod common;
#[path = "../../syzygy/tests/common/mod.rs"]
mod tables;

use common::Engine;

use fianchetto_board::{Bitboards, Board};
use fianchetto_movegen::{parse_uci, Game, Outcome};
use fianchetto_syzygy::Tablebase;

/// The algorithms that probe the tables.
const ALGORITHMS: [&str; 2] = ["pvs", "mcts"];

fn engine_with_tables() -> Engine {
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        tables::tables_dir().display()
    ));
    let said = e.expect("info string");
    assert!(said.contains("70 table files"), "{said}");
    e
}

/// Plays `fen` out, the engine (2 000 nodes a move) on the side to move,
/// the tables' best move on the other, for at most `plies` plies. Checks
/// after each engine move that the tables' verdict for the engine did not
/// get worse. Returns how the game ended (None: cut off).
fn play(e: &mut Engine, tb: &Tablebase, fen: &str, plies: usize) -> Option<Outcome> {
    e.send("ucinewgame");
    let mut game = Game::new(Bitboards::from_fen(fen).unwrap());
    let engine_side = game.board().turn();
    let verdict = tb.probe_wdl(game.board()).unwrap().under_fifty_move_rule();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        if let Some(outcome) = game.outcome_with_claims() {
            return Some(outcome);
        }
        let board = game.board().clone();
        let mv = if board.turn() == engine_side {
            e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
            e.send("go nodes 2000");
            let line = e.expect("bestmove");
            let text = line
                .split_whitespace()
                .nth(1)
                .unwrap_or_default()
                .to_string();
            parse_uci(&board, &text).unwrap_or_else(|err| panic!("{fen} {moves:?}: {line}: {err}"))
        } else {
            tb.best_move(&board).unwrap().expect("a legal move").mv
        };
        moves.push(mv.to_string());
        game.play(mv).unwrap();
        if board.turn() == engine_side && game.outcome().is_none() {
            // The tables' verdict, for the engine, after its move (and with
            // the fifty-move counter as it stands).
            let after = -tb.probe_wdl(game.board()).unwrap();
            let clock_ok = game.board().halfmove_clock() < 100;
            assert!(
                after.under_fifty_move_rule() >= verdict || !clock_ok,
                "{fen} {moves:?}: {verdict} became {after}"
            );
        }
    }
    None
}

const WON: &[&str] = &[
    "8/8/8/3k4/8/8/8/KBN5 w - - 0 1", // K+B+N v K, 58 plies to the capture-free mate
    "8/3r4/8/4k3/8/8/8/K6Q w - - 0 1", // K+Q v K+R
    "8/8/K7/P7/6k1/7r/8/8 b - - 0 1", // K+R v K+P, black wins
    "8/8/1k6/8/8/1K6/1P6/8 w - - 0 1", // K+P v K
];

const DRAWN: &[&str] = &[
    "8/8/6K1/3P4/8/4rk2/8/8 w - - 0 1", // K+P v K+R
    "8/P7/5q1k/8/8/4K3/8/8 w - - 0 1",  // K+P v K+Q, the a-pawn on the seventh
    "7k/p7/8/2K5/8/8/8/8 w - - 0 1",    // K v K+P
    "8/5k2/8/8/K7/7R/5r2/8 w - - 0 1",  // K+R v K+R
];

#[test]
fn won_endgames_are_converted() {
    let tb = tables::tablebase();
    let mut e = engine_with_tables();
    for algorithm in ALGORITHMS {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        for fen in WON {
            let winner = Bitboards::from_fen(fen).unwrap().turn();
            match play(&mut e, &tb, fen, 400) {
                Some(Outcome::Decisive { winner: w, .. }) if w == winner => {}
                other => panic!("{algorithm} {fen}: {other:?}"),
            }
        }
    }
}

#[test]
fn drawn_endgames_are_held() {
    let tb = tables::tablebase();
    let mut e = engine_with_tables();
    for algorithm in ALGORITHMS {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        for fen in DRAWN {
            let side = Bitboards::from_fen(fen).unwrap().turn();
            let outcome = play(&mut e, &tb, fen, 120);
            assert!(
                !matches!(outcome, Some(Outcome::Decisive { winner, .. }) if winner != side),
                "{algorithm} {fen}: {outcome:?}"
            );
        }
    }
}

#[test]
fn a_bad_path_is_an_error_and_the_engine_plays_on() {
    let mut e = Engine::start();
    e.send("setoption name SyzygyPath value /no/such/folder");
    let said = e.expect("info string");
    assert!(said.starts_with("info string error: SyzygyPath"), "{said}");
    assert!(said.contains("/no/such/folder"), "{said}");
    e.send("position fen 8/8/8/3k4/8/8/8/KBN5 w - - 0 1");
    e.send("go depth 3");
    let best = e.expect("bestmove");
    let board = Bitboards::from_fen("8/8/8/3k4/8/8/8/KBN5 w - - 0 1").unwrap();
    let mv = best.split_whitespace().nth(1).unwrap_or_default();
    assert!(parse_uci(&board, mv).is_ok(), "{best}");
}

#[test]
fn tablebase_hits_are_reported_and_wins_are_not_mates() {
    let mut e = engine_with_tables();
    // K+Q+R v K+R is 5 pieces: its captures lead into the 4-piece tables.
    e.send("position fen 8/8/8/3k4/8/3r4/8/KQR5 w - - 0 1");
    e.send("go depth 6");
    let mut last = String::new();
    loop {
        let line = e.expect("");
        if line.starts_with("bestmove") {
            break;
        }
        if line.starts_with("info depth") {
            last = line;
        }
    }
    assert!(tbhits(&last) > 0, "{last}");
    // A tablebase win is reported as a centipawn score, never as a mate: a
    // mate may be reported only when the search has proved it, so its
    // principal variation ends in checkmate (quiet checks in quiescence
    // find this one, mate in 7, at depth 6).
    if last.contains("score mate") {
        let fen = "8/8/8/3k4/8/3r4/8/KQR5 w - - 0 1";
        let mut game = Game::new(Bitboards::from_fen(fen).unwrap());
        for text in last.split_whitespace().skip_while(|w| *w != "pv").skip(1) {
            let mv = parse_uci(game.board(), text).unwrap_or_else(|err| panic!("{last}: {err}"));
            game.play(mv).unwrap();
        }
        assert!(
            matches!(game.outcome(), Some(Outcome::Decisive { .. })),
            "a mate score without a mate: {last}"
        );
    }
}

#[test]
fn mcts_proves_the_leaves_the_tables_decide() {
    let mut e = engine_with_tables();
    e.send("setoption name Algorithm value mcts");
    // K+Q+R v K+R: the root is not in the 4-piece tables, but every
    // capture leads into them.
    e.send("position fen 8/8/8/3k4/8/3r4/8/KQR5 w - - 0 1");
    e.send("go nodes 20000");
    let (best, lines) = e.bestmove(std::time::Duration::from_secs(30));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("a report");
    assert!(tbhits(last) > 0, "{last}");
    // White is winning: its move keeps the win (Qxd3 and Rxd3 win the
    // rook at once, and the tables see the rest).
    let board = Bitboards::from_fen("8/8/8/3k4/8/3r4/8/KQR5 w - - 0 1").unwrap();
    let mv = parse_uci(&board, &best).expect("a legal move");
    let mut after = board.clone();
    after.play_unchecked(mv);
    if after.occupied().count() <= 4 {
        let tb = tables::tablebase();
        let wdl = tb.probe_wdl(&after).unwrap();
        assert!(wdl.value() < 0, "{best}: the opponent's {wdl}");
    }
}

/// The `tbhits` of an `info` line (0 when it has none).
fn tbhits(info: &str) -> u64 {
    info.split_whitespace()
        .skip_while(|w| *w != "tbhits")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// A folder of its own for a test, emptied first.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fianchetto-syzygy-uci-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_table_that_cannot_be_opened_is_reported() {
    // KQvK is good; KPvK.rtbw has a wrong magic number, KPvK.rtbz is cut
    // short to 3 bytes.
    let dir = scratch("bad-table");
    let src = tables::tables_dir();
    for name in ["KQvK.rtbw", "KQvK.rtbz"] {
        std::fs::copy(src.join(name), dir.join(name)).unwrap();
    }
    let mut wdl = std::fs::read(src.join("KPvK.rtbw")).unwrap();
    wdl[0] ^= 0xff;
    std::fs::write(dir.join("KPvK.rtbw"), wdl).unwrap();
    std::fs::write(dir.join("KPvK.rtbz"), [0xd7, 0x66, 0x0c]).unwrap();

    let mut e = Engine::start();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    e.send("isready");
    let said = e.until(|l| l == "readyok", std::time::Duration::from_secs(20));
    let strings: Vec<&String> = said
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    let about = |name: &str| strings.iter().filter(|l| l.contains(name)).count();
    assert_eq!(about("KPvK.rtbw"), 1, "{said:?}");
    assert!(
        strings
            .iter()
            .any(|l| l.contains("KPvK.rtbw") && l.contains("magic")),
        "{said:?}"
    );
    assert_eq!(about("KPvK.rtbz"), 1, "{said:?}");
    assert_eq!(about("KQvK"), 0, "{said:?}");
    // The good tables are still used, and the engine plays on.
    assert!(
        strings.iter().any(|l| l.contains("4 table files")),
        "{said:?}"
    );
    e.send("position fen 8/8/8/3k4/8/8/8/KQ6 w - - 0 1");
    e.send("go depth 3");
    e.expect("bestmove");
    let _ = std::fs::remove_dir_all(&dir);
}
