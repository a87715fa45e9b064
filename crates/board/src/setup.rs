//! `Setup`: a plain, unvalidated description of a position, and FEN text in
//! and out. Turning a `Setup` into a playable board (and rejecting impossible
//! positions) is [`crate::validate`]'s job.

use crate::castling::{CastlingMode, CastlingRights, CastlingSide};
use crate::types::{Color, File, Piece, Rank, Role, Square};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A position as FEN describes it, not yet checked for legality.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// What stands on each square, indexed by [`Square::index`].
    pub board: [Option<Piece>; 64],
    /// The side to move.
    pub turn: Color,
    /// Castling rights, with their king and rook files (Chess960).
    pub castling: CastlingRights,
    /// The en-passant target square (the square a pawn skipped), if any.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The move number, starting at 1 and increasing after black moves.
    pub fullmove_number: u32,
}

/// "field" or "fields", as `n` needs.
fn fields(n: usize) -> &'static str {
    if n == 1 {
        "field"
    } else {
        "fields"
    }
}

/// What is wrong with a FEN string. Every variant names the field and what was
/// expected there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    #[error("FEN has {0} {field}; expected 4 to 6 (placement, side, castling, en passant[, halfmove, fullmove])", field = fields(*.0))]
    FieldCount(usize),
    /// Lenient reading ([`FenOptions::LENIENT`]): no fields at all, or more
    /// than 6.
    #[error("FEN has {0} {field}; expected 1 to 6 (placement[, side, castling, en passant, halfmove, fullmove])", field = fields(*.0))]
    FieldCountLenient(usize),
    /// The placement field does not have 8 ranks.
    #[error("FEN placement has {0} {ranks} separated by '/'; expected 8", ranks = if *.0 == 1 { "rank" } else { "ranks" })]
    RankCount(usize),
    /// A rank of the placement field does not describe exactly 8 squares.
    #[error("FEN placement rank {rank} describes {squares} {noun}; expected 8", noun = if *squares == 1 { "square" } else { "squares" })]
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
    /// The castling field is not `-` or a subset of `KQkq` (in Chess960
    /// mode: X-FEN or Shredder-FEN letters, each right at most once).
    #[error("FEN castling field is `{0}`; expected `-` or letters from KQkq, each at most once (rook files A-H and a-h only in Chess960 mode, naming a rook beside its king)")]
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

/// How FEN text is read: the castling notation, and whether small mistakes
/// are repaired or reported.
///
/// Strict reading ([`FenOptions::STRICT`], the default and what
/// [`Setup::from_fen`] and [`crate::Board::from_fen`] do) takes FEN as the
/// standard defines it and reports every deviation. Lenient reading
/// ([`FenOptions::LENIENT`]) accepts the FENs that other programs and
/// hand-edited files commonly get slightly wrong; see
/// [`FenOptions::LENIENT`] for the list.
///
/// ```
/// use fianchetto_board::{Bitboards, Board, CastlingMode, FenOptions};
///
/// // Castling rights that no longer hold (the rooks have moved) and
/// // fullmove number 0: an error when strict...
/// let fen = "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 0";
/// let err = Bitboards::from_fen(fen).unwrap_err();
/// assert_eq!(err.to_string(),
///            "impossible position: white may castle Queen-side, but the king is not on e1 or the rook not on a1");
/// // ...repaired when lenient: the rights without their rook are dropped.
/// let board = Bitboards::from_fen_with_options(fen, FenOptions::LENIENT)?;
/// assert_eq!(board.fen(), "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
///
/// // The castling notation is chosen the same way.
/// let chess960 = FenOptions::LENIENT.with_castling_mode(CastlingMode::Chess960);
/// let b = Bitboards::from_fen_with_options("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf -", chess960)?;
/// assert_eq!(b.fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
/// # Ok::<(), fianchetto_board::FenError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FenOptions {
    /// How the castling field is read (see [`CastlingMode`]).
    pub castling_mode: CastlingMode,
    /// Whether to repair, rather than report, the mistakes listed at
    /// [`FenOptions::LENIENT`]. Off by default.
    pub lenient: bool,
}

impl FenOptions {
    /// Standard chess, every deviation from the FEN standard an error
    /// (except that the two clock fields may be left out, as in EPD).
    pub const STRICT: FenOptions = FenOptions {
        castling_mode: CastlingMode::Standard,
        lenient: false,
    };

    /// Standard chess, repairing what careless writers get wrong:
    ///
    /// - fullmove number 0 is read as 1;
    /// - a castling right whose king or rook is not on its square (or, in
    ///   Chess960 mode, a rook letter naming the king's own file) is
    ///   dropped, the other rights kept;
    /// - an en-passant square that no pawn can just have skipped (the
    ///   wrong rank, an occupied square, no pawn in front of it) is dropped;
    ///   one that a pawn did skip but none can capture on is dropped in
    ///   both modes, as [`crate::validate`] always does;
    /// - trailing fields may be missing: the side to move defaults to
    ///   white, castling and en passant to `-`, the clocks to 0 and 1 (in
    ///   strict mode only the clocks may be missing).
    ///
    /// Everything else (a malformed field, two kings of one colour, a pawn
    /// on the back rank, the side not to move in check, ...) is still an
    /// error: those are not slips but a different position.
    pub const LENIENT: FenOptions = FenOptions {
        castling_mode: CastlingMode::Standard,
        lenient: true,
    };

    /// Strict reading ([`FenOptions::STRICT`]).
    pub const fn strict() -> FenOptions {
        FenOptions::STRICT
    }

    /// Lenient reading ([`FenOptions::LENIENT`]).
    pub const fn lenient() -> FenOptions {
        FenOptions::LENIENT
    }

    /// These options with the castling field read as `mode` says.
    pub const fn with_castling_mode(self, mode: CastlingMode) -> FenOptions {
        FenOptions {
            castling_mode: mode,
            lenient: self.lenient,
        }
    }
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

    /// Parses FEN text of standard chess: the castling field is `-` or
    /// letters of `KQkq`. Only syntax is checked here; see
    /// [`crate::validate`] for legality. The halfmove and fullmove fields may
    /// be left out (they default to 0 and 1), as in EPD.
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        Setup::from_fen_with(fen, CastlingMode::Standard)
    }

    /// Parses FEN text, reading the castling field as `mode` says: in
    /// [`CastlingMode::Chess960`], X-FEN (`KQkq` for the outermost rook on
    /// each side of the king, a file letter for another rook) and
    /// Shredder-FEN (file letters only, such as `HAha`).
    ///
    /// ```
    /// use fianchetto_board::{CastlingMode, CastlingSide, Color, Setup, Square};
    ///
    /// // Chess960 position 0 (bbqnnrkr): the king on g1 between rooks on f1 and h1.
    /// let x = Setup::from_fen_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    ///                              CastlingMode::Chess960)?;
    /// let shredder = Setup::from_fen_with("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    ///                                     CastlingMode::Chess960)?;
    /// assert_eq!(x, shredder);
    /// assert_eq!(x.castling.rook_square(Color::White, CastlingSide::Queen), Some(Square::F1));
    /// assert_eq!(x.to_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    /// assert_eq!(x.to_shredder_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    /// // Standard chess reads `KQkq` as king on e1 and rooks in the corners.
    /// assert!(fianchetto_board::validate(&Setup::from_fen(&x.to_fen())?).is_err());
    /// # Ok::<(), fianchetto_board::FenError>(())
    /// ```
    pub fn from_fen_with(fen: &str, mode: CastlingMode) -> Result<Setup, FenError> {
        Setup::from_fen_with_options(fen, FenOptions::STRICT.with_castling_mode(mode))
    }

    /// Parses FEN text of standard chess leniently: see
    /// [`FenOptions::LENIENT`] for what is forgiven.
    ///
    /// ```
    /// use fianchetto_board::Setup;
    ///
    /// // Fullmove 0, a white `K` right without a rook on h1, and an
    /// // en-passant square without a pawn that could have skipped it.
    /// let fen = "4k3/8/8/8/8/8/8/4K3 w K e6 0 0";
    /// assert!(Setup::from_fen(fen).is_ok()); // syntax is fine...
    /// assert!(fianchetto_board::validate(&Setup::from_fen(fen)?).is_err()); // ...the position is not
    /// let setup = Setup::from_fen_lenient(fen)?;
    /// assert_eq!(setup.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    /// # Ok::<(), fianchetto_board::FenError>(())
    /// ```
    pub fn from_fen_lenient(fen: &str) -> Result<Setup, FenError> {
        Setup::from_fen_with_options(fen, FenOptions::LENIENT)
    }

    /// Parses FEN text as `options` say: the castling notation
    /// ([`FenOptions::castling_mode`]) and whether to repair what careless
    /// writers get wrong ([`FenOptions::lenient`](FenOptions#structfield.lenient)). Strict parsing checks
    /// syntax only, as [`Setup::from_fen`]; lenient parsing also returns
    /// the setup repaired, so that [`crate::validate`] no longer objects to
    /// the forgiven mistakes.
    pub fn from_fen_with_options(fen: &str, options: FenOptions) -> Result<Setup, FenError> {
        let lenient = options.lenient;
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        match fields.len() {
            1..=6 if lenient => {}
            4..=6 => {}
            n if lenient => return Err(FenError::FieldCountLenient(n)),
            n => return Err(FenError::FieldCount(n)),
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
                return Err(FenError::RankLength {
                    rank: rank + 1,
                    squares: file,
                });
            }
        }
        // Lenient parsing reads missing fields as their defaults: white to
        // move, no castling, no en passant, clocks 0 and 1.
        setup.turn = match fields.get(1).copied().unwrap_or("w") {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Turn(other.to_string())),
        };
        let castling = fields.get(2).copied().unwrap_or("-");
        setup.castling = match options.castling_mode {
            CastlingMode::Standard => parse_castling(castling)?,
            CastlingMode::Chess960 => parse_castling_960(castling, &setup.board, lenient)?,
        };
        setup.ep_square = match fields.get(3).copied().unwrap_or("-") {
            "-" => None,
            s => match s.parse::<Square>() {
                Ok(sq) if matches!(sq.rank().index(), 2 | 5) => Some(sq),
                // Any square is a possible typo for "no en passant".
                Ok(_) if lenient => None,
                _ => return Err(FenError::EnPassant(s.to_string())),
            },
        };
        if let Some(h) = fields.get(4) {
            setup.halfmove_clock = h.parse().map_err(|_| FenError::Halfmove(h.to_string()))?;
        }
        if let Some(f) = fields.get(5) {
            setup.fullmove_number = f.parse().map_err(|_| FenError::Fullmove(f.to_string()))?;
        }
        if lenient {
            crate::validate::repair(&mut setup);
        }
        Ok(setup)
    }

    /// The FEN text of this setup (always six fields). Castling is written
    /// as X-FEN: `KQkq` letters, except that a Chess960 right whose rook is
    /// not the outermost one on its side of the king is written as the
    /// rook's file. For standard chess this is plain FEN.
    pub fn to_fen(&self) -> String {
        self.to_string()
    }

    /// The Shredder-FEN text of this setup: as [`to_fen`](Self::to_fen), but
    /// castling rights are always the rook files (`HAha` for `KQkq`).
    pub fn to_shredder_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        self.write_fen(&mut out, true)
            .map_or(String::new(), |()| out)
    }

    /// The castling field as X-FEN writes it for this placement.
    fn xfen_castling(&self) -> String {
        if self.castling.is_empty() {
            return "-".to_string();
        }
        let mut s = String::new();
        for color in Color::ALL {
            let rank = match color {
                Color::White => Rank::FIRST,
                Color::Black => Rank::EIGHTH,
            };
            let rook = Some(Piece::new(color, Role::Rook));
            for side in CastlingSide::ALL {
                let Some(file) = self.castling.rook_file(color, side) else {
                    continue;
                };
                // Another rook of ours further out on the same side makes
                // the letter ambiguous: name the file instead.
                let beyond = (0..8u8)
                    .filter_map(File::new)
                    .filter(|f| match side {
                        CastlingSide::King => f.index() > file.index(),
                        CastlingSide::Queen => f.index() < file.index(),
                    })
                    .any(|f| self.piece_at(Square::from_coords(f, rank)) == rook);
                let c = match (beyond, side) {
                    (true, _) => file.char(),
                    (false, CastlingSide::King) => 'k',
                    (false, CastlingSide::Queen) => 'q',
                };
                s.push(match color {
                    Color::White => c.to_ascii_uppercase(),
                    Color::Black => c,
                });
            }
        }
        s
    }

    /// Writes FEN: X-FEN castling, or Shredder-FEN with `shredder`.
    fn write_fen(&self, f: &mut impl fmt::Write, shredder: bool) -> fmt::Result {
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
        let castling = if shredder {
            self.castling.shredder()
        } else {
            self.xfen_castling()
        };
        write!(f, " {} {castling} ", self.turn.char())?;
        match self.ep_square {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_str("-")?,
        }
        write!(f, " {} {}", self.halfmove_clock, self.fullmove_number)
    }

    /// The Chess960 start position number `n` (0..960, Scharnagl's
    /// numbering: 518 is the standard position), both sides with the same
    /// arrangement, with all four castling rights. `None` for `n` ≥ 960.
    ///
    /// ```
    /// use fianchetto_board::{Setup, START_FEN};
    /// assert_eq!(Setup::chess960(518).map(|s| s.to_fen()).as_deref(), Some(START_FEN));
    /// assert_eq!(Setup::chess960(0).unwrap().to_fen(),
    ///            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    /// assert!(Setup::chess960(960).is_none());
    /// ```
    pub fn chess960(n: u32) -> Option<Setup> {
        Setup::double_chess960(n, n)
    }

    /// A Double Fischer Random start position: white's pieces arranged as
    /// Chess960 position `white`, black's as position `black` (each 0..960),
    /// with all four castling rights. `None` if either number is ≥ 960.
    ///
    /// ```
    /// use fianchetto_board::Setup;
    /// let s = Setup::double_chess960(518, 0).unwrap();
    /// assert_eq!(s.to_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    /// ```
    pub fn double_chess960(white: u32, black: u32) -> Option<Setup> {
        let mut setup = Setup::empty();
        for (color, n) in [(Color::White, white), (Color::Black, black)] {
            let back = chess960_back_rank(n)?;
            let (rank, pawns) = match color {
                Color::White => (0, 8),
                Color::Black => (56, 48),
            };
            let mut rooks = Vec::with_capacity(2);
            let mut king = File::A;
            for (i, &role) in back.iter().enumerate() {
                setup.board[rank + i] = Some(Piece::new(color, role));
                setup.board[pawns + i] = Some(Piece::new(color, Role::Pawn));
                let file = File::new(i as u8)?;
                match role {
                    Role::King => king = file,
                    Role::Rook => rooks.push(file),
                    _ => {}
                }
            }
            for rook in rooks {
                let side = CastlingSide::of_rook(king, rook)?;
                setup.castling = setup.castling.with_files(color, side, king, rook);
            }
        }
        Some(setup)
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

/// The back rank of Chess960 start position `n` (0..960) in Scharnagl's
/// numbering, a-file first; `None` for `n` ≥ 960.
///
/// `n` is read as digits of mixed radix: `n % 4` places the light-squared
/// bishop (b, d, f or h file), the next base-4 digit the dark-squared one
/// (a, c, e or g), the next base-6 digit the queen on one of the six files
/// left, and the quotient (0..10) one of the ten ways to put two knights on
/// the five files left. The last three files get rook, king, rook.
///
/// ```
/// use fianchetto_board::{chess960_back_rank, Role::*};
/// assert_eq!(chess960_back_rank(518), Some([Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook]));
/// assert_eq!(chess960_back_rank(0), Some([Bishop, Bishop, Queen, Knight, Knight, Rook, King, Rook]));
/// ```
pub fn chess960_back_rank(n: u32) -> Option<[Role; 8]> {
    if n >= 960 {
        return None;
    }
    // The pairs of free files (counted among the five left) the knights take.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = n as usize;
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    n /= 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    n /= 4;
    let queen = n % 6;
    n /= 6;
    let (k1, k2) = KNIGHTS[n % 10];
    let put = |rank: &mut [Option<Role>; 8], nth: usize, role: Role| {
        if let Some(i) = (0..8).filter(|&i| rank[i].is_none()).nth(nth) {
            rank[i] = Some(role);
        }
    };
    put(&mut rank, queen, Role::Queen);
    // The second knight first, so that the first one's index still counts
    // the free files as they were.
    put(&mut rank, k2, Role::Knight);
    put(&mut rank, k1, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        put(&mut rank, 0, role);
    }
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r?;
    }
    Some(out)
}

/// The Chess960 number (0..960) of a back rank, if it is one of the 960.
///
/// ```
/// use fianchetto_board::{chess960_back_rank, chess960_number};
/// assert_eq!(chess960_back_rank(123).and_then(chess960_number), Some(123));
/// ```
pub fn chess960_number(back_rank: [Role; 8]) -> Option<u32> {
    (0..960).find(|&n| chess960_back_rank(n) == Some(back_rank))
}

/// Reads a Chess960 castling field (X-FEN or Shredder-FEN) against the
/// placement `board`. Each right's king is `color`'s king on its back rank
/// (the e-file if there is none there, for validation to report); `K`/`Q`
/// take the outermost rook on that side of it, a file letter the rook on
/// that file (whose side is where it stands from the king). A missing rook
/// is recorded on the standard file, for validation to report. With
/// `lenient`, a file letter naming the king's own file (no side of it) is
/// skipped rather than an error.
fn parse_castling_960(
    s: &str,
    board: &[Option<Piece>; 64],
    lenient: bool,
) -> Result<CastlingRights, FenError> {
    let error = || FenError::Castling(s.to_string());
    let mut rights = CastlingRights::NONE;
    if s == "-" {
        return Ok(rights);
    }
    for c in s.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = match color {
            Color::White => Rank::FIRST,
            Color::Black => Rank::EIGHTH,
        };
        let at = |f: File| board[Square::from_coords(f, rank).index()];
        let files = (0..8u8).filter_map(File::new);
        let king = files
            .clone()
            .find(|&f| at(f) == Some(Piece::new(color, Role::King)))
            .unwrap_or(File::E);
        let is_rook = |f: &File| at(*f) == Some(Piece::new(color, Role::Rook));
        let (side, rook) = match c.to_ascii_lowercase() {
            'k' => {
                let side = CastlingSide::King;
                let outer = files
                    .rev()
                    .filter(|f| f.index() > king.index())
                    .find(is_rook);
                (side, outer.unwrap_or(side.standard_rook_file()))
            }
            'q' => {
                let side = CastlingSide::Queen;
                let outer = files.filter(|f| f.index() < king.index()).find(is_rook);
                (side, outer.unwrap_or(side.standard_rook_file()))
            }
            letter => {
                let file = File::from_char(letter).ok_or_else(error)?;
                match CastlingSide::of_rook(king, file) {
                    Some(side) => (side, file),
                    None if lenient => continue,
                    None => return Err(error()),
                }
            }
        };
        if rights.has(color, side) {
            return Err(error());
        }
        rights = rights.with_files(color, side, king, rook);
    }
    Ok(rights)
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
    /// Writes FEN, with X-FEN castling (see [`Setup::to_fen`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_fen(f, false)
    }
}

impl fmt::Debug for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Setup({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let s = Setup::from_fen(START_FEN).unwrap();
        assert_eq!(s.to_fen(), START_FEN);
        assert_eq!(
            s.piece_at(Square::E1),
            Some(Piece::new(Color::White, crate::Role::King))
        );
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
            (
                "8/8/8/8/8/8/8/7 w - - 0 1",
                RankLength {
                    rank: 1,
                    squares: 7,
                },
            ),
            (
                "8/8/8/8/8/8/8/ppppppppp w - - 0 1",
                RankLength {
                    rank: 1,
                    squares: 9,
                },
            ),
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
