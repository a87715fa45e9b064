//! A quick strength check of the evaluation presets against each other: a
//! small fixed-depth alpha-beta with a capture search, the same for both
//! sides, from random balanced openings played with both colours, through
//! the one game loop (`fianchetto::uci::matches::play_game`). A game still
//! running after 300 plies is adjudicated by material (a side 3 pawns
//! ahead wins).
//!
//! `cargo run --release --features eval,uci --example eval_match -- [depth] [openings]`
//!
//! With weight overrides after the two numbers (`name=value`, names as
//! `Params::name` gives them, e.g. `bishop_pair[0]=40`), it plays Classical
//! with those weights against plain Classical instead: a quick A/B test.

use fianchetto::board::{Bitboards, Board, Color, Move, Role};
use fianchetto::eval::{Classical, Evaluator, Params, Preset, PresetEvaluator};
use fianchetto::movegen::{Game, MoveGen, MoveList};
use fianchetto::uci::matches::{
    play_game, Adjudication, Answer, GameRules, Judgement, Limit, MoveLimit, Player, PlayerError,
    Players,
};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const MATE: i32 = 30_000;

fn victim(b: &Bitboards, mv: Move) -> i32 {
    b.piece_at(mv.to()).map_or(1, |p| p.role.index() as i32 + 1)
}

fn order(b: &Bitboards, moves: &mut MoveList) {
    moves.sort_by_key(|&mv| {
        let attacker = b.piece_at(mv.from()).map_or(0, |p| p.role.index() as i32);
        if mv.is_capture() || mv.is_promotion() {
            -(100 * victim(b, mv) - attacker) - 1000
        } else {
            0
        }
    });
}

fn qs(b: &Bitboards, mut alpha: i32, beta: i32, e: &mut PresetEvaluator, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let stand = e.evaluate(b).value();
    if stand >= beta {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut moves = b.captures();
    order(b, &mut moves);
    for mv in moves {
        let mut c = b.clone();
        c.play_unchecked(mv);
        let s = -qs(&c, -beta, -alpha, e, nodes);
        if s >= beta {
            return s;
        }
        alpha = alpha.max(s);
    }
    alpha
}

fn ab(
    b: &Bitboards,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: i32,
    e: &mut PresetEvaluator,
    nodes: &mut u64,
) -> i32 {
    if depth == 0 {
        return qs(b, alpha, beta, e, nodes);
    }
    *nodes += 1;
    let mut moves = b.legal_moves();
    if moves.is_empty() {
        return if b.in_check() { -MATE + ply } else { 0 };
    }
    order(b, &mut moves);
    let mut best = -MATE;
    for mv in moves {
        let mut c = b.clone();
        c.play_unchecked(mv);
        let s = -ab(&c, depth - 1, -beta, -alpha, ply + 1, e, nodes);
        best = best.max(s);
        alpha = alpha.max(s);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn best_move(b: &Bitboards, depth: u32, e: &mut PresetEvaluator, nodes: &mut u64) -> Option<Move> {
    let mut moves = b.legal_moves();
    order(b, &mut moves);
    let mut best = None;
    let mut alpha = -MATE - 1;
    for mv in moves {
        let mut c = b.clone();
        c.play_unchecked(mv);
        let s = -ab(&c, depth - 1, -MATE - 1, -alpha, 1, e, nodes);
        if s > alpha {
            alpha = s;
            best = Some(mv);
        }
    }
    best
}

/// The fixed-depth alpha-beta above with an evaluation, as a player of the
/// game loop; it counts its nodes.
struct AlphaBetaPlayer {
    eval: PresetEvaluator,
    depth: u32,
    nodes: u64,
}

impl Player for AlphaBetaPlayer {
    fn new_game(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }

    fn play(&mut self, game: &Game<Bitboards>, _: &MoveLimit) -> Result<Answer, PlayerError> {
        let best = best_move(game.board(), self.depth, &mut self.eval, &mut self.nodes);
        Ok(Answer::new(best))
    }
}

/// Material by 1/3/3/5/9, white minus black.
fn material(b: &Bitboards) -> i32 {
    let v = |c: Color| -> i32 {
        [
            (Role::Pawn, 1),
            (Role::Knight, 3),
            (Role::Bishop, 3),
            (Role::Rook, 5),
            (Role::Queen, 9),
        ]
        .iter()
        .map(|&(r, x)| b.pieces(c, r).count() as i32 * x)
        .sum()
    };
    v(Color::White) - v(Color::Black)
}

/// +1 if `white` wins, 0 draw, -1 loss (from white's side).
fn play(
    opening: &Bitboards,
    white: PresetEvaluator,
    black: PresetEvaluator,
    depth: u32,
    nodes: &mut u64,
) -> i32 {
    let player = |eval| AlphaBetaPlayer {
        eval,
        depth,
        nodes: 0,
    };
    let (mut white, mut black) = (player(white), player(black));
    let rules = GameRules {
        limit: Limit::Depth(depth),
        margin: std::time::Duration::ZERO,
        // No score adjudication (the players report no scores); the judge
        // adjudicates long games by material.
        adjudication: Adjudication {
            resign_plies: 0,
            draw_plies: 0,
            max_plies: u32::MAX,
            ..Adjudication::default()
        },
    };
    let mut judge = |game: &Game<Bitboards>, plies: u32| {
        (plies >= 300).then(|| {
            let m = material(game.board());
            Judgement {
                winner: match m {
                    3.. => Some(Color::White),
                    ..=-3 => Some(Color::Black),
                    _ => None,
                },
                reason: "material".into(),
            }
        })
    };
    let end = play_game(
        Players::Two(&mut white, &mut black),
        &Game::new(opening.clone()),
        &rules,
        Some(&mut judge),
    );
    *nodes += white.nodes + black.nodes;
    match end.winner() {
        Some(Color::White) => 1,
        Some(Color::Black) => -1,
        None => 0,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let n_openings: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let mut openings = Vec::new();
    while openings.len() < n_openings {
        let mut b = Bitboards::startpos();
        for _ in 0..6 {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            b.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        if !b.legal_moves().is_empty() {
            openings.push(b);
        }
    }
    let overrides: Vec<String> = args.collect();
    let mut pairs: Vec<(String, PresetEvaluator, String, PresetEvaluator)> = Vec::new();
    if overrides.is_empty() {
        for (a, b) in [
            (Preset::Classical, Preset::Material),
            (Preset::Classical, Preset::BuhoChess),
            (Preset::BuhoChess, Preset::Material),
        ] {
            pairs.push((a.to_string(), a.evaluator(), b.to_string(), b.evaluator()));
        }
    } else {
        let mut p = Params::classical();
        for o in &overrides {
            let Some((name, value)) = o.split_once('=') else {
                eprintln!("expected name=value, got {o}");
                return;
            };
            let Ok(value) = value.parse() else {
                eprintln!("not a number: {value}");
                return;
            };
            if !p.set_by_name(name, value) {
                eprintln!("no weight called {name}");
                return;
            }
        }
        let challenger = PresetEvaluator::Classical(Box::new(Classical::with_params(p)));
        pairs.push((
            overrides.join(" "),
            challenger,
            "classical".into(),
            Preset::Classical.evaluator(),
        ));
    }
    for (a, ea, b, eb) in pairs {
        let (mut w, mut d, mut l) = (0, 0, 0);
        let mut nodes = 0;
        let start = std::time::Instant::now();
        for o in &openings {
            for (white, black, sign) in [(&ea, &eb, 1), (&eb, &ea, -1)] {
                match play(o, white.clone(), black.clone(), depth, &mut nodes) * sign {
                    1 => w += 1,
                    -1 => l += 1,
                    _ => d += 1,
                }
            }
        }
        let n = (w + d + l) as f64;
        let score = (w as f64 + d as f64 / 2.0) / n;
        let elo = if score > 0.0 && score < 1.0 {
            -400.0 * (1.0 / score - 1.0).log10()
        } else {
            f64::NAN
        };
        println!(
            "{a} vs {b}: +{w} ={d} -{l}  score {:.1}%  Elo {:+.0}  ({} nodes, {:.1} s)",
            100.0 * score,
            elo,
            nodes,
            start.elapsed().as_secs_f64()
        );
    }
}
