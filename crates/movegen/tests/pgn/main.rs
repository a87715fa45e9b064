//! PGN: reading (every construct of the format, the visitor's skip
//! facilities, malformed games with their exact errors and the reader going
//! on with the next game), writing (the Seven Tag Roster, move numbers, line
//! width, comments, NAGs, variations) and the round trip write → read over
//! random legal games with random tags, comments, NAGs and variations.

use fianchetto_board::{Bitboards, Board, START_FEN};
use fianchetto_movegen::pgn::{
    AnnotatedMove, Annotations, Arrow, Commands, Eval, Flow, GameBuilder, GameResult, MarkColor,
    PgnError, PgnErrorKind, PgnGame, PgnWarningKind, ReadError, Reader, Replay, SquareMark, Tags,
    Variation, Visit, Visitor, WriteError, Writer, LINE_WIDTH, SEVEN_TAG_ROSTER,
};
use fianchetto_movegen::{Game, MoveGen, SanError};
use proptest::prelude::*;
use std::io::BufReader;

type G = PgnGame<Bitboards>;

/// Every game of `text`, as results.
fn read_all(text: &str) -> Vec<Result<G, ReadError>> {
    Reader::new(text.as_bytes()).games::<Bitboards>().collect()
}

/// Every game of `text`, which must all read.
fn games(text: &str) -> Vec<G> {
    read_all(text)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}\nin:\n{text}")))
        .collect()
}

fn one(text: &str) -> G {
    let mut all = games(text);
    assert_eq!(all.len(), 1, "{text}");
    all.remove(0)
}

/// The main line in SAN, space-separated.
fn sans(g: &G) -> String {
    let mut board = g.game.start().clone();
    let mut out = Vec::new();
    for &mv in g.game.moves() {
        out.push(fianchetto_movegen::to_san(&board, mv).unwrap_or_else(|e| panic!("{e}")));
        board.play_unchecked(mv);
    }
    out.join(" ")
}

#[test]
fn reads_every_construct() {
    let text = "\u{feff}% a private escape line (ignored) {\r\n\
        [Event \"Test \\\"quoted\\\" \\\\ game\"]\r\n\
        [Site \"Here\"] [Date \"2024.01.02\"]\r\n\
        [White \"Ünïcode\"]\r\n\
        \r\n\
        1.e4 e5!? 2. Nf3 $14 {A comment\r\n over two lines} 2... Nc6 ; to the end\r\n\
        3. Bb5 (3. Bc4 Bc5 (3... Nf6 4. Ng5) 4. c3) (3. d4) 3... a6?! 4. Ba4 Nf6 5. O-O Be7\r\n\
        6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8\r\n\
        % escape inside the movetext\r\n\
        13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 16. d5 c4 17. Bg5 h6 18. Be3 Nc5 19. Qd2 h5\r\n\
        20. Bg5 Be7 21. Rad1 1/2-1/2\r\n";
    let g = one(text);
    assert_eq!(g.tags.get("Event"), Some("Test \"quoted\" \\ game"));
    assert_eq!(g.tags.get("Date"), Some("2024.01.02"));
    assert_eq!(g.tags.get("White"), Some("Ünïcode"));
    assert_eq!(g.game.moves().len(), 41);
    assert_eq!(g.result, Some(GameResult::Draw));
    assert_eq!(g.notes[1].nags, [5]);
    assert_eq!(g.notes[2].nags, [14]);
    assert_eq!(g.notes[2].comments, ["A comment  over two lines"]);
    assert_eq!(g.notes[3].comments, ["to the end"]);
    assert_eq!(g.notes[5].nags, [6]);
    // Two variations after 3. Bb5; the first has a sub-variation after 3... Bc5.
    let vars = &g.notes[4].variations;
    assert_eq!(vars.len(), 2);
    assert_eq!(vars[0].moves.len(), 3);
    assert_eq!(vars[0].moves[1].notes.variations[0].moves.len(), 2);
    assert_eq!(vars[1].moves.len(), 1);
    assert_eq!(vars[1].moves[0].mv.to_string(), "d2d4");
}

#[test]
fn fen_and_setup_tags_set_the_start() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40";
    let text = format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n40... Kd7 41. e4 Ke6 *");
    let g = one(&text);
    assert_eq!(g.game.start().fen(), fen);
    assert_eq!(g.game.moves().len(), 3);
    // Written back with the same tags, black's first move numbered `40...`.
    let out = g.to_pgn().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.contains(&format!(
            "[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n40... Kd7 41. e4 Ke6 *\n"
        )),
        "{out}"
    );
}

#[test]
fn game_ends_without_result_and_tag_only_games() {
    let text =
        "[Event \"a\"]\n\n1. e4 e5\n[Event \"b\"]\n[Result \"*\"]\n\n\n[Event \"c\"]\n1. d4\n";
    let all = games(text);
    assert_eq!(all.len(), 3);
    assert_eq!((sans(&all[0]).as_str(), all[0].result), ("e4 e5", None));
    assert_eq!(all[1].tags.get("Event"), Some("b"));
    assert!(all[1].game.moves().is_empty());
    assert_eq!(all[2].tags.get("Event"), Some("c"));
    assert_eq!(sans(&all[2]), "d4");
    assert!(games("").is_empty());
    assert!(games("\n\n  \n% only an escape\n; and a comment line\n").is_empty());
}

/// Where games end, as python-chess decides it: at a blank line outside a
/// comment, not at the result token.
#[test]
fn games_end_at_blank_lines_as_python_chess_reads_them() {
    let plies =
        |text: &str| -> Vec<usize> { games(text).iter().map(|g| g.game.moves().len()).collect() };
    // A blank line ends the movetext; what follows is the next game.
    assert_eq!(plies("1. e4 e5\n\n2. Nf3 Nc6 *\n"), [2, 2]);
    // ... but not inside a comment.
    assert_eq!(plies("1. e4 {a\n\nb} e5 2. Nf3 *\n"), [3]);
    // One blank line between tags, or between the tags and the moves, is
    // part of the game; a second ends a game of tags alone.
    let all = games("[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 *\n");
    assert_eq!(all.len(), 1);
    assert_eq!(
        (all[0].tags.get("Site"), all[0].game.moves().len()),
        (Some("b"), 1)
    );
    let all = games("[Event \"a\"]\n\n\n1. e4 *\n");
    assert_eq!(all.len(), 2);
    assert!(all[0].game.moves().is_empty() && all[1].tags.is_empty());
    // Moves after the result still belong to the game, with a warning.
    let all = games("1. e4 1-0 1... e5 *\n\n1. d4 *");
    assert_eq!(all.iter().map(sans).collect::<Vec<_>>(), ["e4 e5", "d4"]);
    assert_eq!(all[0].result, Some(GameResult::Unknown));
    assert_eq!(all[0].warnings.len(), 1);
    assert_eq!(all[0].warnings[0].kind, PgnWarningKind::AfterResult);
    // `;` and `%` lines before and among the tags are passed over.
    let all = games("; header\n% escape\n[Event \"a\"]\n; note\n[Site \"b\"]\n\n1. e4 *\n");
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].tags.len(), 2);
    assert!(all[0].comments.is_empty());
}

#[test]
fn non_utf8_text_is_replaced_not_refused() {
    let mut bytes = b"[White \"Bj".to_vec();
    bytes.push(0xf6); // Latin-1 ö
    bytes.extend_from_slice(b"rn\"]\n\n1. e4 {caf");
    bytes.push(0xe9);
    bytes.extend_from_slice(b"} *\n");
    let mut reader = Reader::new(&bytes[..]);
    let g = reader
        .read_game(&mut GameBuilder::<Bitboards>::new())
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("the game reads"));
    assert_eq!(g.tags.get("White"), Some("Bj\u{fffd}rn"));
    assert_eq!(g.notes[0].comments, ["caf\u{fffd}"]);
}

/// A visitor recording every callback, to check the order and the skips.
#[derive(Default)]
struct Log {
    events: Vec<String>,
    skip_variations: bool,
    skip_movetext: bool,
}

impl Visitor for Log {
    type Output = Vec<String>;
    fn begin_game(&mut self) {
        self.events.clear();
        self.events.push("begin".into());
    }
    fn tag(&mut self, name: &str, value: &str) -> Visit {
        self.events.push(format!("tag {name}={value}"));
        Ok(())
    }
    fn end_tags(&mut self) -> Visit<Flow> {
        self.events.push("end_tags".into());
        Ok(if self.skip_movetext {
            Flow::Skip
        } else {
            Flow::Visit
        })
    }
    fn san(&mut self, san: &str) -> Visit {
        self.events.push(san.into());
        Ok(())
    }
    fn nag(&mut self, nag: u8) -> Visit {
        self.events.push(format!("${nag}"));
        Ok(())
    }
    fn comment(&mut self, comment: &str) -> Visit {
        self.events.push(format!("{{{comment}}}"));
        Ok(())
    }
    fn begin_variation(&mut self) -> Visit<Flow> {
        self.events.push("(".into());
        Ok(if self.skip_variations {
            Flow::Skip
        } else {
            Flow::Visit
        })
    }
    fn end_variation(&mut self) -> Visit {
        self.events.push(")".into());
        Ok(())
    }
    fn outcome(&mut self, result: Option<GameResult>) -> Visit {
        self.events.push(format!(
            "result {}",
            result.map_or("none", GameResult::as_str)
        ));
        Ok(())
    }
    fn end_game(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
    }
}

#[test]
fn visitor_sees_everything_in_order_and_can_skip() {
    let text = "[A \"1\"]\n\n1. e4 {c} (1. d4 $1 (1. c4) d5) 1... e5+?? 0-1\n[B \"2\"]\n\n1. Nf3 *";
    let mut log = Log::default();
    let mut reader = Reader::new(text.as_bytes());
    let first = reader.read_game(&mut log).ok().flatten();
    assert_eq!(
        first.unwrap_or_default().join(" "),
        "begin tag A=1 end_tags e4 {c} ( d4 $1 ( c4 ) d5 ) e5+ $4 result 0-1"
    );
    log.skip_movetext = true;
    let second = reader.read_game(&mut log).ok().flatten();
    assert_eq!(
        second.unwrap_or_default().join(" "),
        "begin tag B=2 end_tags result *"
    );
    assert!(matches!(reader.read_game(&mut log), Ok(None)));
    assert_eq!((reader.games_read(), reader.errors()), (2, 0));
    assert_eq!(reader.bytes_read(), text.len() as u64);

    let mut log = Log {
        skip_variations: true,
        ..Log::default()
    };
    let mut reader = Reader::new(text.as_bytes());
    let first = reader.read_game(&mut log).ok().flatten();
    assert_eq!(
        first.unwrap_or_default().join(" "),
        "begin tag A=1 end_tags e4 {c} ( e5+ $4 result 0-1"
    );
    // skip_game passes over a game.
    assert!(matches!(reader.skip_game(), Ok(true)));
    assert!(matches!(reader.skip_game(), Ok(false)));
}

#[test]
fn builder_options_and_replay() {
    let text = "{intro} 1. e4 {c} (1. d4 d5) e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0";
    let mut reader = Reader::new(text.as_bytes());
    let mut plain = GameBuilder::<Bitboards>::new()
        .variations(false)
        .comments(false);
    let g = reader
        .read_game(&mut plain)
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("reads"));
    assert!(g.comments.is_empty());
    assert!(g.notes.iter().all(Annotations::is_empty));
    assert_eq!(g.game.moves().len(), 7);
    let full = one(text);
    assert_eq!(full.comments, ["intro"]);
    assert_eq!(full.notes[0].variations.len(), 1);
    let mut reader = Reader::new(text.as_bytes());
    let r = reader
        .read_game(&mut Replay::<Bitboards>::new())
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("replays"));
    assert_eq!(r.plies, 7);
    assert!(r.board.is_checkmate());
    assert_eq!(&r.board, full.game.board());
    assert_eq!(r.result, Some(GameResult::WhiteWins));
}

/// Checking variations, each one starts from the position before the move
/// it replaces: after several variations on one move, nested ones, and a
/// variation on a null move; an illegal move in any of them is an error
/// only when variations are checked.
#[test]
fn replay_plays_each_variation_from_before_its_move() {
    let replay = |text: &str, check: bool| {
        Reader::new(text.as_bytes())
            .read_game(&mut Replay::<Bitboards>::new().check_variations(check))
            .map(|game| game.map(|g| (g.plies, g.board.fen())))
            .map_err(|e| e.to_string())
    };
    let good = [
        (
            "1. e4 (1. d4) (1. c4 e5) e5 2. Nf3 (2. Nc3 (2. f4 exf4)) Nc6 *",
            4,
        ),
        ("1. e4 -- (1... e5 2. Nf3) 2. d4 (2. Nf3) *", 3),
        ("1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 *", 3),
    ];
    for (text, plies) in good {
        let plain = replay(text, false);
        assert_eq!(replay(text, true), plain, "{text}");
        assert_eq!(plain.ok().flatten().map(|(p, _)| p), Some(plies), "{text}");
    }
    for text in [
        "1. e4 (1. d4) (1. e5) e5 *",
        "1. e4 e5 (1... c5 2. Nf3 (2. Nf6)) 2. Nf3 *",
        "1. e4 -- (1... Nf3) 2. d4 *",
        "1. e4 e5 2. Nf3 (2. Nf6) *",
    ] {
        assert!(replay(text, false).is_ok(), "{text}");
        assert!(replay(text, true).is_err(), "{text}");
    }
}

/// A visitor that ignores comments (`Replay`: the scanner passes over them
/// in the movetext) finds the same games, plies, errors and error lines as
/// one that reads them, wherever the comments stand: before a game, among
/// the tags, after a blank line, over several lines with blank lines
/// inside, left open, and after an error.
#[test]
fn passing_over_comments_keeps_games_and_errors() {
    let text = "{before the first game}\n\n[Event \"a\"]\n{among the tags}\n\n\
                1. e4 {a} e5 {b\n\nover lines} 2. Nf3 {c} *\n\n\
                {after a blank line} 1. d4 d5 {x} *\n\
                {the same game still} 2. c4 *\n\n\
                {a game of its own}\n\n\
                [Event \"b\"]\n\n1. e4 {x} Ke7 {y} 2. Qh5 {z} *\n\n\
                [Event \"c\"]\n\n1. f4 {left open\n\n[Event \"d\"]\n\n1. g4 {g} g5 *\n";
    let (built, replayed) = both_readings(text);
    assert_eq!(replayed, built);
    let plies: Vec<Option<usize>> = built.iter().map(|g| g.clone().ok()).collect();
    let want = [
        Some(0),
        Some(0),
        Some(3),
        Some(3),
        Some(0),
        None,
        None,
        Some(2),
    ];
    assert_eq!(plies, want, "{built:?}");
}

/// Line ends read alike by a visitor that ignores comments (`Replay`, whose
/// moves the scanner mostly reads itself) and by one that reads them: lines
/// that begin with a move, a move number, a comment, an `e.p.` mark, a
/// broken tag, a result or the next game's tags, and a line over the limit.
#[test]
fn moves_across_line_ends_read_alike() {
    let text = "[Event \"a\"]\n\n1. e4 e5\n2. Nf3\nNc6 3. Bb5\n{c} a6\n4. Ba4 Nf6 *\n\n\
                [Event \"b\"]\n\n1. e4 d5 2. exd5 c5\n3. dxc6\ne.p. Qd6\nEvent \"x\"]\n4. d4 *\n\n\
                [Event \"c\"]\n\n1. d4 d5\n1-0\n[Event \"d\"]\n1. c4 *\n\n\
                [Event \"e\"]\n\n1. e4 e5\n2. Nf3 {a comment that makes this line too long} Nc6\n\
                3. Bb5 *\n\n[Event \"f\"]\n\n1. e4 e5\n2. Nf3 *\n";
    let (built, replayed) = both_readings_with(text, Some(40));
    assert_eq!(replayed, built);
    let plies: Vec<Option<usize>> = built.iter().map(|g| g.clone().ok()).collect();
    assert_eq!(
        plies,
        [Some(8), Some(7), Some(2), Some(1), None, Some(3)],
        "{built:?}"
    );
}

/// A good game to follow each malformed one: the reader must find it.
const GOOD: &str = "[Event \"good\"]\n\n1. d4 d5 2. c4 *\n";

/// Reads `bad` followed by [`GOOD`]: returns the error, and checks that
/// the next game read is the good one and that nothing follows.
fn error_then_good(bad: &str, max_line: Option<usize>) -> PgnError {
    let text = format!("{bad}\n{GOOD}");
    let mut reader = Reader::new(text.as_bytes());
    if let Some(max) = max_line {
        reader = reader.with_max_line_len(max);
    }
    let mut games = reader.games::<Bitboards>();
    // Good games may come before the bad one.
    let err = loop {
        match games.next() {
            Some(Ok(_)) => continue,
            Some(Err(ReadError::Game(e))) => break e,
            other => panic!("{bad:?}: expected a game error, got {other:?}"),
        }
    };
    match games.next() {
        Some(Ok(g)) => {
            assert_eq!(g.tags.get("Event"), Some("good"), "after {bad:?}");
            assert_eq!(sans(&g), "d4 d5 c4", "after {bad:?}");
        }
        other => panic!("{bad:?}: expected the good game next, got {other:?}"),
    }
    assert!(games.next().is_none(), "{bad:?}: more after the good game");
    assert_eq!(games.reader().errors(), 1);
    err
}

#[test]
fn malformed_games_report_game_line_token_and_the_next_game_reads() {
    use PgnErrorKind::*;
    let illegal = |text: &str, fen: &str, reason: &str| {
        San(SanError::Illegal {
            text: text.into(),
            reason: reason.into(),
            fen: fen.into(),
        })
    };
    let after_e4_e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    // (input, game, line, token, kind)
    let cases: Vec<(&str, u64, u64, &str, PgnErrorKind)> = vec![
        (
            "[Event \"x\"]\n\n1. e4 e5\n2. Ke3 Nc6 1-0",
            1,
            4,
            "Ke3",
            illegal(
                "Ke3",
                after_e4_e5,
                "no white king matching the text can move to e3",
            ),
        ),
        (
            // The error is in the second game of the input.
            "1. e4 *\n\n[Event \"x\"]\n\n1. d4 d5 2. Nf3 Nf6\n3. Nd2 *",
            2,
            6,
            "Nd2",
            PgnErrorKind::San(SanError::Ambiguous {
                text: "Nd2".into(),
                candidates: vec!["Nbd2".into(), "Nfd2".into()],
                fen: "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3".into(),
            }),
        ),
        ("1. e4 e5 2. Nf3 $256 *", 1, 1, "$256", BadNag),
        ("1. e4 $ e5 *", 1, 1, "$", BadNag),
        ("1. e4 e5!!! *", 1, 1, "!!!", BadAnnotation),
        ("1. e4 <e5> *", 1, 1, "<", UnexpectedChar('<')),
        ("1. e4 e5 2. - *", 1, 1, "-", UnexpectedChar('-')),
        (
            "1. e4 [Event \"x\"] e5 *",
            1,
            1,
            "[Event \"x\"]",
            TagInMovetext,
        ),
        (
            "[Event \"x\"]\n\n1. e4 {never\nclosed\n",
            1,
            3,
            "{",
            UnterminatedComment { opened: 3 },
        ),
        ("1. e4 (1. d4 d5 *", 1, 1, "*", ResultInVariation),
        ("(1. d4) 1. e4 *", 1, 1, "(", VariationWithoutMove),
        (
            "1. e4 (e5) *",
            1,
            1,
            "e5",
            illegal(
                "e5",
                START_FEN,
                "no white pawn matching the text can move to e5",
            ),
        ),
        (
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*",
            1,
            1,
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]",
            Fen(fianchetto_board::FenError::Position(
                fianchetto_board::PositionError::NoKing(fianchetto_board::Color::White),
            )),
        ),
        (
            "[Variant \"Atomic\"]\n\n1. e4 *",
            1,
            1,
            "[Variant \"Atomic\"]",
            Unsupported("the variant \"Atomic\"; only standard chess and Chess960 are read".into()),
        ),
    ];
    for (bad, game, line, token, kind) in cases {
        let got = error_then_good(bad, None);
        let want = PgnError {
            game,
            line,
            token: token.into(),
            kind,
        };
        assert_eq!(got, want, "{bad:?}");
    }
    // The unterminated comment also stops at the next game's tags when the
    // game after it follows directly.
    let got = error_then_good("1. e4 {oops e5 *", None);
    assert_eq!((got.line, got.kind), (1, UnterminatedComment { opened: 1 }));
    // A line over the limit.
    let long = format!("1. e4 {{{}}} *", "x".repeat(200));
    let got = error_then_good(&long, Some(100));
    assert_eq!(
        (got.game, got.line, got.kind),
        (1, 1, LineTooLong { max: 100 })
    );
    assert_eq!(got.token, format!("1. e4 {{{}…", "x".repeat(33)));
    // A comment over the limit, across lines.
    let long = format!("1. e4 {{\n{}\n{}\n}} *", "x".repeat(60), "y".repeat(60));
    let got = error_then_good(&long, Some(100));
    assert_eq!(
        (got.game, got.line, got.kind),
        (1, 1, CommentTooLong { max: 100 })
    );
}

#[test]
fn error_messages_read_well() {
    let err = error_then_good("[Event \"x\"]\n\n1. e4 e5\n2. Ke3 1-0", None);
    assert_eq!(
        err.to_string(),
        "game 1, line 4, at `Ke3`: `Ke3` is not a legal move in \
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2: \
         no white king matching the text can move to e3"
    );
    let err = error_then_good("1. e4 $300 *", None);
    assert_eq!(
        err.to_string(),
        "game 1, line 1, at `$300`: a NAG is `$` followed by a number from 0 to 255"
    );
}

#[test]
fn reading_continues_after_many_errors() {
    // Errors in every other game; the good ones all read, in order.
    let mut text = String::new();
    for i in 0..20 {
        if i % 2 == 0 {
            text.push_str(&format!("[Round \"{i}\"]\n\n1. e4 e5 2. Ke3 *\n\n"));
        } else {
            text.push_str(&format!("[Round \"{i}\"]\n\n1. e4 e5 2. Ke2 *\n\n"));
        }
    }
    let results = read_all(&text);
    assert_eq!(results.len(), 20);
    for (i, r) in results.iter().enumerate() {
        match (i % 2, r) {
            (0, Err(ReadError::Game(e))) => {
                assert_eq!((e.game, e.line), (i as u64 + 1, 4 * i as u64 + 3))
            }
            (1, Ok(g)) => assert_eq!(g.tags.get("Round"), Some(i.to_string().as_str())),
            _ => panic!("game {i}: {r:?}"),
        }
    }
}

#[test]
fn one_byte_buffers_read_the_same() {
    let text =
        "[Event \"a\"]\r\n\r\n1. e4 {long comment\r\nacross} e5 (1... c5 $2) 2. Nf3 ; eol\r\n*\r\n";
    let whole = one(text);
    let tiny = BufReader::with_capacity(1, text.as_bytes());
    let mut reader = Reader::from_buf_read(tiny);
    let g = reader
        .read_game(&mut GameBuilder::<Bitboards>::new())
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("reads"));
    assert_eq!(g.tags, whole.tags);
    assert_eq!(g.notes, whole.notes);
    assert_eq!(g.game.moves(), whole.game.moves());
}

#[test]
fn writer_roster_tags_numbers_and_width() {
    let mut game = Game::new(Bitboards::startpos());
    // A long game: 60 plies of knight shuffles and pawn moves.
    for san in [
        "Nf3", "Nf6", "Ng1", "Ng8", "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O",
        "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "c4", "c6",
        "cxb5", "axb5", "Nc3", "Bb7", "Bg5", "b4", "Nb1", "h6", "Bh4", "c5", "dxe5", "Nxe4",
        "Bxe7", "Qxe7", "Qd5", "Nc3", "Nxc3", "Bxd5", "Nxd5", "Qxe5",
    ] {
        game.play_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
    }
    let mut pgn = PgnGame::from(game);
    pgn.tags.set("Annotator", "me");
    pgn.tags.set("White", "W \"the\" \\ player");
    pgn.tags.set("Result", "*");
    pgn.notes[4].comments.push("the king's pawn".into());
    pgn.notes[5].nags.push(1);
    let out = pgn.to_pgn().unwrap_or_else(|e| panic!("{e}"));
    let lines: Vec<&str> = out.lines().collect();
    let names: Vec<&str> = lines[..8]
        .iter()
        .map(|l| l[1..].split(' ').next().unwrap_or_default())
        .collect();
    assert_eq!(&names[..7], &SEVEN_TAG_ROSTER);
    assert_eq!(names[7], "Annotator");
    assert_eq!(lines[4], "[White \"W \\\"the\\\" \\\\ player\"]");
    assert_eq!(lines[8], "");
    assert!(
        lines[9].starts_with("1. Nf3 Nf6 2. Ng1 Ng8 3. e4 { the king's pawn } 3... e5 $1 4. Nf3")
    );
    for line in &lines[9..] {
        assert!(line.len() <= LINE_WIDTH, "{line:?} ({})", line.len());
    }
    assert!(lines.len() > 11, "the movetext is wrapped: {out}");
    assert!(out.ends_with(" *\n"), "{out}");
    let back: G = out.parse().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.game.moves(), pgn.game.moves());
    assert_eq!(back.notes, pgn.notes);
}

#[test]
fn writer_variations_comments_and_errors() {
    let mut g: G = "1. e4 e5 *".parse().unwrap_or_else(|e| panic!("{e}"));
    let start = Bitboards::startpos();
    let d4 = fianchetto_movegen::parse_san(&start, "d4").unwrap_or_else(|e| panic!("{e}"));
    let mut after_d4 = start.clone();
    after_d4.play_unchecked(d4);
    let d5 = fianchetto_movegen::parse_san(&after_d4, "d5").unwrap_or_else(|e| panic!("{e}"));
    g.notes[0].variations.push(Variation {
        comments: vec!["or".into()],
        commands: Commands::default(),
        moves: vec![
            AnnotatedMove {
                mv: d4,
                notes: Annotations::default(),
            },
            AnnotatedMove {
                mv: d5,
                notes: Annotations {
                    comments: vec!["a } brace".into(), "%not an escape".into()],
                    ..Annotations::default()
                },
            },
        ],
    });
    g.notes[1].variations.push(Variation::default());
    let out = g.to_pgn().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.ends_with("\n\n1. e4 ({ or } 1. d4 d5 ;a } brace\n{ %not an escape }) 1... e5 () *\n"),
        "{out}"
    );
    let back: G = out.parse().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.notes, g.notes);

    // A variation move that is not legal where it stands cannot be written.
    g.notes[1].variations.push(Variation {
        comments: vec![],
        commands: Commands::default(),
        moves: vec![AnnotatedMove {
            mv: d4,
            notes: Annotations::default(),
        }],
    });
    assert!(matches!(g.to_pgn(), Err(WriteError::IllegalMove(_))));
    g.notes[1].variations.clear();
    g.tags.set("Bad Name", "x");
    assert!(matches!(g.to_pgn(), Err(WriteError::TagName(n)) if n == "Bad Name"));

    // The writer puts a blank line after each game.
    let mut writer = Writer::new(Vec::new());
    let plain: G = "1. e4 *".parse().unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..2 {
        writer.write_game(&plain).unwrap_or_else(|e| panic!("{e}"));
    }
    let text = String::from_utf8(writer.into_inner()).unwrap_or_default();
    assert_eq!(text.matches("\n\n[Event").count(), 1);
    assert_eq!(games(&text).len(), 2);
}

#[test]
fn main_line_zips_positions_moves_san_and_notes() {
    let g = one(
        "[Event \"x\"]\n\n1. e4 $1 { [%clk 0:05:00] [%eval 0.2] the king's pawn } \
         1... c5 (1... e5 { symmetric } 2. Nf3 (2. f4 exf4) Nc6) (1... c6) 2. Nf3 -- 3. d4 *",
    );
    let steps: Vec<_> = g.main_line().collect();
    assert_eq!(steps.len(), 5);
    assert_eq!(g.main_line().len(), 5);
    let sans: Vec<String> = steps.iter().map(|s| s.san().unwrap()).collect();
    assert_eq!(sans, ["e4", "c5", "Nf3", "--", "d4"]);
    assert_eq!(sans, g.san_moves().unwrap());
    let numbers: Vec<u32> = steps.iter().map(|s| s.move_number()).collect();
    assert_eq!(numbers, [1, 1, 2, 2, 3]);
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(s.index, i);
        assert_eq!(s.before, &g.game.positions()[i]);
        assert_eq!(s.after, &g.game.positions()[i + 1]);
        assert_eq!(s.mv, g.game.moves()[i]);
        assert_eq!(Some(s.notes), g.annotations(i));
    }
    assert_eq!(steps[0].notes.nags, [1]);
    assert_eq!(steps[0].comments(), ["the king's pawn"]);
    assert_eq!(steps[0].notes.commands.eval, Some(Eval::centipawns(20)));
    // Backwards too.
    let last = g.main_line().next_back().unwrap();
    assert_eq!((last.index, last.san().unwrap()), (4, "d4".to_string()));
    assert_eq!(g.main_line().rev().count(), 5);

    // Variations in SAN, from the position before the move they replace;
    // sub-variations from the position before theirs.
    let reply = &steps[1];
    let vars = reply.variations();
    assert_eq!(vars.len(), 2);
    let line = vars[0].walk(reply.before).unwrap();
    let line_sans: Vec<&str> = line.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(line_sans, ["e5", "Nf3", "Nc6"]);
    assert_eq!(line[0].notes.comments, ["symmetric"]);
    assert_eq!(
        line[1].notes.variations[0]
            .san_moves(&line[1].before)
            .unwrap(),
        ["f4", "exf4"]
    );
    assert_eq!(vars[1].san_moves(reply.before).unwrap(), ["c6"]);
    // From the wrong position, a variation's move is an error, not a panic.
    assert!(vars[0].san_moves(reply.after).is_err());
    // An empty game has an empty main line.
    assert_eq!(one("*").main_line().count(), 0);
}

#[test]
fn a_missing_file_is_named() {
    let path = std::env::temp_dir().join("fianchetto-no-such-file.pgn");
    let err = Reader::open(&path).err().expect("no such file");
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    let text = err.to_string();
    assert!(
        text.starts_with(&format!("cannot read PGN file `{}`: ", path.display())),
        "{text}"
    );
}

#[test]
fn clocks_past_59_minutes_or_seconds_are_not_read() {
    let g = one("1. e4 { [%clk 99:99:99] } e5 { [%clk 0:59:59.5] } 2. Nf3 { [%clk 100:00:00] } *");
    // Not a clock: kept in the comment text, as every malformed command is.
    assert_eq!(g.notes[0].commands.clock, None);
    assert_eq!(g.notes[0].comments, ["[%clk 99:99:99]"]);
    assert_eq!(
        g.notes[1].commands.clock,
        Some(std::time::Duration::from_millis(3_599_500))
    );
    assert_eq!(
        g.notes[2].commands.clock,
        Some(std::time::Duration::from_secs(360_000))
    );
    for bad in ["0:60:00", "0:00:60", "1:99:00", "0:0:75.25"] {
        let (c, text) = Commands::extract(&format!("[%clk {bad}] [%emt {bad}]"));
        assert_eq!((c.clock, c.elapsed), (None, None), "{bad}");
        assert_eq!(text, format!("[%clk {bad}] [%emt {bad}]"));
    }
}

/// Each game of a text: its plies, or its error's message.
type Readings = Vec<Result<usize, String>>;

/// Every game of `text`, read by a visitor that reads comments
/// (`GameBuilder`) and by one that does not (`Replay`, for which the
/// scanner passes over them).
fn both_readings(text: &str) -> (Readings, Readings) {
    both_readings_with(text, None)
}

/// [`both_readings`] with the longest line `max_line`, if given.
fn both_readings_with(text: &str, max_line: Option<usize>) -> (Readings, Readings) {
    fn reader(text: &str, max_line: Option<usize>) -> Reader<std::io::BufReader<&[u8]>> {
        match max_line {
            Some(max) => Reader::new(text.as_bytes()).with_max_line_len(max),
            None => Reader::new(text.as_bytes()),
        }
    }
    let built = reader(text, max_line)
        .games::<Bitboards>()
        .map(|g| g.map(|g| g.game.moves().len()).map_err(|e| e.to_string()))
        .collect();
    let mut reader = reader(text, max_line);
    let mut replay = Replay::<Bitboards>::new().check_variations(true);
    let mut replayed = Vec::new();
    loop {
        match reader.read_game(&mut replay) {
            Ok(Some(g)) => replayed.push(Ok(g.plies as usize)),
            Ok(None) => break,
            Err(e) => replayed.push(Err(e.to_string())),
        }
    }
    (built, replayed)
}

// Round trips and readings over random games and random text.
mod random;
