//! How a game's moves are read: the tags that decide it (`FEN`, `Variant`)
//! and the movetext's moves (SAN, UCI notation, null moves), shared by the
//! visitors that play games.

use super::error::PgnErrorKind;
use crate::san::parse_san;
use crate::uci::parse_uci;
use crate::MoveGen;
use fianchetto_board::{CastlingMode, FenOptions, Move};

/// The `Variant` values read as standard chess (compared without case).
const STANDARD: [&str; 6] = [
    "",
    "standard",
    "chess",
    "classical",
    "normal",
    "from position",
];

/// The `Variant` values read as Chess960 (compared without case): the
/// spellings of ChessBase, Lichess, cutechess and python-chess.
const CHESS960: [&str; 5] = [
    "chess960",
    "chess 960",
    "fischerandom",
    "fischerrandom",
    "fischer random",
];

/// The tags [`start_tag`] reads.
pub(crate) const START_TAGS: [&str; 2] = ["FEN", "Variant"];

/// Checks a tag that decides how the moves are read: the start position of
/// a `FEN` tag, and a `Variant` other than standard chess and Chess960
/// (refused).
///
/// A `FEN` is read with Chess960 castling (X-FEN or Shredder-FEN), which
/// reads every standard position as standard FEN does, so that a Chess960
/// game reads whatever the order of its `Variant` and `FEN` tags; and, as
/// python-chess reads it, leniently: castling rights whose rook or king has
/// moved, an impossible en-passant square and missing clocks are repaired.
pub(crate) fn start_tag<B: MoveGen>(name: &str, value: &str) -> Result<Option<B>, PgnErrorKind> {
    match name {
        "FEN" => {
            let options = FenOptions::LENIENT.with_castling_mode(CastlingMode::Chess960);
            B::from_fen_with_options(value.trim(), options)
                .map(Some)
                .map_err(PgnErrorKind::Fen)
        }
        "Variant" => {
            let variant = value.trim();
            let known = |names: &[&str]| names.iter().any(|v| v.eq_ignore_ascii_case(variant));
            if known(&STANDARD) || known(&CHESS960) {
                Ok(None)
            } else {
                Err(PgnErrorKind::Unsupported(format!(
                    "the variant {value:?}; only standard chess and Chess960 are read"
                )))
            }
        }
        _ => Ok(None),
    }
}

/// Resolves a move of the movetext in `board`: SAN (`Nf3`, with the
/// variants [`parse_san`] accepts), or UCI notation (`g1f3`, `e7e8q`,
/// castling as `e1g1` or as the king taking its rook), which some programs
/// write into PGN.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::pgn::read_move;
///
/// let board = Bitboards::startpos();
/// assert_eq!(read_move(&board, "Nf3")?, read_move(&board, "g1f3")?);
/// assert!(read_move(&board, "Nf6").is_err());
/// # Ok::<(), fianchetto_movegen::pgn::PgnErrorKind>(())
/// ```
pub fn read_move<B: MoveGen>(board: &B, text: &str) -> Result<Move, PgnErrorKind> {
    if is_uci_shaped(text) {
        parse_uci(board, text).map_err(PgnErrorKind::Uci)
    } else {
        parse_san(board, text).map_err(PgnErrorKind::San)
    }
}

/// Plays a null move on `board`, refused when its side to move is in check.
pub(crate) fn play_null<B: MoveGen>(board: &mut B) -> Result<(), PgnErrorKind> {
    if board.in_check() {
        return Err(PgnErrorKind::NullMoveInCheck { fen: board.fen() });
    }
    board.play_null();
    Ok(())
}

/// Whether a movetext symbol is a move in UCI notation (`g1f3`, `e7e8q`):
/// two squares and perhaps a promotion letter, which SAN never writes.
pub(crate) fn is_uci_shaped(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    matches!(b.len(), 4 | 5)
        && square(b[0], b[1])
        && square(b[2], b[3])
        && b.get(4)
            .is_none_or(|p| matches!(p.to_ascii_lowercase(), b'q' | b'r' | b'b' | b'n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_shape() {
        for yes in ["g1f3", "e7e8q", "e7e8N", "a1h8", "e2e4"] {
            assert!(is_uci_shaped(yes), "{yes}");
        }
        for no in [
            "Nf3", "e4", "e7e8k", "i1f3", "g9f3", "g1f3qq", "exd5", "Ng1f3", "O-O", "exd8=Q+",
            "e2-e4", "i2i4", "e2e4qq",
        ] {
            assert!(!is_uci_shaped(no), "{no}");
        }
    }

    #[test]
    fn variants() {
        use fianchetto_board::Bitboards;
        for ok in [
            "Standard",
            "chess 960",
            "FischeRandom",
            "Fischer Random",
            "From Position",
        ] {
            assert!(start_tag::<Bitboards>("Variant", ok).is_ok(), "{ok}");
        }
        for no in [
            "Crazyhouse",
            "atomic",
            "Antichess",
            "King of the Hill",
            "wild/5",
        ] {
            assert!(
                matches!(
                    start_tag::<Bitboards>("Variant", no),
                    Err(PgnErrorKind::Unsupported(_))
                ),
                "{no}"
            );
        }
    }
}
