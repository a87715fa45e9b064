//! serde support for SAN and UCI moves (cargo feature `serde`; this file is
//! built only with it: `cargo test -p fianchetto-movegen --features serde`):
//! both are written as their text and read back through their parsers.

use fianchetto_board::{Bitboards, Board, CastlingMode, Square};
use fianchetto_movegen::{MoveGen, San, UciMove};

#[test]
fn san_as_text() {
    for (text, written) in [
        ("Nf3", "Nf3"),
        ("exd8=Q+", "exd8=Q+"),
        ("0-0-0#", "O-O-O#"),
        ("Ng1-f3!?", "Ng1f3"),
        ("exd6 e.p.", "exd6 e.p."),
    ] {
        let san = San::parse(text).unwrap();
        let json = serde_json::to_string(&san).unwrap();
        assert_eq!(json, format!("\"{written}\""));
        assert_eq!(serde_json::from_str::<San>(&json).unwrap(), san);
        // The variant spelling reads too.
        assert_eq!(
            serde_json::from_str::<San>(&format!("\"{text}\"")).unwrap(),
            san
        );
    }
    assert_eq!(
        serde_json::from_str::<San>(r#""Nf3=Q""#).unwrap_err().to_string(),
        "`Nf3=Q` is not a SAN move (only a pawn can promote; expected something like e4, Nf3, exd5, Rad1, e8=Q or O-O) at line 1 column 7"
    );
    assert_eq!(
        serde_json::from_str::<San>("3").unwrap_err().to_string(),
        "invalid type: integer `3`, expected SAN text such as Nf3, exd5 or O-O at line 1 column 1"
    );
}

#[test]
fn uci_as_text() {
    for text in ["e2e4", "e7e8q", "0000", "e1h1"] {
        let uci = UciMove::parse(text).unwrap();
        let json = serde_json::to_string(&uci).unwrap();
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(serde_json::from_str::<UciMove>(&json).unwrap(), uci);
    }
    assert_eq!(
        serde_json::from_str::<UciMove>(r#""e7e8Q""#).unwrap_err().to_string(),
        "`e7e8Q` is not a UCI move (`Q` is not a promotion letter (n, b, r or q, in lower case); expected from- and to-square and an optional promotion letter, like e2e4 or e7e8q) at line 1 column 7"
    );
}

/// Every legal move of a few positions survives serde as SAN and as UCI
/// (both castling notations) and resolves to the same move.
#[test]
fn legal_moves_round_trip() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNN1KR w Hhf - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ] {
        let board = Bitboards::from_fen_with(fen, CastlingMode::Chess960).unwrap();
        for &mv in &board.legal_moves() {
            let san = San::from_move(&board, mv).unwrap();
            let back: San = serde_json::from_str(&serde_json::to_string(&san).unwrap()).unwrap();
            assert_eq!(back.to_move(&board), Ok(mv), "{san} in {fen}");
            for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                let uci = UciMove::from_move(mv, board.castling(), mode);
                let back: UciMove =
                    serde_json::from_str(&serde_json::to_string(&uci).unwrap()).unwrap();
                assert_eq!(back, uci);
                assert_eq!(back.to_move(&board), Ok(mv), "{uci} in {fen}");
            }
        }
    }
    // The board crate's types come along with the feature.
    assert_eq!(serde_json::to_string(&Square::E4).unwrap(), r#""e4""#);
}
