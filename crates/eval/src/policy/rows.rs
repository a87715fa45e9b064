//! Where a position and a move meet the policy network: the input features
//! of a position and the two rows a move reads, both from the side to
//! move's point of view (see [`super::PolicyArch`]).
//!
//! Both read the position's [`Threats`]: which squares each side attacks.
//! A piece's feature says whether it stands attacked and whether it stands
//! defended, and a move's destination row whether the opponent attacks the
//! square it goes to, so that the network sees hanging pieces and unsafe
//! squares without having to compute attacks itself.

use fianchetto_board::attacks::attacks;
use fianchetto_board::{Bitboard, Board, Color, Move, Piece, Role, Square};

/// Which squares each side attacks in a position (pieces of either colour
/// block sliders; a pawn attacks diagonally whether or not a piece is
/// there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threats {
    /// The side to move.
    turn: Color,
    /// Squares the side to move attacks.
    ours: Bitboard,
    /// Squares the opponent attacks.
    theirs: Bitboard,
}

/// The squares `color`'s pieces attack.
fn attacked_by(board: &impl Board, color: Color) -> Bitboard {
    let occupied = board.occupied();
    let mut map = Bitboard::EMPTY;
    for role in Role::ALL {
        for sq in board.pieces(color, role) {
            map |= attacks(role, color, sq, occupied);
        }
    }
    map
}

impl Threats {
    /// The attack maps of `board`.
    pub fn of(board: &impl Board) -> Threats {
        let turn = board.turn();
        Threats {
            turn,
            ours: attacked_by(board, turn),
            theirs: attacked_by(board, !turn),
        }
    }

    /// Squares `color` attacks.
    fn by(&self, color: Color) -> Bitboard {
        if color == self.turn {
            self.ours
        } else {
            self.theirs
        }
    }

    /// The input feature of `piece` on `sq`: its piece-square index for the
    /// side to move (its own pieces `role × 64 + square`, the opponent's
    /// 384 further on, the board flipped for black), plus 768 if the
    /// piece's opponent attacks the square and 1 536 if its own side
    /// defends it.
    #[inline(always)]
    pub fn feature(&self, piece: Piece, sq: Square) -> usize {
        let theirs = (piece.color != self.turn) as usize;
        let attacked = self.by(!piece.color).contains(sq) as usize;
        let defended = self.by(piece.color).contains(sq) as usize;
        (attacked + 2 * defended) * 768
            + theirs * 384
            + piece.role.index() * 64
            + (sq.index() ^ (56 * self.turn.index()))
    }

    /// The from-square row and the destination row of `mv` in `board`
    /// (where it must be legal, or at least start on a piece): the
    /// destination row is the moving role and square (castling is the
    /// king's move to its g- or c-file square), or for a promotion the new
    /// piece and the file, plus 416 when the opponent attacks the
    /// destination.
    #[inline(always)]
    pub fn move_rows(&self, board: &impl Board, mv: Move) -> (usize, usize) {
        let flip = 56 * self.turn.index();
        let from = mv.from().index() ^ flip;
        let to = match mv.promotion() {
            Some(role) => 384 + (role.index().clamp(1, 4) - 1) * 8 + mv.to().file().index(),
            None => {
                let role = board
                    .piece_at(mv.from())
                    .map_or(Role::Pawn, |p| p.role)
                    .index();
                role * 64 + (mv.to().index() ^ flip)
            }
        };
        let unsafe_square = self.theirs.contains(mv.to()) as usize;
        (from, to + unsafe_square * 416)
    }
}

/// The input feature of `piece` on `sq` in `board` ([`Threats::feature`];
/// for many, compute the [`Threats`] once).
pub fn feature_index(board: &impl Board, piece: Piece, sq: Square) -> usize {
    Threats::of(board).feature(piece, sq)
}

/// The position's input features (one per piece), pushed onto `out`.
#[inline]
pub fn features_with(board: &impl Board, threats: &Threats, out: &mut impl Extend<usize>) {
    for color in [Color::White, Color::Black] {
        for role in Role::ALL {
            let piece = Piece::new(color, role);
            out.extend(
                board
                    .pieces(color, role)
                    .into_iter()
                    .map(|sq| threats.feature(piece, sq)),
            );
        }
    }
}

/// The position's input features (one per piece), pushed onto `out`.
pub fn features(board: &impl Board, out: &mut impl Extend<usize>) {
    features_with(board, &Threats::of(board), out);
}

/// The from-square row and the destination row of `mv` in `board`
/// ([`Threats::move_rows`]; for many moves, compute the [`Threats`] once).
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_eval::policy::move_rows;
/// use fianchetto_movegen::MoveGen;
///
/// // Black's e7e5 reads the rows white's e2e4 reads: the board is flipped.
/// let white = Bitboards::startpos();
/// let e4 = white.legal_moves().into_iter().find(|m| m.to_string() == "e2e4").unwrap();
/// let black = Bitboards::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")?;
/// let e5 = black.legal_moves().into_iter().find(|m| m.to_string() == "e7e5").unwrap();
/// assert_eq!(move_rows(&white, e4), move_rows(&black, e5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn move_rows(board: &impl Board, mv: Move) -> (usize, usize) {
    Threats::of(board).move_rows(board, mv)
}
