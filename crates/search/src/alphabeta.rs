//! Alpha-beta (fail-soft negamax) with a choice of move ordering and of what
//! happens at the horizon: the cumulative versions of the Rookie thesis
//! (plain, MVV-LVA, killer moves, a capture/check extension) and a
//! quiescence search.
//!
//! Fail-soft means a node returns the best score it saw even outside the
//! window, which is a tighter bound than the window edge for the parent.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::{Evaluator, Score};
//! use fianchetto_movegen::Game;
//! use fianchetto_search::alphabeta::{AlphaBeta, MoveOrdering};
//! use fianchetto_search::{Limits, Search};
//!
//! #[derive(Clone, Default)]
//! struct Zero;
//! impl<B: Board> Evaluator<B> for Zero {
//!     fn evaluate(&mut self, _: &B) -> Score { Score::ZERO }
//! }
//!
//! let game = Game::new(Bitboards::from_fen(
//!     "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")?);
//! let mut ab = AlphaBeta::new(Zero).ordering(MoveOrdering::Killers);
//! let result = ab.search(&game, &Limits::depth(4), &mut |_| {});
//! assert_eq!(result.best_move.unwrap().to_string(), "d8h4");
//! assert_eq!(result.score, Score::mate_in(1));
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```

use crate::common::{drive, is_draw, no_moves_score, Ctx};
use crate::see::mvv_lva;
use crate::{Limits, Report, Search, SearchResult, MAX_PLY};
use arrayvec::ArrayVec;
use fianchetto_board::{Board, Move};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen, MoveList};

/// How moves are ordered before searching them (cumulative, as in Rookie).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MoveOrdering {
    /// Generation order.
    #[default]
    None,
    /// Captures first, most valuable victim / least valuable attacker.
    MvvLva,
    /// MVV-LVA, then two killer moves per ply (quiet moves that caused a
    /// cutoff at the same ply elsewhere in the tree), then the other quiets.
    Killers,
}

/// What the search does when the depth runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Horizon {
    /// Return the static evaluation.
    #[default]
    Static,
    /// Rookie's extension: a position in check or reached by a capture is
    /// searched one ply deeper (at most [`MAX_EXTENSIONS`] times on a path),
    /// so that a check is not a leaf (all replies) and the last capture is
    /// answered (recaptures, or standing pat on the static score).
    Extension,
    /// A quiescence search: stand pat, or try captures (all moves when in
    /// check) until the position is quiet.
    Quiescence,
}

/// The most plies [`Horizon::Extension`] adds to one path.
pub const MAX_EXTENSIONS: i32 = 1;

/// Fail-soft alpha-beta.
#[derive(Clone, Debug)]
pub struct AlphaBeta<E> {
    eval: E,
    ordering: MoveOrdering,
    horizon: Horizon,
    iterative: bool,
    killers: Box<[[Move; 2]; MAX_PLY + 1]>,
}

impl<E> AlphaBeta<E> {
    /// Alpha-beta with evaluator `eval`, no ordering, static leaves,
    /// iterative deepening.
    pub fn new(eval: E) -> AlphaBeta<E> {
        AlphaBeta {
            eval,
            ordering: MoveOrdering::None,
            horizon: Horizon::Static,
            iterative: true,
            killers: Box::new([[Move::NULL; 2]; MAX_PLY + 1]),
        }
    }

    /// Sets the move ordering.
    pub fn ordering(mut self, ordering: MoveOrdering) -> AlphaBeta<E> {
        self.ordering = ordering;
        self
    }

    /// Sets what happens at the horizon.
    pub fn horizon(mut self, horizon: Horizon) -> AlphaBeta<E> {
        self.horizon = horizon;
        self
    }

    /// With `false`, search only the depth limit (fixed-depth node counts).
    pub fn iterative(mut self, iterative: bool) -> AlphaBeta<E> {
        self.iterative = iterative;
        self
    }
}

impl<B: MoveGen, E: Evaluator<B>> Search<B> for AlphaBeta<E> {
    fn search(&mut self, game: &Game<B>, limits: &Limits, report: Report<'_>) -> SearchResult {
        self.eval.reset(game.board());
        *self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        let mut s = State {
            eval: &mut self.eval,
            ordering: self.ordering,
            horizon: self.horizon,
            killers: &mut self.killers,
        };
        drive(game, limits, report, self.iterative, |ctx, depth| {
            s.root(ctx, depth)
        })
    }

    fn clear(&mut self) {
        *self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
    }

    fn name(&self) -> &'static str {
        "alphabeta"
    }
}

struct State<'a, E> {
    eval: &'a mut E,
    ordering: MoveOrdering,
    horizon: Horizon,
    killers: &'a mut [[Move; 2]; MAX_PLY + 1],
}

impl<E> State<'_, E> {
    /// Sorts `moves` best first according to the ordering (a stable sort on
    /// small keys: ties keep generation order).
    fn order<B: Board>(&self, board: &B, moves: &mut MoveList, ply: usize) {
        if self.ordering == MoveOrdering::None {
            return;
        }
        let killers = self.killers[ply];
        let mut keyed: ArrayVec<(i32, Move), 256> = moves
            .iter()
            .map(|&mv| {
                let key = if !mv.is_quiet() {
                    1_000_000 + mvv_lva(board, mv)
                } else if self.ordering == MoveOrdering::Killers && mv == killers[0] {
                    2
                } else if self.ordering == MoveOrdering::Killers && mv == killers[1] {
                    1
                } else {
                    0
                };
                (key, mv)
            })
            .collect();
        keyed.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        for (slot, (_, mv)) in moves.iter_mut().zip(keyed) {
            *slot = mv;
        }
    }

    fn store_killer(&mut self, mv: Move, ply: usize) {
        if self.ordering == MoveOrdering::Killers && mv.is_quiet() && self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
    }
}

impl<E> State<'_, E> {
    fn root<B: MoveGen>(&mut self, ctx: &mut Ctx<B>, depth: u32) -> Score
    where
        E: Evaluator<B>,
    {
        let previous_best = ctx.pv.line(0).first().copied();
        ctx.pv.clear(0);
        ctx.nodes += 1;
        let board = ctx.root.clone();
        let mut moves = ctx.root_moves.clone();
        self.order(&board, &mut moves, 0);
        // Search the previous iteration's best move first, if ordering.
        if self.ordering != MoveOrdering::None {
            if let Some(i) = moves.iter().position(|&m| Some(m) == previous_best) {
                moves[..=i].rotate_right(1);
            }
        }
        let (mut alpha, beta) = (-Score::INFINITE, Score::INFINITE);
        let mut best = -Score::INFINITE;
        for mv in moves {
            let score = -self.child(ctx, &board, mv, -beta, -alpha, depth as i32 - 1, 1, 0);
            if ctx.control.aborted {
                break;
            }
            if score > best {
                best = score;
                ctx.pv.update(0, mv);
                alpha = alpha.max(score);
            }
        }
        best
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child<B: MoveGen>(
        &mut self,
        ctx: &mut Ctx<B>,
        board: &B,
        mv: Move,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        extended: i32,
    ) -> Score
    where
        E: Evaluator<B>,
    {
        let mut next = board.clone();
        next.play_unchecked(mv);
        self.eval.push(board, mv, &next);
        ctx.path.push(next.hash());
        // Rookie's horizon extension: answer the last capture, never stop in check.
        let (depth, extended) = if depth <= 0
            && self.horizon == Horizon::Extension
            && extended < MAX_EXTENSIONS
            && (mv.is_capture() || next.in_check())
        {
            (1, extended + 1)
        } else {
            (depth, extended)
        };
        let score = self.alphabeta(ctx, &next, alpha, beta, depth, ply, extended);
        ctx.path.pop();
        self.eval.pop();
        score
    }

    #[allow(clippy::too_many_arguments)]
    fn alphabeta<B: MoveGen>(
        &mut self,
        ctx: &mut Ctx<B>,
        board: &B,
        mut alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        extended: i32,
    ) -> Score
    where
        E: Evaluator<B>,
    {
        ctx.pv.clear(ply);
        if ctx.enter(ply) {
            return Score::ZERO;
        }
        if is_draw(board, &ctx.path) {
            return Score::DRAW;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return match self.horizon {
                Horizon::Quiescence if ply < MAX_PLY => {
                    self.quiescence(ctx, board, alpha, beta, ply)
                }
                _ => {
                    ctx.evals += 1;
                    self.eval.evaluate(board)
                }
            };
        }
        // The extended ply answers the capture that triggered it: captures
        // only, or standing pat (every move when in check).
        let tactical = extended > 0 && depth == 1 && !board.in_check();
        let mut best = -Score::INFINITE;
        let mut moves = if tactical {
            ctx.evals += 1;
            best = self.eval.evaluate(board);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            board.captures()
        } else {
            board.legal_moves()
        };
        if moves.is_empty() && !tactical {
            return no_moves_score(board, ply);
        }
        self.order(board, &mut moves, ply);
        for mv in moves {
            let score = -self.child(ctx, board, mv, -beta, -alpha, depth - 1, ply + 1, extended);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    ctx.pv.update(ply, mv);
                    if alpha >= beta {
                        self.store_killer(mv, ply);
                        break;
                    }
                }
            }
        }
        best
    }

    /// Captures only (every move when in check), with stand-pat.
    fn quiescence<B: MoveGen>(
        &mut self,
        ctx: &mut Ctx<B>,
        board: &B,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score
    where
        E: Evaluator<B>,
    {
        let in_check = board.in_check();
        let mut best = -Score::INFINITE;
        let mut moves = if in_check {
            let moves = board.legal_moves();
            if moves.is_empty() {
                return Score::mated_in(ply as u32);
            }
            moves
        } else {
            ctx.evals += 1;
            best = self.eval.evaluate(board);
            if best >= beta || ply >= MAX_PLY - 1 {
                return best;
            }
            alpha = alpha.max(best);
            board.captures()
        };
        self.order(board, &mut moves, ply);
        for mv in moves {
            let mut next = board.clone();
            next.play_unchecked(mv);
            self.eval.push(board, mv, &next);
            ctx.path.push(next.hash());
            ctx.pv.clear(ply + 1);
            let score = if ctx.enter(ply + 1) {
                Score::ZERO
            } else if is_draw(&next, &ctx.path) {
                Score::DRAW
            } else {
                -self.quiescence(ctx, &next, -beta, -alpha, ply + 1)
            };
            ctx.path.pop();
            self.eval.pop();
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    ctx.pv.update(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
