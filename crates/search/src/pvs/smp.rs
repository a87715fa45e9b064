//! Lazy SMP's choice of the move to play: every thread searched the same
//! root, and the one whose last completed iteration is best supported wins.
//!
//! Each thread's result votes for its move with a weight that grows with
//! the depth it completed and with how far its score is above the worst
//! thread's; the move with most votes wins, and of the threads that chose
//! it, the one with the most weight gives the line. Proven results come
//! first: a thread that found a forced win beats any vote (the shortest
//! win among several), and a thread that proves its move loses is never
//! chosen over one that does not.

use crate::SearchResult;
use arrayvec::ArrayVec;
use fianchetto_board::Move;

/// Added to every score difference, so that the worst thread's move still
/// gets votes for its depth.
const VOTE_BASE: i32 = 14;

/// Threads whose votes are counted (the rest keep their searches but do
/// not vote: more than enough for any machine this runs on).
const MAX_VOTERS: usize = 256;

/// The index of the result to play among `results` (the main thread's is
/// the first; results without a completed iteration do not vote).
pub(crate) fn vote(results: &[SearchResult]) -> usize {
    let voters = &results[..results.len().min(MAX_VOTERS)];
    let counted = |r: &SearchResult| r.depth > 0 && r.best_move.is_some();
    let Some(min_score) = voters
        .iter()
        .filter(|r| counted(r))
        .map(|r| r.score.0)
        .min()
    else {
        return 0;
    };
    let weight = |r: &SearchResult| (r.score.0 - min_score + VOTE_BASE) as i64 * r.depth as i64;
    let mut tally: ArrayVec<(Move, i64), MAX_VOTERS> = ArrayVec::new();
    for r in voters.iter().filter(|r| counted(r)) {
        let Some(mv) = r.best_move else { continue };
        match tally.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, v)) => *v += weight(r),
            None => tally.push((mv, weight(r))),
        }
    }
    let votes = |r: &SearchResult| {
        tally
            .iter()
            .find(|(m, _)| Some(*m) == r.best_move)
            .map_or(0, |&(_, v)| v)
    };
    let wins = |r: &SearchResult| r.score.is_decisive() && r.score.0 > 0;
    let loses = |r: &SearchResult| r.score.is_decisive() && r.score.0 < 0;
    let mut best = 0;
    for (i, r) in voters.iter().enumerate().skip(1) {
        if !counted(r) {
            continue;
        }
        let b = &voters[best];
        let better = if !counted(b) {
            true
        } else if wins(b) {
            // A shorter forced win.
            r.score > b.score
        } else if wins(r) {
            true
        } else if loses(r) {
            false
        } else {
            let (rv, bv) = (votes(r), votes(b));
            rv > bv || (rv == bv && weight(r) > weight(b))
        };
        if better {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_board::{MoveKind, Square};
    use fianchetto_eval::Score;

    fn result(to: Square, score: i32, depth: u32) -> SearchResult {
        SearchResult {
            best_move: Some(Move::new(Square::E2, to, MoveKind::Quiet)),
            score: Score(score),
            depth,
            ..SearchResult::default()
        }
    }

    #[test]
    fn the_deeper_agreeing_threads_outvote_the_main_one() {
        // The main thread likes e3 at depth 10; two helpers finished depth
        // 11 with e4.
        let r = [
            result(Square::E3, 20, 10),
            result(Square::E4, 25, 11),
            result(Square::E4, 22, 11),
        ];
        assert_eq!(vote(&r), 1);
        // Alone, the main thread keeps its move.
        assert_eq!(vote(&r[..1]), 0);
        // A helper without a completed iteration does not vote.
        let r = [result(Square::E3, 20, 10), result(Square::E4, 90, 0)];
        assert_eq!(vote(&r), 0);
    }

    #[test]
    fn proven_results_come_first() {
        let mate = Score::mate_in(5).0;
        // A helper's forced win beats a deeper main thread.
        let r = [result(Square::E3, 50, 14), result(Square::E4, mate, 9)];
        assert_eq!(vote(&r), 1);
        // Of two wins the shorter is played.
        let r = [
            result(Square::E3, Score::mate_in(7).0, 12),
            result(Square::E4, mate, 9),
        ];
        assert_eq!(vote(&r), 1);
        // A helper that proves its move loses is not chosen.
        let r = [
            result(Square::E3, -40, 8),
            result(Square::E4, Score::mated_in(6).0, 15),
            result(Square::E4, Score::mated_in(6).0, 15),
        ];
        assert_eq!(vote(&r), 0);
    }
}
