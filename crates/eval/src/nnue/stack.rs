//! The accumulator stack: one accumulator per ply of the line a search is
//! on, updated lazily and per perspective.
//!
//! `push` only records what changed ([`Delta`]); `evaluate` brings each
//! perspective's half of the top entry up to date:
//!
//! * It walks down to the nearest entry whose half was computed under the
//!   view the top position needs (that perspective's king bucket and
//!   mirroring), and applies the recorded deltas from there up, through
//!   the same view. Entries in between become computed too, so siblings
//!   reuse them, and moves that are searched but never evaluated cost
//!   almost nothing.
//! * Where the walk meets a half computed under another view (the king
//!   changed bucket or side on the way), a delta that could not be
//!   recorded, or the root, the top half is refreshed from the
//!   [`RefreshCache`] instead.
//!
//! `pop` drops the top. Every entry remembers the hash of its position, and
//! whenever the caller's board disagrees with the entry meant to describe
//! it (no `reset`, a one-off evaluation, a line deeper than the stack) the
//! entry is refreshed from that board: the stack is a cache, never the
//! source of truth. Storage is allocated once, at construction.

use super::accumulator::Delta;
use super::aligned::Aligned;
use super::arch::View;
use super::network::Network;
use super::refresh::RefreshCache;
use super::simd::{Kernels, Width};
use fianchetto_board::{Board, Color};

/// Plies the stack follows above its root; deeper lines still evaluate
/// correctly, by refreshing the last entry.
pub(crate) const STACK_PLIES: usize = 256;

/// `Entry::computed` of a half not computed yet (view ids are below 64).
const NOT_COMPUTED: u8 = u8::MAX;

#[derive(Clone, Copy)]
struct Entry {
    /// Zobrist hash of the position the entry describes.
    hash: u64,
    /// The change from the entry below, when `linked`.
    delta: Delta,
    /// Whether `delta` leads here from the entry below; `false` at the
    /// root and for positions that are not one move apart.
    linked: bool,
    /// Whether the entry describes any position yet.
    used: bool,
    /// Per perspective (white, black): the view id its half was computed
    /// under, or [`NOT_COMPUTED`].
    computed: [u8; 2],
}

const EMPTY: Entry = Entry {
    hash: 0,
    delta: Delta::NONE,
    linked: false,
    used: false,
    computed: [NOT_COMPUTED; 2],
};

impl Entry {
    /// An entry for the position of `hash`, nothing computed, no delta.
    const fn unlinked(hash: u64) -> Entry {
        Entry {
            hash,
            used: true,
            ..EMPTY
        }
    }
}

/// Accumulators for the root and [`STACK_PLIES`] plies above it.
#[derive(Clone)]
pub(crate) struct Stack {
    /// Values per entry: `2 × H`.
    width: usize,
    /// `entries.len() × width` values, entry by entry.
    values: Aligned,
    entries: Vec<Entry>,
    /// Plies pushed since the root; may exceed the last entry, which then
    /// stands for every deeper ply.
    depth: usize,
}

impl Stack {
    /// An empty stack for networks of hidden size `hidden`.
    pub(crate) fn new(hidden: usize) -> Stack {
        let slots = STACK_PLIES + 1;
        Stack {
            width: 2 * hidden,
            values: Aligned::zeroed(slots * 2 * hidden),
            entries: vec![EMPTY; slots],
            depth: 0,
        }
    }

    /// Plies pushed since the root.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// The entry standing for the current ply.
    #[inline(always)]
    fn top(&self) -> usize {
        self.depth.min(self.entries.len() - 1)
    }

    /// A new root: everything above it is forgotten.
    pub(crate) fn reset<B: Board>(&mut self, root: &B) {
        self.depth = 0;
        self.entries[0] = Entry::unlinked(root.hash());
    }

    /// The caller went from `before` to `after`.
    #[inline]
    pub(crate) fn push<B: Board>(&mut self, before: &B, after: &B) {
        let parent = self.depth;
        self.depth = self.depth.saturating_add(1);
        let child = parent + 1;
        let Some([known, next]) = self.entries.get_mut(parent..=child) else {
            // Past the end: `current` refreshes the last entry as needed.
            return;
        };
        if !known.used || known.hash != before.hash() {
            // The parent does not describe `before` (no reset, or the caller
            // evaluated another position here): it stands for `before` now,
            // computed when first needed.
            *known = Entry::unlinked(before.hash());
        }
        let delta = Delta::between(before, after);
        *next = Entry {
            hash: after.hash(),
            delta: delta.unwrap_or(Delta::NONE),
            linked: delta.is_some(),
            used: true,
            computed: [NOT_COMPUTED; 2],
        };
    }

    /// The caller took back the last pushed move (extra pops are ignored).
    #[inline]
    pub(crate) fn pop(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The values of the top entry (white's half, then black's), as the
    /// last [`current`](Stack::current) left them.
    pub(crate) fn top_values(&self) -> &[i16] {
        let top = self.top();
        &self.values[top * self.width..(top + 1) * self.width]
    }

    /// The accumulator of `board`, the position at the top of the stack
    /// (refreshed from `board` if the top describes another position):
    /// white's half, then black's.
    #[inline(always)]
    pub(crate) fn current<B: Board, K: Kernels, W: Width>(
        &mut self,
        net: &Network,
        cache: &mut RefreshCache,
        simd: K,
        width: W,
        board: &B,
    ) -> &[i16] {
        let top = self.top();
        let entry = &mut self.entries[top];
        if !entry.used || entry.hash != board.hash() {
            *entry = Entry::unlinked(board.hash());
        }
        for perspective in Color::ALL {
            let p = perspective.index();
            let view = net
                .arch()
                .king_buckets
                .view(p, board.king(perspective).index());
            if self.entries[top].computed[p] != view.id as u8 {
                self.bring_up(net, cache, simd, width, perspective, view, top, board);
            }
        }
        let w = 2 * width.get();
        &self.values[top * w..top * w + w]
    }

    /// Brings `perspective`'s half of entry `top`, which is not computed
    /// under `view`, up to date for `board`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn bring_up<B: Board, K: Kernels, W: Width>(
        &mut self,
        net: &Network,
        cache: &mut RefreshCache,
        simd: K,
        width: W,
        perspective: Color,
        view: View,
        top: usize,
        board: &B,
    ) {
        let p = perspective.index();
        let id = view.id as u8;
        // The nearest entry below computed under this view, if the deltas
        // reach it.
        let mut base = top;
        let reachable = loop {
            let e = &self.entries[base];
            if e.computed[p] == id {
                break true;
            }
            if e.computed[p] != NOT_COMPUTED || !e.linked || base == 0 {
                break false;
            }
            base -= 1;
        };
        let h = width.get();
        let w = 2 * h;
        debug_assert_eq!(w, self.width);
        let half = p * h;
        if !reachable {
            let at = top * w + half;
            let out = &mut self.values[at..at + h];
            cache.refresh(net, simd, width, perspective, board, out);
            self.entries[top].computed[p] = id;
            return;
        }
        for slot in base + 1..=top {
            let delta = self.entries[slot].delta;
            let (below, above) = self.values.split_at_mut(slot * w);
            let at = (slot - 1) * w + half;
            delta.apply(
                net,
                simd,
                width,
                perspective,
                view,
                &below[at..at + h],
                &mut above[half..half + h],
            );
            self.entries[slot].computed[p] = id;
        }
    }
}
