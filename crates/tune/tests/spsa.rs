//! SPSA: convergence on a simulated match with a hidden optimum, and the
//! real thing in miniature (engines in this process, through `Tunable`).

use fianchetto_eval::{Classical, Material, Params, Tunable, TunableError};
use fianchetto_movegen::{Game, MoveGen};
use fianchetto_search::pvs::Pvs;
use fianchetto_search::{Limits, Report, Search, SearchResult};
use fianchetto_tune::matches::{Adjudication, MatchConfig, Openings, TimeControl};
use fianchetto_tune::spsa::{
    format_params, parse_params, tunable_engine, EngineMatch, Objective, Spsa, SpsaConfig,
    Trajectory,
};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Mutex;

/// A match between two parameter vectors, simulated: an engine's Elo falls
/// with the squared distance to a hidden optimum, and each game is won,
/// drawn or lost at random with the probabilities the Elo difference gives
/// (a third of the games drawn).
struct SimulatedMatch {
    optimum: Vec<f64>,
    /// Distance at which an engine is 10 Elo weaker, per parameter.
    width: Vec<f64>,
    rng: Mutex<Xoshiro256PlusPlus>,
}

impl SimulatedMatch {
    fn elo(&self, x: &[f64]) -> f64 {
        -10.0
            * x.iter()
                .zip(&self.optimum)
                .zip(&self.width)
                .map(|((v, o), w)| ((v - o) / w).powi(2))
                .sum::<f64>()
    }
}

impl Objective for SimulatedMatch {
    fn compare(&self, plus: &[f64], minus: &[f64], pairs: u32, _: u64) -> f64 {
        let d = self.elo(plus) - self.elo(minus);
        let expected = 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        let draw = 1.0 / 3.0;
        let win = (expected - draw / 2.0).clamp(0.0, 1.0 - draw);
        let Ok(mut rng) = self.rng.lock() else {
            return 0.0;
        };
        let mut r = 0.0;
        for _ in 0..2 * pairs {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            r += if u < win {
                1.0
            } else if u < win + draw {
                0.0
            } else {
                -1.0
            };
        }
        r
    }
}

#[test]
fn converges_to_the_hidden_optimum_of_a_simulated_match() {
    let params = parse_params(
        "a, int, 0, -100, 100, 4, 0.02\n\
         b, int, 20, -100, 100, 4, 0.02\n\
         c, float, 20, 0, 200, 6, 0.02\n",
    )
    .expect("valid");
    let optimum = vec![30.0, -12.0, 75.0];
    for seed in 0..4 {
        let objective = SimulatedMatch {
            optimum: optimum.clone(),
            width: vec![10.0, 10.0, 15.0],
            rng: Mutex::new(Xoshiro256PlusPlus::seed_from_u64(100 + seed)),
        };
        let config = SpsaConfig {
            iterations: 3_000,
            pairs_per_iteration: 8,
            seed,
            ..SpsaConfig::default()
        };
        let mut spsa = Spsa::new(params.clone(), config).expect("valid");
        let mut trajectory = Trajectory::start(&spsa);
        spsa.run(&objective, |s| trajectory.push(s));
        assert_eq!(trajectory.rows.len(), 3_001);
        let end = spsa.values();
        // Every parameter ends within one width of the optimum (it started
        // three or more away), and the engine within 10 Elo of the best
        // (it started 330 below).
        for (((v, o), w), name) in end
            .iter()
            .zip(&optimum)
            .zip(&objective.width)
            .zip(["a", "b", "c"])
        {
            assert!(
                (v - o).abs() < *w,
                "seed {seed}: {name} ended at {v:.1}, optimum {o}"
            );
        }
        assert!(objective.elo(&params.iter().map(|p| p.value).collect::<Vec<_>>()) < -300.0);
        assert!(objective.elo(&end) > -10.0, "seed {seed}: {end:?}");
    }
}

#[test]
fn schedules_follow_openbench_numbers() {
    let params = parse_params("x, int, 50, 0, 100, 5, 0.002").expect("valid");
    let config = SpsaConfig {
        iterations: 1000,
        ..SpsaConfig::default()
    };
    let spsa = Spsa::new(params, config).expect("valid");
    // The perturbation ends at c_end; the OpenBench learning rate
    // r_k = (2 a_k) / (2 c_k²) ends at r_end (our a carries the factor 2).
    assert!((spsa.c_k(0, 999) - 5.0).abs() < 1e-9);
    let r_end = spsa.a_k(0, 999) / 2.0 / spsa.c_k(0, 999).powi(2);
    assert!((r_end - 0.002).abs() < 1e-12);
    assert!(spsa.c_k(0, 0) > spsa.c_k(0, 500));
    assert!(spsa.a_k(0, 0) > spsa.a_k(0, 500));
}

#[test]
fn parameter_files_round_trip_and_refuse_nonsense() {
    let text =
        "bishop_pair[0], int, 25, 0, 80, 4, 0.002\nlmr_base, float, 0.75, 0.25, 1.5, 0.05, 0.002\n";
    let p = parse_params(text).expect("valid");
    assert_eq!(parse_params(&format_params(&p)).expect("valid"), p);
    for (bad, line) in [
        ("x, int, 1, 0", 1),
        ("\nx, real, 1, 0, 2, 1, 0.1", 2),
        ("x, int, 5, 0, 2, 1, 0.1", 1),
        ("x, int, 1, 0, 2, 0, 0.1", 1),
        ("x, int, one, 0, 2, 1, 0.1", 1),
        ("x, int, 1, 0, 2, 1, 0.1\nx, int, 1, 0, 2, 1, 0.1", 2),
    ] {
        match parse_params(bad) {
            Err(fianchetto_tune::spsa::SpsaError::Line { line: l, .. }) => {
                assert_eq!(l, line, "{bad}")
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    assert!(parse_params("# nothing\n").is_err());
}

/// A search tunable of the kind the search crate will provide: here the
/// depth a wrapped searcher searches to.
#[derive(Clone)]
struct DepthKnob {
    depth: i32,
}

impl Tunable for DepthKnob {
    fn names(&self) -> Vec<String> {
        vec!["depth".into()]
    }
    fn value(&self, name: &str) -> Option<i32> {
        (name == "depth").then_some(self.depth)
    }
    fn set_value(&mut self, name: &str, value: i32) -> Result<(), TunableError> {
        match name {
            "depth" if (1..=8).contains(&value) => {
                self.depth = value;
                Ok(())
            }
            "depth" => Err(TunableError::OutOfRange {
                name: name.into(),
                value,
                min: 1,
                max: 8,
            }),
            _ => Err(TunableError::UnknownName(name.into())),
        }
    }
}

/// A PVS that always searches to a fixed depth, whatever the limits.
struct FixedDepth {
    pvs: Pvs<Material>,
    depth: u32,
}

impl<B: MoveGen> Search<B> for FixedDepth {
    fn search(&mut self, game: &Game<B>, _: &Limits, report: Report<'_>) -> SearchResult {
        self.pvs.search(game, &Limits::depth(self.depth), report)
    }
    fn clear(&mut self) {
        self.pvs.clear();
    }
    fn name(&self) -> &'static str {
        "fixed-depth"
    }
}

#[test]
fn tunes_a_search_tunable_by_playing_games() {
    let params = parse_params("depth, int, 2, 1, 5, 1, 0.5").expect("valid");
    let build = tunable_engine(DepthKnob { depth: 2 }, |t: &DepthKnob| FixedDepth {
        pvs: Pvs::new(Material::classic()),
        depth: t.depth as u32,
    });
    let config = MatchConfig {
        time_control: TimeControl::Nodes(1_000_000),
        adjudication: Adjudication {
            max_plies: 60,
            resign_score: 300,
            resign_plies: 2,
            ..MatchConfig::default().adjudication
        },
        ..MatchConfig::default()
    };
    let objective =
        EngineMatch::new(&params, &build, config, Openings::Random { seed: 5 }, 2).expect("valid");
    let mut spsa = Spsa::new(
        params,
        SpsaConfig {
            iterations: 12,
            pairs_per_iteration: 2,
            ..SpsaConfig::default()
        },
    )
    .expect("valid");
    spsa.run(&objective, |_| {});
    let [w, d, l] = objective.tally();
    assert_eq!(w + d + l, 12 * 2 * 2);
    // The deeper engine wins: the depth goes up.
    assert!(spsa.values()[0] > 3.0, "depth {}", spsa.values()[0]);
}

#[test]
fn engine_match_refuses_unknown_names_and_plays_eval_weights() {
    let build = tunable_engine(Params::classical(), |p: &Params| {
        Pvs::new(Classical::with_params(p.clone()))
    });
    let config = MatchConfig {
        time_control: TimeControl::Nodes(300),
        adjudication: Adjudication {
            max_plies: 30,
            ..MatchConfig::default().adjudication
        },
        ..MatchConfig::default()
    };
    let bad = parse_params("nonsense, int, 1, 0, 2, 1, 0.002").expect("valid");
    assert!(EngineMatch::new(
        &bad,
        &build,
        config.clone(),
        Openings::Random { seed: 1 },
        1
    )
    .is_err());
    let good = parse_params("bishop_pair[0], int, 25, 0, 80, 4, 0.002").expect("valid");
    let objective =
        EngineMatch::new(&good, &build, config, Openings::Book(vec![]), 1).expect("valid");
    let r = objective.compare(&[30.0], &[20.0], 1, 0);
    assert!((-2.0..=2.0).contains(&r));
}
