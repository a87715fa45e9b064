//! `Setup`: a plain, unvalidated description of a position, and FEN text in
//! and out. Turning a `Setup` into a playable board (and rejecting impossible
//! positions) is [`crate::validate`]'s job.

use crate::castling::CastlingRights;
use crate::types::{Color, Piece, Square};
use std::fmt;
use std::str::FromStr;

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A position as FEN describes it, not yet checked for legality.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// What stands on each square, indexed by [`Square::index`].
    pub board: [Option<Piece>; 64],
    /// The side to move.
    pub turn: Color,
    /// Castling rights.
    pub castling: CastlingRights,
    /// The en-passant target square (the square a pawn skipped), if any.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The move number, starting at 1 and increasing after black moves.
    pub fullmove_number: u32,
}

/// What is wrong with a FEN string. Every variant names the field and what was
/// expected there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    #[error("FEN has {0} fields; expected 4 to 6 (placement, side, castling, en passant[, halfmove, fullmove])")]
    FieldCount(usize),
    /// The placement field does not have 8 ranks.
    #[error("FEN placement has {0} ranks separated by '/'; expected 8")]
    RankCount(usize),
    /// A rank of the placement field does not describe exactly 8 squares.
    #[error("FEN placement rank {rank} describes {squares} squares; expected 8")]
    RankLength {
        /// The rank, 1..8, as printed on a board.
        rank: u8,
        /// How many squares it described.
        squares: u32,
    },
    /// A character in the placement field is neither a piece letter nor 1-8.
    #[error("FEN placement has '{0}'; expected a piece letter (PNBRQK, pnbrqk) or a digit 1-8")]
    PlacementChar(char),
    /// The side-to-move field is not `w` or `b`.
    #[error("FEN side to move is `{0}`; expected `w` or `b`")]
    Turn(String),
    /// The castling field is not `-` or a subset of `KQkq`.
    #[error("FEN castling field is `{0}`; expected `-` or letters from KQkq, each at most once")]
    Castling(String),
    /// The en-passant field is not `-` or a square on rank 3 or 6.
    #[error("FEN en-passant field is `{0}`; expected `-` or a square on rank 3 or 6 such as e3")]
    EnPassant(String),
    /// The halfmove clock is not a number.
    #[error("FEN halfmove clock is `{0}`; expected a whole number of half-moves (0 or more)")]
    Halfmove(String),
    /// The fullmove number is not a number.
    #[error("FEN fullmove number is `{0}`; expected a whole number (1 or more)")]
    Fullmove(String),
    /// The text parsed, but describes an impossible position.
    #[error("impossible position: {0}")]
    Position(#[from] crate::validate::PositionError),
}

impl Setup {
    /// An empty board, white to move, no rights, clocks 0 and 1.
    pub const fn empty() -> Setup {
        Setup {
            board: [None; 64],
            turn: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// The standard starting position.
    pub fn start() -> Setup {
        match Setup::from_fen(START_FEN) {
            Ok(s) => s,
            // The constant parses; keep an explicit fallback rather than unwrap.
            Err(_) => Setup::empty(),
        }
    }

    /// Parses FEN text. Only syntax is checked here; see
    /// [`crate::validate`] for legality. The halfmove and fullmove fields may
    /// be left out (they default to 0 and 1), as in EPD.
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut setup = Setup::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u32;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d;
                } else if let Some(piece) = Piece::from_char(c) {
                    if file < 8 {
                        setup.board[rank as usize * 8 + file as usize] = Some(piece);
                    }
                    file += 1;
                } else {
                    return Err(FenError::PlacementChar(c));
                }
            }
            if file != 8 {
                return Err(FenError::RankLength { rank: rank + 1, squares: file });
            }
        }
        setup.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Turn(other.to_string())),
        };
        setup.castling = parse_castling(fields[2])?;
        setup.ep_square = match fields[3] {
            "-" => None,
            s => match s.parse::<Square>() {
                Ok(sq) if matches!(sq.rank().index(), 2 | 5) => Some(sq),
                _ => return Err(FenError::EnPassant(s.to_string())),
            },
        };
        if let Some(h) = fields.get(4) {
            setup.halfmove_clock = h.parse().map_err(|_| FenError::Halfmove(h.to_string()))?;
        }
        if let Some(f) = fields.get(5) {
            setup.fullmove_number = f.parse().map_err(|_| FenError::Fullmove(f.to_string()))?;
        }
        Ok(setup)
    }

    /// The FEN text of this setup (always six fields).
    pub fn to_fen(&self) -> String {
        self.to_string()
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The same position with colours swapped: the board mirrored top to
    /// bottom, every piece changing colour, the other side to move. Used by
    /// symmetry tests (a sound evaluation scores both the same).
    pub fn color_flipped(&self) -> Setup {
        let mut out = self.clone();
        for sq in Square::all() {
            out.board[sq.flip_vertical().index()] =
                self.board[sq.index()].map(|p| Piece::new(!p.color, p.role));
        }
        out.turn = !self.turn;
        out.castling = self.castling.swap_colors();
        out.ep_square = self.ep_square.map(Square::flip_vertical);
        out
    }

    /// The same position mirrored left to right (a-file ↔ h-file). Only
    /// meaningful without castling rights, which it drops.
    pub fn mirrored(&self) -> Setup {
        let mut out = self.clone();
        for sq in Square::all() {
            out.board[sq.flip_horizontal().index()] = self.board[sq.index()];
        }
        out.castling = CastlingRights::NONE;
        out.ep_square = self.ep_square.map(Square::flip_horizontal);
        out
    }
}

fn parse_castling(s: &str) -> Result<CastlingRights, FenError> {
    if s == "-" {
        return Ok(CastlingRights::NONE);
    }
    let mut bits = 0u8;
    for c in s.chars() {
        let bit = match c {
            'K' => 1,
            'Q' => 2,
            'k' => 4,
            'q' => 8,
            _ => return Err(FenError::Castling(s.to_string())),
        };
        if bits & bit != 0 {
            return Err(FenError::Castling(s.to_string()));
        }
        bits |= bit;
    }
    Ok(CastlingRights::from_bits(bits))
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

impl FromStr for Setup {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Setup, FenError> {
        Setup::from_fen(s)
    }
}

impl fmt::Display for Setup {
    /// Writes FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.board[rank as usize * 8 + file as usize] {
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {} {} ", self.turn.char(), self.castling)?;
        match self.ep_square {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_str("-")?,
        }
        write!(f, " {} {}", self.halfmove_clock, self.fullmove_number)
    }
}

impl fmt::Debug for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Setup({self})")
    }
}

/// Draws a setup as a text diagram, rank 8 on top, with FEN letters.
pub fn diagram(setup: &Setup) -> String {
    let mut s = String::new();
    for rank in (0..8u8).rev() {
        s.push((b'1' + rank) as char);
        s.push(' ');
        for file in 0..8u8 {
            let sq = Square::from_index_wrapping(rank as usize * 8 + file as usize);
            s.push(setup.piece_at(sq).map_or('.', Piece::char));
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str("  a b c d e f g h\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let s = Setup::from_fen(START_FEN).unwrap();
        assert_eq!(s.to_fen(), START_FEN);
        assert_eq!(s.piece_at(Square::E1), Some(Piece::new(Color::White, crate::Role::King)));
    }

    #[test]
    fn epd_without_clocks() {
        let s = Setup::from_fen("8/8/8/8/8/8/8/K6k b - -").unwrap();
        assert_eq!(s.to_fen(), "8/8/8/8/8/8/8/K6k b - - 0 1");
    }

    #[test]
    fn syntax_errors() {
        use FenError::*;
        let cases: &[(&str, FenError)] = &[
            ("", FieldCount(0)),
            ("8/8/8/8/8/8/8 w - - 0 1", RankCount(7)),
            ("9/8/8/8/8/8/8/8 w - - 0 1", PlacementChar('9')),
            ("8/8/8/8/8/8/8/7 w - - 0 1", RankLength { rank: 1, squares: 7 }),
            ("8/8/8/8/8/8/8/ppppppppp w - - 0 1", RankLength { rank: 1, squares: 9 }),
            ("8/8/8/8/8/8/8/8 x - - 0 1", Turn("x".into())),
            ("8/8/8/8/8/8/8/8 w KK - 0 1", Castling("KK".into())),
            ("8/8/8/8/8/8/8/8 w - e4 0 1", EnPassant("e4".into())),
            ("8/8/8/8/8/8/8/8 w - - -1 1", Halfmove("-1".into())),
            ("8/8/8/8/8/8/8/8 w - - 0 x", Fullmove("x".into())),
        ];
        for (fen, want) in cases {
            assert_eq!(&Setup::from_fen(fen).unwrap_err(), want, "{fen}");
        }
    }
}
