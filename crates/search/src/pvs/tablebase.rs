//! Syzygy endgame tablebases in PVS (cargo feature `syzygy`, on by
//! default).
//!
//! Two uses, as in Stockfish:
//!
//! - At the root, when the position is in the tables, the root moves are
//!   ranked by DTZ (by WDL when the DTZ tables are missing) with the
//!   fifty-move counter, and only the moves of the best rank are searched:
//!   a won position is answered with the moves of the shortest DTZ (each
//!   brings the next capture, pawn move or mate a ply nearer, so the win
//!   can neither be lost to the fifty-move rule nor go round in
//!   repetitions), a drawn one with moves that hold the draw, a lost one
//!   with any losing move. The search picks among them with its own
//!   evaluation; ranked by DTZ, the tree is then not probed. (Stockfish
//!   keeps every move that wins within the fifty-move rule and lets its
//!   search choose; at the small node budgets of our tests that search
//!   shuffled into threefold repetitions of K+B+N v K.)
//! - Inside the tree, after a capture or a pawn move (fifty-move counter
//!   at 0) with at most `probe_limit` pieces left, the WDL tables give the
//!   node's value: a win is [`Score::tb_win_in`] the node's ply, a loss its
//!   negation, a draw 0 (cursed wins and blessed losses ±2 under the
//!   fifty-move rule, else wins and losses). Like mate scores, these are
//!   bounds that end the node when they decide the window, and are stored in
//!   the transposition table adjusted by ply.

use super::Worker;
use crate::tt::{score_to_tt, Bound as TtBound};
use crate::{Limits, MAX_PLY};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[cfg(feature = "syzygy")]
pub use fianchetto_syzygy::Tablebase;
#[cfg(feature = "syzygy")]
use std::sync::Arc;

/// The tables and how the search uses them (the UCI options `SyzygyPath`,
/// `SyzygyProbeDepth`, `SyzygyProbeLimit` and `Syzygy50MoveRule`).
#[cfg(feature = "syzygy")]
#[derive(Clone, Debug)]
pub struct Syzygy {
    /// The tables.
    pub tables: Arc<Tablebase>,
    /// Probe inside the tree only at this depth or deeper (unless the
    /// position has fewer pieces than `probe_limit`).
    pub probe_depth: i32,
    /// Probe only positions with at most this many pieces (capped by the
    /// largest table loaded).
    pub probe_limit: u32,
    /// Whether cursed wins and blessed losses count as draws.
    pub rule50: bool,
}

#[cfg(feature = "syzygy")]
impl Syzygy {
    /// `tables` with Stockfish's defaults: probe depth 1, every table the
    /// tables have, the fifty-move rule.
    pub fn new(tables: Arc<Tablebase>) -> Syzygy {
        Syzygy {
            tables,
            probe_depth: 1,
            probe_limit: fianchetto_syzygy::MAX_PIECES,
            rule50: true,
        }
    }

    /// What the tables say of a search's root: the root moves narrowed to
    /// the best-ranked ones (`None` when the root is not in the tables),
    /// the most pieces the tree below may be probed at, and the probes
    /// made. The ranking is by DTZ where the DTZ tables are (a sure win
    /// keeps only the moves of the shortest DTZ: progress), else by WDL.
    /// Ranked by DTZ, the root's moves keep the result already and the tree
    /// is not probed; tables that contradict themselves at the root (a
    /// corrupt file) are trusted nowhere.
    pub(crate) fn rank_root<B: MoveGen>(&self, board: &B, limits: &Limits) -> RootRanking {
        let limit = self.probe_limit.min(self.tables.max_pieces());
        let unranked = |probe_limit| RootRanking {
            narrowed: None,
            probe_limit,
            hits: 0,
        };
        if board.occupied().count() > limit || !board.castling().is_empty() {
            return unranked(limit);
        }
        let ranked = match self.tables.root_moves(board, self.rule50) {
            Ok(m) => Ok((m, true)),
            Err(_) => self
                .tables
                .root_moves_wdl(board, self.rule50)
                .map(|m| (m, false)),
        };
        let (moves, by_dtz) = match ranked {
            Ok(ranked) => ranked,
            Err(fianchetto_syzygy::SyzygyError::Contradiction { .. }) => return unranked(0),
            Err(_) => return unranked(limit),
        };
        let allowed = |m: &fianchetto_syzygy::RootMove| {
            limits.searchmoves.is_empty() || limits.searchmoves.contains(&m.mv)
        };
        let Some(best) = moves.iter().find(|m| allowed(m)) else {
            return unranked(limit);
        };
        let strict = by_dtz && best.rank == fianchetto_syzygy::RANK_WIN;
        let keep: Vec<_> = moves
            .iter()
            .filter(|m| allowed(m) && m.rank == best.rank && (!strict || m.dtz == best.dtz))
            .map(|m| m.mv)
            .collect();
        RootRanking {
            narrowed: Some(Limits {
                searchmoves: keep,
                ..limits.clone()
            }),
            probe_limit: if by_dtz { 0 } else { limit },
            hits: moves.len() as u64,
        }
    }

    /// The WDL value of `board` (−2 loss, −1 blessed loss, 0 draw, 1
    /// cursed win, 2 win, for the side to move), when the tables have it
    /// and no castling right makes it differ.
    pub(crate) fn wdl<B: MoveGen>(&self, board: &B) -> Option<i8> {
        if !board.castling().is_empty() {
            return None;
        }
        Some(self.tables.probe_wdl(board).ok()?.value())
    }
}

/// What the tables said of a search's root ([`Syzygy::rank_root`]).
#[cfg(feature = "syzygy")]
#[derive(Clone, Debug)]
pub(crate) struct RootRanking {
    /// The limits with `searchmoves` narrowed to the best-ranked moves.
    pub narrowed: Option<Limits>,
    /// Probe positions of at most this many pieces below the root.
    pub probe_limit: u32,
    /// Probes that gave a value.
    pub hits: u64,
}

/// What a [`super::Pvs`] keeps between searches: the tables, when set.
#[derive(Clone, Debug, Default)]
pub(super) struct Tb {
    #[cfg(feature = "syzygy")]
    syzygy: Option<Syzygy>,
}

/// What the threads of one search share: the tables if the tree is probed,
/// and the probes that answered.
pub(super) struct TbSearch<'a> {
    #[cfg(feature = "syzygy")]
    syzygy: Option<&'a Syzygy>,
    /// Probe positions of at most this many pieces (0: none).
    limit: u32,
    depth: i32,
    hits: AtomicU64,
    _tables: std::marker::PhantomData<&'a ()>,
}

impl TbSearch<'_> {
    /// Probes that gave a value so far (root ranking included).
    pub(super) fn hits(&self) -> u64 {
        self.hits.load(Relaxed)
    }
}

#[cfg(feature = "syzygy")]
impl<E> super::Pvs<E> {
    /// Searches with the tables of `syzygy` (None: without tables).
    pub fn set_syzygy(&mut self, syzygy: Option<Syzygy>) {
        self.tb.syzygy = syzygy;
    }

    /// The tables, if set.
    pub fn syzygy(&self) -> Option<&Syzygy> {
        self.tb.syzygy.as_ref()
    }
}

impl Tb {
    /// Before a search: ranks the root moves if the root is in the tables.
    /// Returns the limits with `searchmoves` narrowed to the best-ranked
    /// moves (None: the root is not in the tables), and the state the
    /// threads share.
    #[cfg(feature = "syzygy")]
    pub(super) fn start<B: MoveGen>(
        &self,
        game: &Game<B>,
        limits: &Limits,
    ) -> (Option<Limits>, TbSearch<'_>) {
        let Some(s) = self.syzygy.as_ref() else {
            return (None, TbSearch::none());
        };
        let mut state = TbSearch {
            syzygy: Some(s),
            limit: s.probe_limit.min(s.tables.max_pieces()),
            depth: s.probe_depth,
            hits: AtomicU64::new(0),
            _tables: std::marker::PhantomData,
        };
        let ranking = s.rank_root(game.board(), limits);
        state.limit = ranking.probe_limit;
        state.hits.fetch_add(ranking.hits, Relaxed);
        (ranking.narrowed, state)
    }

    /// Without the `syzygy` feature there are no tables.
    #[cfg(not(feature = "syzygy"))]
    pub(super) fn start<B: MoveGen>(
        &self,
        _game: &Game<B>,
        _limits: &Limits,
    ) -> (Option<Limits>, TbSearch<'_>) {
        (None, TbSearch::none())
    }
}

impl TbSearch<'_> {
    fn none() -> Self {
        TbSearch {
            #[cfg(feature = "syzygy")]
            syzygy: None,
            limit: 0,
            depth: 0,
            hits: AtomicU64::new(0),
            _tables: std::marker::PhantomData,
        }
    }
}

impl<B: MoveGen, E: Evaluator<B>> Worker<'_, B, E> {
    /// The WDL tables' value of a node (not the root, not in a singular
    /// search) reached by a capture or a pawn move, when it ends the node:
    /// an exact draw, a win at or above `beta`, a loss at or below `alpha`.
    /// Stored in the transposition table. None otherwise, and always
    /// without the `syzygy` feature.
    pub(super) fn probe_tablebase(
        &mut self,
        board: &B,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
    ) -> Option<Score> {
        let tb = &self.shared.tb;
        if tb.limit == 0 || board.halfmove_clock() != 0 {
            return None;
        }
        let pieces = board.occupied().count();
        if pieces > tb.limit || (pieces == tb.limit && depth < tb.depth) {
            return None;
        }
        let (score, bound) = self.tablebase_score(board, ply)?;
        tb.hits.fetch_add(1, Relaxed);
        let decides = match bound {
            TtBound::Exact => true,
            TtBound::Lower => score >= beta,
            TtBound::Upper => score <= alpha,
        };
        if !decides {
            return None;
        }
        if self.cfg.tt {
            let eval = self.evaluate(board);
            let depth = (depth + 6).min(MAX_PLY as i32 - 1);
            let key = board.hash();
            let stored = score_to_tt(score, ply);
            self.shared.tt.store(
                key,
                fianchetto_board::Move::NULL,
                stored,
                eval,
                depth,
                bound,
                false,
            );
        }
        Some(score)
    }

    /// The node's WDL as a score and the bound it is.
    #[cfg(feature = "syzygy")]
    fn tablebase_score(&self, board: &B, ply: usize) -> Option<(Score, TtBound)> {
        let s = self.shared.tb.syzygy?;
        let wdl = s.wdl(board)?;
        let ply = ply as u32;
        let draw = if s.rule50 { 1 } else { 0 };
        Some(if wdl > draw {
            (Score::tb_win_in(ply), TtBound::Lower)
        } else if wdl < -draw {
            (Score::tb_loss_in(ply), TtBound::Upper)
        } else {
            (Score::DRAW + 2 * wdl as i32, TtBound::Exact)
        })
    }

    #[cfg(not(feature = "syzygy"))]
    fn tablebase_score(&self, _board: &B, _ply: usize) -> Option<(Score, TtBound)> {
        None
    }
}
