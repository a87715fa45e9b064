//! One search thread: selection, expansion, simulation (rollout or
//! quiescence value) and backpropagation with the solver step.

use super::config::{MctsConfig, Variant};
use super::history::MoveHistory;
use super::policy::Policy;
use super::tablebase::TbProbe;
use super::tree::{Expansion, Tree};
use crate::common::no_moves_score;
use crate::see::{mvv_lva, see_ge};
use crate::time::TimeManager;
use arrayvec::ArrayVec;
use fianchetto_board::Move;
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::check::CheckInfo;
use fianchetto_movegen::{MoveGen, MoveList};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};

/// The deepest tree path; below it a node is simulated, never expanded.
pub(crate) const MAX_TREE_DEPTH: usize = 192;

/// The longest rollout whatever the config says.
const MAX_ROLLOUT: u32 = 4096;

/// Quiescence plies (captures, and quiet checks at the first; evasions
/// when in check).
const MAX_QPLY: u32 = 8;

/// Everything the threads of one search share.
pub(crate) struct Shared<'a> {
    pub config: &'a MctsConfig,
    pub stop: &'a AtomicBool,
    pub abort: AtomicBool,
    /// Iterations claimed (a thread claims one before running it).
    pub claimed: AtomicU64,
    /// Iterations completed.
    pub done: AtomicU64,
    pub nodes: AtomicU64,
    pub evals: AtomicU64,
    /// The sum of the tree depths of the completed iterations.
    pub depth_sum: AtomicU64,
    pub seldepth: AtomicU32,
    pub iteration_limit: u64,
    pub node_limit: u64,
    pub time: TimeManager,
    /// No time, node or iteration limit and not infinite: end when the
    /// arena is full (nothing more can be learned cheaply).
    pub stop_when_full: bool,
    /// Whether a full arena ends the epoch to be recycled
    /// ([`Tree::recycle`]); off when the search ends when full, or when
    /// recycling could free nothing.
    pub recycling: AtomicBool,
    /// An arena is full: the threads end this epoch for it to be recycled.
    pub full: AtomicBool,
    /// Root moves allowed (`searchmoves`); empty for all.
    pub searchmoves: &'a [Move],
    /// The endgame tables, if set.
    pub tb: TbProbe<'a>,
    /// Virtual losses a thread adds to each node on its path (0 unless
    /// tree parallel).
    pub vloss: u32,
}

impl Shared<'_> {
    /// Whether the search must end now (cheap checks; the clock only every
    /// 16 iterations).
    #[inline]
    pub fn should_stop(&self, iteration: u64) -> bool {
        if self.abort.load(Relaxed)
            || self.full.load(Relaxed)
            || self.stop.load(Relaxed)
            || self.nodes.load(Relaxed) >= self.node_limit
        {
            return true;
        }
        if iteration & 15 == 0 && self.time.hard_expired() {
            self.abort.store(true, Relaxed);
            return true;
        }
        false
    }
}

/// `1 / (1 + e^(-cp / scale))`: a score as a win probability.
#[inline]
pub(crate) fn sigmoid(cp: i32, scale: f64) -> f64 {
    1.0 / (1.0 + (-(cp as f64) / scale.max(1.0)).exp())
}

/// The result an exact score stands for: 1, ½ or 0.
#[inline]
fn proven_result(s: Score) -> f64 {
    match s.0.signum() {
        1 => 1.0,
        -1 => 0.0,
        _ => 0.5,
    }
}

/// A child's exact score seen from its parent: negated, one ply further
/// from the mate.
#[inline]
pub(crate) fn from_child(s: Score) -> Score {
    let v = -s.0;
    if v >= Score::MATE_BOUND.0 {
        Score(v - 1)
    } else if v <= -Score::MATE_BOUND.0 {
        Score(v + 1)
    } else {
        Score(v)
    }
}

/// A search thread.
pub(crate) struct Worker<'a, B: MoveGen, E, P> {
    pub tree: &'a Tree,
    pub shared: &'a Shared<'a>,
    pub root: &'a B,
    pub eval: E,
    pub policy: P,
    rng: Xoshiro256PlusPlus,
    /// The game's hashes, then the current path's (no allocation: reserved).
    hashes: Vec<u64>,
    base: usize,
    path: ArrayVec<u32, { MAX_TREE_DEPTH + 2 }>,
    vloss: u32,
    nodes: u64,
    evals: u64,
    /// How each move has fared so far, read by PUCT's priors; none when
    /// [`MctsConfig::history_weight`] is 0 (the teaching variants).
    history: Option<MoveHistory>,
}

impl<'a, B: MoveGen, E: Evaluator<B>, P: Policy<B>> Worker<'a, B, E, P> {
    /// A worker over `tree`; `history` holds the hashes of the game's
    /// positions, the root's last.
    pub fn new(
        tree: &'a Tree,
        shared: &'a Shared<'a>,
        root: &'a B,
        eval: E,
        policy: P,
        history: &[u64],
        seed: u64,
    ) -> Self {
        let cfg = shared.config;
        // Rollouts end when this fills up, so an absurd length in the config
        // costs no absurd allocation.
        let rollout = cfg.max_rollout.max(cfg.cutoff).min(MAX_ROLLOUT) as usize;
        let mut hashes = Vec::with_capacity(history.len() + MAX_TREE_DEPTH + rollout + 16);
        hashes.extend_from_slice(history);
        Worker {
            tree,
            shared,
            root,
            eval,
            policy,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            base: hashes.len(),
            hashes,
            path: ArrayVec::new(),
            vloss: shared.vloss,
            nodes: 0,
            evals: 0,
            history: (cfg.history_weight != 0.0).then(MoveHistory::new),
        }
    }

    /// Runs iterations until a limit; `on_iteration` (the main thread's
    /// reporting and soft limits) is called after each with the count done.
    pub fn run(&mut self, mut on_iteration: impl FnMut(&Self, u64)) {
        let shared = self.shared;
        let mut local = 0u64;
        loop {
            // The first iteration expands the root and always runs (unless
            // stopped from outside), so that every report has a move.
            let root_ready =
                self.tree.children(0).is_some() || self.tree.node(0).proven().is_some();
            if (root_ready || shared.stop.load(Relaxed)) && shared.should_stop(local) {
                break;
            }
            if self.tree.is_full() && shared.recycling.load(Relaxed) {
                shared.full.store(true, Relaxed);
                break;
            }
            if shared.iteration_limit != u64::MAX
                && shared.claimed.fetch_add(1, Relaxed) >= shared.iteration_limit
            {
                break;
            }
            self.iterate();
            local += 1;
            let done = shared.done.fetch_add(1, Relaxed) + 1;
            on_iteration(self, done);
            if shared.config.solver && self.tree.node(0).proven().is_some() {
                // The root is solved: more iterations change nothing.
                shared.abort.store(true, Relaxed);
            }
            if shared.stop_when_full && self.tree.is_full() {
                shared.abort.store(true, Relaxed);
            }
        }
    }

    fn rand_below(&mut self, n: usize) -> usize {
        // Multiply-shift: unbiased enough for move choice, no division.
        (((self.rng.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    fn rand_f64(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Whether the position last pushed on `hashes` is drawn by the rules a
    /// search must know (fifty moves, one repetition, insufficient material).
    fn is_draw(&self, board: &B) -> bool {
        let clock = board.halfmove_clock();
        if clock >= 100 && !(board.in_check() && board.has_no_moves()) {
            return true;
        }
        if board.is_insufficient_material() {
            return true;
        }
        let n = self.hashes.len();
        if clock < 4 || n == 0 {
            return false;
        }
        let hash = self.hashes[n - 1];
        let window = (clock as usize).min(n - 1);
        let mut i = 4;
        while i <= window {
            if self.hashes[n - 1 - i] == hash {
                return true;
            }
            i += 2;
        }
        false
    }

    /// One iteration: select, expand, simulate, back up.
    fn iterate(&mut self) {
        let tree = self.tree;
        let mut board = self.root.clone();
        self.hashes.truncate(self.base);
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        // The result for the side to move at the last node of the path.
        let result = loop {
            let n = tree.node(node);
            if let Some(s) = n.proven() {
                break proven_result(s);
            }
            if let Some(children) = tree.children(node) {
                if self.path.len() > MAX_TREE_DEPTH {
                    break self.simulate(&board);
                }
                let child = self.select(node, children);
                let mv = tree.node(child).mv();
                board.play_unchecked(mv);
                self.nodes += 1;
                self.hashes.push(board.hash());
                self.path.push(child);
                node = child;
                continue;
            }
            if self.path.len() > 1 {
                if self.is_draw(&board) {
                    n.set_proven(Score::DRAW);
                    break 0.5;
                }
                if let Some(s) = self.shared.tb.probe(&board) {
                    n.set_proven(s);
                    break proven_result(s);
                }
            }
            // PUCT values a new position before it expands it: most leaves
            // are visited once, and their priors would never be read. The
            // second visit expands the node and walks on into a child.
            let lazy = self.shared.config.variant == Variant::Puct && node != 0;
            if lazy && n.visits() == 0 {
                if board.has_no_moves() {
                    let s = no_moves_score(&board, 0);
                    n.set_proven(s);
                    break proven_result(s);
                }
                break self.simulate(&board);
            }
            match self.expand(node, &board) {
                Some(s) => break proven_result(s),
                // Expanded: select below it (an unexpanded node, under
                // contention or with a full arena, is valued again).
                None if lazy && tree.children(node).is_some() => continue,
                None => break self.simulate(&board),
            }
        };
        self.backup(result);
        let depth = self.path.len() as u32 - 1;
        let shared = self.shared;
        shared.depth_sum.fetch_add(depth as u64, Relaxed);
        shared.seldepth.fetch_max(depth, Relaxed);
        shared.nodes.fetch_add(self.nodes, Relaxed);
        shared.evals.fetch_add(self.evals, Relaxed);
        self.nodes = 0;
        self.evals = 0;
    }

    /// Creates the children of `node` (with their priors); returns the exact
    /// score when the node is terminal (mate or stalemate).
    fn expand(&mut self, node: u32, board: &B) -> Option<Score> {
        let cfg = self.shared.config;
        let mut moves = board.legal_moves();
        if node == 0 && !self.shared.searchmoves.is_empty() {
            moves.retain(|m| self.shared.searchmoves.contains(m));
        }
        if moves.is_empty() {
            let s = no_moves_score(board, 0);
            self.tree.node(node).set_proven(s);
            // Publish it as expanded without children (it may fail under
            // contention; the proof is what counts).
            let _ = self.tree.expand(node, &[]);
            return Some(s);
        }
        let mut children: ArrayVec<(Move, f64), 256> = ArrayVec::new();
        match cfg.variant {
            Variant::Puct => self.priors(board, &moves, &mut children),
            Variant::Ip => {
                for &mv in &moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    self.eval.reset(&child);
                    let s = self.eval.evaluate(&child);
                    self.evals += 1;
                    children.push((mv, sigmoid(-s.0, cfg.eval_scale)));
                }
            }
            _ => children.extend(moves.iter().map(|&m| (m, 0.0))),
        }
        if cfg.variant != Variant::Puct {
            // Shuffle, so that unvisited children (equal under UCT) are
            // tried in random order rather than generation order.
            for i in (1..children.len()).rev() {
                let j = self.rand_below(i + 1);
                children.swap(i, j);
            }
        }
        // Under contention or with a full arena the node stays a leaf and
        // is simply simulated.
        let _: Expansion = self.tree.expand(node, &children);
        None
    }

    /// PUCT priors: the policy's logits through a softmax at the
    /// configured temperature, sorted best first, so that unvisited ties go
    /// to the likeliest move.
    fn priors(&mut self, board: &B, moves: &MoveList, out: &mut ArrayVec<(Move, f64), 256>) {
        let t = self.shared.config.policy_temperature.max(0.01);
        let mut logits = [0f32; 256];
        let logits = &mut logits[..moves.len()];
        self.policy.logits(board, moves, logits);
        if let Some(history) = &self.history {
            let (w, turn) = (self.shared.config.history_weight, board.turn());
            for (&mv, l) in moves.iter().zip(logits.iter_mut()) {
                *l += w * history.get(turn, mv);
            }
        }
        let mut max = f64::NEG_INFINITY;
        for (&mv, &l) in moves.iter().zip(logits.iter()) {
            // A policy that returns NaN or infinities gets no say.
            let l = if l.is_finite() { l as f64 / t } else { 0.0 };
            max = f64::max(max, l);
            out.push((mv, l));
        }
        let mut sum = 0.0;
        for c in out.iter_mut() {
            c.1 = (c.1 - max).exp();
            sum += c.1;
        }
        for c in out.iter_mut() {
            c.1 /= sum;
        }
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
    }

    /// The child of `node` to walk into, with a virtual loss added to it.
    fn select(&mut self, node: u32, children: std::ops::Range<u32>) -> u32 {
        let tree = self.tree;
        let cfg = self.shared.config;
        let parent = tree.node(node);
        let pn = (parent.visits() + parent.vloss()) as f64;
        let c = cfg.exploration;
        let (ln_n, sqrt_n) = ((pn + 1.0).ln(), pn.sqrt());
        // First-play urgency (PUCT): an unvisited child is assumed a little
        // worse than the parent's own value for the side to move.
        let fpu = if parent.visits() == 0 {
            0.5
        } else {
            (1.0 - parent.q() - 0.1).max(0.0)
        };
        let pw = cfg.prior_weight as f64;
        let mut best = children.start;
        let mut best_score = f64::NEG_INFINITY;
        for i in children {
            let ch = tree.node(i);
            if cfg.solver {
                if let Some(s) = ch.proven() {
                    if s.0 > 0 {
                        // The opponent wins there: never go.
                        continue;
                    }
                    if s.0 < 0 {
                        // A winning move: the solver will prove the parent.
                        best = i;
                        break;
                    }
                }
            }
            let n = (ch.visits() + ch.vloss()) as f64;
            // Virtual losses count as visits that scored nothing.
            let w = ch.value_sum();
            let score = match cfg.variant {
                Variant::Uct | Variant::Ic | Variant::Ir => {
                    if n == 0.0 {
                        best = i;
                        break;
                    }
                    w / n + c * (ln_n / n).sqrt()
                }
                Variant::Ip => {
                    let m = n + pw;
                    if m == 0.0 {
                        best = i;
                        break;
                    }
                    (w + pw * ch.prior()) / m + c * (ln_n / m).sqrt()
                }
                Variant::Puct => {
                    let q = if n == 0.0 { fpu } else { w / n };
                    q + c * ch.prior() * sqrt_n / (1.0 + n)
                }
            };
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        tree.node(best).add_vloss(self.vloss);
        best
    }

    /// Backs `result` (for the side to move at the path's end) up the path,
    /// alternating sides, taking back the virtual losses, and proving
    /// ancestors of a proven node when the solver is on.
    fn backup(&mut self, result: f64) {
        let tree = self.tree;
        let solver = self.shared.config.solver;
        let mut r = 1.0 - result;
        let last = self.path.len() - 1;
        let mut proven = tree.node(self.path[last]).proven().is_some();
        let root_turn = self.root.turn();
        for k in (0..=last).rev() {
            let i = self.path[k];
            if let (Some(history), true) = (self.history.as_mut(), k > 0) {
                // `r` is for the side that played node `i`'s move, from the
                // node above, where that side's value was `1 − q` (a node's
                // value is the other side's), taken before this update.
                let expected = 1.0 - tree.node(self.path[k - 1]).q();
                let mover = if k % 2 == 1 { root_turn } else { !root_turn };
                history.update(mover, tree.node(i).mv(), r, expected);
            }
            tree.node(i).update(r, if k > 0 { self.vloss } else { 0 });
            if k < last {
                proven = solver && proven && self.try_prove(i);
            }
            r = 1.0 - r;
        }
    }

    /// The solver step at `node`: proven if a child is a proven win for the
    /// side to move here (the shortest such mate), or if every child is
    /// proven (the best of them). Returns whether `node` is proven.
    fn try_prove(&self, node: u32) -> bool {
        let tree = self.tree;
        if tree.node(node).proven().is_some() {
            return true;
        }
        let Some(children) = tree.children(node) else {
            return false;
        };
        let mut best_win: Option<Score> = None;
        let mut best = Score(-Score::INFINITE.0);
        let mut all = true;
        for i in children {
            match tree.node(i).proven() {
                Some(s) => {
                    let v = from_child(s);
                    if v.0 >= Score::MATE_BOUND.0 {
                        best_win = Some(best_win.map_or(v, |b| b.max(v)));
                    }
                    best = best.max(v);
                }
                None => all = false,
            }
        }
        if let Some(w) = best_win {
            tree.node(node).set_proven(w);
            true
        } else if all {
            tree.node(node).set_proven(best);
            true
        } else {
            false
        }
    }

    /// The value of a new leaf for its side to move, by variant.
    fn simulate(&mut self, board: &B) -> f64 {
        let cfg = self.shared.config;
        match cfg.variant {
            Variant::Uct | Variant::Ip => self.rollout(board, cfg.max_rollout, false, false),
            Variant::Ic => self.rollout(board, cfg.cutoff, false, true),
            Variant::Ir => self.rollout(board, cfg.cutoff, true, true),
            Variant::Puct => {
                self.eval.reset(board);
                let v = self.qsearch(board, -Score::INFINITE.0, Score::INFINITE.0, 0);
                sigmoid(v, cfg.eval_scale)
            }
        }
    }

    /// A rollout of at most `plies` plies: random moves, or (`guided`) the
    /// best move by a one-ply search plus quiescence; at the end of the
    /// game the result, at the ply limit the evaluation (`cut`) or a draw.
    fn rollout(&mut self, start: &B, plies: u32, guided: bool, cut: bool) -> f64 {
        let cfg = self.shared.config;
        let mut board = start.clone();
        // Results are for the side to move at `start`; `flip` says whether
        // the side to move now is the other one.
        let mut flip = false;
        let of = |r: f64, flip: bool| if flip { 1.0 - r } else { r };
        for ply in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                return of(if board.in_check() { 0.0 } else { 0.5 }, flip);
            }
            if ply > 0 && self.is_draw(&board) {
                return 0.5;
            }
            if self.hashes.len() == self.hashes.capacity() {
                break;
            }
            let mv = if guided && self.rand_f64() >= cfg.ir_epsilon {
                self.guided_move(&board, &moves)
            } else {
                moves[self.rand_below(moves.len())]
            };
            board.play_unchecked(mv);
            self.nodes += 1;
            self.hashes.push(board.hash());
            flip = !flip;
        }
        if !cut {
            return 0.5;
        }
        if board.has_no_moves() {
            return of(if board.in_check() { 0.0 } else { 0.5 }, flip);
        }
        self.eval.reset(&board);
        let s = self.eval.evaluate(&board);
        self.evals += 1;
        of(sigmoid(s.0, cfg.eval_scale), flip)
    }

    /// MCTS-IR's rollout policy: the move with the best one-ply-plus-
    /// quiescence score (ties broken at random).
    fn guided_move(&mut self, board: &B, moves: &MoveList) -> Move {
        let mut best = moves[0];
        let mut best_v = i32::MIN;
        let mut ties = 0u32;
        for &mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            self.eval.reset(&child);
            let v = -self.qsearch(
                &child,
                -Score::INFINITE.0,
                -best_v.max(-Score::INFINITE.0),
                1,
            );
            if v > best_v {
                best_v = v;
                best = mv;
                ties = 1;
            } else if v == best_v {
                ties += 1;
                if self.rand_below(ties as usize) == 0 {
                    best = mv;
                }
            }
        }
        best
    }

    /// A small fail-soft quiescence search (captures that do not lose
    /// material by SEE, most valuable victim first; every evasion when in
    /// check), for PUCT values and IR move choice. At its first ply it
    /// also tries the quiet checks that do not lose the piece, after the
    /// captures: a PUCT leaf is often one check away from a mate or a
    /// fork that captures alone would miss. Scores for the side to move;
    /// mates relative to the quiescence root.
    fn qsearch(&mut self, board: &B, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        self.nodes += 1;
        let in_check = board.in_check();
        let mut moves = MoveList::new();
        let mut best;
        if in_check {
            board.generate(fianchetto_movegen::GenKind::All, &mut moves);
            if moves.is_empty() {
                return Score::mated_in(qply).0;
            }
            best = -Score::INFINITE.0;
            if qply >= MAX_QPLY {
                self.evals += 1;
                return self.eval.evaluate(board).0;
            }
        } else {
            best = self.eval.evaluate(board).0;
            self.evals += 1;
            if best >= beta || qply >= MAX_QPLY {
                return best;
            }
            alpha = alpha.max(best);
            board.generate(fianchetto_movegen::GenKind::Captures, &mut moves);
        }
        let mut scored: ArrayVec<(i32, Move), 256> = ArrayVec::new();
        for &mv in &moves {
            if !in_check && !see_ge(board, mv, 0) {
                continue;
            }
            scored.push((mvv_lva(board, mv), mv));
        }
        // Quiet checks at the first ply, ordered after every capture. IR's
        // move choice starts at ply 1 and so never tries them.
        if !in_check && qply == 0 {
            let checks = CheckInfo::new(board);
            moves.clear();
            board.generate(fianchetto_movegen::GenKind::Quiets, &mut moves);
            for &mv in &moves {
                if checks.gives_check(board, mv) && see_ge(board, mv, 0) {
                    scored.push((i32::MIN, mv));
                }
            }
        }
        scored.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
        for &(_, mv) in &scored {
            let mut child = board.clone();
            child.play_unchecked(mv);
            self.eval.push(board, mv, &child);
            let v = -self.qsearch(&child, -beta, -alpha, qply + 1);
            self.eval.pop();
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
