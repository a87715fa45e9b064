//! One tablebase probed from several threads at once, its tables opened
//! by whichever thread needs them first.

mod common;

use fianchetto_board::{Bitboards, Board};

#[test]
fn threads_share_one_tablebase() {
    let tb = common::tablebase();
    let cases = common::reference();
    let chunk = cases.len().div_ceil(4);
    std::thread::scope(|s| {
        for part in cases.chunks(chunk) {
            let tb = &tb;
            s.spawn(move || {
                for c in part {
                    let board = Bitboards::from_fen(&c.fen).unwrap();
                    assert_eq!(tb.probe_wdl(&board).unwrap().value(), c.wdl, "{}", c.fen);
                    assert_eq!(tb.probe_dtz(&board).unwrap(), c.dtz, "{}", c.fen);
                }
            });
        }
    });
}
