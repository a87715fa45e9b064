//! Where a position and a move meet the policy network: the input features
//! of a position and the two rows a move reads, both from the side to
//! move's point of view (see [`super::PolicyArch`]).

use fianchetto_board::{Board, Move, Piece, Role, Square};

/// A square as the side to move sees it (flipped vertically for black).
#[inline(always)]
fn relative(board: &impl Board, sq: Square) -> usize {
    sq.index() ^ (56 * board.turn().index())
}

/// The input feature of `piece` on `sq` for the side to move: its own
/// pieces `role × 64 + square`, the opponent's 384 further on.
#[inline(always)]
pub fn feature_index(board: &impl Board, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color != board.turn()) as usize;
    theirs * 384 + piece.role.index() * 64 + relative(board, sq)
}

/// The position's input features (one per piece), pushed onto `out`.
#[inline]
pub fn features(board: &impl Board, out: &mut impl Extend<usize>) {
    let flip = 56 * board.turn().index();
    for (side, color) in [board.turn(), !board.turn()].into_iter().enumerate() {
        for role in Role::ALL {
            let base = side * 384 + role.index() * 64;
            out.extend(
                board
                    .pieces(color, role)
                    .into_iter()
                    .map(|sq| base + (sq.index() ^ flip)),
            );
        }
    }
}

/// The from-square row and the destination row of `mv` in `board` (where
/// it must be legal, or at least start on a piece): castling is the king's
/// move to its g- or c-file square; a promotion's destination row names the
/// new piece and the file.
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
#[inline]
pub fn move_rows(board: &impl Board, mv: Move) -> (usize, usize) {
    let from = relative(board, mv.from());
    let to = match mv.promotion() {
        Some(role) => 384 + (role.index().clamp(1, 4) - 1) * 8 + mv.to().file().index(),
        None => {
            let role = board
                .piece_at(mv.from())
                .map_or(Role::Pawn, |p| p.role)
                .index();
            role * 64 + relative(board, mv.to())
        }
    };
    (from, to)
}
