//! The moves of a root position ranked by the tables, with the fifty-move
//! rule: what an engine filters its root moves by, and the best move.

use crate::consistency::MoveValues;
use crate::tablebase::is_zeroing;
use crate::{SyzygyError, Tablebase, Wdl};
use arrayvec::ArrayVec;
use fianchetto_board::Move;
use fianchetto_movegen::MoveGen;
use std::cmp::Reverse;

/// The rank of a win that the fifty-move rule cannot spoil (and, negated,
/// of such a loss). Ranks between `RANK_WIN / 2` and `RANK_WIN` do not occur.
pub const RANK_WIN: i32 = 1 << 18;

/// A legal move of the root position and what the tables say of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// The result the move leads to, for the side playing it, with the
    /// fifty-move counter after the move taken as zero.
    pub wdl: Wdl,
    /// Plies from the root position to the next capture or pawn move, for
    /// the side playing it (negative: the move loses), with best play by
    /// the tables' metric; 0 for a draw. A mating move has 1.
    pub dtz: i32,
    /// Whether the move mates.
    pub mate: bool,
    /// How good the move is with the position's fifty-move counter (higher
    /// is better): [`RANK_WIN`] for a win that is sure within the fifty-move
    /// rule, lower positive values for wins it may spoil, the shorter the
    /// better, 0 for a draw, negative for losses (`-RANK_WIN` for a loss the
    /// rule cannot save). An engine keeps the moves of the best rank and
    /// searches among them.
    pub rank: i32,
}

/// Every legal move of a position: at most 256.
pub type RootMoves = ArrayVec<RootMove, 256>;

impl Tablebase {
    /// Every legal move of `board` with its WDL, DTZ and rank, best first.
    ///
    /// With `rule50`, a win counts as sure only when its zeroing move comes
    /// before the fifty-move counter (the position's counter plus the move's
    /// DTZ) reaches 100, with one ply to spare for the rounding of the DTZ
    /// tables; without it, cursed wins and blessed losses rank as wins and
    /// losses. Among moves of equal rank, a mate comes first, then the
    /// shortest win, the longest loss. Needs the DTZ tables.
    pub fn root_moves<B: MoveGen>(
        &self,
        board: &B,
        rule50: bool,
    ) -> Result<RootMoves, SyzygyError> {
        let clock = board.halfmove_clock() as i32;
        self.rank_moves(board, |child, mv, wdl, mate| {
            let dtz = if mate {
                1
            } else if is_zeroing(board, mv) {
                crate::tablebase::dtz_before_zeroing(wdl)
            } else {
                // One ply further from the zeroing move than the child.
                let d = -self.dtz(child)?;
                d + d.signum()
            };
            Ok((dtz, rank_of_dtz(dtz, clock, rule50)))
        })
    }

    /// Every legal move of `board` ranked by the WDL tables alone, for when
    /// the DTZ tables are missing: wins, then cursed wins, draws, blessed
    /// losses, losses (`dtz` is 1 or 101 for wins, -1 or -101 for losses).
    /// The fifty-move counter of the position is not looked at: a win here
    /// may be lost to the rule, which only DTZ can tell.
    pub fn root_moves_wdl<B: MoveGen>(
        &self,
        board: &B,
        rule50: bool,
    ) -> Result<RootMoves, SyzygyError> {
        self.rank_moves(board, |_, _, wdl, _| {
            let rank = match wdl {
                2 => RANK_WIN,
                1 if !rule50 => RANK_WIN,
                1 => RANK_WIN / 2 - 101,
                0 => 0,
                -1 if !rule50 => -RANK_WIN,
                -1 => -RANK_WIN / 2 + 101,
                _ => -RANK_WIN,
            };
            Ok((crate::tablebase::dtz_before_zeroing(wdl), rank))
        })
    }

    /// Every legal move of `board` with its WDL (the side to move's view),
    /// whether it mates, and the DTZ and rank that `dtz_and_rank` gives it
    /// from the child position, the move, the WDL and the mate flag; sorted
    /// best first.
    fn rank_moves<B: MoveGen>(
        &self,
        board: &B,
        mut dtz_and_rank: impl FnMut(&B, Move, i8, bool) -> Result<(i32, i32), SyzygyError>,
    ) -> Result<RootMoves, SyzygyError> {
        let root = self.check_root(board)?;
        let mut out = RootMoves::new();
        let mut values = MoveValues::default();
        for mv in board.legal_moves() {
            let mut child = board.clone();
            child.play_unchecked(mv);
            let wdl = -self.wdl(&child)?;
            values.add(wdl, is_zeroing(board, mv));
            let mate = child.is_checkmate();
            let (dtz, rank) = dtz_and_rank(&child, mv, wdl, mate)?;
            out.push(RootMove {
                mv,
                wdl: Wdl::from_value(wdl),
                dtz,
                mate,
                rank,
            });
        }
        // The root's own value must agree with its moves': never rank moves
        // by tables that contradict themselves.
        if let Some(what) = values.contradiction(root, board.in_check()) {
            return Err(SyzygyError::Contradiction {
                fen: board.fen(),
                what,
            });
        }
        sort(&mut out);
        Ok(out)
    }

    /// The move the tables play: the first of [`root_moves`](Tablebase::root_moves)
    /// with the fifty-move rule. It wins a won position within the rule and
    /// holds a drawn one; None when there is no legal move.
    pub fn best_move<B: MoveGen>(&self, board: &B) -> Result<Option<RootMove>, SyzygyError> {
        Ok(self.root_moves(board, true)?.first().copied())
    }

    /// The root's WDL value. The moves' probes check each child; the
    /// root's own castling rights and size are checked here so that a
    /// position with one piece too many (every move a capture) is not
    /// ranked.
    fn check_root<B: MoveGen>(&self, board: &B) -> Result<i8, SyzygyError> {
        self.probe_wdl(board).map(Wdl::value)
    }
}

/// The rank of a move of DTZ `dtz` (from the root) at fifty-move counter
/// `clock`.
fn rank_of_dtz(dtz: i32, clock: i32, rule50: bool) -> i32 {
    if dtz > 0 {
        if !rule50 || dtz + clock <= 99 {
            RANK_WIN
        } else {
            RANK_WIN / 2 - (dtz + clock)
        }
    } else if dtz < 0 {
        // A loss counts as certain unless the opponent's zeroing move comes
        // so late that the counter may reach 100 first.
        if !rule50 || -2 * dtz + clock < 100 {
            -RANK_WIN
        } else {
            -RANK_WIN / 2 + (-dtz + clock)
        }
    } else {
        0
    }
}

/// Best first: rank, then mates, then the shortest win or longest loss
/// (within a rank the DTZ have one sign, so both are the lower DTZ).
fn sort(moves: &mut RootMoves) {
    moves.sort_by_key(|m| (Reverse(m.rank), Reverse(m.mate), m.dtz));
}
