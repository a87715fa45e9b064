//! ProbCut fitting on synthetic data: the least-squares fit gives back the
//! slope, intercept and residual deviation the data was drawn with, per
//! phase bucket.

use fianchetto_tune::probcut::{fit, least_squares, to_search_fits, Observation};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn uniform(rng: &mut Xoshiro256PlusPlus) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// A standard normal deviate (Box-Muller).
fn normal(rng: &mut Xoshiro256PlusPlus) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

#[test]
fn least_squares_recovers_a_b_and_sigma() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let (a, b, sigma) = (0.93, 14.0, 55.0);
    let points: Vec<(f64, f64)> = (0..20_000)
        .map(|_| {
            let x = uniform(&mut rng) * 1200.0 - 600.0;
            (x, a * x + b + sigma * normal(&mut rng))
        })
        .collect();
    let f = least_squares(&points).expect("enough points");
    assert!((f.a - a).abs() < 0.01, "{f:?}");
    assert!((f.b - b).abs() < 2.0, "{f:?}");
    assert!((f.sigma / sigma - 1.0).abs() < 0.03, "{f:?}");
    assert!(f.r2 > 0.9 && f.r2 < 1.0);
    assert_eq!(f.n, 20_000);
}

#[test]
fn fits_each_pair_and_phase_on_its_own() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    // Phase 0: deep = 0.8 shallow + 10 (sd 40); phase 2: 1.05 shallow − 5 (sd 90);
    // depth 3 → 7 always 1.0 x (sd 20). Depth 5 of some positions is a mate.
    let truth = [(0.8, 10.0, 40.0), (1.0, 0.0, 1.0), (1.05, -5.0, 90.0)];
    let mut obs = Vec::new();
    for i in 0..30_000 {
        let phase = [0u8, 2][i % 2];
        let (a, b, s) = truth[phase as usize];
        let x = (uniform(&mut rng) * 1000.0 - 500.0).round();
        let deep = (a * x + b + s * normal(&mut rng)).round() as i32;
        let mut scores = vec![None; 8];
        scores[2] = Some(x as i32);
        scores[6] = Some(deep);
        scores[3] = Some(x as i32);
        scores[7] = Some((x + 20.0 * normal(&mut rng)).round() as i32);
        if i % 10 == 0 {
            scores[6] = None;
        }
        // Beyond max_score: left out.
        if i % 97 == 0 {
            scores[2] = Some(5000);
        }
        obs.push(Observation { phase, scores });
    }
    let fits = fit(&obs, &[(2, 6), (3, 7)], 1000);
    let get = |s: i32, d: i32, p: Option<u8>| {
        fits.iter()
            .find(|f| (f.shallow, f.deep, f.phase) == (s, d, p))
            .map(|f| f.fit)
            .expect("fitted")
    };
    for phase in [0u8, 2] {
        let (a, b, s) = truth[phase as usize];
        let f = get(2, 6, Some(phase));
        assert!((f.a - a).abs() < 0.02, "phase {phase}: {f:?}");
        assert!((f.b - b).abs() < 3.0, "phase {phase}: {f:?}");
        assert!((f.sigma / s - 1.0).abs() < 0.05, "phase {phase}: {f:?}");
    }
    // No position of phase 1: no fit for it.
    assert!(fits.iter().all(|f| f.phase != Some(1)));
    let all = get(3, 7, None);
    assert!((all.a - 1.0).abs() < 0.01 && (all.sigma - 20.0).abs() < 1.0);
    // The search's table keeps the per-phase fits only.
    assert_eq!(to_search_fits(&fits).len(), 4);
}
