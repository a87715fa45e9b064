//! The search's memory of what worked: history tables for move ordering,
//! reductions and pruning, and the pawn-structure correction history that
//! corrects the static evaluation.
//!
//! Every history entry moves by the "gravity" update: a bonus `b` changes
//! an entry `h` by `b − h·|b| / MAX`, so an entry approaches ±`MAX` but never
//! passes it (for |b| ≤ `MAX`), and old information fades as new arrives.
//!
//! - Butterfly history, `[side][from threatened][to threatened][from][to]`:
//!   quiet moves that caused cutoffs, told apart by whether the opponent
//!   attacks their from and to squares (with the `history-extras` switch).
//! - Pawn history, `[pawn structure][piece, to]`: quiet moves that worked in
//!   the same pawn structure (with `history-extras`).
//! - Continuation history, `[piece, to of an earlier move][piece, to of this
//!   move]`: how good a quiet move is as a reply to the move 1, 2 or 4
//!   plies before it (the "counter-move" and "follow-up" histories
//!   generalised).
//! - Capture history, `[piece][to][captured role]`: which captures caused
//!   cutoffs, to order captures of equal victims.
//! - Correction histories (`Correction`): the average difference between
//!   the search's result and the static evaluation in positions of the same
//!   pawn structure, the same pieces of one colour, the same minor or major
//!   pieces, or after the same two moves; added to later static evaluations.

use super::params::SearchParams;
use arrayvec::ArrayVec;
use fianchetto_board::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use fianchetto_board::{Bitboard, Board, Color, Move, Piece, Role};

/// History entries stay within ±this.
pub const HISTORY_MAX: i32 = 16_384;

/// The number of correction-history entries per side (a power of two).
pub const CORR_SIZE: usize = 16_384;

/// `piece index × 64 + square`: the index of a (piece, to-square) pair in the
/// continuation history.
pub const PIECE_TO: usize = 12 * 64;

/// A continuation-history row: one earlier (piece, to) pair's table of
/// replies.
pub type ContRow = [i16; PIECE_TO];

/// The number of pawn-history rows (a power of two): pawn structures share
/// rows by their key.
pub const PAWN_HISTORY_SIZE: usize = 512;

/// A butterfly table: `[from threatened][to threatened][from][to]`.
pub type Butterfly = [[[[i16; 64]; 64]; 2]; 2];

/// Per-thread move-ordering memory, kept between searches (cleared by
/// [`crate::Search::clear`]).
pub(crate) struct Tables {
    /// Butterfly history: `[side]` of [`Butterfly`] tables. Without the
    /// `history-extras` switch only the unthreatened quarter is used.
    pub history: Box<[Butterfly; 2]>,
    /// Pawn history, `[pawn key % PAWN_HISTORY_SIZE][piece-to]`: quiet
    /// moves that worked in a pawn structure (`history-extras`).
    pub pawn: Box<[ContRow]>,
    /// Counter moves: `[piece][to]` of the previous move.
    pub counters: [[Move; 64]; 12],
    /// Capture history: `[piece][to][captured role]`.
    pub captures: [[[i16; 6]; 64]; 12],
    /// Continuation history: `[earlier move's piece-to][this piece-to]`.
    pub cont: Box<[ContRow]>,
    /// The correction histories of the static evaluation.
    pub corr: Correction,
}

/// The correction histories: how far the search's results have been from
/// the static evaluation, remembered by what the positions share. Each table
/// is indexed by the side to move and a key of some of the pieces, except
/// the continuation table, indexed by the last two moves (their pieces
/// carry the side). All learn from the same results, each towards what the
/// static evaluation, corrected by all of them, still missed; the
/// correction is their weighted sum ([`SearchParams`]'s `corr_*_weight`).
pub(crate) struct Correction {
    /// `[side][pawn key % CORR_SIZE]`: the pawn structure.
    pub pawn: Box<[[i16; CORR_SIZE]]>,
    /// `[side × 2 + colour][key % CORR_SIZE]`: one colour's pieces other
    /// than pawns (king included), for each colour.
    pub non_pawn: Box<[[i16; CORR_SIZE]]>,
    /// `[side][key % CORR_SIZE]`: both colours' knights, bishops and kings.
    pub minor: Box<[[i16; CORR_SIZE]]>,
    /// `[side][key % CORR_SIZE]`: both colours' rooks, queens and kings.
    pub major: Box<[[i16; CORR_SIZE]]>,
    /// `[piece-to two plies back][piece-to one ply back]`: the last two
    /// moves.
    pub cont: Box<[ContRow]>,
}

impl Correction {
    fn new() -> Correction {
        let rows = |n: usize| vec![[0i16; CORR_SIZE]; n].into_boxed_slice();
        Correction {
            pawn: rows(2),
            non_pawn: rows(4),
            minor: rows(2),
            major: rows(2),
            cont: vec![[0i16; PIECE_TO]; PIECE_TO].into_boxed_slice(),
        }
    }
}

/// Where a position's entries lie in the [`Correction`] tables other than
/// the continuation one: `(row, slot)` pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CorrSlots {
    pub pawn: (usize, usize),
    pub non_pawn: [(usize, usize); 2],
    pub minor: (usize, usize),
    pub major: (usize, usize),
}

impl CorrSlots {
    /// The slots of `board`; `pieces` says whether the piece tables are in
    /// use (their keys cost a few multiplications).
    #[inline]
    pub fn of<B: Board>(board: &B, pieces: bool) -> CorrSlots {
        let side = board.turn().index();
        let slot = |key: u64| (key as usize) & (CORR_SIZE - 1);
        let pawn = (side, slot(pawn_key(board)));
        if !pieces {
            return CorrSlots {
                pawn,
                non_pawn: [(0, 0); 2],
                minor: (0, 0),
                major: (0, 0),
            };
        }
        let bb = |c: Color, r: Role| board.pieces(c, r).0;
        let non_pawn = |c: Color| {
            pieces_key(&[
                bb(c, Role::Knight),
                bb(c, Role::Bishop),
                bb(c, Role::Rook),
                bb(c, Role::Queen),
                bb(c, Role::King),
            ])
        };
        let (w, b) = (Color::White, Color::Black);
        // Both colours' pieces of two roles, with the kings.
        let both = |x: Role, y: Role| {
            pieces_key(&[
                bb(w, x),
                bb(w, y),
                bb(w, Role::King),
                bb(b, x),
                bb(b, y),
                bb(b, Role::King),
            ])
        };
        CorrSlots {
            pawn,
            non_pawn: [
                (side * 2, slot(non_pawn(w))),
                (side * 2 + 1, slot(non_pawn(b))),
            ],
            minor: (side, slot(both(Role::Knight, Role::Bishop))),
            major: (side, slot(both(Role::Rook, Role::Queen))),
        }
    }
}

/// Odd multipliers that tell the bitboards of [`pieces_key`] apart.
const PIECE_KEY_MULTIPLIERS: [u64; 6] = [
    0x9e37_79b9_7f4a_7c15,
    0xbf58_476d_1ce4_e5b9,
    0x94d0_49bb_1331_11eb,
    0xd6e8_feb8_6659_fd93,
    0xa076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db,
];

/// A hash of up to six bitboards: one multiplication each and one mix
/// (cheaper than mixing each, and as good for a table index).
#[inline]
fn pieces_key(bbs: &[u64]) -> u64 {
    let sum = bbs
        .iter()
        .zip(PIECE_KEY_MULTIPLIERS)
        .fold(0u64, |h, (&b, k)| h.wrapping_add(b.wrapping_mul(k)));
    mix(sum)
}

impl Tables {
    /// Empty tables (allocated on the heap: the continuation history and
    /// its correction twin are 1.2 MB each).
    pub fn new() -> Box<Tables> {
        Box::new(Tables {
            history: vec![[[[[0i16; 64]; 64]; 2]; 2]; 2]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("two tables were made")),
            pawn: vec![[0i16; PIECE_TO]; PAWN_HISTORY_SIZE].into_boxed_slice(),
            counters: [[Move::NULL; 64]; 12],
            captures: [[[0; 6]; 64]; 12],
            cont: vec![[0i16; PIECE_TO]; PIECE_TO].into_boxed_slice(),
            corr: Correction::new(),
        })
    }

    /// Where the capture-history entry of `mv` lies (`None` for a move
    /// that captures nothing).
    #[inline]
    fn capture_index<B: Board>(board: &B, mv: Move) -> Option<(usize, usize, usize)> {
        let piece = board.piece_at(mv.from())?;
        let victim = captured_role(board, mv)?;
        Some((piece.index(), mv.to().index(), victim.index()))
    }

    /// The capture history of `mv` on `board` (0 for a move that captures
    /// nothing). Move ordering, pruning and reductions all read this.
    #[inline]
    pub fn capture<B: Board>(&self, board: &B, mv: Move) -> i32 {
        Self::capture_index(board, mv).map_or(0, |(p, to, v)| i32::from(self.captures[p][to][v]))
    }

    /// The gravity update of the capture history of `mv` on `board`.
    #[inline]
    pub fn update_capture<B: Board>(&mut self, board: &B, mv: Move, bonus: i32) {
        if let Some((p, to, v)) = Self::capture_index(board, mv) {
            gravity(&mut self.captures[p][to][v], bonus);
        }
    }

    /// Where the butterfly entry of `mv` for `side` lies: side, whether its
    /// from and to squares are among `threats`, from, to.
    #[inline]
    fn butterfly_index(side: Color, mv: Move, threats: Bitboard) -> [usize; 5] {
        let [f, t, from, to] = side_butterfly_index(mv, threats);
        [side.index(), f, t, from, to]
    }

    /// The history of a quiet move: butterfly plus, where `ctx` has them,
    /// the continuation histories and the pawn history. `side` plays `mv`,
    /// whose piece-to index is `pt`. Reductions and pruning read this sum;
    /// move ordering scores a node's moves with a [`QuietScorer`].
    #[inline]
    pub fn quiet(&self, side: Color, mv: Move, pt: Option<u16>, ctx: &QuietContext) -> i32 {
        self.quiet_scorer(side, ctx, 1).score(mv, pt)
    }

    /// The scorer of `side`'s quiet moves in the node of `ctx`, with the
    /// pawn history counted `pawn_weight` times (twice in the move order,
    /// with `history-extras`).
    #[inline]
    pub fn quiet_scorer<'a>(
        &'a self,
        side: Color,
        ctx: &QuietContext,
        pawn_weight: i32,
    ) -> QuietScorer<'a> {
        QuietScorer {
            butterfly: &self.history[side.index()],
            threats: ctx.threats,
            cont: ctx
                .cont
                .iter()
                .flatten()
                .map(|&prev| &self.cont[prev as usize])
                .collect(),
            pawn: ctx.pawn_row.map(|row| &self.pawn[row]),
            pawn_weight,
        }
    }

    /// The gravity update of the continuation histories alone.
    #[inline]
    pub fn update_cont(&mut self, pt: u16, ctx: &QuietContext, bonus: i32) {
        for prev in ctx.cont.iter().flatten() {
            gravity(&mut self.cont[*prev as usize][pt as usize], bonus);
        }
    }

    /// The gravity update of the butterfly history alone.
    #[inline]
    pub fn update_butterfly(&mut self, side: Color, mv: Move, threats: Bitboard, bonus: i32) {
        let [c, f, t, from, to] = Self::butterfly_index(side, mv, threats);
        gravity(&mut self.history[c][f][t][from][to], bonus);
    }

    /// The gravity update of every history [`Tables::quiet`] reads.
    #[inline]
    pub fn update_quiet(
        &mut self,
        side: Color,
        mv: Move,
        pt: Option<u16>,
        ctx: &QuietContext,
        bonus: i32,
    ) {
        let [c, f, t, from, to] = Self::butterfly_index(side, mv, ctx.threats);
        gravity(&mut self.history[c][f][t][from][to], bonus);
        if let Some(pt) = pt {
            self.update_cont(pt, ctx, bonus);
            if let Some(row) = ctx.pawn_row {
                gravity(&mut self.pawn[row][pt as usize], bonus);
            }
        }
    }
}

/// The histories of one node's quiet moves, their rows looked up once for
/// the node (the move picker scores every quiet move with one): the side's
/// butterfly table and the continuation and pawn history rows its
/// [`QuietContext`] names, each with its weight.
pub(crate) struct QuietScorer<'a> {
    butterfly: &'a Butterfly,
    threats: Bitboard,
    cont: ArrayVec<&'a ContRow, 3>,
    pawn: Option<&'a ContRow>,
    pawn_weight: i32,
}

impl QuietScorer<'_> {
    /// The weighted history of `mv`, whose piece-to index is `pt` (without
    /// one, the butterfly history alone).
    #[inline]
    pub fn score(&self, mv: Move, pt: Option<u16>) -> i32 {
        let [f, t, from, to] = side_butterfly_index(mv, self.threats);
        let mut s = self.butterfly[f][t][from][to] as i32;
        if let Some(pt) = pt {
            let pt = pt as usize;
            for row in &self.cont {
                s += row[pt] as i32;
            }
            if let Some(row) = self.pawn {
                s += self.pawn_weight * row[pt] as i32;
            }
        }
        s
    }
}

/// Where the entry of `mv` lies in one side's [`Butterfly`] table: whether
/// its from and to squares are among `threats`, from, to.
#[inline]
fn side_butterfly_index(mv: Move, threats: Bitboard) -> [usize; 4] {
    let (from, to) = (mv.from(), mv.to());
    [
        usize::from(threats.contains(from)),
        usize::from(threats.contains(to)),
        from.index(),
        to.index(),
    ]
}

/// What a quiet move's history is looked up by besides the move itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct QuietContext {
    /// The piece-to indices (continuation-history rows) of the moves 1, 2
    /// and 4 plies back, where known.
    pub cont: [Option<u16>; 3],
    /// The squares the opponent attacks (`history-extras`; empty without).
    pub threats: Bitboard,
    /// The squares the opponent attacks with pieces worth less than each of
    /// ours ([`threats_by_lesser`]), where the node found them
    /// (`history-extras`; the move picker finds them itself without).
    pub by_lesser: Option<[Bitboard; 6]>,
    /// The pawn-history row of the position (`history-extras`).
    pub pawn_row: Option<usize>,
}

impl QuietContext {
    /// No context: the butterfly history alone.
    pub const NONE: QuietContext = QuietContext {
        cont: [None; 3],
        threats: Bitboard::EMPTY,
        by_lesser: None,
        pawn_row: None,
    };
}

/// The squares the side not to move attacks with pieces worth less than
/// each of ours, by our role's index (knight and bishop: its pawns; rook:
/// pawns and minor pieces; queen: pawns, minor pieces and rooks; pawn and
/// king: none): a piece of ours standing there can be won.
pub fn threats_by_lesser<B: Board>(board: &B) -> [Bitboard; 6] {
    let them = !board.turn();
    let occupied = board.occupied();
    let pawns = board.pieces(them, Role::Pawn);
    let forward = match them {
        Color::White => pawns.north(),
        Color::Black => pawns.south(),
    };
    let by_pawn = forward.east() | forward.west();
    let mut by_minor = by_pawn;
    for sq in board.pieces(them, Role::Knight).iter() {
        by_minor |= knight_attacks(sq);
    }
    for sq in board.pieces(them, Role::Bishop).iter() {
        by_minor |= bishop_attacks(sq, occupied);
    }
    let mut by_rook = by_minor;
    for sq in board.pieces(them, Role::Rook).iter() {
        by_rook |= rook_attacks(sq, occupied);
    }
    let none = Bitboard::EMPTY;
    [none, by_pawn, by_pawn, by_minor, by_rook, none]
}

/// The squares the side not to move attacks (its pawns, pieces and king,
/// through the current occupancy).
#[inline]
pub fn threats<B: Board>(board: &B) -> Bitboard {
    threats_beyond(board, &threats_by_lesser(board))
}

/// [`threats`] from the maps of [`threats_by_lesser`] already found: their
/// queen's entry holds every attack of pawns, minor pieces and rooks, so
/// only the queens' and the king's are added.
#[inline]
pub fn threats_beyond<B: Board>(board: &B, by_lesser: &[Bitboard; 6]) -> Bitboard {
    let them = !board.turn();
    let occupied = board.occupied();
    let mut t = by_lesser[Role::Queen.index()];
    for sq in board.pieces(them, Role::Queen).iter() {
        t |= bishop_attacks(sq, occupied) | rook_attacks(sq, occupied);
    }
    t | king_attacks(board.king(them))
}

/// The gravity update of one entry (see the module documentation).
#[inline]
pub fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let h = *entry as i32;
    let next = h + bonus - h * bonus.abs() / HISTORY_MAX;
    *entry = next.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// Moves a correction-history entry towards `diff` centipawns (the
/// search's result minus the static evaluation) by a weight that grows with
/// `depth`: at most 16/256 of the way per update at the default
/// `corr_weight_mult` (the published scale, `min(depth + 1, 16)` out of
/// 256), so that one deep search does not overwrite what many searches of
/// the same pawn structure learnt.
#[inline]
pub(crate) fn correction_update(entry: &mut i16, diff: i32, depth: i32, p: &SearchParams) {
    let target = diff.clamp(-1000, 1000) * p.corr_grain;
    let w = ((depth + 1).min(16) * p.corr_weight_mult / 16).clamp(1, 256);
    let next = (*entry as i32 * (256 - w) + target * w) / 256;
    *entry = next.clamp(-p.corr_max, p.corr_max).clamp(-32_000, 32_000) as i16;
}

/// The piece-to index of `mv` on `board` (before it is played), `None` for
/// a null move or an empty from-square.
#[inline]
pub fn piece_to<B: Board>(board: &B, mv: Move) -> Option<u16> {
    if mv.is_null() {
        return None;
    }
    board.piece_at(mv.from()).map(|p| piece_to_index(p, mv))
}

/// The piece-to index of `piece` playing `mv` (see [`piece_to`]).
#[inline]
pub fn piece_to_index(piece: Piece, mv: Move) -> u16 {
    (piece.index() * 64 + mv.to().index()) as u16
}

/// The role a capture takes (a pawn for en passant, `None` for a
/// non-capture).
#[inline]
pub fn captured_role<B: Board>(board: &B, mv: Move) -> Option<Role> {
    if mv.is_en_passant() {
        Some(Role::Pawn)
    } else if mv.is_capture() {
        board.piece_at(mv.to()).map(|p| p.role)
    } else {
        None
    }
}

/// A hash of the pawn structure alone (both colours' pawn bitboards): the
/// boards have no incremental pawn key, and two multiplications cost less
/// than keeping one up to date.
#[inline]
pub fn pawn_key<B: Board>(board: &B) -> u64 {
    let white = board.pieces(Color::White, Role::Pawn).0;
    let black = board.pieces(Color::Black, Role::Pawn).0;
    mix(white ^ mix(black ^ 0x9e37_79b9_7f4a_7c15))
}

/// A 64-bit finaliser (the murmur3 / splitmix mixing constants).
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{Bitboards, Square};

    #[test]
    fn threats_are_the_opponents_attacks() {
        let b = Bitboards::from_fen("4k3/8/8/3p4/8/8/8/R3K1n1 w - - 0 1").unwrap();
        let t = threats(&b);
        // Black's pawn on d5 takes on c4 and e4; its knight on g1 reaches e2,
        // f3 and h3; its king guards d7..f8.
        for sq in [
            Square::C4,
            Square::E4,
            Square::E2,
            Square::F3,
            Square::H3,
            Square::D7,
        ] {
            assert!(t.contains(sq), "{sq}");
        }
        // White's own attacks are not threats.
        assert!(!t.contains(Square::A8) && !t.contains(Square::D6));
        let mut tables = Tables::new();
        let mv = Move::new(Square::E1, Square::E2, fianchetto_board::MoveKind::Quiet);
        let ctx = QuietContext {
            threats: t,
            ..QuietContext::NONE
        };
        tables.update_quiet(Color::White, mv, None, &ctx, 1000);
        // The entry under threat learnt; the unthreatened one did not.
        assert!(tables.quiet(Color::White, mv, None, &ctx) > 0);
        assert_eq!(tables.quiet(Color::White, mv, None, &QuietContext::NONE), 0);
    }

    #[test]
    fn continuation_entries_learn_the_whole_bonus() {
        use fianchetto_board::MoveKind;
        let mv = Move::new(Square::G1, Square::F3, MoveKind::Quiet);
        let pt = piece_to_index(Piece::new(Color::White, Role::Knight), mv) as usize;
        let cont = [Some(7), None, Some(9)];
        let mut tables = Tables::new();
        let ctx = QuietContext {
            cont,
            ..QuietContext::NONE
        };
        // From zero, gravity adds the bonus whole.
        tables.update_cont(pt as u16, &ctx, 1024);
        assert_eq!(tables.cont[7][pt], 1024);
        assert_eq!(tables.cont[9][pt], 1024);
        assert_eq!(tables.cont[8][pt], 0);
        // The malus takes it back (gravity leaves a little).
        tables.update_cont(pt as u16, &ctx, -1024);
        assert!(tables.cont[7][pt].abs() < 100);
    }

    #[test]
    fn the_quiet_scorer_weighs_each_history() {
        use fianchetto_board::MoveKind;
        let mut tables = Tables::new();
        let mv = Move::new(Square::G1, Square::F3, MoveKind::Quiet);
        let pt = piece_to_index(Piece::new(Color::White, Role::Knight), mv);
        let ctx = QuietContext {
            cont: [Some(7), None, Some(300)],
            pawn_row: Some(5),
            ..QuietContext::NONE
        };
        // Distinct values in each table, so that a weight applied to the
        // wrong one shows.
        tables.history[0][0][0][Square::G1.index()][Square::F3.index()] = 100;
        tables.cont[7][pt as usize] = 20;
        tables.cont[300][pt as usize] = 3;
        tables.pawn[5][pt as usize] = 1_000;
        let side = Color::White;
        assert_eq!(tables.quiet(side, mv, Some(pt), &ctx), 1_123);
        let score = |p| tables.quiet_scorer(side, &ctx, p).score(mv, Some(pt));
        assert_eq!(score(1), 1_123);
        assert_eq!(score(2), 2_123);
        // Without a piece-to index, the butterfly history alone.
        assert_eq!(tables.quiet_scorer(side, &ctx, 2).score(mv, None), 100);
        // The other side's butterfly table is apart.
        assert_eq!(tables.quiet(Color::Black, mv, Some(pt), &ctx), 1_023);
    }

    #[test]
    fn threats_by_lesser_pieces_rank_the_attackers() {
        // Black: pawn d5 (takes c4, e4), knight g1 (e2, f3, h3), bishop a6
        // (along b5..f1), rook h8 (the h-file and the eighth rank), queen
        // a1 and king e8 (neither counts: not lesser than any piece).
        let b = Bitboards::from_fen("4k2r/8/b7/3p4/8/8/8/q3K1n1 w - - 0 1").unwrap();
        let t = threats_by_lesser(&b);
        let [pawn, knight, bishop, rook, queen, king] = t.map(|bb| bb);
        assert!(pawn.is_empty() && king.is_empty());
        assert_eq!(knight, bishop);
        assert!(knight.contains(Square::C4) && knight.contains(Square::E4));
        assert!(
            !knight.contains(Square::F3),
            "a knight's attack is no pawn's"
        );
        assert!(
            rook.contains(Square::F3) && rook.contains(Square::C4) && rook.contains(Square::F1)
        );
        assert!(
            !rook.contains(Square::H5),
            "the rook's file is not a minor's"
        );
        assert!(queen.contains(Square::H5) && queen.contains(Square::E4));
        assert!(
            !queen.contains(Square::B1),
            "the queen's own rank is not lesser"
        );
    }

    #[test]
    fn piece_keys_depend_on_their_pieces_only() {
        let slots = |fen: &str| CorrSlots::of(&Bitboards::from_fen(fen).unwrap(), true);
        let a = slots("r3k3/pp6/8/8/8/8/PP6/1N2K3 w - - 0 1");
        // Other pawns: only the pawn slot moves.
        let b = slots("r3k3/1p6/p7/8/8/8/PP6/1N2K3 w - - 0 1");
        assert_ne!(a.pawn, b.pawn);
        assert_eq!(
            (a.non_pawn, a.minor, a.major),
            (b.non_pawn, b.minor, b.major)
        );
        // The knight moved: white's non-pawn and the minor slot move, black's
        // non-pawn and the major slot stay.
        let c = slots("r3k3/pp6/8/8/8/2N5/PP6/4K3 w - - 0 1");
        assert_ne!(a.non_pawn[0], c.non_pawn[0]);
        assert_eq!(a.non_pawn[1], c.non_pawn[1]);
        assert_ne!(a.minor, c.minor);
        assert_eq!((a.pawn, a.major), (c.pawn, c.major));
        // Black to move: the same keys in the other side's rows.
        let d = slots("r3k3/pp6/8/8/8/8/PP6/1N2K3 b - - 0 1");
        assert_eq!(d.pawn, (1, a.pawn.1));
        assert_eq!(d.non_pawn, [(2, a.non_pawn[0].1), (3, a.non_pawn[1].1)]);
        assert_eq!((d.minor.1, d.major.1), (a.minor.1, a.major.1));
    }

    #[test]
    fn gravity_stays_in_bounds() {
        let mut rng = 0x1234_5678_u64;
        let mut e = 0i16;
        for i in 0..100_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Bonuses beyond the maximum are clamped too.
            let b = (rng % 70_000) as i32 - 35_000;
            gravity(&mut e, b);
            assert!((e as i32).abs() <= HISTORY_MAX, "step {i}: {e}");
        }
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, HISTORY_MAX);
        }
        assert_eq!(e as i32, HISTORY_MAX);
        for _ in 0..1000 {
            gravity(&mut e, -HISTORY_MAX);
        }
        assert_eq!(e as i32, -HISTORY_MAX);
    }

    #[test]
    fn correction_learns_at_the_published_rate() {
        // The tuned default stays near the published rate, 16 (the defect
        // was 256: an entry overwritten whole by one deep update).
        let tuned = SearchParams::default().corr_weight_mult;
        assert!((8..=32).contains(&tuned), "{tuned}");
        let p = SearchParams {
            corr_weight_mult: 16,
            ..SearchParams::default()
        };
        // One deep update moves an empty entry 16/256 of the way to a
        // difference of 100 cp (it was 256/256: the whole way).
        let mut e = 0i16;
        correction_update(&mut e, 100, 30, &p);
        assert_eq!(e as i32, 100 * p.corr_grain * 16 / 256);
        // A shallow one moves it less.
        let mut shallow = 0i16;
        correction_update(&mut shallow, 100, 2, &p);
        assert_eq!(shallow as i32, 100 * p.corr_grain * 3 / 256);
        // Repeated updates converge to the difference, within the cap.
        for _ in 0..500 {
            correction_update(&mut e, 20, 10, &p);
        }
        assert!(((e as i32) / p.corr_grain - 20).abs() <= 1, "{e}");
        for _ in 0..500 {
            correction_update(&mut e, 1000, 10, &p);
        }
        assert_eq!(e as i32, p.corr_max);
    }

    #[test]
    fn pawn_key_depends_on_pawns_only() {
        let a = Bitboards::from_fen("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1").unwrap();
        let b = Bitboards::from_fen("3qk3/pp6/8/8/8/8/PP6/R3K3 b - - 0 1").unwrap();
        let c = Bitboards::from_fen("4k3/pp6/8/8/8/P7/1P6/4K3 w - - 0 1").unwrap();
        let flipped = Bitboards::from_fen("4k3/PP6/8/8/8/8/pp6/4K3 w - - 0 1").unwrap();
        assert_eq!(pawn_key(&a), pawn_key(&b));
        assert_ne!(pawn_key(&a), pawn_key(&c));
        assert_ne!(pawn_key(&a), pawn_key(&flipped));
    }
}
