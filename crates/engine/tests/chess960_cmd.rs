//! Chess960 through the binary: `perft --chess960` and the UCI option
//! `UCI_Chess960` (positions in X-FEN/Shredder-FEN, castling written as king
//! takes rook in `go perft`, `info … pv` and `bestmove`).

use fianchetto_board::{Bitboards, Board, CastlingMode};
use fianchetto_movegen::{parse_uci, Game};

mod common;

/// King b1 between rooks a1 and h1: both castlings are legal, and O-O-O
/// (king to c1) shares its king's move with the ordinary step b1c1.
const POSITION: &str = "4k3/8/8/8/8/8/8/RK5R w HA - 0 1";

fn fianchetto(args: &[&str], input: &str) -> String {
    let out = common::run(args, input);
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    text
}

#[test]
fn perft_command_reads_shredder_fen_and_writes_king_takes_rook() {
    // The first position of the published Chess960 list.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    for backend in ["bitboard", "0x88", "mailbox"] {
        let out = fianchetto(
            &[
                "perft",
                "3",
                "--chess960",
                "--backend",
                backend,
                "--fen",
                fen,
            ],
            "",
        );
        assert!(out.contains("Nodes searched: 12189"), "{backend}: {out}");
    }
    let out = fianchetto(
        &["perft", "1", "--chess960", "--divide", "--fen", POSITION],
        "",
    );
    for line in ["b1a1: 1", "b1h1: 1", "b1c1: 1", "Nodes searched: 25"] {
        assert!(out.lines().any(|l| l == line), "{line}: {out}");
    }
    // Without the flag the file letters are refused with a clear message.
    let out = fianchetto(&["perft", "1", "--fen", POSITION], "");
    assert!(
        out.contains("castling field is `HA`") && out.contains("Chess960"),
        "{out}"
    );
}

#[test]
fn uci_option_reads_and_writes_chess960() {
    let out = fianchetto(&[], "uci\nquit\n");
    assert!(
        out.lines()
            .any(|l| l == "option name UCI_Chess960 type check default false"),
        "{out}"
    );
    // Off: the Shredder-FEN is refused and the position stays the start.
    let out = fianchetto(&[], &format!("position fen {POSITION}\ngo perft 1\nquit\n"));
    assert!(out.contains("info string error"), "{out}");
    assert!(out.contains("Nodes searched: 20"), "{out}");
    // On: castling both ways, written king takes rook; a move list may use
    // that form, and `d` shows the X-FEN after O-O-O.
    let out = fianchetto(
        &[],
        &format!(
            "setoption name UCI_Chess960 value true\nposition fen {POSITION}\ngo perft 1\n\
             position fen {POSITION} moves b1a1\nd\nquit\n"
        ),
    );
    for line in ["b1a1: 1", "b1h1: 1", "b1c1: 1", "Nodes searched: 25"] {
        assert!(out.lines().any(|l| l == line), "{line}: {out}");
    }
    assert!(
        out.contains("Fen: 4k3/8/8/8/8/8/8/2KR3R b - - 1 1"),
        "{out}"
    );
}

#[test]
fn search_answers_in_chess960_notation() {
    // Black to move can castle long (king c8 stays, rook b8 to d8, check).
    // Whatever the search picks, every move it prints, best move and PV
    // alike, must read back as legal in Chess960 notation.
    let fen = "1rk5/8/8/8/8/8/8/3K3R b Hb - 0 1";
    let out = fianchetto(
        &[],
        &format!("setoption name UCI_Chess960 value true\nposition fen {fen}\ngo depth 4\n"),
    );
    let start = Bitboards::from_fen_with(fen, CastlingMode::Chess960).expect("fen");
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no bestmove: {out}"));
    assert!(parse_uci(&start, best).is_ok(), "{best}: {out}");
    for line in out.lines().filter(|l| l.starts_with("info depth")) {
        let pv = line.split(" pv ").nth(1).unwrap_or_default();
        let mut game = Game::new(start.clone());
        for mv in pv.split_whitespace() {
            assert!(game.play_uci(mv).is_ok(), "{mv} in {line}");
        }
    }
}
