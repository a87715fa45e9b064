//! Several best lines (MultiPV) from any [`Search`]: the first search finds
//! the best move, each next one searches the root moves not yet taken, so
//! that line `k` is the best move after the `k - 1` before it. A search
//! that ranks every root move in one pass (MCTS) answers all the lines at
//! once instead ([`Search::search_multipv`]).
//!
//! A fixed move time or a clock's budget is shared between the lines: each
//! line gets an equal part of what the earlier lines left, so that the
//! whole takes the time of one search.
//!
//! ```
//! use fianchetto_board::{Bitboards, Board};
//! use fianchetto_eval::Material;
//! use fianchetto_movegen::Game;
//! use fianchetto_search::multipv::search_lines;
//! use fianchetto_search::pvs::Pvs;
//! use fianchetto_search::Limits;
//!
//! // White takes the rook or the knight: both lines, the rook first.
//! let game = Game::new(Bitboards::from_fen("4k3/8/8/3r1n2/4P3/8/8/4K3 w - - 0 1")?);
//! let mut pvs = Pvs::new(Material::default());
//! let lines = search_lines(&mut pvs, &game, &Limits::depth(3), 2, &mut |_, _| {});
//! assert_eq!(lines.len(), 2);
//! assert_eq!(lines[0].best_move.map(|m| m.to_string()), Some("e4d5".into()));
//! assert_eq!(lines[1].best_move.map(|m| m.to_string()), Some("e4f5".into()));
//! assert!(lines[0].score > lines[1].score);
//! # Ok::<(), fianchetto_board::FenError>(())
//! ```

use crate::time::TimeManager;
use crate::{Info, Limits, Search, SearchResult};
use fianchetto_board::Move;
use fianchetto_movegen::{Game, MoveGen};
use std::time::Duration;

/// Searches the `lines` best root moves of `game` (at most the number of
/// legal moves, or of `limits.searchmoves` when given), best first;
/// `report(k, info)` is called with each progress report of line `k`
/// (from 1). Stops early when `limits.stop` is raised (the lines found so
/// far are returned). With `lines` ≤ 1 this is one plain search.
pub fn search_lines<B: MoveGen, S: Search<B> + ?Sized>(
    search: &mut S,
    game: &Game<B>,
    limits: &Limits,
    lines: usize,
    report: &mut dyn FnMut(usize, &Info),
) -> Vec<SearchResult> {
    if lines <= 1 {
        return vec![search.search(game, limits, &mut |info| report(1, info))];
    }
    if let Some(found) = search.search_multipv(game, limits, lines, report) {
        return found;
    }
    let mut candidates: Vec<Move> = if limits.searchmoves.is_empty() {
        game.board().legal_moves().to_vec()
    } else {
        limits.searchmoves.clone()
    };
    let lines = lines.min(candidates.len());
    let mut limits = limits.clone();
    let budget = TimeManager::new(&limits, game.board().turn());
    let shared = (!limits.infinite).then(|| budget.soft()).flatten();
    let mut out = Vec::with_capacity(lines);
    for k in 1..=lines {
        limits.searchmoves = candidates.clone();
        if let Some(total) = shared {
            let left = total.saturating_sub(budget.elapsed());
            let share = left / (lines + 1 - k) as u32;
            limits.movetime = Some(share.max(Duration::from_millis(1)));
            limits.move_overhead = Duration::ZERO;
        }
        let result = search.search(game, &limits, &mut |info| report(k, info));
        let Some(best) = result.best_move else { break };
        candidates.retain(|&m| m != best);
        out.push(result);
        if limits.stopped() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pvs::Pvs;
    use fianchetto_board::{Bitboards, Board};
    use fianchetto_eval::Material;

    #[test]
    fn lines_are_distinct_ordered_and_capped_by_the_legal_moves() {
        let game = Game::new(Bitboards::startpos());
        let mut pvs = Pvs::new(Material::default());
        let mut seen = Vec::new();
        let lines = search_lines(&mut pvs, &game, &Limits::depth(2), 3, &mut |k, _| {
            seen.push(k)
        });
        assert_eq!(lines.len(), 3);
        let moves: Vec<_> = lines.iter().filter_map(|r| r.best_move).collect();
        assert_eq!(moves.len(), 3);
        assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2]);
        assert!(lines.windows(2).all(|w| w[0].score >= w[1].score));
        assert!(seen.contains(&1) && seen.contains(&3));

        // Two legal moves: two lines however many are asked for.
        let two = Game::new(Bitboards::from_fen("7k/8/8/8/8/8/6PP/7K w - - 0 1").unwrap());
        let legal = two.board().legal_moves().len();
        let lines = search_lines(&mut pvs, &two, &Limits::depth(2), 50, &mut |_, _| {});
        assert_eq!(lines.len(), legal);
    }

    #[test]
    fn one_line_is_one_search() {
        let game = Game::new(Bitboards::startpos());
        let mut pvs = Pvs::new(Material::default());
        let lines = search_lines(&mut pvs, &game, &Limits::depth(2), 1, &mut |_, _| {});
        let plain = Pvs::new(Material::default()).search(&game, &Limits::depth(2), &mut |_| {});
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].best_move, plain.best_move);
    }
}
