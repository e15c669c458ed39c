//! Adam: first and second moments per parameter, bias-corrected by the global step. The transformer's rows are
//! updated lazily: only the rows a batch touched get a step (their moments decay only when touched), which is
//! what makes a batch cost its active features rather than all 6 million transformer weights.

/// Adam's fixed constants.
pub const BETA1: f32 = 0.9;
pub const BETA2: f32 = 0.999;
pub const EPSILON: f32 = 1e-8;

/// Moments of one tensor.
#[derive(Clone, PartialEq)]
pub struct Moments {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
}

impl Moments {
    pub fn new(len: usize) -> Moments {
        Moments { m: vec![0.0; len], v: vec![0.0; len] }
    }
}

/// The step size of update `t` (from 1), with Adam's bias correction folded in.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    rate: f32,
}

impl Step {
    pub fn new(lr: f32, t: u64) -> Step {
        let t = t.min(i32::MAX as u64) as i32;
        let rate = lr * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
        Step { rate }
    }

    /// Updates `params` by their gradient `grads` (same length as `m` and `v`).
    #[inline]
    pub fn apply(self, params: &mut [f32], m: &mut [f32], v: &mut [f32], grads: &[f32]) {
        for (((p, m), v), &g) in params.iter_mut().zip(m).zip(v).zip(grads) {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= self.rate * *m / (v.sqrt() + EPSILON);
        }
    }
}
