//! Checking table files whole: every block decoded and checked against
//! what the format lets one check, and each file's MD5 against a list.

use crate::error::{SyzygyError, TableKind, TableProblem};
use crate::material::Material;
use crate::tablebase::open;
use md5::{Digest, Md5};
use std::io::Read;
use std::path::Path;

/// Reads the table file `path` whole (named like `KQvKR.rtbw` or
/// `KQvKR.rtbz`) and checks it: its header, as a probe does when it opens
/// the file, then every block of every table in it (block sizes and the
/// sparse index that points into them, each code naming a symbol that
/// exists and ending inside its block, each block giving as many values as
/// its size says, every value in range).
///
/// The format carries no checksum: a changed byte inside a block's codes
/// that still decodes to valid codes (most flips there) passes these
/// checks, and only a comparison with the file's published MD5 sum
/// ([`file_md5`]) finds it.
pub fn verify_file(path: impl AsRef<Path>) -> Result<(), SyzygyError> {
    let path = path.as_ref();
    let bad = |problem: TableProblem| SyzygyError::BadTable {
        path: path.into(),
        problem,
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (stem, ext) = name.rsplit_once('.').unwrap_or((&name, ""));
    let kind = match ext {
        "rtbw" => TableKind::Wdl,
        "rtbz" => TableKind::Dtz,
        _ => {
            return Err(bad(TableProblem::Corrupt(
                "not named like a table (.rtbw or .rtbz)",
            )))
        }
    };
    let named = Material::from_name(stem)
        .ok_or_else(|| bad(TableProblem::Corrupt("not named for a material (KQvKR)")))?;
    let table = open(path, kind, named).map_err(bad)?;
    table.verify().map_err(|e| bad(TableProblem::Corrupt(e)))
}

/// The MD5 sum of the file `path`, as 32 lowercase hex digits (the form
/// `md5sum` writes), read in pieces.
pub fn file_md5(path: impl AsRef<Path>) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Md5::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}
