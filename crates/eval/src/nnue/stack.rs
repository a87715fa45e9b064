//! The accumulator stack: one accumulator per ply of the line a search is
//! on, updated lazily.
//!
//! `push` only records what changed ([`Delta`]); `evaluate` walks down to
//! the nearest computed entry and applies the recorded deltas up to the top,
//! so moves that are searched but never evaluated cost almost nothing.
//! `pop` drops the top. Every entry remembers the hash of its position, and
//! whenever the caller's board disagrees with the entry meant to describe
//! it (no `reset`, a one-off evaluation, a line deeper than the stack) the
//! entry is refreshed from that board instead: the stack is a cache, never
//! the source of truth. Storage is allocated once, at construction.

use super::accumulator::{apply, refresh, Delta};
use super::network::Network;
use super::simd::Kernels;
use fianchetto_board::Board;

/// Plies the stack follows above its root; deeper lines still evaluate
/// correctly, by refreshing the last entry.
pub(crate) const STACK_PLIES: usize = 256;

/// What an entry holds.
#[derive(Clone, Copy)]
enum State {
    /// Nothing yet.
    Empty,
    /// Its parent plus this delta, not computed yet.
    Pending(Delta),
    /// Computed.
    Ready,
}

#[derive(Clone, Copy)]
struct Entry {
    /// Zobrist hash of the position the entry describes.
    hash: u64,
    state: State,
}

/// Accumulators for the root and [`STACK_PLIES`] plies above it.
#[derive(Clone)]
pub(crate) struct Stack {
    /// Values per entry: `2 × H`.
    width: usize,
    /// `entries.len() × width` values, entry by entry.
    values: Vec<i16>,
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
            values: vec![0; slots * 2 * hidden],
            entries: vec![
                Entry {
                    hash: 0,
                    state: State::Empty,
                };
                slots
            ],
            depth: 0,
        }
    }

    /// Plies pushed since the root.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// The entry standing for the current ply.
    fn top(&self) -> usize {
        self.depth.min(self.entries.len() - 1)
    }

    /// Computes entry `slot` from scratch for `board`.
    fn refresh<B: Board>(&mut self, net: &Network, kernels: Kernels, slot: usize, board: &B) {
        let acc = &mut self.values[slot * self.width..(slot + 1) * self.width];
        refresh(net, kernels, board, acc);
        self.entries[slot] = Entry {
            hash: board.hash(),
            state: State::Ready,
        };
    }

    /// A new root: everything above it is forgotten.
    pub(crate) fn reset<B: Board>(&mut self, net: &Network, kernels: Kernels, root: &B) {
        self.depth = 0;
        self.refresh(net, kernels, 0, root);
    }

    /// The caller went from `before` to `after`.
    pub(crate) fn push<B: Board>(
        &mut self,
        net: &Network,
        kernels: Kernels,
        before: &B,
        after: &B,
    ) {
        let parent = self.depth;
        self.depth = self.depth.saturating_add(1);
        let child = parent + 1;
        if child >= self.entries.len() {
            // Past the end: `current` refreshes the last entry as needed.
            return;
        }
        let known = self.entries[parent];
        if matches!(known.state, State::Empty) || known.hash != before.hash() {
            // The parent does not describe `before` (no reset, or the caller
            // evaluated another position here): start from `before` itself.
            self.refresh(net, kernels, parent, before);
        }
        match Delta::between(before, after) {
            Some(delta) => {
                self.entries[child] = Entry {
                    hash: after.hash(),
                    state: State::Pending(delta),
                }
            }
            None => self.refresh(net, kernels, child, after),
        }
    }

    /// The caller took back the last pushed move (extra pops are ignored).
    pub(crate) fn pop(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The accumulator of `board`, the position at the top of the stack
    /// (refreshed from `board` if the top describes another position).
    pub(crate) fn current<B: Board>(
        &mut self,
        net: &Network,
        kernels: Kernels,
        board: &B,
    ) -> &[i16] {
        let top = self.top();
        let entry = self.entries[top];
        let usable = entry.hash == board.hash() && !matches!(entry.state, State::Empty);
        if !usable || !self.catch_up(net, kernels, top) {
            self.refresh(net, kernels, top, board);
        }
        &self.values[top * self.width..(top + 1) * self.width]
    }

    /// Computes the pending entries up to `top` from the nearest computed
    /// one below. False when there is none (then the caller refreshes).
    fn catch_up(&mut self, net: &Network, kernels: Kernels, top: usize) -> bool {
        let mut base = top;
        while let State::Pending(_) = self.entries[base].state {
            if base == 0 {
                return false;
            }
            base -= 1;
        }
        if !matches!(self.entries[base].state, State::Ready) {
            return false;
        }
        for slot in base + 1..=top {
            if let State::Pending(delta) = self.entries[slot].state {
                let (below, above) = self.values.split_at_mut(slot * self.width);
                let parent = &below[(slot - 1) * self.width..];
                apply(net, kernels, &delta, parent, &mut above[..self.width]);
                self.entries[slot].state = State::Ready;
            }
        }
        true
    }
}
