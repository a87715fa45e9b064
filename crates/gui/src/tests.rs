//! The app's requests, answered without a socket or a browser: legal and
//! illegal moves, the engine's replies, errors and limits, live updates,
//! expiry, analysis and the Learn experiment.

use super::app::{App, Limits, Method, Reply};
use super::params::Params;
use super::session::Session;
use fianchetto_board::{Bitboards, Board};
use fianchetto_eval::nnue::Network;
use fianchetto_movegen::Game;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn app_with(limits: Limits) -> App {
    // NNUE is never picked in these tests (material is quick and exact):
    // a zero network is enough.
    App::new(Arc::new(Network::zero()), limits)
}

fn app() -> App {
    app_with(Limits::default())
}

fn post(app: &App, path: &str, pairs: &[(&str, &str)]) -> Reply {
    app.handle(Method::Post, path, &Params::of(pairs))
}

/// A new session whose engine plays `engine` with material at depth 1.
fn session(app: &App, engine: &str) -> String {
    let reply = post(app, "/api/session", &[]);
    assert_eq!(reply.status(), 200, "{}", reply.body());
    let body = reply.body();
    let start = body.find("\"session\":\"").expect("an id") + 11;
    let id = body[start..start + 32].to_string();
    let r = post(
        app,
        "/api/settings",
        &[
            ("session", &id),
            ("engine", engine),
            ("eval", "material"),
            ("limit", "depth"),
            ("value", "1"),
        ],
    );
    assert_eq!(r.status(), 200, "{}", r.body());
    id
}

fn state(app: &App, id: &str) -> String {
    app.handle(Method::Get, "/api/state", &Params::of(&[("session", id)]))
        .body()
        .to_string()
}

/// Waits (up to a minute: the machine may be busy) until `done` holds for
/// the session.
fn wait_until(app: &App, id: &str, done: impl Fn(&Session) -> bool) {
    let start = Instant::now();
    while !app.inspect(id, &done).expect("the session is open") {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out; state: {}",
            state(app, id)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn fen(app: &App, id: &str) -> String {
    app.inspect(id, |s| s.game.board().fen()).expect("open")
}

#[test]
fn the_page_and_its_parts_are_served() {
    let app = app();
    for (path, kind, has) in [
        ("/", "text/html", "<svg id=\"board\""),
        ("/app.js", "text/javascript", "EventSource"),
        ("/style.css", "text/css", "#board"),
        (
            "/api/options",
            "application/json",
            "\"algorithms\":[\"pvs\"",
        ),
    ] {
        match app.handle(Method::Get, path, &Params::default()) {
            Reply::Body {
                status,
                content_type,
                body,
                ..
            } => {
                assert_eq!(status, 200, "{path}");
                assert!(content_type.starts_with(kind), "{path}: {content_type}");
                assert!(body.contains(has), "{path}");
            }
            Reply::Events(_) => panic!("{path}: a stream"),
        }
    }
    // Nothing is loaded from elsewhere.
    let page = app.handle(Method::Get, "/", &Params::default());
    assert!(
        !page.body().contains("http"),
        "the page names no other site"
    );
}

#[test]
fn a_new_session_lists_the_legal_moves_with_san() {
    let app = app();
    let id = session(&app, "none");
    let s = state(&app, &id);
    assert!(
        s.contains(r#""e2":"wP""#) && s.contains(r#""e8":"bK""#),
        "{s}"
    );
    assert!(s.contains(r#"{"uci":"g1f3","from":"g1","to":"f3","promotion":null,"san":"Nf3"}"#));
    assert_eq!(s.matches("\"uci\"").count(), 20, "{s}");
    assert!(s.contains(r#""outcome":null"#));
    // The board library's picture, from White's side until flipped.
    assert!(
        s.contains(r#""svg":"\u003csvg "#) && s.contains(r#"data-square=\"e4\""#),
        "{s}"
    );
    assert!(s.contains(r#""flipped":false"#));
    let r = post(&app, "/api/flip", &[("session", &id)]);
    assert!(r.body().contains(r#""flipped":true"#));
    assert!(s.contains(r#"data-square=\"a1\" x=\"0\" y=\"700\""#), "{s}");
    assert!(r.body().contains(r#"data-square=\"a1\" x=\"700\" y=\"0\""#));
}

#[test]
fn legal_moves_are_played_and_illegal_ones_change_nothing() {
    let app = app();
    let id = session(&app, "none");
    let r = post(&app, "/api/move", &[("session", &id), ("move", "e2e4")]);
    assert_eq!(r.status(), 200, "{}", r.body());
    assert!(r.body().contains(r#""moves":[{"san":"e4","uci":"e2e4"}]"#));
    assert!(r.body().contains(r#""last":"e2e4""#));
    let before = fen(&app, &id);
    for (bad, said) in [
        ("e7e4", "e7e4"),
        ("e2e4", "e2e4"),
        ("zz", "zz"),
        ("e7e5e7e5e7", "not a move"),
        ("", ""),
    ] {
        let r = post(&app, "/api/move", &[("session", &id), ("move", bad)]);
        assert_eq!(r.status(), 400, "{bad}: {}", r.body());
        assert!(
            r.body().contains("\"error\"") && r.body().contains(said),
            "{}",
            r.body()
        );
        assert_eq!(fen(&app, &id), before, "{bad} changed the position");
    }
    // Promotion, in UCI with its piece.
    let r = post(
        &app,
        "/api/new",
        &[("session", &id), ("fen", "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")],
    );
    assert!(
        r.body().contains(r#""promotion":"n","san":"e8=N+""#),
        "{}",
        r.body()
    );
    let r = post(&app, "/api/move", &[("session", &id), ("move", "e7e8q")]);
    assert_eq!(r.status(), 200, "{}", r.body());
    assert!(r.body().contains(r#""e8":"wQ""#));
}

#[test]
fn the_engine_answers_with_a_legal_move() {
    let app = app();
    let id = session(&app, "black");
    let r = post(&app, "/api/move", &[("session", &id), ("move", "e2e4")]);
    assert_eq!(r.status(), 200, "{}", r.body());
    wait_until(&app, &id, |s| s.game.moves().len() == 2 && s.job.is_none());
    // The move list replays from the start: every move legal.
    let moves = app.inspect(&id, |s| s.game.moves().to_vec()).unwrap();
    let mut game = Game::new(Bitboards::startpos());
    for m in moves {
        game.play(m).expect("a legal move");
    }
    // Moving on the engine's turn is refused.
    post(
        &app,
        "/api/settings",
        &[("session", &id), ("engine", "white")],
    );
    wait_until(&app, &id, |s| s.game.moves().len() == 3 && s.job.is_none());
    post(
        &app,
        "/api/settings",
        &[
            ("session", &id),
            ("engine", "both"),
            ("limit", "time"),
            ("value", "60000"),
        ],
    );
    let r = post(&app, "/api/move", &[("session", &id), ("move", "d7d5")]);
    assert_eq!(r.status(), 409, "{}", r.body());
    assert!(r.body().contains("engine's turn"));
    // Stop makes it move now, with what it found; `go` makes it move for
    // the side to move once.
    let moves = app.inspect(&id, |s| s.game.moves().len()).unwrap();
    post(
        &app,
        "/api/settings",
        &[("session", &id), ("engine", "none")],
    );
    wait_until(&app, &id, |s| s.job.is_none());
    post(&app, "/api/go", &[("session", &id)]);
    post(&app, "/api/stop", &[("session", &id)]);
    wait_until(&app, &id, |s| {
        s.game.moves().len() == moves + 1 && s.job.is_none()
    });
}

#[test]
fn take_back_returns_to_the_users_turn() {
    let app = app();
    let id = session(&app, "black");
    post(&app, "/api/move", &[("session", &id), ("move", "d2d4")]);
    wait_until(&app, &id, |s| s.game.moves().len() == 2 && s.job.is_none());
    let r = post(&app, "/api/undo", &[("session", &id)]);
    assert_eq!(r.status(), 200, "{}", r.body());
    assert_eq!(fen(&app, &id), Bitboards::startpos().fen());
    let r = post(&app, "/api/undo", &[("session", &id)]);
    assert_eq!(r.status(), 409, "nothing to take back: {}", r.body());
}

#[test]
fn malformed_fen_and_pgn_are_refused_and_change_nothing() {
    let app = app();
    let id = session(&app, "none");
    post(&app, "/api/move", &[("session", &id), ("move", "g1f3")]);
    let before = fen(&app, &id);
    let long_fen = "8/".repeat(200);
    let long_pgn = "1. e4 ".repeat(20_000);
    for (field, text, status, said) in [
        ("fen", "rnbqkbnr/pppppppp/8/8 w KQkq", 400, "invalid FEN"),
        ("fen", "8/8/8/8/8/8/8/8 w - - 0 1", 400, "invalid FEN"),
        ("fen", long_fen.as_str(), 413, "the FEN"),
        ("pgn", "1. e4 e5 2. Ke3 *", 400, "invalid PGN"),
        ("pgn", "[Variant \"Atomic\"]\n1. e4 *", 400, "invalid PGN"),
        ("pgn", long_pgn.as_str(), 413, "the PGN"),
    ] {
        let r = post(&app, "/api/new", &[("session", &id), (field, text)]);
        assert_eq!(
            r.status(),
            status,
            "{field} {}: {}",
            &text[..20.min(text.len())],
            r.body()
        );
        assert!(r.body().contains(said), "{}", r.body());
        assert_eq!(fen(&app, &id), before);
    }
    let r = post(
        &app,
        "/api/new",
        &[
            ("session", &id),
            ("fen", "8/8/8/8/8/8/8/8 w - - 0 1"),
            ("pgn", "*"),
        ],
    );
    assert_eq!(r.status(), 400);
}

#[test]
fn a_pgn_is_read_and_written() {
    let app = app();
    let id = session(&app, "none");
    let pgn = "[White \"Anderssen\"]\n[Black \"Kieseritzky\"]\n\n1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ *";
    let r = post(&app, "/api/new", &[("session", &id), ("pgn", pgn)]);
    assert_eq!(r.status(), 200, "{}", r.body());
    assert!(
        r.body().contains(r#"{"san":"Qh4+","uci":"d8h4"}"#),
        "{}",
        r.body()
    );
    assert!(r.body().contains(r#""check":"e1""#));
    post(&app, "/api/move", &[("session", &id), ("move", "e1f1")]);
    let export = app.handle(Method::Get, "/api/pgn", &Params::of(&[("session", &id)]));
    assert_eq!(export.status(), 200);
    let text = export.body();
    assert!(text.contains("[White \"Anderssen\"]"), "{text}");
    assert!(
        text.contains("1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 *"),
        "{text}"
    );
}

#[test]
fn the_end_of_a_game_is_shown_with_its_reason() {
    let app = app();
    let id = session(&app, "none");
    post(&app, "/api/move", &[("session", &id), ("move", "f2f3")]);
    post(&app, "/api/move", &[("session", &id), ("move", "e7e5")]);
    post(&app, "/api/move", &[("session", &id), ("move", "g2g4")]);
    let r = post(&app, "/api/move", &[("session", &id), ("move", "d8h4")]);
    assert!(
        r.body().contains(
            r#""outcome":{"result":"0-1","reason":"checkmate","text":"Black wins by checkmate"}"#
        ),
        "{}",
        r.body()
    );
    let r = post(&app, "/api/move", &[("session", &id), ("move", "e1f2")]);
    assert_eq!(r.status(), 409, "{}", r.body());
    assert!(post(&app, "/api/go", &[("session", &id)]).status() == 409);
    let export = app.handle(Method::Get, "/api/pgn", &Params::of(&[("session", &id)]));
    assert!(
        export.body().contains("[Result \"0-1\"]"),
        "{}",
        export.body()
    );
    // Stalemate.
    let r = post(
        &app,
        "/api/new",
        &[("session", &id), ("fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")],
    );
    assert!(r.body().contains(r#""reason":"stalemate""#), "{}", r.body());
}

#[test]
fn requests_are_checked() {
    let app = app();
    let get =
        |path: &str, pairs: &[(&str, &str)]| app.handle(Method::Get, path, &Params::of(pairs));
    assert_eq!(get("/api/state", &[]).status(), 400, "no session");
    assert_eq!(get("/api/state", &[("session", "nope")]).status(), 404);
    assert_eq!(
        post(&app, "/api/move", &[("session", "nope"), ("move", "e2e4")]).status(),
        404
    );
    assert_eq!(get("/etc/passwd", &[]).status(), 404);
    assert_eq!(get("/api/move", &[]).status(), 405);
    let id = session(&app, "none");
    for bad in [
        vec![("algo", "bogo")],
        vec![("limit", "depth"), ("value", "-1")],
        vec![("engine", "")],
    ] {
        let mut pairs = bad.clone();
        pairs.push(("session", &id));
        let r = post(&app, "/api/settings", &pairs);
        assert_eq!(r.status(), 400, "{bad:?}");
    }
    assert!(
        state(&app, &id).contains(r#""algo":"pvs""#),
        "settings unchanged"
    );
}

#[test]
fn a_new_tab_past_the_cap_closes_the_least_recently_used_idle_session() {
    let limits = Limits {
        max_sessions: 3,
        expiry: Duration::from_secs(600),
        max_jobs: 1,
    };
    let app = app_with(limits);
    let a = session(&app, "none");
    let b = session(&app, "none");
    let c = session(&app, "none");
    // `a` searches (not idle); `b` is seen after `c`: `c` is the least
    // recently used idle session.
    post(
        &app,
        "/api/settings",
        &[("session", &a), ("limit", "time"), ("value", "60000")],
    );
    assert_eq!(post(&app, "/api/analyse", &[("session", &a)]).status(), 200);
    std::thread::sleep(Duration::from_millis(5));
    let seen = |id: &str| {
        app.handle(Method::Get, "/api/state", &Params::of(&[("session", id)]))
            .status()
    };
    assert_eq!(seen(&b), 200);
    // A client opening tab after tab never locks new ones out.
    let r = post(&app, "/api/session", &[]);
    assert_eq!(r.status(), 200, "{}", r.body());
    assert_eq!(app.session_count(), 3);
    assert_eq!(seen(&c), 404);
    assert_eq!(seen(&a), 200);
    assert_eq!(seen(&b), 200);
    for _ in 0..10 {
        assert_eq!(post(&app, "/api/session", &[]).status(), 200);
    }
    assert_eq!(app.session_count(), 3);
    // The searching tab is never the one closed.
    assert_eq!(seen(&a), 200);
    assert_eq!(app.running_jobs(), 1);
    post(&app, "/api/stop", &[("session", &a)]);
}

#[test]
fn tabs_are_limited_and_expire() {
    let limits = Limits {
        max_sessions: 2,
        expiry: Duration::from_secs(600),
        max_jobs: 1,
    };
    let app = app_with(limits);
    let a = session(&app, "none");
    let b = session(&app, "none");
    assert_ne!(a, b);
    // One search at a time: the second tab is told.
    post(
        &app,
        "/api/settings",
        &[("session", &a), ("limit", "time"), ("value", "60000")],
    );
    let r = post(&app, "/api/analyse", &[("session", &a)]);
    assert_eq!(r.status(), 200, "{}", r.body());
    let r = post(&app, "/api/analyse", &[("session", &b)]);
    assert_eq!(r.status(), 503, "{}", r.body());
    // A live connection to `a`, then both sessions go quiet and expire.
    let sub = match app.handle(Method::Get, "/api/events", &Params::of(&[("session", &a)])) {
        Reply::Events(sub) => sub,
        Reply::Body { body, .. } => panic!("{body}"),
    };
    assert!(sub.events.recv().unwrap().contains("\"analysing\":true"));
    assert_eq!(app.expire(Instant::now()), 0);
    assert_eq!(app.expire(Instant::now() + Duration::from_secs(601)), 2);
    assert_eq!(app.session_count(), 0);
    assert_eq!(
        app.handle(Method::Get, "/api/state", &Params::of(&[("session", &a)]))
            .status(),
        404
    );
    // The analysis stops, and the stream ends.
    let start = Instant::now();
    while app.running_jobs() > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the search goes on"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    while sub.events.recv_timeout(Duration::from_secs(60)).is_ok() {}
    assert!(!sub.touch());
    // Room again.
    assert_eq!(post(&app, "/api/session", &[]).status(), 200);
}

#[test]
fn live_updates_follow_the_game() {
    let app = app();
    let id = session(&app, "black");
    let sub = match app.handle(Method::Get, "/api/events", &Params::of(&[("session", &id)])) {
        Reply::Events(sub) => sub,
        Reply::Body { body, .. } => panic!("{body}"),
    };
    assert!(sub.events.recv().unwrap().contains("\"moves\":[]"));
    post(&app, "/api/move", &[("session", &id), ("move", "e2e4")]);
    // The engine's reply arrives on the stream without a request.
    let start = Instant::now();
    loop {
        let event = sub
            .events
            .recv_timeout(Duration::from_secs(60))
            .expect("an update");
        if event.contains("\"thinking\":false") && event.matches("\"san\"").count() > 20 {
            assert!(
                event.contains(r#""moves":[{"san":"e4","uci":"e2e4"},{"san":""#),
                "{event}"
            );
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60));
    }
    assert!(sub.touch());
}

#[test]
fn analysis_shows_several_lines_and_stops() {
    let app = app();
    let id = session(&app, "none");
    post(&app, "/api/settings", &[("session", &id), ("multipv", "3")]);
    let r = post(&app, "/api/analyse", &[("session", &id)]);
    assert_eq!(r.status(), 200, "{}", r.body());
    wait_until(&app, &id, |s| {
        s.analysis.as_ref().is_some_and(|a| {
            a.lines.len() == 3
                && a.lines
                    .iter()
                    .all(|l| l.as_ref().is_some_and(|i| i.depth >= 3))
        })
    });
    let s = state(&app, &id);
    assert!(
        s.contains(r#""multipv":3"#) && s.contains(r#""by":"analysis""#),
        "{s}"
    );
    let r = post(&app, "/api/stop", &[("session", &id)]);
    assert!(r.body().contains(r#""analysing":false"#));
    wait_until(&app, &id, |s| s.job.is_none());
    let start = Instant::now();
    while app.running_jobs() > 0 {
        assert!(start.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(5));
    }
    // The three lines start with three different moves.
    let firsts = app
        .inspect(&id, |s| {
            let a = s.analysis.as_ref().unwrap();
            a.lines
                .iter()
                .map(|l| l.as_ref().unwrap().pv[0])
                .collect::<Vec<_>>()
        })
        .unwrap();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
}

#[test]
fn learn_charts_every_algorithm_and_the_ablation() {
    let app = app();
    let id = session(&app, "none");
    let r = post(
        &app,
        "/api/learn",
        &[
            ("session", &id),
            ("learn_depth", "2"),
            ("ablation_depth", "2"),
        ],
    );
    assert_eq!(r.status(), 200, "{}", r.body());
    wait_until(&app, &id, |s| s.job.is_none());
    let (algorithms, ablation) = app
        .inspect(&id, |s| {
            let l = s.learn.as_ref().unwrap();
            (l.algorithms.clone(), l.ablation.clone())
        })
        .unwrap();
    let names: Vec<&str> = algorithms.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "minimax",
            "alpha-beta",
            "+ MVV-LVA",
            "+ killer moves",
            "+ capture/check extension",
            "killers + quiescence (ours)",
            "Scout",
            "PVS, no features",
            "PVS, every feature"
        ]
    );
    assert!(algorithms.iter().all(|r| r.complete && r.nodes > 0));
    // Minimax at depth 2 from the start: 20 + 400 nodes.
    assert_eq!(algorithms[0].nodes, 421, "{algorithms:?}");
    assert!(
        algorithms[1].nodes < algorithms[0].nodes,
        "alpha-beta prunes"
    );
    assert_eq!(ablation.len(), 17);
    assert!(ablation
        .iter()
        .all(|r| r.complete && r.meaning.ends_with('.')));
    let s = state(&app, &id);
    assert!(
        s.contains(
            r#""learn":{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","depth":2"#
        ),
        "{s}"
    );
    // Out of range: refused, nothing started.
    let r = post(
        &app,
        "/api/learn",
        &[("session", &id), ("learn_depth", "99")],
    );
    assert_eq!(r.status(), 400);
}

#[test]
fn tabs_play_their_own_games() {
    let app = app();
    let (a, b) = (session(&app, "none"), session(&app, "none"));
    post(&app, "/api/move", &[("session", &a), ("move", "e2e4")]);
    post(&app, "/api/move", &[("session", &b), ("move", "d2d4")]);
    post(&app, "/api/move", &[("session", &a), ("move", "c7c5")]);
    assert!(state(&app, &a)
        .contains(r#""moves":[{"san":"e4","uci":"e2e4"},{"san":"c5","uci":"c7c5"}]"#));
    assert!(state(&app, &b).contains(r#""moves":[{"san":"d4","uci":"d2d4"}]"#));
    // The same moves in another order reach the same position: the move
    // list is still the game's own.
    post(&app, "/api/undo", &[("session", &a)]);
    post(&app, "/api/undo", &[("session", &a)]);
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        post(&app, "/api/move", &[("session", &a), ("move", m)]);
    }
    post(&app, "/api/undo", &[("session", &a)]);
    post(&app, "/api/undo", &[("session", &a)]);
    for m in ["b1c3", "b8c6", "c3b1", "c6b8"] {
        post(&app, "/api/move", &[("session", &a), ("move", m)]);
    }
    let s = state(&app, &a);
    assert!(
        s.contains(
            r#"{"san":"Nf3","uci":"g1f3"},{"san":"Nf6","uci":"g8f6"},{"san":"Nc3","uci":"b1c3"}"#
        ),
        "{s}"
    );
}

/// An app that hands its jobs over, as the app in WebAssembly does.
fn handing_off() -> App {
    App::handing_off(Arc::new(Network::zero()), Limits::default())
}

/// Runs a handed-over job here as the job worker would: its order through
/// JSON, its reports and its move back through JSON.
fn run_handed(h: super::jobs::Handoff) {
    use super::wire;
    let order = wire::order_from_json(&wire::order_to_json(h.order())).unwrap();
    let net = Arc::new(Network::zero());
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let moved = super::jobs::run(&order, &net, &stop, &mut |r| {
        h.report(wire::report_from_json(&wire::report_to_json(&r)).unwrap())
    });
    let moved = moved.map(|m| wire::moved_from_json(&wire::moved_to_json(&m)).unwrap());
    h.finish(moved);
}

#[test]
fn a_handed_over_engine_move_is_played_when_the_host_finishes_it() {
    let app = handing_off();
    let id = session(&app, "black");
    assert!(app.take_handoffs().is_empty(), "no job yet");
    assert_eq!(
        post(&app, "/api/move", &[("session", &id), ("move", "e2e4")]).status(),
        200
    );
    let mut jobs = app.take_handoffs();
    assert_eq!(jobs.len(), 1);
    let job = jobs.pop().unwrap();
    assert!(job.is_current());
    assert_eq!(job.order().game.board().fen(), fen(&app, &id));
    assert_eq!(app.running_jobs(), 1);
    run_handed(job);
    assert_eq!(app.running_jobs(), 0);
    assert_eq!(app.inspect(&id, |s| s.game.moves().len()), Some(2));
    assert!(app.inspect(&id, |s| s.job.is_none()).unwrap());
    // The engine's thinking was reported as line 0.
    assert!(
        state(&app, &id).contains("\"by\":\"engine\""),
        "{}",
        state(&app, &id)
    );
}

#[test]
fn a_replaced_or_stopped_handoff_is_no_longer_current() {
    let app = handing_off();
    let id = session(&app, "none");
    assert_eq!(
        post(&app, "/api/analyse", &[("session", &id)]).status(),
        200
    );
    let first = app.take_handoffs().pop().unwrap();
    assert!(first.is_current());
    // A move restarts the analysis on the new position: a new job.
    assert_eq!(
        post(&app, "/api/move", &[("session", &id), ("move", "d2d4")]).status(),
        200
    );
    assert!(!first.is_current());
    let second = app.take_handoffs().pop().unwrap();
    assert!(second.is_current() && !second.move_now_asked());
    assert!(second.report(super::jobs::Report::LineDone(1)));
    assert_eq!(post(&app, "/api/stop", &[("session", &id)]).status(), 200);
    assert!(!second.is_current() && !second.move_now_asked());
    // A report of a job that is over is dropped.
    assert!(!first.report(super::jobs::Report::LineDone(5)));
}

#[test]
fn move_now_plays_the_first_move_of_the_engines_last_line() {
    let app = handing_off();
    let id = session(&app, "white");
    let job = app.take_handoffs().pop().expect("the engine plays white");
    assert_eq!(job.order().kind, super::session::JobKind::EngineMove);
    let board = Bitboards::startpos();
    let d2d4 = fianchetto_movegen::parse_uci(&board, "d2d4").unwrap();
    let info = fianchetto_search::Info {
        depth: 1,
        pv: vec![d2d4],
        ..Default::default()
    };
    assert!(job.report(super::jobs::Report::Line(0, info)));
    assert_eq!(post(&app, "/api/stop", &[("session", &id)]).status(), 200);
    assert!(job.move_now_asked());
    job.move_now();
    assert_eq!(
        app.inspect(&id, |s| s.game.moves().to_vec()),
        Some(vec![d2d4])
    );
    assert_eq!(app.running_jobs(), 0);
}
