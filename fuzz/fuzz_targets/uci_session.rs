//! Arbitrary bytes as a UCI session's input: one session lives across
//! inputs (as an engine lives across a GUI's commands), reads each input to
//! its end and must neither panic nor stop answering. Numbers are shortened
//! first so that every input runs in bounded time and memory: a `go` line
//! gets at most one digit per number and a node limit, `perft` depth 2 at
//! most (a `perft 22` would rightly run until stopped), every other number
//! two digits (a Hash of 99 MB at most).
#![no_main]

use fianchetto_engine::uci::{Output, Session};
use libfuzzer_sys::fuzz_target;
use std::sync::Mutex;

static SESSION: Mutex<Option<Session>> = Mutex::new(None);

/// `line` with each run of digits cut to `keep` digits.
fn shorten(line: &[u8], keep: usize, out: &mut Vec<u8>) {
    let mut run = 0;
    for &b in line {
        if b.is_ascii_digit() {
            run += 1;
            if run > keep {
                continue;
            }
        } else {
            run = 0;
        }
        out.push(b);
    }
}

fn bounded(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 64);
    for line in data.split(|&b| b == b'\n') {
        let has = |word: &[u8]| line.windows(word.len()).any(|w| w == word);
        if has(b"perft") {
            // One digit per number, and that digit a 2.
            let start = out.len();
            shorten(line, 1, &mut out);
            for b in &mut out[start..] {
                if b.is_ascii_digit() {
                    *b = b'2';
                }
            }
        } else if has(b"go") {
            shorten(line, 1, &mut out);
            out.extend_from_slice(b" nodes 200");
        } else {
            shorten(line, 2, &mut out);
        }
        out.push(b'\n');
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let input = bounded(data);
    let mut slot = SESSION.lock().unwrap_or_else(|p| p.into_inner());
    let session = slot.get_or_insert_with(|| Session::new(Output::new(Box::new(std::io::sink()))));
    session.run(&input[..]);
    // A `quit` ends a session: the next input gets a new one.
    if input.windows(4).any(|w| w == b"quit") {
        *slot = None;
    }
});
