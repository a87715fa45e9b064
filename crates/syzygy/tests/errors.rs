//! Bad directories, missing tables and bad files: each refused with an error
//! that names it, never a panic.

mod common;

use fianchetto_board::{Bitboards, Board};
use fianchetto_syzygy::{SyzygyError, TableKind, TableProblem, Tablebase};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};

/// A fresh, empty folder for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("fianchetto-syzygy-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Copies the test table `from` here as `to`, passed through `edit`.
    fn copy(&self, from: &str, to: &str, edit: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
        let mut bytes = std::fs::read(common::tables_dir().join(from)).unwrap();
        edit(&mut bytes);
        let path = self.0.join(to);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn tablebase(&self) -> Tablebase {
        let mut tb = Tablebase::new();
        tb.add_directory(&self.0).unwrap();
        tb
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn board(fen: &str) -> Bitboards {
    Bitboards::from_fen(fen).unwrap()
}

const KQVK: &str = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1";
const KRVK: &str = "8/8/8/4k3/8/8/8/KR6 w - - 0 1";

/// The error names the file, and says what is wrong.
fn assert_bad(err: SyzygyError, file: &Path, what: impl Fn(&TableProblem) -> bool) {
    let text = err.to_string();
    assert!(text.contains(&file.display().to_string()), "{text}");
    match err {
        SyzygyError::BadTable { path, problem } => {
            assert_eq!(&*path, file);
            assert!(what(&problem), "{problem}");
        }
        other => panic!("not a bad table: {other}"),
    }
}

#[test]
fn a_truncated_table_is_refused() {
    let dir = Scratch::new("truncated");
    let path = dir.copy("KQvKR.rtbw", "KQvKR.rtbw", |b| b.truncate(b.len() / 2));
    let tb = dir.tablebase();
    let err = tb
        .probe_wdl(&board("8/3r4/8/4k3/8/8/8/K6Q w - - 0 1"))
        .unwrap_err();
    assert_bad(err, &path, |p| matches!(p, TableProblem::Truncated { .. }));
    assert!(tb
        .probe_wdl(&board("8/3r4/8/4k3/8/8/8/K6Q w - - 0 1"))
        .unwrap_err()
        .to_string()
        .contains("truncated"));
}

#[test]
fn a_file_with_a_wrong_magic_is_refused() {
    let dir = Scratch::new("magic");
    // A DTZ table named as a WDL one.
    let path = dir.copy("KQvK.rtbz", "KQvK.rtbw", |_| {});
    let err = dir.tablebase().probe_wdl(&board(KQVK)).unwrap_err();
    assert_bad(err, &path, |p| {
        matches!(
            p,
            TableProblem::Magic {
                kind: TableKind::Wdl,
                ..
            }
        )
    });
    // An empty file.
    let path = dir.copy("KRvK.rtbw", "KRvK.rtbw", |b| b.clear());
    let err = dir.tablebase().probe_wdl(&board(KRVK)).unwrap_err();
    assert_bad(err, &path, |p| {
        matches!(p, TableProblem::Truncated { len: 0, .. })
    });
}

#[test]
fn a_renamed_table_is_refused() {
    let dir = Scratch::new("renamed");
    let path = dir.copy("KQvK.rtbw", "KRvK.rtbw", |_| {});
    let err = dir.tablebase().probe_wdl(&board(KRVK)).unwrap_err();
    assert_bad(err, &path, |p| {
        matches!(p, TableProblem::WrongMaterial { .. })
    });
    assert!(err_text(&dir, KRVK).contains("holds the table KQvK, not KRvK"));
}

fn err_text(dir: &Scratch, fen: &str) -> String {
    dir.tablebase()
        .probe_wdl(&board(fen))
        .unwrap_err()
        .to_string()
}

#[test]
fn a_missing_table_is_named() {
    let dir = Scratch::new("missing");
    dir.copy("KQvK.rtbw", "KQvK.rtbw", |_| {});
    let tb = dir.tablebase();
    assert_eq!(tb.probe_wdl(&board(KQVK)).unwrap().value(), 2);
    let err = tb.probe_wdl(&board(KRVK)).unwrap_err();
    assert!(matches!(
        err,
        SyzygyError::MissingTable {
            kind: TableKind::Wdl,
            ..
        }
    ));
    assert_eq!(err.to_string(), "missing Syzygy table KRvK.rtbw");
    // Black with the rook: the table is still named as the files are.
    let err = tb
        .probe_wdl(&board("8/8/8/4K3/8/8/8/kr6 b - - 0 1"))
        .unwrap_err();
    assert_eq!(err.to_string(), "missing Syzygy table KRvK.rtbw");
    let err = tb.probe_dtz(&board(KQVK)).unwrap_err();
    assert_eq!(err.to_string(), "missing Syzygy table KQvK.rtbz");
}

#[test]
fn directories_without_tables_are_refused() {
    let dir = Scratch::new("empty");
    std::fs::write(dir.0.join("README.md"), "no tables here").unwrap();
    let err = Tablebase::new().add_directory(&dir.0).unwrap_err();
    assert!(matches!(err, SyzygyError::NoTables { .. }));
    assert!(err.to_string().contains(&dir.0.display().to_string()));
    let missing = dir.0.join("nowhere");
    let err = Tablebase::new().add_directory(&missing).unwrap_err();
    assert!(matches!(err, SyzygyError::Directory { .. }), "{err}");
    assert!(err.to_string().contains("nowhere"));
}

#[test]
fn positions_the_tables_do_not_hold_are_refused() {
    let tb = common::tablebase();
    let castling = board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(tb.probe_wdl(&castling), Err(SyzygyError::CastlingRights));
    let five = board("4k3/8/8/8/8/8/8/RRRK4 w - - 0 1");
    assert_eq!(
        tb.probe_dtz(&five),
        Err(SyzygyError::TooManyPieces { pieces: 5, max: 4 })
    );
    assert_eq!(
        Tablebase::new().probe_wdl(&castling),
        Err(SyzygyError::CastlingRights)
    );
    // With no table loaded, the error says so (not "at most 0 pieces").
    let err = Tablebase::new().probe_wdl(&five).unwrap_err();
    assert_eq!(err, SyzygyError::NoTablesLoaded);
    assert_eq!(
        Tablebase::new().probe_dtz(&board(KQVK)),
        Err(SyzygyError::NoTablesLoaded)
    );
    assert!(
        err.to_string().starts_with("no Syzygy tables are loaded")
            && err.to_string().contains("add_directory"),
        "{err}"
    );
    // Two bare kings need no table.
    let kk = board("8/8/8/4k3/8/8/8/K7 w - - 0 1");
    assert_eq!(tb.probe_dtz(&kk), Ok(0));
}

/// Random bytes changed in every table: probes give values or errors, never
/// a panic (the reads are bounds-checked, the symbol trees checked for loops).
#[test]
fn corrupt_tables_never_panic() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(22);
    let reference = common::tables_dir();
    let positions: Vec<Bitboards> = common::reference()
        .iter()
        .step_by(7)
        .map(|c| board(&c.fen))
        .collect();
    let mut names: Vec<String> = std::fs::read_dir(&reference)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut errors = 0;
    for round in 0..6 {
        let dir = Scratch::new(&format!("corrupt{round}"));
        for name in &names {
            dir.copy(name, name, |b| {
                // A few bytes in the header, a few anywhere.
                for i in 0..8 {
                    let len = if i < 4 { b.len().min(256) } else { b.len() };
                    let at = rng.next_u64() as usize % len;
                    b[at] = rng.next_u64() as u8;
                }
            });
        }
        let tb = dir.tablebase();
        for p in &positions {
            errors += tb.probe_wdl(p).is_err() as usize;
            errors += tb.probe_dtz(p).is_err() as usize;
            let _ = tb.root_moves(p, true);
        }
    }
    // Some corruption must have been caught (else the test proves little).
    assert!(errors > 0);
}
