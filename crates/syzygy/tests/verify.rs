//! `verify_file` and `file_md5`: every test table passes; a copy with bytes
//! changed is refused, by the structural checks where they can see the
//! change and by its MD5 sum always.

mod common;

use fianchetto_syzygy::{file_md5, verify_file, SyzygyError};
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fianchetto-syzygy-verify-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_test_table_verifies() {
    let mut n = 0;
    let mut bad = Vec::new();
    for item in std::fs::read_dir(common::tables_dir()).unwrap() {
        let path = item.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw" || e == "rtbz") {
            if let Err(e) = verify_file(&path) {
                bad.push(e.to_string());
            }
            n += 1;
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    assert_eq!(n, 70);
}

/// Verifies a copy of `name` with `f` applied to its bytes.
fn verify_changed(name: &str, f: impl Fn(&mut Vec<u8>)) -> Result<(), SyzygyError> {
    let dir = scratch(&name.replace('.', "-"));
    let mut bytes = std::fs::read(common::tables_dir().join(name)).unwrap();
    f(&mut bytes);
    let path = dir.join(name);
    std::fs::write(&path, &bytes).unwrap();
    let result = verify_file(&path);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

#[test]
fn a_flip_that_breaks_a_blocks_codes_is_refused() {
    // Byte 3048 of KPvK.rtbw is inside a block: flipped, the block's codes
    // run past its end.
    let err = verify_changed("KPvK.rtbw", |b| b[3048] ^= 0xff).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("KPvK.rtbw"), "{text}");
    assert!(text.contains("past the end of their block"), "{text}");
}

#[test]
fn a_flip_that_still_decodes_is_found_by_its_md5_only() {
    // Byte 3009 of KPvK.rtbw, flipped, still decodes to valid codes: only
    // the MD5 sum tells.
    let dir = scratch("md5");
    let good = common::tables_dir().join("KPvK.rtbw");
    let mut bytes = std::fs::read(&good).unwrap();
    bytes[3009] ^= 0xff;
    let path = dir.join("KPvK.rtbw");
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(verify_file(&path), Ok(()));
    let sum = file_md5(&good).unwrap();
    assert_eq!(sum.len(), 32);
    assert_ne!(file_md5(&path).unwrap(), sum);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn md5_of_a_known_file() {
    let dir = scratch("md5-known");
    let path = dir.join("abc");
    std::fs::write(&path, b"abc").unwrap();
    assert_eq!(file_md5(&path).unwrap(), "900150983cd24fb0d6963f7d28e17f72");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_header_flip_is_refused() {
    assert!(verify_changed("KQvK.rtbz", |b| b[0] ^= 1).is_err());
}
