//! Fuzz target `epd`: text as an EPD file. Parsing must not panic; every
//! record read writes back to text that reads as the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The checks live in the movegen crate's tests so that `cargo test` replays
// the seed corpus through exactly the code the fuzzer runs.
#[allow(dead_code)]
#[path = "../../crates/movegen/tests/fuzz_corpus.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::fuzz_epd(data));
