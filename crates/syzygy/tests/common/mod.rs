//! What the integration tests share: where the tables are.

use fianchetto_board::{Piece, Square};
use std::path::PathBuf;

/// The environment variable that points the tests at another copy of the
/// tables.
pub const TABLES_ENV: &str = "FIANCHETTO_SYZYGY";

/// The 3- and 4-piece tables the tests probe: `$FIANCHETTO_SYZYGY`, or the
/// copy in the repository (`crates/syzygy/tests/tables`, left out of the
/// published package). Fails the test, saying so, when the folder is not
/// there: a test without its tables must not pass. (The engine's tests
/// include this file too: the path is written from the crates folder, which
/// both crates share.)
pub fn tables_dir() -> PathBuf {
    let dir = std::env::var_os(TABLES_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../syzygy/tests/tables"
            ))
        });
    assert!(
        dir.is_dir(),
        "the Syzygy test tables are missing: no folder {} (set {TABLES_ENV} to a folder \
         holding the 3- and 4-piece tables)",
        dir.display()
    );
    dir
}

/// A tablebase of the test tables.
#[allow(dead_code)]
pub fn tablebase() -> fianchetto_syzygy::Tablebase {
    let mut tb = fianchetto_syzygy::Tablebase::new();
    let found = tb
        .add_directory(tables_dir())
        .expect("the test tables load");
    assert_eq!(found, 70, "35 WDL and 35 DTZ tables");
    tb
}

/// One position of `reference.txt` and python-chess's answers for it.
#[allow(dead_code)]
pub struct Case {
    pub fen: String,
    pub wdl: i8,
    pub dtz: i32,
}

/// The positions of `reference.txt` (written by `scripts/reference.py`):
/// lines of `<pieces> <side> <en passant> <wdl> <dtz>`, the pieces as
/// letter and square (`Ke1Qd4kc6rb2`).
#[allow(dead_code)]
pub fn reference() -> Vec<Case> {
    let text = include_str!("../reference.txt");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 5, "{line}");
        let mut grid = [None; 64];
        for chunk in f[0].as_bytes().chunks(3) {
            let piece = Piece::from_char(chunk[0] as char).expect(line);
            let sq: Square = std::str::from_utf8(&chunk[1..])
                .expect(line)
                .parse()
                .expect(line);
            grid[sq.index()] = Some(piece);
        }
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|rank| {
                let mut row = String::new();
                let mut empty = 0;
                for file in 0..8 {
                    match grid[rank * 8 + file] {
                        Some(p) => {
                            if empty > 0 {
                                row.push_str(&empty.to_string());
                                empty = 0;
                            }
                            row.push(p.char());
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                row
            })
            .collect();
        out.push(Case {
            fen: format!("{} {} - {} 0 1", rows.join("/"), f[1], f[2]),
            wdl: f[3].parse().expect(line),
            dtz: f[4].parse().expect(line),
        });
    }
    out
}
