//! Static exchange evaluation and MVV-LVA: how much a capture wins, without
//! searching. (Implemented here because only search needs it; it works on
//! any [`Board`] through `attackers`.)
//!
//! ```
//! use fianchetto_board::{Bitboards, Board, Move, MoveKind, Square};
//! use fianchetto_search::see::{see, see_ge};
//!
//! // The pawn on d5 is defended: taking it with the queen loses the queen for a pawn.
//! let b = Bitboards::from_fen("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1")?;
//! let qxd5 = Move::new(Square::D2, Square::D5, MoveKind::Capture);
//! assert_eq!(see(&b, qxd5), 100 - 900);
//! assert!(!see_ge(&b, qxd5, 0));
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```

use fianchetto_board::attacks::{bishop_attacks, rook_attacks};
use fianchetto_board::{Bitboard, Board, Move, Role};

/// Piece values used by SEE, MVV-LVA and delta pruning (centipawns).
pub const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

/// The value of `role` in [`VALUES`].
#[inline(always)]
pub fn value(role: Role) -> i32 {
    VALUES[role.index()]
}

/// The material a move takes (a pawn for en passant), zero for non-captures.
#[inline]
pub fn captured_value<B: Board>(board: &B, mv: Move) -> i32 {
    if mv.is_en_passant() {
        VALUES[0]
    } else {
        board.piece_at(mv.to()).map_or(0, |p| value(p.role))
    }
}

/// MVV-LVA: most valuable victim first, least valuable attacker among equal
/// victims (BuhoChess's `100·victim − 10·attacker` order), promotions
/// counted as winning the promoted piece.
#[inline]
pub fn mvv_lva<B: Board>(board: &B, mv: Move) -> i32 {
    let victim = captured_value(board, mv) + mv.promotion().map_or(0, |r| value(r) - VALUES[0]);
    let attacker = board
        .piece_at(mv.from())
        .map_or(0, |p| p.role.index() as i32);
    victim * 10 - attacker
}

/// Whether the static exchange on `mv`'s target square wins at least
/// `threshold` for the side making it (both sides capturing with their least
/// valuable attacker, each free to stop; x-rays through sliders included;
/// pins ignored). The swap algorithm of Stockfish's `see_ge`.
pub fn see_ge<B: Board>(board: &B, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() || mv.is_promotion() || mv.is_en_passant() {
        // Rare enough to treat as neutral; promotions are searched anyway.
        return 0 >= threshold;
    }
    let (from, to) = (mv.from(), mv.to());
    let mut swap = captured_value(board, mv) - threshold;
    if swap < 0 {
        return false;
    }
    let Some(mover) = board.piece_at(from) else {
        return false;
    };
    swap = value(mover.role) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied().without(from).with(to);
    let mut stm = mover.color;
    let mut attackers =
        (board.attackers(to, stm, occupied) | board.attackers(to, !stm, occupied)) & occupied;
    let diagonal = board.by_role(Role::Bishop) | board.by_role(Role::Queen);
    let straight = board.by_role(Role::Rook) | board.by_role(Role::Queen);
    let mut result = true;
    loop {
        stm = !stm;
        attackers &= occupied;
        let mine = attackers & board.by_color(stm);
        if mine.is_empty() {
            break;
        }
        result = !result;
        // The least valuable attacker captures next.
        let mut found = None;
        for role in Role::ALL {
            let bb = mine & board.pieces(stm, role);
            if let Some(sq) = bb.first() {
                found = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = found else { break };
        if role == Role::King {
            // The king may only take last: if the other side still attacks,
            // the capture is illegal and the result flips back.
            return if (attackers & !board.by_color(stm)).any() {
                !result
            } else {
                result
            };
        }
        swap = value(role) - swap;
        if swap < result as i32 {
            break;
        }
        occupied = occupied.without(sq);
        // Sliders behind the piece that just captured join in.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
    }
    result
}

/// The exchange value of `mv` in centipawns, found by binary search on
/// [`see_ge`] (for display and tests; searches use `see_ge` directly).
pub fn see<B: Board>(board: &B, mv: Move) -> i32 {
    let (mut lo, mut hi) = (-VALUES[5], VALUES[5]);
    while lo < hi {
        let mid = (lo + hi + 1).div_euclid(2);
        if see_ge(board, mv, mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Non-pawn, non-king material of the side to move (null-move and
/// zugzwang decisions).
#[inline]
pub fn non_pawn_material<B: Board>(board: &B) -> Bitboard {
    let us = board.turn();
    board.by_color(us) & !board.pieces(us, Role::Pawn) & !board.pieces(us, Role::King)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, MoveKind, Square};

    fn see_of(fen: &str, from: Square, to: Square) -> i32 {
        let b = Bitboards::from_fen(fen).unwrap();
        see(&b, Move::new(from, to, MoveKind::Capture))
    }

    #[test]
    fn exchanges() {
        // Undefended pawn.
        assert_eq!(
            see_of(
                "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
                Square::E1,
                Square::E5
            ),
            100
        );
        // Defended by a rook, and the x-ray rook behind ours recaptures.
        assert_eq!(
            see_of(
                "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1",
                Square::D2,
                Square::D5
            ),
            100
        );
        // Without the second rook the exchange loses the rook for a pawn.
        assert_eq!(
            see_of("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", Square::D2, Square::D5),
            -400
        );
        // Pawn takes a defended knight: wins the knight, loses the pawn.
        assert_eq!(
            see_of(
                "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1",
                Square::E4,
                Square::D5
            ),
            320 - 100
        );
        // The king may not recapture into a defended square.
        assert_eq!(
            see_of("8/8/8/4k3/3p4/2B5/8/B3K3 w - - 0 1", Square::C3, Square::D4),
            100
        );
    }
}
