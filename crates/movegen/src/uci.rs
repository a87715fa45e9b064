//! UCI long algebraic notation (`e2e4`, `e7e8q`, `e1g1`): the move format of
//! the UCI protocol.

use crate::MoveGen;
use fianchetto_board::{Move, Role, Square};

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

/// Parses `text` as a legal move of `board`. Castling is the king's move
/// (`e1g1`); the king-takes-rook form (`e1h1`) is accepted too.
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
            Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) if c.is_ascii_lowercase() => Some(r),
            _ => return Err(syntax()),
        },
    };
    board
        .legal_moves()
        .into_iter()
        .find(|m| {
            m.from() == from
                && m.promotion() == promotion
                && (m.to() == to || (m.is_castle() && castle_rook_square(*m) == Some(to)))
        })
        .ok_or_else(|| UciMoveError::Illegal { text: text.to_string(), fen: board.fen() })
}

/// Where the rook of a castling move starts (for the king-takes-rook form).
fn castle_rook_square(mv: Move) -> Option<Square> {
    let rank = mv.from().index() & !7;
    let file = if mv.to().index() > mv.from().index() { 7 } else { 0 };
    Square::new((rank + file) as u8)
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
            assert!(matches!(parse_uci(&b, bad), Err(UciMoveError::Syntax(_))), "{bad}");
        }
        assert!(matches!(parse_uci(&b, "e2e5"), Err(UciMoveError::Illegal { .. })));
        let c = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert!(parse_uci(&c, "e1g1").unwrap().is_castle());
        assert!(parse_uci(&c, "e1a1").unwrap().is_castle());
        let p = Bitboards::from_fen("8/4P3/8/8/8/8/8/k3K3 w - - 0 1").unwrap();
        assert_eq!(parse_uci(&p, "e7e8n").unwrap().promotion(), Some(Role::Knight));
        assert!(parse_uci(&p, "e7e8").is_err());
    }
}
