//! The evaluation trace against the evaluation itself: on positions of
//! random games, under the classical weights and under random weights, the
//! traced score equals the real one up to the evaluation's roundings, and
//! the traced gradient equals a finite difference of the traced score.

use fianchetto_board::{Bitboards, Board};
use fianchetto_eval::trace::{is_fixed, trace};
use fianchetto_eval::{BuhoChess, Classical, Params};
use fianchetto_movegen::MoveGen;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Positions of random games (every ply of several games).
fn positions(seed: u64, games: usize) -> Vec<Bitboards> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut b = Bitboards::startpos();
        for _ in 0..120 {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures half the time, so that endings are reached.
            let captures: Vec<_> = moves.iter().filter(|m| !m.is_quiet()).copied().collect();
            let mv = if !captures.is_empty() && rng.next_u64() & 1 == 0 {
                captures[(rng.next_u64() % captures.len() as u64) as usize]
            } else {
                moves[(rng.next_u64() % moves.len() as u64) as usize]
            };
            b.play_unchecked(mv);
            out.push(b.clone());
        }
    }
    out
}

fn weights(p: &Params) -> Vec<f64> {
    p.to_vec().into_iter().map(f64::from).collect()
}

/// A weight set with every traced weight random (the phase weights kept).
fn random_params(seed: u64) -> Params {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut p = Params::classical();
    for i in 0..Params::LEN {
        if is_fixed(i) {
            continue;
        }
        let name = Params::name(i).unwrap_or_default();
        let r = (rng.next_u64() % 201) as i32 - 100;
        let v = if name.starts_with("scale_") {
            r.abs() + 20
        } else if name.starts_with("king_attack_scale") {
            r.abs()
        } else {
            r
        };
        p.set(i, v);
    }
    p
}

fn check_scores(p: &Params, boards: &[Bitboards]) {
    let w = weights(p);
    let mut eval = Classical::with_params(p.clone());
    for b in boards {
        let exact = eval.breakdown(b).white_score as f64;
        let traced = trace(p, b).white_eval(&w);
        let err = (exact - traced).abs();
        assert!(err <= 4.0, "{}: traced {traced} vs {exact}", b.fen());
    }
}

#[test]
fn traced_scores_match_the_evaluation() {
    let boards = positions(1, 30);
    assert!(boards.len() > 1000);
    check_scores(&Params::classical(), &boards);
    check_scores(&Params::buhochess(), &boards[..300]);
    for seed in 0..3 {
        check_scores(&random_params(seed), &boards[..600]);
    }
    // BuhoChess's evaluator agrees with its own parameter set's trace.
    let p = Params::buhochess();
    let w = weights(&p);
    let mut e = BuhoChess::new();
    for b in &boards[..100] {
        let d = e.breakdown(b).white_score as f64 - trace(&p, b).white_eval(&w);
        assert!(d.abs() <= 4.0);
    }
}

#[test]
fn traced_gradient_is_the_derivative() {
    let boards = positions(2, 6);
    let p = random_params(9);
    let w = weights(&p);
    for b in boards.iter().step_by(7) {
        let t = trace(&p, b);
        let mut grad = vec![0.0; Params::LEN];
        t.add_gradient(&w, 1.0, &mut grad);
        // Every weight the trace mentions, and the non-linear ones.
        let mut probe: Vec<usize> = t.terms.iter().map(|x| x.index as usize).collect();
        probe.extend((0..Params::LEN).filter(|&i| {
            let n = Params::name(i).unwrap_or_default();
            n.starts_with("king_attack") || n.starts_with("scale_")
        }));
        for i in probe {
            let h = 0.5;
            let mut up = w.clone();
            up[i] += h;
            let mut down = w.clone();
            down[i] -= h;
            let numeric = (t.white_eval(&up) - t.white_eval(&down)) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() < 1e-6 * (1.0 + numeric.abs()),
                "{} on {}: {} vs {}",
                Params::name(i).unwrap_or_default(),
                b.fen(),
                grad[i],
                numeric
            );
        }
    }
}

#[test]
fn dead_draws_trace_to_zero() {
    let b = Bitboards::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").expect("valid");
    let t = trace(&Params::classical(), &b);
    assert!(t.draw);
    assert_eq!(t.white_eval(&weights(&Params::classical())), 0.0);
}
