//! Minimax in its negamax form: every move searched to the full depth, no
//! pruning at all. The reference the other algorithms must agree with, and
//! the baseline of the node-count tables.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::{Evaluator, Score};
//! use fianchetto_movegen::Game;
//! use fianchetto_search::{minimax::Minimax, Limits, Search};
//!
//! #[derive(Clone, Default)]
//! struct Zero;
//! impl<B: Board> Evaluator<B> for Zero {
//!     fn evaluate(&mut self, _: &B) -> Score { Score::ZERO }
//! }
//!
//! // Fool's mate: black mates at once.
//! let game = Game::new(Bitboards::from_fen(
//!     "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")?);
//! let result = Minimax::new(Zero).search(&game, &Limits::depth(2), &mut |_| {});
//! assert_eq!(result.best_move.unwrap().to_string(), "d8h4");
//! assert_eq!(result.score, Score::mate_in(1));
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```

use crate::common::{drive, open_node, with_child, Ctx};
use crate::{Limits, Report, Search, SearchResult};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen};

/// Plain negamax to a fixed depth; the leaves get the static evaluation.
#[derive(Clone, Debug, Default)]
pub struct Minimax<E> {
    eval: E,
    iterative: bool,
}

impl<E> Minimax<E> {
    /// Minimax with evaluator `eval`, iterating depth 1, 2, … up to the limit.
    pub fn new(eval: E) -> Minimax<E> {
        Minimax {
            eval,
            iterative: true,
        }
    }

    /// With `false`, search only the depth limit (the fixed-depth counts of
    /// the textbooks); time limits then cut that one iteration short.
    pub fn iterative(mut self, iterative: bool) -> Minimax<E> {
        self.iterative = iterative;
        self
    }
}

impl<B: MoveGen, E: Evaluator<B>> Search<B> for Minimax<E> {
    fn search(&mut self, game: &Game<B>, limits: &Limits, report: Report<'_>) -> SearchResult {
        let eval = &mut self.eval;
        eval.reset(game.board());
        drive(game, limits, report, self.iterative, |ctx, depth| {
            root(ctx, eval, depth)
        })
    }

    fn clear(&mut self) {}

    fn name(&self) -> &'static str {
        "minimax"
    }
}

fn root<B: MoveGen, E: Evaluator<B>>(ctx: &mut Ctx<B>, eval: &mut E, depth: u32) -> Score {
    ctx.pv.clear(0);
    ctx.nodes += 1;
    let board = ctx.root.clone();
    let moves = ctx.root_moves.clone();
    let mut best = -Score::INFINITE;
    for mv in moves {
        let score = -with_child(ctx, eval, &board, mv, |c, e, n| {
            negamax(c, e, n, depth as i32 - 1, 1)
        });
        if ctx.control.aborted {
            break;
        }
        if score > best {
            best = score;
            ctx.pv.update(0, mv);
        }
    }
    best
}

fn negamax<B: MoveGen, E: Evaluator<B>>(
    ctx: &mut Ctx<B>,
    eval: &mut E,
    board: &B,
    depth: i32,
    ply: usize,
) -> Score {
    let moves = match open_node(ctx, eval, board, depth, ply) {
        Ok(moves) => moves,
        Err(value) => return value,
    };
    let mut best = -Score::INFINITE;
    for mv in moves {
        let score = -with_child(ctx, eval, board, mv, |c, e, n| {
            negamax(c, e, n, depth - 1, ply + 1)
        });
        if score > best {
            best = score;
            ctx.pv.update(ply, mv);
        }
    }
    best
}
