//! Perft: counting the leaves of the legal move tree, the standard test (and
//! benchmark) of a move generator. Plain, bulk-counting, divide, statistics,
//! hashed and multi-threaded variants, generic over every backend.
//!
//! Each function picks the CPU tier once ([`fianchetto_board::cpu`]) and the
//! whole recursion runs in that tier's code: every level re-enters it through
//! [`Level::run`], and generation and `play` are inlined into it with the
//! level's slider lookup ([`MoveGen::generate_in`], [`Board::play_in`](fianchetto_board::Board::play_in); hence
//! a local `moves` rather than `legal_moves`, which may stay a function of its own,
//! compiled for the baseline).

use crate::{GenKind, MoveGen, MoveList};
use alloc::vec::Vec;
use fianchetto_board::cpu::Level;
use fianchetto_board::{with_level, Bitboard, Move};
// The hashed and parallel perfts (64-bit atomics, threads) need the standard
// library.
use core::sync::atomic::{AtomicBool, Ordering};
#[cfg(feature = "std")]
use core::sync::atomic::{AtomicU64, AtomicUsize};

/// Leaf count by bulk counting: at the last ply the legal moves are counted,
/// not played. The fastest form, and the one peers' figures use.
pub fn perft<B: MoveGen>(board: &B, depth: u32) -> u64 {
    with_level!(level => bulk(level, board, depth))
}

/// The legal moves, generated inline into the caller (whose CPU tier they
/// then get).
#[inline(always)]
fn moves<B: MoveGen, L: Level>(level: L, board: &B) -> MoveList {
    let mut list = MoveList::new();
    board.generate_in(level, GenKind::All, &mut list);
    list
}

#[inline(always)]
fn bulk<B: MoveGen, L: Level>(level: L, board: &B, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // The last ply in a function of its own (as the recursion is).
        1 => level.run(
            #[inline(always)]
            || board.count_legal_in(level),
        ),
        // The last ply but one: each child only counted, so the backend
        // may bring up to date only what counting reads.
        2 => {
            let mut n = 0;
            for mv in moves(level, board) {
                n += level.run(
                    #[inline(always)]
                    || board.count_legal_after_in(level, mv),
                );
            }
            n
        }
        _ => {
            let mut n = 0;
            for mv in moves(level, board) {
                let mut child = board.clone();
                child.play_in(level, mv);
                n += level.run(
                    #[inline(always)]
                    || bulk(level, &child, depth - 1),
                );
            }
            n
        }
    }
}

/// [`perft`] that gives up when `stop` is raised (checked at every node
/// three or more plies above the leaves, a negligible cost): `None` if it
/// stopped. For front ends that must stay responsive during a deep count
/// (the UCI `go perft` and `stop`).
///
/// ```
/// use fianchetto_board::{Bitboards, Board};
/// use fianchetto_movegen::perft::perft_until;
/// use std::sync::atomic::AtomicBool;
/// let start = Bitboards::startpos();
/// assert_eq!(perft_until(&start, 4, &AtomicBool::new(false)), Some(197_281));
/// assert_eq!(perft_until(&start, 4, &AtomicBool::new(true)), None);
/// ```
pub fn perft_until<B: MoveGen>(board: &B, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 3 {
        return Some(perft(board, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut n = 0;
    for mv in board.legal_moves() {
        let mut child = board.clone();
        child.play_unchecked(mv);
        n += perft_until(&child, depth - 1, stop)?;
    }
    Some(n)
}

/// Leaf count playing every move, the last ply included: slower than
/// [`perft`], and a test of `play` as well as of generation.
pub fn perft_plain<B: MoveGen>(board: &B, depth: u32) -> u64 {
    with_level!(level => plain(level, board, depth))
}

#[inline(always)]
fn plain<B: MoveGen, L: Level>(level: L, board: &B, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for mv in moves(level, board) {
        let mut child = board.clone();
        child.play_in(level, mv);
        n += level.run(
            #[inline(always)]
            || plain(level, &child, depth - 1),
        );
    }
    n
}

/// Leaf count below each legal move (`depth` ≥ 1), in generation order.
pub fn divide<B: MoveGen>(board: &B, depth: u32) -> Vec<(Move, u64)> {
    board
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

/// The classic perft table: what the leaf moves are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftStats {
    /// Leaves.
    pub nodes: u64,
    /// Leaf moves that capture (en passant included).
    pub captures: u64,
    /// Leaf moves that capture en passant.
    pub en_passant: u64,
    /// Leaf moves that castle.
    pub castles: u64,
    /// Leaf moves that promote.
    pub promotions: u64,
    /// Leaf moves that give check.
    pub checks: u64,
    /// Checks given by a piece other than the one that moved (the castling
    /// rook counts as moved).
    pub discovered_checks: u64,
    /// Checks by two pieces at once.
    pub double_checks: u64,
    /// Leaf moves that mate.
    pub checkmates: u64,
}

impl core::ops::AddAssign for PerftStats {
    fn add_assign(&mut self, o: PerftStats) {
        self.nodes += o.nodes;
        self.captures += o.captures;
        self.en_passant += o.en_passant;
        self.castles += o.castles;
        self.promotions += o.promotions;
        self.checks += o.checks;
        self.discovered_checks += o.discovered_checks;
        self.double_checks += o.double_checks;
        self.checkmates += o.checkmates;
    }
}

/// The perft table at `depth` (≥ 1): every leaf move is played and classified.
pub fn perft_stats<B: MoveGen>(board: &B, depth: u32) -> PerftStats {
    with_level!(level => stats(level, board, depth))
}

#[inline(always)]
fn stats<B: MoveGen, L: Level>(level: L, board: &B, depth: u32) -> PerftStats {
    let mut stats = PerftStats::default();
    if depth == 0 {
        stats.nodes = 1;
        return stats;
    }
    for mv in moves(level, board) {
        let mut child = board.clone();
        child.play_in(level, mv);
        if depth > 1 {
            stats += level.run(
                #[inline(always)]
                || self::stats(level, &child, depth - 1),
            );
            continue;
        }
        stats.nodes += 1;
        stats.captures += mv.is_capture() as u64;
        stats.en_passant += mv.is_en_passant() as u64;
        stats.castles += mv.is_castle() as u64;
        stats.promotions += mv.is_promotion() as u64;
        let checkers = child.checkers();
        if checkers.any() {
            stats.checks += 1;
            let mut moved = Bitboard::from_square(mv.to());
            if mv.is_castle() {
                // The rook lands next to the king's destination, towards the centre.
                let rook_to = if mv.to().index() > mv.from().index() {
                    mv.to().index() - 1
                } else {
                    mv.to().index() + 1
                };
                moved = moved.with(fianchetto_board::Square::from_index_wrapping(rook_to));
            }
            stats.discovered_checks += (checkers & !moved).any() as u64;
            stats.double_checks += checkers.more_than_one() as u64;
            stats.checkmates += (child.count_legal_in(level) == 0) as u64;
        }
    }
    stats
}

#[cfg(feature = "std")]
/// A shared perft hash table: lock-free, each entry two atomics written with
/// the "key XOR data" trick so that a torn write is detected, not trusted.
struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
}

#[cfg(feature = "std")]
impl PerftTable {
    fn new(megabytes: usize) -> PerftTable {
        let n = (megabytes.max(1) * 1024 * 1024 / 16).next_power_of_two() / 2;
        PerftTable {
            slots: (0..n.max(1))
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        }
    }

    fn index(&self, hash: u64) -> usize {
        (hash as usize) & (self.slots.len() - 1)
    }

    fn probe(&self, hash: u64, depth: u32) -> Option<u64> {
        let slot = &self.slots[self.index(hash)];
        let data = slot[1].load(Ordering::Relaxed);
        let key = slot[0].load(Ordering::Relaxed) ^ data;
        (key == hash && data & 0xff == depth as u64 && data != 0).then_some(data >> 8)
    }

    fn store(&self, hash: u64, depth: u32, count: u64) {
        let slot = &self.slots[self.index(hash)];
        let data = count << 8 | depth as u64;
        slot[0].store(hash ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(feature = "std")]
fn perft_with_table<B: MoveGen>(board: &B, depth: u32, table: &PerftTable) -> u64 {
    with_level!(level => hashed(level, board, depth, table))
}

#[cfg(feature = "std")]
#[inline(always)]
fn hashed<B: MoveGen, L: Level>(level: L, board: &B, depth: u32, table: &PerftTable) -> u64 {
    if depth <= 1 {
        return bulk(level, board, depth);
    }
    if let Some(n) = table.probe(board.hash(), depth) {
        return n;
    }
    let mut n = 0;
    for mv in moves(level, board) {
        let mut child = board.clone();
        child.play_in(level, mv);
        n += level.run(
            #[inline(always)]
            || hashed(level, &child, depth - 1, table),
        );
    }
    table.store(board.hash(), depth, n);
    n
}

#[cfg(feature = "std")]
/// Perft with a transposition table of `megabytes` MB: positions reached by
/// different move orders are counted once. (Zobrist collisions could in
/// principle miscount; with 64-bit keys they are not expected at perft depths.)
pub fn perft_hashed<B: MoveGen>(board: &B, depth: u32, megabytes: usize) -> u64 {
    perft_with_table(board, depth, &PerftTable::new(megabytes))
}

#[cfg(feature = "std")]
/// Perft on `threads` threads: the root moves are shared out one at a time.
/// With `megabytes` > 0 the threads share one hash table.
pub fn perft_parallel<B: MoveGen>(board: &B, depth: u32, threads: usize, megabytes: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return if megabytes > 0 {
            perft_hashed(board, depth, megabytes)
        } else {
            perft(board, depth)
        };
    }
    let moves = board.legal_moves();
    let table = (megabytes > 0).then(|| PerftTable::new(megabytes));
    let next = AtomicUsize::new(0);
    let total = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut local = 0;
                while let Some(&mv) = moves.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    local += match &table {
                        Some(t) => perft_with_table(&child, depth - 1, t),
                        None => perft(&child, depth - 1),
                    };
                }
                total.fetch_add(local, Ordering::Relaxed);
            });
        }
    });
    total.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, Board};

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn start_position_counts() {
        let b = Bitboards::startpos();
        assert_eq!(perft(&b, 1), 20);
        assert_eq!(perft(&b, 2), 400);
        assert_eq!(perft(&b, 3), 8_902);
        assert_eq!(perft(&b, 4), 197_281);
        assert_eq!(perft_plain(&b, 3), 8_902);
    }

    #[test]
    fn start_position_statistics() {
        let b = Bitboards::startpos();
        let s3 = perft_stats(&b, 3);
        assert_eq!(
            (s3.nodes, s3.captures, s3.checks, s3.checkmates),
            (8_902, 34, 12, 0)
        );
        let s4 = perft_stats(&b, 4);
        assert_eq!(
            (s4.nodes, s4.captures, s4.checks, s4.checkmates),
            (197_281, 1_576, 469, 8)
        );
        assert_eq!(
            (
                s4.en_passant,
                s4.castles,
                s4.promotions,
                s4.discovered_checks,
                s4.double_checks
            ),
            (0, 0, 0, 0, 0)
        );
    }

    #[test]
    fn kiwipete_statistics() {
        // The chessprogramming wiki's table for "Position 2", depth 3.
        let b = Bitboards::from_fen(KIWIPETE).unwrap();
        let s = perft_stats(&b, 3);
        assert_eq!(
            s,
            PerftStats {
                nodes: 97_862,
                captures: 17_102,
                en_passant: 45,
                castles: 3_162,
                promotions: 0,
                checks: 993,
                discovered_checks: 0,
                double_checks: 0,
                checkmates: 1,
            }
        );
    }

    #[test]
    fn hashed_and_parallel_agree() {
        let b = Bitboards::from_fen(KIWIPETE).unwrap();
        let want = perft(&b, 3);
        assert_eq!(perft_hashed(&b, 3, 1), want);
        assert_eq!(perft_parallel(&b, 3, 2, 0), want);
        assert_eq!(perft_parallel(&b, 3, 2, 1), want);
        let div: u64 = divide(&b, 3).iter().map(|&(_, n)| n).sum();
        assert_eq!(div, want);
    }
}
