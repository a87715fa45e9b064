//! The `Board` trait: the one interface every backend implements and every
//! algorithm above (move generation, evaluation, search) is generic over.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::castling::{CastlingMode, CastlingRights};
use crate::cpu::Level;
use crate::mv::Move;
use crate::setup::{FenError, FenOptions, Setup};
use crate::types::{Color, Piece, Role, Square};
use alloc::string::String;
use core::fmt::Debug;

/// A playable chess position.
///
/// Every implementation is built from a validated [`Setup`] (so all backends
/// accept and reject the same positions), keeps its Zobrist [`hash`](Board::hash)
/// up to date move by move (equal to [`crate::zobrist::compute`] of its parts),
/// and plays moves in place. Searches use copy-make: clone, then
/// [`Board::play_unchecked`].
///
/// ```
/// use fianchetto_board::{Bitboards, Board, Color, Square};
/// let b = Bitboards::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
/// assert_eq!(b.turn(), Color::White);
/// assert_eq!(b.king(Color::Black), Square::E8);
/// assert!(!b.in_check());
/// # Ok::<(), fianchetto_board::FenError>(())
/// ```
pub trait Board: Clone + Debug + Send + Sync + 'static {
    /// A short name for the backend (`bitboard`, `0x88`, `mailbox`).
    const NAME: &'static str;

    /// Builds the position, rejecting impossible setups (see
    /// [`crate::PositionError`] for the list).
    fn from_setup(setup: &Setup) -> Result<Self, crate::PositionError>;

    /// What stands on `sq`.
    fn piece_at(&self, sq: Square) -> Option<Piece>;

    /// The squares of `color`'s pieces of `role`.
    fn pieces(&self, color: Color, role: Role) -> Bitboard;

    /// The squares of all of `color`'s pieces.
    fn by_color(&self, color: Color) -> Bitboard;

    /// The side to move.
    fn turn(&self) -> Color;

    /// Remaining castling rights.
    fn castling(&self) -> CastlingRights;

    /// The en-passant square, kept only when a pawn of the side to move
    /// attacks it (the normalisation [`crate::validate`] describes).
    fn ep_square(&self) -> Option<Square>;

    /// Half-moves since the last capture or pawn move.
    fn halfmove_clock(&self) -> u32;

    /// The move number (starts at 1, increases after black's move).
    fn fullmove_number(&self) -> u32;

    /// Zobrist hash of the position (pieces, side, castling, en passant).
    fn hash(&self) -> u64;

    /// The square of `color`'s king.
    fn king(&self, color: Color) -> Square;

    /// Pieces of the side to move's opponent giving check.
    fn checkers(&self) -> Bitboard;

    /// Plays a legal move in place, without checking it: the move must come
    /// from this position's legal move list (or have passed a legality
    /// check), as in a search. An illegal move leaves the board in an
    /// unspecified but memory-safe state. Moves from outside the move
    /// generator go through the movegen crate's checked
    /// `MoveGen::play`, which reports an illegal move instead.
    fn play_unchecked(&mut self, mv: Move);

    /// Passes the turn (for null-move pruning): the side to move changes, the
    /// en-passant square is cleared. Not meaningful when in check.
    fn play_null(&mut self);

    // ---- Provided -------------------------------------------------------

    /// [`play`](Board::play_unchecked) for code dispatched once on the CPU (see
    /// [`crate::cpu`]): `level` tells the backend the tier it runs in and
    /// the slider lookup to use, so that a backend can compile its move into
    /// the caller with both fixed. By default, `play`.
    #[inline(always)]
    fn play_in<L: Level>(&mut self, level: L, mv: Move) {
        let _ = level;
        self.play_unchecked(mv);
    }

    /// The position from FEN text.
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Ok(Self::from_setup(&Setup::from_fen(fen)?)?)
    }

    /// The position from FEN text whose castling field is read as `mode`
    /// says (X-FEN and Shredder-FEN in [`CastlingMode::Chess960`]; see
    /// [`Setup::from_fen_with`]).
    fn from_fen_with(fen: &str, mode: CastlingMode) -> Result<Self, FenError> {
        Ok(Self::from_setup(&Setup::from_fen_with(fen, mode)?)?)
    }

    /// The position from FEN text read as `options` say: the castling
    /// notation and strict or lenient (see [`FenOptions`]).
    fn from_fen_with_options(fen: &str, options: FenOptions) -> Result<Self, FenError> {
        Ok(Self::from_setup(&Setup::from_fen_with_options(
            fen, options,
        )?)?)
    }

    /// The position from FEN text of standard chess read leniently:
    /// fullmove 0, castling rights without their rook or king, an
    /// impossible en-passant square and missing trailing fields are
    /// repaired instead of reported (see [`FenOptions::LENIENT`]).
    ///
    /// ```
    /// use fianchetto_board::{Bitboards, Board};
    /// let b = Bitboards::from_fen_lenient("4k3/8/8/8/8/8/8/R3K3 w KQ - 0 0")?;
    /// assert_eq!(b.fen(), "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    /// # Ok::<(), fianchetto_board::FenError>(())
    /// ```
    fn from_fen_lenient(fen: &str) -> Result<Self, FenError> {
        Self::from_fen_with_options(fen, FenOptions::LENIENT)
    }

    /// The standard starting position.
    fn startpos() -> Self {
        match Self::from_setup(&Setup::start()) {
            Ok(b) => b,
            // The start position is valid for every backend by construction.
            Err(e) => unreachable!("start position rejected: {e}"),
        }
    }

    /// The position as a plain [`Setup`].
    fn to_setup(&self) -> Setup {
        let mut board = [None; 64];
        for sq in self.occupied() {
            board[sq.index()] = self.piece_at(sq);
        }
        Setup {
            board,
            turn: self.turn(),
            castling: self.castling(),
            ep_square: self.ep_square(),
            halfmove_clock: self.halfmove_clock(),
            fullmove_number: self.fullmove_number(),
        }
    }

    /// FEN text of the position (X-FEN castling: plain FEN in standard
    /// chess; see [`Setup::to_fen`]).
    fn fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// Shredder-FEN text of the position: castling as rook files (`HAha`).
    fn shredder_fen(&self) -> String {
        self.to_setup().to_shredder_fen()
    }

    /// The squares of all pieces of `role`, both colours.
    fn by_role(&self, role: Role) -> Bitboard {
        self.pieces(Color::White, role) | self.pieces(Color::Black, role)
    }

    /// Every occupied square.
    fn occupied(&self) -> Bitboard {
        self.by_color(Color::White) | self.by_color(Color::Black)
    }

    /// Pieces of `by` that attack `sq`, with `occupied` as the blockers.
    fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        attackers_from_pieces(self, sq, by, occupied)
    }

    /// Whether any piece of `by` attacks `sq`.
    fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers(sq, by, self.occupied()).any()
    }

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// The material signature used by draw rules: whether neither side has
    /// enough material to mate by any sequence of legal moves (K v K, K+minor
    /// v K, and kings with bishops all on one colour of square).
    fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        let minors = (knights | bishops).count();
        if minors <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty())
    }
}

/// The default [`Board::attackers`]: the bitboard attack sets from `sq`
/// intersected with `by`'s pieces of each role.
pub(crate) fn attackers_from_pieces<B: Board>(
    board: &B,
    sq: Square,
    by: Color,
    occupied: Bitboard,
) -> Bitboard {
    let queens = board.pieces(by, Role::Queen);
    (knight_attacks(sq) & board.pieces(by, Role::Knight))
        | (king_attacks(sq) & board.pieces(by, Role::King))
        | (pawn_attacks(!by, sq) & board.pieces(by, Role::Pawn))
        | (rook_attacks(sq, occupied) & (board.pieces(by, Role::Rook) | queens))
        | (bishop_attacks(sq, occupied) & (board.pieces(by, Role::Bishop) | queens))
}
