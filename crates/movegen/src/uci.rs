//! UCI long algebraic notation (`e2e4`, `e7e8q`, `e1g1`): the move format of
//! the UCI protocol.
//!
//! Castling is written two ways. Standard chess writes the king's move
//! (`e1g1`), which is also what [`Move`]'s `Display` prints. Chess960 GUIs
//! (with the option `UCI_Chess960` on) write king takes rook (`e1h1`, or
//! `b1a1` for a king on b1 castling with the rook on a1), since the king's
//! move alone can be an ordinary king move there (b1c1) or no move at all
//! (a king already on g1). [`to_uci`] writes either; [`parse_uci`] reads
//! both.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board, CastlingMode};
//! use fianchetto_movegen::uci::{parse_uci, to_uci};
//!
//! let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNN1KR w Hhf - 0 1";
//! let board = Bitboards::from_fen_with(fen, CastlingMode::Chess960)?;
//! // The king on g1 castles short with the rook on h1: it stays on g1.
//! let castle = parse_uci(&board, "g1h1")?;
//! assert!(castle.is_castle());
//! assert_eq!(to_uci(&board, castle, true), "g1h1");
//! assert_eq!(to_uci(&board, castle, false), "g1g1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::MoveGen;
use fianchetto_board::{Board, CastlingRights, Color, Move, Role, Square};

/// Why a UCI move was not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciMoveError {
    /// Not of the form `<from><to>[promotion]`.
    #[error("`{0}` is not a UCI move (expected from- and to-square and an optional promotion letter, like e2e4 or e7e8q)")]
    Syntax(String),
    /// Well formed, but no legal move matches.
    #[error("`{text}` is not a legal move in {fen}")]
    Illegal {
        /// The text.
        text: String,
        /// The position.
        fen: String,
    },
}

/// Parses `text` as a legal move of `board`. Castling may be written as
/// the king's move (`e1g1`) or as king takes rook (`e1h1`), in standard
/// chess and Chess960 alike; where a Chess960 castling and an ordinary king
/// move share the king's squares, the king's-move text means the ordinary
/// move.
pub fn parse_uci<B: MoveGen>(board: &B, text: &str) -> Result<Move, UciMoveError> {
    let syntax = || UciMoveError::Syntax(text.to_string());
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return Err(syntax());
    }
    let from: Square = text[0..2].parse().map_err(|_| syntax())?;
    let to: Square = text[2..4].parse().map_err(|_| syntax())?;
    let promotion = match text[4..].chars().next() {
        None => None,
        Some(c) => match Role::from_char(c) {
            Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen))
                if c.is_ascii_lowercase() =>
            {
                Some(r)
            }
            _ => return Err(syntax()),
        },
    };
    let legal = board.legal_moves();
    let written = |m: &&Move| m.from() == from && m.promotion() == promotion;
    // The move as written; where a Chess960 king move and a castling share
    // the king's squares (b1c1), the text is the king move: castling is
    // then written king takes rook.
    let exact = legal.iter().filter(|m| written(m) && m.to() == to);
    let ordinary = exact.clone().find(|m| !m.is_castle());
    // King takes rook: the castling whose rook stands on `to`.
    let rights = board.castling();
    let takes_rook = || {
        legal.iter().filter(written).find(|m| {
            m.castling_side()
                .is_some_and(|side| rights.rook_square(board.turn(), side) == Some(to))
        })
    };
    ordinary
        .or_else(|| exact.clone().next())
        .or_else(takes_rook)
        .copied()
        .ok_or_else(|| UciMoveError::Illegal {
            text: text.to_string(),
            fen: board.fen(),
        })
}

/// Writes `mv`, a move of `board`, in UCI notation: castling as the king's
/// move (`e1g1`), or with `chess960` as king takes rook (`e1h1`).
pub fn to_uci<B: Board>(board: &B, mv: Move, chess960: bool) -> String {
    uci_string(mv, board.castling(), chess960)
}

/// Writes `mv` in UCI notation knowing only the castling rights of a
/// position it or an earlier position of its game had: rights are only
/// ever lost, never gained or moved, so the root's rights name the rook of
/// every castling in a principal variation. With `chess960` a castling is
/// written king takes rook (`e1h1`); otherwise, and for every other move,
/// this is `mv.to_string()`.
pub fn uci_string(mv: Move, rights: CastlingRights, chess960: bool) -> String {
    let rook = mv.castling_side().and_then(|side| {
        let color = if mv.from().rank().index() == 0 {
            Color::White
        } else {
            Color::Black
        };
        rights.rook_square(color, side)
    });
    match rook {
        Some(rook) if chess960 => format!("{}{rook}", mv.from()),
        _ => mv.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, Board};

    #[test]
    fn parses_and_rejects() {
        let b = Bitboards::startpos();
        assert_eq!(parse_uci(&b, "e2e4").unwrap().to_string(), "e2e4");
        for bad in ["", "e2", "e2e9", "e2e4qq", "e7e8k", "é2e4", "e2e4Q"] {
            assert!(
                matches!(parse_uci(&b, bad), Err(UciMoveError::Syntax(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            parse_uci(&b, "e2e5"),
            Err(UciMoveError::Illegal { .. })
        ));
        let c = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert!(parse_uci(&c, "e1g1").unwrap().is_castle());
        assert!(parse_uci(&c, "e1a1").unwrap().is_castle());
        let p = Bitboards::from_fen("8/4P3/8/8/8/8/8/k3K3 w - - 0 1").unwrap();
        assert_eq!(
            parse_uci(&p, "e7e8n").unwrap().promotion(),
            Some(Role::Knight)
        );
        assert!(parse_uci(&p, "e7e8").is_err());
    }
}
