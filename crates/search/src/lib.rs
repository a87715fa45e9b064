//! # fianchetto-search
//!
//! Which move to play: every classic full-width search behind one
//! interface, [`Search`], so that they can be swapped and measured against
//! each other.
//!
//! - [`minimax`]: plain negamax, the reference.
//! - [`alphabeta`]: fail-soft alpha-beta with selectable move ordering and
//!   horizon treatment (the Rookie experiment).
//! - [`scout`]: Pearl's test-and-search.
//! - [`pvs`]: the strong one: principal variation search with iterative
//!   deepening, aspiration windows, a lock-free shared [`tt`], quiescence,
//!   pruning, reductions, extensions and Lazy SMP — each feature a switch in
//!   [`pvs::PvsConfig`].
//! - [`mcts`]: Monte Carlo tree search: [`mcts::Mcts::puct`] the variant
//!   that plays, [`mcts::Mcts::new`] plain UCT, and the hybrids between.
//! - [`time`]: turning clock limits into deadlines.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board, Role, Color};
//! use fianchetto_eval::{Evaluator, Score};
//! use fianchetto_movegen::Game;
//! use fianchetto_search::{pvs::Pvs, Limits, Search};
//!
//! /// Material only, for the side to move.
//! #[derive(Clone, Default)]
//! struct Material;
//! impl<B: Board> Evaluator<B> for Material {
//!     fn evaluate(&mut self, b: &B) -> Score {
//!         let v = [100, 300, 300, 500, 900, 0];
//!         let side = |c| Role::ALL.iter().map(|&r| v[r.index()] * b.pieces(c, r).count() as i32).sum::<i32>();
//!         Score(side(b.turn()) - side(!b.turn()))
//!     }
//! }
//!
//! // A back-rank mate: 1.Rd8#.
//! let game = Game::new(Bitboards::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")?);
//! let mut pvs = Pvs::new(Material);
//! let result = pvs.search(&game, &Limits::depth(5), &mut |info| println!("{}", info.to_uci()));
//! assert_eq!(result.best_move.unwrap().to_string(), "d1d8");
//! assert_eq!(result.score, Score::mate_in(1));
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```
#![warn(missing_docs)]

pub mod ablation;
pub mod alphabeta;
mod common;
pub mod cuckoo;
mod limits;
pub mod mcts;
pub mod minimax;
pub mod multipv;
pub mod pvs;
pub mod scout;
pub mod see;
pub mod select;
pub mod strength;
pub mod time;
pub mod tt;

pub use limits::{Bound, Info, Limits, SearchResult};

/// Where a search sends its progress: called with an [`Info`] after each
/// completed iteration (depth, score, principal variation, node counts).
/// Pass `&mut |_| {}` to ignore it, or a closure that prints UCI `info`
/// lines.
pub type Report<'a> = &'a mut dyn FnMut(&Info);

use fianchetto_movegen::{Game, MoveGen};

/// The deepest ply any search goes (extensions and quiescence included).
pub const MAX_PLY: usize = 128;

/// A search algorithm: given a game (the position and its history, for
/// repetitions) and limits, find the best move.
///
/// Implemented by every algorithm of this crate, for every board backend
/// `B`; the evaluator is a parameter of the implementing type, so an engine
/// can hold a `Box<dyn Search<B>>` and swap algorithms at run time.
pub trait Search<B: MoveGen> {
    /// Searches the current position of `game` until a limit is reached,
    /// calling `report` after each completed iteration, and returns the
    /// best move found.
    fn search(&mut self, game: &Game<B>, limits: &Limits, report: Report<'_>) -> SearchResult;

    /// The `lines` best root moves found by one search, best first, for
    /// algorithms that rank every root move as they go (MCTS, by visits);
    /// `report(k, info)` receives line `k`'s progress (from 1). `None`, the
    /// default, when the algorithm finds one line per search:
    /// [`multipv::search_lines`] then runs one search per line.
    fn search_multipv(
        &mut self,
        _game: &Game<B>,
        _limits: &Limits,
        _lines: usize,
        _report: &mut dyn FnMut(usize, &Info),
    ) -> Option<Vec<SearchResult>> {
        None
    }

    /// Forgets everything learned so far (hash table, history): the next
    /// search starts as if new (UCI `ucinewgame`).
    fn clear(&mut self);

    /// The algorithm's short name (`minimax`, `alphabeta`, `scout`, `pvs`).
    fn name(&self) -> &'static str;
}

impl<B: MoveGen, S: Search<B> + ?Sized> Search<B> for Box<S> {
    fn search(&mut self, game: &Game<B>, limits: &Limits, report: Report<'_>) -> SearchResult {
        (**self).search(game, limits, report)
    }
    fn search_multipv(
        &mut self,
        game: &Game<B>,
        limits: &Limits,
        lines: usize,
        report: &mut dyn FnMut(usize, &Info),
    ) -> Option<Vec<SearchResult>> {
        (**self).search_multipv(game, limits, lines, report)
    }
    fn clear(&mut self) {
        (**self).clear()
    }
    fn name(&self) -> &'static str {
        (**self).name()
    }
}

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
