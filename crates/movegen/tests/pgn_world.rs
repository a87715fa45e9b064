//! PGN as real programs write it: Chess960 games, null moves, moves in UCI
//! notation, variants we do not play, comment commands, and recovery after
//! a malformed game, each read, checked and written back.

use core::time::Duration;
use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_movegen::pgn::{
    Arrow, Eval, MarkColor, PgnErrorKind, PgnGame, PgnWarningKind, ReadError, Reader, Replay,
    SquareMark,
};
use fianchetto_movegen::MoveGen;

type G = PgnGame<Bitboards>;

fn read(text: &str) -> Vec<Result<G, ReadError>> {
    Reader::new(text.as_bytes()).games::<Bitboards>().collect()
}

fn one(text: &str) -> G {
    match read(text).as_slice() {
        [Ok(g)] => g.clone(),
        other => panic!("{text}: {other:?}"),
    }
}

fn sans(g: &G) -> String {
    g.san_moves().unwrap_or_else(|e| panic!("{e}")).join(" ")
}

#[test]
fn chess960_games_read_and_write_back_in_chess960() {
    // Shredder-FEN castling, the Variant spelled as cutechess writes it.
    let text = "[Variant \"fischerandom\"]\n[FEN \"nrbbkqrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBKQRN w GBgb - 0 1\"]\n\n\
                1. d4 a5 2. a3 d5 3. f4 c5 4. Nb3 Bf5 5. e4 e6 6. g3 e5 7. Qc4 Be7 8. O-O O-O-O *\n";
    let g = one(text);
    assert_eq!(g.game.moves().len(), 16);
    assert!(!g.game.start().castling().is_standard());
    // White's O-O: the king from e1 to g1, the rook from g1 to f1.
    let board = g.game.board();
    assert_eq!(
        board
            .piece_at(fianchetto_board::Square::G1)
            .map(|p| p.char()),
        Some('K')
    );
    assert_eq!(
        board
            .piece_at(fianchetto_board::Square::F1)
            .map(|p| p.char()),
        Some('R')
    );
    assert_eq!(
        board
            .piece_at(fianchetto_board::Square::C8)
            .map(|p| p.char()),
        Some('k')
    );
    // Written back with its Variant, the FEN as X-FEN, castling as O-O.
    let out = g.to_pgn().unwrap_or_else(|e| panic!("{e}"));
    assert!(out.contains("[Variant \"fischerandom\"]\n"), "{out}");
    assert!(
        out.contains("[FEN \"nrbbkqrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBKQRN w KQkq - 0 1\"]"),
        "{out}"
    );
    assert!(out.contains("8. O-O O-O-O\n*"), "{out}");
    let back = one(&out);
    assert_eq!(back.game.moves(), g.game.moves());

    // A Chess960 start without a Variant tag gets one when written.
    let mut bare = g.clone();
    bare.tags.remove("Variant");
    let out = bare.to_pgn().unwrap_or_else(|e| panic!("{e}"));
    assert!(out.contains("[Variant \"Chess960\"]\n"), "{out}");
    assert_eq!(one(&out).game.moves(), g.game.moves());

    // Every spelling, in any case.
    for variant in [
        "Chess960",
        "chess 960",
        "FischeRandom",
        "fischerrandom",
        "Fischer Random",
    ] {
        let text = format!("[Variant \"{variant}\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *\n");
        assert_eq!(one(&text).game.moves().len(), 7, "{variant}");
    }
}

#[test]
fn variants_we_do_not_play_are_refused_and_reading_goes_on() {
    let text = "[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 *\n\n\
                [Variant \"Atomic\"]\n\n1. e4 *\n\n\
                [Variant \"Standard\"]\n\n1. d4 *\n";
    let all = read(text);
    assert_eq!(all.len(), 3);
    for (i, name) in [(0, "Crazyhouse"), (1, "Atomic")] {
        match &all[i] {
            Err(ReadError::Game(e)) => {
                assert_eq!(e.game, i as u64 + 1);
                assert_eq!(
                    e.to_string(),
                    format!(
                        "game {}, line {}, at `[Variant \"{name}\"]`: unsupported: the variant \"{name}\"; \
                         only standard chess and Chess960 are read",
                        i + 1,
                        4 * i + 1
                    )
                );
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(matches!(&all[2], Ok(g) if sans(g) == "d4"));
}

#[test]
fn null_moves_read_play_and_write_back() {
    let text = "1. e4 -- 2. d4 Z0 3. Nf3 (3. c4 0000 4. Nc3) 3... e5 *\n";
    let g = one(text);
    assert_eq!(g.game.moves()[1], Move::NULL);
    assert_eq!(g.game.moves()[3], Move::NULL);
    assert_eq!(sans(&g), "e4 -- d4 -- Nf3 e5");
    let variation = &g.notes[4].variations[0];
    assert_eq!(variation.moves[1].mv, Move::NULL);
    let out = g.to_pgn().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.ends_with("\n\n1. e4 -- 2. d4 -- 3. Nf3 (3. c4 -- 4. Nc3) 3... e5 *\n"),
        "{out}"
    );
    assert_eq!(one(&out).game.moves(), g.game.moves());
    // The lean replay counts them as plies.
    let mut reader = Reader::new(text.as_bytes());
    let replayed = reader.read_game(&mut Replay::<Bitboards>::new().check_variations(true));
    assert!(matches!(replayed, Ok(Some(r)) if r.plies == 6));
    // A null move in check is refused, naming the position.
    match read("1. e4 f5 2. Qh5+ -- *").as_slice() {
        [Err(ReadError::Game(e))] => {
            assert_eq!(e.token, "--");
            assert!(
                matches!(e.kind, PgnErrorKind::NullMoveInCheck { .. }),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn uci_moves_read_with_a_warning() {
    let g = one("1. e2e4 e7e5 2. g1f3 Nc6 3. f1c4 g8f6 4. e1g1 *\n");
    assert_eq!(sans(&g), "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O");
    assert_eq!(g.warnings.len(), 6);
    let w = &g.warnings[2];
    assert_eq!((w.game, w.line, w.token.as_str()), (1, 1, "g1f3"));
    assert_eq!(w.kind, PgnWarningKind::UciMove);
    assert_eq!(
        w.to_string(),
        "game 1, line 1, at `g1f3`: a move in UCI notation, not SAN (read as UCI)"
    );
    let mut reader = Reader::new("1. e2e4 e5 *\n\n1. d2d4 *\n".as_bytes());
    let mut replay = Replay::<Bitboards>::new();
    while reader.read_game(&mut replay).ok().flatten().is_some() {}
    assert_eq!(
        (reader.games_read(), reader.errors(), reader.warnings()),
        (2, 0, 2)
    );
    // An illegal one is an error.
    assert!(matches!(
        read("1. e2e5 *").as_slice(),
        [Err(ReadError::Game(e))] if matches!(e.kind, PgnErrorKind::Uci(_))
    ));
}

#[test]
fn irregular_but_readable_input_gives_warnings() {
    let g = one("[Event \"x\"\n[[Site \"y\"]]\n[Round \"3\"]\n\n1. e4 e5) 2. Nf3 (2. Nc3 Nf6\n");
    assert_eq!(g.tags.get("Round"), Some("3"));
    assert_eq!(g.tags.len(), 1);
    let kinds: Vec<PgnWarningKind> = g.warnings.iter().map(|w| w.kind.clone()).collect();
    assert_eq!(
        kinds,
        [
            PgnWarningKind::MalformedTag("the closing `]` is missing"),
            PgnWarningKind::MalformedTag(
                "the tag name is missing or has a character other than letters, digits and _"
            ),
            PgnWarningKind::UnmatchedClose,
            PgnWarningKind::UnclosedVariation,
        ]
    );
    assert_eq!(sans(&g), "e4 e5 Nf3");
    assert_eq!(g.notes[2].variations[0].moves.len(), 2);
}

#[test]
fn a_game_after_a_malformed_one_is_never_lost() {
    // The case: a game without tags right after a malformed one.
    let text = "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n1. d4 d5 *\n";
    let all = read(text);
    assert_eq!(all.len(), 2);
    assert!(matches!(&all[0], Err(ReadError::Game(e)) if e.game == 1 && e.token == "Ke3"));
    assert!(matches!(&all[1], Ok(g) if sans(g) == "d4 d5"));
    // Errors anywhere in a game (tags, movetext, comments over blank
    // lines) cost that game only.
    let text = "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n\
                1. e4 <e5> {a comment\n\nwith a blank line} 2. d4 *\n\n\
                1. c4 *\n\n\
                1. Nf3 (1. Ke2 {oops\n\n} *\n\n\
                1. g3 *\n";
    let all = read(text);
    let good: Vec<String> = all
        .iter()
        .filter_map(|g| g.as_ref().ok())
        .map(sans)
        .collect();
    assert_eq!(good, ["c4", "g3"]);
    assert_eq!(all.len(), 5);
}

#[test]
fn byte_order_marks_and_escapes() {
    let text =
        "\u{feff}[Event \"one\"]\n\n1. e4 *\n\n\u{feff}[Event \"two\"]\n% escape\n\n1. d4 *\n";
    let all: Vec<G> = read(text)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].tags.get("Event"), Some("two"));
}

#[test]
fn comment_commands_are_typed_and_written_back() {
    let text = "[Event \"clocks\"]\n\n\
        { [%csl Gd4] Start } 1. e4 { [%eval 0.17] [%clk 0:05:00] } 1... e5 { [%eval #-3,20] [%clk 1:02:03.5] Hm }\n\
        2. Nf3 { [%emt 0:00:12] [%cal Ge2e4,Rd1d8] [%unknown 1] } *\n";
    let g = one(text);
    assert_eq!(g.comments, ["Start"]);
    assert_eq!(
        g.commands.squares,
        [SquareMark {
            color: MarkColor::Green,
            square: fianchetto_board::Square::D4
        }]
    );
    let n0 = g.annotations(0).unwrap_or_else(|| panic!("move 0"));
    assert_eq!(n0.commands.clock, Some(Duration::from_secs(300)));
    assert_eq!(n0.commands.eval, Some(Eval::centipawns(17)));
    assert!(n0.comments.is_empty());
    let n1 = g.annotations(1).unwrap_or_else(|| panic!("move 1"));
    assert_eq!(n1.commands.eval, Some(Eval::mate(-3).with_depth(20)));
    assert_eq!(n1.commands.clock, Some(Duration::from_millis(3_723_500)));
    assert_eq!(n1.comments, ["Hm"]);
    let n2 = g.annotations(2).unwrap_or_else(|| panic!("move 2"));
    assert_eq!(n2.commands.elapsed, Some(Duration::from_secs(12)));
    assert_eq!(
        n2.commands.arrows[1],
        Arrow {
            color: MarkColor::Red,
            from: fianchetto_board::Square::D1,
            to: fianchetto_board::Square::D8
        }
    );
    assert_eq!(n2.comments, ["[%unknown 1]"]);
    // Written back: the commands reproduced, the text after them.
    let out = g.to_pgn().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.ends_with(
            "\n\n{ [%csl Gd4] Start } 1. e4 { [%eval 0.17] [%clk 0:05:00] } 1... e5 {\n\
             [%eval #-3,20] [%clk 1:02:03.5] Hm } 2. Nf3 { [%emt 0:00:12] [%cal Ge2e4,Rd1d8]\n\
             [%unknown 1] } *\n"
        ),
        "{out}"
    );
    let back = one(&out);
    assert_eq!(
        (back.comments.clone(), back.commands.clone()),
        (g.comments.clone(), g.commands.clone())
    );
    assert_eq!(back.notes, g.notes);
}

#[test]
fn a_game_with_clocks_and_evals_written_from_scratch() {
    let mut g = G::new(fianchetto_movegen::Game::new(Bitboards::startpos()));
    let mut clock = 180;
    for (san, cp) in [("e4", 20), ("c5", 25), ("Nf3", 18)] {
        g.play_san(san).unwrap_or_else(|e| panic!("{e}"));
        let last = g.game.moves().len() - 1;
        let notes = g.annotations_mut(last).unwrap_or_else(|| panic!("notes"));
        notes.commands.clock = Some(Duration::from_secs(clock));
        notes.commands.eval = Some(Eval::centipawns(cp));
        clock -= 2;
    }
    let out = g.to_pgn().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.ends_with(
            "\n\n1. e4 { [%eval 0.20] [%clk 0:03:00] } 1... c5 { [%eval 0.25] [%clk 0:02:58] }\n\
             2. Nf3 { [%eval 0.18] [%clk 0:02:56] } *\n"
        ),
        "{out}"
    );
    assert_eq!(one(&out).notes, g.notes);
    assert!(g.game.board().legal_moves().len() > 20);
}

/// The example of docs/pgn.md, as written there (with the crates' own
/// paths for the facade's).
#[test]
fn the_docs_example_runs() -> Result<(), Box<dyn std::error::Error>> {
    let pgn = "[Variant \"Chess960\"]\n[FEN \"nrbbkqrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBKQRN w GBgb - 0 1\"]\n\n\
               1. d4 { [%eval 0.25,18] [%clk 0:03:00] } 1... a5 2. -- a4 *\n";
    let game: PgnGame<Bitboards> = pgn.parse()?;
    assert_eq!(game.san_moves()?, ["d4", "a5", "--", "a4"]);
    let notes = game.annotations(0).ok_or("no first move")?;
    assert_eq!(notes.commands.clock, Some(Duration::from_secs(180)));
    assert_eq!(
        notes.commands.eval,
        Some(Eval::centipawns(25).with_depth(18))
    );
    assert!(game.warnings.is_empty());
    Ok(())
}
