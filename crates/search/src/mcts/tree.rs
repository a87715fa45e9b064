//! The node arena: one preallocated `Vec` of nodes whose statistics are
//! atomics, so that a tree-parallel search shares it without locks and
//! without `unsafe`; children of a node are one contiguous block handed out
//! by a bump allocator.

use fianchetto_board::Move;
use fianchetto_eval::Score;
use std::ops::Range;
use std::sync::atomic::{
    AtomicI16, AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering::*,
};

/// Fixed-point unit of the value sums: integer sums are exact and
/// order-independent, so a tree-parallel search loses no update and a
/// one-thread search is bit-for-bit reproducible.
pub(crate) const ONE: u64 = 1 << 16;

/// No proof yet.
const UNPROVEN: i16 = i16::MIN;

const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;
/// Only inside [`Tree::recycle`]: expanded, and its children's block is
/// kept, at the index its `first_child` now holds.
const RELINKED: u8 = 3;

/// The size of a [`Node`].
pub(crate) const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// One position of the tree, 32 bytes.
///
/// `value` sums results from the point of view of the side that moved
/// *into* this node (the one choosing it at the parent), so the parent
/// compares children directly. `proven` is the exact (solver) score for the
/// side to move *at* this node, mates counted in plies from it.
#[derive(Debug, Default)]
pub(crate) struct Node {
    value: AtomicU64,
    visits: AtomicU32,
    vloss: AtomicU32,
    first_child: AtomicU32,
    mv: AtomicU16,
    /// PUCT: the policy probability; IP: the prior value. In `[0, 1]`,
    /// quantized to 16 bits.
    prior: AtomicU16,
    num_children: AtomicU16,
    proven: AtomicI16,
    state: AtomicU8,
}

impl Node {
    /// Makes this slot a fresh, unvisited leaf reached by `mv`.
    fn init(&self, mv: Move, prior: f64) {
        self.value.store(0, Relaxed);
        self.visits.store(0, Relaxed);
        self.vloss.store(0, Relaxed);
        self.mv.store(mv.bits(), Relaxed);
        self.prior
            .store((prior.clamp(0.0, 1.0) * 65535.0).round() as u16, Relaxed);
        self.proven.store(UNPROVEN, Relaxed);
        self.set_link(Link::LEAF);
    }

    /// Points this node at its children as `link` says.
    fn set_link(&self, link: Link) {
        self.first_child.store(link.first, Relaxed);
        self.num_children.store(link.count, Relaxed);
        self.state.store(link.state, Relaxed);
    }

    /// This node's link to its children, as stored.
    fn link(&self) -> Link {
        Link {
            first: self.first_child.load(Relaxed),
            count: self.num_children.load(Relaxed),
            state: self.state.load(Relaxed),
        }
    }

    /// Moves `other`'s statistics here, with `link` for its children
    /// (re-rooting and recycling; exclusive access).
    fn copy_from(&self, other: &Node, link: Link) {
        self.value.store(other.value.load(Relaxed), Relaxed);
        self.visits.store(other.visits.load(Relaxed), Relaxed);
        self.vloss.store(0, Relaxed);
        self.mv.store(other.mv.load(Relaxed), Relaxed);
        self.prior.store(other.prior.load(Relaxed), Relaxed);
        self.proven.store(other.proven.load(Relaxed), Relaxed);
        self.set_link(link);
    }

    /// The move that leads here (`Move::NULL` at the root).
    #[inline]
    pub fn mv(&self) -> Move {
        Move::from_bits(self.mv.load(Relaxed)).unwrap_or(Move::NULL)
    }

    /// The prior in `[0, 1]`.
    #[inline]
    pub fn prior(&self) -> f64 {
        self.prior.load(Relaxed) as f64 / 65535.0
    }

    /// Completed visits.
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Virtual losses of threads walking through now.
    #[inline]
    pub fn vloss(&self) -> u32 {
        self.vloss.load(Relaxed)
    }

    /// The sum of results (for the side that moved here), in units of 1.
    #[inline]
    pub fn value_sum(&self) -> f64 {
        self.value.load(Relaxed) as f64 / ONE as f64
    }

    /// The mean result for the side that moved here (½ when unvisited).
    #[inline]
    pub fn q(&self) -> f64 {
        let n = self.visits();
        if n == 0 {
            0.5
        } else {
            self.value_sum() / n as f64
        }
    }

    /// The solver's exact score for the side to move here, if proven.
    #[inline]
    pub fn proven(&self) -> Option<Score> {
        match self.proven.load(Acquire) {
            UNPROVEN => None,
            s => Some(Score(s as i32)),
        }
    }

    /// Records a proof.
    #[inline]
    pub fn set_proven(&self, score: Score) {
        self.proven
            .store(score.0.clamp(-Score::MATE.0, Score::MATE.0) as i16, Release);
    }

    /// Adds one visit worth `result` (for the side that moved here) and
    /// takes back `vloss` virtual losses.
    #[inline]
    pub fn update(&self, result: f64, vloss: u32) {
        self.value.fetch_add(
            (result.clamp(0.0, 1.0) * ONE as f64).round() as u64,
            Relaxed,
        );
        self.visits.fetch_add(1, Relaxed);
        if vloss > 0 {
            self.vloss.fetch_sub(vloss, Relaxed);
        }
    }

    /// Adds `vloss` virtual losses (a thread walks through).
    #[inline]
    pub fn add_vloss(&self, vloss: u32) {
        if vloss > 0 {
            self.vloss.fetch_add(vloss, Relaxed);
        }
    }
}

/// What [`Tree::expand`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expansion {
    /// The children exist now.
    Done,
    /// Another thread is expanding this node, or the arena is full.
    NotNow,
}

/// The arena. Node 0 is the root.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
    next: AtomicUsize,
}

impl Tree {
    /// An arena of `budget` nodes (at least 2), holding an empty root.
    /// Indices are `u32`, and a budget the allocator refuses is halved
    /// until it is granted (a config is user input: no abort on it).
    pub fn new(budget: usize) -> Tree {
        let mut size = budget.clamp(2, u32::MAX as usize / 2);
        let mut nodes = Vec::new();
        while nodes.try_reserve_exact(size).is_err() && size > 2 {
            size /= 2;
        }
        nodes.resize_with(size, Node::default);
        let tree = Tree {
            nodes,
            next: AtomicUsize::new(1),
        };
        tree.reset();
        tree
    }

    /// The arena's size in nodes.
    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// Nodes in use.
    pub fn used(&self) -> usize {
        self.next.load(Relaxed).min(self.nodes.len())
    }

    /// Whether an expansion has failed for lack of room.
    pub fn is_full(&self) -> bool {
        self.next.load(Relaxed) >= self.nodes.len()
    }

    /// Forgets everything: only an unvisited root remains.
    pub fn reset(&self) {
        self.nodes[0].init(Move::NULL, 0.0);
        self.next.store(1, Relaxed);
    }

    /// Node `i`.
    #[inline]
    pub fn node(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }

    /// The children of node `i`, if it is expanded (an empty range for a
    /// terminal node).
    #[inline]
    pub fn children(&self, i: u32) -> Option<Range<u32>> {
        let n = self.node(i);
        if n.state.load(Acquire) != EXPANDED {
            return None;
        }
        let first = n.first_child.load(Relaxed);
        Some(first..first + n.num_children.load(Relaxed) as u32)
    }

    /// The child of `i` reached by `mv`.
    pub fn child_by_move(&self, i: u32, mv: Move) -> Option<u32> {
        self.children(i)?.find(|&c| self.node(c).mv() == mv)
    }

    /// Expands node `i` with `children` (move, prior), unless another thread
    /// is doing it or the arena has no room. Lock-free: a thread claims the
    /// node with a compare-and-swap, fills the new block and publishes it
    /// with a release store; readers see either no children or all of them.
    pub fn expand(&self, i: u32, children: &[(Move, f64)]) -> Expansion {
        let n = self.node(i);
        if n.state
            .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
            .is_err()
        {
            return Expansion::NotNow;
        }
        let len = children.len();
        let first = if len == 0 {
            0
        } else {
            self.next.fetch_add(len, Relaxed)
        };
        if len > 0 && first + len > self.nodes.len() {
            // No room: the node stays a leaf (and `next` past the end says
            // the arena is full).
            n.state.store(LEAF, Release);
            return Expansion::NotNow;
        }
        for (k, &(mv, prior)) in children.iter().enumerate() {
            self.nodes[first + k].init(mv, prior);
        }
        n.first_child.store(first as u32, Relaxed);
        n.num_children.store(len as u16, Relaxed);
        n.state.store(EXPANDED, Release);
        Expansion::Done
    }

    /// Makes node `new_root` the root, in constant time: its content is
    /// copied to slot 0, so its subtree is the tree; the rest of the arena
    /// becomes unreachable, and its room comes back at the next
    /// [`Tree::recycle`] (which keeps only what the root reaches), never by
    /// copying here: a move on a short clock pays nothing for the tree it
    /// keeps.
    pub fn reroot(&mut self, new_root: u32) {
        if new_root == 0 {
            return;
        }
        let src = &self.nodes[new_root as usize];
        self.nodes[0].copy_from(src, src.link());
        self.nodes[0].mv.store(Move::NULL.bits(), Relaxed);
    }

    /// Frees room in a full arena: keeps the root, its children and at most
    /// `keep` nodes in all, the children of the most visited nodes first (a node's
    /// block only with its parent's), and turns every other expanded node
    /// back into a leaf that keeps its own visits, value and proof. A leaf
    /// walked into again is expanded again, so a long search goes on
    /// learning where it searches most, in the memory it was given.
    pub fn recycle(&mut self, keep: usize) {
        let mut blocks: Vec<Block> = Vec::new();
        let mut heap = std::collections::BinaryHeap::new();
        heap.push((self.node(0).visits(), 0u32));
        let mut total = 1usize;
        while let Some((_, i)) = heap.pop() {
            let Some(r) = self.children(i) else { continue };
            let len = r.len();
            // The root's children stay whatever `keep` says: they are the
            // search's result.
            if len == 0 || (i != 0 && total + len > keep) {
                continue;
            }
            total += len;
            blocks.push(Block {
                start: r.start,
                len: len as u32,
                parent: i,
            });
            // Only nodes with children of their own compete for room.
            heap.extend(
                r.filter(|&c| self.children(c).is_some_and(|g| !g.is_empty()))
                    .map(|c| (self.node(c).visits(), c)),
            );
        }
        self.compact(blocks);
    }

    /// Moves the children `blocks` to just after the root, in their order,
    /// and drops every other node: an expanded node whose block is not kept
    /// becomes a leaf.
    ///
    /// Children blocks are always allocated after their parent, so every
    /// kept block moves to a lower index: copying blocks in ascending order
    /// never overwrites a node not yet moved. Each kept block's parent is
    /// told its new place first (and marked [`RELINKED`]), so that moving a
    /// node looks nothing up.
    fn compact(&mut self, mut blocks: Vec<Block>) {
        blocks.sort_unstable_by_key(|b| b.start);
        let mut next = 1u32;
        for b in &blocks {
            let parent = &self.nodes[b.parent as usize];
            parent.first_child.store(next, Relaxed);
            parent.state.store(RELINKED, Relaxed);
            next += b.len;
        }
        let move_node = |from: u32, to: u32| {
            let src = &self.nodes[from as usize];
            let link = src.link();
            let link = match link.state {
                RELINKED => Link {
                    state: EXPANDED,
                    ..link
                },
                // A terminal node (expanded, no children) stays one.
                EXPANDED if link.count == 0 => Link { first: 0, ..link },
                _ => Link::LEAF,
            };
            // The root moves onto itself: copying it is harmless.
            self.nodes[to as usize].copy_from(src, link);
        };
        move_node(0, 0);
        let mut to = 1;
        for b in &blocks {
            for j in 0..b.len {
                move_node(b.start + j, to);
                to += 1;
            }
        }
        self.next.store(next as usize, Relaxed);
    }
}

/// Where a node's children are (`first`, `count`) and its expansion
/// `state`.
#[derive(Clone, Copy, Debug)]
struct Link {
    first: u32,
    count: u16,
    state: u8,
}

impl Link {
    /// No children: a leaf.
    const LEAF: Link = Link {
        first: 0,
        count: 0,
        state: LEAF,
    };
}

/// A block of children kept by [`Tree::recycle`]: where it starts, how
/// many nodes it holds and whose children they are.
#[derive(Clone, Copy, Debug)]
struct Block {
    start: u32,
    len: u32,
    parent: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{MoveKind, Square};

    fn mv(from: Square, to: Square) -> Move {
        Move::new(from, to, MoveKind::Quiet)
    }

    #[test]
    fn node_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 32);
    }

    #[test]
    fn expand_update_and_reroot() {
        let mut t = Tree::new(16);
        let (a, b) = (mv(Square::E2, Square::E4), mv(Square::D2, Square::D4));
        assert_eq!(t.expand(0, &[(a, 0.5), (b, 0.5)]), Expansion::Done);
        assert_eq!(t.children(0), Some(1..3));
        assert_eq!(
            t.expand(2, &[(a, 1.0), (b, 0.0), (a, 0.0)]),
            Expansion::Done
        );
        assert_eq!(t.expand(1, &[(b, 1.0)]), Expansion::Done);
        t.node(2).update(1.0, 0);
        t.node(2).update(0.5, 0);
        t.node(4).update(0.25, 0);
        t.node(4).set_proven(Score::mate_in(3));
        assert_eq!(t.used(), 7);
        t.reroot(2);
        // The old tree stays where it was, unreachable from the new root.
        assert_eq!(t.used(), 7);
        assert_eq!(t.node(0).visits(), 2);
        assert_eq!(t.node(0).value_sum(), 1.5);
        assert_eq!(t.node(0).mv(), Move::NULL);
        assert_eq!(t.children(0), Some(3..6));
        // Recycling keeps only what the root reaches, moved to the front.
        t.recycle(16);
        assert_eq!(t.used(), 4);
        assert_eq!(t.node(0).visits(), 2);
        assert_eq!(t.children(0), Some(1..4));
        assert_eq!(t.node(1).mv(), a);
        assert_eq!(t.node(2).proven(), Some(Score::mate_in(3)));
        assert_eq!(t.node(2).mv(), b);
        // Full: a block that does not fit is refused and the node stays a leaf.
        let many = vec![(a, 0.0); 20];
        assert_eq!(t.expand(1, &many), Expansion::NotNow);
        assert!(t.is_full());
        assert_eq!(t.children(1), None);
    }

    #[test]
    fn recycling_keeps_the_most_visited_blocks_and_every_node_s_statistics() {
        let mut t = Tree::new(32);
        let m = |k: usize| {
            mv(
                Square::from_index_wrapping(k),
                Square::from_index_wrapping(k + 8),
            )
        };
        // Root: 3 children (1..4); child 1 (40 visits): 4 children (4..8);
        // child 2 (10 visits): 5 children (8..13); node 4 (30): 2 (13..15).
        t.expand(0, &[(m(0), 0.5), (m(1), 0.3), (m(2), 0.2)]);
        t.expand(1, &[(m(3), 0.25); 4]);
        t.expand(2, &[(m(4), 0.2); 5]);
        t.expand(4, &[(m(5), 0.5); 2]);
        // Terminal nodes (expanded without children): one that stays in
        // place and one whose block moves.
        t.expand(3, &[]);
        t.expand(13, &[]);
        for (node, visits) in [(0, 60), (1, 40), (2, 10), (3, 5), (4, 30)] {
            for _ in 0..visits {
                t.node(node).update(0.75, 0);
            }
        }
        t.node(2).set_proven(Score::DRAW);
        assert_eq!(t.used(), 15);
        // Room for 10: the root's 3, node 1's 4, node 4's 2 (node 2's 5 do
        // not fit once those are in).
        t.recycle(10);
        assert_eq!(t.used(), 10);
        assert_eq!(t.children(0), Some(1..4));
        assert_eq!(t.node(0).visits(), 60);
        assert_eq!(t.children(1), Some(4..8));
        assert_eq!(t.children(4), Some(8..10));
        assert_eq!(t.node(4).visits(), 30);
        assert_eq!(t.node(8).mv(), m(5));
        assert_eq!(t.children(3), Some(0..0));
        assert_eq!(t.children(8), Some(0..0));
        assert_eq!(t.children(9), None);
        // Node 2 is a leaf again, with its visits, value and proof.
        assert_eq!(t.children(2), None);
        assert_eq!(t.node(2).visits(), 10);
        assert_eq!(t.node(2).value_sum(), 7.5);
        assert_eq!(t.node(2).proven(), Some(Score::DRAW));
        assert!(!t.is_full());
        // The freed room is used again: node 2 can be expanded anew.
        assert_eq!(t.expand(2, &[(m(6), 1.0)]), Expansion::Done);
        assert_eq!(t.children(2), Some(10..11));
        // Keeping only the root's block.
        t.recycle(4);
        assert_eq!(t.used(), 4);
        assert_eq!(t.children(1), None);
        assert_eq!(t.node(1).visits(), 40);
    }
}
