//! Cuckoo-table upcoming-repetition detection agrees with the slow way:
//! try every legal move and look for the position it reaches among the
//! earlier positions of the game.

use fianchetto_board::{Bitboards, Board, Move};
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::cuckoo::upcoming_repetition;

/// The slow answer: some legal move reaches a position of `hashes` (an odd
/// number of plies back, within the reversible moves) that occurred after
/// `root`, or that had occurred twice already.
fn slow(board: &Bitboards, hashes: &[u64], root: usize) -> bool {
    let n = hashes.len();
    let window = (board.halfmove_clock() as usize).min(n - 1);
    board.legal_moves().iter().any(|&mv| {
        let mut next = board.clone();
        next.play_unchecked(mv);
        let h = next.hash();
        let oldest = n - 1 - window;
        let hits: Vec<usize> = (oldest..n).filter(|&j| hashes[j] == h).collect();
        hits.iter().any(|&j| j > root) || hits.len() >= 2
    })
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Random games that favour reversible moves (so that positions repeat),
/// checking the two answers at every ply against every choice of root.
#[test]
fn cuckoo_agrees_with_trying_every_move() {
    let starts = [
        fianchetto_board::START_FEN,
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "r3k3/1n6/8/3q4/8/2B5/6N1/3QK2R w K - 0 1",
        "6k1/5p2/6p1/8/8/1Q6/5PPP/6K1 w - - 0 1",
        "2r3k1/5pp1/8/1b6/4N3/8/5PPP/2R3K1 b - - 3 30",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut found) = (0, 0);
    for (s, fen) in starts.iter().enumerate() {
        for game_no in 0..40 {
            let mut game = Game::new(Bitboards::from_fen(fen).unwrap());
            for _ply in 0..80 {
                let board = game.board().clone();
                let moves = board.legal_moves();
                if moves.is_empty() || game.outcome().is_some() {
                    break;
                }
                let hashes: Vec<u64> = game.hashes().collect();
                for root in [0, hashes.len() / 2, hashes.len() - 1] {
                    let fast = upcoming_repetition(&board, &hashes, root);
                    let want = slow(&board, &hashes, root);
                    assert_eq!(
                        fast,
                        want,
                        "start {s} game {game_no} root {root}: {} after {:?}",
                        board.fen(),
                        game.hashes().count()
                    );
                    checked += 1;
                    found += usize::from(want);
                }
                // Mostly reversible moves: quiet piece moves nine times in ten.
                let reversible: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        m.is_quiet()
                            && !m.is_castle()
                            && board
                                .piece_at(m.from())
                                .is_some_and(|p| p.role != fianchetto_board::Role::Pawn)
                    })
                    .collect();
                let pick = if !reversible.is_empty() && rng.next() % 10 != 0 {
                    reversible[(rng.next() % reversible.len() as u64) as usize]
                } else {
                    moves[(rng.next() % moves.len() as u64) as usize]
                };
                game.play_unchecked(pick);
            }
        }
    }
    // The histories must actually contain upcoming repetitions.
    assert!(found > 200, "only {found} of {checked} positions had one");
}
