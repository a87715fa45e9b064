//! The search's memory of what worked: history tables for move ordering,
//! reductions and pruning, and the pawn-structure correction history that
//! corrects the static evaluation.
//!
//! Every history entry moves by the "gravity" update: a bonus `b` changes
//! an entry `h` by `b − h·|b| / MAX`, so an entry approaches ±`MAX` but never
//! passes it (for |b| ≤ `MAX`), and old information fades as new arrives.
//!
//! - Butterfly history, `[side][from][to]`: quiet moves that caused cutoffs.
//! - Continuation history, `[piece, to of an earlier move][piece, to of this
//!   move]`: how good a quiet move is as a reply to the move 1, 2 or 4
//!   plies before it (the "counter-move" and "follow-up" histories
//!   generalised).
//! - Capture history, `[piece][to][captured role]`: which captures caused
//!   cutoffs, to order captures of equal victims.
//! - Correction history, `[side][pawn key]`: the average difference between
//!   the search's result and the static evaluation in positions of that pawn
//!   structure; added to later static evaluations.

use super::params::SearchParams;
use fianchetto_board::{Board, Color, Move, Role};

/// History entries stay within ±this.
pub const HISTORY_MAX: i32 = 16_384;

/// The number of correction-history entries per side (a power of two).
pub const CORR_SIZE: usize = 16_384;

/// `piece index × 64 + square`: the index of a (piece, to-square) pair in the
/// continuation history.
pub const PIECE_TO: usize = 12 * 64;

/// A continuation-history row: one earlier (piece, to) pair's table of
/// replies.
pub type ContRow = [i16; PIECE_TO];

/// Per-thread move-ordering memory, kept between searches (cleared by
/// [`crate::Search::clear`]).
pub(crate) struct Tables {
    /// Butterfly history: `[side][from][to]`.
    pub history: [[[i16; 64]; 64]; 2],
    /// Counter moves: `[piece][to]` of the previous move.
    pub counters: [[Move; 64]; 12],
    /// Capture history: `[piece][to][captured role]`.
    pub captures: [[[i16; 6]; 64]; 12],
    /// Continuation history: `[earlier piece-to][this piece-to]`.
    pub cont: Box<[ContRow]>,
    /// Pawn-structure correction history: `[side][pawn key % CORR_SIZE]`.
    pub corr: Box<[[i16; CORR_SIZE]; 2]>,
}

impl Tables {
    /// Empty tables (allocated on the heap: the continuation history is
    /// 1.2 MB).
    pub fn new() -> Box<Tables> {
        let corr: Box<[[i16; CORR_SIZE]; 2]> = vec![[0i16; CORR_SIZE]; 2]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("two rows were made"));
        Box::new(Tables {
            history: [[[0; 64]; 64]; 2],
            counters: [[Move::NULL; 64]; 12],
            captures: [[[0; 6]; 64]; 12],
            cont: vec![[0i16; PIECE_TO]; PIECE_TO].into_boxed_slice(),
            corr,
        })
    }

    /// The butterfly history of `mv` for `side`.
    #[inline]
    pub fn butterfly(&self, side: Color, mv: Move) -> i32 {
        self.history[side.index()][mv.from().index()][mv.to().index()] as i32
    }
}

/// The gravity update of one entry (see the module documentation).
#[inline]
pub fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let h = *entry as i32;
    let next = h + bonus - h * bonus.abs() / HISTORY_MAX;
    *entry = next.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// Moves a correction-history entry towards `diff` centipawns (the
/// search's result minus the static evaluation) by a weight that grows with
/// `depth`: at most 16/256 of the way per update at the default
/// `corr_weight_mult` (the published scale, `min(depth + 1, 16)` out of
/// 256), so that one deep search does not overwrite what many searches of
/// the same pawn structure learnt.
#[inline]
pub(crate) fn correction_update(entry: &mut i16, diff: i32, depth: i32, p: &SearchParams) {
    let target = diff.clamp(-1000, 1000) * p.corr_grain;
    let w = ((depth + 1).min(16) * p.corr_weight_mult / 16).clamp(1, 256);
    let next = (*entry as i32 * (256 - w) + target * w) / 256;
    *entry = next.clamp(-p.corr_max, p.corr_max).clamp(-32_000, 32_000) as i16;
}

/// The piece-to index of `mv` on `board` (before it is played), `None` for
/// a null move or an empty from-square.
#[inline]
pub fn piece_to<B: Board>(board: &B, mv: Move) -> Option<u16> {
    if mv.is_null() {
        return None;
    }
    board
        .piece_at(mv.from())
        .map(|p| (p.index() * 64 + mv.to().index()) as u16)
}

/// The role a capture takes (a pawn for en passant, `None` for a
/// non-capture).
#[inline]
pub fn captured_role<B: Board>(board: &B, mv: Move) -> Option<Role> {
    if mv.is_en_passant() {
        Some(Role::Pawn)
    } else if mv.is_capture() {
        board.piece_at(mv.to()).map(|p| p.role)
    } else {
        None
    }
}

/// A hash of the pawn structure alone (both colours' pawn bitboards): the
/// boards have no incremental pawn key, and two multiplications cost less
/// than keeping one up to date.
#[inline]
pub fn pawn_key<B: Board>(board: &B) -> u64 {
    let white = board.pieces(Color::White, Role::Pawn).0;
    let black = board.pieces(Color::Black, Role::Pawn).0;
    mix(white ^ mix(black ^ 0x9e37_79b9_7f4a_7c15))
}

/// A 64-bit finaliser (the murmur3 / splitmix mixing constants).
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::Bitboards;

    #[test]
    fn gravity_stays_in_bounds() {
        let mut rng = 0x1234_5678_u64;
        let mut e = 0i16;
        for i in 0..100_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Bonuses beyond the maximum are clamped too.
            let b = (rng % 70_000) as i32 - 35_000;
            gravity(&mut e, b);
            assert!((e as i32).abs() <= HISTORY_MAX, "step {i}: {e}");
        }
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, HISTORY_MAX);
        }
        assert_eq!(e as i32, HISTORY_MAX);
        for _ in 0..1000 {
            gravity(&mut e, -HISTORY_MAX);
        }
        assert_eq!(e as i32, -HISTORY_MAX);
    }

    #[test]
    fn correction_learns_at_the_published_rate() {
        let p = SearchParams::default();
        // One deep update moves an empty entry 16/256 of the way to a
        // difference of 100 cp (it was 256/256: the whole way).
        let mut e = 0i16;
        correction_update(&mut e, 100, 30, &p);
        assert_eq!(e as i32, 100 * p.corr_grain * 16 / 256);
        // A shallow one moves it less.
        let mut shallow = 0i16;
        correction_update(&mut shallow, 100, 2, &p);
        assert_eq!(shallow as i32, 100 * p.corr_grain * 3 / 256);
        // Repeated updates converge to the difference, within the cap.
        for _ in 0..500 {
            correction_update(&mut e, 20, 10, &p);
        }
        assert!(((e as i32) / p.corr_grain - 20).abs() <= 1, "{e}");
        for _ in 0..500 {
            correction_update(&mut e, 1000, 10, &p);
        }
        assert_eq!(e as i32, p.corr_max);
    }

    #[test]
    fn pawn_key_depends_on_pawns_only() {
        let a = Bitboards::from_fen("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1").unwrap();
        let b = Bitboards::from_fen("3qk3/pp6/8/8/8/8/PP6/R3K3 b - - 0 1").unwrap();
        let c = Bitboards::from_fen("4k3/pp6/8/8/8/P7/1P6/4K3 w - - 0 1").unwrap();
        let flipped = Bitboards::from_fen("4k3/PP6/8/8/8/8/pp6/4K3 w - - 0 1").unwrap();
        assert_eq!(pawn_key(&a), pawn_key(&b));
        assert_ne!(pawn_key(&a), pawn_key(&c));
        assert_ne!(pawn_key(&a), pawn_key(&flipped));
    }
}
