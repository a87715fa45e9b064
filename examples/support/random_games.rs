//! Random but realistic-looking games, for the PGN example and benchmark:
//! roster and rating tags, 30 to 150 plies of random play that prefers
//! captures (so material comes off as in real games), and, like a Lichess
//! database export, clock comments on every move of half the games (with
//! evaluations in some), plus occasional remarks, NAGs and short variations.
//! Deterministic for a seed. Shared with `benches/pgn.rs` through `#[path]`.

use fianchetto::board::{Bitboards, Board};
use fianchetto::movegen::pgn::{AnnotatedMove, Annotations, GameResult, PgnGame, Variation};
use fianchetto::movegen::{Game, MoveGen};

/// SplitMix64: small, fast, good enough for test data.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const PLAYERS: &[&str] = &[
    "Carlsen, Magnus",
    "Nakamura, Hikaru",
    "Caruana, Fabiano",
    "Ding, Liren",
    "Nepomniachtchi, Ian",
    "Firouzja, Alireza",
    "Gukesh, D",
    "So, Wesley",
    "anonymous_patzer",
    "Zwölf, Jürgen",
];
const EVENTS: &[&str] = &[
    "Rated Blitz game",
    "Rated Rapid game",
    "Casual Bullet game",
    "Club Championship",
    "Fianchetto Open \"A\"",
];
const REMARKS: &[&str] = &[
    "The only move.",
    "A typical idea in this structure: the knight heads for d5.",
    "White had to play f3 first; now the bishop is lost.",
    "Better was the quiet retreat, keeping the pawn.",
    "Time trouble.",
];
const NAGS: &[u8] = &[1, 2, 3, 4, 5, 6, 10, 13, 14, 15, 16, 17, 18, 19, 36, 132];

/// A move of `board`, a capture more often than not when there is one.
fn choose(rng: &mut Rng, board: &Bitboards) -> Option<fianchetto::board::Move> {
    let legal = board.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let captures = board.captures();
    if !captures.is_empty() && rng.chance(60) {
        return Some(captures[rng.below(captures.len())]);
    }
    Some(legal[rng.below(legal.len())])
}

/// A short random variation from `board`.
fn variation(rng: &mut Rng, board: &Bitboards) -> Variation {
    let mut line = Variation::default();
    let mut position = board.clone();
    for _ in 0..1 + rng.below(6) {
        let Some(mv) = choose(rng, &position) else {
            break;
        };
        let mut notes = Annotations::default();
        if rng.chance(10) {
            notes.comments.push(rng.pick(REMARKS).to_string());
        }
        line.moves.push(AnnotatedMove { mv, notes });
        position.play_unchecked(mv);
    }
    line
}

/// Game number `index` of a random database.
pub fn random_game(rng: &mut Rng, index: u64) -> PgnGame<Bitboards> {
    let mut game = PgnGame::new(Game::new(Bitboards::startpos()));
    let clocks = rng.chance(50);
    let evals = clocks && rng.chance(25);
    let mut seconds = [300u32 + 60 * rng.below(10) as u32; 2];
    let plies = 30 + rng.below(121);
    for ply in 0..plies {
        if game.game.outcome_with_claims().is_some() {
            break;
        }
        let board = game.game.board().clone();
        let Some(mv) = choose(rng, &board) else {
            break;
        };
        let mut notes = Annotations::default();
        if rng.chance(2) {
            notes.nags.push(NAGS[rng.below(NAGS.len())]);
        }
        if clocks {
            let left = &mut seconds[ply % 2];
            *left = left.saturating_sub(rng.below(12) as u32);
            let clock = format!(
                "[%clk {}:{:02}:{:02}]",
                *left / 3600,
                *left / 60 % 60,
                *left % 60
            );
            notes.comments.push(if evals {
                let cp = rng.below(400) as i32 - 200;
                format!("[%eval {:.2}] {clock}", f64::from(cp) / 100.0)
            } else {
                clock
            });
        }
        if rng.chance(1) {
            notes.comments.push(rng.pick(REMARKS).to_string());
        }
        if rng.chance(2) {
            notes.variations.push(variation(rng, &board));
        }
        game.game.play_unchecked(mv);
        game.notes.push(notes);
    }
    let result = match game.game.outcome() {
        Some(outcome) => GameResult::from_outcome(outcome),
        None => match rng.below(10) {
            0..=3 => GameResult::WhiteWins,
            4..=6 => GameResult::BlackWins,
            _ => GameResult::Draw,
        },
    };
    game.result = Some(result);
    let tags = &mut game.tags;
    tags.set("Event", rng.pick(EVENTS));
    tags.set("Site", "https://example.org/");
    tags.set(
        "Date",
        format!(
            "{}.{:02}.{:02}",
            2000 + rng.below(25),
            1 + rng.below(12),
            1 + rng.below(28)
        ),
    );
    tags.set("Round", (1 + index % 13).to_string());
    tags.set("White", rng.pick(PLAYERS));
    tags.set("Black", rng.pick(PLAYERS));
    tags.set("Result", result.as_str());
    tags.set("WhiteElo", (1200 + rng.below(1600)).to_string());
    tags.set("BlackElo", (1200 + rng.below(1600)).to_string());
    let eco = format!(
        "{}{:02}",
        ["A", "B", "C", "D", "E"][rng.below(5)],
        rng.below(100)
    );
    tags.set("ECO", eco);
    tags.set("TimeControl", "300+0");
    tags.set("Termination", "Normal");
    game
}
