//! Pieces every algorithm shares: the path of positions for draw detection,
//! the triangular PV table, the abort check, and the iterative-deepening
//! driver of the simple algorithms (minimax, alpha-beta, Scout).

use crate::limits::nps;
use crate::time::TimeManager;
use crate::{Info, Limits, Report, SearchResult, MAX_PLY};
use fianchetto_board::{Board, Move};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen, MoveList};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The hashes of the positions from the game's start to the current node,
/// for repetition detection (including repetitions of positions played
/// before the root).
#[derive(Clone, Debug, Default)]
pub(crate) struct Path {
    hashes: Vec<u64>,
    /// Index of the root position in `hashes`.
    root: usize,
}

impl Path {
    /// The game's positions up to and including the root. Reserves room
    /// for the search so that `push` never allocates.
    pub fn from_game<B: MoveGen>(game: &Game<B>) -> Path {
        let mut hashes = Vec::with_capacity(game.positions().len() + MAX_PLY + 8);
        hashes.extend(game.hashes());
        Path {
            root: hashes.len().saturating_sub(1),
            hashes,
        }
    }

    #[inline]
    pub fn push(&mut self, hash: u64) {
        self.hashes.push(hash);
    }

    #[inline]
    pub fn pop(&mut self) {
        self.hashes.pop();
    }

    /// Every hash, oldest first, the current position last.
    #[inline]
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Index of the root position in [`Path::hashes`].
    #[inline]
    pub fn root(&self) -> usize {
        self.root
    }

    /// Whether the current position (the last pushed) is a draw by
    /// repetition, looking back over the reversible moves: a position that
    /// occurred once before *after the root* (inside the search) counts: if
    /// repeating is good for one side, it can repeat again, so a search
    /// scores the first repetition as the draw it leads to. A position whose
    /// earlier occurrences are all at or before the root needs two of them
    /// (the third occurrence the rules ask for).
    #[inline]
    pub fn is_repetition(&self, halfmove_clock: u32) -> bool {
        let n = self.hashes.len();
        let Some(&hash) = self.hashes.last() else {
            return false;
        };
        let window = (halfmove_clock as usize).min(n - 1);
        let mut earlier = 0;
        let mut i = 4;
        while i <= window {
            let j = n - 1 - i;
            if self.hashes[j] == hash {
                if j > self.root {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }
}

/// Whether the current position (last on `path`) is a draw by the rules a
/// search must know: fifty moves (unless this move mated), repetition,
/// insufficient material.
#[inline]
pub(crate) fn is_draw<B: MoveGen>(board: &B, path: &Path) -> bool {
    let clock = board.halfmove_clock();
    if clock >= 100 && !(board.in_check() && board.has_no_moves()) {
        return true;
    }
    (clock >= 4 && path.is_repetition(clock)) || board.is_insufficient_material()
}

/// The score of a position without legal moves, `ply` plies from the root.
#[inline]
pub(crate) fn no_moves_score<B: Board>(board: &B, ply: usize) -> Score {
    if board.in_check() {
        Score::mated_in(ply as u32)
    } else {
        Score::DRAW
    }
}

/// Plays `mv` on a copy of `board` (copy-make), runs `f` on the child with
/// the evaluator and the path updated, and takes both back.
#[inline]
pub(crate) fn with_child<B: MoveGen, E: Evaluator<B>, T>(
    ctx: &mut Ctx<B>,
    eval: &mut E,
    board: &B,
    mv: Move,
    f: impl FnOnce(&mut Ctx<B>, &mut E, &B) -> T,
) -> T {
    let mut next = board.clone();
    next.play_unchecked(mv);
    eval.push(board, mv, &next);
    ctx.path.push(next.hash());
    let out = f(ctx, eval, &next);
    ctx.path.pop();
    eval.pop();
    out
}

/// The start of an exact (full-window) node below the root, shared by
/// minimax and Scout: clears the PV at `ply`, then returns `Err(value)` when
/// the node is decided without searching (an abort gives zero; a draw; the
/// static evaluation at the horizon; mate or stalemate without legal
/// moves), else `Ok` with the legal moves to search.
#[inline]
pub(crate) fn open_node<B: MoveGen, E: Evaluator<B>>(
    ctx: &mut Ctx<B>,
    eval: &mut E,
    board: &B,
    depth: i32,
    ply: usize,
) -> Result<MoveList, Score> {
    ctx.pv.clear(ply);
    if ctx.enter(ply) {
        return Err(Score::ZERO);
    }
    if is_draw(board, &ctx.path) {
        return Err(Score::DRAW);
    }
    if depth <= 0 || ply >= MAX_PLY {
        ctx.evals += 1;
        return Err(eval.evaluate(board));
    }
    let moves = board.legal_moves();
    if moves.is_empty() {
        return Err(no_moves_score(board, ply));
    }
    Ok(moves)
}

/// The triangular principal-variation table: `line(ply)` is the best line
/// found from the node at `ply`. Fixed arrays, no allocation while searching.
pub(crate) struct PvTable {
    moves: [[Move; MAX_PLY + 1]; MAX_PLY + 1],
    len: [usize; MAX_PLY + 1],
}

impl PvTable {
    pub fn new() -> Box<PvTable> {
        Box::new(PvTable {
            moves: [[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            len: [0; MAX_PLY + 1],
        })
    }

    /// Empties every line (a table kept from an earlier search).
    pub fn reset(&mut self) {
        self.len = [0; MAX_PLY + 1];
    }

    /// Empties the line at `ply` (on entering a node).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// The line at `ply` becomes `mv` followed by the line at `ply + 1`.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.moves.split_at_mut(ply + 1);
        let child_len = if ply < MAX_PLY { self.len[ply + 1] } else { 0 };
        head[ply][0] = mv;
        if child_len > 0 {
            head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        }
        self.len[ply] = child_len + 1;
    }

    /// The line at `ply`.
    #[inline]
    pub fn line(&self, ply: usize) -> &[Move] {
        &self.moves[ply][..self.len[ply]]
    }
}

/// Decides when a single-threaded search must stop: the shared stop flag,
/// the node limit and the hard deadline.
pub(crate) struct Control {
    pub stop: Arc<AtomicBool>,
    pub node_limit: Option<u64>,
    pub time: TimeManager,
    pub aborted: bool,
}

impl Control {
    pub fn new(limits: &Limits, time: TimeManager) -> Control {
        Control {
            stop: limits.stop.clone(),
            node_limit: limits.nodes,
            time,
            aborted: false,
        }
    }

    /// Checks every 1024 nodes (reading the clock costs); once aborted,
    /// stays aborted.
    #[inline]
    pub fn check(&mut self, nodes: u64) -> bool {
        if self.aborted {
            return true;
        }
        let limit_hit = self.node_limit.is_some_and(|n| nodes >= n);
        // Reading the clock and the shared flags costs: every 1024 nodes.
        let flagged =
            nodes & 1023 == 0 && (self.stop.load(Ordering::Relaxed) || self.time.hard_expired());
        self.aborted = limit_hit || flagged;
        self.aborted
    }
}

/// What the simple algorithms need while searching: the path, the PV, the
/// counters and the abort check.
pub(crate) struct Ctx<B: Board> {
    pub root: B,
    pub root_moves: MoveList,
    pub path: Path,
    pub pv: Box<PvTable>,
    pub nodes: u64,
    pub evals: u64,
    pub seldepth: usize,
    pub control: Control,
}

impl<B: MoveGen> Ctx<B> {
    /// Counts a node and says whether to abort.
    #[inline]
    pub fn enter(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.control.check(self.nodes)
    }
}

/// The root moves: the legal ones, restricted to `searchmoves` if given.
pub(crate) fn root_moves<B: MoveGen>(board: &B, searchmoves: &[Move]) -> MoveList {
    let mut moves = board.legal_moves();
    if !searchmoves.is_empty() {
        moves.retain(|m| searchmoves.contains(m));
    }
    moves
}

/// Iterative deepening for the simple algorithms: `root(ctx, depth)`
/// searches the root to `depth` and returns its score (its PV in
/// `ctx.pv.line(0)`); an iteration cut short by the limits is discarded.
/// With `iterative` false only the limit depth is searched (the way the
/// textbooks count nodes of a fixed-depth search).
pub(crate) fn drive<B, F>(
    game: &Game<B>,
    limits: &Limits,
    report: Report<'_>,
    iterative: bool,
    mut root: F,
) -> SearchResult
where
    B: MoveGen,
    F: FnMut(&mut Ctx<B>, u32) -> Score,
{
    let board = game.board().clone();
    let time = TimeManager::new(limits, board.turn());
    let mut ctx = Ctx {
        root_moves: root_moves(&board, &limits.searchmoves),
        root: board,
        path: Path::from_game(game),
        pv: PvTable::new(),
        nodes: 0,
        evals: 0,
        seldepth: 0,
        control: Control::new(limits, time),
    };
    let mut result = SearchResult {
        best_move: ctx.root_moves.first().copied(),
        ..SearchResult::default()
    };
    if ctx.root_moves.is_empty() {
        result.score = if limits.searchmoves.is_empty() {
            no_moves_score(&ctx.root, 0)
        } else {
            Score::DRAW
        };
        return result;
    }
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1);
    let first = if iterative { 1 } else { max_depth };
    let mut stable = 0;
    for depth in first..=max_depth {
        let score = root(&mut ctx, depth);
        if ctx.control.aborted {
            break;
        }
        let pv = ctx.pv.line(0).to_vec();
        if pv.first().copied() == result.best_move && depth > 1 {
            stable += 1;
        } else {
            stable = 0;
        }
        result.best_move = pv.first().copied().or(result.best_move);
        result.ponder = pv.get(1).copied();
        result.score = score;
        result.depth = depth;
        result.pv = pv;
        let elapsed = ctx.control.time.elapsed();
        report(&Info {
            depth,
            seldepth: ctx.seldepth as u32,
            score,
            bound: crate::Bound::Exact,
            nodes: ctx.nodes,
            nps: nps(ctx.nodes, elapsed),
            hashfull: 0,
            time: elapsed,
            pv: result.pv.clone(),
            tbhits: 0,
        });
        if mate_limit_reached(limits, score)
            || ctx.control.time.soft_expired(stable)
            || limits.stopped()
        {
            break;
        }
    }
    result.seldepth = ctx.seldepth as u32;
    result.nodes = ctx.nodes;
    result.evals = ctx.evals;
    result.time = ctx.control.time.elapsed();
    result
}

/// Whether a `go mate N` search may stop: it found a mate in N or fewer.
pub(crate) fn mate_limit_reached(limits: &Limits, score: Score) -> bool {
    match (limits.mate, score.mate_moves()) {
        (Some(n), Some(m)) => m > 0 && m as u32 <= n,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(hashes: &[u64], root: usize) -> Path {
        Path {
            hashes: hashes.to_vec(),
            root,
        }
    }

    #[test]
    fn repetition_rules_around_the_root() {
        // Position 7 repeats, four plies apart.
        let h = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 7];
        // The earlier occurrence (index 6) is after the root: a draw.
        assert!(path(&h, 5).is_repetition(100));
        // It is the root itself, or before it: only a second occurrence.
        assert!(!path(&h, 6).is_repetition(100));
        assert!(!path(&h, 8).is_repetition(100));
        // Twice before the root: the third occurrence is a draw.
        let h = [7, 2, 3, 4, 5, 6, 7, 8, 9, 10, 7];
        assert!(path(&h, 9).is_repetition(100));
        // ...but not when the oldest is beyond the reversible moves.
        assert!(!path(&h, 9).is_repetition(9));
        // Odd distances never match (the side to move differs).
        let h = [1, 2, 3, 4, 5, 6, 7, 8, 9, 7];
        assert!(!path(&h, 0).is_repetition(100));
    }
}
