//! A Syzygy table file with arbitrary bytes: the first byte of the input
//! names which table it stands for (see `NAMES`), the rest is the file. It
//! is written beside good copies of the 3-piece tables (what captures and
//! promotions lead to); `verify_file` checks it, and WDL, DTZ and root-move
//! probes of positions of its material give answers or errors, never a
//! panic or a read out of bounds. The seeds (`fuzz/seeds/syzygy/`) are the
//! test tables with their name byte.
#![no_main]

use fianchetto_board::{Bitboards, Board};
use fianchetto_syzygy::{verify_file, Tablebase};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The tables the first byte picks from, with positions of each.
const NAMES: [(&str, &[&str]); 6] = [
    ("KPvK.rtbw", &["8/8/1k6/8/8/1K6/1P6/8 w - - 0 1", "8/4k3/8/8/8/8/4P3/4K3 b - - 0 1"]),
    ("KPvK.rtbz", &["8/8/1k6/8/8/1K6/1P6/8 w - - 0 1", "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1"]),
    ("KQvK.rtbz", &["8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "7k/8/8/8/8/8/8/KQ6 b - - 0 1"]),
    ("KRvK.rtbw", &["8/8/8/4k3/8/8/8/KR6 w - - 0 1", "k7/8/8/8/8/8/8/1R4K1 b - - 0 1"]),
    ("KRvK.rtbz", &["8/8/8/4k3/8/8/8/KR6 w - - 0 1", "8/8/8/8/3k4/8/8/R3K3 w - - 0 1"]),
    ("KBNvK.rtbw", &["8/8/8/4k3/8/8/8/KBN5 w - - 0 1", "7k/8/8/8/8/8/8/KBN5 b - - 0 1"]),
];

/// A folder of the good 3-piece tables, made once per process.
fn folder() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let src = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../crates/syzygy/tests/tables"));
        let base = if std::path::Path::new("/dev/shm").is_dir() {
            PathBuf::from("/dev/shm")
        } else {
            std::env::temp_dir()
        };
        let dir = base.join(format!("fianchetto-fuzz-syzygy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        for m in ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"] {
            for ext in ["rtbw", "rtbz"] {
                let name = format!("{m}.{ext}");
                std::fs::copy(src.join(&name), dir.join(&name)).expect("the test tables");
            }
        }
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, file)) = data.split_first() else {
        return;
    };
    let (name, fens) = NAMES[which as usize % NAMES.len()];
    let dir = folder();
    let path = dir.join(name);
    let good: Vec<_> = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(_) => std::fs::read(
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../crates/syzygy/tests/tables")).join(name),
        )
        .expect("the test table"),
    };
    if std::fs::write(&path, file).is_err() {
        return;
    }
    let _ = verify_file(&path);
    {
        let mut tables = Tablebase::new();
        if tables.add_directory(dir).is_ok() {
            let _ = tables.open_all();
            for fen in fens {
                let Ok(board) = Bitboards::from_fen(fen) else {
                    continue;
                };
                let _ = tables.probe_wdl(&board);
                let _ = tables.probe_dtz(&board);
                let _ = tables.root_moves(&board, true);
                let _ = tables.root_moves_wdl(&board, true);
            }
        }
    }
    // The good copy back for the next input, which may name another table.
    let _ = std::fs::write(&path, good);
});
