//! Probing allocates nothing once the tables are open: counted by a global
//! allocator around thousands of WDL and DTZ probes.

mod common;

use fianchetto_board::{Bitboards, Board};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on unchanged to the system allocator, which
// upholds GlobalAlloc's contract; the counter is only an atomic increment.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's layout is passed through as it came.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `dealloc`, and the new size is the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn probes_allocate_nothing() {
    let tb = common::tablebase();
    let boards: Vec<Bitboards> = common::reference()
        .iter()
        .map(|c| Bitboards::from_fen(&c.fen).unwrap())
        .collect();
    // Open every table first.
    for b in &boards {
        tb.probe_dtz(b).unwrap();
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut sum = 0i64;
    for b in &boards {
        sum += tb.probe_wdl(b).unwrap().value() as i64;
        sum += tb.probe_dtz(b).unwrap() as i64;
    }
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(
        after - before,
        0,
        "{} allocations in {} probes",
        after - before,
        2 * boards.len()
    );
    assert_ne!(sum, i64::MIN);
}
