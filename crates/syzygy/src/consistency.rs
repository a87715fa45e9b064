//! The tables checked against themselves. A position's WDL must agree with
//! its moves' (the best move decides it), and its DTZ with its WDL. The
//! format has no checksum, so a changed byte that still decodes gives
//! values that break these rules somewhere: [`Tablebase::check_material`]
//! walks every position of a material to find such a place, and
//! [`root_moves`](Tablebase::root_moves) and
//! [`probe_dtz`](Tablebase::probe_dtz) refuse an answer that breaks them.

use crate::tablebase::is_zeroing;
use crate::{Material, SyzygyError, Tablebase};
use fianchetto_board::{CastlingRights, Color, Piece, Role, Setup, Square};
use fianchetto_movegen::MoveGen;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The best values the moves of a position give the side to move (each
/// child's WDL negated), over all moves and over the zeroing ones.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MoveValues {
    best: Option<i8>,
    best_zeroing: Option<i8>,
}

impl MoveValues {
    /// Adds a move worth `value` to the side to move; `zeroing` when it is
    /// a capture or a pawn move.
    pub(crate) fn add(&mut self, value: i8, zeroing: bool) {
        self.best = Some(self.best.map_or(value, |b| b.max(value)));
        if zeroing {
            self.best_zeroing = Some(self.best_zeroing.map_or(value, |b| b.max(value)));
        }
    }

    /// What is wrong with `wdl` as the value of the position whose moves
    /// these are (`in_check`: its side to move is in check), or None.
    ///
    /// A child's WDL takes its fifty-move counter as zero. After a zeroing
    /// move that is exact, so the position is worth at least the best
    /// zeroing move. After another move the child may be one ply nearer
    /// its zeroing move than the counter says, so a cursed win may have a
    /// move to a child lost within the rule (and a blessed loss one to a
    /// child won within it). What always holds: the position is won, drawn
    /// or lost as its best move is; a win within the rule has a move to a
    /// loss within it; a loss within the rule has no move to anything but a
    /// win within it.
    pub(crate) fn contradiction(&self, wdl: i8, in_check: bool) -> Option<&'static str> {
        let Some(best) = self.best else {
            return match (in_check, wdl) {
                (true, -2) | (false, 0) => None,
                (true, _) => Some("a checkmate is not valued as a loss"),
                (false, _) => Some("a stalemate is not valued as a draw"),
            };
        };
        if best.signum() != wdl.signum() {
            Some("the position is not won, drawn or lost as its best move is")
        } else if self.best_zeroing.is_some_and(|z| z > wdl) {
            Some("a capture or pawn move gives more than the position's value")
        } else if wdl == 2 && best != 2 {
            Some("a win within the fifty-move rule has no move to a loss within it")
        } else if wdl == -2 && best != -2 {
            Some("a loss within the fifty-move rule has a move to more than a loss")
        } else {
            None
        }
    }
}

/// What is wrong with `dtz` as the DTZ of a position of WDL `wdl`, or None:
/// its sign is the result's, and a win or loss within the fifty-move rule
/// zeroes within 100 plies where a cursed win or blessed loss does not.
pub(crate) fn dtz_contradiction(wdl: i8, dtz: i32) -> Option<&'static str> {
    let fits = match wdl {
        0 => dtz == 0,
        2 => (1..=100).contains(&dtz),
        -2 => (-100..=-1).contains(&dtz),
        1 => dtz > 100,
        _ => dtz < -100,
    };
    (!fits).then_some("the DTZ does not fit the WDL")
}

/// The squares the first white piece (the king) is walked over: one of each
/// set of positions the board's symmetries make equal. Without pawns, the
/// triangle a1-d1-d4 (rotations and reflections); with pawns, files a to d
/// (the left-right mirror only).
fn king_squares(pawns: bool) -> Vec<Square> {
    (0..64u8)
        .filter_map(Square::new)
        .filter(|sq| {
            let (file, rank) = (sq.file().index(), sq.rank().index());
            if pawns {
                file < 4
            } else {
                file < 4 && rank <= file
            }
        })
        .collect()
}

impl Tablebase {
    /// Walks every position of `material` (up to the board's symmetries,
    /// with either side to move) and checks each against its moves: its
    /// WDL against its best move's, and where the DTZ table is there, its
    /// DTZ against its WDL. Returns how many positions were checked.
    ///
    /// `progress(done, total)` is called as the walk goes, from any of the
    /// `threads` (at least one) that share it. The walk needs the WDL
    /// tables of the material and of every material a capture or a
    /// promotion leads to.
    ///
    /// Errors: [`SyzygyError::Contradiction`] with the first position found
    /// whose values break the rules (a table file is corrupt), or what a
    /// probe refuses (a missing table, a bad file).
    pub fn check_material<B: MoveGen>(
        &self,
        material: &Material,
        threads: usize,
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> Result<u64, SyzygyError> {
        let mut pieces = Vec::new();
        for color in [Color::White, Color::Black] {
            for role in [Role::King, Role::Queen, Role::Rook].into_iter().chain([
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ]) {
                for _ in 0..material.count(color, role) {
                    pieces.push(Piece::new(color, role));
                }
            }
        }
        let kings = king_squares(material.has_pawns());
        // The work is split by where the first two pieces stand.
        let items: Vec<(Square, Square)> = kings
            .iter()
            .flat_map(|&k| (0..64u8).filter_map(Square::new).map(move |s| (k, s)))
            .collect();
        let total = items.len() as u64;
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let first_error = Mutex::new(None::<(usize, SyzygyError)>);
        let positions = AtomicU64::new(0);
        let done = AtomicU64::new(0);
        // The DTZ is checked where the material's DTZ table is there.
        let with_dtz = self.has_table(material, crate::TableKind::Dtz);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let mut walk = Walk::<B> {
                        tables: self,
                        pieces: &pieces,
                        with_dtz,
                        setup: empty_setup(),
                        count: 0,
                        _board: std::marker::PhantomData,
                    };
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(a, b)) = items.get(i) else { break };
                        if let Err(e) = walk.place_first_two(a, b) {
                            stop.store(true, Ordering::Relaxed);
                            let mut slot = first_error.lock().unwrap_or_else(|p| p.into_inner());
                            // The error of the earliest work item, so that
                            // the answer does not depend on the threads.
                            if slot.as_ref().is_none_or(|(j, _)| i < *j) {
                                *slot = Some((i, e));
                            }
                            break;
                        }
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                    }
                    positions.fetch_add(walk.count, Ordering::Relaxed);
                });
            }
        });
        match first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some((_, e)) => Err(e),
            None => Ok(positions.into_inner()),
        }
    }

    /// Checks `board`'s WDL against its moves' and, with `with_dtz`, its
    /// DTZ against its WDL.
    fn check_position<B: MoveGen>(&self, board: &B, with_dtz: bool) -> Result<(), SyzygyError> {
        let wdl = self.wdl(board)?;
        let mut moves = MoveValues::default();
        for mv in board.legal_moves() {
            let mut child = board.clone();
            child.play_unchecked(mv);
            moves.add(-self.wdl(&child)?, is_zeroing(board, mv));
        }
        let mut what = moves.contradiction(wdl, board.in_check());
        if what.is_none() && with_dtz {
            what = dtz_contradiction(wdl, self.dtz(board)?);
        }
        match what {
            Some(what) => Err(SyzygyError::Contradiction {
                fen: board.fen(),
                what,
            }),
            None => Ok(()),
        }
    }
}

/// A setup with no pieces, white to move, no rights.
fn empty_setup() -> Setup {
    Setup {
        board: [None; 64],
        turn: Color::White,
        castling: CastlingRights::default(),
        ep_square: None,
        halfmove_clock: 0,
        fullmove_number: 1,
    }
}

/// One thread's walk: pieces placed one by one on `setup`.
struct Walk<'a, B> {
    tables: &'a Tablebase,
    /// The material's pieces, white's king first, then black's king, each
    /// side's pieces in a fixed role order (equal pieces next to each other).
    pieces: &'a [Piece],
    /// Whether to check each position's DTZ too.
    with_dtz: bool,
    setup: Setup,
    /// Positions checked.
    count: u64,
    _board: std::marker::PhantomData<B>,
}

impl<B: MoveGen> Walk<'_, B> {
    /// Every position with the first piece on `a` and the second on `b`.
    fn place_first_two(&mut self, a: Square, b: Square) -> Result<(), SyzygyError> {
        if a == b {
            return Ok(());
        }
        self.setup.board[a.index()] = Some(self.pieces[0]);
        self.setup.board[b.index()] = Some(self.pieces[1]);
        let result = self.place(2, 0);
        self.setup.board[a.index()] = None;
        self.setup.board[b.index()] = None;
        result
    }

    /// Places pieces `i..` on empty squares (a piece equal to the one before
    /// it on a higher square than that one's, `from`, so that each set of
    /// squares is placed once), then checks both sides to move.
    fn place(&mut self, i: usize, from: usize) -> Result<(), SyzygyError> {
        let Some(&piece) = self.pieces.get(i) else {
            return self.check_both_sides();
        };
        let pawn = piece.role == Role::Pawn;
        for s in 0..64 {
            let same_as_before = i > 2 && self.pieces[i - 1] == piece;
            if (same_as_before && s <= from)
                || self.setup.board[s].is_some()
                || (pawn && !(8..56).contains(&s))
            {
                continue;
            }
            self.setup.board[s] = Some(piece);
            let result = self.place(i + 1, s);
            self.setup.board[s] = None;
            result?;
        }
        Ok(())
    }

    fn check_both_sides(&mut self) -> Result<(), SyzygyError> {
        for turn in [Color::White, Color::Black] {
            self.setup.turn = turn;
            // Illegal placements (the side not to move in check, kings side
            // by side) are not positions.
            let Ok(board) = B::from_setup(&self.setup) else {
                continue;
            };
            self.tables.check_position(&board, self.with_dtz)?;
            self.count += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(moves: &[(i8, bool)]) -> MoveValues {
        let mut v = MoveValues::default();
        for &(value, zeroing) in moves {
            v.add(value, zeroing);
        }
        v
    }

    #[test]
    fn a_position_without_moves() {
        let none = MoveValues::default();
        assert_eq!(none.contradiction(-2, true), None);
        assert_eq!(none.contradiction(0, false), None);
        assert!(none.contradiction(0, true).is_some());
        assert!(none.contradiction(2, false).is_some());
    }

    #[test]
    fn the_best_move_decides_the_result() {
        let moves = values(&[(-2, false), (0, true), (2, false)]);
        assert_eq!(moves.contradiction(2, false), None);
        // A cursed win's best move may reach a child lost within the rule.
        assert_eq!(moves.contradiction(1, false), None);
        assert!(moves.contradiction(0, false).is_some());
        assert!(moves.contradiction(-2, false).is_some());
        let drawn = values(&[(-2, true), (0, false)]);
        assert_eq!(drawn.contradiction(0, false), None);
        assert!(drawn.contradiction(2, false).is_some());
        assert!(drawn.contradiction(-1, false).is_some());
    }

    #[test]
    fn a_zeroing_move_is_exact() {
        // A capture to a loss within the rule makes the position a win
        // within the rule, never a cursed one.
        let moves = values(&[(2, true)]);
        assert_eq!(moves.contradiction(2, false), None);
        assert!(moves.contradiction(1, false).is_some());
        let cursed = values(&[(1, true), (-2, false)]);
        assert_eq!(cursed.contradiction(1, false), None);
    }

    #[test]
    fn losses_within_the_rule_have_no_escape() {
        assert_eq!(values(&[(-2, false)]).contradiction(-2, false), None);
        assert!(values(&[(-2, false), (-1, false)])
            .contradiction(-2, false)
            .is_some());
        // A blessed loss may have a move to a child won within the rule.
        assert_eq!(values(&[(-2, false)]).contradiction(-1, false), None);
    }

    #[test]
    fn dtz_fits_its_wdl() {
        assert_eq!(dtz_contradiction(0, 0), None);
        assert_eq!(dtz_contradiction(2, 100), None);
        assert_eq!(dtz_contradiction(1, 101), None);
        assert_eq!(dtz_contradiction(-2, -1), None);
        assert_eq!(dtz_contradiction(-1, -150), None);
        assert!(dtz_contradiction(0, 3).is_some());
        assert!(dtz_contradiction(2, 101).is_some());
        assert!(dtz_contradiction(2, -5).is_some());
        assert!(dtz_contradiction(1, 100).is_some());
        assert!(dtz_contradiction(-2, -101).is_some());
    }

    #[test]
    fn king_squares_cover_the_symmetries() {
        assert_eq!(king_squares(false).len(), 10);
        assert_eq!(king_squares(true).len(), 32);
    }
}
