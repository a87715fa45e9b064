//! Syzygy endgame tablebases in MCTS (cargo feature `syzygy`): the root's
//! moves ranked as PVS ranks them ([`Syzygy::rank_root`]), and below the
//! root every position reached by a capture or a pawn move (fifty-move
//! counter at 0, where the WDL tables are exact) with few enough pieces is
//! a proven leaf: a win or a loss for its side to move, or a draw (cursed
//! wins and blessed losses too under the fifty-move rule). The solver then
//! carries these results up the tree like mates.

use crate::Limits;
use fianchetto_eval::Score;
use fianchetto_movegen::MoveGen;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[cfg(feature = "syzygy")]
use crate::pvs::Syzygy;

/// The tables a search may probe: [`Syzygy`], or nothing without the
/// `syzygy` feature.
#[cfg(feature = "syzygy")]
pub(crate) type Tables = Syzygy;
/// The tables a search may probe: nothing without the `syzygy` feature.
#[cfg(not(feature = "syzygy"))]
pub(crate) type Tables = ();

/// What the threads of one search share of the tables.
#[derive(Debug, Default)]
pub(crate) struct TbProbe<'a> {
    #[cfg(feature = "syzygy")]
    syzygy: Option<&'a Syzygy>,
    /// Probe positions of at most this many pieces (0: none).
    limit: u32,
    /// Probes that gave a value (the root ranking's included).
    hits: AtomicU64,
    _tables: std::marker::PhantomData<&'a ()>,
}

impl<'a> TbProbe<'a> {
    /// Before a search of `board`: the limits with the root moves narrowed
    /// by the tables (`None`: unchanged), and the probe for the tree.
    #[cfg(feature = "syzygy")]
    pub fn start<B: MoveGen>(
        syzygy: Option<&'a Tables>,
        board: &B,
        limits: &Limits,
    ) -> (Option<Limits>, TbProbe<'a>) {
        let Some(s) = syzygy else {
            return (None, TbProbe::default());
        };
        let ranking = s.rank_root(board, limits);
        let probe = TbProbe {
            syzygy: Some(s),
            limit: ranking.probe_limit,
            hits: AtomicU64::new(ranking.hits),
            _tables: std::marker::PhantomData,
        };
        (ranking.narrowed, probe)
    }

    /// Without the `syzygy` feature there are no tables.
    #[cfg(not(feature = "syzygy"))]
    pub fn start<B: MoveGen>(
        _syzygy: Option<&'a Tables>,
        _board: &B,
        _limits: &Limits,
    ) -> (Option<Limits>, TbProbe<'a>) {
        (None, TbProbe::default())
    }

    /// The exact score of `board` (below the root) for its side to move,
    /// when the tables decide it.
    #[inline]
    pub fn probe<B: MoveGen>(&self, board: &B) -> Option<Score> {
        if self.limit == 0 || board.halfmove_clock() != 0 || board.occupied().count() > self.limit {
            return None;
        }
        self.value(board)
    }

    #[cfg(feature = "syzygy")]
    fn value<B: MoveGen>(&self, board: &B) -> Option<Score> {
        let s = self.syzygy?;
        let wdl = s.wdl(board)?;
        self.hits.fetch_add(1, Relaxed);
        let draw = if s.rule50 { 1 } else { 0 };
        Some(if wdl > draw {
            Score::tb_win_in(0)
        } else if wdl < -draw {
            Score::tb_loss_in(0)
        } else {
            Score::DRAW
        })
    }

    #[cfg(not(feature = "syzygy"))]
    fn value<B: MoveGen>(&self, _board: &B) -> Option<Score> {
        None
    }

    /// Probes that gave a value so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(Relaxed)
    }
}
