//! Draws inside the search: repetition (of positions before the root too)
//! and the fifty-move rule, for every algorithm.

mod common;

use common::{game, TestEval};
use fianchetto_board::Bitboards;
use fianchetto_eval::Score;
use fianchetto_search::alphabeta::AlphaBeta;
use fianchetto_search::minimax::Minimax;
use fianchetto_search::pvs::{Pvs, PvsConfig};
use fianchetto_search::scout::Scout;
use fianchetto_search::{Limits, Search};

fn algorithms() -> Vec<Box<dyn Search<Bitboards>>> {
    vec![
        Box::new(Minimax::new(TestEval)),
        Box::new(AlphaBeta::new(TestEval)),
        Box::new(Scout::new(TestEval)),
        Box::new(Pvs::with_config(TestEval, PvsConfig::all_off())),
        Box::new(Pvs::new(TestEval)),
    ]
}

/// A draw's score: exactly zero.
fn is_draw(score: Score) -> bool {
    score == Score::DRAW
}

#[test]
fn repeating_a_position_of_the_game_scores_zero() {
    // White is a queen down. The knights went out and back twice: playing
    // Nf3 again makes its third occurrence, a draw by the rules, so the lost
    // side takes it.
    let mut g = game("rn2k3/8/q7/8/8/8/8/4K1N1 w - - 0 1");
    for m in [
        "g1f3", "b8c6", "f3g1", "c6b8", "g1f3", "b8c6", "f3g1", "c6b8",
    ] {
        g.play_uci(m).unwrap();
    }
    for mut algo in algorithms() {
        let r = algo.search(&g, &Limits::depth(3), &mut |_| {});
        assert!(is_draw(r.score), "{}: {}", algo.name(), r.score);
        assert_eq!(r.best_move.unwrap().to_string(), "g1f3", "{}", algo.name());
    }
    // Without the history the same position is lost.
    let fresh = game(&fianchetto_board::Board::fen(g.board()));
    let r = Pvs::new(TestEval).search(&fresh, &Limits::depth(3), &mut |_| {});
    assert!(r.score < Score::cp(-500), "{}", r.score);
}

#[test]
fn a_position_from_before_the_root_needs_three_occurrences() {
    // One trip out and back: Nf3 now would be the second occurrence only,
    // not a draw; within three plies no third one can be reached.
    let mut g = game("rn2k3/8/q7/8/8/8/8/4K1N1 w - - 0 1");
    for m in ["g1f3", "b8c6", "f3g1", "c6b8"] {
        g.play_uci(m).unwrap();
    }
    for mut algo in algorithms() {
        let r = algo.search(&g, &Limits::depth(3), &mut |_| {});
        assert!(r.score < Score::cp(-500), "{}: {}", algo.name(), r.score);
    }
}

#[test]
fn fifty_move_rule() {
    // Two queens up, but one more quiet move ends the game drawn.
    let fen = "7k/8/8/8/8/8/8/KQQ5 w - - 99 80";
    for mut algo in algorithms() {
        let r = algo.search(&game(fen), &Limits::depth(3), &mut |_| {});
        assert!(is_draw(r.score), "{}: {}", algo.name(), r.score);
    }
    let r = Pvs::new(TestEval).search(
        &game("7k/8/8/8/8/8/8/KQQ5 w - - 0 80"),
        &Limits::depth(3),
        &mut |_| {},
    );
    assert!(r.score > Score::cp(1000));
    // Checkmate on the hundredth half-move still wins.
    let r = Pvs::new(TestEval).search(
        &game("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 80"),
        &Limits::depth(3),
        &mut |_| {},
    );
    assert_eq!(r.score, Score::mate_in(1));
}
