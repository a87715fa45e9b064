//! Quiet queen promotions for the quiescence search: a pawn that walks onto
//! the last rank wins as much material as most captures, so a quiescence
//! search that only tries captures misses it at the horizon.

use fianchetto_board::{Bitboard, Color, Move, MoveKind, Role};
use fianchetto_movegen::{MoveGen, MoveList};

/// Appends the legal non-capturing promotions to a queen of the side to
/// move (the position is not in check: the caller searched evasions
/// otherwise). Allocates nothing; costs nothing without a pawn on the
/// seventh rank.
pub(crate) fn push<B: MoveGen>(board: &B, moves: &mut MoveList) {
    let us = board.turn();
    let (seventh, step) = match us {
        Color::White => (Bitboard(0xff << 48), 8),
        Color::Black => (Bitboard(0xff << 8), -8),
    };
    let pawns = board.pieces(us, Role::Pawn) & seventh;
    if pawns.is_empty() {
        return;
    }
    let Some(kind) = MoveKind::promotion(Role::Queen, false) else {
        return;
    };
    let occupied = board.occupied();
    for from in pawns {
        let Some(to) = from.offset(step) else {
            continue;
        };
        if occupied.contains(to) {
            continue;
        }
        let mv = Move::new(from, to, kind);
        // A pinned pawn may not step off its pin line: play it and see.
        let mut next = board.clone();
        next.play_unchecked(mv);
        if !next.is_attacked(next.king(us), !us) && !moves.is_full() {
            moves.push(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, Board};

    fn promotions(fen: &str) -> Vec<String> {
        let b = Bitboards::from_fen(fen).unwrap();
        let mut list = MoveList::new();
        push(&b, &mut list);
        // Every one is among the legal moves.
        for &m in &list {
            assert!(b.legal_moves().contains(&m), "{m} in {fen}");
        }
        list.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn finds_the_legal_quiet_queen_promotions() {
        assert_eq!(promotions("8/P6k/8/8/8/8/8/K7 w - - 0 1"), ["a7a8q"]);
        assert_eq!(promotions("8/8/8/8/8/8/p7/4K2k b - - 0 1"), ["a2a1q"]);
        // Blocked, and pinned along the seventh rank.
        assert!(promotions("n7/P6k/8/8/8/8/8/K7 w - - 0 1").is_empty());
        assert!(promotions("8/r1P3K1/8/8/8/8/8/k7 w - - 0 1").is_empty());
    }
}
