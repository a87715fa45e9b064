//! Pearl's Scout: evaluate the first move exactly, then only *test* whether
//! each other move beats it with a boolean search (which prunes like a
//! null-window alpha-beta); evaluate a move exactly only when its test says
//! it is better. The ancestor of PVS and of null-window searches.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::{Evaluator, Score};
//! use fianchetto_movegen::Game;
//! use fianchetto_search::{scout::Scout, Limits, Search};
//!
//! #[derive(Clone, Default)]
//! struct Zero;
//! impl<B: Board> Evaluator<B> for Zero {
//!     fn evaluate(&mut self, _: &B) -> Score { Score::ZERO }
//! }
//!
//! let game = Game::new(Bitboards::from_fen(
//!     "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")?);
//! let result = Scout::new(Zero).search(&game, &Limits::depth(3), &mut |_| {});
//! assert_eq!(result.score, Score::mate_in(1));
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```

use crate::common::{drive, is_draw, no_moves_score, open_node, with_child, Ctx};
use crate::{Limits, Report, Search, SearchResult, MAX_PLY};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen};

/// Pearl's test-and-search Scout.
#[derive(Clone, Debug, Default)]
pub struct Scout<E> {
    eval: E,
    iterative: bool,
}

impl<E> Scout<E> {
    /// Scout with evaluator `eval`, iterating depth 1, 2, … up to the limit.
    pub fn new(eval: E) -> Scout<E> {
        Scout {
            eval,
            iterative: true,
        }
    }

    /// With `false`, search only the depth limit.
    pub fn iterative(mut self, iterative: bool) -> Scout<E> {
        self.iterative = iterative;
        self
    }
}

impl<B: MoveGen, E: Evaluator<B>> Search<B> for Scout<E> {
    fn search(&mut self, game: &Game<B>, limits: &Limits, report: Report<'_>) -> SearchResult {
        let eval = &mut self.eval;
        eval.reset(game.board());
        drive(game, limits, report, self.iterative, |ctx, depth| {
            root(ctx, eval, depth)
        })
    }

    fn clear(&mut self) {}

    fn name(&self) -> &'static str {
        "scout"
    }
}

fn root<B: MoveGen, E: Evaluator<B>>(ctx: &mut Ctx<B>, eval: &mut E, depth: u32) -> Score {
    let previous_best = ctx.pv.line(0).first().copied();
    ctx.pv.clear(0);
    ctx.nodes += 1;
    let board = ctx.root.clone();
    let mut moves = ctx.root_moves.clone();
    // The previous iteration's best move first: Scout gains most when the
    // first move is the best.
    if let Some(i) = moves.iter().position(|&m| Some(m) == previous_best) {
        moves[..=i].rotate_right(1);
    }
    let d = depth as i32 - 1;
    let mut best = -Score::INFINITE;
    for (i, &mv) in moves.iter().enumerate() {
        // Our score through `mv` beats `best` iff the child's value is
        // below `-best`, i.e. the child does not reach `-best`.
        let better =
            i == 0 || with_child(ctx, eval, &board, mv, |c, e, n| !test(c, e, n, -best, d, 1));
        if ctx.control.aborted {
            break;
        }
        if better {
            let score = -with_child(ctx, eval, &board, mv, |c, e, n| scout(c, e, n, d, 1));
            if ctx.control.aborted {
                break;
            }
            best = score;
            ctx.pv.update(0, mv);
        }
    }
    best
}

/// The exact minimax value of `board` searched `depth` plies deep.
fn scout<B: MoveGen, E: Evaluator<B>>(
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
    for (i, &mv) in moves.iter().enumerate() {
        let better = i == 0
            || with_child(ctx, eval, board, mv, |c, e, n| {
                !test(c, e, n, -best, depth - 1, ply + 1)
            });
        if better {
            best = -with_child(ctx, eval, board, mv, |c, e, n| {
                scout(c, e, n, depth - 1, ply + 1)
            });
            ctx.pv.update(ply, mv);
        }
    }
    best
}

/// Pearl's TEST: whether the value of `board` is at least `v`. It stops at
/// the first move that proves it, so it visits far fewer nodes than an
/// exact evaluation.
fn test<B: MoveGen, E: Evaluator<B>>(
    ctx: &mut Ctx<B>,
    eval: &mut E,
    board: &B,
    v: Score,
    depth: i32,
    ply: usize,
) -> bool {
    if ctx.enter(ply) {
        return false;
    }
    if is_draw(board, &ctx.path) {
        return Score::DRAW >= v;
    }
    if depth <= 0 || ply >= MAX_PLY {
        ctx.evals += 1;
        return eval.evaluate(board) >= v;
    }
    let moves = board.legal_moves();
    if moves.is_empty() {
        return no_moves_score(board, ply) >= v;
    }
    // value >= v iff some move has -value(child) >= v, i.e. value(child) <= -v,
    // i.e. the child does not reach -v + 1.
    let target = Score(1) - v;
    moves.iter().any(|&mv| {
        with_child(ctx, eval, board, mv, |c, e, n| {
            !test(c, e, n, target, depth - 1, ply + 1)
        })
    })
}
