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

    /// The loss of one position and its derivative by the net's output (internal units): the output is
    /// compared as the search will use it, times the position's material factor, in centipawns.
    pub fn of(&self, eval_internal: f32, s: &Sample) -> (f32, f32) {
        let cp_per_unit = CP_PER_INTERNAL * s.value_scale;
        let (l, g) = self.of_cp(eval_internal * cp_per_unit, s);
        (l, g * cp_per_unit)
    }

    /// The loss of an evaluation in centipawns (side to move's view) and its derivative by it.
    pub fn of_cp(&self, eval_cp: f32, s: &Sample) -> (f32, f32) {
        let p = sigmoid(eval_cp / self.scale);
        let diff = p - self.target(s);
        (diff * diff, 2.0 * diff * p * (1.0 - p) / self.scale)
    }
}
