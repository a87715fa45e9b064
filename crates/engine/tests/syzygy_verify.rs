//! `fianchetto syzygy --verify DIR [--checksums FILE]`: the test tables
//! pass; a copy with a byte changed inside a block is named, by the
//! structural checks when they can see the change, by the walk over its
//! positions when its values break the rules, by its MD5 sum always. The
//! UCI engine names a root whose tables contradict themselves.

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

/// The 3-piece tables (what a pawn's promotions lead to).
const THREE: [&str; 5] = ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"];

/// Copies the good 3-piece tables into `dir`, KPvK.rtbw with byte `flip`
/// inverted.
fn copies(dir: &Path, flip: usize) {
    let src = tables::tables_dir();
    for material in THREE {
        for ext in ["rtbw", "rtbz"] {
            let name = format!("{material}.{ext}");
            std::fs::copy(src.join(&name), dir.join(&name)).unwrap();
        }
    }
    let mut bytes = std::fs::read(src.join("KPvK.rtbw")).unwrap();
    bytes[flip] ^= 0xff;
    std::fs::write(dir.join("KPvK.rtbw"), bytes).unwrap();
}

/// The MD5 sums of the good tables, as `md5sum` writes them.
fn sums_file(dir: &Path) -> PathBuf {
    let src = tables::tables_dir();
    let mut text = String::new();
    for name in THREE
        .iter()
        .flat_map(|m| [format!("{m}.rtbw"), format!("{m}.rtbz")])
    {
        let sum = fianchetto_syzygy::file_md5(src.join(&name)).unwrap();
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
    // The walk over the 4-piece tables takes minutes: the 3-piece ones.
    let (ok, out, err) = verify(&[dir.to_str().unwrap(), "--walk-pieces", "3"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("70 table files, 0 bad"), "{out}");
    assert!(out.contains("ok KQvK.rtbw"), "{out}");
    assert!(out.contains("consistent KPvK: 165676 positions"), "{out}");
    assert!(!out.contains("consistent KPvKP"), "{out}");
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
    assert!(out.contains("10 table files, 1 bad"), "{out}");
    assert!(err.contains("1 bad table files"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_flip_that_still_decodes_is_named_by_the_walk_and_its_checksum() {
    // Byte 3009 of KPvK.rtbw, flipped, still decodes: the structural checks
    // pass it; the walk finds a position it values against its moves, and
    // the MD5 sum differs.
    let dir = scratch("md5");
    copies(&dir, 3009);
    let (ok, out, err) = verify(&[dir.to_str().unwrap()]);
    assert!(!ok, "{out}");
    assert!(out.contains("10 table files, 0 bad"), "{out}");
    assert!(out.contains("consistent KQvK:"), "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("contradiction KPvK:"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains(" w - -") || line.contains(" b - -"), "{line}");
    assert!(err.contains("1 materials"), "{err}");
    let sums = sums_file(&dir);
    let (ok, out, _) = verify(&[
        dir.to_str().unwrap(),
        "--checksums",
        sums.to_str().unwrap(),
        "--walk-pieces",
        "0",
    ]);
    assert!(!ok, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("bad KPvK.rtbw:"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("MD5"), "{line}");
    assert!(out.contains("ok KQvK.rtbz"), "{out}");
    assert!(!out.contains("consistent"), "{out}");
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

#[test]
fn the_engine_names_a_root_whose_tables_contradict_themselves() {
    // The KPvK table of the test above, flipped at byte 2953: the engine
    // says so in an info string, still plays a legal move, and with the
    // good tables says nothing of the kind.
    let fen = "8/8/1k6/8/8/1K6/1P6/8 w - - 0 1";
    let session = |dir: &Path| {
        let input = format!(
            "setoption name SyzygyPath value {}\nposition fen {fen}\ngo depth 3\n",
            dir.display()
        );
        String::from_utf8_lossy(&common::run(&[], &input).stdout).into_owned()
    };
    let dir = scratch("uci-contradiction");
    copies(&dir, 2953);
    let out = session(&dir);
    assert!(
        out.lines()
            .any(|l| l.starts_with("info string error:") && l.contains("contradict")),
        "{out}"
    );
    assert!(out.contains("bestmove "), "{out}");
    let out = session(&tables::tables_dir());
    assert!(!out.contains("contradict"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
