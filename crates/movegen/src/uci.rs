//! UCI long algebraic notation (`e2e4`, `e7e8q`, `e1g1`, `0000`): the move
//! format of the UCI protocol.
//!
//! [`UciMove`] is the text's meaning without a position: a from-square, a
//! to-square and an optional promotion letter, or the null move `0000`.
//! Parsing it checks the syntax only, with a [`ParseUciMoveError`] that says
//! what is wrong; [`UciMove::to_move`] then finds the legal [`Move`] it
//! names in a position, and [`UciMove::from_move`] goes back.
//!
//! Castling is written two ways. Standard chess writes the king's move
//! (`e1g1`), which is also what [`Move`]'s `Display` prints. Chess960 GUIs
//! (with the option `UCI_Chess960` on) write king takes rook (`e1h1`, or
//! `b1a1` for a king on b1 castling with the rook on a1), since the king's
//! move alone can be an ordinary king move there (b1c1) or no move at all
//! (a king already on g1). [`UciMove::from_move`] writes either, as its
//! [`CastlingMode`] says; [`UciMove::to_move`] reads both.
//!
//! [`parse_uci`], [`to_uci`] and [`uci_string`] are the same operations on
//! text in one call.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board, CastlingMode, Square};
//! use fianchetto_movegen::uci::{parse_uci, to_uci, UciMove};
//!
//! // Without a position: only the syntax.
//! let uci: UciMove = "e7e8q".parse()?;
//! assert_eq!(uci, UciMove::Normal {
//!     from: Square::E7,
//!     to: Square::E8,
//!     promotion: Some(fianchetto_board::Role::Queen),
//! });
//! assert_eq!(uci.to_string(), "e7e8q");
//! assert_eq!("e7e9".parse::<UciMove>().unwrap_err().to_string(),
//!            "`e7e9` is not a UCI move (characters 3 and 4 are not a square such as e4; \
//!             expected from- and to-square and an optional promotion letter, like e2e4 or e7e8q)");
//!
//! let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNN1KR w Hhf - 0 1";
//! let board = Bitboards::from_fen_with(fen, CastlingMode::Chess960)?;
//! // The king on g1 castles short with the rook on h1: it stays on g1.
//! let castle = parse_uci(&board, "g1h1")?;
//! assert!(castle.is_castle());
//! assert_eq!(to_uci(&board, castle, CastlingMode::Chess960), "g1h1");
//! assert_eq!(to_uci(&board, castle, CastlingMode::Standard), "g1g1");
//! // The same through the types.
//! let text = UciMove::from_move(castle, board.castling(), CastlingMode::Chess960);
//! assert_eq!(text.to_move(&board)?, castle);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::MoveGen;
use alloc::string::{String, ToString};
use core::fmt;
use core::str::FromStr;
use fianchetto_board::{
    Board, CastlingMode, CastlingRights, Color, File, Move, Rank, Role, Square,
};

/// A move in UCI notation, read without a position: what the text says,
/// not yet checked against any board. With the cargo feature `serde`, serde
/// writes and reads it as its text (`e2e4`).
///
/// ```
/// use fianchetto_board::{Bitboards, Board, Square};
/// use fianchetto_movegen::uci::UciMove;
///
/// let uci: UciMove = "g1f3".parse()?;
/// assert_eq!(uci, UciMove::Normal { from: Square::G1, to: Square::F3, promotion: None });
/// let mv = uci.to_move(&Bitboards::startpos())?;
/// assert_eq!(UciMove::from(mv), uci);
/// assert_eq!("0000".parse::<UciMove>()?, UciMove::Null);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// A move from one square to another (`e2e4`), with the piece a pawn
    /// promotes to (`e7e8q`). Castling is the king's move (`e1g1`) or, in
    /// Chess960 notation, king takes rook (`e1h1`).
    Normal {
        /// The square the piece leaves (the king's, for castling).
        from: Square,
        /// The square it goes to, or the castling rook's square.
        to: Square,
        /// The promotion piece: knight, bishop, rook or queen.
        promotion: Option<Role>,
    },
    /// The null move `0000`: no move (what an engine answers with
    /// `bestmove` when there is nothing to play).
    Null,
}

/// What is wrong with the syntax of a UCI move (the reason inside a
/// [`ParseUciMoveError`]).
///
/// ```
/// use fianchetto_movegen::uci::{UciMove, UciSyntaxError};
///
/// assert_eq!(UciMove::parse("e2").unwrap_err().reason, UciSyntaxError::Length(2));
/// assert_eq!(UciMove::parse("e7e8Q").unwrap_err().reason, UciSyntaxError::Promotion('Q'));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum UciSyntaxError {
    /// Not 4 or 5 characters.
    #[error("it has {0} characters, not 4 or 5")]
    Length(usize),
    /// A character outside ASCII.
    #[error("it contains a character that is not ASCII")]
    NotAscii,
    /// The first two characters are not a square.
    #[error("its first two characters are not a square such as e2")]
    From,
    /// The third and fourth characters are not a square.
    #[error("characters 3 and 4 are not a square such as e4")]
    To,
    /// The fifth character is not a promotion letter.
    #[error("`{0}` is not a promotion letter (n, b, r or q, in lower case)")]
    Promotion(char),
}

/// Text that is not a UCI move. The message names the text and what is
/// wrong with it.
///
/// ```
/// use fianchetto_movegen::uci::{ParseUciMoveError, UciMove, UciSyntaxError};
///
/// let err: ParseUciMoveError = "i2i4".parse::<UciMove>().unwrap_err();
/// assert_eq!((err.text.as_str(), err.reason), ("i2i4", UciSyntaxError::From));
/// assert_eq!(err.to_string(),
///            "`i2i4` is not a UCI move (its first two characters are not a square such as e2; \
///             expected from- and to-square and an optional promotion letter, like e2e4 or e7e8q)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("`{text}` is not a UCI move ({reason}; expected from- and to-square and an optional promotion letter, like e2e4 or e7e8q)")]
pub struct ParseUciMoveError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: UciSyntaxError,
}

/// Why a UCI move was not accepted in a position.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::{parse_uci, UciMoveError};
///
/// let board = Bitboards::startpos();
/// assert!(matches!(parse_uci(&board, "e2e9"), Err(UciMoveError::Syntax(_))));
/// assert!(matches!(parse_uci(&board, "e2e5"), Err(UciMoveError::Illegal { .. })));
/// assert!(matches!(parse_uci(&board, "0000"), Err(UciMoveError::Null { .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciMoveError {
    /// Not of the form `<from><to>[promotion]` (see [`ParseUciMoveError`]).
    #[error(transparent)]
    Syntax(#[from] ParseUciMoveError),
    /// Well formed, but no legal move matches.
    #[error("`{text}` is not a legal move in {fen}")]
    Illegal {
        /// The text.
        text: String,
        /// The position.
        fen: String,
    },
    /// The null move `0000`, which no position has among its legal moves.
    #[error("`0000` is the null move, not a legal move (in {fen})")]
    Null {
        /// The position.
        fen: String,
    },
}

impl UciMove {
    /// Reads UCI text: `e2e4`, `e7e8q` (promotion letters in lower case, as
    /// the protocol writes them) or `0000`. Surrounding spaces are not
    /// part of a move and are rejected.
    pub fn parse(text: &str) -> Result<UciMove, ParseUciMoveError> {
        parse_syntax(text).map_err(|reason| ParseUciMoveError {
            text: text.to_string(),
            reason,
        })
    }

    /// The UCI text of `mv`, a move played in a position with castling
    /// rights `rights` (or in any later position of the same game: rights
    /// are only ever lost, so a game's first rights name the rook of every
    /// castling in it). With [`CastlingMode::Chess960`] a castling is
    /// written king takes rook (`e1h1`); otherwise, and for every other
    /// move, as the king's move (`e1g1`), as [`Move`]'s `Display` writes
    /// it. [`Move::NULL`] is [`UciMove::Null`].
    ///
    /// ```
    /// use fianchetto_board::{CastlingMode, CastlingRights, Move, MoveKind, Square};
    /// use fianchetto_movegen::uci::UciMove;
    ///
    /// let castle = Move::new(Square::E1, Square::G1, MoveKind::KingCastle);
    /// let rights = CastlingRights::ALL;
    /// assert_eq!(UciMove::from_move(castle, rights, CastlingMode::Standard).to_string(), "e1g1");
    /// assert_eq!(UciMove::from_move(castle, rights, CastlingMode::Chess960).to_string(), "e1h1");
    /// ```
    pub fn from_move(mv: Move, rights: CastlingRights, mode: CastlingMode) -> UciMove {
        if mv.is_null() {
            return UciMove::Null;
        }
        let rook = mv.castling_side().and_then(|side| {
            let color = if mv.from().rank() == Rank::FIRST {
                Color::White
            } else {
                Color::Black
            };
            rights.rook_square(color, side)
        });
        let to = match rook {
            Some(rook) if mode.is_chess960() => rook,
            _ => mv.to(),
        };
        UciMove::Normal {
            from: mv.from(),
            to,
            promotion: mv.promotion(),
        }
    }

    /// The legal move of `board` this text names. Castling may be written
    /// as the king's move (`e1g1`) or as king takes rook (`e1h1`), in
    /// standard chess and Chess960 alike; where a Chess960 castling and an
    /// ordinary king move share the king's squares (king b1 to c1), the
    /// king's-move text means the ordinary move. The null move is never
    /// legal.
    ///
    /// ```
    /// use fianchetto_board::{Bitboards, Board};
    /// use fianchetto_movegen::uci::{UciMove, UciMoveError};
    ///
    /// let board = Bitboards::startpos();
    /// let uci: UciMove = "e2e5".parse()?;
    /// assert_eq!(uci.to_move(&board).unwrap_err().to_string(),
    ///            "`e2e5` is not a legal move in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    /// assert!(matches!(UciMove::Null.to_move(&board), Err(UciMoveError::Null { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_move<B: MoveGen>(&self, board: &B) -> Result<Move, UciMoveError> {
        let UciMove::Normal {
            from,
            to,
            promotion,
        } = *self
        else {
            return Err(UciMoveError::Null { fen: board.fen() });
        };
        let legal = board.legal_moves();
        let written = |m: &&Move| m.from() == from && m.promotion() == promotion;
        // The move as written; where a Chess960 king move and a castling
        // share the king's squares (b1c1), the text is the king move:
        // castling is then written king takes rook.
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
                text: self.to_string(),
                fen: board.fen(),
            })
    }

    /// Whether this is [`UciMove::Null`].
    pub const fn is_null(self) -> bool {
        matches!(self, UciMove::Null)
    }
}

/// Reads the syntax of `text`, or says what is wrong with it.
fn parse_syntax(text: &str) -> Result<UciMove, UciSyntaxError> {
    if !text.is_ascii() {
        return Err(UciSyntaxError::NotAscii);
    }
    let b = text.as_bytes();
    if b == b"0000" {
        return Ok(UciMove::Null);
    }
    if !(4..=5).contains(&b.len()) {
        return Err(UciSyntaxError::Length(text.chars().count()));
    }
    let square =
        |file: u8, rank: u8| match (File::from_char(file as char), Rank::from_char(rank as char)) {
            (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
            _ => None,
        };
    let from = square(b[0], b[1]).ok_or(UciSyntaxError::From)?;
    let to = square(b[2], b[3]).ok_or(UciSyntaxError::To)?;
    let promotion = match b.get(4) {
        None => None,
        Some(&c) => match c {
            b'n' => Some(Role::Knight),
            b'b' => Some(Role::Bishop),
            b'r' => Some(Role::Rook),
            b'q' => Some(Role::Queen),
            _ => return Err(UciSyntaxError::Promotion(c as char)),
        },
    };
    Ok(UciMove::Normal {
        from,
        to,
        promotion,
    })
}

impl FromStr for UciMove {
    type Err = ParseUciMoveError;
    fn from_str(text: &str) -> Result<UciMove, ParseUciMoveError> {
        UciMove::parse(text)
    }
}

impl UciMove {
    /// Writes the UCI text (`e2e4`, `e7e8q`, `0000`) to `out`, character
    /// by character: [`Display`](fmt::Display) writes it so, and a writer
    /// of many moves into one `String` calls it without a `String` per move
    /// (writing to a `String` never fails).
    ///
    /// ```
    /// use fianchetto_movegen::uci::UciMove;
    /// let mut out = String::from("bestmove ");
    /// "e7e8q".parse::<UciMove>()?.write_to(&mut out).unwrap();
    /// assert_eq!(out, "bestmove e7e8q");
    /// # Ok::<(), fianchetto_movegen::uci::ParseUciMoveError>(())
    /// ```
    pub fn write_to<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        match *self {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                for sq in [from, to] {
                    out.write_char(sq.file().char())?;
                    out.write_char(sq.rank().char())?;
                }
                match promotion {
                    Some(role) => out.write_char(role.char()),
                    None => Ok(()),
                }
            }
            UciMove::Null => out.write_str("0000"),
        }
    }
}

impl fmt::Display for UciMove {
    /// The UCI text: `e2e4`, `e7e8q`, `0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl From<Move> for UciMove {
    /// The UCI text of a move in standard notation: castling as the king's
    /// move (`e1g1`), the null move as `0000`. Chess960 castling needs the
    /// rook's square: see [`UciMove::from_move`].
    fn from(mv: Move) -> UciMove {
        UciMove::from_move(mv, CastlingRights::NONE, CastlingMode::Standard)
    }
}

/// Parses `text` as a legal move of `board`: [`UciMove::parse`], then
/// [`UciMove::to_move`] (castling as the king's move or as king takes
/// rook).
pub fn parse_uci<B: MoveGen>(board: &B, text: &str) -> Result<Move, UciMoveError> {
    UciMove::parse(text)?.to_move(board)
}

/// Writes `mv`, a move of `board`, in UCI notation: castling as the king's
/// move (`e1g1`) in [`CastlingMode::Standard`], as king takes rook (`e1h1`)
/// in [`CastlingMode::Chess960`]. See [`UciMove::from_move`].
///
/// ```
/// use fianchetto_board::{Bitboards, Board, CastlingMode};
/// use fianchetto_movegen::{parse_san, to_uci};
///
/// let board = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
/// let castle = parse_san(&board, "O-O")?;
/// assert_eq!(to_uci(&board, castle, CastlingMode::Standard), "e1g1");
/// assert_eq!(to_uci(&board, castle, CastlingMode::Chess960), "e1h1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_uci<B: Board>(board: &B, mv: Move, mode: CastlingMode) -> String {
    uci_string(mv, board.castling(), mode)
}

/// Writes `mv` in UCI notation knowing only the castling rights of a
/// position it or an earlier position of its game had (as a principal
/// variation printed with its root's rights). In
/// [`CastlingMode::Chess960`] a castling is written king takes rook
/// (`e1h1`); otherwise, and for every other move, this is
/// `mv.to_string()`. See [`UciMove::from_move`].
pub fn uci_string(mv: Move, rights: CastlingRights, mode: CastlingMode) -> String {
    UciMove::from_move(mv, rights, mode).to_string()
}

#[cfg(feature = "serde")]
impl serde::Serialize for UciMove {
    /// The text (`Display`), in every format.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for UciMove {
    /// Reads the text with [`UciMove::parse`]; a syntax error is the
    /// deserializer's error, with the parser's message.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<UciMove, D::Error> {
        fianchetto_board::serde_support::from_text(
            d,
            "UCI move text such as e2e4, e7e8q or 0000",
            UciMove::parse,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, Board, MoveKind};

    /// Malformed text and the exact reason given for it.
    #[test]
    fn syntax_errors_are_exact() {
        use UciSyntaxError::*;
        let cases: &[(&str, UciSyntaxError, &str)] = &[
            ("", Length(0), "it has 0 characters, not 4 or 5"),
            ("e2", Length(2), "it has 2 characters, not 4 or 5"),
            ("e2e4qq", Length(6), "it has 6 characters, not 4 or 5"),
            (
                " e2e4",
                From,
                "its first two characters are not a square such as e2",
            ),
            (
                "e2e4 ",
                Promotion(' '),
                "` ` is not a promotion letter (n, b, r or q, in lower case)",
            ),
            ("000", Length(3), "it has 3 characters, not 4 or 5"),
            (
                "00000",
                From,
                "its first two characters are not a square such as e2",
            ),
            (
                "é2e4",
                NotAscii,
                "it contains a character that is not ASCII",
            ),
            (
                "e2e♞",
                NotAscii,
                "it contains a character that is not ASCII",
            ),
            (
                "i2e4",
                From,
                "its first two characters are not a square such as e2",
            ),
            (
                "e9e4",
                From,
                "its first two characters are not a square such as e2",
            ),
            (
                "E2E4",
                From,
                "its first two characters are not a square such as e2",
            ),
            ("e2e9", To, "characters 3 and 4 are not a square such as e4"),
            ("e2-4", To, "characters 3 and 4 are not a square such as e4"),
            (
                "e7e8Q",
                Promotion('Q'),
                "`Q` is not a promotion letter (n, b, r or q, in lower case)",
            ),
            (
                "e7e8k",
                Promotion('k'),
                "`k` is not a promotion letter (n, b, r or q, in lower case)",
            ),
            (
                "e7e8p",
                Promotion('p'),
                "`p` is not a promotion letter (n, b, r or q, in lower case)",
            ),
            (
                "e7e8=",
                Promotion('='),
                "`=` is not a promotion letter (n, b, r or q, in lower case)",
            ),
        ];
        for &(text, reason, message) in cases {
            let err = UciMove::parse(text).unwrap_err();
            assert_eq!(err.reason, reason, "{text:?}");
            assert_eq!(err.text, text);
            assert_eq!(
                err.to_string(),
                format!("`{text}` is not a UCI move ({message}; expected from- and to-square and an optional promotion letter, like e2e4 or e7e8q)"),
            );
            // parse_uci gives the same error, wrapped.
            assert_eq!(
                parse_uci(&Bitboards::startpos(), text),
                Err(UciMoveError::Syntax(err.clone()))
            );
            assert_eq!(
                parse_uci(&Bitboards::startpos(), text)
                    .unwrap_err()
                    .to_string(),
                err.to_string()
            );
        }
    }

    /// Every text of 4 or 5 characters over a small alphabet either parses
    /// and writes back unchanged, or is rejected without a panic.
    #[test]
    fn parse_display_round_trip() {
        let alphabet = ['a', 'e', 'h', 'i', '0', '1', '8', '9', 'q', 'Q', 'k', '-'];
        let mut accepted = 0;
        for a in alphabet {
            for b in alphabet {
                for c in alphabet {
                    for d in alphabet {
                        for e in [None, Some('q'), Some('n'), Some('x')] {
                            let mut text: String = [a, b, c, d].iter().collect();
                            text.extend(e);
                            if let Ok(uci) = UciMove::parse(&text) {
                                assert_eq!(uci.to_string(), text);
                                accepted += 1;
                            }
                        }
                    }
                }
            }
        }
        // 6 squares (files a, e, h; ranks 1, 8) squared, times 3 endings, and 0000.
        assert_eq!(accepted, 6 * 6 * 3 + 1);
    }

    #[test]
    fn resolves_and_writes_back() {
        let b = Bitboards::startpos();
        let uci: UciMove = "g1f3".parse().unwrap();
        let mv = uci.to_move(&b).unwrap();
        assert_eq!(mv, Move::new(Square::G1, Square::F3, MoveKind::Quiet));
        assert_eq!(UciMove::from(mv), uci);
        assert_eq!(UciMove::from(Move::NULL), UciMove::Null);
        assert_eq!(
            UciMove::Null.to_move(&b).unwrap_err().to_string(),
            "`0000` is the null move, not a legal move (in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1)"
        );
        assert_eq!(
            parse_uci(&b, "0000").unwrap_err(),
            UciMoveError::Null { fen: b.fen() }
        );
        assert_eq!(
            parse_uci(&b, "e7e5").unwrap_err().to_string(),
            "`e7e5` is not a legal move in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        // Every legal move of some positions, both notations, round-trips.
        let fens = [
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ];
        for fen in fens {
            let b = Bitboards::from_fen(fen).unwrap();
            for &mv in &b.legal_moves() {
                for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                    let uci = UciMove::from_move(mv, b.castling(), mode);
                    assert_eq!(uci.to_move(&b), Ok(mv), "{uci} in {fen}");
                    assert_eq!(uci.to_string().parse::<UciMove>(), Ok(uci));
                }
            }
        }
        // Chess960 text of a castling names the rook.
        let c = Bitboards::from_fen(fens[0]).unwrap();
        let long = parse_uci(&c, "e1c1").unwrap();
        assert_eq!(
            UciMove::from_move(long, c.castling(), CastlingMode::Chess960).to_string(),
            "e1a1"
        );
        assert_eq!(UciMove::from(long).to_string(), "e1c1");
    }

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
