//! Chess960 in the board crate: the start positions by number, X-FEN and
//! Shredder-FEN in and out, validation of castling rights on any files, and
//! every backend building the same position (same FEN, same hash) from them.

use fianchetto_board::{
    chess960_back_rank, chess960_number, validate, Bitboards, Board, Board0x88, CastlingMode,
    CastlingRights, CastlingSide, Color, FenError, File, Mailbox, Piece, PositionError, Role,
    Setup, Square, START_FEN,
};

const C960: CastlingMode = CastlingMode::Chess960;

fn setup960(fen: &str) -> Setup {
    Setup::from_fen_with(fen, C960).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn file(c: char) -> File {
    File::from_char(c).unwrap()
}

/// The back rank as FEN letters (white, so upper case).
fn letters(n: u32) -> String {
    chess960_back_rank(n)
        .unwrap()
        .iter()
        .map(|r| r.upper_char())
        .collect()
}

#[test]
fn numbering_matches_scharnagl() {
    // Position 518 is standard chess; the first, second and last of the
    // table as published.
    assert_eq!(letters(518), "RNBQKBNR");
    assert_eq!(letters(0), "BBQNNRKR");
    assert_eq!(letters(1), "BQNBNRKR");
    assert_eq!(letters(2), "BQNNRBKR");
    assert_eq!(letters(3), "BQNNRKRB");
    assert_eq!(letters(4), "QBBNNRKR");
    assert_eq!(letters(959), "RKRNNQBB");
    assert_eq!(chess960_back_rank(960), None);
    assert_eq!(chess960_back_rank(u32::MAX), None);
    assert_eq!(Setup::chess960(518).unwrap().to_fen(), START_FEN);
    assert_eq!(Setup::chess960(518).unwrap(), Setup::start());
    assert_eq!(
        Setup::chess960(0).unwrap().to_fen(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    assert!(Setup::chess960(960).is_none());
    assert!(Setup::double_chess960(0, 960).is_none());
}

#[test]
fn the_960_arrangements_are_distinct_and_legal() {
    let mut seen = std::collections::HashSet::new();
    for n in 0..960 {
        let rank = chess960_back_rank(n).unwrap();
        assert!(seen.insert(rank), "{n} repeats an arrangement");
        assert_eq!(chess960_number(rank), Some(n));
        let files = |role: Role| (0..8).filter(move |&i| rank[i] == role);
        let bishops: Vec<usize> = files(Role::Bishop).collect();
        assert_eq!(bishops.len(), 2);
        assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
        let rooks: Vec<usize> = files(Role::Rook).collect();
        let king: Vec<usize> = files(Role::King).collect();
        assert_eq!((rooks.len(), king.len()), (2, 1));
        assert!(
            rooks[0] < king[0] && king[0] < rooks[1],
            "{n}: king not between rooks"
        );
        assert_eq!(files(Role::Queen).count(), 1);
        assert_eq!(files(Role::Knight).count(), 2);
    }
    assert_eq!(seen.len(), 960);
    assert_eq!(chess960_number([Role::King; 8]), None);
}

/// Every backend builds `setup` alike: same FEN (both forms), same hash.
fn all_backends_agree(setup: &Setup) {
    let bb = Bitboards::from_setup(setup).unwrap_or_else(|e| panic!("{setup:?}: {e}"));
    let x88 = Board0x88::from_setup(setup).unwrap();
    let mb = Mailbox::from_setup(setup).unwrap();
    for (fen, hash, shredder) in [
        (x88.fen(), x88.hash(), x88.shredder_fen()),
        (mb.fen(), mb.hash(), mb.shredder_fen()),
    ] {
        assert_eq!(
            (&fen, hash, &shredder),
            (&bb.fen(), bb.hash(), &bb.shredder_fen())
        );
    }
    assert_eq!(bb.to_setup(), validate(setup).unwrap());
}

#[test]
fn start_positions_round_trip_and_build() {
    for n in 0..960 {
        let setup = Setup::chess960(n).unwrap();
        assert_eq!(validate(&setup).as_ref(), Ok(&setup), "{n}");
        let xfen = setup.to_fen();
        // Two rooks, so both are the outermost: X-FEN says KQkq.
        assert!(xfen.contains(" w KQkq - 0 1"), "{n}: {xfen}");
        assert_eq!(
            Setup::from_fen_with(&xfen, C960).as_ref(),
            Ok(&setup),
            "{xfen}"
        );
        let shredder = setup.to_shredder_fen();
        assert_eq!(
            Setup::from_fen_with(&shredder, C960).as_ref(),
            Ok(&setup),
            "{shredder}"
        );
        all_backends_agree(&setup);
    }
    // Double Fischer Random: a sample of independent pairs.
    for (w, b) in [(0, 959), (518, 0), (959, 518), (100, 700), (333, 666)] {
        let setup = Setup::double_chess960(w, b).unwrap();
        let rank = |r: usize| -> Vec<Role> {
            (0..8)
                .map(|f| setup.board[r * 8 + f].unwrap().role)
                .collect()
        };
        assert_eq!(rank(0), chess960_back_rank(w).unwrap().to_vec());
        assert_eq!(rank(7), chess960_back_rank(b).unwrap().to_vec());
        assert_eq!(
            Setup::from_fen_with(&setup.to_shredder_fen(), C960).as_ref(),
            Ok(&setup)
        );
        assert_eq!(
            Setup::from_fen_with(&setup.to_fen(), C960).as_ref(),
            Ok(&setup)
        );
        all_backends_agree(&setup);
    }
}

#[test]
fn standard_positions_read_the_same_in_both_modes() {
    for fen in [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 9",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        let standard = Setup::from_fen(fen).unwrap();
        assert_eq!(
            Setup::from_fen_with(fen, C960),
            Ok(standard.clone()),
            "{fen}"
        );
        assert!(standard.castling.is_standard());
        assert_eq!(standard.to_fen(), fen);
    }
    // Shredder-FEN of standard chess: the same setup.
    let shredder = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1";
    assert_eq!(
        setup960(shredder),
        Setup::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap()
    );
    assert_eq!(setup960(shredder).to_shredder_fen(), shredder);
}

/// (FEN read in Chess960 mode, X-FEN written, Shredder-FEN written).
const FORMS: &[(&str, &str, &str)] = &[
    // Position 0 in both notations.
    (
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    ),
    // Rooks on a1 and b1, king on e1: the right is the inner rook's, so
    // X-FEN must name its file (Q would mean the a1 rook).
    (
        "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1",
        "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1",
        "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1",
    ),
    (
        "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1",
        "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1",
        "4k3/8/8/8/8/8/8/RR2K3 w A - 0 1",
    ),
    // Letters in any order; a file letter of the outermost rook becomes K/Q.
    (
        "rk5r/8/8/8/8/8/8/RK5R w ahAH - 0 1",
        "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
    ),
    // Mixed X-FEN: black's inner rook on g8 with another on h8.
    (
        "1r3krr/8/8/8/8/8/8/1R3KR1 w KQgq - 0 1",
        "1r3krr/8/8/8/8/8/8/1R3KR1 w KQgq - 0 1",
        "1r3krr/8/8/8/8/8/8/1R3KR1 w GBgb - 0 1",
    ),
];

#[test]
fn xfen_and_shredder_fen_in_and_out() {
    for &(input, xfen, shredder) in FORMS {
        let setup = setup960(input);
        assert_eq!(setup.to_fen(), xfen, "{input}");
        assert_eq!(setup.to_shredder_fen(), shredder, "{input}");
        assert_eq!(setup960(xfen), setup, "{xfen}");
        assert_eq!(setup960(shredder), setup, "{shredder}");
        all_backends_agree(&setup);
        let b = Bitboards::from_fen_with(input, C960).unwrap();
        assert_eq!(b.fen(), xfen);
        assert_eq!(b.shredder_fen(), shredder);
    }
    let s = setup960("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
    let white = s.castling;
    assert_eq!(white.king_square(Color::White), Some(Square::B1));
    assert_eq!(
        white.rook_square(Color::White, CastlingSide::Queen),
        Some(Square::A1)
    );
    assert_eq!(
        white.rook_square(Color::Black, CastlingSide::King),
        Some(Square::H8)
    );
    // The colour-flipped setup keeps the files.
    let flipped = s.color_flipped();
    assert_eq!(
        flipped.to_shredder_fen(),
        "rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1"
    );
}

#[test]
fn syntax_errors_in_both_modes() {
    let castling = |f: &str| FenError::Castling(f.to_string());
    // Standard chess takes only KQkq, as always.
    for (fen, field) in [
        ("4k3/8/8/8/8/8/8/R3K2R w HA - 0 1", "HA"),
        ("4k3/8/8/8/8/8/8/4K3 w A - 0 1", "A"),
        ("4k3/8/8/8/8/8/8/4K3 w KK - 0 1", "KK"),
    ] {
        assert_eq!(Setup::from_fen(fen), Err(castling(field)), "{fen}");
    }
    // Chess960: the king's own file, a letter twice (or a file and the
    // letter meaning the same rook), two rights on one side, non-letters.
    for (fen, field) in [
        ("4k3/8/8/8/8/8/8/R3K2R w E - 0 1", "E"),
        ("4k3/8/8/8/8/8/8/R3K2R w HH - 0 1", "HH"),
        ("4k3/8/8/8/8/8/8/R3K2R w HK - 0 1", "HK"),
        ("4k3/8/8/8/8/8/8/RR2K3 w AB - 0 1", "AB"),
        ("4k3/8/8/8/8/8/8/R3K2R w K1 - 0 1", "K1"),
        ("4k3/8/8/8/8/8/8/R3K2R w Kx - 0 1", "Kx"),
        ("4k3/8/8/8/8/8/8/R3K2R w K- - 0 1", "K-"),
    ] {
        let err = Setup::from_fen_with(fen, C960).unwrap_err();
        assert_eq!(err, castling(field), "{fen}");
        assert!(err.to_string().contains("Chess960"), "{err}");
    }
}

#[test]
fn validation_errors_name_the_squares() {
    let position = |fen: &str| validate(&setup960(fen)).unwrap_err();
    let right = |color, side, king, rook| PositionError::CastlingRight {
        color,
        side,
        king,
        rook,
    };
    let cases: &[(&str, PositionError, &str)] = &[
        // A Shredder file with no rook on it.
        (
            "4k3/8/8/8/8/8/8/1K5R w G - 0 1",
            right(Color::White, CastlingSide::King, Square::B1, Square::G1),
            "rook not on g1",
        ),
        // K with no rook on the king's side: the standard file is reported.
        (
            "4k3/8/8/8/8/8/8/R5K1 w K - 0 1",
            right(Color::White, CastlingSide::King, Square::G1, Square::H1),
            "rook not on h1",
        ),
        // No king on the back rank: the e-file is reported.
        (
            "4k3/8/8/8/8/8/4K3/R6R w Q - 0 1",
            right(Color::White, CastlingSide::Queen, Square::E1, Square::A1),
            "king is not on e1",
        ),
        // A black right with a white rook on its file.
        (
            "1R2k3/8/8/8/8/8/8/4K3 w b - 0 1",
            right(Color::Black, CastlingSide::Queen, Square::E8, Square::B8),
            "black may castle Queen-side",
        ),
    ];
    for (fen, want, phrase) in cases {
        let got = position(fen);
        assert_eq!(&got, want, "{fen}");
        assert!(got.to_string().contains(phrase), "{got}");
    }
    // A rook on the wrong side can only be built by hand.
    let mut setup = setup960("4k3/8/8/8/8/8/8/RK6 w - - 0 1");
    setup.castling =
        CastlingRights::NONE.with_files(Color::White, CastlingSide::King, file('b'), file('a'));
    let err = validate(&setup).unwrap_err();
    assert_eq!(
        err,
        PositionError::CastlingRookSide {
            color: Color::White,
            side: CastlingSide::King,
            king: Square::B1,
            rook: Square::A1,
        }
    );
    assert!(
        err.to_string()
            .contains("not on the King side of the king on b1"),
        "{err}"
    );
    // Standard mode keeps its strictness: KQkq means e1 and the corners.
    assert!(matches!(
        Bitboards::from_fen("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1"),
        Err(FenError::Position(PositionError::CastlingRight { .. }))
    ));
}

#[test]
fn boards_keep_960_rights_and_pieces() {
    let setup = Setup::double_chess960(0, 959).unwrap();
    let b = Mailbox::from_setup(&setup).unwrap();
    assert_eq!(b.castling(), setup.castling);
    assert_eq!(
        b.castling().rook_square(Color::Black, CastlingSide::Queen),
        Some(Square::A8)
    );
    assert_eq!(
        b.piece_at(Square::G1),
        Some(Piece::new(Color::White, Role::King))
    );
    assert_eq!(b.king(Color::Black), Square::B8);
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    /// A back rank (lower case): king, two rooks, knight, bishop, queen and
    /// two empty squares in any order, so that rooks may stand both on one
    /// side of the king.
    fn back_rank() -> impl Strategy<Value = String> {
        Just(vec!['k', 'r', 'r', 'n', 'b', 'q', '1', '1'])
            .prop_shuffle()
            .prop_map(|squares| squares.into_iter().collect())
    }

    /// The castling field for `rank` (a back rank, lower case) of one
    /// colour: each rook picked by a bit of `pick`, written as its file or
    /// (by another bit) as `k`/`q` for its side.
    fn rights_for(rank: &str, pick: u16, upper: bool) -> String {
        let king = rank.find('k').unwrap_or(4);
        let mut out = String::new();
        for (file, _) in rank.char_indices().filter(|&(_, c)| c == 'r') {
            if pick >> file & 1 == 0 {
                continue;
            }
            let letter = if pick >> (8 + file) & 1 == 0 {
                (b'a' + file as u8) as char
            } else if file > king {
                'k'
            } else {
                'q'
            };
            out.push(if upper {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
        out
    }

    /// Both back ranks behind full pawn ranks (so no side is in check), with
    /// castling rights for some of their rooks (in X-FEN or Shredder-FEN
    /// letters, possibly two on one side, which is an error), or one time
    /// in four any letters at all.
    fn castling_fen() -> impl Strategy<Value = String> {
        (
            back_rank(),
            back_rank(),
            any::<(u16, u16)>(),
            "[KQkqA-Ha-h]{0,5}|-",
            0..4,
            any::<bool>(),
        )
            .prop_map(|(black, white, (wp, bp), random, mode, black_to_move)| {
                let side = if black_to_move { 'b' } else { 'w' };
                let mut castling = rights_for(&white, wp, true) + &rights_for(&black, bp, false);
                if mode == 0 {
                    castling = random;
                } else if castling.is_empty() {
                    castling.push('-');
                }
                let white = white.to_ascii_uppercase();
                format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} {side} {castling} - 0 1")
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        #[test]
        fn any_text_in_chess960_mode(text in any::<String>()) {
            let _ = Setup::from_fen_with(&text, C960);
            let _ = Mailbox::from_fen_with(&text, C960);
        }

        /// Whatever the letters, reading never panics; what validates
        /// round-trips through both FEN forms, and every backend agrees.
        #[test]
        fn any_castling_field(fen in castling_fen()) {
            if let Ok(setup) = Setup::from_fen_with(&fen, C960) {
                if let Ok(valid) = validate(&setup) {
                    prop_assert_eq!(Setup::from_fen_with(&valid.to_fen(), C960), Ok(valid.clone()));
                    prop_assert_eq!(
                        Setup::from_fen_with(&valid.to_shredder_fen(), C960),
                        Ok(valid.clone())
                    );
                    all_backends_agree(&valid);
                }
            }
        }
    }
}
