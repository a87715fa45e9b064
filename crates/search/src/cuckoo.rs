//! Upcoming-repetition detection with cuckoo tables (Marcel van Kervinck's
//! method).
//!
//! A search that can repeat a position can usually hold a draw, so a node
//! where the side to move has a move *back* to a position of the current
//! line may raise alpha to the draw score before searching anything. Trying
//! every move to find out would cost a move generation per node; instead:
//!
//! - The Zobrist key of a position after a reversible move differs from the
//!   key before it by `piece(p, a) ^ piece(p, b) ^ side`, a value that
//!   depends only on the move. There are 3668 such moves on an empty board
//!   (every knight, bishop, rook, queen and king move between two squares,
//!   for both colours, each square pair once).
//! - Their key differences are stored in a cuckoo hash table of 8192 slots
//!   (two hash functions, each key in one of its two slots), with the move's
//!   squares beside them, built once at start-up from the engine's own
//!   Zobrist keys.
//! - At a node, for each earlier position of the line an odd number of
//!   plies back (the other side to move there) within the reversible moves,
//!   the XOR of the two keys is looked up. A hit names a piece move that
//!   turns the current position into that earlier one; it is possible when
//!   the squares between are empty and the piece standing on one of the two
//!   squares belongs to the side to move. The resulting position occurred in
//!   the game with the other side to move, so the move is legal.
//!
//! Inside the search (the earlier position is after the root) one
//! repetition is a draw; a position from before the root must already have
//! occurred twice (see [`crate`]'s repetition rules).
//!
//! ```
//! use fianchetto_search::cuckoo;
//! assert_eq!(cuckoo::entries(), 3668);
//! ```

use crate::common::Path;
use fianchetto_board::attacks::{attacks, between};
use fianchetto_board::{zobrist, Bitboard, Board, Color, Piece, Role, Square};
use std::sync::OnceLock;

const SIZE: usize = 8192;

/// The cuckoo tables: key differences of reversible moves and their squares.
struct Tables {
    keys: [u64; SIZE],
    /// `(a, b)` squares of the move in slot `i` (a < b), as indices.
    squares: [(u8, u8); SIZE],
}

#[inline(always)]
fn h1(key: u64) -> usize {
    (key & (SIZE as u64 - 1)) as usize
}

#[inline(always)]
fn h2(key: u64) -> usize {
    ((key >> 16) & (SIZE as u64 - 1)) as usize
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Box<Tables>> = OnceLock::new();
    TABLES.get_or_init(build)
}

fn build() -> Box<Tables> {
    let mut t = Box::new(Tables {
        keys: [0; SIZE],
        squares: [(0, 0); SIZE],
    });
    for color in [Color::White, Color::Black] {
        for role in [
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ] {
            let piece = Piece::new(color, role);
            for a in Square::all() {
                for b in attacks(role, color, a, Bitboard::EMPTY) {
                    if b.index() <= a.index() {
                        continue;
                    }
                    let mut key =
                        zobrist::piece(piece, a) ^ zobrist::piece(piece, b) ^ zobrist::side();
                    let mut squares = (a.index() as u8, b.index() as u8);
                    // Cuckoo insertion: take the slot, move its old
                    // occupant to that key's other slot, and so on.
                    let mut i = h1(key);
                    loop {
                        std::mem::swap(&mut t.keys[i], &mut key);
                        std::mem::swap(&mut t.squares[i], &mut squares);
                        if key == 0 {
                            break;
                        }
                        i = if i == h1(key) { h2(key) } else { h1(key) };
                    }
                }
            }
        }
    }
    t
}

/// Makes sure the tables are built (at engine start-up, so that no search
/// pays for it).
pub fn init() {
    let _ = tables();
}

/// The number of reversible moves in the tables (3668).
pub fn entries() -> usize {
    tables().keys.iter().filter(|&&k| k != 0).count()
}

/// The squares of the reversible move whose key difference is `diff`.
#[inline]
fn lookup(diff: u64) -> Option<(Square, Square)> {
    let t = tables();
    let i = if t.keys[h1(diff)] == diff {
        h1(diff)
    } else if t.keys[h2(diff)] == diff {
        h2(diff)
    } else {
        return None;
    };
    let (a, b) = t.squares[i];
    Some((
        Square::from_index_wrapping(a as usize),
        Square::from_index_wrapping(b as usize),
    ))
}

/// Whether the side to move in `board` (the last position of `hashes`) has
/// a move to a position that occurred earlier in `hashes`, counted as a
/// draw: one that occurred after index `root` (inside the search), or one
/// that had already occurred twice. Only the last `halfmove_clock`
/// positions are looked at. Allocates nothing.
pub fn upcoming_repetition<B: Board>(board: &B, hashes: &[u64], root: usize) -> bool {
    let n = hashes.len();
    let window = (board.halfmove_clock() as usize).min(n.saturating_sub(1));
    if window < 3 {
        return false;
    }
    let current = hashes[n - 1];
    let occupied = board.occupied();
    let mut i = 3;
    while i <= window {
        let j = n - 1 - i;
        if let Some((a, b)) = lookup(current ^ hashes[j]) {
            if (between(a, b) & occupied).is_empty() {
                let on = if occupied.contains(a) { a } else { b };
                let ours = board.piece_at(on).is_some_and(|p| p.color == board.turn());
                if ours && (j > root || occurred_before(hashes, j, n - 1 - window)) {
                    return true;
                }
            }
        }
        i += 2;
    }
    false
}

/// Whether `hashes[j]` also occurs at an index from `oldest` to `j - 4`
/// (an equal position is at least four plies away, with the same side to
/// move: an even distance).
#[inline]
fn occurred_before(hashes: &[u64], j: usize, oldest: usize) -> bool {
    let Some(mut k) = j.checked_sub(4) else {
        return false;
    };
    while k >= oldest {
        if hashes[k] == hashes[j] {
            return true;
        }
        if k < oldest + 2 {
            break;
        }
        k -= 2;
    }
    false
}

/// [`upcoming_repetition`] on a search path.
#[inline]
pub(crate) fn on_path<B: Board>(board: &B, path: &Path) -> bool {
    upcoming_repetition(board, path.hashes(), path.root())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_holds_every_reversible_move() {
        assert_eq!(entries(), 3668);
        // Every entry is found again by its key.
        let t = tables();
        for &k in t.keys.iter().filter(|&&k| k != 0) {
            assert!(lookup(k).is_some());
        }
    }

    #[test]
    fn occurred_before_steps_by_two_after_the_first_four() {
        let h = [1, 9, 2, 9, 3, 9, 1];
        assert!(occurred_before(&h, 6, 0));
        assert!(!occurred_before(&h, 6, 3));
        assert!(!occurred_before(&h, 4, 0));
    }
}
