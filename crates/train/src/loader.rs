//! How an epoch walks the data: in shuffled chunks, so the data may be far
//! larger than memory.
//!
//! The data set is cut into chunks of [`TrainConfig::chunk`] consecutive
//! positions. Every epoch draws a new order of the chunks from the seed,
//! and takes them [`TrainConfig::window`] at a time: the chunks of one
//! window are read together, the held-out positions dropped, the rest
//! shuffled (and about half of those without castling rights flagged to be
//! seen mirrored), then trained on in batches. Only one window is in
//! memory. Data smaller than a window is one window: a full shuffle per
//! epoch.
//!
//! Validation positions are whole blocks of [`VAL_BLOCK`] consecutive
//! records: the fraction of the blocks with the smallest hashes of the seed
//! and the block number, kept as one bit per block (so every window knows
//! which of its positions to skip). Self-play writes a game's positions
//! together, so a game mostly lands on one side of the split.
//!
//! Everything is drawn from the seed, the epoch and the window's number:
//! where an interrupted epoch resumes is found without reading the
//! windows before it.
//!
//! [`TrainConfig::chunk`]: crate::TrainConfig::chunk
//! [`TrainConfig::window`]: crate::TrainConfig::window

use crate::data::{mirrorable, TrainData, MIRRORED};
use crate::TrainError;
use fianchetto_data::marlin::PackedBoard;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The validation split holds out blocks of this many consecutive records.
pub const VAL_BLOCK: u64 = 64;

/// The most validation positions kept in memory and evaluated; blocks held
/// out beyond them are still never trained on.
pub const MAX_VAL_POSITIONS: usize = 1 << 21;

/// Random-number streams derived from the seed, one per purpose.
pub(crate) const STREAM_INIT: u64 = 1;
const STREAM_SPLIT: u64 = 2;
const STREAM_CHUNKS: u64 = 3 << 40;
const STREAM_WINDOW: u64 = 4 << 40;

/// SplitMix64's finaliser: neighbouring inputs give unrelated outputs.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of `stream` under `seed`.
pub(crate) fn rng(seed: u64, stream: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
}

/// A number below `n` (> 0), by multiply-shift.
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

fn shuffle<T>(rng: &mut Xoshiro256PlusPlus, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        v.swap(i, below(rng, i + 1));
    }
}

/// One chunk of the data.
#[derive(Clone, Copy, Debug)]
struct Chunk {
    start: u64,
    len: u64,
    /// Positions of it that are trained on (not held out).
    train: u64,
}

/// Where an epoch's windows lie, and which positions are held out.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    seed: u64,
    /// One bit per block of [`VAL_BLOCK`] positions: held out.
    held: Vec<u64>,
    window: usize,
    chunks: Vec<Chunk>,
}

/// A window read and shuffled: the positions of one stretch of an epoch.
pub(crate) struct Window {
    /// Which epoch and window it is.
    pub key: (u32, usize),
    /// Where it starts in the epoch (positions before it).
    pub start: u64,
    /// Its positions with their flags ([`MIRRORED`]).
    pub positions: Vec<(PackedBoard, u32)>,
}

impl Plan {
    /// The plan for `len` positions.
    pub(crate) fn new(len: u64, seed: u64, val_fraction: f32, chunk: u64, window: usize) -> Plan {
        // The blocks with the smallest hashes, as many as the fraction asks
        // (at least one when it asks for any and there are two or more).
        let blocks = len.div_ceil(VAL_BLOCK) as usize;
        let mut wanted = (blocks as f64 * val_fraction.clamp(0.0, 1.0) as f64).round() as usize;
        if val_fraction > 0.0 && blocks > 1 {
            wanted = wanted.max(1);
        }
        let mut held = vec![0u64; blocks.div_ceil(64)];
        if wanted > 0 {
            let key = |b: usize| {
                mix(seed ^ STREAM_SPLIT.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ mix(b as u64))
            };
            let mut order: Vec<(u64, u32)> = (0..blocks).map(|b| (key(b), b as u32)).collect();
            order.select_nth_unstable(wanted - 1);
            for &(_, b) in &order[..wanted] {
                held[b as usize / 64] |= 1 << (b % 64);
            }
        }
        let mut plan = Plan {
            seed,
            held,
            window: window.max(1),
            chunks: Vec::new(),
        };
        let chunk = chunk.max(1);
        let mut start = 0;
        while start < len {
            let n = chunk.min(len - start);
            let held = plan.held_in(start, n);
            plan.chunks.push(Chunk {
                start,
                len: n,
                train: n - held,
            });
            start += n;
        }
        plan
    }

    /// Whether the block holding position `index` is held out.
    pub(crate) fn is_held_out(&self, index: u64) -> bool {
        let block = (index / VAL_BLOCK) as usize;
        self.held
            .get(block / 64)
            .is_some_and(|bits| bits >> (block % 64) & 1 == 1)
    }

    /// How many positions of `start .. start + n` are held out.
    fn held_in(&self, start: u64, n: u64) -> u64 {
        let mut held = 0;
        let mut at = start;
        while at < start + n {
            let block_end = (at / VAL_BLOCK + 1) * VAL_BLOCK;
            let end = block_end.min(start + n);
            if self.is_held_out(at) {
                held += end - at;
            }
            at = end;
        }
        held
    }

    /// Positions trained on per epoch.
    pub(crate) fn train_len(&self) -> u64 {
        self.chunks.iter().map(|c| c.train).sum()
    }

    /// Positions held out.
    pub(crate) fn val_len(&self) -> u64 {
        self.chunks.iter().map(|c| c.len - c.train).sum()
    }

    /// The chunks of each window of `epoch`, in order.
    fn windows(&self, epoch: u32) -> Vec<Vec<usize>> {
        let mut order: Vec<usize> = (0..self.chunks.len()).collect();
        shuffle(
            &mut rng(self.seed, STREAM_CHUNKS + u64::from(epoch)),
            &mut order,
        );
        order.chunks(self.window).map(<[usize]>::to_vec).collect()
    }

    /// Positions trained on in each window of `epoch`.
    pub(crate) fn window_lens(&self, epoch: u32) -> Vec<u64> {
        self.windows(epoch)
            .iter()
            .map(|w| w.iter().map(|&c| self.chunks[c].train).sum())
            .collect()
    }

    /// Optimiser steps in `epoch` with batches of `batch` positions (a
    /// window's last batch may be smaller: windows do not share batches,
    /// so the count can differ by a few between epochs).
    pub(crate) fn batches(&self, epoch: u32, batch: usize) -> u64 {
        self.window_lens(epoch)
            .iter()
            .map(|&n| n.div_ceil(batch.max(1) as u64))
            .sum()
    }

    /// The window of `epoch` that holds its position `cursor`, as (its
    /// number, where it starts); `None` past the end.
    pub(crate) fn window_at(&self, epoch: u32, cursor: u64) -> Option<(usize, u64)> {
        let mut start = 0;
        for (w, n) in self.window_lens(epoch).into_iter().enumerate() {
            if cursor < start + n {
                return Some((w, start));
            }
            start += n;
        }
        None
    }

    /// Reads window `w` of `epoch`, which starts at `start`, drops the
    /// held-out positions, shuffles the rest and flags about half of the
    /// mirrorable ones (with `mirror`).
    pub(crate) fn load(
        &self,
        data: &TrainData,
        epoch: u32,
        w: usize,
        start: u64,
        mirror: bool,
        buf: &mut Vec<PackedBoard>,
    ) -> Result<Window, TrainError> {
        let windows = self.windows(epoch);
        let chunks = windows.get(w).map(Vec::as_slice).unwrap_or(&[]);
        let total: u64 = chunks.iter().map(|&c| self.chunks[c].train).sum();
        let mut positions = Vec::with_capacity(total as usize);
        for &c in chunks {
            let chunk = self.chunks[c];
            buf.clear();
            data.read(chunk.start, chunk.len, buf)?;
            for (i, record) in buf.iter().enumerate() {
                if !self.is_held_out(chunk.start + i as u64) {
                    positions.push((*record, 0));
                }
            }
        }
        let window_stream = STREAM_WINDOW + (u64::from(epoch) << 24) + w as u64;
        let mut r = rng(self.seed, window_stream);
        shuffle(&mut r, &mut positions);
        if mirror {
            let mut bits = 0u64;
            for (k, (record, flags)) in positions.iter_mut().enumerate() {
                if k % 64 == 0 {
                    bits = r.next_u64();
                }
                if bits >> (k % 64) & 1 == 1 && mirrorable(record) {
                    *flags |= MIRRORED;
                }
            }
        }
        Ok(Window {
            key: (epoch, w),
            start,
            positions,
        })
    }

    /// The held-out positions, up to [`MAX_VAL_POSITIONS`], in data order.
    pub(crate) fn validation(&self, data: &TrainData) -> Result<Vec<PackedBoard>, TrainError> {
        let mut val = Vec::new();
        let len = data.len();
        let mut block = 0;
        while block * VAL_BLOCK < len && val.len() < MAX_VAL_POSITIONS {
            let start = block * VAL_BLOCK;
            if self.is_held_out(start) {
                let n = VAL_BLOCK.min(len - start);
                data.read(start, n, &mut val)?;
            }
            block += 1;
        }
        val.truncate(MAX_VAL_POSITIONS);
        Ok(val)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_out_blocks_are_whole_and_about_the_fraction() {
        let plan = Plan::new(1_000_000, 7, 0.05, 100_000, 4);
        let held = plan.val_len();
        // 15 625 blocks, 781 of them held out.
        assert_eq!(held, 781 * 64);
        assert_eq!(plan.train_len() + held, 1_000_000);
        for block in 0..1000 {
            let first = plan.is_held_out(block * VAL_BLOCK);
            assert!((0..VAL_BLOCK).all(|i| plan.is_held_out(block * VAL_BLOCK + i) == first));
        }
        assert_eq!(Plan::new(1000, 7, 0.0, 100, 4).val_len(), 0);
    }

    #[test]
    fn windows_cover_every_chunk_once_in_an_order_per_epoch() {
        let plan = Plan::new(1050, 1, 0.1, 100, 3);
        assert_eq!(plan.chunks.len(), 11);
        let (a, b) = (plan.windows(0), plan.windows(1));
        assert_ne!(a, b);
        for w in [a, b] {
            assert_eq!(w.len(), 4);
            let mut all: Vec<usize> = w.concat();
            all.sort_unstable();
            assert_eq!(all, (0..11).collect::<Vec<_>>());
        }
        let lens = plan.window_lens(1);
        assert_eq!(lens.iter().sum::<u64>(), plan.train_len());
        let (w, start) = plan.window_at(1, lens[0]).unwrap();
        assert_eq!((w, start), (1, lens[0]));
        assert_eq!(plan.window_at(1, plan.train_len()), None);
    }
}
