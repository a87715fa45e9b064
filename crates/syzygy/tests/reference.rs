//! WDL and DTZ of 14 300 random positions of all 35 tables (both sides to
//! move, both colourings, en passant positions), on every board backend,
//! against python-chess's answers on the same files
//! (`scripts/reference.py` wrote `reference.txt`).

mod common;

use common::{reference as cases, Case};
use fianchetto_board::{Bitboards, Board, Board0x88, Mailbox};
use fianchetto_movegen::MoveGen;
use fianchetto_syzygy::{Material, Tablebase};
use std::collections::BTreeSet;

fn check_backend<B: MoveGen>(tb: &Tablebase, cases: &[Case]) {
    let mut wrong = Vec::new();
    for c in cases {
        let board = B::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.fen));
        let wdl = tb.probe_wdl(&board).map(|w| w.value());
        let dtz = tb.probe_dtz(&board);
        if wdl != Ok(c.wdl) || dtz != Ok(c.dtz) {
            wrong.push(format!(
                "{}: wdl {wdl:?} dtz {dtz:?}, python-chess {} {}",
                c.fen, c.wdl, c.dtz
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{}: {} of {} positions differ, e.g.\n{}",
        B::NAME,
        wrong.len(),
        cases.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}

#[test]
fn every_table_is_in_the_reference() {
    let cases = cases();
    assert!(cases.len() >= 14_000);
    let materials: BTreeSet<String> = cases
        .iter()
        .map(|c| {
            Material::of(&Bitboards::from_fen(&c.fen).unwrap())
                .normalized()
                .to_string()
        })
        .collect();
    let files: BTreeSet<String> = std::fs::read_dir(common::tables_dir())
        .unwrap()
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .into_string()
                .ok()?
                .strip_suffix(".rtbw")
                .map(String::from)
        })
        .collect();
    assert_eq!(files.len(), 35);
    assert_eq!(materials, files);
    let en_passant = cases.iter().filter(|c| !c.fen.contains(" - 0 1")).count();
    assert!(en_passant >= 300, "{en_passant} en passant positions");
}

#[test]
fn bitboards_agree_with_python_chess() {
    check_backend::<Bitboards>(&common::tablebase(), &cases());
}

#[test]
fn board0x88_agrees_with_python_chess() {
    check_backend::<Board0x88>(&common::tablebase(), &cases());
}

#[test]
fn mailbox_agrees_with_python_chess() {
    check_backend::<Mailbox>(&common::tablebase(), &cases());
}
