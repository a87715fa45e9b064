//! Fuzz target `game`: a FEN line, then bytes that each pick a legal move.
//! Every position on the way must round-trip its moves through SAN and UCI
//! and its FEN through `from_fen`, and the game's SAN line must replay.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The checks live in the movegen crate's tests so that `cargo test` replays
// the seed corpus through exactly the code the fuzzer runs.
#[allow(dead_code)]
#[path = "../../crates/movegen/tests/fuzz_corpus.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::fuzz_game(data));
