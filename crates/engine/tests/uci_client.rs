//! The `fianchetto-uci` client driving a real engine, our own binary: the
//! handshake, typed options, every kind of search, and a short match.
//! (`/usr/games/stockfish` is driven too where it is installed.)

use fianchetto_board::{Bitboards, Board};
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_uci::matches::{run, EngineSpec, Limit, MatchConfig};
use fianchetto_uci::{ClientError, Engine, EngineConfig, Go, OptionKind, OptionValue, Score};
use std::time::{Duration, Instant};

fn ours() -> EngineConfig {
    EngineConfig::new(env!("CARGO_BIN_EXE_fianchetto"))
}

fn game(fen: &str, moves: &[&str]) -> Game<Bitboards> {
    let mut game = Game::new(Bitboards::from_fen(fen).expect("a valid FEN"));
    for m in moves {
        game.play_uci(m).expect("a legal move");
    }
    game
}

#[test]
fn handshake_and_typed_options() {
    let mut e = Engine::start(ours()).expect("the engine starts");
    assert!(e.name().starts_with("Fianchetto"), "{}", e.name());
    let hash = e.option("hash").expect("Hash is declared");
    assert_eq!(
        hash.kind,
        OptionKind::Spin {
            default: 64,
            min: 1,
            max: 65536
        }
    );
    // Refused before anything is sent.
    let err = e.set_option("Hash", Some("0")).unwrap_err();
    assert!(matches!(err, ClientError::Option { .. }), "{err}");
    assert!(e.set_option("Algorithm", Some("random")).is_err());
    assert!(e.set_option("No Such Option", Some("1")).is_err());
    assert!(e.set_option_value("Ponder", &OptionValue::Spin(1)).is_err());
    // Accepted, and the engine agrees (no error comes back, it is ready).
    e.set_option("Hash", Some("16")).expect("in range");
    e.set_option_value("Evaluation", &OptionValue::Combo("Classical".into()))
        .expect("a choice");
    e.set_option("Clear Hash", None).expect("a button");
    e.is_ready().expect("ready");
    assert!(e.warnings().is_empty(), "{:?}", e.warnings());
    assert!(e.quit().is_some_and(|s| s.success()));
}

#[test]
fn searches_under_every_limit() {
    let mut e = Engine::start(ours()).expect("the engine starts");
    e.set_option("Hash", Some("16")).expect("in range");
    e.new_game().expect("ready");
    let g = game(fianchetto_board::START_FEN, &["e2e4", "e7e5"]);
    let ms = Duration::from_millis;
    for go in [
        Go::depth(5),
        Go::nodes(5_000),
        Go::movetime(ms(100)),
        Go::clock(ms(2_000), ms(2_000), ms(20), ms(20)),
        Go {
            movestogo: Some(10),
            ..Go::clock(ms(1_000), ms(1_000), ms(0), ms(0))
        },
    ] {
        let played = e.play(&g, &go).expect("an answer");
        let best = played.best.expect("a move");
        assert!(g.board().is_legal(best), "{go}");
        // The PV came as checked moves, starting with the best one.
        assert_eq!(played.info.pv.first(), Some(&best), "{go}");
        assert!(played.info.depth.is_some_and(|d| d >= 1), "{go}");
        assert!(played.info.score.is_some(), "{go}");
    }
    // searchmoves: only a2a3 may be played.
    let a3 = Go {
        searchmoves: vec!["a2a3".parse().expect("a move")],
        ..Go::depth(3)
    };
    let played = e
        .play(&game(fianchetto_board::START_FEN, &[]), &a3)
        .expect("an answer");
    assert_eq!(played.best.map(|m| m.to_string()).as_deref(), Some("a2a3"));
    // An illegal searchmove is refused before anything is sent.
    let bad = Go {
        searchmoves: vec!["e2e5".parse().expect("well formed")],
        ..Go::depth(3)
    };
    assert!(matches!(e.play(&g, &bad), Err(ClientError::Usage { .. })));
    // go mate: a mate in one, reported as such.
    let mate = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", &[]);
    let played = e
        .play(
            &mate,
            &Go {
                mate: Some(1),
                ..Go::default()
            },
        )
        .expect("an answer");
    assert_eq!(played.best.map(|m| m.to_string()).as_deref(), Some("a1a8"));
    assert_eq!(played.info.score.map(|s| s.score), Some(Score::Mate(1)));
    // A position without moves: no move, no error.
    let mated = game(
        fianchetto_board::START_FEN,
        &["f2f3", "e7e5", "g2g4", "d8h4"],
    );
    assert_eq!(e.play(&mated, &Go::depth(3)).expect("an answer").best, None);
    e.quit();
}

#[test]
fn multipv_infinite_stop_and_ponderhit() {
    let mut e = Engine::start(ours()).expect("the engine starts");
    e.set_option("MultiPV", Some("3")).expect("in range");
    let g = game(fianchetto_board::START_FEN, &[]);
    let played = e.play(&g, &Go::depth(4)).expect("an answer");
    assert_eq!(played.lines.len(), 3);
    let firsts: Vec<_> = played.lines.iter().map(|l| l.pv.first().copied()).collect();
    assert!(firsts.iter().all(Option::is_some), "{firsts:?}");
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2]);
    e.set_option("MultiPV", Some("1")).expect("in range");

    // Infinite: reports until told to stop, then answers at once.
    let mut search = e.go(&g, &Go::infinite()).expect("searching");
    let mut reports = 0;
    while reports < 3 {
        let info = search.next_info().expect("reports").expect("not done");
        reports += usize::from(info.depth.is_some());
    }
    let t = Instant::now();
    search.stop().expect("stopped");
    let played = search.wait().expect("an answer");
    assert!(t.elapsed() < Duration::from_secs(2));
    assert!(played.best.is_some_and(|m| g.board().is_legal(m)));

    // Ponder: on the opponent's time until ponderhit, then on our clock.
    let after = game(fianchetto_board::START_FEN, &["e2e4"]);
    let ms = Duration::from_millis;
    let go = Go {
        ponder: true,
        ..Go::clock(ms(3_000), ms(3_000), ms(0), ms(0))
    };
    let mut search = e.go(&after, &go).expect("pondering");
    std::thread::sleep(ms(100));
    search.ponderhit().expect("sent");
    let played = search.wait().expect("an answer");
    assert!(played.best.is_some_and(|m| after.board().is_legal(m)));
    e.quit();
}

#[test]
fn a_short_match_against_itself() {
    let mut a = EngineSpec::new(ours());
    a.options.push(("Hash".into(), "8".into()));
    let mut config = MatchConfig::new(a, EngineSpec::new(ours()), Limit::Nodes(2_000));
    config.games = 2;
    let mut texts = Vec::new();
    let summary = run(&config, |event| {
        if let fianchetto_uci::matches::Event::Game { record, .. } = event {
            texts.push(record.pgn_text());
        }
    })
    .expect("the match runs");
    assert_eq!(summary.tally.games(), 2);
    assert_eq!(
        summary.faults.by_a + summary.faults.by_b,
        0,
        "{:?}",
        summary.faults
    );
    assert_eq!(summary.tally.pairs.iter().sum::<u64>(), 1);
    for text in &texts {
        assert!(text.contains("[%eval "), "{text}");
        assert!(text.contains("[Termination "), "{text}");
        // The record reads back, every move legal.
        let back: fianchetto_movegen::pgn::PgnGame<Bitboards> = text.parse().expect("valid PGN");
        assert!(back.game.moves().len() >= 2);
    }
    assert!(summary.score_line().starts_with("Score of Fianchetto"));
}

#[test]
fn stockfish_where_installed() {
    let path = "/usr/games/stockfish";
    if !std::path::Path::new(path).exists() {
        eprintln!("{path} is not installed: skipped");
        return;
    }
    let mut e = Engine::start(EngineConfig::new(path)).expect("stockfish starts");
    assert!(e.name().starts_with("Stockfish"), "{}", e.name());
    e.set_option("Threads", Some("1")).expect("declared");
    let g = game(fianchetto_board::START_FEN, &["d2d4"]);
    let played = e.play(&g, &Go::nodes(20_000)).expect("an answer");
    assert!(played.best.is_some_and(|m| g.board().is_legal(m)));
    assert!(played.info.pv.len() >= 2);
    // Its banner line is the only thing not understood: no move was cut.
    assert!(
        e.warnings()
            .iter()
            .all(|w| w.contains("unknown reply `Stockfish`")),
        "{:?}",
        e.warnings()
    );
    e.quit();
}
