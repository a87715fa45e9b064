//! AdamW and the learning-rate schedule.

use super::model::Layout;
use std::f64::consts::PI;

/// First-moment decay.
pub(crate) const BETA1: f32 = 0.9;
/// Second-moment decay.
pub(crate) const BETA2: f32 = 0.999;
/// Added to the second moment's root.
pub(crate) const EPSILON: f32 = 1e-8;
/// Every parameter is kept within ± this after each step, so that the
/// quantized feature weights (× QA = 255) and output weights (× QB = 64,
/// at most 127) cannot overflow `i16` inference.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The learning rate after `step` steps of `total`: cosine annealing from
/// `lr` down to `lr × final_factor`, held there past the end.
pub(crate) fn learning_rate(lr: f32, final_factor: f32, step: u64, total: u64) -> f32 {
    let progress = if total == 0 {
        1.0
    } else {
        (step as f64 / total as f64).min(1.0)
    };
    let low = lr as f64 * final_factor as f64;
    (low + (lr as f64 - low) * 0.5 * (1.0 + (PI * progress).cos())) as f32
}

/// One AdamW step (decoupled weight decay, bias-corrected moments) over
/// every parameter; `step` counts from 1. Weight decay applies to the
/// weights, not to the biases. Parameters are clipped to ±[`WEIGHT_CLIP`]
/// afterwards.
#[allow(clippy::too_many_arguments)]
pub(crate) fn adamw_step(
    layout: Layout,
    params: &mut [f32],
    grad: &[f32],
    m: &mut [f32],
    v: &mut [f32],
    step: u64,
    lr: f32,
    weight_decay: f32,
) {
    let t = step.min(i32::MAX as u64) as i32;
    let correct1 = 1.0 / (1.0 - BETA1.powi(t));
    let correct2 = 1.0 / (1.0 - BETA2.powi(t));
    let ranges = [
        (layout.ft_weights(), weight_decay),
        (layout.ft_bias(), 0.0),
        (layout.out_weights(), weight_decay),
        (layout.out_bias()..layout.len(), 0.0),
    ];
    for (range, decay) in ranges {
        let decay_factor = 1.0 - lr * decay;
        for (((p, &g), m), v) in params[range.clone()]
            .iter_mut()
            .zip(&grad[range.clone()])
            .zip(&mut m[range.clone()])
            .zip(&mut v[range])
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let update = (*m * correct1) / ((*v * correct2).sqrt() + EPSILON);
            *p = (*p * decay_factor - lr * update).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_schedule_ends_at_a_tenth() {
        assert_eq!(learning_rate(0.001, 0.1, 0, 100), 0.001);
        assert!((learning_rate(0.001, 0.1, 50, 100) - 0.00055).abs() < 1e-9);
        assert!((learning_rate(0.001, 0.1, 100, 100) - 0.0001).abs() < 1e-9);
        assert!((learning_rate(0.001, 0.1, 500, 100) - 0.0001).abs() < 1e-9);
    }

    #[test]
    fn adamw_moves_against_the_gradient_and_clips() {
        let layout = Layout { hidden: 16 };
        let n = layout.len();
        let mut p = vec![0.5f32; n];
        p[0] = 1.98;
        let mut g = vec![1.0f32; n];
        g[0] = -1.0;
        let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
        adamw_step(layout, &mut p, &g, &mut m, &mut v, 1, 0.01, 0.0);
        // The first bias-corrected step is lr · sign(g).
        assert!((p[1] - 0.49).abs() < 1e-6);
        assert_eq!(p[0], WEIGHT_CLIP);
    }
}
