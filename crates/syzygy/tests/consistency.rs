//! `Tablebase::check_material`: every position of the test tables agrees
//! with its moves; a table changed where its codes still decode (which
//! `verify_file` cannot see) is caught by the walk, by `root_moves` and by
//! `probe_dtz`, each naming the position.

mod common;

use fianchetto_board::{Bitboards, Board};
use fianchetto_syzygy::{Material, SyzygyError, Tablebase};
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fianchetto-syzygy-consistency-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A folder with a copy of every test table, `name` with `f` applied.
fn tables_with_change(name: &str, f: impl Fn(&mut Vec<u8>)) -> PathBuf {
    let dir = scratch(&name.replace('.', "-"));
    for item in std::fs::read_dir(common::tables_dir()).unwrap() {
        let path = item.unwrap().path();
        let file = path.file_name().unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        if file == name {
            f(&mut bytes);
        }
        std::fs::write(dir.join(file), &bytes).unwrap();
    }
    dir
}

fn tablebase(dir: &Path) -> Tablebase {
    let mut tb = Tablebase::new();
    tb.add_directory(dir).unwrap();
    tb
}

fn walk(tb: &Tablebase, name: &str) -> Result<u64, SyzygyError> {
    tb.check_material::<Bitboards>(&Material::from_name(name).unwrap(), 2, &|_, _| {})
}

#[test]
fn every_position_of_the_three_piece_tables_agrees_with_its_moves() {
    let tb = common::tablebase();
    let mut total = 0;
    for name in ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"] {
        let n = walk(&tb, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(n > 10_000, "{name}: only {n} positions");
        total += n;
    }
    // Ten squares for the king without pawns, 32 with: counted by hand,
    // KQvK has 10 * 64 * 64 * 2 placements before the illegal ones go.
    assert!(total > 150_000, "{total}");
}

#[test]
fn a_four_piece_table_with_pawns_agrees_with_its_moves() {
    let tb = common::tablebase();
    walk(&tb, "KPvKP").unwrap();
}

#[test]
fn a_flip_that_still_decodes_is_found_by_the_walk() {
    // Byte 3009 of KPvK.rtbw, flipped, still decodes (verify_file passes
    // it and only its MD5 sum tells): its values break the rules.
    let dir = tables_with_change("KPvK.rtbw", |b| b[3009] ^= 0xff);
    assert_eq!(
        fianchetto_syzygy::verify_file(dir.join("KPvK.rtbw")),
        Ok(())
    );
    let tb = tablebase(&dir);
    let err = walk(&tb, "KPvK").unwrap_err();
    let SyzygyError::Contradiction { fen, .. } = &err else {
        panic!("{err}")
    };
    assert!(Bitboards::from_fen(fen).is_ok(), "{fen}");
    assert!(err.to_string().contains("contradict"), "{err}");
    // The tables it does not touch still walk clean.
    walk(&tb, "KQvK").unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn root_moves_and_probe_dtz_refuse_a_position_whose_values_contradict() {
    let dir = tables_with_change("KPvK.rtbw", |b| b[3009] ^= 0xff);
    let tb = tablebase(&dir);
    let err = walk(&tb, "KPvK").unwrap_err();
    let SyzygyError::Contradiction { fen, .. } = &err else {
        panic!("{err}")
    };
    // The position the walk names is refused when probed at a root too.
    let board = Bitboards::from_fen(fen).unwrap();
    let root = tb.root_moves(&board, true).map(|_| ());
    let dtz = tb.probe_dtz(&board).map(|_| ());
    assert!(
        matches!(root, Err(SyzygyError::Contradiction { .. }))
            || matches!(dtz, Err(SyzygyError::Contradiction { .. })),
        "{fen}: root_moves {root:?}, probe_dtz {dtz:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
