//! What the datagen tests share: fresh output paths and run options.

use fianchetto_tune::datagen::{Format, RunOptions, Target};
use std::path::{Path, PathBuf};

/// A path in this test binary's own folder, with no file (nor sidecar) there.
pub fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fianchetto-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let mut sidecar = path.as_os_str().to_owned();
    sidecar.push(".progress");
    let _ = std::fs::remove_file(sidecar);
    path
}

/// `games` games into `out` in `format` on `threads` threads from `seed`,
/// no book, no tables, no progress bar.
pub fn options(out: &Path, format: Format, games: u64, threads: usize, seed: u64) -> RunOptions {
    RunOptions {
        out: out.to_path_buf(),
        format,
        target: Target::Games(games),
        threads,
        seed,
        book: Vec::new(),
        tablebase: None,
        progress: false,
    }
}
