//! [`Aligned`]: `i16` values on 64-byte boundaries, for the weights and
//! accumulators the SIMD kernels stream through.
//!
//! A `Vec<i16>` is only as aligned as the allocator makes it (16 bytes with
//! glibc, and large blocks sit 16 bytes past a page boundary), so with 512
//! neurons or more per row every 64-byte AVX-512 load of a weight row or an
//! accumulator straddled two cache lines, and every other 32-byte AVX2
//! load did. Stored here, rows of a multiple of 32 values start on a cache
//! line and no load straddles one.

use std::ops::{Deref, DerefMut};

/// Values per cache line.
const LINE: usize = 32;

/// One cache line of values.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
struct Line([i16; LINE]);

/// A fixed-length run of `i16` starting on a 64-byte boundary; reads and
/// writes as a slice.
#[derive(Clone)]
pub struct Aligned {
    lines: Vec<Line>,
    len: usize,
}

impl Aligned {
    /// `len` zeros.
    pub fn zeroed(len: usize) -> Aligned {
        Aligned {
            lines: vec![Line([0; LINE]); len.div_ceil(LINE)],
            len,
        }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[i16]) -> Aligned {
        let mut out = Aligned::zeroed(values.len());
        out.copy_from_slice(values);
        out
    }
}

impl Deref for Aligned {
    type Target = [i16];

    #[inline(always)]
    fn deref(&self) -> &[i16] {
        // SAFETY: `Line` is `repr(C)` around `[i16; LINE]` (size 64, no
        // padding), so `lines` is `lines.len() × LINE ≥ len` initialised
        // `i16`s in a row; an empty `lines` gives a dangling but aligned
        // pointer, which a zero-length slice allows.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<i16>(), self.len) }
    }
}

impl DerefMut for Aligned {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [i16] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<i16>(), self.len) }
    }
}

impl From<Vec<i16>> for Aligned {
    fn from(values: Vec<i16>) -> Aligned {
        Aligned::from_slice(&values)
    }
}

impl<'a> IntoIterator for &'a Aligned {
    type Item = &'a i16;
    type IntoIter = std::slice::Iter<'a, i16>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for Aligned {
    fn eq(&self, other: &Aligned) -> bool {
        **self == **other
    }
}

impl Eq for Aligned {}

impl std::fmt::Debug for Aligned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_start_on_a_cache_line_and_keep_their_length() {
        for len in [0, 1, 31, 32, 33, 256, 1000] {
            let values: Vec<i16> = (0..len as i16).collect();
            let a = Aligned::from(values.clone());
            assert_eq!(&*a, &values[..]);
            assert_eq!(a.as_ptr() as usize % 64, 0);
            let mut z = Aligned::zeroed(len);
            assert!(z.iter().all(|&v| v == 0));
            z.copy_from_slice(&values);
            assert_eq!(z, a);
        }
    }
}
