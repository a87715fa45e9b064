//! Plays matches between searchers in-process at a fixed time per move,
//! through the one game loop (`fianchetto::uci::matches::play_game`):
//! every game pair starts from one of the openings in
//! `crates/search/tests/data/openings.epd`, each side playing white once.
//!
//! ```text
//! cargo run --release --example mcts_match -- [options] <A> <B>
//! cargo run --release --example mcts_match -- [options] --suite
//! ```
//!
//! Players: `uct`, `ic`, `ir`, `ip`, `puct` (MCTS variants, one thread),
//! `pvs` (the full PVS), `ab3` (alpha-beta with quiescence, at most depth 3).
//! A variant may carry parameters: `puct,c=1.2,temp=0.8`, `ic,cutoff=2`
//! (keys `c`, `cutoff`, `prior`, `eps`, `scale`, `temp`).
//! Options: `--ms N` time per move (default 100), `--openings N` openings
//! used (default 10, so 20 games), `--skip N` openings skipped first
//! (default 0), `--max-plies N` (default 160). All use
//! the `Classical` evaluation.
//!
//! Adjudication keeps the matches short: a game is won when one
//! side is a queen's worth of material (9 pawns, by the simple 1/3/3/5/9
//! count) ahead for 6 plies in a row, and at the ply limit the side at
//! least a rook (5) ahead wins; otherwise it is drawn. Checkmate,
//! stalemate and the draws a player can claim end it as usual.
//!
//! `--suite` runs the table in `docs/search.md` ("MCTS"): every hybrid against UCT, a round
//! robin of the hybrids, then the best of them against PVS and `ab3`.

use fianchetto::board::{Bitboards, Board, Color, Role};
use fianchetto::eval::Classical;
use fianchetto::movegen::Game;
use fianchetto::search::alphabeta::{AlphaBeta, Horizon, MoveOrdering};
use fianchetto::search::mcts::{Mcts, MctsConfig, Variant};
use fianchetto::search::pvs::Pvs;
use fianchetto::search::Search;
use fianchetto::tune::matches::SearchPlayer;
use fianchetto::uci::matches::{
    play_game, Adjudication, Ending, GameRules, Judgement, Limit, Players,
};
use std::time::{Duration, Instant};

const OPENINGS: &str = include_str!("../crates/search/tests/data/openings.epd");

/// A named player and the depth it searches to at most.
struct Player {
    name: String,
    search: Box<dyn Search<Bitboards>>,
    depth: Option<u32>,
}

fn player(name: &str) -> Result<Player, String> {
    let eval = Classical::default();
    let (search, depth): (Box<dyn Search<Bitboards>>, _) = match name {
        "pvs" => (Box::new(Pvs::new(eval)), None),
        "ab3" => (
            Box::new(
                AlphaBeta::new(eval)
                    .ordering(MoveOrdering::Killers)
                    .horizon(Horizon::Quiescence),
            ),
            Some(3),
        ),
        _ => {
            // `variant[,key=value…]`: c, cutoff, prior, eps, scale, temp.
            let mut parts = name.split(',');
            let v = parts
                .next()
                .and_then(Variant::parse)
                .ok_or_else(|| format!("unknown player {name}"))?;
            let mut config = MctsConfig::new(v);
            for kv in parts {
                let (k, value) = kv
                    .split_once('=')
                    .ok_or_else(|| format!("{kv}: key=value expected"))?;
                let x: f64 = value.parse().map_err(|_| format!("{kv}: not a number"))?;
                match k {
                    "c" => config.exploration = x,
                    "cutoff" => config.cutoff = x as u32,
                    "prior" => config.prior_weight = x as u32,
                    "eps" => config.ir_epsilon = x,
                    "scale" => config.eval_scale = x,
                    "temp" => config.policy_temperature = x,
                    _ => return Err(format!("unknown parameter {k}")),
                }
            }
            (Box::new(Mcts::with_config(eval, config)), None)
        }
    };
    Ok(Player {
        name: name.to_string(),
        search,
        depth,
    })
}

/// Material by 1/3/3/5/9, white minus black.
fn material(b: &Bitboards) -> i32 {
    let v = [1, 3, 3, 5, 9, 0];
    let side = |c| {
        Role::ALL
            .iter()
            .map(|&r| v[r.index()] * b.pieces(c, r).count() as i32)
            .sum::<i32>()
    };
    side(Color::White) - side(Color::Black)
}

/// The result of one game for white (1, ½ or 0), played by the game loop
/// with this example's material adjudication as its judge.
fn play(
    fen: &str,
    white: &mut Player,
    black: &mut Player,
    ms: u64,
    max_plies: u32,
) -> Result<f64, String> {
    let board = Bitboards::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
    let rules = GameRules {
        limit: Limit::MoveTime(Duration::from_millis(ms)),
        margin: Duration::ZERO,
        // No score adjudication and no move limit of the loop's: the judge
        // below adjudicates by material.
        adjudication: Adjudication {
            resign_plies: 0,
            draw_plies: 0,
            max_plies: u32::MAX,
            ..Adjudication::default()
        },
    };
    // Plies in a row with a queen's worth ahead (positive: white).
    let mut ahead = 0i32;
    let mut judge = |game: &Game<Bitboards>, plies: u32| {
        let m = material(game.board());
        ahead = if m >= 9 {
            ahead.max(0) + 1
        } else if m <= -9 {
            ahead.min(0) - 1
        } else {
            0
        };
        let winner = if ahead.abs() >= 6 {
            Some(Some(if ahead > 0 {
                Color::White
            } else {
                Color::Black
            }))
        } else if plies >= max_plies {
            // At the ply limit, a rook ahead wins.
            Some(if m >= 5 {
                Some(Color::White)
            } else if m <= -5 {
                Some(Color::Black)
            } else {
                None
            })
        } else {
            None
        };
        winner.map(|winner| Judgement {
            winner,
            reason: "material".into(),
        })
    };
    let (white_name, black_name) = (white.name.clone(), black.name.clone());
    let mut w = SearchPlayer::new(&mut *white.search).max_depth(white.depth);
    let mut b = SearchPlayer::new(&mut *black.search).max_depth(black.depth);
    let end = play_game(
        Players::Two(&mut w, &mut b),
        &Game::new(board),
        &rules,
        Some(&mut judge),
    );
    if let Ending::Fault { by, reason, .. } = &end.ending {
        let name = if *by == Color::White {
            white_name
        } else {
            black_name
        };
        return Err(format!("{name}: {reason}"));
    }
    Ok(match end.winner() {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    })
}

/// Elo difference for a score fraction (clamped away from 0 and 1).
fn elo(score: f64) -> f64 {
    let s = score.clamp(0.01, 0.99);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Plays `openings` game pairs; returns (wins, draws, losses) of `a`.
fn pairing(
    a: &str,
    b: &str,
    ms: u64,
    skip: usize,
    openings: usize,
    max_plies: u32,
) -> Result<(u32, u32, u32), String> {
    let (mut pa, mut pb) = (player(a)?, player(b)?);
    let (mut w, mut d, mut l) = (0, 0, 0);
    let start = Instant::now();
    for line in OPENINGS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .skip(skip)
        .take(openings)
    {
        // EPD: the first four fields, then clocks for a full FEN.
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = format!("{} 0 1", fields.join(" "));
        for a_white in [true, false] {
            let r = if a_white {
                play(&fen, &mut pa, &mut pb, ms, max_plies)?
            } else {
                1.0 - play(&fen, &mut pb, &mut pa, ms, max_plies)?
            };
            match r {
                x if x > 0.75 => w += 1,
                x if x < 0.25 => l += 1,
                _ => d += 1,
            }
        }
    }
    let n = (w + d + l) as f64;
    let score = (w as f64 + 0.5 * d as f64) / n.max(1.0);
    println!(
        "{a:>12} vs {b:<12} +{w:<3} ={d:<3} -{l:<3} score {:>5.1}%  Elo {:>+5.0}   ({:.0} s)",
        100.0 * score,
        elo(score),
        start.elapsed().as_secs_f64()
    );
    Ok((w, d, l))
}

fn main() -> Result<(), String> {
    let mut ms = 100;
    let mut openings = 10;
    let mut skip = 0;
    let mut max_plies = 160;
    let mut suite = false;
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |what: &str| -> Result<u64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{what} needs a number"))
        };
        match arg.as_str() {
            "--ms" => ms = number("--ms")?,
            "--openings" => openings = number("--openings")? as usize,
            "--skip" => skip = number("--skip")? as usize,
            "--max-plies" => max_plies = number("--max-plies")? as u32,
            "--suite" => suite = true,
            _ => names.push(arg),
        }
    }
    println!(
        "{ms} ms per move, {openings} openings x 2 colours, max {max_plies} plies, Classical eval"
    );
    if suite {
        let hybrids = ["ic", "ir", "ip", "puct"];
        for v in hybrids {
            pairing(v, "uct", ms, skip, openings, max_plies)?;
        }
        // A round robin of the hybrids picks the best one.
        let mut points = [0.0; 4];
        for i in 0..hybrids.len() {
            for j in i + 1..hybrids.len() {
                let (w, d, l) = pairing(hybrids[i], hybrids[j], ms, skip, openings, max_plies)?;
                points[i] += w as f64 + 0.5 * d as f64;
                points[j] += l as f64 + 0.5 * d as f64;
            }
        }
        let best = (0..hybrids.len())
            .max_by(|&a, &b| points[a].total_cmp(&points[b]))
            .map_or("puct", |i| hybrids[i]);
        println!(
            "round robin points: {:?} -> {best}",
            hybrids.iter().zip(points).collect::<Vec<_>>()
        );
        pairing(best, "pvs", ms, skip, openings, max_plies)?;
        pairing(best, "ab3", ms, skip, openings, max_plies)?;
        return Ok(());
    }
    match names.as_slice() {
        [a, b] => pairing(a, b, ms, skip, openings, max_plies).map(|_| ()),
        _ => Err(
            "usage: mcts_match [--ms N] [--openings N] [--skip N] [--max-plies N] (<A> <B> | --suite)".into(),
        ),
    }
}
