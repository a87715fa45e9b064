//! The transposition table: a lock-free hash table of search results shared
//! by every search thread.
//!
//! Each entry is two `AtomicU64`s: the data (move, score, static eval,
//! depth, bound, generation) and the key XOR the data (Hyatt's lockless
//! hashing). Writers store both words with relaxed atomic stores; a reader
//! that loads a key word from one write and a data word from another sees
//! `key ^ data` fail to match its key and treats the entry as a miss. So
//! there is no lock, no data race (only atomics are touched) and no torn
//! entry is ever returned.
//!
//! ```
//! use fianchetto_board::Move;
//! use fianchetto_eval::Score;
//! use fianchetto_search::tt::{Bound, Replacement, TranspositionTable};
//!
//! let tt = TranspositionTable::new(1, Replacement::DepthAlways);
//! tt.store(0xdead_beef, Move::NULL, Score::cp(42), Score::cp(10), 5, Bound::Exact, false);
//! let e = tt.probe(0xdead_beef).unwrap();
//! assert_eq!((e.score, e.depth, e.bound), (Score::cp(42), 5, Bound::Exact));
//! assert!(tt.probe(0xbeef_dead).is_none());
//! ```

use fianchetto_board::Move;
use fianchetto_eval::Score;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The true score is at most the stored one (no move beat alpha).
    Upper = 1,
    /// The true score is at least the stored one (a move beat beta).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// Which entry a store overwrites.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Replacement {
    /// One slot per index; every store overwrites it.
    Always,
    /// One slot per index; a store overwrites only a shallower (or equal)
    /// entry, an entry of the same position, or an entry from an older
    /// search (aging).
    Depth,
    /// Two slots per index (BuhoChess's best): a depth-preferred one and an
    /// always-replace one that catches what the first refuses.
    #[default]
    DepthAlways,
}

impl Replacement {
    /// Every policy.
    pub const ALL: [Replacement; 3] = [
        Replacement::Always,
        Replacement::Depth,
        Replacement::DepthAlways,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Replacement::Always => "always",
            Replacement::Depth => "depth",
            Replacement::DepthAlways => "depth-always",
        }
    }
}

impl std::str::FromStr for Replacement {
    type Err = String;
    fn from_str(s: &str) -> Result<Replacement, String> {
        Replacement::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown replacement policy `{s}`; expected always, depth or depth-always")
            })
    }
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best (or refuting) move found, `Move::NULL` if none.
    pub mv: Move,
    /// The score, with mate scores relative to the stored node (see
    /// [`score_to_tt`]).
    pub score: Score,
    /// The static evaluation of the position (saves calling the evaluator).
    pub eval: Score,
    /// The depth the score was searched to.
    pub depth: i32,
    /// What kind of bound `score` is.
    pub bound: Bound,
    /// Whether the position was on a principal variation when it was
    /// stored, or stored by a node that had such an entry ("ttPv": the
    /// search reduces such positions less).
    pub pv: bool,
    /// The search generation that stored it.
    pub generation: u8,
}

// Data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | pv 1 | generation 5.
// Bound bits 0 mark an entry that holds only a static evaluation
// ([`TranspositionTable::store_eval`]): its depth byte is −1, so that its
// data is never 0, the mark of an empty slot.
const GEN_BITS: u32 = 5;
const GEN_MASK: u8 = (1 << GEN_BITS) - 1;
const BOUND_SHIFT: u32 = 56;
const GEN_SHIFT: u32 = 59;

/// The data word of an entry that holds only `eval`.
fn pack_eval_only(eval: Score, generation: u8) -> u64 {
    ((eval.0 as i16 as u16 as u64) << 32)
        | (0xffu64 << 48)
        | (((generation & GEN_MASK) as u64) << GEN_SHIFT)
}

/// Whether `data` (not 0) is an entry that holds only an evaluation.
fn is_eval_only(data: u64) -> bool {
    (data >> BOUND_SHIFT) & 3 == 0
}

impl Entry {
    fn pack(self) -> u64 {
        (self.mv.bits() as u64)
            | ((self.score.0 as i16 as u16 as u64) << 16)
            | ((self.eval.0 as i16 as u16 as u64) << 32)
            | ((self.depth.clamp(-128, 127) as i8 as u8 as u64) << 48)
            | ((self.bound as u64) << BOUND_SHIFT)
            | ((self.pv as u64) << 58)
            | (((self.generation & GEN_MASK) as u64) << GEN_SHIFT)
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> BOUND_SHIFT) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            mv: Move::from_bits(data as u16).unwrap_or(Move::NULL),
            score: Score((data >> 16) as u16 as i16 as i32),
            eval: Score((data >> 32) as u16 as i16 as i32),
            depth: (data >> 48) as u8 as i8 as i32,
            bound,
            pv: (data >> 58) & 1 == 1,
            generation: (data >> GEN_SHIFT) as u8 & GEN_MASK,
        })
    }
}

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// A lock-free transposition table; share it by reference (`&self`
/// methods) between threads.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    policy: Replacement,
    generation: AtomicU8,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("entries", &self.slots.len())
            .field("policy", &self.policy)
            .finish()
    }
}

/// The memory a table asked for could not be allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mb} MB hash table on this machine")]
pub struct TableAllocError {
    /// The size asked for.
    pub mb: usize,
}

impl TranspositionTable {
    /// Bytes per entry.
    pub const ENTRY_BYTES: usize = 16;

    /// A table of `mb` megabytes (at least two entries) with `policy`.
    pub fn new(mb: usize, policy: Replacement) -> TranspositionTable {
        Self::with_entries(mb.saturating_mul(1 << 20) / Self::ENTRY_BYTES, policy)
    }

    /// A table of `mb` megabytes, or an error when the memory cannot be had
    /// (an engine refuses such a `Hash` and keeps its table, where
    /// [`TranspositionTable::new`] would abort the process).
    pub fn try_new(mb: usize, policy: Replacement) -> Result<TranspositionTable, TableAllocError> {
        let entries = (mb.saturating_mul(1 << 20) / Self::ENTRY_BYTES).max(2) & !1;
        let mut slots: Vec<Slot> = Vec::new();
        slots
            .try_reserve_exact(entries)
            .map_err(|_| TableAllocError { mb })?;
        slots.extend((0..entries).map(|_| Slot::default()));
        Ok(TranspositionTable {
            slots: slots.into_boxed_slice(),
            policy,
            generation: AtomicU8::new(0),
        })
    }

    /// A table of `entries` entries (rounded down to even, at least two):
    /// tiny tables make replacement policies measurable.
    pub fn with_entries(entries: usize, policy: Replacement) -> TranspositionTable {
        let entries = entries.max(2) & !1;
        let slots = (0..entries)
            .map(|_| Slot::default())
            .collect::<Vec<_>>()
            .into_boxed_slice();
        TranspositionTable {
            slots,
            policy,
            generation: AtomicU8::new(0),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no entries (never: at least two).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The replacement policy.
    pub fn policy(&self) -> Replacement {
        self.policy
    }

    /// Empties the table (not while a search uses it).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.key.store(0, Relaxed);
            s.data.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
    }

    /// Starts a new search: entries stored before become "old" and the
    /// depth-preferred slots give them up first.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store(g.wrapping_add(1) & GEN_MASK, Relaxed);
    }

    /// The current generation.
    pub fn generation(&self) -> u8 {
        self.generation.load(Relaxed)
    }

    /// The first slot of `key`'s bucket (two slots for two-tier, one
    /// otherwise); the high bits of the key pick it (multiply-shift, no
    /// modulo), the low bits are left to the verification.
    #[inline]
    fn index(&self, key: u64) -> usize {
        match self.policy {
            Replacement::DepthAlways => {
                let buckets = (self.slots.len() / 2) as u128;
                ((key as u128 * buckets) >> 64) as usize * 2
            }
            _ => ((key as u128 * self.slots.len() as u128) >> 64) as usize,
        }
    }

    #[inline]
    fn read(&self, i: usize, key: u64) -> Option<Entry> {
        self.read_data(i, key).and_then(Entry::unpack)
    }

    /// The data word of slot `i` if it holds `key` (any kind of entry).
    #[inline]
    fn read_data(&self, i: usize, key: u64) -> Option<u64> {
        let slot = &self.slots[i];
        let data = slot.data.load(Relaxed);
        let check = slot.key.load(Relaxed);
        (check ^ data == key && data != 0).then_some(data)
    }

    /// Tells the CPU to start loading `key`'s bucket (call early, probe
    /// later): the probe at the child node then finds it in cache instead
    /// of stalling on a memory load.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let slot: *const Slot = &self.slots[self.index(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of the x86_64 baseline, so the instruction
        // exists; a prefetch is only a hint that never faults and changes
        // nothing the program can observe (and the address is valid anyway).
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// The slots `key` may be stored in: its bucket's two with
    /// [`Replacement::DepthAlways`], else the one.
    #[inline]
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let i = self.index(key);
        if self.policy == Replacement::DepthAlways {
            i..i + 2
        } else {
            i..i + 1
        }
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).find_map(|j| self.read(j, key))
    }

    /// The static evaluation stored for `key` by [`store_eval`](Self::store_eval)
    /// in an entry without a score ([`probe`](Self::probe) does not return
    /// such entries; an entry with a score has its own [`Entry::eval`]).
    #[inline]
    pub fn probe_eval(&self, key: u64) -> Option<Score> {
        self.bucket(key)
            .find_map(|j| self.read_data(j, key))
            .filter(|&d| is_eval_only(d))
            .map(|d| Score((d >> 32) as u16 as i16 as i32))
    }

    /// Stores only the static evaluation `eval` of `key`'s position, for a
    /// node that found no entry and may end without storing one (a pruned
    /// node): its next visit need not call the evaluator. It takes a slot
    /// that is empty, holds another evaluation alone or is from an older
    /// search (with two slots: else the always-replaced one), and never
    /// replaces an entry of the same position.
    #[inline]
    pub fn store_eval(&self, key: u64, eval: Score) {
        let generation = self.generation.load(Relaxed);
        let slots = self.bucket(key);
        let i = slots.start;
        if slots.into_iter().any(|j| self.read_data(j, key).is_some()) {
            return;
        }
        let free = |j: usize| {
            let data = self.slots[j].data.load(Relaxed);
            data == 0 || is_eval_only(data) || (data >> GEN_SHIFT) as u8 & GEN_MASK != generation
        };
        let target = match self.policy {
            Replacement::Always => Some(i),
            Replacement::Depth => Some(i).filter(|&j| free(j)),
            Replacement::DepthAlways => Some(if free(i) { i } else { i + 1 }),
        };
        if let Some(j) = target {
            let data = pack_eval_only(eval, generation);
            self.slots[j].key.store(key ^ data, Relaxed);
            self.slots[j].data.store(data, Relaxed);
        }
    }

    /// Stores a result for `key` (following the replacement policy), with
    /// `pv` its [`Entry::pv`] flag. A store without a move keeps the move
    /// already stored for the same position.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Move,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let generation = self.generation.load(Relaxed);
        let i = self.index(key);
        let mut entry = Entry {
            mv,
            score,
            eval,
            depth,
            bound,
            pv,
            generation,
        };
        let write = |j: usize, mut e: Entry| {
            if e.mv.is_null() {
                if let Some(old) = self.read(j, key) {
                    e.mv = old.mv;
                }
            }
            let data = e.pack();
            self.slots[j].key.store(key ^ data, Relaxed);
            self.slots[j].data.store(data, Relaxed);
        };
        match self.policy {
            Replacement::Always => write(i, entry),
            Replacement::Depth => {
                if self.depth_slot_accepts(i, key, depth, bound, generation) {
                    write(i, entry)
                }
            }
            Replacement::DepthAlways => {
                if self.depth_slot_accepts(i, key, depth, bound, generation) {
                    write(i, entry);
                } else {
                    // Keep the move if the always slot already held this position.
                    if entry.mv.is_null() {
                        if let Some(old) = self.read(i + 1, key) {
                            entry.mv = old.mv;
                        }
                    }
                    write(i + 1, entry);
                }
            }
        }
    }

    /// Whether the depth-preferred slot `i` may take a `depth`-deep result:
    /// empty, the same position, from an older search, or not deeper.
    #[inline]
    fn depth_slot_accepts(
        &self,
        i: usize,
        key: u64,
        depth: i32,
        bound: Bound,
        generation: u8,
    ) -> bool {
        let slot = &self.slots[i];
        let data = slot.data.load(Relaxed);
        if data == 0 {
            return true;
        }
        let same = slot.key.load(Relaxed) ^ data == key;
        match Entry::unpack(data) {
            None => true,
            Some(old) => {
                old.generation != generation
                    || depth >= old.depth
                    || (same && (bound == Bound::Exact || depth + 2 >= old.depth))
            }
        }
    }

    /// How full the table is, per mille: the share of the first thousand
    /// entries that this search wrote (the UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let g = self.generation.load(Relaxed);
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Relaxed);
                d != 0 && (d >> GEN_SHIFT) as u8 & GEN_MASK == g
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// Converts a score found `ply` plies from the root into one relative to
/// the node (mate distances counted from there), for storing.
#[inline]
pub fn score_to_tt(score: Score, ply: usize) -> Score {
    if score.0 >= Score::MATE_BOUND.0 {
        Score(score.0 + ply as i32)
    } else if score.0 <= -Score::MATE_BOUND.0 {
        Score(score.0 - ply as i32)
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`] when probing at `ply` a position whose
/// half-move clock is `halfmove_clock`.
///
/// A decisive score stored for a position is only as good as the
/// fifty-move rule lets it be: the same position reached with a later clock
/// may be drawn before the mate lands, or before the tablebase position
/// (reached by a capture or pawn move, which resets the clock) is. A mate or
/// tablebase result that needs more plies than the clock has left comes
/// back as the largest score short of a decisive one (a win the search has
/// not proved here), so that it can neither cut a node off as decisive nor
/// be reported as a mate.
///
/// ```
/// use fianchetto_eval::Score;
/// use fianchetto_search::tt::{score_from_tt, score_to_tt};
///
/// let stored = score_to_tt(Score::mate_in(7), 2); // a mate 5 plies from the node
/// assert_eq!(score_from_tt(stored, 4, 0), Score::mate_in(9));
/// // With 96 reversible plies played, only 4 are left: no proven mate.
/// assert!(!score_from_tt(stored, 4, 96).is_decisive());
/// assert!(score_from_tt(stored, 4, 96) > Score::cp(10_000));
///
/// // Tablebase wins are bounded by the clock the same way.
/// let tb = score_to_tt(Score::tb_win_in(9), 3); // the table position 6 plies away
/// assert_eq!(score_from_tt(tb, 1, 0), Score::tb_win_in(7));
/// assert!(!score_from_tt(tb, 1, 97).is_decisive());
/// ```
#[inline]
pub fn score_from_tt(score: Score, ply: usize, halfmove_clock: u32) -> Score {
    let left = 100 - halfmove_clock.min(100) as i32;
    let magnitude = score.0.abs();
    if magnitude < Score::MATE_BOUND.0 {
        return score;
    }
    // Plies from this node to the mate, or to the tablebase position.
    let distance = if score.is_mate() {
        Score::MATE.0 - magnitude
    } else {
        Score::TB_WIN.0 - magnitude
    };
    let sign = score.0.signum();
    if distance > left {
        return Score(sign * (Score::MATE_BOUND.0 - 1));
    }
    Score(score.0 - sign * ply as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{MoveKind, Square};

    #[test]
    fn pack_roundtrip() {
        let e = Entry {
            mv: Move::new(Square::E7, Square::E8, MoveKind::PromoteQueen),
            score: Score(-31_990),
            eval: Score(-5),
            depth: -1,
            bound: Bound::Lower,
            pv: true,
            generation: 31,
        };
        assert_eq!(Entry::unpack(e.pack()), Some(e));
        let e = Entry { pv: false, ..e };
        assert_eq!(Entry::unpack(e.pack()), Some(e));
    }

    #[test]
    fn prefetch_any_key() {
        // The unsafe prefetch: every key maps inside the table, edges included.
        for mb in [0, 1] {
            let tt = TranspositionTable::new(mb, Replacement::DepthAlways);
            for key in [0, 1, u64::MAX, u64::MAX / 2, 0x8000_0000_0000_0000] {
                tt.prefetch(key);
                assert!(tt.probe(key).is_none());
            }
        }
    }

    #[test]
    fn policies() {
        for policy in Replacement::ALL {
            let tt = TranspositionTable::new(0, policy);
            assert_eq!(tt.len(), 2);
            tt.store(1, Move::NULL, Score(1), Score(0), 9, Bound::Exact, false);
            tt.store(2, Move::NULL, Score(2), Score(0), 1, Bound::Exact, false);
            let deep = tt.probe(1).is_some();
            let shallow = tt.probe(2).is_some();
            match policy {
                Replacement::Always => assert!(!deep && shallow),
                Replacement::Depth => assert!(deep && !shallow),
                Replacement::DepthAlways => assert!(deep && shallow),
            }
            tt.new_search();
            tt.store(2, Move::NULL, Score(2), Score(0), 1, Bound::Exact, false);
            assert!(
                tt.probe(2).is_some(),
                "{policy:?}: aging lets a new entry in"
            );
        }
    }

    #[test]
    fn evaluations_alone() {
        for policy in Replacement::ALL {
            let tt = TranspositionTable::with_entries(1 << 10, policy);
            let key = 0x1234_5678_9abc_def0;
            assert_eq!(tt.probe_eval(key), None);
            for eval in [Score(-32_000), Score(-1), Score(0), Score(417)] {
                tt.clear();
                tt.store_eval(key, eval);
                assert_eq!(tt.probe_eval(key), Some(eval), "{policy:?}");
                assert!(tt.probe(key).is_none(), "{policy:?}: no score to cut with");
                assert_eq!(tt.probe_eval(key ^ 1), None, "{policy:?}: another key");
            }
            let tiny = TranspositionTable::new(0, policy);
            tiny.store_eval(key, Score(1));
            assert_eq!(tiny.hashfull(), 500, "{policy:?}: one of two slots in use");
            // A result replaces it, and is not replaced by it.
            tt.store(
                key,
                Move::NULL,
                Score(5),
                Score(417),
                3,
                Bound::Upper,
                false,
            );
            let e = tt.probe(key).expect("the result");
            assert_eq!((e.score, e.eval, e.depth), (Score(5), Score(417), 3));
            assert_eq!(tt.probe_eval(key), None, "{policy:?}");
            tt.store_eval(key, Score(9));
            assert_eq!(tt.probe(key), Some(e), "{policy:?}: the result stays");
        }
        // The depth-preferred slot keeps this search's result; the
        // evaluation takes the always-replaced one, or nothing.
        for policy in [Replacement::Depth, Replacement::DepthAlways] {
            let tt = TranspositionTable::new(0, policy);
            tt.store(1, Move::NULL, Score(1), Score(0), 9, Bound::Exact, false);
            tt.store_eval(2, Score(7));
            assert!(tt.probe(1).is_some(), "{policy:?}");
            let kept = tt.probe_eval(2) == Some(Score(7));
            assert_eq!(kept, policy == Replacement::DepthAlways, "{policy:?}");
            tt.new_search();
            tt.store_eval(3, Score(8));
            assert_eq!(
                tt.probe_eval(3),
                Some(Score(8)),
                "{policy:?}: an old entry gives way"
            );
        }
    }
}
