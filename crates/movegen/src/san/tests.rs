use super::*;
use fianchetto_board::Bitboards;

fn board(fen: &str) -> Bitboards {
    match Bitboards::from_fen(fen) {
        Ok(b) => b,
        Err(e) => panic!("bad test FEN {fen}: {e}"),
    }
}

/// The SAN written for the move `uci`.
fn san_of(fen: &str, uci: &str) -> String {
    let b = board(fen);
    let mv = crate::parse_uci(&b, uci).unwrap_or_else(|e| panic!("{e}"));
    to_san(&b, mv).unwrap_or_else(|e| panic!("{e}"))
}

const START: &str = fianchetto_board::START_FEN;
/// Three white knights on b1, f1 and b5 reach d2 / d4 / d6; two rooks
/// share the a-file; three queens reach e4 (to need both file and rank).
const KNIGHTS: &str = "4k3/8/8/1N6/8/8/8/1N2KN2 w - - 0 1";
const ROOKS: &str = "R7/8/8/8/8/8/7k/R3K3 w - - 0 1";
const QUEENS: &str = "7k/8/8/8/2Q1Q3/8/2Q5/6K1 w - - 0 1";
/// Queen-side castling that gives check with the rook.
const LONG_CHECK: &str = "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1";
const PROMO: &str = "1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1";
const EP: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
const CASTLE: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const SCHOLAR: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";

/// (position, move in UCI, SAN written).
const WRITE_CASES: &[(&str, &str, &str)] = &[
    (START, "e2e4", "e4"),
    (START, "g1f3", "Nf3"),
    // Knights on b1 and f1 both reach d2: the file tells them apart.
    (KNIGHTS, "b1d2", "Nbd2"),
    (KNIGHTS, "f1d2", "Nfd2"),
    // Knights on b1 and b5 share the b-file (both reach c3 and a3): the
    // rank tells them apart.
    (KNIGHTS, "b1c3", "N1c3"),
    (KNIGHTS, "b5c3", "N5c3"),
    (KNIGHTS, "b5d6", "Nd6+"),
    (ROOKS, "a1a4", "R1a4"),
    (ROOKS, "a8a4", "R8a4"),
    // Queens on c2, c4 and e4 all reach d3. c4 shares its file with c2
    // and its rank with e4, so it needs both; c2 shares only its file.
    (QUEENS, "c4d3", "Qc4d3"),
    (QUEENS, "c2d3", "Q2d3"),
    (QUEENS, "e4d3", "Qed3"),
    (PROMO, "c7c8q", "c8=Q+"),
    (PROMO, "c7b8q", "cxb8=Q+"),
    (PROMO, "c7b8n", "cxb8=N"),
    (PROMO, "c7c8r", "c8=R+"),
    (EP, "e5d6", "exd6"),
    (CASTLE, "e1g1", "O-O"),
    (CASTLE, "e1c1", "O-O-O"),
    (LONG_CHECK, "e1c1", "O-O-O+"),
    (CASTLE, "a1a8", "Rxa8+"),
    (SCHOLAR, "f3f7", "Qxf7#"),
    (SCHOLAR, "c4f7", "Bxf7+"),
];

#[test]
fn writes_san() {
    for &(fen, uci, san) in WRITE_CASES {
        assert_eq!(san_of(fen, uci), san, "{uci} in {fen}");
        // And it reads back as the same move.
        let b = board(fen);
        let mv = crate::parse_uci(&b, uci).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parse_san(&b, san), Ok(mv), "{san} in {fen}");
    }
}

#[test]
fn reads_variants() {
    // (position, text, the move it means in UCI)
    let cases: &[(&str, &str, &str)] = &[
        (START, "Ng1f3", "g1f3"),
        (START, "Ngf3", "g1f3"),
        (START, "N1f3", "g1f3"),
        (START, "Ng1-f3", "g1f3"),
        (START, "nf3", "g1f3"),
        (START, "Pe4", "e2e4"),
        (START, "e2e4", "e2e4"),
        (START, "e2-e4", "e2e4"),
        (START, " e4!? ", "e2e4"),
        (START, "e4+", "e2e4"),
        (PROMO, "c8Q", "c7c8q"),
        (PROMO, "c8=q", "c7c8q"),
        (PROMO, "c8q+", "c7c8q"),
        (PROMO, "cxb8=Q#?!", "c7b8q"),
        (PROMO, "cb8=N", "c7b8n"),
        (PROMO, "c7xb8b", "c7b8b"),
        (EP, "exd6 e.p.", "e5d6"),
        (EP, "exd6e.p.", "e5d6"),
        (EP, "ed6", "e5d6"),
        (EP, "xd6", "e5d6"),
        (CASTLE, "0-0", "e1g1"),
        (CASTLE, "0-0-0", "e1c1"),
        (CASTLE, "o-o", "e1g1"),
        (CASTLE, "O-O-O+", "e1c1"),
        (CASTLE, "Ra8", "a1a8"),
        (CASTLE, "R1:a8", "a1a8"),
        (SCHOLAR, "Qf7", "f3f7"),
        (SCHOLAR, "Qxf7", "f3f7"),
        (KNIGHTS, "Nb1d2", "b1d2"),
        (QUEENS, "Qc4d3", "c4d3"),
    ];
    for &(fen, text, uci) in cases {
        let b = board(fen);
        let got = parse_san(&b, text).map(|m| m.to_string());
        assert_eq!(got.as_deref(), Ok(uci), "{text} in {fen}");
    }
}

#[test]
fn errors() {
    let ambiguous: &[(&str, &str, &[&str])] = &[
        (KNIGHTS, "Nd2", &["Nbd2", "Nfd2"]),
        (KNIGHTS, "Nc3", &["N1c3", "N5c3"]),
        (ROOKS, "Ra4", &["R1a4", "R8a4"]),
        (QUEENS, "Qd3", &["Q2d3", "Qc4d3", "Qed3"]),
        (QUEENS, "Qcd3", &["Q2d3", "Qc4d3"]),
        (PROMO, "c8", &["c8=N", "c8=B", "c8=R+", "c8=Q+"]),
    ];
    for &(fen, text, want) in ambiguous {
        match parse_san(&board(fen), text) {
            Err(SanError::Ambiguous {
                candidates,
                fen: f,
                text: t,
            }) => {
                let mut got = candidates.clone();
                got.sort();
                let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
                want.sort();
                assert_eq!(got, want, "{text}");
                assert_eq!((f.as_str(), t.as_str()), (fen, text));
            }
            other => panic!("{text} in {fen}: {other:?}"),
        }
    }
    let illegal: &[(&str, &str)] = &[
        (START, "e5"),
        (START, "Nf4"),
        (START, "O-O"),
        (START, "Nxf3"),
        (START, "exd3"),
        (START, "Ke2"),
        (START, "Bb5"),
        (START, "e3=Q"),
        (CASTLE, "Kg1"),
        (CASTLE, "Ke1g1"),
        (EP, "d6"),
        (EP, "d6 e.p."),
        (EP, "exd5 e.p."),
    ];
    for &(fen, text) in illegal {
        let got = parse_san(&board(fen), text);
        assert!(
            matches!(got, Err(SanError::Illegal { .. })),
            "{text} in {fen}: {got:?}"
        );
    }
    let syntax = [
        "",
        "  ",
        "+",
        "!!",
        "e",
        "e9",
        "i4",
        "Nf",
        "Xe4",
        "Ke8=K",
        "Nf3=Q",
        "é4",
        "N g1f3",
        "exd5x",
        "O-O-O-O",
        "e4 e5",
        "Ng1ff3",
        "1. e4",
        "c8=Q=Q",
        "Nf3 e.p.",
        "O-O e.p.",
        "e8=Q e.p.",
    ];
    for text in syntax {
        let err = parse_san(&board(START), text);
        assert!(
            matches!(err, Err(SanError::Syntax { .. })),
            "{text:?}: {err:?}"
        );
    }
}

/// The fast path agrees with the slow one (every legal move, checked
/// against the full move list) on every text it answers, and answers
/// every unambiguous non-castling move: many ways of writing each legal
/// move of positions along pseudo-random games, plus texts naming no
/// move or several.
#[test]
fn fast_path_agrees_with_the_move_list() {
    let starts = [
        START,
        KNIGHTS,
        ROOKS,
        QUEENS,
        PROMO,
        EP,
        CASTLE,
        SCHOLAR,
        LONG_CHECK,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        // Pinned pieces: a knight on a file, a rook on it (free to move
        // along it), a knight and a pawn on diagonals, a queen on a rank.
        "4k3/4r3/8/8/8/8/4N3/2N1K3 w - - 0 1",
        "4k3/4r3/8/8/8/2N5/4R3/4K3 w - - 0 1",
        "4k3/8/8/b7/8/2P5/3N4/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/r2QK2N w - - 0 1",
        // Double check: taking either checker (Rxd3, Bxe7) or blocking
        // the rook (Be2, Re3) leaves the other; only the king may move.
        "4r1k1/8/8/8/8/R2n4/8/4K1B1 w - - 0 1",
        "6k1/4r3/8/8/8/B2n4/8/4K3 w - - 0 1",
        // Check by one piece: taking it, blocking it, or neither.
        "4r1k1/8/8/8/8/R7/8/3QK3 w - - 0 1",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let mut checked = 0;
    for fen in starts {
        let mut b = board(fen);
        for _ in 0..40 {
            let legal = b.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mut texts = Vec::new();
            for &mv in &legal {
                if mv.is_castle() {
                    continue;
                }
                let letter = match moving_role(&b, mv) {
                    Role::Pawn => String::new(),
                    r => r.upper_char().to_string(),
                };
                let (from, to) = (mv.from().to_string(), mv.to().to_string());
                let promo = mv
                    .promotion()
                    .map(|r| format!("={}", r.upper_char()))
                    .unwrap_or_default();
                let x = if mv.is_capture() { "x" } else { "" };
                texts.push(to_san(&b, mv).unwrap_or_else(|e| panic!("{e}")));
                for prefix in ["", &from[..1], &from[1..], &from] {
                    texts.push(format!("{letter}{prefix}{x}{to}{promo}"));
                    texts.push(format!("{letter}{prefix}{to}{promo}"));
                    texts.push(format!("{letter}{prefix}x{to}{promo}"));
                    texts.push(format!("{letter}{prefix}{to}"));
                }
                if mv.is_en_passant() {
                    texts.push(format!("{}x{to} e.p.", &from[..1]));
                }
            }
            // Every move of a piece to a square it attacks, legal or not
            // (a pinned piece leaving its line, a king moving into check):
            // the fast path must not take an illegal one.
            let us = b.turn();
            for from in b.by_color(us) {
                let Some(piece) = b.piece_at(from) else {
                    continue;
                };
                let letter = match piece.role {
                    Role::Pawn => String::new(),
                    r => r.upper_char().to_string(),
                };
                let targets = if piece.role == Role::Pawn {
                    pawn_attacks(us, from) | Bitboard::file(from.file())
                } else {
                    attacks(piece.role, us, from, b.occupied())
                };
                for to in targets {
                    texts.push(format!("{letter}{from}{to}"));
                    texts.push(format!("{letter}{from}x{to}"));
                }
            }
            for text in &texts {
                let Ok(san) = parse_syntax(text) else {
                    continue;
                };
                let slow = resolve_slow(&b, || text.to_string(), san);
                match resolve_fast(&b, san) {
                    Some(mv) => assert_eq!(slow, Ok(mv), "{text} in {}", b.fen()),
                    None => {
                        assert!(slow.is_err(), "{text} in {}: slow found {slow:?}", b.fen())
                    }
                }
                checked += 1;
            }
            b.play_unchecked(legal[random(legal.len())]);
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// Malformed text, the exact reason, and the reason's message: the
/// position-free parse and `parse_san` (which adds the FEN) agree.
#[test]
fn syntax_errors_are_exact() {
    use SanSyntaxError::*;
    let cases: &[(&str, SanSyntaxError, &str)] = &[
        ("", Empty, "it is empty"),
        (" \t ", Empty, "it is empty"),
        ("é4", NotAscii, "it contains a character that is not ASCII"),
        ("Nf3\u{a0}", NotAscii, "it contains a character that is not ASCII"),
        ("+", OnlyAnnotations, "it has only annotation marks"),
        ("!!", OnlyAnnotations, "it has only annotation marks"),
        ("e.p.", OnlyAnnotations, "it has only annotation marks"),
        ("O-O e.p.", CastlingEnPassant, "castling is not an en-passant capture (remove `e.p.`)"),
        ("Nf3=Q", PromotionNotPawn, "only a pawn can promote"),
        ("Ke8=K", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
        ("Nf3 e.p.", EnPassantNotPawn, "only a pawn capture can be en passant (remove `e.p.`)"),
        ("e8=Q e.p.", EnPassantNotPawn, "only a pawn capture can be en passant (remove `e.p.`)"),
        ("e", NoDestination, "it has no destination square"),
        ("N", NoDestination, "it has no destination square"),
        ("Nf", NoDestination, "it has no destination square"),
        ("e9", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
        ("i4", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
        ("exd5x", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
        ("O-O-O-O", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
        ("c8=Q=Q", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
        ("Xe4", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
        ("N g1f3", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
        ("e4 e5", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
        ("Ng1ff3", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
        ("1. e4", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
        ("Nxxf3", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
    ];
    for &(text, reason, message) in cases {
        let err = San::parse(text).unwrap_err();
        assert_eq!((err.text.as_str(), err.reason), (text, reason), "{text:?}");
        assert_eq!(
            err.to_string(),
            format!("`{text}` is not a SAN move ({message}; expected something like e4, Nf3, exd5, Rad1, e8=Q or O-O)"),
        );
        let b = board(START);
        assert_eq!(
            parse_san(&b, text),
            Err(SanError::Syntax {
                text: text.to_string(),
                reason,
                fen: START.to_string()
            })
        );
    }
}

/// What the text says, read without a position.
#[test]
fn parses_without_a_position() {
    let f = |c| File::from_char(c);
    let r = |c| Rank::from_char(c);
    let normal = |role, from_file, from_rank, capture, to, promotion, suffix| San::Normal {
        role,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
        en_passant: false,
        suffix,
    };
    let cases: &[(&str, San, &str)] = &[
        (
            "e4",
            normal(Role::Pawn, None, None, false, Square::E4, None, None),
            "e4",
        ),
        (
            "Pe4",
            normal(Role::Pawn, None, None, false, Square::E4, None, None),
            "e4",
        ),
        (
            "exd5",
            normal(Role::Pawn, f('e'), None, true, Square::D5, None, None),
            "exd5",
        ),
        (
            "ed5",
            normal(Role::Pawn, f('e'), None, false, Square::D5, None, None),
            "ed5",
        ),
        (
            "bxc3",
            normal(Role::Pawn, f('b'), None, true, Square::C3, None, None),
            "bxc3",
        ),
        (
            "Bxc3",
            normal(Role::Bishop, None, None, true, Square::C3, None, None),
            "Bxc3",
        ),
        (
            "nf3",
            normal(Role::Knight, None, None, false, Square::F3, None, None),
            "Nf3",
        ),
        (
            "Ng1-f3",
            normal(Role::Knight, f('g'), r('1'), false, Square::F3, None, None),
            "Ng1f3",
        ),
        (
            "R1:a4!",
            normal(Role::Rook, None, r('1'), true, Square::A4, None, None),
            "R1xa4",
        ),
        (
            "Qh4xe1#",
            normal(
                Role::Queen,
                f('h'),
                r('4'),
                true,
                Square::E1,
                None,
                Some(Suffix::Checkmate),
            ),
            "Qh4xe1#",
        ),
        (
            "e8q+",
            normal(
                Role::Pawn,
                None,
                None,
                false,
                Square::E8,
                Some(Role::Queen),
                Some(Suffix::Check),
            ),
            "e8=Q+",
        ),
        (
            "cxb8=N",
            normal(
                Role::Pawn,
                f('c'),
                None,
                true,
                Square::B8,
                Some(Role::Knight),
                None,
            ),
            "cxb8=N",
        ),
        (
            "e4+#",
            normal(
                Role::Pawn,
                None,
                None,
                false,
                Square::E4,
                None,
                Some(Suffix::Checkmate),
            ),
            "e4#",
        ),
        (
            "e4?!+",
            normal(
                Role::Pawn,
                None,
                None,
                false,
                Square::E4,
                None,
                Some(Suffix::Check),
            ),
            "e4+",
        ),
        (
            "O-O",
            San::Castle {
                side: CastlingSide::King,
                suffix: None,
            },
            "O-O",
        ),
        (
            "0-0-0+",
            San::Castle {
                side: CastlingSide::Queen,
                suffix: Some(Suffix::Check),
            },
            "O-O-O+",
        ),
        (
            "o-o#",
            San::Castle {
                side: CastlingSide::King,
                suffix: Some(Suffix::Checkmate),
            },
            "O-O#",
        ),
    ];
    for &(text, want, written) in cases {
        let san = San::parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(san, want, "{text}");
        assert_eq!(san.to_string(), written, "{text}");
        assert_eq!(San::parse(written), Ok(san), "{written}");
    }
    let ep = San::parse("exd6 e.p.+").unwrap();
    assert!(matches!(
        ep,
        San::Normal {
            en_passant: true,
            capture: true,
            ..
        }
    ));
    assert_eq!(ep.suffix(), Some(Suffix::Check));
    assert_eq!(ep.to_string(), "exd6 e.p.+");
    assert_eq!(San::parse("exd6+ e.p."), Ok(ep));
    assert_eq!(ep.with_suffix(None).to_string(), "exd6 e.p.");
}

/// Calls `each` with every text of `lens` characters over `alphabet`.
fn each_text(alphabet: &[u8], lens: core::ops::RangeInclusive<u32>, mut each: impl FnMut(&str)) {
    let mut text = Vec::new();
    for len in lens {
        for mut code in 0..(alphabet.len() as u64).pow(len) {
            text.clear();
            for _ in 0..len {
                text.push(alphabet[(code % alphabet.len() as u64) as usize]);
                code /= alphabet.len() as u64;
            }
            if let Ok(t) = core::str::from_utf8(&text) {
                each(t);
            }
        }
    }
}

/// Whether the one-pass reader of plain forms reads `text`; where it does,
/// it agrees with the full reader.
fn read_as_plain(text: &str) -> bool {
    let plain = syntax::parse_plain(text.as_bytes());
    if let Some(san) = plain {
        assert_eq!(syntax::parse_any(text), Ok(san), "{text:?}");
    }
    plain.is_some()
}

/// Every text over a small alphabet: no panic, and whatever parses
/// writes back to a text that parses to the same value.
#[test]
fn every_short_text_round_trips() {
    let (mut accepted, mut plain) = (0, 0);
    each_text(b"NBRQKPnbrqkexdh18O0-=+#!? .p", 1..=4, |t| {
        plain += usize::from(read_as_plain(t));
        if let Ok(san) = San::parse(t) {
            accepted += 1;
            let written = san.to_string();
            assert_eq!(San::parse(&written), Ok(san), "{t:?} -> {written:?}");
        }
    });
    assert!(accepted > 1000, "{accepted}");
    assert!(plain > 100, "{plain}");
}

/// `San` and the text functions are one piece of code: for every legal
/// move of some positions, `from_move` writes what `to_san` writes,
/// and `to_move` of it is the move.
#[test]
fn san_type_and_text_functions_agree() {
    for fen in [
        START, KNIGHTS, ROOKS, QUEENS, LONG_CHECK, PROMO, EP, CASTLE, SCHOLAR,
    ] {
        let b = board(fen);
        for &mv in &b.legal_moves() {
            let san = San::from_move(&b, mv).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(Ok(san.to_string()), to_san(&b, mv));
            assert_eq!(san.to_move(&b), Ok(mv), "{san} in {fen}");
            assert_eq!(parse_san(&b, &san.to_string()), Ok(mv));
        }
    }
    // `to_move` names the SAN as written back in its errors.
    let b = board(KNIGHTS);
    let san = San::parse("nd2!").unwrap();
    assert_eq!(
        san.to_move(&b).unwrap_err().to_string(),
        format!("`Nd2` is ambiguous in {KNIGHTS}: it could be Nbd2 or Nfd2; write one of those")
    );
    assert_eq!(
        San::parse("Qd4").unwrap().to_move(&b).unwrap_err().to_string(),
        format!("`Qd4` is not a legal move in {KNIGHTS}: no white queen matching the text can move to d4")
    );
    assert_eq!(
        San::from_move(&b, Move::NULL).unwrap_err().to_string(),
        format!("0000 is not a legal move in {KNIGHTS}")
    );
}

#[test]
fn game_play_san() {
    let mut game = crate::Game::new(board(START));
    for text in ["f3", "e5", "g4"] {
        assert!(game.play_san(text).is_ok(), "{text}");
    }
    // An error changes nothing.
    assert!(matches!(
        game.play_san("Qh5"),
        Err(SanError::Illegal { .. })
    ));
    assert_eq!(game.moves().len(), 3);
    assert_eq!(
        game.play_san("Qh4#").map(|m| m.to_string()).as_deref(),
        Ok("d8h4")
    );
    assert!(game.board().is_checkmate());
}

#[test]
fn messages_name_text_and_position() {
    let b = board(KNIGHTS);
    let msg = parse_san(&b, "Nd2").unwrap_err().to_string();
    assert!(
        msg.contains("`Nd2`") && msg.contains(KNIGHTS) && msg.contains("Nbd2 or Nfd2"),
        "{msg}"
    );
    let msg = parse_san(&b, "Nxd2").unwrap_err().to_string();
    assert!(
        msg.contains("nothing to capture on d2") && msg.contains(KNIGHTS),
        "{msg}"
    );
    let msg = parse_san(&b, "Z9").unwrap_err().to_string();
    assert!(
        msg.contains("`Z9`") && msg.contains("not a SAN move") && msg.contains(KNIGHTS),
        "{msg}"
    );
    let msg = parse_san(&board(START), "O-O").unwrap_err().to_string();
    assert!(
        msg.contains("white cannot castle on the king side"),
        "{msg}"
    );
}

#[test]
fn black_and_check_and_lines() {
    let b = board(START);
    let mut moves = Vec::new();
    let mut pos = b.clone();
    for text in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
        let mv = parse_san(&pos, text).unwrap_or_else(|e| panic!("{e}"));
        moves.push(mv);
        pos.play_unchecked(mv);
    }
    assert!(pos.is_checkmate());
    assert_eq!(
        san_line(&b, &moves).as_deref(),
        Ok("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#")
    );
    let mut after_e4 = b.clone();
    after_e4.play_unchecked(moves[0]);
    assert_eq!(
        san_line(&after_e4, &moves[1..3]).as_deref(),
        Ok("1... e5 2. Qh5")
    );
    // A null move is written `--`, refused in check.
    let line = [moves[0], Move::NULL, moves[2], Move::NULL];
    assert_eq!(san_line(&b, &line).as_deref(), Ok("1. e4 -- 2. Qh5 --"));
    let mut checked = b.clone();
    for &mv in &moves[..6] {
        checked.play_unchecked(mv);
    }
    assert!(san_line(&checked, &[moves[6], Move::NULL]).is_err());
    assert_eq!(san_line(&b, &[]).as_deref(), Ok(""));
    let err = san_line(&b, &[moves[0], moves[0]]).unwrap_err();
    assert_eq!(err.mv, moves[0]);
    // Not legal here: no SAN, and an error naming the move.
    assert_eq!(to_san(&b, moves[1]).map_err(|e| e.mv), Err(moves[1]));
    assert_eq!(to_san(&b, Move::NULL).map_err(|e| e.mv), Err(Move::NULL));
}

/// `san_list` writes, in the order of the legal moves, exactly what
/// `to_san` writes move by move: on every position within two plies of the
/// perft positions and of the disambiguation, promotion and mate positions
/// above.
#[test]
fn san_list_agrees_with_to_san() {
    const ROOTS: &[&str] = &[
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        KNIGHTS,
        ROOKS,
        QUEENS,
        LONG_CHECK,
        PROMO,
        EP,
        CASTLE,
        SCHOLAR,
    ];
    let mut seen = std::collections::HashSet::new();
    let mut positions = 0;
    for fen in ROOTS {
        let root = board(fen);
        let mut stack = vec![(root, 0)];
        while let Some((b, ply)) = stack.pop() {
            positions += 1;
            let mut list = String::from("unchanged: ");
            let moves = san_list(&b, &mut list);
            assert_eq!(moves, b.legal_moves(), "{}", b.fen());
            let expected: Vec<String> = moves
                .iter()
                .map(|&m| to_san(&b, m).unwrap_or_else(|e| panic!("{e}")))
                .collect();
            assert_eq!(
                list,
                format!("unchanged: {}", expected.join(" ")),
                "{}",
                b.fen()
            );
            // The check test without playing the move, move by move.
            let checks = CheckInfo::new(&b);
            for &m in &moves {
                let mut after = b.clone();
                after.play_unchecked(m);
                assert_eq!(
                    checks.gives_check(&b, m),
                    after.in_check(),
                    "{m} in {}",
                    b.fen()
                );
            }
            seen.extend(expected);
            if ply < 2 {
                for &m in &moves {
                    let mut next = b.clone();
                    next.play_unchecked(m);
                    stack.push((next, ply + 1));
                }
            }
        }
    }
    assert!(positions > 9_000, "{positions} positions");
    // The walk met every kind of text: castling (with check), promotions,
    // captures, disambiguation by file, by rank and by both, check and mate.
    for text in [
        "O-O", "O-O-O", "O-O-O+", "c8=Q+", "dxc8=Q", "bxa1=Q", "cxb8=N", "exd6", "Nbd2", "N1c3",
        "R8a4", "Qc4d3", "Nd6+", "Qxf7#",
    ] {
        assert!(seen.contains(text), "{text} not seen");
    }
}

/// The one-pass reader of plain forms agrees with the full reader on
/// every text of five and six characters over the letters plain forms
/// use (both disambiguations, captures, promotions and marks).
#[test]
fn plain_forms_read_as_the_full_reader_reads_them() {
    let mut plain = 0;
    each_text(b"Nexd18=Q+", 5..=6, |t| {
        plain += usize::from(read_as_plain(t))
    });
    assert!(plain > 100, "{plain}");
}
