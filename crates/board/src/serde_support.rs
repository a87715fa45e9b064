//! serde support (cargo feature `serde`, off by default): how each value type and each
//! position is written and read.
//!
//! | type | human-readable formats (JSON, TOML, ...) | compact formats (bincode, ...) |
//! |------|------------------------------------------|--------------------------------|
//! | [`Square`] | `"e4"` | the same text |
//! | [`Piece`] | its FEN letter: `"N"`, `"n"` | the same text |
//! | [`Color`], [`Role`](crate::Role), [`CastlingSide`], [`CastlingMode`], [`MoveKind`] | the variant's name: `"White"`, `"Knight"`, `"DoublePush"` | the variant's index |
//! | [`Move`] | `{"from": "e2", "to": "e4", "kind": "DoublePush"}` | its 16 bits ([`Move::bits`]) |
//! | [`CastlingRights`] | `"KQkq"`, `"Kq"`, `"-"` for standard rights; Shredder-FEN rook files, `/`, and the white and black king files otherwise: `"HFhf/gg"` | the same text |
//! | [`Setup`], [`Bitboards`], [`Board0x88`](crate::Board0x88), [`Mailbox`](crate::Mailbox) | FEN text ([`Setup::to_fen`]: X-FEN castling) | the same text |
//!
//! Reading checks everything: a square must be a square name, a move's bits
//! one of the defined kinds, castling rights' rooks on a side of their king,
//! a position a valid FEN of a legal position (read with X-FEN castling,
//! [`CastlingMode::Chess960`], which reads every valid standard FEN as
//! standard chess and also takes Chess960 positions). The error message is
//! the parser's own, such as ``impossible position: white has no king``.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board, Move, MoveKind, Square};
//!
//! let mv = Move::new(Square::E2, Square::E4, MoveKind::DoublePush);
//! let json = serde_json::to_string(&mv)?;
//! assert_eq!(json, r#"{"from":"e2","to":"e4","kind":"DoublePush"}"#);
//! assert_eq!(serde_json::from_str::<Move>(&json)?, mv);
//!
//! let board: Bitboards = serde_json::from_str(r#""4k3/8/8/8/8/8/8/4K2R w K - 0 1""#)?;
//! assert_eq!(serde_json::to_string(&board)?, r#""4k3/8/8/8/8/8/8/4K2R w K - 0 1""#);
//! let err = serde_json::from_str::<Bitboards>(r#""8/8/8/8/8/8/8/8 w - - 0 1""#).unwrap_err();
//! assert_eq!(err.to_string(), "impossible position: white has no king at line 1 column 27");
//! # Ok::<(), serde_json::Error>(())
//! ```

use crate::array::{ArrayBoard, Geometry};
use crate::castling::{CastlingMode, CastlingRights, CastlingSide};
use crate::mv::{Move, MoveKind};
use crate::setup::Setup;
use crate::types::{Color, File, Piece, Square};
use crate::{Bitboards, Board};
use alloc::format;
use alloc::string::{String, ToString};
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// A visitor reading a string with `parse`, whose error message becomes the
/// deserializer's error.
struct ParseVisitor<T, F> {
    expecting: &'static str,
    parse: F,
    out: PhantomData<T>,
}

impl<'de, T, E: fmt::Display, F: FnOnce(&str) -> Result<T, E>> Visitor<'de> for ParseVisitor<T, F> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_str<Er: de::Error>(self, v: &str) -> Result<T, Er> {
        (self.parse)(v).map_err(Er::custom)
    }
}

/// Deserializes a value written as text: `d` must hold a string, which
/// `parse` turns into the value; `parse`'s error message becomes the
/// deserializer's error, and `expecting` names what a string should hold
/// (for messages about a non-string). Other crates of the workspace read
/// their text types (SAN, UCI moves) with it too.
///
/// ```
/// use fianchetto_board::serde_support::from_text;
///
/// let mut d = serde_json::Deserializer::from_str(r#""12""#);
/// let n: u8 = from_text(&mut d, "a small number", str::parse::<u8>)?;
/// assert_eq!(n, 12);
/// let mut d = serde_json::Deserializer::from_str(r#""x""#);
/// assert!(from_text(&mut d, "a small number", str::parse::<u8>).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn from_text<'de, D, T, E>(
    d: D,
    expecting: &'static str,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    E: fmt::Display,
{
    d.deserialize_str(ParseVisitor {
        expecting,
        parse,
        out: PhantomData,
    })
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        from_text(d, "a square name such as e4", str::parse::<Square>)
    }
}

impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Piece {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Piece, D::Error> {
        from_text(d, "a FEN piece letter such as N or n", |v| {
            let mut chars = v.chars();
            match (chars.next().and_then(Piece::from_char), chars.next()) {
                (Some(p), None) => Ok(p),
                _ => Err(format!(
                    "`{v}` is not a piece; expected one FEN letter (PNBRQK for white, pnbrqk for black)"
                )),
            }
        })
    }
}

/// A move as human-readable formats write it.
#[derive(Serialize, Deserialize)]
#[serde(rename = "Move", deny_unknown_fields)]
struct MoveFields {
    from: Square,
    to: Square,
    kind: MoveKind,
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            MoveFields {
                from: self.from(),
                to: self.to(),
                kind: self.kind(),
            }
            .serialize(s)
        } else {
            s.serialize_u16(self.bits())
        }
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        if d.is_human_readable() {
            let m = MoveFields::deserialize(d)?;
            Ok(Move::new(m.from, m.to, m.kind))
        } else {
            let bits = u16::deserialize(d)?;
            Move::from_bits(bits).ok_or_else(|| {
                de::Error::custom(format_args!(
                    "{bits:#06x} is not a move: its kind (the top 4 bits) is 6 or 7, which no move has"
                ))
            })
        }
    }
}

impl CastlingRights {
    /// The rights as serde writes them: `KQkq`-style letters (or `-`) for
    /// standard rights, else the Shredder-FEN rook files, `/`, and the
    /// white and black king files (`HFhf/gg`).
    fn serde_text(self) -> String {
        if self.is_standard() {
            return self.to_string();
        }
        let king = |color| self.king_file(color).unwrap_or(File::E).char();
        format!(
            "{}/{}{}",
            self.shredder(),
            king(Color::White),
            king(Color::Black)
        )
    }

    /// Reads [`CastlingRights::serde_text`].
    fn from_serde_text(text: &str) -> Result<CastlingRights, String> {
        let error = |why: &str| {
            format!("`{text}` is not castling rights ({why}; expected KQkq letters, -, or rook files and king files such as HFhf/gg)")
        };
        let (rooks, kings) = match text.split_once('/') {
            None => {
                let mut bits = 0u8;
                if text != "-" {
                    for c in text.chars() {
                        let bit = match c {
                            'K' => 1,
                            'Q' => 2,
                            'k' => 4,
                            'q' => 8,
                            _ => return Err(error("a letter other than K, Q, k, q")),
                        };
                        if bits & bit != 0 {
                            return Err(error("a right given twice"));
                        }
                        bits |= bit;
                    }
                }
                return Ok(CastlingRights::from_bits(bits));
            }
            Some(parts) => parts,
        };
        let mut king_files = kings.chars().map(File::from_char);
        let (Some(Some(white)), Some(Some(black)), None) =
            (king_files.next(), king_files.next(), king_files.next())
        else {
            return Err(error("the king files after `/` must be two letters a-h"));
        };
        let mut rights = CastlingRights::NONE;
        if rooks == "-" {
            return Ok(rights);
        }
        for c in rooks.chars() {
            let (color, king) = if c.is_ascii_uppercase() {
                (Color::White, white)
            } else {
                (Color::Black, black)
            };
            let rook = File::from_char(c.to_ascii_lowercase())
                .ok_or_else(|| error("a rook file that is not a letter a-h or A-H"))?;
            let side = CastlingSide::of_rook(king, rook)
                .ok_or_else(|| error("a rook on its king's file"))?;
            if rights.has(color, side) {
                return Err(error("two rooks on one side of a king"));
            }
            rights = rights.with_files(color, side, king, rook);
        }
        Ok(rights)
    }
}

impl Serialize for CastlingRights {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.serde_text())
    }
}

impl<'de> Deserialize<'de> for CastlingRights {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CastlingRights, D::Error> {
        from_text(
            d,
            "castling rights such as KQkq or HFhf/gg",
            CastlingRights::from_serde_text,
        )
    }
}

impl Serialize for Setup {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Setup {
    /// Reads FEN text (syntax only, as [`Setup::from_fen_with`] in
    /// [`CastlingMode::Chess960`]).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Setup, D::Error> {
        from_text(d, "FEN text", |v| {
            Setup::from_fen_with(v, CastlingMode::Chess960)
        })
    }
}

/// Serialize and Deserialize as FEN text for a board type.
macro_rules! board_as_fen {
    ($(impl[$($generics:tt)*] $ty:ty;)*) => {$(
        impl<$($generics)*> Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.fen())
            }
        }

        impl<'de, $($generics)*> Deserialize<'de> for $ty {
            /// Reads FEN text of a legal position (as
            /// [`Board::from_fen_with`] in [`CastlingMode::Chess960`]).
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                from_text(d, "FEN text of a legal position", |v| {
                    <$ty>::from_fen_with(v, CastlingMode::Chess960)
                })
            }
        }
    )*};
}

board_as_fen! {
    impl[] Bitboards;
    impl[G: Geometry] ArrayBoard<G>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_text_round_trips() {
        let b = File::new(1).unwrap_or(File::A);
        let cases = [
            (CastlingRights::ALL, "KQkq"),
            (CastlingRights::NONE, "-"),
            (CastlingRights::from_bits(0b1010), "Qq"),
            (
                CastlingRights::NONE.with_files(Color::White, CastlingSide::Queen, b, File::A),
                "A/be",
            ),
        ];
        for (rights, text) in cases {
            assert_eq!(rights.serde_text(), text);
            assert_eq!(CastlingRights::from_serde_text(text), Ok(rights));
        }
    }
}
