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

use arrayvec::ArrayVec;
use fianchetto_board::attacks::{between, bishop_attacks, line, rook_attacks};
use fianchetto_board::{Bitboard, Board, Color, Move, Role, Square};

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
/// `threshold` for the side making it: both sides capture with their least
/// valuable attacker, each free to stop; sliders behind a capturer join in
/// (x-rays).
///
/// Pins: a piece pinned to its own king does not take part unless it
/// captures along the pin line (toward or away from the pinner), or its
/// pinner has already left the board in the exchange. What SEE still does
/// not see: pins and checks that the exchange itself creates or lifts
/// (a capturer that uncovers an attack on its own king, a recapture that
/// gives check); those need a search, and the quiescence search settles
/// them. Castling, promotions and en passant count as neutral.
/// The swap algorithm of Stockfish's `see_ge`.
pub fn see_ge<B: Board>(board: &B, mv: Move, threshold: i32) -> bool {
    exchange(board, mv, threshold, true)
}

/// [`see_ge`] with pins ignored: every attacker takes part (the SEE most
/// engines had before pins were handled; for comparisons and tests).
pub fn see_ge_ignoring_pins<B: Board>(board: &B, mv: Move, threshold: i32) -> bool {
    exchange(board, mv, threshold, false)
}

/// [`see_ge`] when `pins` is true, [`see_ge_ignoring_pins`] otherwise: for
/// a caller that chooses at run time (the search's `see-pins` switch).
pub fn see_ge_with<B: Board>(board: &B, mv: Move, threshold: i32, pins: bool) -> bool {
    exchange(board, mv, threshold, pins)
}

/// Pieces of one side pinned to their king, each with its pinner.
type Pins = ArrayVec<(Square, Square), 8>;

/// `color`'s pieces pinned to its king by the other side's sliders.
fn pins<B: Board>(board: &B, color: Color) -> Pins {
    let mut out = Pins::new();
    let king = board.king(color);
    let them = !color;
    let queens = board.pieces(them, Role::Queen);
    let snipers = (rook_attacks(king, Bitboard::EMPTY) & (board.pieces(them, Role::Rook) | queens))
        | (bishop_attacks(king, Bitboard::EMPTY) & (board.pieces(them, Role::Bishop) | queens));
    let occupied = board.occupied();
    for sniper in snipers {
        let blockers = between(king, sniper) & occupied;
        if let Some(pinned) = blockers.single() {
            if board.by_color(color).contains(pinned) {
                let _ = out.try_push((pinned, sniper));
            }
        }
    }
    out
}

fn exchange<B: Board>(board: &B, mv: Move, threshold: i32, use_pins: bool) -> bool {
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
    if (attackers & board.by_color(!stm)).is_empty() {
        // Nothing can take back: the gain so far stands, whatever the pins
        // (most quiet moves; the pins need not be found).
        return true;
    }
    let diagonal = board.by_role(Role::Bishop) | board.by_role(Role::Queen);
    let straight = board.by_role(Role::Rook) | board.by_role(Role::Queen);
    // Pins of each side, found once (none when there is no slider near a
    // king, the common case, at the cost of two lookups per side).
    let pinned = if use_pins {
        [pins(board, Color::White), pins(board, Color::Black)]
    } else {
        [Pins::new(), Pins::new()]
    };
    let mut result = true;
    loop {
        stm = !stm;
        attackers &= occupied;
        let mut mine = attackers & board.by_color(stm);
        let king = board.king(stm);
        for &(piece, pinner) in &pinned[stm.index()] {
            // The pinner still stands (it was not the piece first taken on
            // `to`, nor a capturer since): the pinned piece may only move
            // along the line through its king.
            if mine.contains(piece)
                && occupied.contains(pinner)
                && pinner != to
                && !line(king, piece).contains(to)
            {
                mine = mine.without(piece);
            }
        }
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

    #[test]
    fn pinned_attackers_do_not_take_part() {
        // The black knight on e7 is the d5 pawn's only defender, but it is
        // pinned to its king on e8 by the rook on e1: Rxd5 wins the pawn.
        let fen = "4k3/4n3/8/3p4/8/8/3R4/4R1K1 w - - 0 1";
        assert_eq!(see_of(fen, Square::D2, Square::D5), 100);
        let b = Bitboards::from_fen(fen).unwrap();
        let rxd5 = Move::new(Square::D2, Square::D5, MoveKind::Capture);
        // Ignoring the pin, the knight recaptures: a rook for a pawn.
        assert!(!see_ge_ignoring_pins(&b, rxd5, 0));
        assert!(see_ge(&b, rxd5, 100));
        // Unpinned (the e1 rook gone), the knight defends again.
        assert_eq!(
            see_of(
                "4k3/4n3/8/3p4/8/8/3R4/6K1 w - - 0 1",
                Square::D2,
                Square::D5
            ),
            -400
        );
    }

    #[test]
    fn a_pinned_defender_off_its_line_stays_out() {
        // The bishop on f7 is pinned along the seventh rank (queen a7, king
        // h7): it cannot recapture on e6, so Rxe6 wins the pawn.
        let fen = "8/Q4b1k/4p3/8/8/8/8/4R1K1 w - - 0 1";
        assert_eq!(see_of(fen, Square::E1, Square::E6), 100);
        let b = Bitboards::from_fen(fen).unwrap();
        let rxe6 = Move::new(Square::E1, Square::E6, MoveKind::Capture);
        assert!(!see_ge_ignoring_pins(&b, rxe6, 0));
    }

    #[test]
    fn a_pinned_piece_takes_part_once_its_pinner_is_taken() {
        // The rook on e7 is pinned by the rook on e4. Bxe4 takes the pinner,
        // Nxe4 recaptures, and the rook, pinned no more and capturing along
        // its line anyway, takes the knight: 500 - 330 + 320.
        let fen = "4k3/4r3/2b5/8/4R3/8/5N2/6K1 b - - 0 1";
        assert_eq!(see_of(fen, Square::C6, Square::E4), 500 - 330 + 320);
    }
}
