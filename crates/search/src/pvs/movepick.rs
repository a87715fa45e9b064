//! The staged move picker: moves come out one at a time, best first, and
//! each kind is generated only when the search gets that far.
//!
//! The stages of a main-search node:
//!
//! 1. the hash move, checked for legality without generating anything;
//! 2. captures and promotions, generated and scored (victim value and
//!    capture history), handed out best first; a capture that loses
//!    material by static exchange is set aside for the end;
//! 3. the two killer moves and the counter move, each checked for
//!    legality like the hash move;
//! 4. the quiet moves, generated only now, ordered by their histories
//!    (butterfly, continuation and pawn: `Tables::quiet`) (once the search calls
//!    `MovePicker::skip_quiets`, only the quiet checks are still handed
//!    out, unscored);
//! 5. the captures set aside in stage 2. (Moving the quiet moves with the
//!    worst histories after them, as Stockfish's picker does,
//!    `bad-quiets-late`, lost: −22 [−41, −4] Elo, H0.)
//!
//! The quiescence search takes the hash move (when it captures, or in
//! check) and the captures, in order, and the quiet moves (promotions
//! included) only in check; at its first ply, the quiet checks after the
//! captures.
//! Every list is a fixed array on the stack: nothing is allocated.
//!
//! Our generators are strictly legal, so a picker yields each legal move
//! exactly once; a move checked without generation is one the generator
//! would produce, with the same encoding, or it is dropped (and found by
//! generation later).

use super::history::{piece_to_index, threats_by_lesser, QuietContext, Tables};
use super::PvsConfig;
use crate::see::{captured_value, mvv_lva, see_ge, value};
use arrayvec::ArrayVec;
use fianchetto_board::attacks::{attacks, pawn_attacks};
use fianchetto_board::{Bitboard, Board, Color, Move, MoveKind, Rank, Role};
pub use fianchetto_movegen::check::gives_check;
use fianchetto_movegen::check::CheckInfo;
use fianchetto_movegen::{GenKind, MoveGen, MoveList};

/// Where a picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// Hands out a given list in order (the root).
    List,
    TtMove,
    GenNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadNoisy,
    Done,
}

/// A move and its ordering score.
#[derive(Clone, Copy, Debug)]
struct Scored {
    mv: Move,
    score: i32,
}

/// What the picker needs to score moves: the history tables and what a
/// quiet move's history is looked up by.
pub(crate) struct Ordering<'t> {
    pub tables: &'t Tables,
    pub cfg: &'t PvsConfig,
    /// Order captures by victim (the quiescence search always does).
    pub mvv_lva: bool,
    /// The quiet histories' context: earlier moves, threats, pawn row.
    pub quiet: QuietContext,
}

impl<'t> Ordering<'t> {
    /// Ordering by `tables` as `cfg` switches them: captures by victim when
    /// `cfg.mvv_lva` is on; quiet moves by their histories in `quiet`.
    pub fn new(tables: &'t Tables, cfg: &'t PvsConfig, quiet: QuietContext) -> Ordering<'t> {
        Ordering {
            tables,
            cfg,
            mvv_lva: cfg.mvv_lva,
            quiet,
        }
    }
}

/// Threat ordering (`history-extras`): by role index, the ordering bonus of a quiet move that
/// takes a piece off a square attacked by a lesser enemy piece to one that
/// is not, about half Stockfish's on our history scale; a move onto such a
/// square loses [`THREAT_INTO_PERCENT`] of it.
const THREAT_ESCAPE: [i32; 6] = [0, 7_200, 7_200, 12_800, 25_800, 0];
const THREAT_INTO_PERCENT: i32 = 95;

/// The staged move picker (see the [module documentation](self)).
pub(crate) struct MovePicker {
    stage: Stage,
    qsearch: bool,
    in_check: bool,
    skip_quiets: bool,
    /// The hash move once verified (else `NULL`).
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// Moves already handed out by stages 1 and 3 (skipped by generation).
    early: [Move; 4],
    early_len: usize,
    noisy: ArrayVec<Scored, 256>,
    /// Read position in `noisy`; captures set aside are compacted to the
    /// front, up to `bad_len`.
    cur: usize,
    bad_len: usize,
    quiets: ArrayVec<Scored, 256>,
    quiets_generated: bool,
    /// The check squares, found when quiet moves are first tested for
    /// check (once the picker hands out only the quiet checks).
    checks: Option<CheckInfo>,
    /// The root's moves.
    list: MoveList,
}

impl MovePicker {
    fn empty(stage: Stage, qsearch: bool, in_check: bool) -> MovePicker {
        MovePicker {
            stage,
            qsearch,
            in_check,
            skip_quiets: false,
            tt_move: Move::NULL,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            early: [Move::NULL; 4],
            early_len: 0,
            noisy: ArrayVec::new(),
            cur: 0,
            bad_len: 0,
            quiets: ArrayVec::new(),
            quiets_generated: false,
            checks: None,
            list: MoveList::new(),
        }
    }

    /// The node's check squares, found on the first call.
    #[inline]
    fn check_info<B: MoveGen>(&mut self, board: &B) -> CheckInfo {
        *self.checks.get_or_insert_with(|| CheckInfo::new(board))
    }

    /// Whether the legal move `mv` gives check, through the node's check
    /// squares.
    fn gives_check<B: MoveGen>(&mut self, board: &B, mv: Move) -> bool {
        self.check_info(board).gives_check(board, mv)
    }

    /// A picker that hands out `moves` in their order (the root's list).
    pub fn from_list(moves: &MoveList) -> MovePicker {
        let mut p = MovePicker::empty(Stage::List, false, false);
        p.list = moves.clone();
        p
    }

    /// The picker of a main-search node.
    pub fn main<B: Board>(
        board: &B,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
    ) -> MovePicker {
        let mut p = MovePicker::empty(Stage::TtMove, false, board.in_check());
        p.tt_move = tt_move;
        p.killers = killers;
        p.counter = counter;
        p
    }

    /// The picker of a quiescence node: captures (and promotions), and
    /// every move in check. The hash move comes first if it is one of them.
    /// With `checks` (the first quiescence ply), the quiet moves that give
    /// check follow the captures, unscored.
    pub fn qsearch<B: Board>(board: &B, tt_move: Move, checks: bool) -> MovePicker {
        let in_check = board.in_check();
        let mut p = MovePicker::empty(Stage::TtMove, true, in_check);
        p.tt_move = if in_check || tt_move.is_capture() {
            tt_move
        } else {
            Move::NULL
        };
        // The quiet stage then hands out only the checks.
        p.skip_quiets = checks && !in_check;
        p
    }

    /// From now on, no more quiet moves but checks (killers and counter
    /// move included): the search prunes them all (late-move pruning). The
    /// pruned moves are never played, nor scored.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Whether quiet moves are being skipped.
    pub fn skipping_quiets(&self) -> bool {
        self.skip_quiets
    }

    #[inline]
    fn is_early(&self, mv: Move) -> bool {
        self.early[..self.early_len].contains(&mv)
    }

    #[inline]
    fn push_early(&mut self, mv: Move) {
        if self.early_len < self.early.len() {
            self.early[self.early_len] = mv;
            self.early_len += 1;
        }
    }

    /// The next move, `None` when there are no more.
    pub fn next<B: MoveGen>(&mut self, board: &B, ord: &Ordering<'_>) -> Option<Move> {
        loop {
            match self.stage {
                Stage::List => {
                    if self.cur < self.list.len() {
                        self.cur += 1;
                        return Some(self.list[self.cur - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::TtMove => {
                    self.stage = Stage::GenNoisy;
                    let mv = self.tt_move;
                    if !mv.is_null() && is_legal_cheap(board, mv, true) {
                        self.push_early(mv);
                        return Some(mv);
                    }
                }
                Stage::GenNoisy => {
                    self.generate_noisy(board, ord);
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    while self.cur < self.noisy.len() {
                        let i = self.best_index(&self.noisy[self.cur..]) + self.cur;
                        self.noisy.swap(self.cur, i);
                        let entry = self.noisy[self.cur];
                        self.cur += 1;
                        if self.is_early(entry.mv) {
                            continue;
                        }
                        if !self.qsearch
                            && ord.cfg.see_ordering
                            && ord.mvv_lva
                            && !see_ge(board, entry.mv, -ord.cfg.params.bad_capture_margin)
                        {
                            // Set aside: compact to the front for the last stage.
                            self.noisy[self.bad_len] = entry;
                            self.bad_len += 1;
                            continue;
                        }
                        return Some(entry.mv);
                    }
                    self.stage = if self.qsearch {
                        if self.in_check || self.skip_quiets {
                            Stage::GenQuiets
                        } else {
                            Stage::Done
                        }
                    } else {
                        Stage::Killer1
                    };
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let mv = match self.stage {
                        Stage::Killer1 => self.killers[0],
                        Stage::Killer2 => self.killers[1],
                        _ => self.counter,
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenQuiets,
                    };
                    if !mv.is_null()
                        && mv.is_quiet()
                        && !self.is_early(mv)
                        && is_legal_cheap(board, mv, false)
                        && (!self.skip_quiets || self.gives_check(board, mv))
                    {
                        self.push_early(mv);
                        return Some(mv);
                    }
                }
                Stage::GenQuiets => {
                    self.generate_quiets(board, ord);
                    self.cur = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        // Only the checks are left: in generation order.
                        let checks = self.check_info(board);
                        while self.cur < self.quiets.len() {
                            let mv = self.quiets[self.cur].mv;
                            self.cur += 1;
                            if checks.gives_check(board, mv) && !self.is_early(mv) {
                                return Some(mv);
                            }
                        }
                    }
                    while self.cur < self.quiets.len() {
                        let i = if ord.cfg.history {
                            self.best_index(&self.quiets[self.cur..]) + self.cur
                        } else {
                            self.cur
                        };
                        self.quiets.swap(self.cur, i);
                        let mv = self.quiets[self.cur].mv;
                        self.cur += 1;
                        if !self.is_early(mv) {
                            return Some(mv);
                        }
                    }
                    self.cur = 0;
                    self.stage = if self.qsearch {
                        Stage::Done
                    } else {
                        Stage::BadNoisy
                    };
                }
                Stage::BadNoisy => {
                    if self.cur < self.bad_len {
                        self.cur += 1;
                        return Some(self.noisy[self.cur - 1].mv);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The index of the highest score in `entries` (the first on ties).
    #[inline]
    fn best_index(&self, entries: &[Scored]) -> usize {
        // One key per entry, the score above the complement of the index,
        // so that the largest key is the highest score's first entry: a
        // branch-free maximum (the hottest loop of the picker).
        let key = |(i, e): (usize, &Scored)| (i64::from(e.score) << 32) | i64::from(!(i as u32));
        entries
            .iter()
            .enumerate()
            .map(key)
            .max()
            .map_or(0, |best| (!(best as u32)) as usize)
    }

    /// Captures and capture-promotions, plus the quiet promotions when a
    /// pawn stands on its seventh rank (then the other quiet moves are kept
    /// for their stage).
    fn generate_noisy<B: MoveGen>(&mut self, board: &B, ord: &Ordering<'_>) {
        let mut list = MoveList::new();
        board.generate(GenKind::Captures, &mut list);
        if self.qsearch && !self.in_check && ord.cfg.qs_promotions {
            super::qpromotions::push(board, &mut list);
        }
        let us = board.turn();
        let seventh = Bitboard::rank(Rank::new(6).map_or(Rank::EIGHTH, |r| r.relative(us)));
        // (The quiescence search takes quiet promotions only in check.)
        if (!self.qsearch || self.in_check) && (board.pieces(us, Role::Pawn) & seventh).any() {
            let mut quiets = MoveList::new();
            board.generate(GenKind::Quiets, &mut quiets);
            for &mv in &quiets {
                if mv.is_promotion() {
                    let _ = list.try_push(mv);
                } else {
                    self.quiets.push(Scored { mv, score: 0 });
                }
            }
            self.quiets_generated = true;
        }
        let cfg = ord.cfg;
        for &mv in &list {
            let score = if !ord.mvv_lva {
                0
            } else if cfg.capture_history {
                let hist = ord.tables.capture(board, mv);
                let victim = captured_value(board, mv)
                    + mv.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
                victim * cfg.params.capture_mvv_mult + hist
            } else {
                mvv_lva(board, mv)
            };
            self.noisy.push(Scored { mv, score });
        }
    }

    /// The quiet moves (non-capturing, non-promoting), scored by history.
    fn generate_quiets<B: MoveGen>(&mut self, board: &B, ord: &Ordering<'_>) {
        if !self.quiets_generated {
            let mut list = MoveList::new();
            board.generate(GenKind::Quiets, &mut list);
            for &mv in &list {
                // Quiet promotions were handed out with the captures.
                if !(mv.is_promotion() && self.noisy.iter().any(|e| e.mv == mv)) {
                    self.quiets.push(Scored { mv, score: 0 });
                }
            }
            self.quiets_generated = true;
        }
        if !ord.cfg.history || self.skip_quiets {
            return;
        }
        let us = board.turn();
        // The main search's nodes found the threat maps at their start.
        let lesser = if ord.cfg.history_extras {
            Some(
                ord.quiet
                    .by_lesser
                    .unwrap_or_else(|| threats_by_lesser(board)),
            )
        } else {
            None
        };
        // The pawn history counts twice in the order, as Stockfish's
        // picker weighs it beside its main history.
        let scorer = ord.tables.quiet_scorer(us, &ord.quiet, 2);
        for e in self.quiets.iter_mut() {
            let piece = board.piece_at(e.mv.from());
            e.score = scorer.score(e.mv, piece.map(|p| piece_to_index(p, e.mv)));
            if let (Some(lesser), Some(piece)) = (&lesser, piece) {
                let i = piece.role.index();
                let (from, to) = (e.mv.from(), e.mv.to());
                if lesser[i].contains(to) {
                    e.score -= THREAT_ESCAPE[i] * THREAT_INTO_PERCENT / 100;
                } else if lesser[i].contains(from) {
                    e.score += THREAT_ESCAPE[i];
                }
            }
        }
    }
}

/// Whether `mv` (from a hash table or another node) is legal here, decided
/// without generating moves. Exact for plain moves, captures, double pushes
/// and promotions; castling and en passant are confirmed by generation when
/// `special` allows it, else refused. A refused legal move is not lost: it
/// is generated in its stage.
pub fn is_legal_cheap<B: MoveGen>(board: &B, mv: Move, special: bool) -> bool {
    if mv.is_castle() || mv.is_en_passant() {
        return special && board.is_legal(mv);
    }
    let us = board.turn();
    let them = !us;
    let (from, to) = (mv.from(), mv.to());
    let Some(piece) = board.piece_at(from) else {
        return false;
    };
    if piece.color != us || from == to {
        return false;
    }
    let target = board.piece_at(to);
    if mv.is_capture() {
        match target {
            Some(t) if t.color == them && t.role != Role::King => {}
            _ => return false,
        }
    } else if target.is_some() {
        return false;
    }
    let occupied = board.occupied();
    if piece.role == Role::Pawn {
        let last = to.rank() == Rank::EIGHTH.relative(us);
        if last != mv.is_promotion() {
            return false;
        }
        let forward: i8 = if us == Color::White { 8 } else { -8 };
        let ok = if mv.is_capture() {
            pawn_attacks(us, from).contains(to)
        } else if mv.kind() == MoveKind::DoublePush {
            let second = Rank::new(1).map(|r| r.relative(us));
            Some(from.rank()) == second
                && from.offset(2 * forward) == Some(to)
                && from
                    .offset(forward)
                    .is_some_and(|mid| !occupied.contains(mid))
        } else {
            from.offset(forward) == Some(to)
        };
        if !ok {
            return false;
        }
    } else {
        if mv.is_promotion() || mv.kind() == MoveKind::DoublePush {
            return false;
        }
        if !attacks(piece.role, us, from, occupied).contains(to) {
            return false;
        }
    }
    // Legal: after the move, no enemy piece (the captured one gone) attacks
    // our king.
    let after = occupied.without(from).with(to);
    let king = if piece.role == Role::King {
        to
    } else {
        board.king(us)
    };
    (board.attackers(king, them, after) & !Bitboard::from_square(to)).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pvs::history::{Tables, HISTORY_MAX};
    use fianchetto_board::{Bitboards, Square};

    fn random_positions(n: usize) -> Vec<Bitboards> {
        let mut rng = 0x9e37_79b9_u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = Bitboards::from_fen(starts[out.len() % starts.len()]).unwrap();
            let plies = next() % 40;
            for _ in 0..plies {
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                b.play_unchecked(moves[(next() % moves.len() as u64) as usize]);
            }
            out.push(b);
        }
        out
    }

    fn drain(board: &Bitboards, mut p: MovePicker, tables: &Tables, cfg: &PvsConfig) -> Vec<Move> {
        let ord = Ordering::new(tables, cfg, QuietContext::NONE);
        let mut out = Vec::new();
        while let Some(mv) = p.next(board, &ord) {
            out.push(mv);
        }
        out
    }

    #[test]
    fn every_legal_move_once_tt_move_first() {
        let tables = Tables::new();
        let cfg = PvsConfig::default();
        let bogus = [
            Move::NULL,
            Move::new(Square::E2, Square::E4, MoveKind::DoublePush),
            Move::new(Square::A1, Square::H8, MoveKind::Capture),
            Move::new(Square::E1, Square::G1, MoveKind::KingCastle),
            Move::new(Square::D7, Square::D8, MoveKind::PromoteQueen),
            Move::new(Square::B5, Square::C6, MoveKind::EnPassant),
        ];
        for (i, board) in random_positions(400).iter().enumerate() {
            let legal = board.legal_moves();
            let mut sorted_legal: Vec<u16> = legal.iter().map(|m| m.bits()).collect();
            sorted_legal.sort_unstable();
            let mut tts: Vec<Move> = bogus.to_vec();
            if !legal.is_empty() {
                tts.push(legal[i % legal.len()]);
                tts.push(legal[legal.len() - 1]);
            }
            for tt in tts {
                let killers = [
                    bogus[(i + 1) % 6],
                    legal.get(i % 3).copied().unwrap_or(Move::NULL),
                ];
                let p = MovePicker::main(board, tt, killers, bogus[i % 6]);
                let got = drain(board, p, &tables, &cfg);
                let mut sorted: Vec<u16> = got.iter().map(|m| m.bits()).collect();
                sorted.sort_unstable();
                assert_eq!(sorted, sorted_legal, "{} with tt {tt}", board.fen());
                if legal.contains(&tt) {
                    assert_eq!(got[0], tt, "{}: tt move first", board.fen());
                }
                // Quiescence: the captures and, with `qs_promotions`, the
                // quiet queen promotions (everything in check).
                // With `checks`, the quiet checks too.
                for checks in [false, true] {
                    let got = drain(board, MovePicker::qsearch(board, tt, checks), &tables, &cfg);
                    let mut want: Vec<u16> = legal
                        .iter()
                        .filter(|m| {
                            board.in_check()
                                || m.is_capture()
                                || (cfg.qs_promotions && m.kind() == MoveKind::PromoteQueen)
                                || (checks && gives_check(board, **m))
                        })
                        .map(|m| m.bits())
                        .collect();
                    want.sort_unstable();
                    let mut sorted: Vec<u16> = got.iter().map(|m| m.bits()).collect();
                    sorted.sort_unstable();
                    assert_eq!(sorted, want, "qsearch {} with tt {tt}", board.fen());
                }
            }
        }
    }

    #[test]
    fn check_squares_and_discoverers_find_every_check() {
        // Discovered checks by each piece kind (a pawn push, a knight, a
        // king stepping off the line, a bishop uncovering a rook), double
        // checks, en passant that uncovers a rank, promotions, castling
        // into check, and a blocker of the other side that discovers
        // nothing; then many random positions.
        let fens = [
            "4k3/8/8/4P3/8/8/8/4R1K1 w - - 0 1",
            "4k3/8/4N3/8/8/8/8/4R1K1 w - - 0 1",
            "7k/6p1/8/8/8/8/1K6/B7 w - - 0 1",
            "3k4/8/8/8/3K4/8/8/3R4 w - - 0 1",
            "4k3/8/8/8/4B3/8/8/4R1K1 w - - 0 1",
            "8/8/8/K2pP2k/8/8/8/8 w - d6 0 1",
            "8/8/8/R2pP2k/8/8/8/6K1 w - d6 0 1",
            "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1",
            "r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1",
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "4k3/8/8/4p3/8/8/8/4R1K1 w - - 0 1",
            "4k3/8/8/4b3/8/8/4Q3/6K1 w - - 0 1",
        ];
        let mut boards: Vec<Bitboards> = fens
            .iter()
            .map(|f| Bitboards::from_fen(f).expect("valid FEN"))
            .collect();
        boards.extend(random_positions(2000));
        let mut found = 0;
        for board in &boards {
            let checks = CheckInfo::new(board);
            for m in &board.legal_moves() {
                let mut next = board.clone();
                next.play_unchecked(*m);
                assert_eq!(
                    checks.gives_check(board, *m),
                    next.in_check(),
                    "{} {m}",
                    board.fen()
                );
                found += next.in_check() as usize;
            }
        }
        assert!(found > 100, "only {found} checking moves tried");
    }

    #[test]
    fn cheap_legality_matches_generation() {
        for board in random_positions(300) {
            let legal = board.legal_moves();
            let checks = CheckInfo::new(&board);
            for m in &legal {
                if !m.is_castle() && !m.is_en_passant() {
                    assert!(is_legal_cheap(&board, *m, false), "{} {m}", board.fen());
                }
                assert!(is_legal_cheap(&board, *m, true), "{} {m}", board.fen());
                let mut next = board.clone();
                next.play_unchecked(*m);
                assert_eq!(
                    gives_check(&board, *m),
                    next.in_check(),
                    "{} {m}",
                    board.fen()
                );
                assert_eq!(
                    checks.gives_check(&board, *m),
                    next.in_check(),
                    "{} {m}",
                    board.fen()
                );
            }
            // Every encodable move: accepted only if legal.
            for bits in (0..=u16::MAX).step_by(7) {
                if let Some(mv) = Move::from_bits(bits) {
                    if is_legal_cheap(&board, mv, true) {
                        assert!(legal.contains(&mv), "{} accepted {mv}", board.fen());
                    }
                }
            }
        }
    }

    #[test]
    fn skip_quiets_leaves_out_quiet_non_checks() {
        let tables = Tables::new();
        let cfg = PvsConfig::default();
        for board in random_positions(100) {
            let ord = Ordering {
                mvv_lva: true,
                ..Ordering::new(&tables, &cfg, QuietContext::NONE)
            };
            let mut p = MovePicker::main(&board, Move::NULL, [Move::NULL; 2], Move::NULL);
            p.skip_quiets();
            let mut got = Vec::new();
            while let Some(mv) = p.next(&board, &ord) {
                got.push(mv);
            }
            let want = board
                .legal_moves()
                .iter()
                .filter(|m| !m.is_quiet() || gives_check(&board, **m))
                .count();
            assert_eq!(got.len(), want, "{}", board.fen());
            assert!(got.iter().all(|m| !m.is_quiet() || gives_check(&board, *m)));
        }
    }

    #[test]
    fn losing_captures_come_after_every_quiet_move() {
        let mut cfg = PvsConfig::default();
        cfg.set("history-extras", false).expect("a switch");
        let margin = -cfg.params.bad_capture_margin;
        let mut tested = 0;
        for board in random_positions(400) {
            let legal = board.legal_moves();
            let losing: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.is_capture() && !see_ge(&board, *m, margin))
                .collect();
            let quiets: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.is_quiet() && !m.is_promotion())
                .collect();
            if losing.is_empty() || quiets.len() < 2 {
                continue;
            }
            // Every other quiet move gets the worst history there is.
            let mut tables = Tables::new();
            let bad: Vec<Move> = quiets.iter().copied().step_by(2).collect();
            for &mv in &bad {
                for _ in 0..8 {
                    tables.update_butterfly(board.turn(), mv, Bitboard::EMPTY, -HISTORY_MAX);
                }
            }
            let at = |order: &[Move], mv: Move| order.iter().position(|&m| m == mv);
            // Even the quiet moves with the worst history come before the
            // losing captures, and every legal move comes once.
            let picker = MovePicker::main(&board, Move::NULL, [Move::NULL; 2], Move::NULL);
            let plain = drain(&board, picker, &tables, &cfg);
            let mut sorted: Vec<u16> = plain.iter().map(|m| m.bits()).collect();
            sorted.sort_unstable();
            let mut want: Vec<u16> = legal.iter().map(|m| m.bits()).collect();
            want.sort_unstable();
            assert_eq!(sorted, want, "{}: every legal move once", board.fen());
            let first_losing = losing.iter().filter_map(|&m| at(&plain, m)).min();
            let last_bad = bad.iter().filter_map(|&m| at(&plain, m)).max();
            assert!(last_bad < first_losing, "{}: {plain:?}", board.fen());
            tested += 1;
        }
        assert!(tested > 20, "only {tested} positions with losing captures");
    }
}
