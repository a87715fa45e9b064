//! Standard algebraic notation (SAN): `e4`, `Nbd7`, `exd6`, `e8=Q+`, `O-O-O#`,
//! the notation of PGN files and of chess books.
//!
//! [`San`] is what a piece of SAN text says, read without a position: the
//! piece, whatever part of its square the text gives, whether it captures,
//! the destination, the promotion, or castling, and the check or mate mark.
//! [`San::parse`] reads it (reporting a [`ParseSanError`] with the reason);
//! [`San::to_move`] finds the one legal [`Move`] it names in a position
//! (or says why there is none, or which ones it could be); and
//! [`San::from_move`] goes back. [`parse_san`] and [`to_san`] do the same
//! on text in one call.
//!
//! [`San::from_move`] (and so [`to_san`]) writes the canonical form: the piece letter (none for pawns),
//! the least disambiguation that names the moving piece (its file, else its
//! rank, else both), `x` for captures (en passant included), the destination,
//! `=Q` for promotions, `O-O`/`O-O-O` for castling, and `+` for check or `#`
//! for mate.
//!
//! [`San::parse`] (and so [`parse_san`]) reads that form and the variants
//! people type:
//!
//! - trailing `+`, `#`, `!`, `?` in any number and order (a `#` makes the
//!   [`Suffix`] mate, else a `+` check; annotation marks are dropped; the
//!   suffix is not checked against the position: `e4#` is read as `e4`),
//!   and a trailing `e.p.` (with or without a space) after an en-passant
//!   capture, where it is checked: `exd6 e.p.` must be an en-passant
//!   capture;
//! - castling as `O-O`/`O-O-O`, `0-0`/`0-0-0` (zeros) or `o-o`/`o-o-o`;
//! - promotions with or without `=` and with either case of letter
//!   (`e8=Q`, `e8Q`, `e8=q`, `e8q`);
//! - more disambiguation than needed (`Ng1f3`, `Ngf3`, `N1f3`) and long
//!   algebraic with a separator (`Ng1-f3`, `e2-e4`, `e2e4`);
//! - an optional `P` for pawn moves (`Pe4`), and lower-case piece letters
//!   `n`, `r`, `q`, `k` (`nf3`); a lower-case `b` always means the b-file,
//!   never a bishop, because `bxc3` is a pawn capture;
//! - a missing `x` (`Nf3` for a knight that captures on f3, `ed5` for
//!   `exd5`): the destination alone says whether something is taken. A
//!   written `x` (or `:`) is checked, though: `Nxf3` onto an empty square is
//!   rejected, since the text and the position disagree and the user most
//!   likely has the wrong position in mind.
//!
//! What is not accepted: a pawn move without a capture marker or source file
//! is a push (`d5` never means `exd5`); a promotion must name its piece (`e8`
//! alone is reported as ambiguous between the four promotions rather than
//! silently becoming a queen); castling must be written as castling (`Kg1`
//! for `O-O` is rejected, because in SAN it names a one-square king move).
//!
//! ```
//! use fianchetto_board::{Bitboards, Board, Role, Square};
//! use fianchetto_movegen::{parse_san, san_line, to_san, San, Suffix};
//!
//! // Without a position: what the text says.
//! let san: San = "Nbxd7+".parse()?;
//! assert_eq!(san, San::Normal {
//!     role: Role::Knight,
//!     from_file: Some(fianchetto_board::File::new(1).unwrap()),
//!     from_rank: None,
//!     capture: true,
//!     to: Square::D7,
//!     promotion: None,
//!     en_passant: false,
//!     suffix: Some(Suffix::Check),
//! });
//! assert_eq!(san.to_string(), "Nbxd7+");
//! // Variants are written back in the canonical form.
//! assert_eq!("0-0-0#".parse::<San>()?.to_string(), "O-O-O#");
//! assert_eq!("e8q!?".parse::<San>()?.to_string(), "e8=Q");
//!
//! let board = Bitboards::startpos();
//! let mv = parse_san(&board, "Nf3")?;
//! assert_eq!(mv.to_string(), "g1f3");
//! assert_eq!(to_san(&board, mv)?, "Nf3");
//! assert_eq!(parse_san(&board, "Ng1-f3!?")?, mv);
//!
//! let mut after = board.clone();
//! after.play_unchecked(mv);
//! let reply = parse_san(&after, "d5")?;
//! assert_eq!(san_line(&board, &[mv, reply])?, "1. Nf3 d5");
//!
//! // The same through the type: text to move and back.
//! let san: San = "Nf3".parse()?;
//! assert_eq!(san.to_move(&board)?, mv);
//! assert_eq!(San::from_move(&board, mv)?, san);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::game::IllegalMove;
use crate::MoveGen;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write};
use core::str::FromStr;
use fianchetto_board::attacks::{attacks, pawn_attacks};
use fianchetto_board::{Bitboard, Board, CastlingSide, File, Move, MoveKind, Rank, Role, Square};

/// A move in SAN, read without a position: what the text says, not yet
/// matched against any board (see the [module documentation](self) for the
/// forms accepted).
///
/// `Display` writes the canonical spelling of what was read: `O-O` for
/// castling, `=Q` for promotions, the disambiguation as given (`Ng1f3`
/// stays `Ng1f3`), annotation marks (`!?`) dropped. Every value that
/// [`San::parse`] returns reads back from its `Display` as itself. With the
/// cargo feature `serde`, serde writes and reads it as that text.
///
/// ```
/// use fianchetto_board::{Bitboards, Board, CastlingSide};
/// use fianchetto_movegen::{San, SanError, Suffix};
///
/// let san: San = "O-O+".parse()?;
/// assert_eq!(san, San::Castle { side: CastlingSide::King, suffix: Some(Suffix::Check) });
///
/// let board = Bitboards::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
/// let mv = san.to_move(&board)?;
/// assert_eq!(mv.to_string(), "e1g1");
/// // Written back from the move: no check after all.
/// assert_eq!(San::from_move(&board, mv)?.to_string(), "O-O");
///
/// // Knights on b1 and f1 both reach d2.
/// let board = Bitboards::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")?;
/// let err = "Nd2".parse::<San>()?.to_move(&board).unwrap_err();
/// assert!(matches!(err, SanError::Ambiguous { .. }));
/// assert_eq!(err.to_string(),
///            "`Nd2` is ambiguous in 4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1: it could be Nbd2 or Nfd2; write one of those");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A move of a piece or a pawn: `e4`, `Nbd7`, `exd6`, `R1a4`, `e8=Q`.
    Normal {
        /// The piece that moves (pawn when the text has no piece letter).
        role: Role,
        /// The file the piece leaves, if the text gives it (`Nbd7`, `exd5`).
        from_file: Option<File>,
        /// The rank the piece leaves, if the text gives it (`R1a4`).
        from_rank: Option<Rank>,
        /// Whether the text marks a capture (`x` or `:`). Text without the
        /// mark still matches a capture (`Nf3` for `Nxf3`).
        capture: bool,
        /// The destination square.
        to: Square,
        /// The piece a pawn promotes to (`=Q`).
        promotion: Option<Role>,
        /// Whether the text marks the capture `e.p.`: it then only matches
        /// an en-passant capture.
        en_passant: bool,
        /// A check (`+`) or mate (`#`) mark, not checked against the
        /// position.
        suffix: Option<Suffix>,
    },
    /// Castling: `O-O` (king side) or `O-O-O` (queen side).
    Castle {
        /// Which side.
        side: CastlingSide,
        /// A check (`+`) or mate (`#`) mark, not checked against the
        /// position.
        suffix: Option<Suffix>,
    },
}

/// The mark after a move that gives check (`+`) or mate (`#`).
///
/// ```
/// use fianchetto_movegen::{San, Suffix};
///
/// let san: San = "Qxf7#".parse()?;
/// assert_eq!(san.suffix(), Some(Suffix::Checkmate));
/// assert_eq!(san.with_suffix(Some(Suffix::Check)).to_string(), "Qxf7+");
/// assert_eq!(Suffix::Check.char(), '+');
/// # Ok::<(), fianchetto_movegen::ParseSanError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`: the move gives check.
    Check,
    /// `#`: the move mates.
    Checkmate,
}

impl Suffix {
    /// The mark: `+` or `#`.
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }
}

/// What is wrong with the syntax of a SAN move (the reason inside a
/// [`ParseSanError`] or a [`SanError::Syntax`]).
///
/// ```
/// use fianchetto_movegen::{San, SanSyntaxError};
///
/// assert_eq!(San::parse("Nf").unwrap_err().reason, SanSyntaxError::NoDestination);
/// assert_eq!(San::parse("Xe4").unwrap_err().reason, SanSyntaxError::BadPrefix);
/// assert_eq!(SanSyntaxError::Empty.to_string(), "it is empty");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SanSyntaxError {
    /// A character outside ASCII.
    #[error("it contains a character that is not ASCII")]
    NotAscii,
    /// Nothing but white space.
    #[error("it is empty")]
    Empty,
    /// Nothing but `+`, `#`, `!`, `?` (or `e.p.`).
    #[error("it has only annotation marks")]
    OnlyAnnotations,
    /// Castling marked `e.p.`.
    #[error("castling is not an en-passant capture (remove `e.p.`)")]
    CastlingEnPassant,
    /// A promotion of a piece other than a pawn.
    #[error("only a pawn can promote")]
    PromotionNotPawn,
    /// `e.p.` after a piece move or a promotion.
    #[error("only a pawn capture can be en passant (remove `e.p.`)")]
    EnPassantNotPawn,
    /// Too short to hold a destination square.
    #[error("it has no destination square")]
    NoDestination,
    /// The text does not end with a square (or a promotion after one).
    #[error("it does not end with a destination square such as f3 (or a promotion such as =Q)")]
    BadDestination,
    /// Something other than a file, a rank and `x` before the destination.
    #[error("the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x")]
    BadPrefix,
}

/// Text that is not a SAN move. The message names the text and what is
/// wrong with it.
///
/// ```
/// use fianchetto_movegen::{ParseSanError, San, SanSyntaxError};
///
/// let err: ParseSanError = "e9".parse::<San>().unwrap_err();
/// assert_eq!(err.text, "e9");
/// assert_eq!(err.reason, SanSyntaxError::BadDestination);
/// assert_eq!(err.to_string(),
///            "`e9` is not a SAN move (it does not end with a destination square such as f3 \
///             (or a promotion such as =Q); expected something like e4, Nf3, exd5, Rad1, e8=Q or O-O)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("`{text}` is not a SAN move ({reason}; expected something like e4, Nf3, exd5, Rad1, e8=Q or O-O)")]
pub struct ParseSanError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: SanSyntaxError,
}

/// Why a SAN move was not accepted. Every variant carries the text and the
/// FEN of the position it was read in, so that the message alone lets a user
/// see what went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// The text is not SAN at all.
    #[error("`{text}` is not a SAN move ({reason}; expected something like e4, Nf3, exd5, Rad1, e8=Q or O-O) in {fen}")]
    Syntax {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: SanSyntaxError,
        /// The position it was read in.
        fen: String,
    },
    /// Well formed, but no legal move matches.
    #[error("`{text}` is not a legal move in {fen}: {reason}")]
    Illegal {
        /// The text as given.
        text: String,
        /// Why nothing matched.
        reason: String,
        /// The position it was read in.
        fen: String,
    },
    /// More than one legal move matches.
    #[error("`{text}` is ambiguous in {fen}: it could be {}; write one of those", candidates.join(" or "))]
    Ambiguous {
        /// The text as given.
        text: String,
        /// Every legal move it could mean, in SAN.
        candidates: Vec<String>,
        /// The position it was read in.
        fen: String,
    },
}

impl San {
    /// Reads SAN text without a position (the forms accepted are listed in
    /// the [module documentation](self)). Allocates nothing unless the text
    /// is rejected.
    ///
    /// ```
    /// use fianchetto_movegen::{San, SanSyntaxError};
    ///
    /// assert!(San::parse("Rad1").is_ok());
    /// let err = San::parse("Nf3=Q").unwrap_err();
    /// assert_eq!(err.reason, SanSyntaxError::PromotionNotPawn);
    /// assert_eq!(err.to_string(),
    ///            "`Nf3=Q` is not a SAN move (only a pawn can promote; expected something like e4, Nf3, exd5, Rad1, e8=Q or O-O)");
    /// ```
    pub fn parse(text: &str) -> Result<San, ParseSanError> {
        parse_syntax(text).map_err(|reason| ParseSanError {
            text: text.to_string(),
            reason,
        })
    }

    /// The SAN of `mv`, a legal move of `board`: the canonical form
    /// described in the [module documentation](self), with its check or
    /// mate suffix. A move that is not legal in `board` has no SAN: the
    /// error names the move and the position.
    ///
    /// ```
    /// use fianchetto_board::{Bitboards, Board, Move, MoveKind, Square};
    /// use fianchetto_movegen::{parse_uci, San};
    ///
    /// let board = Bitboards::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3")?;
    /// let mate = parse_uci(&board, "f3f7")?;
    /// assert_eq!(San::from_move(&board, mate)?.to_string(), "Qxf7#");
    /// let stale = Move::new(Square::E7, Square::E5, MoveKind::DoublePush);
    /// assert_eq!(San::from_move(&board, stale).unwrap_err().to_string(),
    ///            "e7e5 is not a legal move in r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_move<B: MoveGen>(board: &B, mv: Move) -> Result<San, IllegalMove> {
        let legal = board.legal_moves();
        if !legal.contains(&mv) {
            return Err(IllegalMove {
                mv,
                fen: board.fen(),
            });
        }
        let mut after = board.clone();
        after.play_unchecked(mv);
        Ok(san_of(board, mv, &legal, &after))
    }

    /// The one legal move of `board` this SAN names. The suffix is not
    /// checked (`e4#` names `e4`); a written capture or `e.p.` mark is.
    /// The errors carry this SAN's `Display` text and the position's FEN;
    /// [`parse_san`] reports the text exactly as given instead.
    pub fn to_move<B: MoveGen>(&self, board: &B) -> Result<Move, SanError> {
        match resolve_fast(board, *self) {
            Some(mv) => Ok(mv),
            None => resolve_slow(board, || self.to_string(), *self),
        }
    }

    /// The check or mate mark, if any.
    pub const fn suffix(self) -> Option<Suffix> {
        match self {
            San::Normal { suffix, .. } | San::Castle { suffix, .. } => suffix,
        }
    }

    /// The same move with `suffix` as its check or mate mark.
    pub const fn with_suffix(self, suffix: Option<Suffix>) -> San {
        match self {
            San::Normal {
                role,
                from_file,
                from_rank,
                capture,
                to,
                promotion,
                en_passant,
                ..
            } => San::Normal {
                role,
                from_file,
                from_rank,
                capture,
                to,
                promotion,
                en_passant,
                suffix,
            },
            San::Castle { side, .. } => San::Castle { side, suffix },
        }
    }
}

impl FromStr for San {
    type Err = ParseSanError;
    fn from_str(text: &str) -> Result<San, ParseSanError> {
        San::parse(text)
    }
}

impl fmt::Display for San {
    /// The canonical spelling: piece letter, disambiguation as given, `x`,
    /// destination, `=Q`, ` e.p.` when the text had it, then `+` or `#`;
    /// `O-O` and `O-O-O` for castling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Castle { side, .. } => f.write_str(match side {
                CastlingSide::King => "O-O",
                CastlingSide::Queen => "O-O-O",
            })?,
            San::Normal {
                role,
                from_file,
                from_rank,
                capture,
                to,
                promotion,
                en_passant,
                ..
            } => {
                if role != Role::Pawn {
                    f.write_char(role.upper_char())?;
                }
                if let Some(file) = from_file {
                    f.write_char(file.char())?;
                }
                if let Some(rank) = from_rank {
                    f.write_char(rank.char())?;
                }
                if capture {
                    f.write_char('x')?;
                }
                write!(f, "{to}")?;
                if let Some(promoted) = promotion {
                    f.write_char('=')?;
                    f.write_char(promoted.upper_char())?;
                }
                if en_passant {
                    f.write_str(" e.p.")?;
                }
            }
        }
        match self.suffix() {
            Some(suffix) => f.write_char(suffix.char()),
            None => Ok(()),
        }
    }
}

/// Writes `mv`, a legal move of `board`, in SAN (see [`San::from_move`]).
///
/// A move that is not legal in `board` (a move from another position, a
/// stale hash move) has no SAN: the error names the move and the position.
/// To show such a move anyway, fall back on its UCI text:
/// `to_san(&board, mv).unwrap_or_else(|_| mv.to_string())`.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::{parse_uci, to_san};
///
/// let board = Bitboards::startpos();
/// let mv = parse_uci(&board, "g1f3")?;
/// assert_eq!(to_san(&board, mv)?, "Nf3");
/// let mut after = board.clone();
/// after.play_unchecked(mv);
/// // The same move is not legal once played.
/// let err = to_san(&after, mv).unwrap_err();
/// assert_eq!(err.to_string(),
///            "g1f3 is not a legal move in rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_san<B: MoveGen>(board: &B, mv: Move) -> Result<String, IllegalMove> {
    San::from_move(board, mv).map(|san| san.to_string())
}

/// Appends the SAN of `mv`, a move of `legal` (the legal moves of `board`),
/// given the position `after` it: for writers that play the move anyway.
#[cfg(feature = "std")] // its one user, the PGN writer, needs std
pub(crate) fn write_san<B: MoveGen>(
    board: &B,
    mv: Move,
    legal: &[Move],
    after: &B,
    out: &mut String,
) {
    // A String never fails to grow.
    let _ = write!(out, "{}", san_of(board, mv, legal, after));
}

/// The SAN of `mv`, a move of `legal` (the legal moves of `board`), given
/// the position `after` it: the least disambiguation that names the moving
/// piece, and the check or mate suffix.
fn san_of<B: MoveGen>(board: &B, mv: Move, legal: &[Move], after: &B) -> San {
    let suffix = if !after.in_check() {
        None
    } else if after.has_no_moves() {
        Some(Suffix::Checkmate)
    } else {
        Some(Suffix::Check)
    };
    if let Some(side) = mv.castling_side() {
        return San::Castle { side, suffix };
    }
    let role = moving_role(board, mv);
    let (from, to) = (mv.from(), mv.to());
    let (mut from_file, mut from_rank) = (None, None);
    if role == Role::Pawn {
        // A pawn capture always names the pawn's file; a push never needs to,
        // since only one pawn can advance to a given square.
        if mv.is_capture() {
            from_file = Some(from.file());
        }
    } else {
        // Other pieces of the same kind that can reach the same square.
        let rivals = legal.iter().filter(|m| {
            m.to() == to && m.from() != from && !m.is_castle() && moving_role(board, **m) == role
        });
        let (mut any, mut same_file, mut same_rank) = (false, false, false);
        for m in rivals {
            any = true;
            same_file |= m.from().file() == from.file();
            same_rank |= m.from().rank() == from.rank();
        }
        if any {
            if !same_file {
                from_file = Some(from.file());
            } else if !same_rank {
                from_rank = Some(from.rank());
            } else {
                from_file = Some(from.file());
                from_rank = Some(from.rank());
            }
        }
    }
    San::Normal {
        role,
        from_file,
        from_rank,
        capture: mv.is_capture(),
        to,
        promotion: mv.promotion(),
        en_passant: false,
        suffix,
    }
}

/// The role of the piece `mv` moves (pawn if the square is, impossibly,
/// empty: only called with legal moves).
fn moving_role<B: Board>(board: &B, mv: Move) -> Role {
    board.piece_at(mv.from()).map_or(Role::Pawn, |p| p.role)
}

/// Writes a line of moves from `board` in SAN with move numbers:
/// `1. e4 e5 2. Nf3`, or `7... Nf6 8. O-O` when black moves first; a null
/// move ([`Move::NULL`]) is written `--`, as PGN does.
///
/// Stops with an [`IllegalMove`] (naming the move and the position it was
/// tried in) at the first move that is not legal where it is played, as can
/// happen with a principal variation taken from a hash table.
pub fn san_line<B: MoveGen>(board: &B, moves: &[Move]) -> Result<String, IllegalMove> {
    let mut line = String::with_capacity(moves.len() * 7);
    let mut position = board.clone();
    for (i, &mv) in moves.iter().enumerate() {
        let san = if mv.is_null() {
            if position.in_check() {
                return Err(IllegalMove {
                    mv,
                    fen: position.fen(),
                });
            }
            None
        } else {
            Some(San::from_move(&position, mv)?)
        };
        if i > 0 {
            line.push(' ');
        }
        let number = position.fullmove_number();
        match position.turn() {
            fianchetto_board::Color::White => {
                let _ = write!(line, "{number}. ");
            }
            fianchetto_board::Color::Black if i == 0 => {
                let _ = write!(line, "{number}... ");
            }
            fianchetto_board::Color::Black => {}
        }
        match san {
            Some(san) => {
                let _ = write!(line, "{san}");
                position.play_unchecked(mv);
            }
            None => {
                line.push_str("--");
                position.play_null();
            }
        }
    }
    Ok(line)
}

/// Reads the syntax of `text` (see the module documentation for the
/// accepted forms), or says what is wrong with it.
fn parse_syntax(text: &str) -> Result<San, SanSyntaxError> {
    if !text.is_ascii() {
        // Every SAN character is ASCII; this also makes byte indexing safe.
        return Err(SanSyntaxError::NotAscii);
    }
    // Trimmed byte by byte: this runs for every move of every PGN game read.
    let bytes = text.as_bytes();
    let space = |b: u8| (b as char).is_whitespace();
    let (mut start, mut end) = (0, bytes.len());
    while start < end && space(bytes[start]) {
        start += 1;
    }
    while end > start && space(bytes[end - 1]) {
        end -= 1;
    }
    if start == end {
        return Err(SanSyntaxError::Empty);
    }
    // Annotations and check marks, then an `e.p.` note, may trail the move
    // (and check marks may also stand between the move and the note).
    let mut suffix = None;
    let mut strip_marks = |end: &mut usize| {
        while *end > start && matches!(bytes[*end - 1], b'+' | b'#' | b'!' | b'?') {
            match bytes[*end - 1] {
                b'#' => suffix = Some(Suffix::Checkmate),
                b'+' if suffix.is_none() => suffix = Some(Suffix::Check),
                _ => {}
            }
            *end -= 1;
        }
        while *end > start && space(bytes[*end - 1]) {
            *end -= 1;
        }
    };
    strip_marks(&mut end);
    let mut en_passant = false;
    if bytes[start..end].ends_with(b"e.p.") {
        end -= 4;
        while end > start && space(bytes[end - 1]) {
            end -= 1;
        }
        en_passant = true;
        strip_marks(&mut end);
    }
    if start == end {
        return Err(SanSyntaxError::OnlyAnnotations);
    }
    // ASCII, so every byte index is a character boundary.
    let s = &text[start..end];
    let castle = match s {
        "O-O" | "0-0" | "o-o" => Some(CastlingSide::King),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(CastlingSide::Queen),
        _ => None,
    };
    if let Some(side) = castle {
        if en_passant {
            return Err(SanSyntaxError::CastlingEnPassant);
        }
        return Ok(San::Castle { side, suffix });
    }
    let b = s.as_bytes();
    let (role, mut start) = match b[0] {
        b'N' | b'n' => (Role::Knight, 1),
        b'B' => (Role::Bishop, 1),
        b'R' | b'r' => (Role::Rook, 1),
        b'Q' | b'q' => (Role::Queen, 1),
        b'K' | b'k' => (Role::King, 1),
        b'P' => (Role::Pawn, 1),
        _ => (Role::Pawn, 0),
    };
    let mut end = b.len();

    // Promotion, read from the end: `=Q`, `Q`, `=q` or `q` after the rank.
    let mut promotion = None;
    if end >= start + 3 {
        if let Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) =
            Role::from_char(b[end - 1] as char)
        {
            if b[end - 2] == b'=' {
                promotion = Some(r);
                end -= 2;
            } else if b[end - 2].is_ascii_digit() {
                promotion = Some(r);
                end -= 1;
            }
        }
    }
    if promotion.is_some() && role != Role::Pawn {
        return Err(SanSyntaxError::PromotionNotPawn);
    }
    if en_passant && (role != Role::Pawn || promotion.is_some()) {
        return Err(SanSyntaxError::EnPassantNotPawn);
    }
    if end < start + 2 {
        return Err(SanSyntaxError::NoDestination);
    }
    let to = match (
        File::from_char(b[end - 2] as char),
        Rank::from_char(b[end - 1] as char),
    ) {
        (Some(f), Some(r)) => Square::from_coords(f, r),
        _ => return Err(SanSyntaxError::BadDestination),
    };
    end -= 2;

    let mut capture = false;
    if end > start && matches!(b[end - 1], b'x' | b':') {
        capture = true;
        end -= 1;
    } else if end > start + 1 && b[end - 1] == b'-' {
        // Long algebraic `Ng1-f3`: the separator only follows a full square.
        end -= 1;
    }

    // What is left names the moving piece: a file, a rank, or both.
    let mut from_file = None;
    let mut from_rank = None;
    if start < end {
        if let Some(f) = File::from_char(b[start] as char) {
            from_file = Some(f);
            start += 1;
        }
    }
    if start < end {
        if let Some(r) = Rank::from_char(b[start] as char) {
            from_rank = Some(r);
            start += 1;
        }
    }
    if start != end {
        return Err(SanSyntaxError::BadPrefix);
    }
    Ok(San::Normal {
        role,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
        en_passant,
        suffix,
    })
}

/// The file a `San::Normal` move must start from, if the text says: the
/// file it gives, or for a pawn move with neither file nor capture mark the
/// destination's file (a plain pawn move is a push: `d5` never means
/// `exd5`).
fn source_file(role: Role, from_file: Option<File>, capture: bool, to: Square) -> Option<File> {
    match from_file {
        None if role == Role::Pawn && !capture => Some(to.file()),
        other => other,
    }
}

/// Parses `text` as a legal move of `board` (the forms accepted are listed in
/// the [module documentation](self)): [`San::parse`], then
/// [`San::to_move`], with the errors naming `text` as given.
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::{parse_san, SanError};
///
/// // Knights on b1 and f1 can both go to d2.
/// let board = Bitboards::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")?;
/// assert_eq!(parse_san(&board, "Nfd2")?.to_string(), "f1d2");
/// match parse_san(&board, "Nd2") {
///     Err(SanError::Ambiguous { mut candidates, .. }) => {
///         candidates.sort();
///         assert_eq!(candidates, ["Nbd2", "Nfd2"]);
///     }
///     other => panic!("expected an ambiguity, got {other:?}"),
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_san<B: MoveGen>(board: &B, text: &str) -> Result<Move, SanError> {
    let san = parse_syntax(text).map_err(|reason| SanError::Syntax {
        text: text.to_string(),
        reason,
        fen: board.fen(),
    })?;
    match resolve_fast(board, san) {
        Some(mv) => Ok(mv),
        None => resolve_slow(board, || text.to_string(), san),
    }
}

/// The one legal move `san` names, found without generating every
/// legal move (what reading PGN spends most of its time on): the squares
/// from which a piece of the named kind reaches the destination, each
/// checked by whether the king is attacked after the move. `None` when that
/// finds no move or several, and for castling: [`resolve_slow`] then
/// decides, and words the error.
fn resolve_fast<B: Board>(board: &B, san: San) -> Option<Move> {
    let San::Normal {
        role,
        from_file,
        from_rank,
        capture,
        en_passant,
        to,
        promotion,
        ..
    } = san
    else {
        return None;
    };
    let from_file = source_file(role, from_file, capture, to);
    let us = board.turn();
    let them = !us;
    let theirs = board.by_color(them);
    if board.by_color(us).contains(to) {
        return None;
    }
    let mut from_mask = Bitboard::FULL;
    if let Some(file) = from_file {
        from_mask &= Bitboard::file(file);
    }
    if let Some(rank) = from_rank {
        from_mask &= Bitboard::rank(rank);
    }
    let takes = theirs.contains(to);
    let mut found = None;
    // Records a candidate; `false` when a second legal one shows up.
    let mut consider = |from: Square, kind: MoveKind| -> bool {
        let mv = Move::new(from, to, kind);
        if (capture && !mv.is_capture()) || (en_passant && !mv.is_en_passant()) {
            return true;
        }
        if !king_safe_after(board, mv, role) {
            return true;
        }
        found.is_none() && {
            found = Some(mv);
            true
        }
    };
    if role == Role::Pawn {
        let last_rank = to.rank() == Rank::EIGHTH.relative(us);
        if last_rank != promotion.is_some() {
            // A promotion without its piece is ambiguous, one elsewhere
            // illegal: the slow path says which.
            return None;
        }
        let kind = |capture: bool| match promotion {
            Some(role) => MoveKind::promotion(role, capture),
            None if capture => Some(MoveKind::Capture),
            None => Some(MoveKind::Quiet),
        };
        let pawns = board.pieces(us, Role::Pawn) & from_mask;
        let en_passant_target = !takes && board.ep_square() == Some(to);
        if takes || en_passant_target {
            let capture_kind = if en_passant_target {
                Some(MoveKind::EnPassant)
            } else {
                kind(true)
            };
            for from in pawn_attacks(them, to) & pawns {
                if !consider(from, capture_kind?) {
                    return None;
                }
            }
        } else {
            let step = -us.forward();
            let one = to.offset(step)?;
            if pawns.contains(one) {
                if !consider(one, kind(false)?) {
                    return None;
                }
            } else if !board.occupied().contains(one) && to.rank().relative(us).index() == 3 {
                let two = one.offset(step)?;
                if pawns.contains(two) && !consider(two, MoveKind::DoublePush) {
                    return None;
                }
            }
        }
    } else {
        if promotion.is_some() {
            return None;
        }
        let kind = if takes {
            MoveKind::Capture
        } else {
            MoveKind::Quiet
        };
        let sources = attacks(role, us, to, board.occupied()) & board.pieces(us, role) & from_mask;
        for from in sources {
            if !consider(from, kind) {
                return None;
            }
        }
    }
    found
}

/// Whether the side to move's king is safe after `mv` (a move of a `role`
/// that is not castling): no piece of the other side attacks it once the
/// move's squares are updated and its capture removed.
fn king_safe_after<B: Board>(board: &B, mv: Move, role: Role) -> bool {
    let us = board.turn();
    let (from, to) = (mv.from(), mv.to());
    let mut occupied = board.occupied().without(from).with(to);
    let mut captured = Bitboard::from_square(to);
    if mv.is_en_passant() {
        let victim = Square::from_coords(to.file(), from.rank());
        occupied = occupied.without(victim);
        captured = captured.with(victim);
    }
    let king = if role == Role::King {
        to
    } else {
        board.king(us)
    };
    (board.attackers(king, !us, occupied) & !captured).is_empty()
}

/// Finds the move among all legal ones, or says why there is none or more
/// than one (naming the move as `text` gives it: only called on errors).
fn resolve_slow<B: MoveGen>(
    board: &B,
    text: impl FnOnce() -> String,
    san: San,
) -> Result<Move, SanError> {
    let legal = board.legal_moves();
    let mut found: Option<Move> = None;
    let mut others = Vec::new();
    for &m in &legal {
        if matches(board, m, san) {
            match found {
                None => found = Some(m),
                Some(_) => others.push(m),
            }
        }
    }
    match found {
        Some(m) if others.is_empty() => Ok(m),
        Some(m) => {
            others.insert(0, m);
            Err(SanError::Ambiguous {
                text: text(),
                // Legal moves of `board`, so each has its SAN.
                candidates: others
                    .into_iter()
                    .filter_map(|m| to_san(board, m).ok())
                    .collect(),
                fen: board.fen(),
            })
        }
        None => Err(SanError::Illegal {
            text: text(),
            reason: why_illegal(board, san),
            fen: board.fen(),
        }),
    }
}

/// Whether the legal move `m` is one that `san` describes.
fn matches<B: Board>(board: &B, m: Move, san: San) -> bool {
    match san {
        San::Castle { side, .. } => m.castling_side() == Some(side),
        San::Normal {
            role,
            from_file,
            from_rank,
            capture,
            en_passant,
            to,
            promotion,
            ..
        } => {
            let from_file = source_file(role, from_file, capture, to);
            !m.is_castle()
                && m.to() == to
                && moving_role(board, m) == role
                && from_file.is_none_or(|f| m.from().file() == f)
                && from_rank.is_none_or(|r| m.from().rank() == r)
                && (!capture || m.is_capture())
                && (!en_passant || m.is_en_passant())
                // No promotion letter matches every promotion, so that `e8`
                // comes back as ambiguous and the user picks the piece.
                && (promotion.is_none() || m.promotion() == promotion)
        }
    }
}

/// A sentence saying why no legal move matches `san`.
fn why_illegal<B: MoveGen>(board: &B, san: San) -> String {
    let side = board.turn();
    match san {
        San::Castle { side: wing, .. } => {
            let wing = match wing {
                CastlingSide::King => "king",
                CastlingSide::Queen => "queen",
            };
            format!("{side} cannot castle on the {wing} side here")
        }
        San::Normal {
            role,
            capture,
            en_passant,
            to,
            ..
        } => {
            let name = role_name(role);
            if board.in_check() {
                format!("{side} is in check and no {name} move to {to} answers it")
            } else if en_passant && board.ep_square() != Some(to) {
                format!("no en-passant capture on {to} is possible")
            } else if capture && board.piece_at(to).is_none() && board.ep_square() != Some(to) {
                format!("there is nothing to capture on {to}")
            } else {
                format!("no {side} {name} matching the text can move to {to}")
            }
        }
    }
}

/// The English name of a role, for messages.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for San {
    /// The text (`Display`), in every format.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for San {
    /// Reads the text with [`San::parse`]; a syntax error is the
    /// deserializer's error, with the parser's message.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<San, D::Error> {
        fianchetto_board::serde_support::from_text(
            d,
            "SAN text such as Nf3, exd5 or O-O",
            San::parse,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Bitboards;

    fn board(fen: &str) -> Bitboards {
        match Bitboards::from_fen(fen) {
            Ok(b) => b,
            Err(e) => panic!("bad test FEN {fen}: {e}"),
        }
    }

    /// The SAN written for the move `uci`.
    fn san_of(fen: &str, uci: &str) -> String {
        let b = board(fen);
        let mv = crate::parse_uci(&b, uci).unwrap_or_else(|e| panic!("{e}"));
        to_san(&b, mv).unwrap_or_else(|e| panic!("{e}"))
    }

    const START: &str = fianchetto_board::START_FEN;
    /// Three white knights on b1, f1 and b5 reach d2 / d4 / d6; two rooks
    /// share the a-file; three queens reach e4 (to need both file and rank).
    const KNIGHTS: &str = "4k3/8/8/1N6/8/8/8/1N2KN2 w - - 0 1";
    const ROOKS: &str = "R7/8/8/8/8/8/7k/R3K3 w - - 0 1";
    const QUEENS: &str = "7k/8/8/8/2Q1Q3/8/2Q5/6K1 w - - 0 1";
    /// Queen-side castling that gives check with the rook.
    const LONG_CHECK: &str = "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1";
    const PROMO: &str = "1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1";
    const EP: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    const CASTLE: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    const SCHOLAR: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";

    /// (position, move in UCI, SAN written).
    const WRITE_CASES: &[(&str, &str, &str)] = &[
        (START, "e2e4", "e4"),
        (START, "g1f3", "Nf3"),
        // Knights on b1 and f1 both reach d2: the file tells them apart.
        (KNIGHTS, "b1d2", "Nbd2"),
        (KNIGHTS, "f1d2", "Nfd2"),
        // Knights on b1 and b5 share the b-file (both reach c3 and a3): the
        // rank tells them apart.
        (KNIGHTS, "b1c3", "N1c3"),
        (KNIGHTS, "b5c3", "N5c3"),
        (KNIGHTS, "b5d6", "Nd6+"),
        (ROOKS, "a1a4", "R1a4"),
        (ROOKS, "a8a4", "R8a4"),
        // Queens on c2, c4 and e4 all reach d3. c4 shares its file with c2
        // and its rank with e4, so it needs both; c2 shares only its file.
        (QUEENS, "c4d3", "Qc4d3"),
        (QUEENS, "c2d3", "Q2d3"),
        (QUEENS, "e4d3", "Qed3"),
        (PROMO, "c7c8q", "c8=Q+"),
        (PROMO, "c7b8q", "cxb8=Q+"),
        (PROMO, "c7b8n", "cxb8=N"),
        (PROMO, "c7c8r", "c8=R+"),
        (EP, "e5d6", "exd6"),
        (CASTLE, "e1g1", "O-O"),
        (CASTLE, "e1c1", "O-O-O"),
        (LONG_CHECK, "e1c1", "O-O-O+"),
        (CASTLE, "a1a8", "Rxa8+"),
        (SCHOLAR, "f3f7", "Qxf7#"),
        (SCHOLAR, "c4f7", "Bxf7+"),
    ];

    #[test]
    fn writes_san() {
        for &(fen, uci, san) in WRITE_CASES {
            assert_eq!(san_of(fen, uci), san, "{uci} in {fen}");
            // And it reads back as the same move.
            let b = board(fen);
            let mv = crate::parse_uci(&b, uci).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(parse_san(&b, san), Ok(mv), "{san} in {fen}");
        }
    }

    #[test]
    fn reads_variants() {
        // (position, text, the move it means in UCI)
        let cases: &[(&str, &str, &str)] = &[
            (START, "Ng1f3", "g1f3"),
            (START, "Ngf3", "g1f3"),
            (START, "N1f3", "g1f3"),
            (START, "Ng1-f3", "g1f3"),
            (START, "nf3", "g1f3"),
            (START, "Pe4", "e2e4"),
            (START, "e2e4", "e2e4"),
            (START, "e2-e4", "e2e4"),
            (START, " e4!? ", "e2e4"),
            (START, "e4+", "e2e4"),
            (PROMO, "c8Q", "c7c8q"),
            (PROMO, "c8=q", "c7c8q"),
            (PROMO, "c8q+", "c7c8q"),
            (PROMO, "cxb8=Q#?!", "c7b8q"),
            (PROMO, "cb8=N", "c7b8n"),
            (PROMO, "c7xb8b", "c7b8b"),
            (EP, "exd6 e.p.", "e5d6"),
            (EP, "exd6e.p.", "e5d6"),
            (EP, "ed6", "e5d6"),
            (EP, "xd6", "e5d6"),
            (CASTLE, "0-0", "e1g1"),
            (CASTLE, "0-0-0", "e1c1"),
            (CASTLE, "o-o", "e1g1"),
            (CASTLE, "O-O-O+", "e1c1"),
            (CASTLE, "Ra8", "a1a8"),
            (CASTLE, "R1:a8", "a1a8"),
            (SCHOLAR, "Qf7", "f3f7"),
            (SCHOLAR, "Qxf7", "f3f7"),
            (KNIGHTS, "Nb1d2", "b1d2"),
            (QUEENS, "Qc4d3", "c4d3"),
        ];
        for &(fen, text, uci) in cases {
            let b = board(fen);
            let got = parse_san(&b, text).map(|m| m.to_string());
            assert_eq!(got.as_deref(), Ok(uci), "{text} in {fen}");
        }
    }

    #[test]
    fn errors() {
        let ambiguous: &[(&str, &str, &[&str])] = &[
            (KNIGHTS, "Nd2", &["Nbd2", "Nfd2"]),
            (KNIGHTS, "Nc3", &["N1c3", "N5c3"]),
            (ROOKS, "Ra4", &["R1a4", "R8a4"]),
            (QUEENS, "Qd3", &["Q2d3", "Qc4d3", "Qed3"]),
            (QUEENS, "Qcd3", &["Q2d3", "Qc4d3"]),
            (PROMO, "c8", &["c8=N", "c8=B", "c8=R+", "c8=Q+"]),
        ];
        for &(fen, text, want) in ambiguous {
            match parse_san(&board(fen), text) {
                Err(SanError::Ambiguous {
                    candidates,
                    fen: f,
                    text: t,
                }) => {
                    let mut got = candidates.clone();
                    got.sort();
                    let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
                    want.sort();
                    assert_eq!(got, want, "{text}");
                    assert_eq!((f.as_str(), t.as_str()), (fen, text));
                }
                other => panic!("{text} in {fen}: {other:?}"),
            }
        }
        let illegal: &[(&str, &str)] = &[
            (START, "e5"),
            (START, "Nf4"),
            (START, "O-O"),
            (START, "Nxf3"),
            (START, "exd3"),
            (START, "Ke2"),
            (START, "Bb5"),
            (START, "e3=Q"),
            (CASTLE, "Kg1"),
            (CASTLE, "Ke1g1"),
            (EP, "d6"),
            (EP, "d6 e.p."),
            (EP, "exd5 e.p."),
        ];
        for &(fen, text) in illegal {
            let got = parse_san(&board(fen), text);
            assert!(
                matches!(got, Err(SanError::Illegal { .. })),
                "{text} in {fen}: {got:?}"
            );
        }
        let syntax = [
            "",
            "  ",
            "+",
            "!!",
            "e",
            "e9",
            "i4",
            "Nf",
            "Xe4",
            "Ke8=K",
            "Nf3=Q",
            "é4",
            "N g1f3",
            "exd5x",
            "O-O-O-O",
            "e4 e5",
            "Ng1ff3",
            "1. e4",
            "c8=Q=Q",
            "Nf3 e.p.",
            "O-O e.p.",
            "e8=Q e.p.",
        ];
        for text in syntax {
            let err = parse_san(&board(START), text);
            assert!(
                matches!(err, Err(SanError::Syntax { .. })),
                "{text:?}: {err:?}"
            );
        }
    }

    /// The fast path agrees with the slow one (every legal move, checked
    /// against the full move list) on every text it answers, and answers
    /// every unambiguous non-castling move: many ways of writing each legal
    /// move of positions along pseudo-random games, plus texts naming no
    /// move or several.
    #[test]
    fn fast_path_agrees_with_the_move_list() {
        let starts = [
            START,
            KNIGHTS,
            ROOKS,
            QUEENS,
            PROMO,
            EP,
            CASTLE,
            SCHOLAR,
            LONG_CHECK,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
            "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut random = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let mut checked = 0;
        for fen in starts {
            let mut b = board(fen);
            for _ in 0..40 {
                let legal = b.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mut texts = Vec::new();
                for &mv in &legal {
                    if mv.is_castle() {
                        continue;
                    }
                    let letter = match moving_role(&b, mv) {
                        Role::Pawn => String::new(),
                        r => r.upper_char().to_string(),
                    };
                    let (from, to) = (mv.from().to_string(), mv.to().to_string());
                    let promo = mv
                        .promotion()
                        .map(|r| format!("={}", r.upper_char()))
                        .unwrap_or_default();
                    let x = if mv.is_capture() { "x" } else { "" };
                    texts.push(to_san(&b, mv).unwrap_or_else(|e| panic!("{e}")));
                    for prefix in ["", &from[..1], &from[1..], &from] {
                        texts.push(format!("{letter}{prefix}{x}{to}{promo}"));
                        texts.push(format!("{letter}{prefix}{to}{promo}"));
                        texts.push(format!("{letter}{prefix}x{to}{promo}"));
                        texts.push(format!("{letter}{prefix}{to}"));
                    }
                    if mv.is_en_passant() {
                        texts.push(format!("{}x{to} e.p.", &from[..1]));
                    }
                }
                for text in &texts {
                    let Ok(san) = parse_syntax(text) else {
                        continue;
                    };
                    let slow = resolve_slow(&b, || text.to_string(), san);
                    match resolve_fast(&b, san) {
                        Some(mv) => assert_eq!(slow, Ok(mv), "{text} in {}", b.fen()),
                        None => {
                            assert!(slow.is_err(), "{text} in {}: slow found {slow:?}", b.fen())
                        }
                    }
                    checked += 1;
                }
                b.play_unchecked(legal[random(legal.len())]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Malformed text, the exact reason, and the reason's message: the
    /// position-free parse and `parse_san` (which adds the FEN) agree.
    #[test]
    fn syntax_errors_are_exact() {
        use SanSyntaxError::*;
        let cases: &[(&str, SanSyntaxError, &str)] = &[
            ("", Empty, "it is empty"),
            (" \t ", Empty, "it is empty"),
            ("é4", NotAscii, "it contains a character that is not ASCII"),
            ("Nf3\u{a0}", NotAscii, "it contains a character that is not ASCII"),
            ("+", OnlyAnnotations, "it has only annotation marks"),
            ("!!", OnlyAnnotations, "it has only annotation marks"),
            ("e.p.", OnlyAnnotations, "it has only annotation marks"),
            ("O-O e.p.", CastlingEnPassant, "castling is not an en-passant capture (remove `e.p.`)"),
            ("Nf3=Q", PromotionNotPawn, "only a pawn can promote"),
            ("Ke8=K", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
            ("Nf3 e.p.", EnPassantNotPawn, "only a pawn capture can be en passant (remove `e.p.`)"),
            ("e8=Q e.p.", EnPassantNotPawn, "only a pawn capture can be en passant (remove `e.p.`)"),
            ("e", NoDestination, "it has no destination square"),
            ("N", NoDestination, "it has no destination square"),
            ("Nf", NoDestination, "it has no destination square"),
            ("e9", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
            ("i4", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
            ("exd5x", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
            ("O-O-O-O", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
            ("c8=Q=Q", BadDestination, "it does not end with a destination square such as f3 (or a promotion such as =Q)"),
            ("Xe4", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
            ("N g1f3", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
            ("e4 e5", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
            ("Ng1ff3", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
            ("1. e4", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
            ("Nxxf3", BadPrefix, "the part before the destination must be a piece letter (NBRQK), a file a-h and/or a rank 1-8, then x"),
        ];
        for &(text, reason, message) in cases {
            let err = San::parse(text).unwrap_err();
            assert_eq!((err.text.as_str(), err.reason), (text, reason), "{text:?}");
            assert_eq!(
                err.to_string(),
                format!("`{text}` is not a SAN move ({message}; expected something like e4, Nf3, exd5, Rad1, e8=Q or O-O)"),
            );
            let b = board(START);
            assert_eq!(
                parse_san(&b, text),
                Err(SanError::Syntax {
                    text: text.to_string(),
                    reason,
                    fen: START.to_string()
                })
            );
        }
    }

    /// What the text says, read without a position.
    #[test]
    fn parses_without_a_position() {
        let f = |c| File::from_char(c);
        let r = |c| Rank::from_char(c);
        let normal = |role, from_file, from_rank, capture, to, promotion, suffix| San::Normal {
            role,
            from_file,
            from_rank,
            capture,
            to,
            promotion,
            en_passant: false,
            suffix,
        };
        let cases: &[(&str, San, &str)] = &[
            (
                "e4",
                normal(Role::Pawn, None, None, false, Square::E4, None, None),
                "e4",
            ),
            (
                "Pe4",
                normal(Role::Pawn, None, None, false, Square::E4, None, None),
                "e4",
            ),
            (
                "exd5",
                normal(Role::Pawn, f('e'), None, true, Square::D5, None, None),
                "exd5",
            ),
            (
                "ed5",
                normal(Role::Pawn, f('e'), None, false, Square::D5, None, None),
                "ed5",
            ),
            (
                "bxc3",
                normal(Role::Pawn, f('b'), None, true, Square::C3, None, None),
                "bxc3",
            ),
            (
                "Bxc3",
                normal(Role::Bishop, None, None, true, Square::C3, None, None),
                "Bxc3",
            ),
            (
                "nf3",
                normal(Role::Knight, None, None, false, Square::F3, None, None),
                "Nf3",
            ),
            (
                "Ng1-f3",
                normal(Role::Knight, f('g'), r('1'), false, Square::F3, None, None),
                "Ng1f3",
            ),
            (
                "R1:a4!",
                normal(Role::Rook, None, r('1'), true, Square::A4, None, None),
                "R1xa4",
            ),
            (
                "Qh4xe1#",
                normal(
                    Role::Queen,
                    f('h'),
                    r('4'),
                    true,
                    Square::E1,
                    None,
                    Some(Suffix::Checkmate),
                ),
                "Qh4xe1#",
            ),
            (
                "e8q+",
                normal(
                    Role::Pawn,
                    None,
                    None,
                    false,
                    Square::E8,
                    Some(Role::Queen),
                    Some(Suffix::Check),
                ),
                "e8=Q+",
            ),
            (
                "cxb8=N",
                normal(
                    Role::Pawn,
                    f('c'),
                    None,
                    true,
                    Square::B8,
                    Some(Role::Knight),
                    None,
                ),
                "cxb8=N",
            ),
            (
                "e4+#",
                normal(
                    Role::Pawn,
                    None,
                    None,
                    false,
                    Square::E4,
                    None,
                    Some(Suffix::Checkmate),
                ),
                "e4#",
            ),
            (
                "e4?!+",
                normal(
                    Role::Pawn,
                    None,
                    None,
                    false,
                    Square::E4,
                    None,
                    Some(Suffix::Check),
                ),
                "e4+",
            ),
            (
                "O-O",
                San::Castle {
                    side: CastlingSide::King,
                    suffix: None,
                },
                "O-O",
            ),
            (
                "0-0-0+",
                San::Castle {
                    side: CastlingSide::Queen,
                    suffix: Some(Suffix::Check),
                },
                "O-O-O+",
            ),
            (
                "o-o#",
                San::Castle {
                    side: CastlingSide::King,
                    suffix: Some(Suffix::Checkmate),
                },
                "O-O#",
            ),
        ];
        for &(text, want, written) in cases {
            let san = San::parse(text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(san, want, "{text}");
            assert_eq!(san.to_string(), written, "{text}");
            assert_eq!(San::parse(written), Ok(san), "{written}");
        }
        let ep = San::parse("exd6 e.p.+").unwrap();
        assert!(matches!(
            ep,
            San::Normal {
                en_passant: true,
                capture: true,
                ..
            }
        ));
        assert_eq!(ep.suffix(), Some(Suffix::Check));
        assert_eq!(ep.to_string(), "exd6 e.p.+");
        assert_eq!(San::parse("exd6+ e.p."), Ok(ep));
        assert_eq!(ep.with_suffix(None).to_string(), "exd6 e.p.");
    }

    /// Every text over a small alphabet: no panic, and whatever parses
    /// writes back to a text that parses to the same value.
    #[test]
    fn every_short_text_round_trips() {
        let alphabet = b"NBRQKPnbrqkexdh18O0-=+#!? .p";
        let mut accepted = 0;
        let mut text = Vec::new();
        for len in 1..=4u32 {
            for mut code in 0..(alphabet.len() as u64).pow(len) {
                text.clear();
                for _ in 0..len {
                    text.push(alphabet[(code % alphabet.len() as u64) as usize]);
                    code /= alphabet.len() as u64;
                }
                let Ok(t) = core::str::from_utf8(&text) else {
                    continue;
                };
                if let Ok(san) = San::parse(t) {
                    accepted += 1;
                    let written = san.to_string();
                    assert_eq!(San::parse(&written), Ok(san), "{t:?} -> {written:?}");
                }
            }
        }
        assert!(accepted > 1000, "{accepted}");
    }

    /// `San` and the text functions are one piece of code: for every legal
    /// move of some positions, `from_move` writes what `to_san` writes,
    /// and `to_move` of it is the move.
    #[test]
    fn san_type_and_text_functions_agree() {
        for fen in [
            START, KNIGHTS, ROOKS, QUEENS, LONG_CHECK, PROMO, EP, CASTLE, SCHOLAR,
        ] {
            let b = board(fen);
            for &mv in &b.legal_moves() {
                let san = San::from_move(&b, mv).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(Ok(san.to_string()), to_san(&b, mv));
                assert_eq!(san.to_move(&b), Ok(mv), "{san} in {fen}");
                assert_eq!(parse_san(&b, &san.to_string()), Ok(mv));
            }
        }
        // `to_move` names the SAN as written back in its errors.
        let b = board(KNIGHTS);
        let san = San::parse("nd2!").unwrap();
        assert_eq!(
            san.to_move(&b).unwrap_err().to_string(),
            format!(
                "`Nd2` is ambiguous in {KNIGHTS}: it could be Nbd2 or Nfd2; write one of those"
            )
        );
        assert_eq!(
            San::parse("Qd4").unwrap().to_move(&b).unwrap_err().to_string(),
            format!("`Qd4` is not a legal move in {KNIGHTS}: no white queen matching the text can move to d4")
        );
        assert_eq!(
            San::from_move(&b, Move::NULL).unwrap_err().to_string(),
            format!("0000 is not a legal move in {KNIGHTS}")
        );
    }

    #[test]
    fn game_play_san() {
        let mut game = crate::Game::new(board(START));
        for text in ["f3", "e5", "g4"] {
            assert!(game.play_san(text).is_ok(), "{text}");
        }
        // An error changes nothing.
        assert!(matches!(
            game.play_san("Qh5"),
            Err(SanError::Illegal { .. })
        ));
        assert_eq!(game.moves().len(), 3);
        assert_eq!(
            game.play_san("Qh4#").map(|m| m.to_string()).as_deref(),
            Ok("d8h4")
        );
        assert!(game.board().is_checkmate());
    }

    #[test]
    fn messages_name_text_and_position() {
        let b = board(KNIGHTS);
        let msg = parse_san(&b, "Nd2").unwrap_err().to_string();
        assert!(
            msg.contains("`Nd2`") && msg.contains(KNIGHTS) && msg.contains("Nbd2 or Nfd2"),
            "{msg}"
        );
        let msg = parse_san(&b, "Nxd2").unwrap_err().to_string();
        assert!(
            msg.contains("nothing to capture on d2") && msg.contains(KNIGHTS),
            "{msg}"
        );
        let msg = parse_san(&b, "Z9").unwrap_err().to_string();
        assert!(
            msg.contains("`Z9`") && msg.contains("not a SAN move") && msg.contains(KNIGHTS),
            "{msg}"
        );
        let msg = parse_san(&board(START), "O-O").unwrap_err().to_string();
        assert!(
            msg.contains("white cannot castle on the king side"),
            "{msg}"
        );
    }

    #[test]
    fn black_and_check_and_lines() {
        let b = board(START);
        let mut moves = Vec::new();
        let mut pos = b.clone();
        for text in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
            let mv = parse_san(&pos, text).unwrap_or_else(|e| panic!("{e}"));
            moves.push(mv);
            pos.play_unchecked(mv);
        }
        assert!(pos.is_checkmate());
        assert_eq!(
            san_line(&b, &moves).as_deref(),
            Ok("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#")
        );
        let mut after_e4 = b.clone();
        after_e4.play_unchecked(moves[0]);
        assert_eq!(
            san_line(&after_e4, &moves[1..3]).as_deref(),
            Ok("1... e5 2. Qh5")
        );
        // A null move is written `--`, refused in check.
        let line = [moves[0], Move::NULL, moves[2], Move::NULL];
        assert_eq!(san_line(&b, &line).as_deref(), Ok("1. e4 -- 2. Qh5 --"));
        let mut checked = b.clone();
        for &mv in &moves[..6] {
            checked.play_unchecked(mv);
        }
        assert!(san_line(&checked, &[moves[6], Move::NULL]).is_err());
        assert_eq!(san_line(&b, &[]).as_deref(), Ok(""));
        let err = san_line(&b, &[moves[0], moves[0]]).unwrap_err();
        assert_eq!(err.mv, moves[0]);
        // Not legal here: no SAN, and an error naming the move.
        assert_eq!(to_san(&b, moves[1]).map_err(|e| e.mv), Err(moves[1]));
        assert_eq!(to_san(&b, Move::NULL).map_err(|e| e.mv), Err(Move::NULL));
    }
}
