//! Fuzz target `fen`: FEN text. `Setup::from_fen` and
//! `Bitboards::from_fen` must not panic; what parses round-trips through
//! `fen()`, and a valid position's legal moves round-trip through SAN and UCI.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The checks live in the movegen crate's tests so that `cargo test` replays
// the seed corpus through exactly the code the fuzzer runs.
#[allow(dead_code)]
#[path = "../../crates/movegen/tests/fuzz_corpus.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::fuzz_fen(data));
