//! `fianchetto svg`: the picture of a position on standard output, and a
//! clear error for each kind of bad argument.

use std::process::{Command, Output};

fn svg(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fianchetto"))
        .arg("svg")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn draws_the_position_with_its_marks() {
    let out = svg(&[
        "--fen",
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
        "--arrows",
        "e2e4,Rd1d8",
        "--squares",
        "d4,Ye5",
        "--lastmove",
        "h5f7",
        "--flip",
        "--size",
        "300",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
    assert!(svg
        .lines()
        .next()
        .unwrap_or_default()
        .contains(r#"width="300" height="300""#));
    assert_eq!(svg.matches("data-square=").count(), 64);
    assert_eq!(svg.matches("data-piece=").count(), 31); // f7 was taken
    assert_eq!(svg.matches(r#"data-piece="wQ""#).count(), 1);
    assert_eq!(svg.matches(r#"<polygon class="arrow""#).count(), 2);
    assert_eq!(svg.matches(r#"class="highlight""#).count(), 2);
    assert_eq!(svg.matches(r#"class="lastmove""#).count(), 2);
    // Black is mated: its king is marked.
    assert_eq!(svg.matches(r#"class="check""#).count(), 1);
    // From black's side, h1 is the top-left square.
    assert!(svg.contains(r#"data-square="h1" x="0" y="0""#));
}

#[test]
fn bad_arguments_are_refused_with_what_is_wrong() {
    for (args, expected) in [
        (
            vec!["--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
            "invalid FEN: impossible position: white has no king",
        ),
        (vec!["--arrows", "e2e4,e2e9"], "not an arrow: `e2e9`"),
        (vec!["--squares", "Qd4"], "not a square: `Qd4`"),
        (vec!["--lastmove", "e4"], "not a move: `e4`"),
        (vec!["--light", "url(#x)"], "not a colour: `url(#x)`"),
        (vec!["--size", "0"], "--size"),
    ] {
        let out = svg(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}
