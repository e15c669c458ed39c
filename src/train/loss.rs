//! The loss: mean squared error between win probabilities, `sigmoid(eval_cp / scale)` for the net against a blend
//! of the search score's `sigmoid(score_cp / scale)` (weight lambda) and the game's result (weight 1 - lambda).

use super::batch::Sample;
use super::scale::CP_PER_INTERNAL;

#[derive(Clone, Copy, Debug)]
pub struct Loss {
    /// Weight of the search score in the target (the rest is the game result).
    pub lambda: f32,
    /// Centipawns per unit of the sigmoid's argument.
    pub scale: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Loss {
    pub fn target(&self, s: &Sample) -> f32 {
        self.lambda * sigmoid(f32::from(s.score) / self.scale) + (1.0 - self.lambda) * s.result_target()
    }

    /// The loss of one position and its derivative by the evaluation (internal units).
    pub fn of(&self, eval_internal: f32, s: &Sample) -> (f32, f32) {
        let p = sigmoid(eval_internal * CP_PER_INTERNAL / self.scale);
        let diff = p - self.target(s);
        let grad = 2.0 * diff * p * (1.0 - p) * CP_PER_INTERNAL / self.scale;
        (diff * diff, grad)
    }
}
