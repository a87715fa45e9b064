//! How the Syzygy index numbers squares and sets of squares.
//!
//! A table stores one value per position, at an index computed from the
//! squares of its pieces. The format reduces positions by symmetry first
//! (pawnless positions by the eight symmetries of the board, positions with
//! pawns by the left-right mirror) and then numbers what is left. The tables
//! below are that numbering. Each is built here from its rule by a `const fn`
//! (rather than written out as a literal), so that the rule is what the code
//! says. Squares are numbered as in `fianchetto-board`: a1 = 0, h1 = 7, a8 = 56.

/// File 0..8 of a square 0..64.
pub(crate) const fn file_of(sq: usize) -> usize {
    sq & 7
}

/// Rank 0..8 of a square 0..64.
pub(crate) const fn rank_of(sq: usize) -> usize {
    sq >> 3
}

/// Rank minus file: 0 on the a1-h8 diagonal, negative below it (the b1-h1-h7
/// side), positive above it.
pub(crate) const fn off_diagonal(sq: usize) -> i32 {
    rank_of(sq) as i32 - file_of(sq) as i32
}

/// The square mirrored in the a1-h8 diagonal (file and rank swapped).
pub(crate) const fn transpose(sq: usize) -> usize {
    (sq >> 3) | ((sq & 7) << 3)
}

/// `BINOMIAL[k][n]`: the number of ways to choose k of n things. Pieces of a
/// kind are indexed as a k-subset of the free squares (the combinatorial
/// number system), so k goes up to the largest group a 7-piece table has.
pub(crate) const BINOMIAL: [[u64; 65]; 8] = {
    let mut t = [[0u64; 65]; 8];
    let mut n = 0;
    while n <= 64 {
        t[0][n] = 1;
        let mut k = 1;
        while k < 8 {
            if n > 0 {
                t[k][n] = t[k - 1][n - 1] + t[k][n - 1];
            }
            k += 1;
        }
        n += 1;
    }
    t
};

/// Whether `sq` lies in the a1-d1-d4 triangle, where symmetry puts the first
/// piece of a pawnless table.
const fn in_triangle(sq: usize) -> bool {
    file_of(sq) <= 3 && rank_of(sq) <= file_of(sq)
}

/// The ten squares of the a1-d1-d4 triangle numbered 0..10: the six below
/// the diagonal (b1 c1 d1 c2 d2 d3) first, then a1 b2 c3 d4. Other squares
/// take the number of the triangle square the symmetries send them to.
pub(crate) const TRIANGLE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (file_of(sq), rank_of(sq));
        let f = if f > 3 { 7 - f } else { f };
        let r = if r > 3 { 7 - r } else { r };
        let (f, r) = if r > f { (r, f) } else { (f, r) };
        t[sq] = if f == r {
            6 + r as u8
        } else {
            // Below the diagonal, in square order: rank 0 has b1 c1 d1
            // (0..3), rank 1 has c2 d2 (3..5), rank 2 has d3 (5).
            let before = [0, 3, 5][r];
            (before + f - r - 1) as u8
        };
        sq += 1;
    }
    t
};

/// The 28 squares below the a1-h8 diagonal numbered 0..28 in square order
/// (b1 = 0, c1 = 1, …, h7 = 27). Used for a piece once an earlier piece has
/// fixed the diagonal symmetry. Squares on or above the diagonal: 0 (unused).
pub(crate) const BELOW_DIAGONAL: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut code = 0;
    let mut sq = 0;
    while sq < 64 {
        if off_diagonal(sq) < 0 {
            t[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    t
};

/// The number of placements of the two kings that [`KK_INDEX`] numbers.
pub(crate) const KK_PLACEMENTS: u64 = 462;

/// `KK_INDEX[TRIANGLE[k1]][k2]`: the placements of two kings, the first in
/// the a1-d1-d4 triangle, numbered 0..462, or -1 where the kings touch or
/// where the first is on the diagonal and the second above it (the diagonal
/// mirror covers those). Placements with both kings on the diagonal are
/// numbered last.
pub(crate) const KK_INDEX: [[i16; 64]; 10] = {
    let mut t = [[-1i16; 64]; 10];
    let mut code: i16 = 0;
    // Two passes: off-diagonal pairs, then the pairs with both on the diagonal.
    let mut pass = 0;
    while pass < 2 {
        let mut row = 0;
        while row < 10 {
            let mut k1 = 0;
            while k1 < 64 {
                if in_triangle(k1) && TRIANGLE[k1] as usize == row {
                    let mut k2 = 0;
                    while k2 < 64 {
                        let df = file_of(k1) as i32 - file_of(k2) as i32;
                        let dr = rank_of(k1) as i32 - rank_of(k2) as i32;
                        let touching = df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
                        let first_on = off_diagonal(k1) == 0;
                        let both_on = first_on && off_diagonal(k2) == 0;
                        let mirrored = first_on && off_diagonal(k2) > 0;
                        if !touching && !mirrored && both_on == (pass == 1) {
                            t[row][k2] = code;
                            code += 1;
                        }
                        k2 += 1;
                    }
                }
                k1 += 1;
            }
            row += 1;
        }
        pass += 1;
    }
    assert!(code as u64 == KK_PLACEMENTS);
    t
};

/// The number of placements of three distinct pieces, the first in the
/// a1-d1-d4 triangle, that [`three_piece_index`] numbers.
pub(crate) const THREE_PLACEMENTS: u64 = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + 4 * 7 * 6;

/// The index of three distinct pieces on `s` (already moved by symmetry so
/// that `s[0]` is in the a1-d1-d4 triangle and the first of them off the
/// diagonal is below it), 0..[`THREE_PLACEMENTS`]. Four cases, numbered one
/// after the other: the first piece off the diagonal; on it with the second
/// off; the first two on it with the third off; all three on it.
pub(crate) fn three_piece_index(s: &[usize]) -> u64 {
    let (a, b, c) = (s[0], s[1], s[2]);
    // A later piece skips the squares of the earlier ones.
    let skip_b = (b > a) as u64;
    let skip_c = (c > a) as u64 + (c > b) as u64;
    let (b64, c64) = (b as u64, c as u64);
    if off_diagonal(a) != 0 {
        (TRIANGLE[a] as u64 * 63 + b64 - skip_b) * 62 + c64 - skip_c
    } else if off_diagonal(b) != 0 {
        (6 * 63 + rank_of(a) as u64 * 28 + BELOW_DIAGONAL[b] as u64) * 62 + c64 - skip_c
    } else if off_diagonal(c) != 0 {
        6 * 63 * 62
            + 4 * 28 * 62
            + (rank_of(a) as u64 * 7 + rank_of(b) as u64 - skip_b) * 28
            + BELOW_DIAGONAL[c] as u64
    } else {
        6 * 63 * 62
            + 4 * 28 * 62
            + 4 * 7 * 28
            + (rank_of(a) as u64 * 7 + rank_of(b) as u64 - skip_b) * 6
            + rank_of(c) as u64
            - skip_c
    }
}

/// The pawn squares a2..h7 numbered 47 down to 0, edge files first and
/// lower ranks first: a2 = 47, h2 = 46, a3 = 45, h3 = 44, …, a7, h7, b2, g2,
/// …, d7, e7 = 0. The leading pawn is the one with the highest number, so
/// the other pawns of its group have lower numbers and form a subset of the
/// squares below it. Ranks 1 and 8: 0 (unused).
pub(crate) const PAWN_TWIST: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut next = 47u8;
    let mut f = 0;
    while f < 4 {
        let mut r = 1;
        while r <= 6 {
            t[r * 8 + f] = next;
            t[r * 8 + (7 - f)] = next - 1;
            next = next.wrapping_sub(2);
            r += 1;
        }
        f += 1;
    }
    t
};

/// Which of the four pawn files (a..d, mirrored for e..h) a square is on.
pub(crate) const fn pawn_file(sq: usize) -> usize {
    let f = file_of(sq);
    if f > 3 {
        7 - f
    } else {
        f
    }
}

/// The leading pawn's order: edge files first, then lower ranks (a2, a3, …,
/// a7, b2, …), files e..h mirrored onto a..d. The pawn with the lowest
/// order leads.
pub(crate) const fn lead_pawn_order(sq: usize) -> usize {
    pawn_file(sq) * 6 + rank_of(sq).saturating_sub(1)
}

/// `LEAD_PAWNS[n - 1]`: for `n` leading pawns, the first index of each
/// square of the leading pawn (`index`, by square a2..d7) and the number of
/// placements on each file (`size`). Each file of a pawn table is a table of
/// its own, so the numbering restarts at each file.
pub(crate) struct LeadPawns {
    pub index: [u64; 64],
    pub size: [u64; 4],
}

pub(crate) const LEAD_PAWNS: [LeadPawns; 6] = {
    let mut t = [const {
        LeadPawns {
            index: [0; 64],
            size: [0; 4],
        }
    }; 6];
    let mut n = 1;
    while n <= 6 {
        let mut f = 0;
        while f < 4 {
            let mut idx = 0u64;
            let mut r = 1;
            while r <= 6 {
                let sq = r * 8 + f;
                t[n - 1].index[sq] = idx;
                // The other n - 1 leading pawns are on squares numbered below
                // this one's PAWN_TWIST.
                idx += BINOMIAL[n - 1][PAWN_TWIST[sq] as usize];
                r += 1;
            }
            t[n - 1].size[f] = idx;
            f += 1;
        }
        n += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(BINOMIAL[0][0], 1);
        assert_eq!(BINOMIAL[2][64], 2016);
        assert_eq!(BINOMIAL[5][48], 1_712_304);
        assert_eq!(BINOMIAL[3][2], 0);
    }

    #[test]
    fn triangle_is_invariant_under_the_symmetries() {
        for sq in 0..64 {
            let t = TRIANGLE[sq];
            assert_eq!(TRIANGLE[sq ^ 7], t);
            assert_eq!(TRIANGLE[sq ^ 56], t);
            assert_eq!(TRIANGLE[transpose(sq)], t);
        }
        // b1 c1 d1 c2 d2 d3, then the diagonal a1 b2 c3 d4.
        let order = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];
        for (n, sq) in order.into_iter().enumerate() {
            assert_eq!(TRIANGLE[sq] as usize, n);
        }
    }

    #[test]
    fn king_placements_are_numbered_once() {
        let mut seen = [false; KK_PLACEMENTS as usize];
        for row in KK_INDEX {
            for code in row.into_iter().filter(|&c| c >= 0) {
                assert!(!seen[code as usize]);
                seen[code as usize] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
        // King on b1: a1, b1, c1 and a2, b2, c2 touch it; d1 is the first.
        assert_eq!(KK_INDEX[0][3], 0);
        assert_eq!(KK_INDEX[0][8], -1);
    }

    #[test]
    fn pawn_numbering() {
        assert_eq!(PAWN_TWIST[8], 47); // a2
        assert_eq!(PAWN_TWIST[15], 46); // h2
        assert_eq!(PAWN_TWIST[16], 45); // a3
        assert_eq!(PAWN_TWIST[9], 35); // b2
        assert_eq!(PAWN_TWIST[51], 1); // d7
        assert_eq!(PAWN_TWIST[52], 0); // e7
                                       // One leading pawn: 6 squares per file.
        assert_eq!(LEAD_PAWNS[0].size, [6, 6, 6, 6]);
        assert_eq!(lead_pawn_order(9), 6); // b2
    }

    #[test]
    fn three_piece_indices_fill_their_range() {
        let mut seen = vec![false; THREE_PLACEMENTS as usize];
        for a in (0..64).filter(|&a| in_triangle(a)) {
            for b in (0..64).filter(|&b| b != a) {
                for c in (0..64).filter(|&c| c != a && c != b) {
                    let s = [a, b, c];
                    let first_off = s.iter().find(|&&q| off_diagonal(q) != 0);
                    if first_off.is_some_and(|&q| off_diagonal(q) > 0) {
                        continue;
                    }
                    let i = three_piece_index(&s) as usize;
                    assert!(!seen[i], "{s:?}");
                    seen[i] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
