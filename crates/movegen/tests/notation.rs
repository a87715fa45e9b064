//! Property tests for move notation: over random legal games, every legal
//! move survives SAN and UCI round trips, and no two legal moves of a
//! position share a SAN string.

use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_movegen::{parse_san, parse_uci, san_line, to_san, MoveGen};
use proptest::prelude::*;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;

/// Positions with every kind of special move close at hand: castling both
/// ways with pins and checks (Kiwipete), en passant with a pinned pawn,
/// promotions with and without capture, underpromotion to mate, and many
/// same-kind pieces for disambiguation.
const TRICKY_FENS: &[&str] = &[
    fianchetto_board::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // Three queens and three knights of each colour: disambiguation by
    // file, rank and both.
    "7k/8/2N1N3/1Q3Q2/8/1Q3N2/8/4K3 w - - 0 1",
    "4k3/1n3n2/8/3q1q2/8/3q1n2/8/7K b - - 0 1",
    // Promotions everywhere, capturing ones with check.
    "r1n1k3/PPP5/8/8/8/8/5ppp/3K1NNR w - - 0 1",
    "r1n1k3/PPP5/8/8/8/8/5ppp/3K1NNR b - - 0 1",
    // Mate in one (Scholar's mate).
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
    // En passant that would expose the king (illegal) next to one that is legal.
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
];

fn board(fen: &str) -> Bitboards {
    Bitboards::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"))
}

/// Checks every notation property on every legal move of `b`.
fn check_position(b: &Bitboards) {
    let legal = b.legal_moves();
    let mut seen = HashSet::new();
    for &mv in &legal {
        let san = to_san(b, mv).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            seen.insert(san.clone()),
            "two moves write as {san} in {}",
            b.fen()
        );
        assert_eq!(parse_san(b, &san), Ok(mv), "SAN {san} in {}", b.fen());
        let uci = mv.to_string();
        assert_eq!(parse_uci(b, &uci), Ok(mv), "UCI {uci} in {}", b.fen());

        // The suffix tells the truth about check and mate.
        let mut after = b.clone();
        after.play_unchecked(mv);
        let suffix = if after.is_checkmate() {
            "#"
        } else if after.in_check() {
            "+"
        } else {
            ""
        };
        assert!(
            san.ends_with(suffix) && !san[..san.len() - suffix.len()].ends_with(['+', '#']),
            "{san} in {}",
            b.fen()
        );

        // The variants people type read as the same move.
        let bare = san.trim_end_matches(['+', '#']);
        for variant in [format!("{bare}!?"), format!("{bare}#"), format!(" {bare} ")] {
            assert_eq!(parse_san(b, &variant), Ok(mv), "{variant:?} in {}", b.fen());
        }
        if !mv.is_castle() {
            // Fully disambiguated long algebraic: `Ng1f3`, `e2e4`, `e7e8q`.
            let letter = match b.piece_at(mv.from()).map(|p| p.role) {
                Some(fianchetto_board::Role::Pawn) | None => String::new(),
                Some(role) => role.upper_char().to_string(),
            };
            let long = format!("{letter}{uci}");
            assert_eq!(parse_san(b, &long), Ok(mv), "{long} in {}", b.fen());
        } else {
            let zeros = bare.replace('O', "0");
            assert_eq!(parse_san(b, &zeros), Ok(mv), "{zeros} in {}", b.fen());
        }
        if mv.promotion().is_some() {
            let no_equals = bare.replace('=', "");
            assert_eq!(
                parse_san(b, &no_equals),
                Ok(mv),
                "{no_equals} in {}",
                b.fen()
            );
            let lower = bare.to_ascii_lowercase();
            // Lower-casing a pawn move touches only the promotion letter.
            assert_eq!(parse_san(b, &lower), Ok(mv), "{lower} in {}", b.fen());
        }
    }
}

/// Plays a random legal game of up to `plies` half-moves from `start`,
/// checking every position on the way; returns the moves played.
fn random_game(start: &Bitboards, seed: u64, plies: usize) -> Vec<Move> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut b = start.clone();
    let mut played = Vec::new();
    for _ in 0..plies {
        check_position(&b);
        let legal = b.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[(rng.next_u64() % legal.len() as u64) as usize];
        b.play_unchecked(mv);
        played.push(mv);
    }
    check_position(&b);
    played
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_games_round_trip(fen_index in 0..TRICKY_FENS.len(), seed: u64, plies in 0usize..120) {
        let start = board(TRICKY_FENS[fen_index]);
        let moves = random_game(&start, seed, plies);

        // The whole line reads back, move by move, from its SAN text.
        let line = san_line(&start, &moves).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut b = start.clone();
        let mut replayed = Vec::new();
        for token in line.split_whitespace().filter(|t| !t.ends_with('.')) {
            let mv = parse_san(&b, token).map_err(|e| TestCaseError::fail(e.to_string()))?;
            b.play_unchecked(mv);
            replayed.push(mv);
        }
        prop_assert_eq!(replayed, moves);
    }
}

/// Every legal move of every perft position in the crate's data files.
#[test]
fn perft_positions_round_trip() {
    for file in [
        include_str!("data/perft-standard.epd"),
        include_str!("data/perft-random.epd"),
    ] {
        for line in file.lines().filter(|l| !l.trim().is_empty()) {
            let fen = line.split(';').next().unwrap_or_default().trim();
            check_position(&board(fen));
        }
    }
    for fen in TRICKY_FENS {
        check_position(&board(fen));
    }
}

/// The tricky positions really contain what they are there for.
#[test]
fn tricky_positions_cover_the_cases() {
    let mut sans = Vec::new();
    for fen in TRICKY_FENS {
        let b = board(fen);
        sans.extend(
            b.legal_moves()
                .iter()
                .map(|&m| to_san(&b, m).unwrap_or_else(|e| panic!("{e}"))),
        );
    }
    for want in [
        "Nbd6", "Nfd6", "N7e5", "N3e5+", "Qb5d3", "Q3b4", "bxc8=Q+", "gxf1=Q+", "cxd6", "exd6",
        "O-O", "O-O-O", "Qxf7#",
    ] {
        assert!(sans.iter().any(|s| s == want), "no {want} among {sans:?}");
    }
}
