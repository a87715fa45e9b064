//! How much of a damaged table file the checks find: flips every STEP-th
//! byte of one table in turn and counts the flips that `verify_file` (the
//! structural checks) refuses, and of those it passes, the ones the walk of
//! `Tablebase::check_material` catches.
//!
//! ```sh
//! cargo run --release -p fianchetto-syzygy --example flip_bytes -- crates/syzygy/tests/tables KPvK.rtbw 16
//! ```
//!
//! The folder must hold the table and the 3-piece tables its captures and
//! promotions lead to; they are copied into a scratch folder, and only the
//! copy is changed.

use fianchetto_board::Bitboards;
use fianchetto_syzygy::{verify_file, Material, Tablebase};
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, name, step] = &args[..] else {
        return Err("usage: flip_bytes TABLES_DIR TABLE_FILE STEP".into());
    };
    let step: usize = step.parse().map_err(|e| format!("STEP `{step}`: {e}"))?;
    let stem = name.split('.').next().unwrap_or_default();
    let material = Material::from_name(stem).ok_or(format!("`{name}` is not a table's name"))?;
    let scratch =
        std::env::temp_dir().join(format!("fianchetto-flip-bytes-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    for item in std::fs::read_dir(dir)? {
        let path = item?.path();
        let file = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let three_pieces = Material::from_name(file.split('.').next().unwrap_or_default())
            .is_some_and(|m| m.pieces() == 3);
        if three_pieces || file == *name {
            std::fs::copy(&path, scratch.join(&file))?;
        }
    }
    let target: PathBuf = scratch.join(name);
    let good = std::fs::read(&target)?;
    let (mut flips, mut passed, mut walked) = (0, 0, 0);
    for i in (0..good.len()).step_by(step.max(1)) {
        let mut bytes = good.clone();
        bytes[i] ^= 0xff;
        std::fs::write(&target, &bytes)?;
        flips += 1;
        if verify_file(&target).is_ok() {
            passed += 1;
            let mut tables = Tablebase::new();
            tables.add_directory(&scratch)?;
            if tables
                .check_material::<Bitboards>(&material, 1, &|_, _| {})
                .is_err()
            {
                walked += 1;
            }
        }
    }
    std::fs::remove_dir_all(&scratch)?;
    println!(
        "{name}: {flips} flips, {} refused by verify_file, {passed} passed, \
         {walked} of those caught by the walk",
        flips - passed
    );
    Ok(())
}
