//! serde support (cargo feature `serde`; this file is built only with it:
//! `cargo test -p fianchetto-board --features serde`): the exact text each
//! type is written as, round trips in human-readable (JSON) and compact
//! forms, and the error for every kind of bad input.

use fianchetto_board::{
    Bitboards, Board, Board0x88, CastlingMode, CastlingRights, CastlingSide, Color, File, Mailbox,
    Move, MoveKind, Piece, Role, Setup, Square,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_test::{assert_tokens, Configure, Token};
use std::fmt::Debug;

/// `value` is written as `json`, and `json` reads back as `value`.
fn json_round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T, json: &str) {
    assert_eq!(serde_json::to_string(value).unwrap(), json, "{value:?}");
    assert_eq!(&serde_json::from_str::<T>(json).unwrap(), value, "{json}");
}

/// The error message for reading `json` as `T`.
fn json_error<T: DeserializeOwned + Debug>(json: &str) -> String {
    match serde_json::from_str::<T>(json) {
        Ok(v) => panic!("{json} read as {v:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn squares_and_pieces() {
    json_round_trip(&Square::E4, r#""e4""#);
    json_round_trip(&Square::A1, r#""a1""#);
    json_round_trip(&Square::H8, r#""h8""#);
    for sq in Square::all() {
        let json = serde_json::to_string(&sq).unwrap();
        assert_eq!(serde_json::from_str::<Square>(&json).unwrap(), sq);
    }
    json_round_trip(&Piece::new(Color::White, Role::Knight), r#""N""#);
    json_round_trip(&Piece::new(Color::Black, Role::Queen), r#""q""#);
    for i in 0..12 {
        let p = Piece::from_index(i).unwrap();
        json_round_trip(&p, &format!("\"{}\"", p.char()));
    }
    assert_eq!(
        json_error::<Square>(r#""e9""#),
        "`e9` is not a square (expected a file a-h and a rank 1-8, like e4) at line 1 column 4"
    );
    assert_eq!(
        json_error::<Square>("64"),
        "invalid type: integer `64`, expected a square name such as e4 at line 1 column 2"
    );
    assert_eq!(
        json_error::<Piece>(r#""Nn""#),
        "`Nn` is not a piece; expected one FEN letter (PNBRQK for white, pnbrqk for black) at line 1 column 4"
    );
    assert_eq!(
        json_error::<Piece>(r#""""#),
        "`` is not a piece; expected one FEN letter (PNBRQK for white, pnbrqk for black) at line 1 column 2"
    );
}

#[test]
fn enums_by_variant_name() {
    json_round_trip(&Color::White, r#""White""#);
    json_round_trip(&Color::Black, r#""Black""#);
    json_round_trip(&Role::Knight, r#""Knight""#);
    json_round_trip(&CastlingSide::Queen, r#""Queen""#);
    json_round_trip(&CastlingMode::Chess960, r#""Chess960""#);
    json_round_trip(&MoveKind::CapturePromoteQueen, r#""CapturePromoteQueen""#);
    assert_eq!(
        json_error::<Color>(r#""Green""#),
        "unknown variant `Green`, expected `White` or `Black` at line 1 column 7"
    );
}

#[test]
fn moves_human_readable_and_compact() {
    let mv = Move::new(Square::E7, Square::F8, MoveKind::CapturePromoteKnight);
    json_round_trip(
        &mv,
        r#"{"from":"e7","to":"f8","kind":"CapturePromoteKnight"}"#,
    );
    json_round_trip(&Move::NULL, r#"{"from":"a1","to":"a1","kind":"Quiet"}"#);
    // Compact formats get the 16 bits.
    assert_tokens(&mv.compact(), &[Token::U16(mv.bits())]);
    assert_tokens(
        &mv.readable(),
        &[
            Token::Struct {
                name: "Move",
                len: 3,
            },
            Token::Str("from"),
            Token::Str("e7"),
            Token::Str("to"),
            Token::Str("f8"),
            Token::Str("kind"),
            Token::UnitVariant {
                name: "MoveKind",
                variant: "CapturePromoteKnight",
            },
            Token::StructEnd,
        ],
    );
    serde_test::assert_de_tokens_error::<serde_test::Compact<Move>>(
        &[Token::U16(6 << 12)],
        "0x6000 is not a move: its kind (the top 4 bits) is 6 or 7, which no move has",
    );
    assert_eq!(
        json_error::<Move>(r#"{"from":"e2","to":"e4"}"#),
        "missing field `kind` at line 1 column 23"
    );
    assert_eq!(
        json_error::<Move>(r#"{"from":"e2","to":"e4","kind":"Quiet","extra":1}"#),
        "unknown field `extra`, expected one of `from`, `to`, `kind` at line 1 column 45"
    );
    assert_eq!(
        json_error::<Move>(r#"{"from":"e2","to":"e0","kind":"Quiet"}"#),
        "`e0` is not a square (expected a file a-h and a rank 1-8, like e4) at line 1 column 22"
    );
    // Every move of every kind round-trips both ways.
    for bits in 0..=u16::MAX {
        if let Some(mv) = Move::from_bits(bits) {
            assert_tokens(&mv.compact(), &[Token::U16(bits)]);
            let json = serde_json::to_string(&mv).unwrap();
            assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), mv);
        }
    }
}

#[test]
fn castling_rights() {
    json_round_trip(&CastlingRights::ALL, r#""KQkq""#);
    json_round_trip(&CastlingRights::NONE, r#""-""#);
    json_round_trip(&CastlingRights::from_bits(0b0101), r#""Kk""#);
    // Chess960 position 0: kings on g1/g8, rooks on f and h.
    let setup = Setup::chess960(0).unwrap();
    json_round_trip(&setup.castling, r#""HFhf/gg""#);
    // A king on b1 with its queen-side rook on a1 only.
    let b = File::new(1).unwrap();
    let rights = CastlingRights::NONE.with_files(Color::White, CastlingSide::Queen, b, File::A);
    json_round_trip(&rights, r#""A/be""#);
    // Every Chess960 start position's rights.
    for n in 0..960 {
        let rights = Setup::chess960(n).unwrap().castling;
        let json = serde_json::to_string(&rights).unwrap();
        assert_eq!(
            serde_json::from_str::<CastlingRights>(&json).unwrap(),
            rights,
            "{json}"
        );
    }
    let expected = "expected KQkq letters, -, or rook files and king files such as HFhf/gg";
    for (json, why) in [
        (r#""KQkqK""#, "a right given twice"),
        (r#""KX""#, "a letter other than K, Q, k, q"),
        (r#""""#, ""),
        (
            r#""HA/e""#,
            "the king files after `/` must be two letters a-h",
        ),
        (
            r#""HA/eee""#,
            "the king files after `/` must be two letters a-h",
        ),
        (
            r#""HA/xe""#,
            "the king files after `/` must be two letters a-h",
        ),
        (r#""E/ee""#, "a rook on its king's file"),
        (r#""HG/ee""#, "two rooks on one side of a king"),
        (r#""Z/ee""#, "a rook file that is not a letter a-h or A-H"),
    ] {
        let text = &json[1..json.len() - 1];
        let got = serde_json::from_str::<CastlingRights>(json);
        if why.is_empty() {
            // The empty string is "no letters": no rights.
            assert_eq!(got.unwrap(), CastlingRights::NONE);
            continue;
        }
        let msg = got.unwrap_err().to_string();
        let want = format!("`{text}` is not castling rights ({why}; {expected})");
        assert!(msg.starts_with(&want), "{json}: {msg}");
    }
}

/// Positions are FEN text, read in Chess960 notation so that both kinds of
/// positions come back.
fn position_round_trips<B: Board + Serialize + DeserializeOwned>() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/8/8/8/3pP3/8/8/R3K2R b Kq e3 0 12",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 99 200",
    ] {
        let board = B::from_fen_with(fen, CastlingMode::Chess960).unwrap();
        let json = serde_json::to_string(&board).unwrap();
        assert_eq!(json, format!("\"{fen}\""));
        let back: B = serde_json::from_str(&json).unwrap();
        assert_eq!(back.fen(), fen);
        assert_eq!(back.hash(), board.hash(), "{fen} ({})", B::NAME);
    }
    // A standard FEN reads as standard chess.
    let back: B = serde_json::from_str(&format!("\"{}\"", fianchetto_board::START_FEN)).unwrap();
    assert!(back.castling().is_standard());
    assert_eq!(back.hash(), B::startpos().hash());
    for (json, message) in [
        (
            r#""8/8/8/8/8/8/8/8 w - - 0 1""#,
            "impossible position: white has no king at line 1 column 27",
        ),
        (
            r#""4k3/8/8/8/8/8/8/4K3 w - - 0 0""#,
            "impossible position: fullmove number 0 is out of range; expected 1 to 65535 at line 1 column 31",
        ),
        (
            r#""not a fen""#,
            "FEN has 3 fields; expected 4 to 6 (placement, side, castling, en passant[, halfmove, fullmove]) at line 1 column 11",
        ),
        (
            "17",
            "invalid type: integer `17`, expected FEN text of a legal position at line 1 column 2",
        ),
    ] {
        assert_eq!(json_error::<B>(json), message, "{} {json}", B::NAME);
    }
}

#[test]
fn positions_as_fen() {
    position_round_trips::<Bitboards>();
    position_round_trips::<Board0x88>();
    position_round_trips::<Mailbox>();
}

#[test]
fn setups_as_fen() {
    let setup = Setup::chess960(0).unwrap();
    json_round_trip(
        &setup,
        r#""bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1""#,
    );
    json_round_trip(
        &Setup::start(),
        &format!("\"{}\"", fianchetto_board::START_FEN),
    );
    // A setup is not validated: a board without kings reads.
    json_round_trip(&Setup::empty(), r#""8/8/8/8/8/8/8/8 w - - 0 1""#);
    assert_eq!(
        json_error::<Setup>(r#""8/8/8/8/8/8/8/8 x - - 0 1""#),
        "FEN side to move is `x`; expected `w` or `b` at line 1 column 27"
    );
    // Inside a larger document.
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Record {
        position: Bitboards,
        best: Move,
        side: Color,
    }
    let record = Record {
        position: Bitboards::startpos(),
        best: Move::new(Square::E2, Square::E4, MoveKind::DoublePush),
        side: Color::White,
    };
    let json = serde_json::to_string(&record).unwrap();
    assert_eq!(
        json,
        r#"{"position":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","best":{"from":"e2","to":"e4","kind":"DoublePush"},"side":"White"}"#
    );
    let back: Record = serde_json::from_str(&json).unwrap();
    assert_eq!(back.best, record.best);
    assert_eq!(back.position.hash(), record.position.hash());
}
