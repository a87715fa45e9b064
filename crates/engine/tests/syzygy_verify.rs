//! `fianchetto syzygy --verify DIR [--checksums FILE]`: the test tables
//! pass; a copy with a byte changed inside a block is named, by the
//! structural checks when they can see the change, by its MD5 sum always.

mod common;
#[path = "../../syzygy/tests/common/mod.rs"]
mod tables;

use std::path::{Path, PathBuf};

/// A folder of its own for a test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fianchetto-syzygy-verify-cmd-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Copies the good KQvK and KPvK tables into `dir`, KPvK.rtbw with byte
/// `flip` inverted.
fn copies(dir: &Path, flip: usize) {
    let src = tables::tables_dir();
    for name in ["KQvK.rtbw", "KQvK.rtbz", "KPvK.rtbz"] {
        std::fs::copy(src.join(name), dir.join(name)).unwrap();
    }
    let mut bytes = std::fs::read(src.join("KPvK.rtbw")).unwrap();
    bytes[flip] ^= 0xff;
    std::fs::write(dir.join("KPvK.rtbw"), bytes).unwrap();
}

/// The MD5 sums of the good tables, as `md5sum` writes them.
fn sums_file(dir: &Path) -> PathBuf {
    let src = tables::tables_dir();
    let mut text = String::new();
    for name in ["KQvK.rtbw", "KQvK.rtbz", "KPvK.rtbw", "KPvK.rtbz"] {
        let sum = fianchetto_syzygy::file_md5(src.join(name)).unwrap();
        text.push_str(&format!("{sum}  {name}\n"));
    }
    let path = dir.join("sums.md5");
    std::fs::write(&path, text).unwrap();
    path
}

fn verify(args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["syzygy", "--verify"];
    all.extend_from_slice(args);
    let out = common::run(&all, "");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_test_tables_verify() {
    let dir = tables::tables_dir();
    let (ok, out, err) = verify(&[dir.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("70 table files, 0 bad"), "{out}");
    assert!(out.contains("ok KQvK.rtbw"), "{out}");
}

#[test]
fn a_block_whose_codes_break_is_named() {
    // Byte 3048 of KPvK.rtbw is inside a block; flipped, its codes run
    // past the block's end.
    let dir = scratch("structure");
    copies(&dir, 3048);
    let (ok, out, err) = verify(&[dir.to_str().unwrap()]);
    assert!(!ok, "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("bad KPvK.rtbw:") && l.contains("block")),
        "{out}"
    );
    assert!(out.contains("ok KQvK.rtbw"), "{out}");
    assert!(out.contains("4 table files, 1 bad"), "{out}");
    assert!(err.contains("1 bad table files"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_flip_that_still_decodes_is_named_by_its_checksum() {
    // Byte 3009 of KPvK.rtbw, flipped, still decodes: the structural checks
    // pass it, the MD5 sum does not.
    let dir = scratch("md5");
    copies(&dir, 3009);
    let (ok, out, _) = verify(&[dir.to_str().unwrap()]);
    assert!(ok, "{out}");
    let sums = sums_file(&dir);
    let (ok, out, _) = verify(&[dir.to_str().unwrap(), "--checksums", sums.to_str().unwrap()]);
    assert!(!ok, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("bad KPvK.rtbw:"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("MD5"), "{line}");
    assert!(out.contains("ok KQvK.rtbz"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_checksum_file_is_refused() {
    let dir = scratch("bad-sums");
    copies(&dir, 3009);
    let sums = dir.join("sums.md5");
    std::fs::write(&sums, "not a sum\n").unwrap();
    let (ok, out, err) = verify(&[dir.to_str().unwrap(), "--checksums", sums.to_str().unwrap()]);
    assert!(!ok, "{out}");
    assert!(err.contains("line 1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_probe_that_contradicts_its_moves_is_an_error() {
    // Byte 2953 of KPvK.rtbw, flipped, still decodes, but gives this K+P v
    // K win as a draw while the move b3c3 is listed as winning.
    let dir = scratch("contradiction");
    copies(&dir, 2953);
    let fen = "8/8/1k6/8/8/1K6/1P6/8 w - - 0 1";
    let out = common::run(
        &[
            "syzygy",
            "--path",
            dir.to_str().unwrap(),
            "--fen",
            fen,
            "--moves",
        ],
        "",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stdout}");
    assert!(!stdout.contains("wdl 0"), "{stdout}");
    assert!(stderr.contains("contradict"), "{stderr}");
    // The good tables answer.
    let good = tables::tables_dir();
    let out = common::run(
        &["syzygy", "--path", good.to_str().unwrap(), "--fen", fen],
        "",
    );
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("wdl 2\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
