//! AdamW with a sparse first layer, and the schedules of the learning rate
//! and of the WDL weight.

use crate::model::Layout;
use std::f64::consts::PI;
use std::fmt;
use std::str::FromStr;

/// First-moment decay.
pub(crate) const BETA1: f32 = 0.9;
/// Second-moment decay.
pub(crate) const BETA2: f32 = 0.999;
/// Added to the second moment's root.
pub(crate) const EPSILON: f32 = 1e-8;

/// How the learning rate falls after the warm-up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LrSchedule {
    /// Cosine annealing from the learning rate down to `lr × final_factor`
    /// over the run's steps (after the warm-up).
    Cosine {
        /// The last learning rate as a fraction of the first (0 to 1).
        final_factor: f32,
    },
    /// Multiplied by `gamma` every `every` epochs.
    Steps {
        /// Epochs between drops (at least 1).
        every: u32,
        /// The factor of each drop (0 to 1).
        gamma: f32,
    },
}

impl Default for LrSchedule {
    fn default() -> LrSchedule {
        LrSchedule::Cosine { final_factor: 0.1 }
    }
}

impl fmt::Display for LrSchedule {
    /// `cosine:FINAL` or `steps:EVERY:GAMMA`, what [`FromStr`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LrSchedule::Cosine { final_factor } => write!(f, "cosine:{final_factor}"),
            LrSchedule::Steps { every, gamma } => write!(f, "steps:{every}:{gamma}"),
        }
    }
}

impl FromStr for LrSchedule {
    type Err = String;

    /// `cosine` (final factor 0.1), `cosine:FINAL`, or `steps:EVERY:GAMMA`
    /// (e.g. `steps:4:0.3`: × 0.3 every 4 epochs).
    fn from_str(s: &str) -> Result<LrSchedule, String> {
        let bad = || {
            format!(
                "learning-rate schedule {s:?}: expected cosine, cosine:FINAL or steps:EVERY:GAMMA"
            )
        };
        let mut parts = s.trim().split(':');
        let schedule = match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some("cosine"), None, None, None) => LrSchedule::default(),
            (Some("cosine"), Some(x), None, None) => LrSchedule::Cosine {
                final_factor: x.parse().map_err(|_| bad())?,
            },
            (Some("steps"), Some(every), Some(gamma), None) => LrSchedule::Steps {
                every: every.parse().map_err(|_| bad())?,
                gamma: gamma.parse().map_err(|_| bad())?,
            },
            _ => return Err(bad()),
        };
        schedule.validate()?;
        Ok(schedule)
    }
}

impl LrSchedule {
    /// Checks the numbers, naming the one out of range.
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            LrSchedule::Cosine { final_factor } if !(0.0..=1.0).contains(&final_factor) => Err(
                format!("final learning-rate factor {final_factor} must be in [0, 1]"),
            ),
            LrSchedule::Steps { every: 0, .. } => {
                Err("learning-rate steps every 0 epochs: must be at least 1".to_string())
            }
            LrSchedule::Steps { gamma, .. } if !(0.0..=1.0).contains(&gamma) => Err(format!(
                "learning-rate step factor {gamma} must be in [0, 1]"
            )),
            _ => Ok(()),
        }
    }
}

/// The learning rate of step `step` (from 0) of a run of `total` steps,
/// taken in epoch `epoch` (from 0): a linear warm-up over the first
/// `warmup` steps (from `lr / warmup` to `lr`), then `schedule`.
pub(crate) fn learning_rate(
    lr: f32,
    schedule: LrSchedule,
    warmup: u64,
    step: u64,
    total: u64,
    epoch: u32,
) -> f32 {
    if step < warmup {
        return (lr as f64 * (step + 1) as f64 / warmup as f64) as f32;
    }
    match schedule {
        LrSchedule::Cosine { final_factor } => {
            let span = total.saturating_sub(warmup);
            let progress = if span == 0 {
                1.0
            } else {
                ((step - warmup) as f64 / span as f64).min(1.0)
            };
            let low = lr as f64 * final_factor as f64;
            (low + (lr as f64 - low) * 0.5 * (1.0 + (PI * progress).cos())) as f32
        }
        LrSchedule::Steps { every, gamma } => {
            let drops = (epoch / every.max(1)).min(i32::MAX as u32) as i32;
            lr * gamma.powi(drops)
        }
    }
}

/// The WDL weight of step `step` of `total`: linear from `start` to `end`.
pub(crate) fn wdl_weight(start: f32, end: f32, step: u64, total: u64) -> f32 {
    let progress = if total == 0 {
        1.0
    } else {
        (step as f64 / total as f64).min(1.0)
    };
    (start as f64 + (end as f64 - start as f64) * progress) as f32
}

/// What one AdamW step updates and with which settings.
pub(crate) struct Step {
    /// Optimiser steps taken including this one (from 1).
    pub t: u64,
    /// The learning rate.
    pub lr: f32,
    /// Decoupled weight decay (on the weights, not the biases).
    pub weight_decay: f32,
    /// Clip of the feature layer (weights and biases).
    pub feature_clip: f32,
    /// Clip of the output weights.
    pub output_clip: f32,
}

/// One AdamW step (decoupled weight decay, bias-corrected moments).
///
/// The feature weights are updated **sparsely**: only the rows in `rows`
/// (the features active in the batch) move, and their moments decay only
/// when they do; every other parameter is updated every step. Feature
/// weights and biases are clipped to ±`feature_clip`, output weights to
/// ±`output_clip` (the bounds integer inference accepts, from
/// [`Quant`](fianchetto_eval::nnue::Quant)).
#[allow(clippy::too_many_arguments)]
pub(crate) fn adamw_step(
    layout: Layout,
    params: &mut [f32],
    grad: &[f32],
    m: &mut [f32],
    v: &mut [f32],
    rows: &[u32],
    s: &Step,
) {
    let t = s.t.min(i32::MAX as u64) as i32;
    let correct1 = 1.0 / (1.0 - BETA1.powi(t));
    let correct2 = 1.0 / (1.0 - BETA2.powi(t));
    let update = |range: std::ops::Range<usize>,
                  decay: f32,
                  clip: f32,
                  params: &mut [f32],
                  m: &mut [f32],
                  v: &mut [f32]| {
        let decay_factor = 1.0 - s.lr * decay;
        for (((p, &g), m), v) in params[range.clone()]
            .iter_mut()
            .zip(&grad[range.clone()])
            .zip(&mut m[range.clone()])
            .zip(&mut v[range])
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let step = (*m * correct1) / ((*v * correct2).sqrt() + EPSILON);
            *p = (*p * decay_factor - s.lr * step).clamp(-clip, clip);
        }
    };
    let h = layout.hidden;
    for &row in rows {
        let start = row as usize * h;
        update(
            start..start + h,
            s.weight_decay,
            s.feature_clip,
            params,
            m,
            v,
        );
    }
    update(layout.ft_bias(), 0.0, s.feature_clip, params, m, v);
    update(
        layout.out_weights(),
        s.weight_decay,
        s.output_clip,
        params,
        m,
        v,
    );
    update(layout.out_bias(), 0.0, f32::MAX, params, m, v);
}

#[cfg(test)]
mod tests {
    use super::*;
    use fianchetto_eval::nnue::Arch;

    #[test]
    fn cosine_schedule_ends_at_its_final_factor() {
        let cos = LrSchedule::Cosine { final_factor: 0.1 };
        assert_eq!(learning_rate(0.001, cos, 0, 0, 100, 0), 0.001);
        assert!((learning_rate(0.001, cos, 0, 50, 100, 5) - 0.00055).abs() < 1e-9);
        assert!((learning_rate(0.001, cos, 0, 100, 100, 9) - 0.0001).abs() < 1e-9);
        assert!((learning_rate(0.001, cos, 0, 500, 100, 9) - 0.0001).abs() < 1e-9);
    }

    #[test]
    fn warm_up_then_the_schedule() {
        let cos = LrSchedule::Cosine { final_factor: 0.0 };
        assert!((learning_rate(0.001, cos, 10, 0, 110, 0) - 0.0001).abs() < 1e-9);
        assert!((learning_rate(0.001, cos, 10, 4, 110, 0) - 0.0005).abs() < 1e-9);
        assert_eq!(learning_rate(0.001, cos, 10, 10, 110, 0), 0.001);
        assert!((learning_rate(0.001, cos, 10, 60, 110, 0) - 0.0005).abs() < 1e-9);
        assert!(learning_rate(0.001, cos, 10, 110, 110, 0).abs() < 1e-9);
        let steps = LrSchedule::Steps {
            every: 2,
            gamma: 0.5,
        };
        // × 0.5 from epoch 2, × 0.25 from epoch 4.
        assert_eq!(learning_rate(0.001, steps, 0, 19, 100, 1), 0.001);
        assert_eq!(learning_rate(0.001, steps, 0, 20, 100, 2), 0.0005);
        assert_eq!(learning_rate(0.001, steps, 0, 45, 100, 4), 0.00025);
    }

    #[test]
    fn schedules_read_and_write_their_names() {
        for s in ["cosine:0.1", "steps:4:0.3", "cosine:0"] {
            let schedule: LrSchedule = s.parse().unwrap();
            assert_eq!(schedule.to_string(), s);
        }
        assert_eq!("cosine".parse(), Ok(LrSchedule::default()));
        for bad in [
            "linear",
            "cosine:2",
            "steps:0:0.5",
            "steps:2",
            "steps:2:1.5:1",
        ] {
            assert!(bad.parse::<LrSchedule>().is_err(), "{bad}");
        }
    }

    #[test]
    fn wdl_moves_linearly() {
        assert_eq!(wdl_weight(0.0, 0.4, 0, 100), 0.0);
        assert!((wdl_weight(0.0, 0.4, 50, 100) - 0.2).abs() < 1e-7);
        assert!((wdl_weight(0.0, 0.4, 200, 100) - 0.4).abs() < 1e-7);
        assert_eq!(wdl_weight(0.3, 0.3, 7, 100), 0.3);
    }

    #[test]
    fn adamw_moves_against_the_gradient_clips_and_skips_inactive_rows() {
        let layout = Layout::new(&Arch::plain(16));
        let n = layout.len();
        let mut p = vec![0.5f32; n];
        p[0] = 1.98;
        let mut g = vec![1.0f32; n];
        g[0] = -1.0;
        let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
        let step = Step {
            t: 1,
            lr: 0.01,
            weight_decay: 0.0,
            feature_clip: 1.98,
            output_clip: 1.0,
        };
        // Only row 0 of the feature weights was active.
        adamw_step(layout, &mut p, &g, &mut m, &mut v, &[0], &step);
        // The first bias-corrected step is lr · sign(g).
        assert!((p[1] - 0.49).abs() < 1e-6);
        assert_eq!(p[0], 1.98);
        // Row 1 did not move, nor did its moments.
        assert!(p[16..32].iter().all(|&x| x == 0.5));
        assert!(m[16..32].iter().all(|&x| x == 0.0));
        // The dense tail moved.
        assert!((p[layout.ft_bias().start] - 0.49).abs() < 1e-6);
        assert!((p[layout.out_weights().start] - 0.49).abs() < 1e-6);
    }
}
