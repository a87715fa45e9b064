//! Strict and lenient FEN reading side by side: a table of inputs with what
//! each mode makes of them (the FEN written back, or the exact error
//! message), checked on every backend.

use fianchetto_board::{
    Bitboards, Board, Board0x88, CastlingMode, FenError, FenOptions, Mailbox, Setup,
};

/// What a mode returns: the position's FEN as written back, or the error's
/// message.
#[derive(Clone, Copy, Debug)]
enum Want {
    Fen(&'static str),
    Err(&'static str),
}
use Want::{Err as E, Fen as F};

/// (input, strict, lenient), standard castling notation.
const TABLE: &[(&str, Want, Want)] = &[
    // A correct FEN reads the same both ways.
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        F("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        F("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ),
    // Fullmove 0 (written by some tools for a set-up position).
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        E("impossible position: fullmove number 0 is out of range; expected 1 to 65535"),
        F("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 b - - 7 0",
        E("impossible position: fullmove number 0 is out of range; expected 1 to 65535"),
        F("4k3/8/8/8/8/8/8/4K3 b - - 7 1"),
    ),
    // Castling rights whose rook has gone: only those are dropped.
    (
        "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1",
        E("impossible position: white may castle Queen-side, but the king is not on e1 or the rook not on a1"),
        F("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1"),
    ),
    // ... or whose king has moved (all of that colour's rights go).
    (
        "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1",
        E("impossible position: white may castle King-side, but the king is not on e1 or the rook not on h1"),
        F("r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1"),
    ),
    // A rook of the other colour in the corner is not a castling rook.
    (
        "4k3/8/8/8/8/8/8/4K2r w K - 0 1",
        E("impossible position: white may castle King-side, but the king is not on e1 or the rook not on h1"),
        F("4k3/8/8/8/8/8/8/4K2r w - - 0 1"),
    ),
    // An en-passant square with no pawn in front of it.
    (
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        E("impossible position: en-passant square e6 is impossible: it must be empty on the third rank of the side that just moved, with that side's pawn in front of it and the square behind empty"),
        F("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ),
    // The right rank for the other side to move.
    (
        "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
        E("impossible position: en-passant square e3 is impossible: it must be empty on the third rank of the side that just moved, with that side's pawn in front of it and the square behind empty"),
        F("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"),
    ),
    // Not a rank an en-passant square can be on at all.
    (
        "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
        E("FEN en-passant field is `e4`; expected `-` or a square on rank 3 or 6 such as e3"),
        F("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ),
    // A pawn did skip e3, but no black pawn can take it: dropped both ways.
    (
        "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1",
        F("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"),
        F("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"),
    ),
    // A capturable one is kept both ways.
    (
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        F("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"),
        F("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"),
    ),
    // Missing clocks: the defaults, in both modes (EPD leaves them out).
    (
        "4k3/8/8/8/8/8/8/4K3 b - -",
        F("4k3/8/8/8/8/8/8/4K3 b - - 0 1"),
        F("4k3/8/8/8/8/8/8/4K3 b - - 0 1"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 b - - 12",
        F("4k3/8/8/8/8/8/8/4K3 b - - 12 1"),
        F("4k3/8/8/8/8/8/8/4K3 b - - 12 1"),
    ),
    // Missing castling and en-passant fields, or everything but the board.
    (
        "4k3/8/8/8/8/8/8/4K3 b",
        E("FEN has 2 fields; expected 4 to 6 (placement, side, castling, en passant[, halfmove, fullmove])"),
        F("4k3/8/8/8/8/8/8/4K3 b - - 0 1"),
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R b KQ",
        E("FEN has 3 fields; expected 4 to 6 (placement, side, castling, en passant[, halfmove, fullmove])"),
        F("r3k2r/8/8/8/8/8/8/R3K2R b KQ - 0 1"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K3",
        E("FEN has 1 field; expected 4 to 6 (placement, side, castling, en passant[, halfmove, fullmove])"),
        F("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ),
    // Everything at once.
    (
        "r3k2r/8/8/8/8/8/8/1R2K2R w KQkq e6 3 0",
        E("impossible position: white may castle Queen-side, but the king is not on e1 or the rook not on a1"),
        F("r3k2r/8/8/8/8/8/8/1R2K2R w Kkq - 3 1"),
    ),
    // What lenient reading does not forgive: malformed fields ...
    (
        "",
        E("FEN has 0 fields; expected 4 to 6 (placement, side, castling, en passant[, halfmove, fullmove])"),
        E("FEN has 0 fields; expected 1 to 6 (placement[, side, castling, en passant, halfmove, fullmove])"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
        E("FEN has 7 fields; expected 4 to 6 (placement, side, castling, en passant[, halfmove, fullmove])"),
        E("FEN has 7 fields; expected 1 to 6 (placement[, side, castling, en passant, halfmove, fullmove])"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        E("FEN side to move is `x`; expected `w` or `b`"),
        E("FEN side to move is `x`; expected `w` or `b`"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w KK - 0 1",
        E("FEN castling field is `KK`; expected `-` or letters from KQkq, each at most once (rook files A-H and a-h only in Chess960 mode, naming a rook beside its king)"),
        E("FEN castling field is `KK`; expected `-` or letters from KQkq, each at most once (rook files A-H and a-h only in Chess960 mode, naming a rook beside its king)"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - x9 0 1",
        E("FEN en-passant field is `x9`; expected `-` or a square on rank 3 or 6 such as e3"),
        E("FEN en-passant field is `x9`; expected `-` or a square on rank 3 or 6 such as e3"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
        E("FEN halfmove clock is `-1`; expected a whole number of half-moves (0 or more)"),
        E("FEN halfmove clock is `-1`; expected a whole number of half-moves (0 or more)"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 0 -1",
        E("FEN fullmove number is `-1`; expected a whole number (1 or more)"),
        E("FEN fullmove number is `-1`; expected a whole number (1 or more)"),
    ),
    // ... and impossible positions.
    (
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        E("impossible position: white has no king"),
        E("impossible position: white has no king"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
        E("impossible position: a pawn stands on h1, on the first or eighth rank"),
        E("impossible position: a pawn stands on h1, on the first or eighth rank"),
    ),
    (
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        E("impossible position: the side not to move (black) is in check"),
        E("impossible position: the side not to move (black) is in check"),
    ),
    (
        "4k3/8/8/8/8/8/8/4K3 w - - 70000 1",
        E("impossible position: halfmove clock 70000 is above 65535, the largest a board keeps"),
        E("impossible position: halfmove clock 70000 is above 65535, the largest a board keeps"),
    ),
];

/// What `B` makes of `fen` with `options`.
fn read<B: Board>(fen: &str, options: FenOptions) -> String {
    match B::from_fen_with_options(fen, options) {
        Ok(b) => b.fen(),
        Err(e) => format!("error: {e}"),
    }
}

fn expected(want: Want) -> String {
    match want {
        Want::Fen(f) => f.to_string(),
        Want::Err(e) => format!("error: {e}"),
    }
}

fn check_table<B: Board>() {
    for &(fen, strict, lenient) in TABLE {
        assert_eq!(
            read::<B>(fen, FenOptions::STRICT),
            expected(strict),
            "strict {fen:?} ({})",
            B::NAME
        );
        assert_eq!(
            read::<B>(fen, FenOptions::LENIENT),
            expected(lenient),
            "lenient {fen:?} ({})",
            B::NAME
        );
    }
}

#[test]
fn strict_and_lenient_table_bitboards() {
    check_table::<Bitboards>();
}

#[test]
fn strict_and_lenient_table_0x88() {
    check_table::<Board0x88>();
}

#[test]
fn strict_and_lenient_table_mailbox() {
    check_table::<Mailbox>();
}

/// Strict is the default everywhere: `from_fen`, `from_fen_with`, and
/// `FenOptions::default()`.
#[test]
fn strict_is_the_default() {
    assert_eq!(FenOptions::default(), FenOptions::STRICT);
    assert_eq!(FenOptions::strict(), FenOptions::STRICT);
    assert_eq!(FenOptions::lenient(), FenOptions::LENIENT);
    for &(fen, strict, lenient) in TABLE {
        let got = match Bitboards::from_fen(fen) {
            Ok(b) => b.fen(),
            Err(e) => format!("error: {e}"),
        };
        assert_eq!(got, expected(strict), "{fen:?}");
        let got = match Bitboards::from_fen_lenient(fen) {
            Ok(b) => b.fen(),
            Err(e) => format!("error: {e}"),
        };
        assert_eq!(got, expected(lenient), "{fen:?}");
    }
}

/// Lenient parsing of a `Setup` repairs it before validation: the repaired
/// setup is one that validates (where the rest of it is sound).
#[test]
fn lenient_setup_is_repaired() {
    let setup = Setup::from_fen_lenient("r3k3/8/8/8/8/8/8/4K2R w KQkq e6 0 0").unwrap();
    assert_eq!(setup.to_fen(), "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
    assert!(fianchetto_board::validate(&setup).is_ok());
    // Strict parsing of the same text keeps what it read, for validation
    // to report.
    let setup = Setup::from_fen("r3k3/8/8/8/8/8/8/4K2R w KQkq e6 0 0").unwrap();
    assert_eq!(setup.to_fen(), "r3k3/8/8/8/8/8/8/4K2R w KQkq e6 0 0");
}

/// Chess960 notation, strict and lenient.
#[test]
fn chess960_lenient() {
    let c960 = FenOptions::STRICT.with_castling_mode(CastlingMode::Chess960);
    let lenient960 = FenOptions::LENIENT.with_castling_mode(CastlingMode::Chess960);
    // A file letter on the king's own file names no side of it.
    let fen = "4k3/8/8/8/8/8/8/R3K2R w EHA - 0 1";
    assert_eq!(
        Setup::from_fen_with_options(fen, c960),
        Err(FenError::Castling("EHA".into()))
    );
    assert_eq!(
        read::<Bitboards>(fen, lenient960),
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    );
    // A Shredder letter for a rook that is not there.
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRK1 w HFhf - 0 0";
    assert_eq!(
        read::<Bitboards>(fen, c960),
        "error: impossible position: white may castle King-side, but the king is not on g1 or the rook not on h1"
    );
    assert_eq!(
        read::<Mailbox>(fen, lenient960),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRK1 w Qkq - 0 1"
    );
    // Standard letters read as standard chess: the kings are not on e1/e8.
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRK1 w KQkq - 0 0";
    assert_eq!(
        read::<Board0x88>(fen, FenOptions::LENIENT),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRK1 w - - 0 1"
    );
}

/// No input makes either mode panic: every prefix of every table row, and
/// every row with one byte changed.
#[test]
fn no_input_panics() {
    let bytes: &[u8] = b" /-012345678KQRBNPkqrbnpwxeha\t";
    for &(fen, _, _) in TABLE {
        for end in 0..=fen.len() {
            if let Some(prefix) = fen.get(..end) {
                let _ = read::<Bitboards>(prefix, FenOptions::STRICT);
                let _ = read::<Bitboards>(prefix, FenOptions::LENIENT);
            }
        }
        for i in 0..fen.len() {
            for &b in bytes {
                let mut v = fen.as_bytes().to_vec();
                v[i] = b;
                if let Ok(s) = String::from_utf8(v) {
                    for options in [FenOptions::STRICT, FenOptions::LENIENT] {
                        let _ = read::<Bitboards>(&s, options);
                        let _ =
                            read::<Mailbox>(&s, options.with_castling_mode(CastlingMode::Chess960));
                    }
                }
            }
        }
    }
}
