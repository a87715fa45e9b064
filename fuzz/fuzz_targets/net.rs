//! Arbitrary bytes as an NNUE network file: `Network::from_bytes` refuses
//! it with an error or gives a network that evaluates positions (with
//! incremental updates along a game) without panicking or overflowing,
//! incrementally and from scratch alike.
#![no_main]

use fianchetto_board::{Bitboards, Board};
use fianchetto_eval::{Evaluator, Nnue};
use fianchetto_movegen::MoveGen;
use libfuzzer_sys::fuzz_target;

const FENS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Ok(mut nnue) = Nnue::from_bytes(data) else {
        return;
    };
    for fen in FENS {
        let Ok(board) = Bitboards::from_fen(fen) else {
            continue;
        };
        nnue.reset(&board);
        let root = nnue.evaluate(&board);
        let mut fresh = Nnue::new(nnue.network().clone());
        fresh.reset(&board);
        assert_eq!(root, fresh.evaluate(&board), "{fen}");
        // Each move's position incrementally, then undone.
        for mv in board.legal_moves().iter().take(8) {
            let mut after = board.clone();
            after.play_unchecked(*mv);
            nnue.push(&board, *mv, &after);
            let incremental = nnue.evaluate(&after);
            fresh.reset(&after);
            assert_eq!(incremental, fresh.evaluate(&after), "{fen} {mv}");
            nnue.pop();
        }
    }
});
