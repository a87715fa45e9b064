//! The lock-free transposition table under concurrent writers and readers:
//! a reader never sees an entry whose data does not belong to its key.

mod common;

use common::Rng;
use fianchetto_board::Move;
use fianchetto_eval::Score;
use fianchetto_search::tt::{Bound, Replacement, TranspositionTable};
use std::sync::atomic::{AtomicU64, Ordering};

/// The data every writer stores for `key`: a function of the key alone.
fn data_for(key: u64) -> (Move, Score, Score, i32, Bound) {
    let mv = Move::from_bits(((key >> 3) & 0x0fff) as u16 | 1).unwrap();
    let score = Score(((key >> 20) % 20_000) as i32 - 10_000);
    let eval = Score(((key >> 36) % 2_000) as i32 - 1_000);
    let depth = ((key >> 50) % 60) as i32;
    let bound = [Bound::Upper, Bound::Lower, Bound::Exact][(key % 3) as usize];
    (mv, score, eval, depth, bound)
}

fn stress(mb: usize, policy: Replacement) {
    let tt = TranspositionTable::new(mb, policy);
    let hits = AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let (tt, hits) = (&tt, &hits);
            s.spawn(move || {
                let mut rng = Rng(t * 7919 + 1);
                // A small key space so that threads collide on the same slots.
                let keys: Vec<u64> = (0..512).map(|_| Rng(rng.next()).next()).collect();
                let mut rng = Rng(t + 100);
                for i in 0..200_000 {
                    let key = keys[rng.below(keys.len())] ^ ((t & 1) << 63);
                    if (i + t) % 2 == 0 {
                        let (mv, score, eval, depth, bound) = data_for(key);
                        tt.store(key, mv, score, eval, depth, bound, key & 1 == 1);
                    } else if let Some(e) = tt.probe(key) {
                        let (mv, score, eval, depth, bound) = data_for(key);
                        assert_eq!(
                            (e.mv, e.score, e.eval, e.depth, e.bound, e.pv),
                            (mv, score, eval, depth, bound, key & 1 == 1)
                        );
                        hits.fetch_add(1, Ordering::Relaxed);
                    }
                    if i % 50_000 == 0 && t == 0 {
                        tt.new_search();
                    }
                }
            });
        }
    });
    assert!(
        hits.load(Ordering::Relaxed) > 0,
        "the readers found entries"
    );
}

#[test]
fn concurrent_tiny_table() {
    for policy in Replacement::ALL {
        stress(0, policy);
    }
}

#[test]
fn concurrent_one_megabyte() {
    for policy in Replacement::ALL {
        stress(1, policy);
    }
}
