//! Bit tricks, each a named function so that they can be tested and benchmarked
//! side by side (the comparison of the Zanin thesis): population count by the
//! hardware instruction, by SWAR divide-and-conquer and by Kernighan's loop;
//! least-significant bit by the hardware instruction, by de Bruijn
//! multiplication and by the popcount method; and carry-rippler enumeration of
//! every subset of a mask.

/// Hides `x` from the optimiser without emitting an instruction: an empty
/// assembly block that claims to read and rewrite the register holding it.
#[inline(always)]
fn opaque(mut x: u64) -> u64 {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: the template is an assembler comment: no instruction is emitted,
    // no memory, stack or flag is touched and `x` keeps its value (the tests
    // below check every trick against the hardware result).
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        x = core::hint::black_box(x);
    }
    x
}

/// Population count with the CPU's instruction (`POPCNT` when the target has it;
/// otherwise the compiler's own fallback).
#[inline]
pub const fn popcount_hardware(b: u64) -> u32 {
    b.count_ones()
}

/// Population count by SWAR divide-and-conquer: add adjacent bits, then pairs,
/// then nibbles, and sum the bytes with one multiplication.
#[inline]
pub fn popcount_swar(mut b: u64) -> u32 {
    b -= (b >> 1) & 0x5555_5555_5555_5555;
    b = opaque(b);
    b = (b & 0x3333_3333_3333_3333) + ((b >> 2) & 0x3333_3333_3333_3333);
    b = (b + (b >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    (b.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// Population count by Kernighan's loop: clear the lowest set bit until none
/// is left. One iteration per set bit, so fast on sparse sets.
#[inline]
pub fn popcount_kernighan(mut b: u64) -> u32 {
    let mut n = 0;
    while b != 0 {
        b = opaque(b & (b - 1));
        n += 1;
    }
    n
}

/// Index of the least significant set bit with the CPU's instruction
/// (`TZCNT`/`BSF`); 64 for zero.
#[inline]
pub const fn lsb_hardware(b: u64) -> u32 {
    b.trailing_zeros()
}

const DEBRUIJN: u64 = 0x03f7_9d71_b4ca_8b09;
const DEBRUIJN_TABLE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[((1u64 << i).wrapping_mul(DEBRUIJN) >> 58) as usize] = i as u8;
        i += 1;
    }
    t
};

/// Index of the least significant set bit by de Bruijn multiplication: isolate
/// the bit, multiply by a de Bruijn sequence and look the top six bits up.
/// Meaningless for zero (returns 0).
#[inline]
pub fn lsb_debruijn(b: u64) -> u32 {
    DEBRUIJN_TABLE[(opaque(b & b.wrapping_neg()).wrapping_mul(DEBRUIJN) >> 58) as usize] as u32
}

/// Index of the least significant set bit by the popcount method:
/// `b ^ (b - 1)` sets every bit up to and including the lowest one.
/// Returns 63 for zero.
#[inline]
pub const fn lsb_popcount(b: u64) -> u32 {
    (b ^ b.wrapping_sub(1)).count_ones() - 1
}

/// Every subset of `mask`, the empty set first, by the carry-rippler trick
/// `n' = (n - mask) & mask`. Used to enumerate the occupancies of a slider's
/// relevant squares when building magic tables.
pub fn subsets(mask: u64) -> Subsets {
    Subsets {
        mask,
        next: 0,
        done: false,
    }
}

/// Iterator returned by [`subsets`].
#[derive(Clone, Debug)]
pub struct Subsets {
    mask: u64,
    next: u64,
    done: bool,
}

impl Iterator for Subsets {
    type Item = u64;
    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.done {
            return None;
        }
        let cur = self.next;
        self.next = self.next.wrapping_sub(self.mask) & self.mask;
        self.done = self.next == 0;
        Some(cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLES: [u64; 8] = [
        0,
        1,
        1 << 63,
        0xff,
        0x8000_0000_0000_0001,
        0x5555_5555_5555_5555,
        !0,
        0x0123_4567_89ab_cdef,
    ];

    #[test]
    fn popcounts_agree() {
        for &b in &SAMPLES {
            let want = b.count_ones();
            assert_eq!(popcount_hardware(b), want);
            assert_eq!(popcount_swar(b), want, "swar {b:#x}");
            assert_eq!(popcount_kernighan(b), want, "kernighan {b:#x}");
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(popcount_swar(x), x.count_ones());
            assert_eq!(popcount_kernighan(x), x.count_ones());
        }
    }

    #[test]
    fn lsbs_agree() {
        for i in 0..64 {
            for &high in &[0u64, 1 << 63, !0u64 << 1] {
                let b = (1u64 << i) | (high & !((1u64 << i) - 1) & !(1u64 << i));
                assert_eq!(lsb_hardware(b), i, "{b:#x}");
                assert_eq!(lsb_debruijn(b), i, "{b:#x}");
                assert_eq!(lsb_popcount(b), i, "{b:#x}");
            }
        }
        assert_eq!(lsb_hardware(0), 64);
    }

    #[test]
    fn carry_rippler_lists_every_subset_once() {
        let mask = 0x0000_0000_0081_0204u64; // four bits
        let all: Vec<u64> = subsets(mask).collect();
        assert_eq!(all.len(), 16);
        assert_eq!(all[0], 0);
        let mut sorted = all.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 16);
        assert!(all.iter().all(|&s| s & !mask == 0));
        assert_eq!(subsets(0).collect::<Vec<_>>(), vec![0]);
    }
}
