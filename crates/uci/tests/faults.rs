//! The client and the match runner against engines that misbehave.
//!
//! This test binary is also the misbehaving engine: run with `--engine
//! BEHAVIOUR`, it speaks UCI on its standard input and output (playing the
//! first legal move, as a real engine would play some legal move) until
//! its behaviour says otherwise. Without it, it runs the tests, which start
//! copies of itself as engines. (`harness = false` in Cargo.toml.)

use fianchetto_board::{Bitboards, Board};
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_uci::matches::{run, EngineSpec, Event, FaultKind, Limit, MatchConfig};
use fianchetto_uci::{ClientError, Command, Engine, EngineConfig, Go, OptionValue};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// How the fake engine behaves at its `go` number `at` (counted over the
/// whole process, from 1).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Behaviour {
    /// Plays legal moves.
    Good,
    /// Exits at that `go`.
    CrashAt(u32),
    /// Stops answering at that `go` (even `stop`).
    HangAt(u32),
    /// Answers an illegal move at that `go`.
    IllegalAt(u32),
    /// Answers only once it is told to stop.
    OnlyOnStop,
    /// Writes a PV with an illegal second move and a bad `info` line.
    BadInfo,
    /// At its first `go`, writes 64 MiB with no newline, then says nothing.
    Flood,
    /// At its first `go`, writes lines with terminal escape sequences (ESC,
    /// OSC, BEL, C1 controls), then exits.
    Escapes,
}

/// How much the flooding engine writes without a newline: far beyond the
/// client's limit on a line, far below what would hurt the machine.
const FLOOD: usize = 64 << 20;

fn behaviour(arg: &str) -> Behaviour {
    let (name, n) = arg.split_once('=').unwrap_or((arg, "1"));
    let n = n.parse().unwrap_or(1);
    match name {
        "crash" => Behaviour::CrashAt(n),
        "hang" => Behaviour::HangAt(n),
        "illegal" => Behaviour::IllegalAt(n),
        "only-on-stop" => Behaviour::OnlyOnStop,
        "bad-info" => Behaviour::BadInfo,
        "flood" => Behaviour::Flood,
        "escapes" => Behaviour::Escapes,
        _ => Behaviour::Good,
    }
}

/// The fake engine's main loop.
fn fake_engine(behaviour: Behaviour) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut say = |line: &str| {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let mut game = Game::new(Bitboards::startpos());
    let mut searches = 0;
    let mut pending: Option<String> = None;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let Ok(cmd) = line.parse::<Command>() else {
            continue;
        };
        match cmd {
            Command::Uci if behaviour == Behaviour::Escapes => {
                say("id name Evil\x1b[2J");
                say("uciok");
            }
            Command::Uci => {
                say("id name Fake");
                say("id author the tests");
                say("option name Hash type spin default 16 min 1 max 64");
                say("option name Style type combo default Solid var Solid var Wild");
                say("uciok");
            }
            Command::IsReady => say("readyok"),
            Command::Position(p) => {
                let start = match &p.fen {
                    Some(fen) => Bitboards::from_fen(fen).unwrap_or_else(|_| Bitboards::startpos()),
                    None => Bitboards::startpos(),
                };
                game = Game::new(start);
                for mv in &p.moves {
                    if let Ok(m) = mv.to_move(game.board()) {
                        game.play_unchecked(m);
                    }
                }
            }
            Command::Go(_) => {
                searches += 1;
                let legal = game.board().legal_moves();
                let best = legal.first().map_or("0000".to_string(), |m| m.to_string());
                match behaviour {
                    Behaviour::CrashAt(n) if searches >= n => {
                        say("info string about to crash");
                        std::process::exit(3);
                    }
                    Behaviour::HangAt(n) if searches >= n => {
                        // Read and ignore everything from now on.
                        for _ in stdin.lock().lines() {}
                        return;
                    }
                    Behaviour::IllegalAt(n) if searches >= n => say("bestmove a1a1"),
                    Behaviour::OnlyOnStop => pending = Some(best),
                    Behaviour::Flood => {
                        let chunk = vec![b'x'; 1 << 16];
                        let mut raw = std::io::stdout();
                        for _ in 0..FLOOD / chunk.len() {
                            if raw.write_all(&chunk).is_err() {
                                return;
                            }
                        }
                        let _ = raw.flush();
                        for _ in stdin.lock().lines() {}
                        return;
                    }
                    Behaviour::Escapes => {
                        say("info string \x1b]0;owned\x07title \x1b[31mred\x1b[0m");
                        say("info string c1 \u{9b}2J bell \x07 del \x7f tab\tend");
                        std::process::exit(3);
                    }
                    Behaviour::BadInfo => {
                        say("info depth 1 score cp oops");
                        say(&format!("info depth 2 score cp 12 pv {best} e2e5"));
                        say(&format!("bestmove {best} ponder a1a1"));
                    }
                    _ => {
                        say(&format!("info depth 1 score cp 0 nodes 1 pv {best}"));
                        say(&format!("bestmove {best}"));
                    }
                }
            }
            Command::Stop => {
                if let Some(best) = pending.take() {
                    say(&format!("bestmove {best}"));
                }
            }
            Command::Quit => return,
            _ => {}
        }
    }
}

fn fake(behaviour: &str) -> EngineConfig {
    let exe = std::env::current_exe().expect("the test binary has a path");
    let mut config = EngineConfig::new(exe.to_string_lossy());
    config.args = vec!["--engine".into(), behaviour.into()];
    config.grace = Duration::from_millis(300);
    config.search_timeout = Duration::from_secs(2);
    config
}

fn handshake_and_options() {
    let mut e = Engine::start(fake("good")).expect("starts");
    assert_eq!((e.name(), e.author()), ("Fake", "the tests"));
    assert_eq!(e.options().len(), 2);
    e.set_option("hash", Some("32")).expect("in range");
    let refused = e.set_option("Hash", Some("65")).unwrap_err().to_string();
    assert_eq!(
        refused,
        "engine Fake: option `Hash` takes a whole number from 1 to 64, got `65`"
    );
    assert!(matches!(
        e.set_option("Threads", Some("2")),
        Err(ClientError::Option { .. })
    ));
    assert!(e
        .set_option_value("Style", &OptionValue::Combo("wild".into()))
        .is_ok());
    assert!(e.set_option_value("Style", &OptionValue::Spin(1)).is_err());
    e.is_ready().expect("ready");
    let game = Game::new(Bitboards::startpos());
    let played = e.play(&game, &Go::depth(1)).expect("plays");
    assert!(played.best.is_some_and(|m| game.board().is_legal(m)));
    assert_eq!(played.info.depth, Some(1));
    assert!(e.quit().is_some_and(|s| s.success()));
}

fn crash_is_reported() {
    let mut e = Engine::start(fake("crash=1")).expect("starts");
    let game = Game::new(Bitboards::startpos());
    let err = e.play(&game, &Go::depth(1)).unwrap_err();
    assert!(err.needs_restart());
    let text = err.to_string();
    assert!(
        text.contains("terminated") && text.contains("about to crash"),
        "{text}"
    );
}

fn hang_is_reported_in_time() {
    let mut e = Engine::start(fake("hang=1")).expect("starts");
    let game = Game::new(Bitboards::startpos());
    let t = Instant::now();
    let err = e
        .play(&game, &Go::movetime(Duration::from_millis(100)))
        .unwrap_err();
    // movetime 100 ms + 300 ms grace, then `stop` and 300 ms more.
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(matches!(err, ClientError::Timeout { .. }), "{err}");
}

fn illegal_move_is_reported() {
    let mut e = Engine::start(fake("illegal=1")).expect("starts");
    let game = Game::new(Bitboards::startpos());
    let err = e.play(&game, &Go::depth(1)).unwrap_err();
    assert!(matches!(err, ClientError::IllegalMove { .. }), "{err}");
    assert!(!err.needs_restart());
}

fn stop_ends_an_infinite_search() {
    let mut e = Engine::start(fake("only-on-stop")).expect("starts");
    let game = Game::new(Bitboards::startpos());
    let mut search = e.go(&game, &Go::infinite()).expect("starts searching");
    search.stop().expect("stop is sent");
    let played = search.wait().expect("answers after stop");
    assert!(played.best.is_some());
    // A search dropped unfinished is stopped, and the next one is in step.
    drop(e.go(&game, &Go::infinite()).expect("starts"));
    e.is_ready().expect("in step again");
}

fn bad_info_is_cut_and_noted() {
    let mut e = Engine::start(fake("bad-info")).expect("starts");
    let game = Game::new(Bitboards::startpos());
    let played = e.play(&game, &Go::depth(2)).expect("the move is legal");
    assert_eq!(played.info.pv.len(), 1, "the illegal second move is cut");
    assert_eq!(played.ponder, None, "the illegal ponder move is dropped");
    let warnings = e.warnings().join("\n");
    assert!(warnings.contains("`pv` move 2 (`e2e5`)"), "{warnings}");
    assert!(warnings.contains("oops"), "{warnings}");
    assert!(warnings.contains("ponder move `a1a1`"), "{warnings}");
}

/// The peak resident memory of this process, in bytes (Linux only).
fn peak_resident() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn a_flooding_engine_is_a_fault_with_memory_bounded() {
    let before = peak_resident();
    let mut e = Engine::start(fake("flood")).expect("starts");
    let game = Game::new(Bitboards::startpos());
    let t = Instant::now();
    let err = e.play(&game, &Go::depth(1)).unwrap_err();
    assert!(matches!(err, ClientError::LineTooLong { .. }), "{err}");
    assert!(err.needs_restart());
    let text = err.to_string();
    assert!(text.contains("longer than 1048576 bytes"), "{text}");
    // Found by its length, not by a time-out.
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // The engine is out of step from then on: every later read says so.
    assert!(matches!(e.is_ready(), Err(ClientError::LineTooLong { .. })));
    drop(e);
    if let (Some(before), Some(after)) = (before, peak_resident()) {
        let grown = after.saturating_sub(before);
        assert!(grown < (FLOOD / 4) as u64, "grew by {grown} bytes");
    }
    // In a match it is a fault of that engine, and the match goes on.
    let mut config = MatchConfig::new(
        EngineSpec::new(fake("good")),
        EngineSpec::new(fake("flood")),
        Limit::Nodes(1),
    );
    config.games = 2;
    let summary = run(&config, |_| {}).expect("the match runs");
    assert_eq!(summary.tally.games(), 2);
    let f = summary.faults;
    assert_eq!((f.hang, f.by_b), (2, 2), "{f:?}");
}

fn an_engines_last_lines_are_printed_escaped() {
    let mut e = Engine::start(fake("escapes")).expect("starts");
    let game = Game::new(Bitboards::startpos());
    assert_eq!(e.name(), r"Evil\x1b[2J");
    let text = e.play(&game, &Go::depth(1)).unwrap_err().to_string();
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    assert!(
        text.contains(r"\x1b]0;owned\x07title \x1b[31mred\x1b[0m"),
        "{text}"
    );
    assert!(
        text.contains(r"c1 \u{9b}2J bell \x07 del \x7f tab\x09end"),
        "{text}"
    );
}

fn a_match_survives_crashes_and_keeps_its_games() {
    // B crashes at its 3rd search of each process (before a repetition
    // of first-legal-move play can end a game): in every game it is
    // restarted after, and the match still plays all its games.
    let mut config = MatchConfig::new(
        EngineSpec::new(fake("good")),
        EngineSpec::new(fake("crash=3")),
        Limit::Nodes(1),
    );
    config.games = 4;
    let mut restarts = 0;
    let mut games = Vec::new();
    let summary = run(&config, |event| match event {
        Event::Game { record, .. } => games.push(record.clone()),
        Event::Restarted { which, .. } => {
            assert_eq!(which, "B");
            restarts += 1;
        }
    })
    .expect("the match runs");
    assert_eq!(games.len(), 4);
    assert_eq!(summary.tally.games(), 4);
    assert!(summary.faults.crash >= 1 && summary.faults.by_b == summary.faults.crash);
    assert_eq!(summary.faults.restarts, restarts);
    let crashed: Vec<_> = games
        .iter()
        .filter(|g| g.fault.as_ref().is_some_and(|f| f.kind == FaultKind::Crash))
        .collect();
    assert!(!crashed.is_empty());
    for g in &crashed {
        assert_eq!(g.a_points(), 1.0, "the crashing engine loses");
        assert_eq!(g.pgn.tags.get("Termination"), Some("abandoned"));
    }
    assert_eq!(summary.tally.pairs.iter().sum::<u64>(), 2);
    assert!(summary.score_line().starts_with("Score of Fake vs Fake: "));
}

fn a_match_counts_illegal_moves_and_hangs() {
    let mut config = MatchConfig::new(
        EngineSpec::new(fake("illegal=3")),
        EngineSpec::new(fake("hang=2")),
        Limit::Nodes(1),
    );
    config.games = 2;
    let summary = run(&config, |_| {}).expect("the match runs");
    assert_eq!(summary.tally.games(), 2);
    let f = summary.faults;
    assert_eq!(f.illegal + f.hang, 2, "{f:?}");
    assert!(f.hang >= 1 && f.restarts >= 1, "{f:?}");
}

fn a_match_names_its_engines() {
    // The same engine on both sides: named, the two are told apart in the
    // PGN tags and the results; unnamed, they keep their `id name`.
    let mut config = MatchConfig::new(
        EngineSpec::new(fake("good")).named("Fake (new)"),
        EngineSpec::new(fake("good")).named("Fake (old)"),
        Limit::Nodes(1),
    );
    config.games = 2;
    let mut tags = Vec::new();
    let summary = run(&config, |event| {
        if let Event::Game { record, .. } = event {
            let tag = |name| record.pgn.tags.get(name).unwrap_or_default().to_string();
            tags.push((record.a_white, tag("White"), tag("Black")));
        }
    })
    .expect("the match runs");
    assert_eq!(
        (summary.a.as_str(), summary.b.as_str()),
        ("Fake (new)", "Fake (old)")
    );
    assert!(summary
        .score_line()
        .starts_with("Score of Fake (new) vs Fake (old): "));
    assert_eq!(tags.len(), 2);
    for (a_white, white, black) in tags {
        let (a, b) = ("Fake (new)".to_string(), "Fake (old)".to_string());
        assert_eq!((white, black), if a_white { (a, b) } else { (b, a) });
    }
    // One named, one not.
    let mut config = MatchConfig::new(
        EngineSpec::new(fake("good")).named("Fake 2"),
        EngineSpec::new(fake("good")),
        Limit::Nodes(1),
    );
    config.games = 1;
    let summary = run(&config, |_| {}).expect("the match runs");
    assert!(summary
        .score_line()
        .starts_with("Score of Fake 2 vs Fake: "));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--engine") {
        fake_engine(behaviour(args.get(i + 1).map_or("good", String::as_str)));
        return;
    }
    let tests: &[(&str, fn())] = &[
        ("handshake_and_options", handshake_and_options),
        ("crash_is_reported", crash_is_reported),
        ("hang_is_reported_in_time", hang_is_reported_in_time),
        ("illegal_move_is_reported", illegal_move_is_reported),
        ("stop_ends_an_infinite_search", stop_ends_an_infinite_search),
        ("bad_info_is_cut_and_noted", bad_info_is_cut_and_noted),
        (
            "a_match_survives_crashes_and_keeps_its_games",
            a_match_survives_crashes_and_keeps_its_games,
        ),
        (
            "a_match_counts_illegal_moves_and_hangs",
            a_match_counts_illegal_moves_and_hangs,
        ),
        ("a_match_names_its_engines", a_match_names_its_engines),
        (
            "a_flooding_engine_is_a_fault_with_memory_bounded",
            a_flooding_engine_is_a_fault_with_memory_bounded,
        ),
        (
            "an_engines_last_lines_are_printed_escaped",
            an_engines_last_lines_are_printed_escaped,
        ),
    ];
    let filter = args.iter().skip(1).find(|a| !a.starts_with('-'));
    for (name, test) in tests {
        if filter.is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        test();
        println!("test {name} ... ok");
    }
}
