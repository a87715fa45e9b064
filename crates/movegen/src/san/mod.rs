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

use crate::check::CheckInfo;
use crate::game::IllegalMove;
use crate::{MoveGen, MoveList};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write};
use core::str::FromStr;
use fianchetto_board::attacks::{
    attacks, between, king_attacks, knight_attacks, line, pawn_attacks,
};
use fianchetto_board::{
    Bitboard, Board, CastlingSide, Color, File, Move, MoveKind, Rank, Role, Square,
};

mod resolve;
mod syntax;
#[cfg(test)]
mod tests;

use resolve::{resolve_fast, resolve_slow};
use syntax::parse_syntax;

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
        Ok(san_of(board, mv, &legal, suffix_after(&after)))
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
    pub const fn with_suffix(mut self, suffix: Option<Suffix>) -> San {
        match &mut self {
            San::Normal { suffix: s, .. } | San::Castle { suffix: s, .. } => *s = suffix,
        }
        self
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
        self.write_to(f)
    }
}

impl San {
    /// Writes the `Display` text to `w` character by character: one code
    /// path for `Display` and for [`san_list`], which appends to a `String`
    /// without going through a `Formatter`.
    fn write_to<W: Write>(&self, w: &mut W) -> fmt::Result {
        match *self {
            San::Castle { side, .. } => w.write_str(match side {
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
                    w.write_char(role.upper_char())?;
                }
                if let Some(file) = from_file {
                    w.write_char(file.char())?;
                }
                if let Some(rank) = from_rank {
                    w.write_char(rank.char())?;
                }
                if capture {
                    w.write_char('x')?;
                }
                w.write_char(to.file().char())?;
                w.write_char(to.rank().char())?;
                if let Some(promoted) = promotion {
                    w.write_char('=')?;
                    w.write_char(promoted.upper_char())?;
                }
                if en_passant {
                    w.write_str(" e.p.")?;
                }
            }
        }
        match self.suffix() {
            Some(suffix) => w.write_char(suffix.char()),
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
    let _ = san_of(board, mv, legal, suffix_after(after)).write_to(out);
}

/// Appends the SAN of every legal move of `board` to `out`, separated by
/// single spaces (nothing when there is none), and returns those moves, in
/// the same order (that of [`MoveGen::legal_moves`]).
///
/// Each text is the one [`to_san`] writes for the move, but the list is
/// cheaper than calling [`to_san`] on every move: the legal moves are
/// generated once and serve every move's disambiguation, the texts go into
/// `out` without a `String` of their own, and only a move that gives check
/// costs a second move generation (to tell `+` from `#`).
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::{san_list, to_san};
///
/// let board = Bitboards::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3")?;
/// let mut sans = String::new();
/// let moves = san_list(&board, &mut sans);
/// assert!(sans.split(' ').any(|san| san == "Qxf7#"));
/// // The same texts as move by move, in the same order.
/// for (san, &mv) in sans.split(' ').zip(&moves) {
///     assert_eq!(san, to_san(&board, mv)?);
/// }
/// assert_eq!(sans.split(' ').count(), moves.len());
///
/// // No legal move, no text.
/// let mated = Bitboards::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")?;
/// let mut none = String::new();
/// assert!(san_list(&mated, &mut none).is_empty());
/// assert_eq!(none, "");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn san_list<B: MoveGen>(board: &B, out: &mut String) -> MoveList {
    let legal = board.legal_moves();
    // The squares two pieces of the same kind go to (pawns aside, whose SAN
    // never needs it): only a move to one of them can need disambiguating,
    // so only those moves look for rivals through the whole list (a scan
    // per move would cost more than all the rest).
    let (mut reached, mut shared) = ([Bitboard::EMPTY; 6], Bitboard::EMPTY);
    for &m in &legal {
        let role = moving_role(board, m);
        if role != Role::Pawn && !m.is_castle() {
            let to = Bitboard::from(m.to());
            shared |= reached[role.index()] & to;
            reached[role.index()] |= to;
        }
    }
    let checks = CheckInfo::new(board);
    // Most SAN texts are 2 to 4 characters, plus the space.
    out.reserve(legal.len() * 5);
    for (i, &mv) in legal.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        // Most moves give no check: telling so from the board as it is
        // costs less than playing the move on a copy, which only a check
        // needs (to tell `+` from `#`).
        let suffix = if checks.gives_check(board, mv) {
            let mut after = board.clone();
            after.play_unchecked(mv);
            suffix_after(&after)
        } else {
            None
        };
        let rivals: &[Move] = if shared.contains(mv.to()) {
            &legal
        } else {
            &[]
        };
        // A String never fails to grow.
        let _ = san_of(board, mv, rivals, suffix).write_to(out);
    }
    legal
}

/// The check or mate mark of the move that led to `after`.
fn suffix_after<B: MoveGen>(after: &B) -> Option<Suffix> {
    if !after.in_check() {
        None
    } else if after.has_no_moves() {
        Some(Suffix::Checkmate)
    } else {
        Some(Suffix::Check)
    }
}

/// The SAN of `mv`, a legal move of `board`, with `suffix` (see
/// [`suffix_after`]): the least disambiguation that names the moving piece.
/// `legal` holds the legal moves of `board`, or at least every one of them
/// that goes where `mv` goes (the rivals it may need telling apart from).
fn san_of<B: MoveGen>(board: &B, mv: Move, legal: &[Move], suffix: Option<Suffix>) -> San {
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
