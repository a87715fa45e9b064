//! The NNUE hot path allocates nothing: once an evaluator is built, pushes,
//! pops and evaluations (incremental or from scratch, inside the stack or
//! past its end) never call the allocator. Counted per thread by a global
//! allocator that forwards to the system one.

use fianchetto_board::{Bitboards, Mailbox, Move};
use fianchetto_eval::nnue::{Network, INPUTS};
use fianchetto_eval::{Evaluator, Nnue};
use fianchetto_movegen::{MoveGen, MoveList};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter is a const-initialised thread-local that never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc` is passed on as is.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

fn net(hidden: usize) -> Network {
    let weights = (0..INPUTS * hidden).map(|i| (i % 61) as i16 - 30).collect();
    let out = (0..2 * hidden).map(|i| (i % 31) as i16 - 15).collect();
    match Network::try_from_parts(hidden, weights, vec![7; hidden], out, 100) {
        Ok(net) => net,
        Err(e) => panic!("test network refused: {e}"),
    }
}

/// A line of up to `plies` moves (the last legal move each time), each
/// with the board it leads to, built before counting starts.
fn line<B: MoveGen>(plies: usize) -> (B, Vec<(Move, B)>) {
    let root = B::startpos();
    let mut moves = Vec::new();
    let mut board = root.clone();
    for _ in 0..plies {
        let legal: MoveList = board.legal_moves();
        let Some(&mv) = legal.last() else { break };
        board.play_unchecked(mv);
        moves.push((mv, board.clone()));
    }
    (root, moves)
}

fn walk<B: MoveGen>(nnue: &mut Nnue, root: &B, moves: &[(Move, B)]) {
    nnue.reset(root);
    let mut before = root;
    for (mv, after) in moves {
        nnue.push(before, *mv, after);
        std::hint::black_box(nnue.evaluate(after));
        before = after;
    }
    // One-off evaluations of boards the stack does not hold.
    for (_, b) in moves.iter().step_by(7) {
        std::hint::black_box(nnue.evaluate(b));
    }
    for (_, b) in moves.iter().rev() {
        std::hint::black_box(nnue.evaluate(b));
        nnue.pop();
    }
    std::hint::black_box(nnue.evaluate(root));
}

#[test]
fn push_pop_and_evaluate_allocate_nothing() {
    let mut nnue = Nnue::new(Arc::new(net(64)));
    // Deeper than the stack, to cover the fallback past its end.
    let (root, bitboards) = line::<Bitboards>(300);
    let (root_mailbox, mailbox) = line::<Mailbox>(300);
    assert!(bitboards.len() > 256, "the line ended early");
    for simd in [true, false] {
        nnue = nnue.with_simd(simd);
        let before = allocations();
        walk(&mut nnue, &root, &bitboards);
        walk(&mut nnue, &root_mailbox, &mailbox);
        assert_eq!(allocations(), before, "simd: {simd}");
    }
}
