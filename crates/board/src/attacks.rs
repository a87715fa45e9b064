//! Attack sets: precomputed tables for the leapers (pawn, knight, king), magic
//! bitboards (or PEXT) for the sliders, and the `between` / `line` tables that
//! pin and check masks are made of.

use crate::bitboard::Bitboard;
use crate::types::{Color, Role, Square};

/// One square's entry in a magic table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Magic {
    /// Relevant occupancy: the rays without their last square.
    pub(crate) mask: u64,
    /// The magic multiplier.
    #[cfg_attr(all(feature = "pext", target_feature = "bmi2"), allow(dead_code))]
    pub(crate) magic: u64,
    /// `64 - popcount(mask)`.
    #[cfg_attr(all(feature = "pext", target_feature = "bmi2"), allow(dead_code))]
    pub(crate) shift: u32,
    /// Where this square's attack sets start in the shared table.
    pub(crate) offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut b = 0u64;
        let mut i = 0;
        while i < steps.len() {
            let f = (sq % 8) as i8 + steps[i].0;
            let r = (sq / 8) as i8 + steps[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                b |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        t[sq] = Bitboard(b);
        sq += 1;
    }
    t
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [Bitboard; 64] = leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
static PAWN: [[Bitboard; 64]; 2] = [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])];

const fn ray_walk(from: usize, df: i8, dr: i8, stop: usize) -> (u64, bool) {
    // Squares strictly after `from` along (df, dr) up to `stop` (exclusive);
    // the bool says whether `stop` was reached.
    let mut b = 0u64;
    let mut f = (from % 8) as i8 + df;
    let mut r = (from / 8) as i8 + dr;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        let s = (r * 8 + f) as usize;
        if s == stop {
            return (b, true);
        }
        b |= 1 << s;
        f += df;
        r += dr;
    }
    (b, false)
}

const DIRS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn between_table() -> [[Bitboard; 64]; 64] {
    let mut t = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let mut b = 0;
            while b < 64 {
                let (ray, hit) = ray_walk(a, DIRS[d].0, DIRS[d].1, b);
                if hit {
                    t[a][b] = Bitboard(ray);
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

const fn line_table() -> [[Bitboard; 64]; 64] {
    let mut t = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (fwd, _) = ray_walk(a, DIRS[d].0, DIRS[d].1, 64);
            let (back, _) = ray_walk(a, -DIRS[d].0, -DIRS[d].1, 64);
            let full = fwd | back | (1 << a);
            let mut b = 0;
            while b < 64 {
                if fwd & (1 << b) != 0 {
                    t[a][b] = Bitboard(full);
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[Bitboard; 64]; 64] = between_table();
static LINE: [[Bitboard; 64]; 64] = line_table();

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks (captures towards).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

#[inline(always)]
fn slider(m: &Magic, occupied: Bitboard) -> Bitboard {
    #[cfg(all(feature = "pext", target_feature = "bmi2"))]
    {
        // SAFETY: compiled only when the target has BMI2, so the instruction
        // exists; `_pext_u64` has no other precondition.
        let i = unsafe { core::arch::x86_64::_pext_u64(occupied.0, m.mask) } as usize;
        Bitboard(PEXT_ATTACKS[m.offset + i])
    }
    #[cfg(not(all(feature = "pext", target_feature = "bmi2")))]
    {
        let i = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        // The index is below 2^(64 - shift) by construction, and the build
        // script sized each square's block to exactly that.
        Bitboard(MAGIC_ATTACKS[m.offset + i])
    }
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider(&ROOK_MAGICS[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slider(&BISHOP_MAGICS[sq.index()], occupied)
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a piece of `role` and `color` on `sq` attacks.
#[inline]
pub fn attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line (rank, file or diagonal, edge to edge) through `a` and `b`,
/// or empty if they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

/// Whether `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bittricks::subsets;

    fn slow_slider(sq: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq.file().index() as i8 + df, sq.rank().index() as i8 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = Square::from_index_wrapping((r * 8 + f) as usize);
                out = out.with(s);
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    #[test]
    fn sliders_match_ray_walking_for_every_relevant_occupancy() {
        for sq in Square::all() {
            for (magic, dirs, f) in [
                (&ROOK_MAGICS[sq.index()], &DIRS[..4], rook_attacks as fn(Square, Bitboard) -> Bitboard),
                (&BISHOP_MAGICS[sq.index()], &DIRS[4..], bishop_attacks),
            ] {
                for occ in subsets(magic.mask) {
                    // Noise outside the mask must not matter.
                    let noisy = Bitboard(occ | !magic.mask & 0x1234_5678_9abc_def0);
                    assert_eq!(f(sq, noisy), slow_slider(sq, Bitboard(occ), dirs), "{sq} {occ:#x}");
                }
            }
        }
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::E4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(pawn_attacks(Color::White, Square::E4), Bitboard::from_square(Square::D5).with(Square::F5));
        assert_eq!(pawn_attacks(Color::Black, Square::A5), Bitboard::from_square(Square::B4));
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(Square::A1, Square::D4), Bitboard::from_square(Square::B2).with(Square::C3));
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(between(Square::E1, Square::E2), Bitboard::EMPTY);
        assert_eq!(line(Square::A1, Square::C3).count(), 8);
        assert_eq!(line(Square::A1, Square::B3), Bitboard::EMPTY);
        assert!(aligned(Square::E1, Square::E4, Square::E8));
        assert!(!aligned(Square::E1, Square::E4, Square::D8));
    }
}
