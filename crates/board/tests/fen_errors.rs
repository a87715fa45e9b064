//! FEN input: every malformed or impossible FEN gets its own precise error
//! (and a message naming the problem), no input string panics, and every
//! valid position round-trips through FEN.
//!
//! The backend-level checks are generic over `B: Board`; a new backend is one
//! line in the `backends!` invocation at the bottom.

use fianchetto_board::{
    Bitboards, Board, CastlingRights, CastlingSide, Color, FenError, Piece, PositionError, Role,
    Setup, Square, MAX_FULLMOVE_NUMBER,
};
use proptest::prelude::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A table row: input, the exact error (a function, as errors holding a
/// `String` cannot be constants), and a phrase the message must contain.
type Case<E> = (&'static str, fn() -> E, &'static str);

/// A FEN that does not parse, the syntax error it must give, and a phrase
/// its message must contain (so that the user is told what to fix).
const SYNTAX: &[Case<FenError>] = &[
    ("", || FenError::FieldCount(0), "0 fields"),
    ("   \t\n ", || FenError::FieldCount(0), "0 fields"),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
        || FenError::FieldCount(3),
        "3 fields",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        || FenError::FieldCount(7),
        "expected 4 to 6",
    ),
    // A non-breaking space is not a field separator: it joins the placement
    // and the side, and is then reported as the stray character it is.
    (
        "4k3/8/8/8/8/8/8/4K3\u{a0}w - - 0 1",
        || FenError::PlacementChar('\u{a0}'),
        "'\u{a0}'",
    ),
    (
        "4k3/8/8/8/8/8/4K3 w - - 0 1",
        || FenError::RankCount(7),
        "7 ranks",
    ),
    (
        "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1",
        || FenError::RankCount(9),
        "9 ranks",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3/ w - - 0 1",
        || FenError::RankCount(9),
        "expected 8",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        || FenError::RankLength {
            rank: 1,
            squares: 7,
        },
        "rank 1 describes 7 squares",
    ),
    (
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        || FenError::RankLength {
            rank: 7,
            squares: 9,
        },
        "rank 7 describes 9",
    ),
    (
        "4k3/8/8/8/8/8/8/4K4 w - - 0 1",
        || FenError::RankLength {
            rank: 1,
            squares: 9,
        },
        "9 squares",
    ),
    (
        "4k3/8/8//8/8/8/4K3 w - - 0 1",
        || FenError::RankLength {
            rank: 5,
            squares: 0,
        },
        "rank 5 describes 0",
    ),
    (
        "4k3/8/8/8/8/8/8/0 w - - 0 1",
        || FenError::PlacementChar('0'),
        "'0'",
    ),
    (
        "4k3/8/8/8/8/8/8/9 w - - 0 1",
        || FenError::PlacementChar('9'),
        "'9'",
    ),
    (
        "4k3/8/8/8/8/8/8/4K2x w - - 0 1",
        || FenError::PlacementChar('x'),
        "piece letter",
    ),
    (
        "4k3/8/8/8/8/8/8/4K2\u{e9} w - - 0 1",
        || FenError::PlacementChar('\u{e9}'),
        "'\u{e9}'",
    ),
    (
        "4k3/8/8/8/8/8/8/4\u{2654}3 w - - 0 1",
        || FenError::PlacementChar('\u{2654}'),
        "PNBRQK",
    ),
    (
        "\u{1f600}/8/8/8/8/8/8/8 w - - 0 1",
        || FenError::PlacementChar('\u{1f600}'),
        "digit 1-8",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 W - - 0 1",
        || FenError::Turn("W".into()),
        "`W`",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 white - - 0 1",
        || FenError::Turn("white".into()),
        "side to move",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w KK - 0 1",
        || FenError::Castling("KK".into()),
        "at most once",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w K- - 0 1",
        || FenError::Castling("K-".into()),
        "castling field",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w A - 0 1",
        || FenError::Castling("A".into()),
        "KQkq",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
        || FenError::EnPassant("e4".into()),
        "rank 3 or 6",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
        || FenError::EnPassant("e9".into()),
        "en-passant field",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - e33 0 1",
        || FenError::EnPassant("e33".into()),
        "`e33`",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - E6 0 1",
        || FenError::EnPassant("E6".into()),
        "`E6`",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
        || FenError::Halfmove("-1".into()),
        "halfmove clock",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 1.5 1",
        || FenError::Halfmove("1.5".into()),
        "`1.5`",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 99999999999 1",
        || FenError::Halfmove("99999999999".into()),
        "whole number",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 0 x",
        || FenError::Fullmove("x".into()),
        "fullmove number",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 0 -3",
        || FenError::Fullmove("-3".into()),
        "`-3`",
    ),
];

/// A FEN that parses but describes an impossible position, the error it
/// must give, and a phrase its message must contain.
const IMPOSSIBLE: &[Case<PositionError>] = &[
    (
        "8/8/8/8/8/8/8/8 w - - 0 1",
        || PositionError::NoKing(Color::White),
        "white has no king",
    ),
    (
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        || PositionError::NoKing(Color::White),
        "white has no king",
    ),
    (
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        || PositionError::NoKing(Color::Black),
        "black has no king",
    ),
    (
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        || PositionError::TooManyKings(Color::White, 2),
        "white has 2 kings",
    ),
    (
        "k1k1k3/8/8/8/8/8/8/4K3 w - - 0 1",
        || PositionError::TooManyKings(Color::Black, 3),
        "exactly one",
    ),
    (
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        || PositionError::PawnOnBackRank(Square::A1),
        "pawn stands on a1",
    ),
    (
        "4k2p/8/8/8/8/8/8/4K3 b - - 0 1",
        || PositionError::PawnOnBackRank(Square::H8),
        "first or eighth rank",
    ),
    (
        "4k3/8/8/8/8/P7/PPPPPPPP/RNBQKBNR w - - 0 1",
        || PositionError::TooManyPieces {
            color: Color::White,
            count: 17,
        },
        "white has 17 pieces",
    ),
    (
        "rnbqkbnr/pppppppp/7p/8/8/8/8/4K3 w - - 0 1",
        || PositionError::TooManyPieces {
            color: Color::Black,
            count: 17,
        },
        "at most 16",
    ),
    (
        "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
        || PositionError::TooManyPawns {
            color: Color::White,
            count: 9,
        },
        "white has 9 pawns",
    ),
    (
        "4k3/8/8/8/8/8/PPPPPPP1/QQQ1K3 w - - 0 1",
        || PositionError::TooManyPromoted {
            color: Color::White,
            promoted: 2,
            missing_pawns: 1,
        },
        "2 pieces beyond the initial set but only 1 pawns missing",
    ),
    (
        "nnnnk3/pppppppp/8/8/8/8/8/4K3 w - - 0 1",
        || PositionError::TooManyPromoted {
            color: Color::Black,
            promoted: 2,
            missing_pawns: 0,
        },
        "promoted",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
        || PositionError::CastlingRight {
            color: Color::White,
            side: CastlingSide::King,
            king: Square::E1,
            rook: Square::H1,
        },
        "rook not on h1",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1",
        || PositionError::CastlingRight {
            color: Color::White,
            side: CastlingSide::King,
            king: Square::E1,
            rook: Square::H1,
        },
        "king is not on e1",
    ),
    (
        "1r2k2r/8/8/8/8/8/8/4K3 w q - 0 1",
        || PositionError::CastlingRight {
            color: Color::Black,
            side: CastlingSide::Queen,
            king: Square::E8,
            rook: Square::A8,
        },
        "black may castle Queen-side",
    ),
    // White to move: the en-passant square must be on rank 6.
    (
        "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
        || PositionError::EnPassant(Square::E3),
        "en-passant square e3 is impossible",
    ),
    // No black pawn in front of it.
    (
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        || PositionError::EnPassant(Square::E6),
        "e6",
    ),
    // The square the pawn came from is not empty.
    (
        "4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1",
        || PositionError::EnPassant(Square::E6),
        "the square behind empty",
    ),
    // The en-passant square itself is occupied.
    (
        "4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1",
        || PositionError::EnPassant(Square::E6),
        "must be empty",
    ),
    // A white pawn, not a black one, in front of it.
    (
        "4k3/8/8/4P3/8/8/8/4K3 w - e6 0 1",
        || PositionError::EnPassant(Square::E6),
        "impossible",
    ),
    (
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        || PositionError::OppositeCheck(Color::Black),
        "side not to move (black) is in check",
    ),
    (
        "8/8/8/3kK3/8/8/8/8 b - - 0 1",
        || PositionError::OppositeCheck(Color::White),
        "(white) is in check",
    ),
    (
        "k3r3/8/8/8/1b6/3n4/8/4K3 w - - 0 1",
        || PositionError::TooManyCheckers(3),
        "check from 3 pieces",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 65536 1",
        || PositionError::HalfmoveClock(65536),
        "halfmove clock 65536 is above 65535",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        || PositionError::FullmoveNumber(0),
        "fullmove number 0 is out of range",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 0 65536",
        || PositionError::FullmoveNumber(65_536),
        "expected 1 to 65535",
    ),
];

/// FENs at the edge of what is accepted, with the FEN a board writes back
/// (the en-passant square is dropped when no pawn can take, castling letters
/// are put in order, runs of digits merged, clocks default to 0 and 1).
const ACCEPTED: &[(&str, &str)] = &[
    (START, START),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 150 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 150 1",
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 0 65535",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 65535",
    ),
    ("4k3/8/8/8/8/8/8/4K3 b - -", "4k3/8/8/8/8/8/8/4K3 b - - 0 1"),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 7",
        "4k3/8/8/8/8/8/8/4K3 w - - 7 1",
    ),
    (
        "  4k3/8/8/8/8/8/8/4K3   w\t-  -  0  1 \n",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ),
    (
        "4k3/8/8/44/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ),
    // e3 kept: the black pawn on d4 can take.
    (
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
    ),
    // e3 dropped: no black pawn can take (as Polyglot and most engines do).
    (
        "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1",
    ),
    // Two checkers are possible (a discovered double check).
    (
        "4k3/8/8/8/8/3n4/8/r3K3 w - - 0 1",
        "4k3/8/8/8/8/3n4/8/r3K3 w - - 0 1",
    ),
    // Eight pawns and one queen: no promotion needed; 7 pawns and 2 queens.
    (
        "4k3/8/8/8/8/8/PPPPPPP1/QQ2K3 w - - 0 1",
        "4k3/8/8/8/8/8/PPPPPPP1/QQ2K3 w - - 0 1",
    ),
];

#[test]
fn syntax_errors_are_exact_and_named() {
    for &(fen, want, phrase) in SYNTAX {
        let err = Setup::from_fen(fen).expect_err(fen);
        assert_eq!(err, want(), "{fen:?}");
        let msg = err.to_string();
        assert!(
            msg.contains(phrase),
            "{fen:?}: message {msg:?} lacks {phrase:?}"
        );
    }
}

#[test]
fn impossible_positions_parse_but_do_not_validate() {
    for &(fen, want, phrase) in IMPOSSIBLE {
        // Syntax is fine: the Setup is built; only validation refuses it.
        let setup = Setup::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let err = fianchetto_board::validate(&setup).expect_err(fen);
        assert_eq!(err, want(), "{fen}");
        let msg = err.to_string();
        assert!(
            msg.contains(phrase),
            "{fen}: message {msg:?} lacks {phrase:?}"
        );
    }
}

#[test]
fn max_fullmove_number_is_the_documented_one() {
    // The table above spells 65 535 / 65 536 out: keep it honest.
    assert_eq!(MAX_FULLMOVE_NUMBER, 65_535);
}

fn every_error_from_the_board<B: Board>() {
    for &(fen, want, _) in SYNTAX {
        assert_eq!(
            B::from_fen(fen).expect_err(fen),
            want(),
            "{} {fen:?}",
            B::NAME
        );
    }
    for &(fen, want, phrase) in IMPOSSIBLE {
        let err = B::from_fen(fen).expect_err(fen);
        assert_eq!(err, FenError::Position(want()), "{} {fen}", B::NAME);
        // The wrapper says the position is impossible, then what is wrong.
        let msg = err.to_string();
        assert!(
            msg.starts_with("impossible position: ") && msg.contains(phrase),
            "{msg}"
        );
    }
}

fn edge_cases_are_accepted<B: Board>() {
    for &(fen, written) in ACCEPTED {
        let b = B::from_fen(fen).unwrap_or_else(|e| panic!("{} rejected {fen:?}: {e}", B::NAME));
        assert_eq!(b.fen(), written, "{} {fen:?}", B::NAME);
        // What the board writes it reads back identically.
        let again = B::from_fen(&b.fen()).unwrap();
        assert_eq!((again.fen(), again.hash()), (b.fen(), b.hash()));
    }
}

/// A FEN-shaped string from the characters FENs are made of, so that random
/// inputs get past the first checks and reach the deeper ones.
fn fen_like() -> impl Strategy<Value = String> {
    "[pnbrqkPNBRQK1-9/]{0,72}( [wbWB-]{0,2}( [KQkqA-]{0,5}( [a-h1-8-]{0,3}( [0-9+-]{0,4}( [0-9+-]{0,6})?)?)?)?)?"
}

/// A valid FEN with a few characters replaced, inserted or deleted.
fn mutated_fen() -> impl Strategy<Value = String> {
    let fens = prop::sample::select(vec![
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
    ]);
    let edits = prop::collection::vec((any::<prop::sample::Index>(), 0..3u8, any::<char>()), 1..4);
    (fens, edits).prop_map(|(fen, edits)| {
        let mut chars: Vec<char> = fen.chars().collect();
        for (at, op, c) in edits {
            let i = at.index(chars.len() + 1);
            match op {
                0 if i < chars.len() => chars[i] = c,
                1 => chars.insert(i, c),
                _ if i < chars.len() => {
                    chars.remove(i);
                }
                _ => {}
            }
        }
        chars.into_iter().collect()
    })
}

/// A random setup: two kings (often on their home squares), rooks often in
/// the corners, up to 16 more random pieces (pawns kept off the back ranks),
/// castling rights that mostly fit the placement, and sometimes a plausible
/// en-passant square. About half are valid positions; the rest exercise the
/// validator's rejections.
fn random_setup() -> impl Strategy<Value = Setup> {
    let king = |home: u8| prop_oneof![Just(home), 0..64u8];
    (
        (king(4), king(60), 0..16u8),
        prop::collection::vec((0..64u8, 0..10usize), 0..16),
        (any::<bool>(), 0..16u8, 0..8u8),
        prop::option::weighted(0.3, 0..8u8),
        (0..=150u32, 1..=MAX_FULLMOVE_NUMBER),
    )
        .prop_map(
            |((wk, bk, corners), pieces, (black, rights, raw), ep, (halfmove, fullmove))| {
                let mut setup = Setup::empty();
                for (i, corner) in [0usize, 7, 56, 63].into_iter().enumerate() {
                    if corners & (1 << i) != 0 {
                        setup.board[corner] = Piece::from_char(if corner < 8 { 'R' } else { 'r' });
                    }
                }
                for (sq, kind) in pieces {
                    // Kind 0..10: pawn, knight, bishop, rook, queen of each colour.
                    let piece = Piece::from_index(kind % 5 + 6 * (kind / 5)).unwrap();
                    let sq = match (piece.role, sq / 8) {
                        (Role::Pawn, 0) => sq + 8,
                        (Role::Pawn, 7) => sq - 8,
                        _ => sq,
                    };
                    setup.board[sq as usize] = Some(piece);
                }
                setup.turn = if black { Color::Black } else { Color::White };
                if let Some(file) = ep {
                    // A pawn of the side not to move that has just advanced two
                    // squares on `file`: the skipped and origin squares empty.
                    let (pawn, skipped, origin) = if black { (3, 2, 1) } else { (4, 5, 6) };
                    let at = |rank: u8| (rank * 8 + file) as usize;
                    setup.board[at(pawn)] = Piece::from_char(if black { 'P' } else { 'p' });
                    // A pawn beside it that can take, so that the square is kept.
                    let beside = if file < 7 { at(pawn) + 1 } else { at(pawn) - 1 };
                    setup.board[beside] = Piece::from_char(if black { 'p' } else { 'P' });
                    setup.board[at(skipped)] = None;
                    setup.board[at(origin)] = None;
                    setup.ep_square = Square::new(at(skipped) as u8);
                }
                // Kings last, so that nothing overwrites them.
                let bk = if bk == wk { (bk + 1) % 64 } else { bk };
                setup.board[wk as usize] = Piece::from_char('K');
                setup.board[bk as usize] = Piece::from_char('k');
                // Rights: the ones that fit the placement, or (one time in
                // eight) whatever `rights` says.
                let mut fitting = 0;
                for (bit, king, rook, r) in [
                    (1, 4, 7, 'R'),
                    (2, 4, 0, 'R'),
                    (4, 60, 63, 'r'),
                    (8, 60, 56, 'r'),
                ] {
                    let k = if king == 4 { 'K' } else { 'k' };
                    if setup.board[king] == Piece::from_char(k)
                        && setup.board[rook] == Piece::from_char(r)
                    {
                        fitting |= bit;
                    }
                }
                let bits = if raw == 0 { rights } else { rights & fitting };
                setup.castling = CastlingRights::from_bits(bits);
                setup.halfmove_clock = halfmove;
                setup.fullmove_number = fullmove;
                setup
            },
        )
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Any text at all: an error or a setup, never a panic.
    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = Setup::from_fen(&text);
        let _ = Bitboards::from_fen(&text);
    }

    #[test]
    fn fen_like_text_never_panics(text in fen_like()) {
        if let Ok(setup) = Setup::from_fen(&text) {
            let _ = fianchetto_board::validate(&setup);
        }
        let _ = Bitboards::from_fen(&text);
    }

    #[test]
    fn mutated_fens_never_panic(text in mutated_fen()) {
        let _ = Bitboards::from_fen(&text);
    }

    /// Any setup's FEN parses back to the same setup.
    #[test]
    fn setup_fen_round_trips(setup in random_setup()) {
        let fen = setup.to_fen();
        prop_assert_eq!(Setup::from_fen(&fen), Ok(setup));
    }
}

fn valid_positions_round_trip<B: Board>(setup: &Setup) {
    // Validation decides; when it accepts, the board must write a FEN that
    // it (and the validator) accept again, describing the same position.
    let checked = fianchetto_board::validate(setup);
    let built = B::from_setup(setup);
    assert_eq!(
        built.as_ref().err(),
        checked.as_ref().err(),
        "{} {setup:?}",
        B::NAME
    );
    let (Ok(b), Ok(normalised)) = (built, checked) else {
        return;
    };
    assert_eq!(b.to_setup(), normalised, "{} {setup:?}", B::NAME);
    let fen = b.fen();
    let again =
        B::from_fen(&fen).unwrap_or_else(|e| panic!("{} rejected its own FEN {fen}: {e}", B::NAME));
    assert_eq!(again.fen(), fen);
    assert_eq!(again.hash(), b.hash());
    assert_eq!(again.to_setup(), b.to_setup());
}

/// Instantiates the backend checks: one line per backend.
macro_rules! backends {
    ($($module:ident => $board:ty),* $(,)?) => {$(
        mod $module {
            use super::*;
            #[test] fn every_error_from_the_board() { super::every_error_from_the_board::<$board>() }
            #[test] fn edge_cases_are_accepted() { super::edge_cases_are_accepted::<$board>() }
            proptest! {
                #![proptest_config(config())]
                #[test]
                fn valid_positions_round_trip(setup in random_setup()) {
                    super::valid_positions_round_trip::<$board>(&setup);
                }
            }
        }
    )*};
}

backends! {
    bitboards => Bitboards,
}
