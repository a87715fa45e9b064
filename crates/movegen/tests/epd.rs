//! EPD: records read and written (every typed operation, unknown opcodes
//! kept, FEN-style clocks, perft-file quirks), a table of malformed records
//! with their exact errors, and the round trip write → read over random
//! positions with random operations.

use fianchetto_board::{Bitboards, Board, FenError, START_FEN};
use fianchetto_movegen::epd::{self, Epd, EpdError, EpdErrorKind, Operation};
use fianchetto_movegen::{parse_san, to_san, MoveGen, SanError};
use proptest::prelude::*;

fn parse(text: &str) -> Epd {
    Epd::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn reads_every_operation() {
    let text = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - \
        bm Bb5 Bc4; am Qe2; id \"Ruy; \\ or Italian\"; c0 \"first\"; c9 word; acd 12; ce -35; \
        pm d4; pv Bb5 a6 Ba4; D1 27; D12 1234567890123; hmvc 2; fmvn 3; \
        xyz_1 one \"two three\" 4; noop;";
    let e = parse(text);
    let board = &e.board;
    assert_eq!((board.halfmove_clock(), board.fullmove_number()), (2, 3));
    let san = |m| to_san(board, m).unwrap_or_else(|e| panic!("{e}"));
    let ops = &e.operations;
    assert_eq!(ops.len(), 13);
    assert!(
        matches!(&ops[0], Operation::BestMoves(m) if m.iter().map(|&m| san(m)).collect::<Vec<_>>() == ["Bb5", "Bc4"])
    );
    assert!(matches!(&ops[1], Operation::AvoidMoves(m) if san(m[0]) == "Qe2"));
    assert_eq!(ops[2], Operation::Id("Ruy; \\ or Italian".into()));
    assert_eq!(ops[3], Operation::Comment(0, "first".into()));
    assert_eq!(ops[4], Operation::Comment(9, "word".into()));
    assert_eq!(ops[5], Operation::AnalysisDepth(12));
    assert_eq!(ops[6], Operation::Evaluation(-35));
    assert!(matches!(&ops[7], Operation::PredictedMove(m) if san(*m) == "d4"));
    match &ops[8] {
        Operation::PredictedVariation(m) => {
            assert_eq!(m.len(), 3);
            assert_eq!(m[2].to_string(), "b5a4");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        ops[9],
        Operation::Perft {
            depth: 1,
            nodes: 27
        }
    );
    assert_eq!(
        ops[10],
        Operation::Perft {
            depth: 12,
            nodes: 1_234_567_890_123
        }
    );
    assert_eq!(
        ops[11],
        Operation::Other {
            opcode: "xyz_1".into(),
            operands: "one \"two three\" 4".into()
        }
    );
    assert_eq!(
        ops[12],
        Operation::Other {
            opcode: "noop".into(),
            operands: String::new()
        }
    );
    assert_eq!(e.id(), Some("Ruy; \\ or Italian"));
    assert_eq!(e.best_moves().len(), 2);
    assert_eq!(e.avoid_moves().len(), 1);
    assert_eq!(e.get("acd"), Some(&Operation::AnalysisDepth(12)));
    assert_eq!(e.get("zz"), None);
    // Written back: hmvc/fmvn first, then every operation in order.
    assert_eq!(
        e.to_string(),
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - hmvc 2; fmvn 3; \
         bm Bb5 Bc4; am Qe2; id \"Ruy; \\ or Italian\"; c0 \"first\"; c9 \"word\"; acd 12; \
         ce -35; pm d4; pv Bb5 a6 Ba4; D1 27; D12 1234567890123; xyz_1 one \"two three\" 4; noop;"
    );
    assert_eq!(parse(&e.to_string()), e);
}

#[test]
fn perft_file_quirks_and_clocks() {
    // FEN clocks, `;` before each operation, no space, no final `;`.
    let e =
        parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400;D3 8902");
    assert_eq!(e.board.fen(), START_FEN);
    assert_eq!(
        e.perft_counts().collect::<Vec<_>>(),
        [(1, 20), (2, 400), (3, 8902)]
    );
    assert_eq!(
        e.to_string(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - D1 20; D2 400; D3 8902;"
    );
    let e = parse("8/8/8/8/8/8/8/K6k b - - 7 80;D1 3");
    assert_eq!(
        (e.board.halfmove_clock(), e.board.fullmove_number()),
        (7, 80)
    );
    assert_eq!(
        e.to_string(),
        "8/8/8/8/8/8/8/K6k b - - hmvc 7; fmvn 80; D1 3;"
    );
    // No operations at all.
    let e = parse("  8/8/8/8/8/8/8/K6k w - -  ");
    assert!(e.operations.is_empty());
    assert_eq!(e.to_string(), "8/8/8/8/8/8/8/K6k w - -");
    // `read` passes over blank lines and comments and numbers the rest.
    let text = "\u{feff}# suite\r\n\r\n8/8/8/8/8/8/8/K6k w - - id \"a\";\r\n   \n8/8/8/8/8/8/8/K6k b - - id \"b\";\n";
    let got: Vec<(usize, String)> = epd::read_numbered(text)
        .map(|r| r.map(|(n, e)| (n, e.id().unwrap_or_default().to_string())))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got, [(3, "a".to_string()), (5, "b".to_string())]);
    let errors: Vec<EpdError> = epd::read("8/8/8/8/8/8/8/K6k w - -\n\nnot epd\n")
        .filter_map(Result::err)
        .collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line, 3);
}

#[test]
fn malformed_records_name_the_line_and_opcode() {
    use EpdErrorKind::*;
    let k = "8/8/8/8/8/8/8/K6k w - -";
    let op = |opcode: &str, reason: &str| Operand {
        opcode: opcode.into(),
        reason: reason.into(),
    };
    let cases: Vec<(String, EpdErrorKind)> = vec![
        ("".into(), Fields(0)),
        ("8/8/8/8/8/8/8/K6k w -".into(), Fields(3)),
        ("8/8/8/8/8/8/8/K6k w -;bm e4".into(), Fields(3)),
        (
            "8/8/8/8/8/8/8/K6k x - -".into(),
            Fen(FenError::Turn("x".into())),
        ),
        (
            "8/8/8/8/8/8/8/8 w - -".into(),
            Fen(FenError::Position(fianchetto_board::PositionError::NoKing(
                fianchetto_board::Color::White,
            ))),
        ),
        (format!("{k} 5"), Clocks("5".into())),
        (format!("{k} 5 x"), Clocks("5 x".into())),
        (format!("{k} 1bm e4;"), Clocks("1bm e4".into())),
        (format!("{k} 9x;"), Clocks("9x".into())),
        (format!("{k} _x 1;"), Opcode("_x".into())),
        (format!("{k} bm-x Ka2;"), Opcode("bm-x".into())),
        (format!("{k} \"id\";"), Opcode("\"".into())),
        (
            format!("{k} id \"open;"),
            UnterminatedString {
                opcode: "id".into(),
            },
        ),
        (
            format!("{k} bm;"),
            op("bm", "expected at least one move in SAN"),
        ),
        (
            format!("{k} pv ;"),
            op("pv", "expected at least one move in SAN"),
        ),
        (
            format!("{k} pm Ka2 Kb1;"),
            op("pm", "expected one move, found 2 operands"),
        ),
        (
            format!("{k} id a b;"),
            op(
                "id",
                "expected one string (in double quotes if it has spaces), found 2 operands",
            ),
        ),
        (
            format!("{k} c3;"),
            op(
                "c3",
                "expected one string (in double quotes if it has spaces), found 0 operands",
            ),
        ),
        (
            format!("{k} acd -1;"),
            op("acd", "`-1` is not a number in range"),
        ),
        (
            format!("{k} ce 1.5;"),
            op("ce", "`1.5` is not a number in range"),
        ),
        (
            format!("{k} D2 1 2;"),
            op("D2", "expected one number, found 2 operands"),
        ),
        (
            format!("{k} D99999999999 1;"),
            op("D99999999999", "the depth is too large"),
        ),
        (
            format!("{k} hmvc x;"),
            op("hmvc", "`x` is not a number in range"),
        ),
        (
            format!("{k} hmvc 70000;"),
            op(
                "hmvc",
                "halfmove clock 70000 is above 65535, the largest a board keeps",
            ),
        ),
        (
            format!("{k} bm Kc3;"),
            Move {
                opcode: "bm".into(),
                error: SanError::Illegal {
                    text: "Kc3".into(),
                    reason: "no white king matching the text can move to c3".into(),
                    fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
                },
            },
        ),
        (
            format!("{k} pv Kb2 Kb1;"),
            Move {
                opcode: "pv".into(),
                error: SanError::Illegal {
                    text: "Kb1".into(),
                    reason: "no black king matching the text can move to b1".into(),
                    fen: "8/8/8/8/8/8/1K6/7k b - - 1 1".into(),
                },
            },
        ),
    ];
    for (i, (text, kind)) in cases.into_iter().enumerate() {
        let line = i + 10;
        assert_eq!(
            Epd::parse_line(&text, line),
            Err(EpdError { line, kind }),
            "{text}"
        );
    }
    let msg = Epd::parse_line(&format!("{k} bm Kc3;"), 7)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert_eq!(
        msg,
        "EPD line 7: operation `bm`: `Kc3` is not a legal move in 8/8/8/8/8/8/8/K6k w - - 0 1: \
         no white king matching the text can move to c3"
    );
}

/// A random position reached by `plies` random moves from a few starts.
fn position(choices: &[u32]) -> Bitboards {
    const STARTS: &[&str] = &[
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ];
    let mut board = Bitboards::from_fen(STARTS[choices[0] as usize % STARTS.len()])
        .unwrap_or_else(|e| panic!("{e}"));
    for &c in &choices[1..] {
        let legal = board.legal_moves();
        if legal.is_empty() {
            break;
        }
        board.play_unchecked(legal[c as usize % legal.len()]);
    }
    board
}

const STRINGS: &[&str] = &["", "x", "two words", "semi;colon", "WAC.001", "é ♞"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn write_then_read_gives_the_same_record(
        path in prop::collection::vec(any::<u32>(), 1..40),
        ops in prop::collection::vec((0u8..12, any::<u32>(), any::<u64>()), 0..8),
    ) {
        let board = position(&path);
        let legal = board.legal_moves();
        let mut record = Epd::new(board.clone());
        for (kind, a, b) in ops {
            let pick = |n: u32| legal[(n as usize) % legal.len()];
            let op = match kind {
                0..=3 if legal.is_empty() => continue,
                0 => Operation::BestMoves(vec![pick(a), pick(a / 7)]),
                1 => Operation::AvoidMoves(vec![pick(a)]),
                2 => Operation::PredictedMove(pick(a)),
                3 => {
                    // A variation of legal moves, each in turn.
                    let mut pos = board.clone();
                    let mut moves = Vec::new();
                    for i in 0..1 + a % 5 {
                        let l = pos.legal_moves();
                        if l.is_empty() {
                            break;
                        }
                        let mv = l[((b >> (i * 8)) as usize) % l.len()];
                        pos.play_unchecked(mv);
                        moves.push(mv);
                    }
                    Operation::PredictedVariation(moves)
                }
                4 => Operation::Id(STRINGS[a as usize % STRINGS.len()].into()),
                5 => Operation::Comment((a % 10) as u8, STRINGS[b as usize % STRINGS.len()].into()),
                6 => Operation::AnalysisDepth(a),
                7 => Operation::Evaluation(a as i32),
                8 => Operation::Perft { depth: a % 20, nodes: b },
                9 => Operation::Other { opcode: "custom".into(), operands: "a \"b c\" 3".into() },
                10 => Operation::Other { opcode: "flag".into(), operands: String::new() },
                _ => Operation::Other { opcode: format!("z{a}"), operands: format!("{b}") },
            };
            record.operations.push(op);
        }
        let text = record.to_string();
        let back = Epd::parse(&text);
        prop_assert_eq!(back.as_ref(), Ok(&record), "{}", text);
        // The SAN written for each best move reads back as that move.
        for &mv in record.best_moves() {
            prop_assert_eq!(parse_san(&board, &to_san(&board, mv).unwrap_or_else(|e| panic!("{e}"))), Ok(mv));
        }
    }

    /// Arbitrary text never panics the reader.
    #[test]
    fn arbitrary_text_never_panics(text in "[ -~]{0,120}") {
        let line = format!("8/8/8/8/8/8/8/K6k w - - {text}");
        if let Ok(e) = Epd::parse(&line) {
            prop_assert_eq!(Epd::parse(&e.to_string()), Ok(e));
        }
        let _ = Epd::parse(&text);
    }
}

/// Records are built with the setters and read on any backend.
#[test]
fn records_build_with_setters_on_every_backend() {
    use fianchetto_board::{Board0x88, Mailbox};
    fn build<B: MoveGen + PartialEq>() {
        let board =
            B::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap_or_else(|e| panic!("{e}"));
        let push = parse_san(&board, "e4").unwrap_or_else(|e| panic!("{e}"));
        let step = parse_san(&board, "Kd2").unwrap_or_else(|e| panic!("{e}"));
        let mut record = Epd::new(board.clone());
        record
            .set_id("pawn")
            .set_comment(0, "a 'quoted' word")
            .set_perft(1, 6)
            .set_analysis_depth(12)
            .set_evaluation(150);
        record
            .set_best_moves([push])
            .unwrap_or_else(|e| panic!("{e}"));
        record
            .set_avoid_moves([step])
            .unwrap_or_else(|e| panic!("{e}"));
        record
            .set_predicted_move(push)
            .unwrap_or_else(|e| panic!("{e}"));
        record
            .set_predicted_variation([push])
            .unwrap_or_else(|e| panic!("{e}"));
        let text = record.to_string();
        assert_eq!(
            text,
            "4k3/8/8/8/8/8/4P3/4K3 w - - id \"pawn\"; c0 \"a 'quoted' word\"; D1 6; acd 12; \
             ce 150; bm e4; am Kd2; pm e4; pv e4;"
        );
        // Setting again replaces; an illegal move is refused and changes nothing.
        record.set_perft(1, 7).set_id("p");
        assert_eq!(record.perft_counts().collect::<Vec<_>>(), [(1, 7)]);
        assert_eq!(record.id(), Some("p"));
        assert!(record
            .set_best_moves([step, push, fianchetto_board::Move::NULL])
            .is_err());
        assert_eq!(record.best_moves(), [push]);
        assert!(record.set_predicted_variation([push, push]).is_err());
        assert!(record.remove("am").is_some() && record.remove("am").is_none());
        // Read back on the same backend.
        let back: Epd<B> = record.to_string().parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, record);
    }
    build::<Bitboards>();
    build::<Board0x88>();
    build::<Mailbox>();
}
