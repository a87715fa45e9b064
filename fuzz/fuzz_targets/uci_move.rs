//! Fuzz target `uci_move`: UCI move text, optionally after a FEN and a
//! newline. `parse_uci` must not panic; an accepted move is legal and
//! round-trips through `Display`.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The checks live in the movegen crate's tests so that `cargo test` replays
// the seed corpus through exactly the code the fuzzer runs.
#[allow(dead_code)]
#[path = "../../crates/movegen/tests/fuzz_corpus.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::fuzz_uci_move(data));
