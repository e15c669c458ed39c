//! Playing below full strength (`Skill Level`, `UCI_LimitStrength` with `UCI_Elo`).
//!
//! Weakening is graded in three ways at once, all driven by one number, the skill (-20..20, 20 = full):
//! the search depth is capped, the engine looks at several candidate moves, and it picks among them with a
//! random error that grows as the skill falls. `UCI_Elo` maps linearly onto the skill.

use crate::board::splitmix::SplitMix;

/// Elo that `UCI_Elo` maps onto skill -20 and 19 (20 is full strength, above the mapped range).
pub const ELO_AT_MIN_SKILL: i32 = 800;
pub const ELO_AT_MAX_SKILL: i32 = 2600;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// -20 (weakest) .. 20 (full strength).
    pub skill: i32,
    /// Seed of the random choice (fixed per game for reproducible tests).
    pub seed: u64,
}

impl Strength {
    pub fn full() -> Strength {
        Strength { skill: 20, seed: 0 }
    }

    /// From the protocol options: `UCI_LimitStrength` + `UCI_Elo` take precedence over `Skill Level`.
    pub fn from_options(skill_level: i32, limit_strength: bool, elo: i32, seed: u64) -> Strength {
        let skill = if limit_strength {
            let span = (ELO_AT_MAX_SKILL - ELO_AT_MIN_SKILL) as f64;
            let x = (elo.clamp(ELO_AT_MIN_SKILL, ELO_AT_MAX_SKILL) - ELO_AT_MIN_SKILL) as f64 / span;
            (-20.0 + x * 39.0).round() as i32
        } else {
            skill_level.clamp(-20, 20)
        };
        Strength { skill, seed }
    }

    pub fn is_full(&self) -> bool {
        self.skill >= 20
    }

    /// The deepest iteration allowed: 1 ply at skill -20, up to 20 plies at skill 19.
    pub fn max_depth(&self) -> Option<u32> {
        (!self.is_full()).then(|| (1 + (self.skill + 20) / 2) as u32)
    }

    /// How many candidate moves a weakened search compares.
    pub fn candidates(&self) -> usize {
        if self.is_full() { 1 } else { 4 }
    }

    /// Picks one of `lines` (score, move index), best first: each candidate's score gets a random error whose
    /// size grows as the skill falls (up to about a chariot at skill -20).
    pub fn choose(&self, scores: &[i32], ply_seed: u64) -> usize {
        if self.is_full() || scores.len() <= 1 {
            return 0;
        }
        let weakness = (20 - self.skill) as i64 * 25;
        let mut rng = SplitMix(self.seed ^ ply_seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let best = scores[0] as i64;
        let mut choice = 0;
        let mut top = i64::MIN;
        for (i, &s) in scores.iter().enumerate() {
            // Never consider moves that lose far more than the weakness allows.
            if best - (s as i64) > 4 * weakness {
                continue;
            }
            let noise = rng.below(weakness as u64 + 1) as i64;
            let value = s as i64 + noise;
            if value > top {
                top = value;
                choice = i;
            }
        }
        choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_maps_onto_skill_monotonically() {
        let mut last = -21;
        for elo in (800..=2600).step_by(100) {
            let s = Strength::from_options(20, true, elo, 0).skill;
            assert!(s >= last);
            last = s;
        }
        assert_eq!(Strength::from_options(20, true, 800, 0).skill, -20);
        assert!(!Strength::from_options(20, true, 2600, 0).is_full());
        assert!(Strength::from_options(20, false, 800, 0).is_full());
    }
}
