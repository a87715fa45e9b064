//! The three board backends against the perft suites and against each other.
//!
//! The suite runner is generic over `B: MoveGen`. To keep `cargo test` fast,
//! each position is counted at the deepest listed depth whose stored count is
//! within a node budget, and positions whose every stored count is larger
//! are checked at depth 3 against the bitboard backend (whose own full-depth
//! counts are tested elsewhere). `cargo test -p fianchetto-movegen --test
//! backends -- --ignored` checks every stored count on every backend.

use fianchetto_board::{zobrist, Bitboards, Board, Board0x88, Mailbox, Move, Setup};
use fianchetto_movegen::{divide, perft, perft_plain, Game, GenKind, MoveGen, MoveList};
use proptest::prelude::*;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const STANDARD: &str = include_str!("data/perft-standard.epd");
const RANDOM: &str = include_str!("data/perft-random.epd");

/// One line of a suite: the FEN and its (depth, count) pairs.
fn parse_suite(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap_or_default().trim().to_string();
            let counts = fields
                .filter_map(|f| {
                    let (d, n) = f.trim().split_once(' ')?;
                    Some((
                        d.trim_start_matches('D').parse().ok()?,
                        n.trim().parse().ok()?,
                    ))
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// Runs a suite on `B`: stored counts up to `budget` nodes are checked as
/// stored (bulk counting, plus plain perft one ply shallower); positions
/// with only larger counts are compared with the bitboard backend at depth 3.
fn run_suite<B: MoveGen>(text: &str, budget: u64) -> (usize, usize) {
    let (mut exact, mut cross) = (0, 0);
    for (fen, counts) in parse_suite(text) {
        let board = B::from_fen(&fen).unwrap_or_else(|e| panic!("{} rejects {fen}: {e}", B::NAME));
        match counts
            .iter()
            .filter(|&&(_, n)| n <= budget)
            .max_by_key(|&&(d, _)| d)
        {
            Some(&(depth, want)) => {
                assert_eq!(
                    perft(&board, depth),
                    want,
                    "{} perft {depth} of {fen}",
                    B::NAME
                );
                if depth > 1 {
                    let shallower = counts.iter().find(|&&(d, _)| d == depth - 1);
                    if let Some(&(d, n)) = shallower {
                        assert_eq!(
                            perft_plain(&board, d),
                            n,
                            "{} plain perft {d} of {fen}",
                            B::NAME
                        );
                    }
                }
                exact += 1;
            }
            None => {
                let reference = Bitboards::from_fen(&fen)
                    .unwrap_or_else(|e| panic!("bitboards reject {fen}: {e}"));
                let mut want = divide(&reference, 3);
                let mut got = divide(&board, 3);
                want.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, want, "{} divide 3 of {fen}", B::NAME);
                cross += 1;
            }
        }
    }
    (exact, cross)
}

fn run_suite_full<B: MoveGen>(text: &str) {
    for (fen, counts) in parse_suite(text) {
        let board = B::from_fen(&fen).unwrap_or_else(|e| panic!("{} rejects {fen}: {e}", B::NAME));
        for (depth, want) in counts.into_iter().filter(|&(_, n)| n <= 250_000_000) {
            assert_eq!(
                perft(&board, depth),
                want,
                "{} perft {depth} of {fen}",
                B::NAME
            );
        }
    }
}

const BUDGET: u64 = 120_000;

#[test]
fn standard_suite_bitboard() {
    assert_eq!(run_suite::<Bitboards>(STANDARD, BUDGET).0, 7);
}

#[test]
fn standard_suite_0x88() {
    assert_eq!(run_suite::<Board0x88>(STANDARD, BUDGET).0, 7);
}

#[test]
fn standard_suite_mailbox() {
    assert_eq!(run_suite::<Mailbox>(STANDARD, BUDGET).0, 7);
}

#[test]
fn random_suite_0x88() {
    let (exact, cross) = run_suite::<Board0x88>(RANDOM, BUDGET);
    assert_eq!(exact + cross, 120);
    assert!(exact > 0);
}

#[test]
fn random_suite_mailbox() {
    let (exact, cross) = run_suite::<Mailbox>(RANDOM, BUDGET);
    assert_eq!(exact + cross, 120);
    assert!(exact > 0);
}

#[test]
#[ignore = "every stored count (about 10^9 nodes per backend): run with --ignored"]
fn full_suites_all_backends() {
    for text in [STANDARD, RANDOM] {
        run_suite_full::<Bitboards>(text);
        run_suite_full::<Board0x88>(text);
        run_suite_full::<Mailbox>(text);
    }
}

/// The FENs of both suites, as starting points for random games.
fn suite_fens() -> Vec<String> {
    let mut fens: Vec<String> = parse_suite(STANDARD).into_iter().map(|(f, _)| f).collect();
    fens.extend(parse_suite(RANDOM).into_iter().map(|(f, _)| f));
    fens
}

fn sorted(mut list: MoveList) -> Vec<Move> {
    list.sort_unstable();
    list.to_vec()
}

/// Everything observable about one backend's position, for comparison.
fn observe<B: MoveGen>(
    game: &Game<B>,
) -> (
    Vec<Move>,
    String,
    u64,
    bool,
    u64,
    Option<fianchetto_movegen::Outcome>,
) {
    let b = game.board();
    let all = sorted(b.legal_moves());
    let captures = sorted(b.captures());
    let quiets = sorted(b.quiets());
    // Captures and quiets partition the legal moves.
    let mut union: Vec<Move> = captures.iter().chain(&quiets).copied().collect();
    union.sort_unstable();
    assert_eq!(
        union,
        all,
        "{}: captures + quiets != all in {}",
        B::NAME,
        b.fen()
    );
    assert!(
        captures.iter().all(|m| m.is_capture()),
        "{}: {}",
        B::NAME,
        b.fen()
    );
    assert!(
        quiets.iter().all(|m| !m.is_capture()),
        "{}: {}",
        B::NAME,
        b.fen()
    );
    assert_eq!(
        b.count_legal(),
        all.len() as u64,
        "{}: count_legal in {}",
        B::NAME,
        b.fen()
    );
    let mut list = MoveList::new();
    b.generate(GenKind::All, &mut list);
    assert_eq!(list.len(), all.len());
    // The incremental hash equals the one computed from scratch.
    let s: Setup = b.to_setup();
    let pieces = (0..64u8).filter_map(|i| {
        let sq = fianchetto_board::Square::new(i)?;
        s.board[sq.index()].map(|p| (sq, p))
    });
    assert_eq!(
        b.hash(),
        zobrist::compute(pieces, s.turn, s.castling, s.ep_square),
        "{}: hash of {}",
        B::NAME,
        b.fen()
    );
    for color in fianchetto_board::Color::ALL {
        assert_eq!(
            b.by_color(color).count(),
            s.board
                .iter()
                .flatten()
                .filter(|p| p.color == color)
                .count() as u32
        );
    }
    (
        all,
        b.fen(),
        b.hash(),
        b.in_check(),
        b.checkers().0,
        game.outcome(),
    )
}

/// Plays a random game from `fen` for up to `plies` moves, checking after
/// every move that the three backends agree.
fn random_game(fen: &str, seed: u64, plies: usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut bb = Game::new(Bitboards::from_fen(fen).expect("suite FEN"));
    let mut x88 = Game::new(Board0x88::from_fen(fen).expect("suite FEN"));
    let mut mb = Game::new(Mailbox::from_fen(fen).expect("suite FEN"));
    for ply in 0..plies {
        let want = observe(&bb);
        assert_eq!(
            observe(&x88),
            want,
            "0x88 differs at ply {ply} of seed {seed} from {fen}"
        );
        assert_eq!(
            observe(&mb),
            want,
            "mailbox differs at ply {ply} of seed {seed} from {fen}"
        );
        for sq in fianchetto_board::Square::all() {
            for by in fianchetto_board::Color::ALL {
                let attacked = bb.board().is_attacked(sq, by);
                assert_eq!(
                    x88.board().is_attacked(sq, by),
                    attacked,
                    "0x88 is_attacked {sq} by {by} in {}",
                    want.1
                );
                assert_eq!(
                    mb.board().is_attacked(sq, by),
                    attacked,
                    "mailbox is_attacked {sq} by {by} in {}",
                    want.1
                );
            }
        }
        if want.5.is_some() {
            return;
        }
        let moves = want.0;
        let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
        bb.play_unchecked(mv);
        x88.play_unchecked(mv);
        mb.play_unchecked(mv);
        // Now and then, compare a null move too.
        if rng.next_u64() % 16 == 0 && !bb.board().in_check() {
            let (mut a, mut b, mut c) =
                (bb.board().clone(), x88.board().clone(), mb.board().clone());
            a.play_null();
            b.play_null();
            c.play_null();
            assert_eq!((b.fen(), b.hash()), (a.fen(), a.hash()));
            assert_eq!((c.fen(), c.hash()), (a.fen(), a.hash()));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn backends_agree_on_random_games(start in 0usize..127, seed in any::<u64>(), plies in 1usize..160) {
        let fens = suite_fens();
        let fen = &fens[start % fens.len()];
        random_game(fen, seed, plies);
    }

    #[test]
    fn backends_agree_from_the_start(seed in any::<u64>()) {
        random_game(fianchetto_board::START_FEN, seed, 300);
    }
}

/// Positions with every special rule (checks, pins, en passant with the
/// horizontal pin, promotions, castling through attack) on all backends.
#[test]
fn tricky_positions_agree() {
    let fens = [
        "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
        "8/8/3k4/8/2pP4/8/B7/4K3 b - d3 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/5n2/R3K2R w KQkq - 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1",
        "8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1",
        "3k4/3r4/8/8/8/8/3R4/3K4 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2q w - - 0 1",
        "4k3/8/8/1b6/8/8/4N3/4K3 w - - 0 1",
        "1k6/8/8/5q2/8/3R4/8/K4N2 w - - 0 1",
    ];
    for fen in fens {
        random_game(fen, 7, 40);
    }
}
