//! Chooses the network embedded in the crate: `nets/default.nnue`, or the
//! file named by the `EVALFILE` environment variable (what OpenBench's
//! `make EVALFILE=…` passes). The file is copied into `OUT_DIR` and checked
//! here for the obvious mistakes (missing, not a network, truncated), so
//! that a bad `EVALFILE` fails the build with a clear message instead of
//! producing an engine without its evaluation. The full check (checksum,
//! weight ranges) runs when the net is loaded, and a test loads the
//! shipped one.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let source = match std::env::var_os("EVALFILE").filter(|v| !v.is_empty()) {
        Some(path) => PathBuf::from(path),
        None => manifest.join("nets").join("default.nnue"),
    };
    println!("cargo:rerun-if-changed={}", source.display());
    let bytes = match std::fs::read(&source) {
        Ok(b) => b,
        Err(e) => fail(&format!(
            "cannot read the network {}: {e}",
            source.display()
        )),
    };
    if bytes.len() < 36 || &bytes[0..7] != b"FIANNUE" {
        fail(&format!(
            "{} is not a Fianchetto network file (no FIANNUE header)",
            source.display()
        ));
    }
    let hidden = u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]) as usize;
    let expected = 36 + 2 * (768 * hidden + 3 * hidden) + 4;
    if bytes.len() != expected {
        fail(&format!(
            "{} is {} bytes; its hidden size {hidden} needs {expected} (truncated?)",
            source.display(),
            bytes.len()
        ));
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("embedded.nnue");
    if let Err(e) = std::fs::write(&out, &bytes) {
        fail(&format!("cannot write {}: {e}", out.display()));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}
