//! Legal move generation shared by the array backends (0x88 and 10×12
//! mailbox): walk the side to move's piece list, step along offset vectors,
//! and keep every move legal by construction: king moves are tested for
//! attack with the king lifted off the board, pinned pieces keep to their pin
//! line, and in check only moves to the check's evasion squares are made.
//!
//! What differs between the two boards is behind [`GenGeometry`] (through
//! [`ArrayGen`], implemented once for every [`ArrayBoard`]): how a step
//! off the board shows up (the 0x88 bit test, or the mailbox's sentinel
//! squares), and how attacks, checks and pins are found (the 0x88 attack
//! table over the enemy piece list, or rays scanned out from the king).
//! Everything is monomorphised, so each backend gets its own loop.
//!
//! On the claim (Yepes Barrera) that 0x88 beats the mailbox because its
//! off-board test needs no memory load: the generator reads the destination
//! square anyway (empty, own or enemy?), and the mailbox's sentinel, having
//! both colour bits, folds "off the board" into the own-piece test, so the
//! mailbox pays no extra load at all. Swapping the 0x88 bit test for a load
//! from a 256-byte sentinel table ran 6% more instructions and no slower
//! (Kiwipete perft 5, best of 4: 82 Mnps with the bit test, 86 with the
//! load). What does separate the boards is attack detection: the 0x88 attack
//! table over the enemy piece lists needs about a fifth fewer instructions
//! than the mailbox's ray scans (Kiwipete perft 4: 283M against 345M bulk),
//! yet in perft wall time the two stay within a few per cent of each other.

use crate::sink::{CountSink, ListSink, Sink};
use crate::{GenKind, MoveGen, MoveList};
use fianchetto_board::array::{ArrayBoard, Geometry};
use fianchetto_board::code::{self, EMPTY};
use fianchetto_board::{Board, CastlingSide, Color, Move, MoveKind, Role, Square};

/// Which moves to generate (const parameter): every legal move.
pub(crate) const ALL: u8 = 0;
/// Captures only.
pub(crate) const CAPTURES: u8 = 1;
/// Non-captures only.
pub(crate) const QUIETS: u8 = 2;

/// The pieces of the side to move pinned to its king, each with the step
/// along its pin line.
pub(crate) struct Pins {
    /// Bit `s` set for each pinned piece's array index `s`.
    pub(crate) mask: u128,
    squares: [u8; 8],
    steps: [u8; 8],
    len: usize,
}

impl Pins {
    pub(crate) const NONE: Pins = Pins {
        mask: 0,
        squares: [0; 8],
        steps: [0; 8],
        len: 0,
    };

    /// Records the piece on `s` as pinned along `step` (either sign).
    #[inline(always)]
    pub(crate) fn add(&mut self, s: u8, step: u8) {
        if self.len < 8 {
            self.squares[self.len] = s;
            self.steps[self.len] = step;
            self.len += 1;
            self.mask |= 1u128 << (s & 127);
        }
    }

    /// The pin step of the piece on `s` (0 when it is not pinned).
    #[inline(always)]
    fn step(&self, s: u8) -> u8 {
        if self.len == 0 || self.mask >> (s & 127) & 1 == 0 {
            return 0;
        }
        let n = self.len.min(8);
        for i in 0..n {
            if self.squares[i] == s {
                return self.steps[i];
            }
        }
        0
    }
}

/// What the shared generator needs from an array board.
pub(crate) trait ArrayGen: Board {
    /// Knight jumps as wrapping additions to an array index.
    const KNIGHT: [u8; 8];
    /// King steps.
    const KING: [u8; 8];
    /// Diagonal directions.
    const BISHOP: [u8; 4];
    /// Orthogonal directions.
    const ROOK: [u8; 4];
    /// One rank up (white's pawn step).
    const UP: u8;
    /// An index that is never a square (for "ignore nothing").
    const NO_SQUARE: u8;

    /// The code on index `s`, or [`code::OFF`] when `s` is off the board.
    fn target(&self, s: u8) -> u8;
    /// The indices of `color`'s pieces of `role`.
    fn list(&self, color: Color, role: Role) -> &[u8];
    /// The index of `color`'s king.
    fn king_index(&self, color: Color) -> u8;
    /// The square of an on-board index.
    fn square(s: u8) -> Square;
    /// The index of a square.
    fn index(sq: Square) -> u8;
    /// The rank (0..8) of an on-board index.
    fn rank(s: u8) -> u8;
    /// Whether `by` attacks `t`, with `ignore` seen as empty.
    fn attacked(&self, t: u8, by: Color, ignore: u8) -> bool;
    /// How many pieces give check.
    fn checker_count(&self) -> usize;
    /// With exactly one checker: the bit set of the squares that answer it
    /// (the checker, and for a slider the squares between).
    fn evasion_mask(&self) -> u128;
    /// The pins against the side to move's king.
    fn pins(&self) -> Pins;
    /// The en-passant square, if any.
    fn ep(&self) -> Option<u8>;
    /// Whether the en-passant capture from `from` leaves the king safe
    /// (a direct test on a copy of the array).
    fn ep_is_legal(&self, from: u8, ep: u8) -> bool;
}

/// Whether `s` answers the check (always, when `EVADE` is off: the
/// generator is compiled twice so that the common no-check case tests nothing).
#[inline(always)]
fn in_mask<const EVADE: bool>(mask: u128, s: u8) -> bool {
    !EVADE || mask >> (s & 127) & 1 != 0
}

/// The piece (or four promotions) on `from` to `to`, if `to` is a square of
/// the kind `KIND` wants and in `mask`. `target` is `to`'s code, not own, not off.
#[inline(always)]
fn emit<B: ArrayGen, S: Sink, const KIND: u8, const EVADE: bool>(
    sink: &mut S,
    from: u8,
    to: u8,
    target: u8,
    mask: u128,
) {
    if !in_mask::<EVADE>(mask, to) {
        return;
    }
    if target == EMPTY {
        if KIND != CAPTURES {
            sink.single(Move::new(B::square(from), B::square(to), MoveKind::Quiet));
        }
    } else if KIND != QUIETS {
        sink.single(Move::new(B::square(from), B::square(to), MoveKind::Capture));
    }
}

#[inline(always)]
fn promotions<S: Sink>(sink: &mut S, from: Square, to: Square, capture: bool) {
    for role in [Role::Queen, Role::Knight, Role::Rook, Role::Bishop] {
        if let Some(kind) = MoveKind::promotion(role, capture) {
            sink.single(Move::new(from, to, kind));
        }
    }
}

#[inline(always)]
fn slide<B: ArrayGen, S: Sink, const KIND: u8, const EVADE: bool, const N: usize>(
    b: &B,
    sink: &mut S,
    from: u8,
    dirs: [u8; N],
    pin_step: u8,
    own: u8,
    mask: u128,
) {
    for d in dirs {
        if pin_step != 0 && d != pin_step && d != pin_step.wrapping_neg() {
            continue;
        }
        let mut t = from;
        loop {
            t = t.wrapping_add(d);
            let p = b.target(t);
            if p == EMPTY {
                if KIND != CAPTURES && in_mask::<EVADE>(mask, t) {
                    sink.single(Move::new(B::square(from), B::square(t), MoveKind::Quiet));
                }
                continue;
            }
            // An own piece or the edge (both carry our colour bit) stops the
            // ray; an enemy piece is captured and stops it.
            if p & own == 0 && KIND != QUIETS && in_mask::<EVADE>(mask, t) {
                sink.single(Move::new(B::square(from), B::square(t), MoveKind::Capture));
            }
            break;
        }
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn pawn<B: ArrayGen, S: Sink, const KIND: u8, const EVADE: bool>(
    b: &B,
    sink: &mut S,
    us: Color,
    from: u8,
    pin_step: u8,
    own: u8,
    mask: u128,
) {
    let forward = us.fold(B::UP, B::UP.wrapping_neg());
    let rank = B::rank(from);
    let promotes = rank == us.fold(6, 1);
    let fsq = B::square(from);
    if KIND != CAPTURES
        && (pin_step == 0 || pin_step == forward || pin_step == forward.wrapping_neg())
    {
        let one = from.wrapping_add(forward);
        if b.target(one) == EMPTY {
            if in_mask::<EVADE>(mask, one) {
                if promotes {
                    promotions(sink, fsq, B::square(one), false);
                } else {
                    sink.single(Move::new(fsq, B::square(one), MoveKind::Quiet));
                }
            }
            let two = one.wrapping_add(forward);
            if rank == us.fold(1, 6) && b.target(two) == EMPTY && in_mask::<EVADE>(mask, two) {
                sink.single(Move::new(fsq, B::square(two), MoveKind::DoublePush));
            }
        }
    }
    if KIND != QUIETS {
        for d in [forward.wrapping_add(1), forward.wrapping_sub(1)] {
            if pin_step != 0 && d != pin_step && d != pin_step.wrapping_neg() {
                continue;
            }
            let t = from.wrapping_add(d);
            let p = b.target(t);
            if p == EMPTY || p & own != 0 || !in_mask::<EVADE>(mask, t) {
                continue;
            }
            if promotes {
                promotions(sink, fsq, B::square(t), true);
            } else {
                sink.single(Move::new(fsq, B::square(t), MoveKind::Capture));
            }
        }
    }
}

/// Generates the legal moves of kind `KIND` (ALL, CAPTURES or QUIETS) into
/// `sink`. `ANY_CASTLING` compiles castling for any start files (Chess960);
/// without it, only standard castling rights are understood.
#[inline(always)]
pub(crate) fn generate<B: ArrayGen, S: Sink, const KIND: u8, const ANY_CASTLING: bool>(
    b: &B,
    sink: &mut S,
) {
    let us = b.turn();
    let them = !us;
    let own = code::color_bit(us);
    let k = b.king_index(us);

    // The king: each target is tested with the king lifted off the board, so
    // that it cannot hide behind itself from a slider.
    for d in B::KING {
        let t = k.wrapping_add(d);
        let p = b.target(t);
        if p & own != 0 || (KIND == CAPTURES && p == EMPTY) || (KIND == QUIETS && p != EMPTY) {
            continue;
        }
        if !b.attacked(t, them, k) {
            let kind = if p == EMPTY {
                MoveKind::Quiet
            } else {
                MoveKind::Capture
            };
            sink.single(Move::new(B::square(k), B::square(t), kind));
        }
    }

    match b.checker_count() {
        0 => pieces::<B, S, KIND, false>(b, sink, us, !0),
        1 => pieces::<B, S, KIND, true>(b, sink, us, b.evasion_mask()),
        _ => return,
    }

    if KIND != QUIETS {
        if let Some(ep) = b.ep() {
            let forward = us.fold(B::UP, B::UP.wrapping_neg());
            let pawn = code::of(us, Role::Pawn);
            let behind = ep.wrapping_sub(forward);
            for from in [behind.wrapping_add(1), behind.wrapping_sub(1)] {
                if b.target(from) == pawn && b.ep_is_legal(from, ep) {
                    sink.single(Move::new(
                        B::square(from),
                        B::square(ep),
                        MoveKind::EnPassant,
                    ));
                }
            }
        }
    }

    if KIND != CAPTURES && b.checker_count() == 0 {
        let rights = b.castling();
        if ANY_CASTLING {
            castling_960(b, sink, us);
            return;
        }
        // The right implies king and rook on their home squares; the squares
        // between must be empty and those the king crosses unattacked.
        if rights.has(us, CastlingSide::King) {
            let (f, g) = (k.wrapping_add(1), k.wrapping_add(2));
            if b.target(f) == EMPTY
                && b.target(g) == EMPTY
                && !b.attacked(f, them, B::NO_SQUARE)
                && !b.attacked(g, them, B::NO_SQUARE)
            {
                sink.single(Move::new(B::square(k), B::square(g), MoveKind::KingCastle));
            }
        }
        if rights.has(us, CastlingSide::Queen) {
            let (d, c, bsq) = (k.wrapping_sub(1), k.wrapping_sub(2), k.wrapping_sub(3));
            if b.target(d) == EMPTY
                && b.target(c) == EMPTY
                && b.target(bsq) == EMPTY
                && !b.attacked(d, them, B::NO_SQUARE)
                && !b.attacked(c, them, B::NO_SQUARE)
            {
                sink.single(Move::new(B::square(k), B::square(c), MoveKind::QueenCastle));
            }
        }
    }
}

/// [`generate`] for a position whose castling rights are not all standard
/// ones: apart, so that the standard game's code stays as it was.
#[inline(never)]
fn generate_any<B: ArrayGen, S: Sink>(b: &B, kind: GenKind, sink: &mut S) {
    match kind {
        GenKind::All => generate::<B, S, ALL, true>(b, sink),
        GenKind::Captures => generate::<B, S, CAPTURES, true>(b, sink),
        GenKind::Quiets => generate::<B, S, QUIETS, true>(b, sink),
    }
}

/// The number of legal moves of a position whose castling rights are not
/// all standard ones.
#[inline(never)]
fn count_any<B: ArrayGen>(b: &B) -> u64 {
    let mut sink = CountSink(0);
    generate::<B, CountSink, ALL, true>(b, &mut sink);
    sink.0
}

/// Castling for any start files (Chess960): the squares the king and rook
/// cross or land on empty but for the two of them, and none of the king's
/// squares attacked with the castling rook taken as empty (it may shield
/// the king's destination along the back rank). Not called in check.
#[inline(always)]
fn castling_960<B: ArrayGen, S: Sink>(b: &B, sink: &mut S, us: Color) {
    for side in CastlingSide::ALL {
        let Some(path) = b.castling().path(us, side) else {
            continue;
        };
        let rook = B::index(path.rook_from);
        if path.empty.iter().all(|sq| b.target(B::index(sq)) == EMPTY)
            && path
                .king_path
                .iter()
                .all(|sq| !b.attacked(B::index(sq), !us, rook))
        {
            sink.single(Move::new(
                path.king_from,
                path.king_to,
                MoveKind::castle(side),
            ));
        }
    }
}

/// Every piece but the king, kind by kind; with `EVADE`, only moves to the
/// squares of `mask` (those that answer the single check).
#[inline(always)]
fn pieces<B: ArrayGen, S: Sink, const KIND: u8, const EVADE: bool>(
    b: &B,
    sink: &mut S,
    us: Color,
    mask: u128,
) {
    let own = code::color_bit(us);
    let pins = b.pins();
    for &from in b.list(us, Role::Pawn) {
        pawn::<B, S, KIND, EVADE>(b, sink, us, from, pins.step(from), own, mask);
    }
    for &from in b.list(us, Role::Knight) {
        // A pinned knight can never stay on its pin line.
        if pins.step(from) != 0 {
            continue;
        }
        for d in B::KNIGHT {
            let t = from.wrapping_add(d);
            let p = b.target(t);
            if p & own == 0 {
                emit::<B, S, KIND, EVADE>(sink, from, t, p, mask);
            }
        }
    }
    for &from in b.list(us, Role::Bishop) {
        slide::<B, S, KIND, EVADE, 4>(b, sink, from, B::BISHOP, pins.step(from), own, mask);
    }
    for &from in b.list(us, Role::Rook) {
        slide::<B, S, KIND, EVADE, 4>(b, sink, from, B::ROOK, pins.step(from), own, mask);
    }
    for &from in b.list(us, Role::Queen) {
        let pin_step = pins.step(from);
        slide::<B, S, KIND, EVADE, 4>(b, sink, from, B::BISHOP, pin_step, own, mask);
        slide::<B, S, KIND, EVADE, 4>(b, sink, from, B::ROOK, pin_step, own, mask);
    }
}

/// What the generator needs from an array geometry beyond the board crate's
/// [`Geometry`]: what a step off the board reads as, the rank of an index,
/// and how the check's evasion squares and the pins are found.
pub(crate) trait GenGeometry: Geometry {
    /// The code on index `s`, or [`code::OFF`] when `s` is off the board.
    fn target(b: &ArrayBoard<Self>, s: u8) -> u8;
    /// The rank (0..8) of an on-board index.
    fn rank(s: u8) -> u8;
    /// With exactly one checker: the bit set of the squares that answer it
    /// (the checker, and for a slider the squares between).
    fn evasion_mask(b: &ArrayBoard<Self>) -> u128;
    /// The pins against the side to move's king.
    fn pins(b: &ArrayBoard<Self>) -> Pins;
}

impl<G: GenGeometry> ArrayGen for ArrayBoard<G> {
    const KNIGHT: [u8; 8] = G::KNIGHT_STEPS;
    const KING: [u8; 8] = G::KING_STEPS;
    const BISHOP: [u8; 4] = G::BISHOP_STEPS;
    const ROOK: [u8; 4] = G::ROOK_STEPS;
    const UP: u8 = G::UP;
    const NO_SQUARE: u8 = G::NO_SQUARE;

    #[inline(always)]
    fn target(&self, s: u8) -> u8 {
        G::target(self, s)
    }

    #[inline(always)]
    fn list(&self, color: Color, role: Role) -> &[u8] {
        self.piece_list(color, role)
    }

    #[inline(always)]
    fn king_index(&self, color: Color) -> u8 {
        ArrayBoard::king_index(self, color)
    }

    #[inline(always)]
    fn square(s: u8) -> Square {
        G::to_square(s)
    }

    #[inline(always)]
    fn index(sq: Square) -> u8 {
        G::from_square(sq)
    }

    #[inline(always)]
    fn rank(s: u8) -> u8 {
        G::rank(s)
    }

    #[inline(always)]
    fn attacked(&self, t: u8, by: Color, ignore: u8) -> bool {
        self.attacked_on(self.array_squares(), t, by, ignore)
    }

    #[inline(always)]
    fn checker_count(&self) -> usize {
        self.checker_squares().len()
    }

    #[inline(always)]
    fn evasion_mask(&self) -> u128 {
        G::evasion_mask(self)
    }

    #[inline(always)]
    fn pins(&self) -> Pins {
        G::pins(self)
    }

    #[inline(always)]
    fn ep(&self) -> Option<u8> {
        let ep = self.ep_index();
        (ep != G::NO_SQUARE).then_some(ep)
    }

    fn ep_is_legal(&self, from: u8, ep: u8) -> bool {
        let us = self.turn();
        let victim = ep.wrapping_sub(us.fold(G::UP, G::UP.wrapping_neg()));
        let mut squares = *self.array_squares();
        squares[(from & 0x7f) as usize] = EMPTY;
        squares[(victim & 0x7f) as usize] = EMPTY;
        squares[(ep & 0x7f) as usize] = code::of(us, Role::Pawn);
        // The attack test reads the copied array, where the captured pawn is
        // gone and ours stands on the ep square; the piece lists are unchanged.
        !self.attacked_on(
            &squares,
            ArrayBoard::king_index(self, us),
            !us,
            G::NO_SQUARE,
        )
    }
}

impl<G: GenGeometry> MoveGen for ArrayBoard<G> {
    #[inline]
    fn generate(&self, kind: GenKind, list: &mut MoveList) {
        let mut sink = ListSink(list);
        if !self.castling().is_standard() {
            return generate_any(self, kind, &mut sink);
        }
        match kind {
            GenKind::All => generate::<_, _, { ALL }, false>(self, &mut sink),
            GenKind::Captures => generate::<_, _, { CAPTURES }, false>(self, &mut sink),
            GenKind::Quiets => generate::<_, _, { QUIETS }, false>(self, &mut sink),
        }
    }

    #[inline]
    fn count_legal(&self) -> u64 {
        if !self.castling().is_standard() {
            // Its own counter: one whose address escapes into a call would
            // be kept in memory, costing every standard count a store.
            return count_any(self);
        }
        let mut sink = CountSink(0);
        generate::<_, _, { ALL }, false>(self, &mut sink);
        sink.0
    }
}
