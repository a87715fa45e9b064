//! Zobrist keys: 781 pseudo-random 64-bit numbers (12×64 piece-square, side to
//! move, 4 castling rights, 8 en-passant files) whose XOR identifies a position.
//!
//! The keys are the first outputs of xoshiro256++ seeded by SplitMix64 from a
//! fixed seed, exactly what `rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64`
//! gives (a test checks it), but computed at compile time so that reading a
//! key costs one load and no lazy initialisation.

use crate::castling::CastlingRights;
use crate::types::{Color, Piece, Square};

/// The seed the keys are drawn from.
pub const SEED: u64 = 0x00F1_A7C4_E770_2026;

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn xoshiro_next(s: &mut [u64; 4]) -> u64 {
    let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
    let t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = s[3].rotate_left(45);
    result
}

/// Number of keys.
pub const KEY_COUNT: usize = 781;

/// All keys in draw order: pieces (piece index × 64 + square), side,
/// castling (4), en-passant files (8).
pub const KEYS: [u64; KEY_COUNT] = {
    let mut seed = SEED;
    let mut s = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        s[i] = splitmix(&mut seed);
        i += 1;
    }
    let mut keys = [0u64; KEY_COUNT];
    let mut k = 0;
    while k < KEY_COUNT {
        keys[k] = xoshiro_next(&mut s);
        k += 1;
    }
    keys
};

const CASTLING_COMBOS: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut i = 0;
        while i < 4 {
            if bits & (1 << i) != 0 {
                t[bits] ^= KEYS[12 * 64 + 1 + i];
            }
            i += 1;
        }
        bits += 1;
    }
    t
};

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS[piece.index() * 64 + sq.index()]
}

/// Key XORed in when black is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS[12 * 64]
}

/// Key of a whole set of castling rights (XOR of the rights' keys).
///
/// Only which of the four rights are held is hashed, not their rook files:
/// in Chess960 the files are fixed for a whole game (rights are lost, never
/// moved), so within a game, and in standard chess always, equal keys still
/// mean equal rights. Every backend hashes the same [`CastlingRights`], so
/// their keys agree.
#[inline(always)]
pub fn castling(rights: CastlingRights) -> u64 {
    CASTLING_COMBOS[rights.bits() as usize]
}

/// Key of an en-passant square (by its file).
#[inline(always)]
pub fn en_passant(sq: Square) -> u64 {
    KEYS[12 * 64 + 5 + sq.file().index()]
}

/// The key of a position from scratch, from its parts. Backends keep the hash
/// up to date move by move; tests compare against this.
pub fn compute(
    pieces: impl IntoIterator<Item = (Square, Piece)>,
    turn: Color,
    rights: CastlingRights,
    ep_square: Option<Square>,
) -> u64 {
    let mut h = pieces.into_iter().fold(0, |h, (sq, p)| h ^ piece(p, sq));
    if turn == Color::Black {
        h ^= side();
    }
    h ^= castling(rights);
    if let Some(ep) = ep_square {
        h ^= en_passant(ep);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn keys_are_rand_xoshiro_output() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
        for (i, &k) in KEYS.iter().enumerate() {
            assert_eq!(k, rng.next_u64(), "key {i}");
        }
    }

    #[test]
    fn keys_are_distinct() {
        let mut v = KEYS.to_vec();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), KEY_COUNT);
    }
}
