//! The tables' best move, played by both sides: a won position is won
//! within the fifty-move rule, a drawn one stays drawn.

mod common;

use fianchetto_board::{Bitboards, Board, Board0x88, Color, Mailbox};
use fianchetto_movegen::MoveGen;
use fianchetto_syzygy::{Tablebase, Wdl};

/// How a game played by the tables' best moves ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    Mate {
        winner: Color,
    },
    Stalemate,
    FiftyMoves,
    /// Still going after `plies` (drawn positions are cut off).
    Cut,
}

fn play_out<B: MoveGen>(tb: &Tablebase, mut board: B, plies: usize) -> End {
    for _ in 0..plies {
        if board.legal_moves().is_empty() {
            return if board.in_check() {
                End::Mate {
                    winner: !board.turn(),
                }
            } else {
                End::Stalemate
            };
        }
        if board.halfmove_clock() >= 100 {
            return End::FiftyMoves;
        }
        let before = tb.probe_wdl(&board).unwrap();
        let best = tb.best_move(&board).unwrap().unwrap();
        // The move keeps what the position has: a draw is never lost, a win
        // never let go.
        assert_eq!(
            best.wdl,
            before,
            "{}: {} gives {}",
            board.fen(),
            best.mv,
            best.wdl
        );
        board.play_unchecked(best.mv);
    }
    End::Cut
}

fn sample(wdl: i8, every: usize) -> Vec<String> {
    common::reference()
        .into_iter()
        .filter(|c| c.wdl == wdl)
        .step_by(every)
        .map(|c| c.fen)
        .collect()
}

fn wins_are_won<B: MoveGen>() {
    let tb = common::tablebase();
    let won = sample(2, 20);
    assert!(won.len() > 200);
    for fen in &won {
        let board = B::from_fen(fen).unwrap();
        let winner = board.turn();
        assert_eq!(play_out(&tb, board, 1000), End::Mate { winner }, "{fen}");
    }
}

#[test]
fn won_positions_are_won_within_the_fifty_move_rule() {
    wins_are_won::<Bitboards>();
}

#[test]
fn won_positions_are_won_on_the_other_backends() {
    wins_are_won::<Board0x88>();
    wins_are_won::<Mailbox>();
}

#[test]
fn drawn_positions_stay_drawn() {
    let tb = common::tablebase();
    let drawn = sample(0, 20);
    assert!(drawn.len() > 200);
    for fen in &drawn {
        let board = Bitboards::from_fen(fen).unwrap();
        let end = play_out(&tb, board, 120);
        assert!(!matches!(end, End::Mate { .. }), "{fen}: {end:?}");
    }
}

#[test]
fn losing_side_resists_longest() {
    // K+B+N against K: the defender's best move is the longest loss, the
    // attacker's the shortest win.
    let tb = common::tablebase();
    let board = Bitboards::from_fen("8/8/8/3k4/8/8/8/KBN5 b - - 0 1").unwrap();
    let moves = tb.root_moves(&board, true).unwrap();
    assert!(moves.iter().all(|m| m.wdl == Wdl::Loss));
    let longest = moves.iter().map(|m| m.dtz).min().unwrap();
    assert_eq!(moves[0].dtz, longest);
    assert_eq!(tb.probe_dtz(&board).unwrap(), longest);
}

#[test]
fn the_fifty_move_counter_ranks_wins() {
    let tb = common::tablebase();
    // A long K+B+N win: sure with a fresh counter, not with 90 plies gone.
    let fresh = Bitboards::from_fen("8/8/8/3k4/8/8/8/KBN5 w - - 0 1").unwrap();
    let late = Bitboards::from_fen("8/8/8/3k4/8/8/8/KBN5 w - - 90 60").unwrap();
    let dtz = tb.probe_dtz(&fresh).unwrap();
    assert!(dtz > 20, "{dtz}");
    let best = tb.best_move(&fresh).unwrap().unwrap();
    assert_eq!(best.rank, fianchetto_syzygy::RANK_WIN);
    assert_eq!(best.dtz, dtz);
    let late_best = tb.best_move(&late).unwrap().unwrap();
    assert!(late_best.rank < fianchetto_syzygy::RANK_WIN / 2);
    assert!(late_best.rank > 0);
    // Without the rule, the win is sure whatever the counter.
    let no_rule = tb.root_moves(&late, false).unwrap();
    assert_eq!(no_rule[0].rank, fianchetto_syzygy::RANK_WIN);
}
