//! Pawn structure by bitboard operations, and the pawn hash table that
//! caches it: the structure changes on few moves, so most probes hit.

use crate::hce::{east, forward, front_span, pawn_attacks, rear_fill, rel_rank, west};
use crate::params::{Params, Tapered};
use crate::trace::{at, tap, NoTrace, Tracer};
use fianchetto_board::zobrist;
use fianchetto_board::{Bitboard, Color, Piece, Role};

/// What the pawn structure alone decides: per colour, the `[mg, eg]` value of
/// the structure terms, and the passed pawns (scored later, as their value
/// depends on kings and pieces too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnEntry {
    /// Pawn key of the structure (0 with no pawns at all).
    pub key: u64,
    /// `[white, black]` structure values, each for its own side.
    pub score: [Tapered; 2],
    /// `[white, black]` passed pawns.
    pub passed: [u64; 2],
}

/// The pawn-only Zobrist key: XOR of the board's Zobrist keys of every pawn.
pub fn pawn_key(white_pawns: u64, black_pawns: u64) -> u64 {
    let mut k = 0;
    for (color, pawns) in [(Color::White, white_pawns), (Color::Black, black_pawns)] {
        let piece = Piece::new(color, Role::Pawn);
        for s in Bitboard(pawns) {
            k ^= zobrist::piece(piece, s);
        }
    }
    k
}

/// Scores the pawn structure from scratch.
pub(crate) fn structure(p: &Params, white_pawns: u64, black_pawns: u64) -> PawnEntry {
    structure_with(p, white_pawns, black_pawns, &mut NoTrace)
}

/// [`structure`], telling `tr` which weights count (see [`crate::trace`]);
/// every tracer call sits in an `if T::ON` block.
#[inline(always)]
pub(crate) fn structure_with<T: Tracer>(
    p: &Params,
    white_pawns: u64,
    black_pawns: u64,
    tr: &mut T,
) -> PawnEntry {
    let pawns = [white_pawns, black_pawns];
    let mut e = PawnEntry {
        key: pawn_key(white_pawns, black_pawns),
        ..PawnEntry::default()
    };
    for c in 0..2 {
        let white = c == 0;
        let own = pawns[c];
        let opp = pawns[1 - c];
        let own_att = pawn_attacks(white, own);
        let opp_att = pawn_attacks(!white, opp);
        let own_files = crate::hce::north_fill(own) | crate::hce::south_fill(own);
        let neighbour_files = east(own_files) | west(own_files);
        let mut v = [0; 2];
        for s in Bitboard(own) {
            let s = s.index();
            let b = 1u64 << s;
            let front = front_span(white, b);
            let doubled = front & own != 0;
            if doubled {
                add(&mut v, p.pawn_doubled);
                if T::ON {
                    tap(tr, c, at!(pawn_doubled), 1);
                }
            }
            let isolated = b & neighbour_files == 0;
            if isolated {
                add(&mut v, p.pawn_isolated);
                if T::ON {
                    tap(tr, c, at!(pawn_isolated), 1);
                }
            } else {
                // Backward: every own pawn of the adjacent files is ahead of it.
                let rear = rear_fill(white, b);
                if (east(rear) | west(rear)) & own == 0 {
                    add(&mut v, p.pawn_backward);
                    if T::ON {
                        tap(tr, c, at!(pawn_backward), 1);
                    }
                    if forward(white, b) & opp_att != 0 {
                        add(&mut v, p.pawn_backward_exposed);
                        if T::ON {
                            tap(tr, c, at!(pawn_backward_exposed), 1);
                        }
                    }
                }
            }
            let rr = rel_rank(white, s);
            let chain = b & own_att != 0;
            let phalanx = (east(b) | west(b)) & own != 0;
            if chain {
                add(&mut v, p.pawn_chain);
                if T::ON {
                    tap(tr, c, at!(pawn_chain), 1);
                }
            }
            if phalanx {
                add(&mut v, p.pawn_phalanx);
                if T::ON {
                    tap(tr, c, at!(pawn_phalanx), 1);
                }
            }
            if chain || phalanx {
                add(&mut v, p.pawn_connected[rr]);
                if T::ON {
                    tap(tr, c, at!(pawn_connected) + 2 * rr, 1);
                }
            }
            // Passed: no enemy pawn ahead on its file or the adjacent ones;
            // of doubled pawns only the front one counts.
            let span = front | east(front) | west(front);
            if span & opp == 0 && !doubled {
                e.passed[c] |= b;
            }
        }
        e.score[c] = v;
    }
    e
}

#[inline(always)]
fn add(a: &mut Tapered, v: Tapered) {
    a[0] += v[0];
    a[1] += v[1];
}

/// A direct-mapped cache of pawn structures keyed by [`pawn_key`].
///
/// Entries depend on the [`Params`] they were computed with: clear the table
/// whenever the weights change (the evaluators do it for you).
#[derive(Clone, Debug)]
pub struct PawnTable {
    entries: Vec<PawnEntry>,
    /// The pawns of the last probe and its entry: sibling nodes of a search
    /// mostly share their pawns, and this skips even the key computation.
    last: ([u64; 2], PawnEntry),
    hits: u64,
    probes: u64,
}

impl PawnTable {
    /// The default number of entries (a power of two; ~200 KB).
    pub const DEFAULT_ENTRIES: usize = 4096;

    /// A table of `entries` slots, rounded up to a power of two (at least 1).
    pub fn new(entries: usize) -> PawnTable {
        let n = entries.max(1).next_power_of_two();
        PawnTable {
            entries: vec![PawnEntry::default(); n],
            last: ([0; 2], PawnEntry::default()),
            hits: 0,
            probes: 0,
        }
    }

    /// Forgets every entry (an all-zero entry is the true value of the
    /// pawnless structure, key 0, so an empty slot is never wrong).
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::default());
        self.last = ([0; 2], PawnEntry::default());
        self.hits = 0;
        self.probes = 0;
    }

    /// The structure of these pawns, from the table or computed and stored.
    #[inline]
    pub(crate) fn probe(&mut self, p: &Params, white_pawns: u64, black_pawns: u64) -> PawnEntry {
        self.probes += 1;
        if self.last.0 == [white_pawns, black_pawns] {
            self.hits += 1;
            return self.last.1;
        }
        let key = pawn_key(white_pawns, black_pawns);
        let i = (key as usize) & (self.entries.len() - 1);
        let slot = &mut self.entries[i];
        // The key is 64 bits of the pawns' Zobrist keys; a collision is as
        // unlikely as a transposition-table one, and verifying the bitboards
        // too would double the entry size, so we trust it.
        let e = if slot.key == key {
            self.hits += 1;
            *slot
        } else {
            let e = structure(p, white_pawns, black_pawns);
            *slot = e;
            e
        };
        self.last = ([white_pawns, black_pawns], e);
        e
    }

    /// `(hits, probes)` since the last clear.
    pub fn stats(&self) -> (u64, u64) {
        (self.hits, self.probes)
    }
}

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable::new(Self::DEFAULT_ENTRIES)
    }
}
