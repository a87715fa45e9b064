//! Shared test helpers: a small material + piece-square evaluator and a
//! seeded generator of random legal games.
#![allow(dead_code)]

use fianchetto_board::{Bitboards, Board, Color, Role};
use fianchetto_eval::{Evaluator, Score};
use fianchetto_movegen::{Game, MoveGen};

/// Material plus a centralisation bonus: enough structure for move
/// ordering to matter, cheap enough for exhaustive minimax.
#[derive(Clone, Copy, Debug, Default)]
pub struct TestEval;

const VALUES: [i32; 6] = [100, 300, 320, 500, 900, 0];

fn centre(sq: usize) -> i32 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let df = (2 * f - 7).abs();
    let dr = (2 * r - 7).abs();
    (14 - df - dr) * 2
}

impl<B: Board> Evaluator<B> for TestEval {
    fn evaluate(&mut self, b: &B) -> Score {
        let mut s = 0;
        for color in Color::ALL {
            let sign = if color == b.turn() { 1 } else { -1 };
            for role in Role::ALL {
                for sq in b.pieces(color, role) {
                    let pst = if role == Role::King {
                        0
                    } else {
                        centre(sq.index())
                    };
                    s += sign * (VALUES[role.index()] + pst);
                }
            }
        }
        Score(s)
    }
}

/// splitmix64: a tiny seeded generator (no dependency needed for tests).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal game of `plies` plies from the start (shorter if it ends).
pub fn random_game(rng: &mut Rng, plies: usize) -> Game<Bitboards> {
    let mut game = Game::new(Bitboards::startpos());
    for _ in 0..plies {
        let moves = game.board().legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        game.play_unchecked(mv);
    }
    game
}

pub fn game(fen: &str) -> Game<Bitboards> {
    Game::new(Bitboards::from_fen(fen).expect("test FEN"))
}
