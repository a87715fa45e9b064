//! Texel tuning on synthetic labels: positions labelled by a known weight
//! set (result = sigmoid(K · eval_known)), tuned from other weights, must
//! give back the known K and the known weights.

use fianchetto_board::{Bitboards, Board};
use fianchetto_eval::{Classical, Params};
use fianchetto_movegen::MoveGen;
use fianchetto_tune::texel::{self, is_quiet, select_weights, sigmoid, Sample, TexelConfig};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Quiet positions of random games (captures preferred, to reach endings).
fn positions(seed: u64, count: usize) -> Vec<Bitboards> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Bitboards::startpos();
        for ply in 0..140 {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves.iter().filter(|m| !m.is_quiet()).copied().collect();
            let mv = if !captures.is_empty() && rng.next_u64() % 3 == 0 {
                captures[(rng.next_u64() % captures.len() as u64) as usize]
            } else {
                moves[(rng.next_u64() % moves.len() as u64) as usize]
            };
            b.play_unchecked(mv);
            if ply >= 6 && rng.next_u64() % 4 == 0 && is_quiet(&b) {
                out.push(b.clone());
            }
        }
    }
    out.truncate(count);
    out
}

/// The known weights: the classical set with a few terms changed a lot.
fn known() -> Params {
    let mut p = Params::classical();
    p.piece_value[1] = [p.piece_value[1][0] + 40, p.piece_value[1][1] - 30];
    p.piece_value[3][1] += 60;
    p.bishop_pair = [70, 90];
    p.rook_open = [45, 5];
    p.passed_rank[5] = [20, 120];
    p.pawn_isolated = [-30, -5];
    p.tempo = [40, 0];
    p
}

const K: f64 = 0.006;

fn labelled(boards: &[Bitboards], truth: &Params, start: &Params) -> Vec<Sample> {
    let mut eval = Classical::with_params(truth.clone());
    boards
        .iter()
        .map(|b| {
            let e = eval.breakdown(b).white_score as f64;
            Sample::new(start, b, sigmoid(K, e) as f32)
        })
        .filter(|s| !s.trace.draw)
        .collect()
}

#[test]
fn k_fit_recovers_a_known_k() {
    let boards = positions(1, 3000);
    let truth = known();
    let samples = labelled(&boards, &truth, &truth);
    let w: Vec<f64> = truth.to_vec().into_iter().map(f64::from).collect();
    let k = texel::fit_k(&samples, &w, 2);
    assert!((k / K - 1.0).abs() < 0.02, "fitted K = {k}, true {K}");
}

#[test]
fn tuning_selected_weights_recovers_them() {
    let boards = positions(2, 6000);
    let truth = known();
    let start = Params::classical();
    let samples = labelled(&boards, &truth, &start);
    let groups = "piece_value,bishop_pair,rook_open,passed_rank,pawn_isolated,tempo";
    let trainable = select_weights(groups).expect("known groups");
    let config = TexelConfig {
        epochs: 400,
        learning_rate: 2.0,
        batch_size: 0,
        threads: 2,
        k: Some(K),
        trainable: Some(trainable.clone()),
        ..TexelConfig::default()
    };
    let out = texel::train(&samples, &start, &config, |_| {});
    assert!(out.final_error < out.initial_error / 20.0, "{out:?}");
    // The weights that the data decides (they occur often enough) match.
    let checks = [
        "piece_value[1][0]",
        "piece_value[1][1]",
        "piece_value[3][1]",
        "bishop_pair[0]",
        "bishop_pair[1]",
        "rook_open[0]",
        "pawn_isolated[0]",
        "pawn_isolated[1]",
        "tempo[0]",
    ];
    for name in checks {
        let i = Params::index_of(name).expect("exists");
        let (got, want) = (out.weights[i], truth.get(i).unwrap_or(0) as f64);
        eprintln!("{name}: tuned {got:.1}, true {want}");
        assert!(
            (got - want).abs() <= 2.0,
            "{name}: tuned {got:.1}, true {want}"
        );
    }
    // Untrained weights are untouched.
    let i = Params::index_of("mobility_knight[4][0]").expect("exists");
    assert_eq!(out.params.get(i), start.get(i));
}

#[test]
fn tuning_every_weight_fits_the_labels() {
    let boards = positions(3, 4000);
    let truth = known();
    let start = Params::classical();
    let samples = labelled(&boards, &truth, &start);
    let config = TexelConfig {
        epochs: 150,
        learning_rate: 1.0,
        batch_size: 1024,
        threads: 2,
        ..TexelConfig::default()
    };
    let mut seen = Vec::new();
    let out = texel::train(&samples, &start, &config, |e| seen.push(e.error));
    assert_eq!(seen.len(), 150);
    assert!((out.k / K - 1.0).abs() < 0.3, "K = {}", out.k);
    eprintln!(
        "all: {} -> {} K {}",
        out.initial_error, out.final_error, out.k
    );
    assert!(out.final_error < out.initial_error / 5.0, "{out:?}");
    // Most of the changed material weights move towards the truth.
    let moved = |name: &str| {
        let i = Params::index_of(name).expect("exists");
        let (s, t, g) = (
            start.get(i).unwrap_or(0) as f64,
            truth.get(i).unwrap_or(0) as f64,
            out.weights[i],
        );
        (g - s) * (t - s) > 0.0
    };
    let names = [
        "bishop_pair[0]",
        "bishop_pair[1]",
        "tempo[0]",
        "rook_open[0]",
    ];
    assert!(names.iter().filter(|n| moved(n)).count() >= 3);
}

#[test]
fn validation_keeps_the_best_epoch() {
    let boards = positions(4, 3000);
    let truth = known();
    let start = Params::classical();
    let (train_boards, held) = boards.split_at(2000);
    let samples = labelled(train_boards, &truth, &start);
    let config = TexelConfig {
        epochs: 30,
        batch_size: 0,
        threads: 2,
        k: Some(K),
        trainable: Some(select_weights("bishop_pair,tempo,rook_open").expect("known")),
        ..TexelConfig::default()
    };
    // Held-out positions labelled by the same truth: tuning helps them.
    let same = labelled(held, &truth, &start);
    let out = texel::train_validated(&samples, &same, &start, &config, |_| {});
    assert_eq!(out.validation_errors.len(), 31);
    assert!(out.best_epoch > 20, "best epoch {}", out.best_epoch);
    assert!(out.validation_errors[out.best_epoch] < 0.95 * out.validation_errors[0]);
    // Held-out positions labelled by the starting weights: every step
    // away from them hurts, so the starting weights are kept.
    let other = labelled(held, &start, &start);
    let out = texel::train_validated(&samples, &other, &start, &config, |_| {});
    assert_eq!(out.best_epoch, 0);
    assert_eq!(out.params, start);
}
