//! The value hash: what the tree has learned of a position, found again
//! when the position is reached by another move order.
//!
//! After each playout every position on its path stores its mean value
//! (for its side to move); a new leaf whose position is in the table takes
//! that value instead of being valued afresh, so a transposition inherits
//! the visits of the subtree already searched elsewhere (as Monty does).
//! One lock-free `u64` per entry: the key's high 48 bits and the value in
//! 16, written and read whole, so threads share it without locks; a
//! collision of 48-bit keys is possible and harmless (one wrong value
//! among many playouts).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The size of an entry.
pub(crate) const ENTRY_BYTES: usize = 8;

/// The table.
#[derive(Debug, Default)]
pub(crate) struct ValueHash {
    entries: Vec<AtomicU64>,
    /// The size asked for (before rounding), to know when to rebuild.
    requested: usize,
}

impl ValueHash {
    /// A table of `entries` entries, rounded down to a power of two (none:
    /// off). An allocation refused is halved until granted.
    pub fn new(entries: usize) -> ValueHash {
        if entries == 0 {
            return ValueHash::default();
        }
        let mut size = 1usize << entries.ilog2().min(40);
        let mut table = Vec::new();
        while table.try_reserve_exact(size).is_err() && size > 1 {
            size /= 2;
        }
        table.resize_with(size, || AtomicU64::new(0));
        ValueHash {
            entries: table,
            requested: entries,
        }
    }

    /// The size this table was asked for.
    pub fn requested(&self) -> usize {
        self.requested
    }

    /// Entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Forgets every value.
    pub fn clear(&self) {
        for e in &self.entries {
            e.store(0, Relaxed);
        }
    }

    /// The value stored for the position of `hash`, for its side to move.
    #[inline]
    pub fn get(&self, hash: u64) -> Option<f64> {
        let e = self.entry(hash)?.load(Relaxed);
        (e != 0 && e >> 16 == hash >> 16).then(|| (e & 0xffff) as f64 / 65535.0)
    }

    /// Stores `value` (in `[0, 1]`, for the side to move) for the position
    /// of `hash`, replacing what the entry held.
    #[inline]
    pub fn put(&self, hash: u64, value: f64) {
        if let Some(e) = self.entry(hash) {
            let v = (value.clamp(0.0, 1.0) * 65535.0).round() as u64;
            e.store((hash & !0xffff) | v, Relaxed);
        }
    }

    #[inline]
    fn entry(&self, hash: u64) -> Option<&AtomicU64> {
        let n = self.entries.len();
        (n > 0).then(|| &self.entries[hash as usize & (n - 1)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_found_by_their_key_only() {
        let t = ValueHash::new(1000);
        assert_eq!(t.len(), 512);
        let (a, b) = (0x1234_5678_9abc_0001u64, 0x9999_5678_9abc_0201u64);
        assert_eq!(t.get(a), None);
        t.put(a, 0.75);
        assert!((t.get(a).unwrap() - 0.75).abs() < 1e-4);
        // Same slot, another key: not found, then it replaces.
        assert_eq!(t.get(b), None);
        t.put(b, 0.25);
        assert_eq!(t.get(a), None);
        assert!((t.get(b).unwrap() - 0.25).abs() < 1e-4);
        t.clear();
        assert_eq!(t.get(b), None);
        // Off: nothing stored, nothing found.
        let off = ValueHash::new(0);
        off.put(a, 0.5);
        assert_eq!(off.get(a), None);
    }
}
