//! Chess960 move generation on every backend: the published Chess960 perft
//! list and a file of castling corner cases (counted by Stockfish), random
//! Chess960 and Double Fischer Random games on which the three backends
//! must agree move by move (hash, FEN, notation round trips), and castling
//! in SAN and in both UCI forms.

use fianchetto_board::{
    zobrist, Bitboards, Board, Board0x88, CastlingMode, CastlingSide, Color, Mailbox, Move, Setup,
    Square,
};
use fianchetto_movegen::{
    divide, parse_san, parse_uci, perft, perft_plain, perft_stats, to_san, to_uci, uci_string,
    Game, MoveGen, UciMoveError,
};
use proptest::prelude::*;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const PUBLISHED: &str = include_str!("data/perft-chess960.epd");
const CORNERS: &str = include_str!("data/perft-chess960-castling.epd");

const C960: CastlingMode = CastlingMode::Chess960;

/// `FEN ;D1 n ;D2 n ...` lines, `#` comments and blank lines skipped.
fn parse_epd(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap_or_default().trim().to_string();
        let counts: Vec<(u32, u64)> = fields
            .map(|f| {
                let (d, n) = f
                    .trim()
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("line {}", i + 1));
                let depth = d.trim_start_matches('D').parse().expect("depth");
                (depth, n.trim().parse().expect("count"))
            })
            .collect();
        assert!(!counts.is_empty(), "line {}: no counts", i + 1);
        cases.push((fen, counts));
    }
    cases
}

fn board<B: Board>(fen: &str) -> B {
    B::from_fen_with(fen, C960).unwrap_or_else(|e| panic!("{} rejects {fen}: {e}", B::NAME))
}

/// Checks every count of `text` up to `budget` nodes with bulk perft, and
/// the shallowest two depths with plain perft; returns the counts checked.
fn check_suite<B: MoveGen>(text: &str, budget: u64) -> usize {
    let mut checked = 0;
    for (fen, counts) in parse_epd(text) {
        let b: B = board(&fen);
        for &(depth, want) in counts.iter().filter(|&&(_, n)| n <= budget) {
            assert_eq!(perft(&b, depth), want, "{} perft {depth} of {fen}", B::NAME);
            if depth <= 2 {
                assert_eq!(
                    perft_plain(&b, depth),
                    want,
                    "{} plain {depth} of {fen}",
                    B::NAME
                );
            }
            checked += 1;
        }
    }
    checked
}

/// Depth 3 of every one of the 960 published positions (and 1 and 2).
const PUBLISHED_BUDGET: u64 = 60_000;
/// Every corner case to depth 4 or 5.
const CORNER_BUDGET: u64 = 450_000;

fn published<B: MoveGen>() {
    let cases = parse_epd(PUBLISHED);
    assert_eq!(cases.len(), 960);
    assert!(cases.iter().all(|(_, c)| c.len() == 6));
    assert!(check_suite::<B>(PUBLISHED, PUBLISHED_BUDGET) >= 2 * 960 + 900);
}

fn corners<B: MoveGen>() {
    assert!(check_suite::<B>(CORNERS, CORNER_BUDGET) >= (26 + 32) * 4);
}

#[test]
fn published_bitboard() {
    published::<Bitboards>();
}

#[test]
fn published_0x88() {
    published::<Board0x88>();
}

#[test]
fn published_mailbox() {
    published::<Mailbox>();
}

#[test]
fn corners_bitboard() {
    corners::<Bitboards>();
}

#[test]
fn corners_0x88() {
    corners::<Board0x88>();
}

#[test]
fn corners_mailbox() {
    corners::<Mailbox>();
}

#[test]
#[ignore = "depths 4 and 5 of the published list (about 10^10 nodes): run with --ignored"]
fn published_deeper_all_backends() {
    check_suite::<Bitboards>(PUBLISHED, 20_000_000);
    check_suite::<Board0x88>(PUBLISHED, 1_000_000);
    check_suite::<Mailbox>(PUBLISHED, 1_000_000);
}

/// Everything the three backends must agree on in one position, with the
/// invariants checked on the way.
fn observe<B: MoveGen>(b: &B) -> (Vec<Move>, String, String, u64, u64) {
    let mut moves = b.legal_moves().to_vec();
    moves.sort_unstable();
    // The incremental hash is the hash from scratch.
    let setup = b.to_setup();
    let pieces = Square::all().filter_map(|sq| setup.piece_at(sq).map(|p| (sq, p)));
    assert_eq!(
        b.hash(),
        zobrist::compute(pieces, setup.turn, setup.castling, setup.ep_square),
        "{}: hash of {}",
        B::NAME,
        b.fen()
    );
    // Both FEN forms read back (in Chess960 mode) to the same position.
    for fen in [b.fen(), b.shredder_fen()] {
        let back: B = board(&fen);
        assert_eq!(back.to_setup(), setup, "{}: {fen}", B::NAME);
        assert_eq!(back.hash(), b.hash(), "{}: {fen}", B::NAME);
    }
    let mut captures = b.captures().to_vec();
    captures.extend(b.quiets());
    captures.sort_unstable();
    assert_eq!(
        captures,
        moves,
        "{}: captures + quiets in {}",
        B::NAME,
        b.fen()
    );
    assert_eq!(b.count_legal(), moves.len() as u64);
    (moves, b.fen(), b.shredder_fen(), b.hash(), b.checkers().0)
}

/// Every legal move's notation reads back as the move: UCI king takes rook
/// (always), UCI king's move (where no king move shares the text), SAN.
fn notation_round_trips<B: MoveGen>(b: &B) {
    let legal = b.legal_moves();
    for &mv in &legal {
        let text = to_uci(b, mv, CastlingMode::Chess960);
        assert_eq!(parse_uci(b, &text), Ok(mv), "UCI {text} in {}", b.fen());
        assert_eq!(text, uci_string(mv, b.castling(), CastlingMode::Chess960));
        let standard = to_uci(b, mv, CastlingMode::Standard);
        assert_eq!(standard, mv.to_string());
        let twin = legal
            .iter()
            .any(|m| *m != mv && m.from() == mv.from() && m.to() == mv.to() && !m.is_castle());
        if !twin {
            assert_eq!(
                parse_uci(b, &standard),
                Ok(mv),
                "UCI {standard} in {}",
                b.fen()
            );
        }
        let san = to_san(b, mv).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parse_san(b, &san), Ok(mv), "SAN {san} in {}", b.fen());
        if let Some(side) = mv.castling_side() {
            let written = match side {
                CastlingSide::King => "O-O",
                CastlingSide::Queen => "O-O-O",
            };
            assert_eq!(san.trim_end_matches(['+', '#']), written, "in {}", b.fen());
        }
    }
}

/// The rights after `mv` are those before, less every right whose king or
/// rook square the move left or arrived on.
fn check_rights<B: Board>(before: &B, mv: Move, after: &B) {
    let rights = before.castling();
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            let touched = [rights.king_square(color), rights.rook_square(color, side)]
                .into_iter()
                .flatten()
                .any(|sq| sq == mv.from() || sq == mv.to());
            // A castling also moves its rook off its square.
            let rook_moved = mv.castling_side().is_some()
                && before.turn() == color
                && rights.king_square(color) == Some(mv.from());
            let want = rights.has(color, side) && !touched && !rook_moved;
            assert_eq!(
                after.castling().has(color, side),
                want,
                "{color:?} {side:?} after {mv:?} in {}",
                before.fen()
            );
            if want {
                assert_eq!(
                    after.castling().rook_square(color, side),
                    rights.rook_square(color, side)
                );
            }
        }
    }
}

/// A random game from `setup`, all three backends in step, `plies` long.
fn random_game(setup: &Setup, seed: u64, plies: usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut bb = Game::new(Bitboards::from_setup(setup).expect("valid setup"));
    let mut x88 = Game::new(Board0x88::from_setup(setup).expect("valid setup"));
    let mut mb = Game::new(Mailbox::from_setup(setup).expect("valid setup"));
    for ply in 0..plies {
        let want = observe(bb.board());
        assert_eq!(
            observe(x88.board()),
            want,
            "0x88 at ply {ply} of seed {seed}"
        );
        assert_eq!(
            observe(mb.board()),
            want,
            "mailbox at ply {ply} of seed {seed}"
        );
        notation_round_trips(bb.board());
        if bb.outcome().is_some() {
            return;
        }
        // Castle whenever possible, to reach the rules often.
        let moves = &want.0;
        let castles: Vec<Move> = moves.iter().copied().filter(|m| m.is_castle()).collect();
        let mv = if !castles.is_empty() && rng.next_u64() % 2 == 0 {
            castles[(rng.next_u64() % castles.len() as u64) as usize]
        } else {
            moves[(rng.next_u64() % moves.len() as u64) as usize]
        };
        let before = bb.board().clone();
        for game in [&mut bb as &mut dyn PlayDyn, &mut x88, &mut mb] {
            game.play_dyn(mv);
        }
        check_rights(&before, mv, bb.board());
    }
}

/// Plays a move on any backend's game (to loop over the three).
trait PlayDyn {
    fn play_dyn(&mut self, mv: Move);
}

impl<B: MoveGen> PlayDyn for Game<B> {
    fn play_dyn(&mut self, mv: Move) {
        self.play(mv).unwrap_or_else(|e| panic!("{e}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn backends_agree_on_chess960_games(n in 0u32..960, seed in any::<u64>(), plies in 1usize..120) {
        random_game(&Setup::chess960(n).unwrap(), seed, plies);
    }

    #[test]
    fn backends_agree_on_double_fischer_random_games(
        white in 0u32..960, black in 0u32..960, seed in any::<u64>(), plies in 1usize..120
    ) {
        random_game(&Setup::double_chess960(white, black).unwrap(), seed, plies);
    }

    #[test]
    fn backends_agree_from_published_positions(line in 0usize..960, seed in any::<u64>()) {
        let cases = parse_epd(PUBLISHED);
        let setup = Setup::from_fen_with(&cases[line].0, C960).unwrap();
        random_game(&setup, seed, 40);
    }
}

#[test]
fn corner_cases_agree_in_games() {
    for (i, (fen, _)) in parse_epd(CORNERS).into_iter().enumerate() {
        let setup = Setup::from_fen_with(&fen, C960).unwrap();
        for seed in 0..4 {
            random_game(&setup, seed * 31 + i as u64, 30);
        }
    }
}

/// (FEN, castling as king takes rook, as the king's move, FEN after it).
const CASTLING_EXAMPLES: &[(&str, &str, &str, &str)] = &[
    // King g1 stays put; the rook jumps h1-f1.
    (
        "1rk5/8/8/8/8/8/8/6KR w Hb - 0 1",
        "g1h1",
        "g1g1",
        "1rk5/8/8/8/8/8/8/5RK1 b q - 1 1",
    ),
    // King f1 and rook g1 swap.
    (
        "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
        "f1g1",
        "f1g1",
        "4k3/8/8/8/8/8/8/5RK1 b - - 1 1",
    ),
    // King b1 castles long one square to the right.
    (
        "4k3/8/8/8/8/8/8/RK5R w HA - 0 1",
        "b1a1",
        "b1c1",
        "4k3/8/8/8/8/8/8/2KR3R b - - 1 1",
    ),
    // Black: the rook crosses over the king (c8 stays, b8-d8).
    (
        "1rk5/8/8/8/8/8/8/6KR b Hb - 0 1",
        "c8b8",
        "c8c8",
        "2kr4/8/8/8/8/8/8/6KR w K - 1 2",
    ),
    // Short castling across the board: king b1 to g1, rook c1 to f1.
    (
        "1k6/8/8/8/8/8/8/RKR5 w CA - 0 1",
        "b1c1",
        "b1g1",
        "1k6/8/8/8/8/8/8/R4RK1 b - - 1 1",
    ),
];

fn castling_examples<B: MoveGen>() {
    for &(fen, ktr, king_move, after) in CASTLING_EXAMPLES {
        let b: B = board(fen);
        let mv = parse_uci(&b, ktr).unwrap_or_else(|e| panic!("{e}"));
        assert!(mv.is_castle(), "{} {ktr} in {fen}", B::NAME);
        assert_eq!(to_uci(&b, mv, CastlingMode::Chess960), ktr);
        assert_eq!(to_uci(&b, mv, CastlingMode::Standard), king_move);
        let mut next = b.clone();
        next.play_unchecked(mv);
        assert_eq!(next.fen(), after, "{} {ktr} in {fen}", B::NAME);
        // The perft table counts it as a castle, the rook as a moved piece.
        let stats = perft_stats(&b, 1);
        assert!(stats.castles >= 1);
    }
}

#[test]
fn castling_moves_the_right_pieces() {
    castling_examples::<Bitboards>();
    castling_examples::<Board0x88>();
    castling_examples::<Mailbox>();
}

#[test]
fn uci_forms_and_ambiguity() {
    // King b1 with rook a1, c1 empty: b1c1 is both an ordinary king move and
    // (as the king's move) O-O-O. The text means the king move; castling
    // is b1a1.
    let b: Bitboards = board("4k3/8/8/8/8/8/8/RK5R w HA - 0 1");
    let step = parse_uci(&b, "b1c1").unwrap();
    assert!(!step.is_castle());
    let castle = parse_uci(&b, "b1a1").unwrap();
    assert_eq!(castle.castling_side(), Some(CastlingSide::Queen));
    assert_eq!(to_uci(&b, castle, CastlingMode::Chess960), "b1a1");
    assert_eq!(
        parse_uci(&b, "b1h1").unwrap().castling_side(),
        Some(CastlingSide::King)
    );
    // No king move to g1, so the king's-move text of O-O is unambiguous.
    assert_eq!(
        parse_uci(&b, "b1g1").unwrap().castling_side(),
        Some(CastlingSide::King)
    );
    // Standard chess keeps e1g1 and still reads e1h1.
    let s = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let oo = parse_uci(&s, "e1h1").unwrap();
    assert_eq!(parse_uci(&s, "e1g1"), Ok(oo));
    assert_eq!(to_uci(&s, oo, CastlingMode::Standard), "e1g1");
    assert_eq!(to_uci(&s, oo, CastlingMode::Chess960), "e1h1");
    // A rook that cannot castle is not a castling target.
    assert!(parse_uci(&b, "b1b2").is_ok());
    assert!(matches!(
        parse_uci(&s, "e1a8"),
        Err(UciMoveError::Illegal { .. })
    ));
    // A principal variation is written from the root's rights.
    let game_rights = b.castling();
    assert_eq!(
        uci_string(castle, game_rights, CastlingMode::Chess960),
        "b1a1"
    );
    assert_eq!(
        uci_string(step, game_rights, CastlingMode::Chess960),
        "b1c1"
    );
}

#[test]
fn san_castling() {
    // King g1 with the rook on h1: O-O is a castling that leaves the king
    // where it is, and Kf1/Kh2-style moves stay king moves.
    let b: Bitboards = board("1rk5/8/8/8/8/8/8/6KR w Hb - 0 1");
    let oo = parse_san(&b, "O-O").unwrap();
    assert_eq!(to_uci(&b, oo, CastlingMode::Chess960), "g1h1");
    assert_eq!(to_san(&b, oo).as_deref(), Ok("O-O"));
    assert_eq!(parse_san(&b, "0-0"), Ok(oo));
    assert!(parse_san(&b, "O-O-O").is_err());
    // King b1: Kc1 is the king's step, O-O-O the castling to the same square.
    let b: Bitboards = board("4k3/8/8/8/8/8/8/RK5R w HA - 0 1");
    let step = parse_san(&b, "Kc1").unwrap();
    let long = parse_san(&b, "O-O-O").unwrap();
    assert!(!step.is_castle() && long.is_castle());
    assert_eq!((step.from(), step.to()), (long.from(), long.to()));
    assert_eq!(to_san(&b, step).as_deref(), Ok("Kc1"));
    assert_eq!(to_san(&b, long).as_deref(), Ok("O-O-O"));
    assert_eq!(
        to_san(&b, parse_san(&b, "O-O").unwrap()).as_deref(),
        Ok("O-O")
    );
    // Black castles with check: the rook lands on d8 facing the king on d1.
    let b: Bitboards = board("1rk5/8/8/8/8/8/8/3K4 b b - 0 1");
    assert_eq!(
        to_san(&b, parse_san(&b, "O-O-O").unwrap()).as_deref(),
        Ok("O-O-O+")
    );
    // Divide writes moves the same way the UCI option asks for.
    let total: u64 = divide(&b, 1).iter().map(|&(_, n)| n).sum();
    assert_eq!(total, perft(&b, 1));
}
