//! Fuzz target `pgn`: any bytes as a PGN file. Reading must not panic and
//! must give the same games and errors whether the input arrives whole or a
//! byte at a time; every game read writes as PGN that reads back to the same
//! game.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The checks live in the movegen crate's tests so that `cargo test` replays
// the seed corpus through exactly the code the fuzzer runs.
#[allow(dead_code)]
#[path = "../../crates/movegen/tests/fuzz_corpus.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::fuzz_pgn(data));
