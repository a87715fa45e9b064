//! Chooses the network embedded in the crate: `nets/default.nnue`, or the
//! file named by the `EVALFILE` environment variable (what OpenBench's
//! `make EVALFILE=…` passes), and checks it with the crate's own reader
//! (`src/nnue/arch.rs`, `src/nnue/aligned.rs` and `src/nnue/format.rs`,
//! compiled in here): a file
//! that is missing, not a network, truncated, corrupted or holding weights
//! inference cannot take fails the build with the reader's message,
//! instead of producing an engine without its evaluation.
//!
//! The policy network (`nets/default.policy`, or the file `POLICYFILE`
//! names) is checked the same way with `src/policy/shape.rs` and
//! `src/policy/format.rs`.
//!
//! It also tells the crate whether the compiler has the AVX-512
//! intrinsics (Rust 1.89 and later): `cfg(fianchetto_avx512)`.

use std::path::PathBuf;
use std::process::Command;

// Top-level modules, so that `format.rs`'s `super::arch` finds `arch.rs`
// here as it does in the crate.
#[allow(dead_code)]
#[path = "src/nnue/aligned.rs"]
mod aligned;
#[allow(dead_code)]
#[path = "src/nnue/arch.rs"]
mod arch;
#[allow(dead_code)]
#[path = "src/nnue/format.rs"]
mod format;
// The policy network's reader: `policy_format.rs`'s `super::shape` finds
// `shape.rs` here as it does in the crate.
#[allow(dead_code)]
#[path = "src/policy/format.rs"]
mod policy_format;
#[allow(dead_code)]
#[path = "src/policy/shape.rs"]
mod shape;

fn main() {
    println!("cargo:rerun-if-changed=src/nnue/aligned.rs");
    println!("cargo:rerun-if-changed=src/nnue/arch.rs");
    println!("cargo:rerun-if-changed=src/nnue/format.rs");
    println!("cargo:rustc-check-cfg=cfg(fianchetto_avx512)");
    if rustc_minor().is_some_and(|minor| minor >= 89) {
        println!("cargo:rustc-cfg=fianchetto_avx512");
    }

    embed(
        ("EVALFILE", "default.nnue", "embedded.nnue"),
        "network",
        |bytes| format::parse(bytes).map(drop).map_err(|e| e.to_string()),
    );
    println!("cargo:rerun-if-changed=src/policy/shape.rs");
    println!("cargo:rerun-if-changed=src/policy/format.rs");
    embed(
        ("POLICYFILE", "default.policy", "embedded.policy"),
        "policy network",
        |bytes| {
            policy_format::parse_policy(bytes)
                .map(drop)
                .map_err(|e| e.to_string())
        },
    );
}

/// Checks and copies a net to embed: `nets/DEFAULT`, or the file the
/// environment variable `VAR` names, to `OUT_DIR/OUT`. A file that cannot be
/// read or that `check` refuses fails the build with the reason.
fn embed(
    (var, default, out): (&str, &str, &str),
    what: &str,
    check: impl Fn(&[u8]) -> Result<(), String>,
) {
    println!("cargo:rerun-if-env-changed={var}");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let source = match std::env::var_os(var).filter(|v| !v.is_empty()) {
        Some(path) => PathBuf::from(path),
        None => manifest.join("nets").join(default),
    };
    println!("cargo:rerun-if-changed={}", source.display());
    let bytes = match std::fs::read(&source) {
        Ok(b) => b,
        Err(e) => fail(&format!("cannot read the {what} {}: {e}", source.display())),
    };
    if let Err(e) = check(&bytes) {
        fail(&format!("{}: {e}", source.display()));
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join(out);
    if let Err(e) = std::fs::write(&out, &bytes) {
        fail(&format!("cannot write {}: {e}", out.display()));
    }
}

/// The minor version of the compiler building the crate (`1.N.x`), from
/// `$RUSTC --version`; `None` if it cannot be read.
fn rustc_minor() -> Option<u32> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc).arg("--version").output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let version = text.split_whitespace().nth(1)?;
    let mut parts = version.split('.');
    (parts.next()? == "1").then_some(())?;
    parts.next()?.parse().ok()
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}
