//! Nets with random weights of the right format: for tests, benchmarks and checking the format against the
//! reference. The ranges keep every layer inside its useful range (the transformer's sums mostly between 0 and
//! 127, the hidden layers neither dead nor saturated) so that evaluations vary from position to position.

use super::arch::*;
use super::network::{LayerStack, Network};
use crate::board::splitmix::SplitMix;

/// Weight ranges (inclusive, symmetric unless stated). Hidden-layer weights stay within +-64 so that no four
/// products of a 16-bit partial sum can overflow (4 x 127 x 64 < 32768): such nets evaluate identically on
/// every build of the reference.
pub mod ranges {
    pub const FT_BIAS: (i32, i32) = (0, 64);
    pub const FT_WEIGHT: i32 = 12;
    pub const PSQT_WEIGHT: i32 = 1200;
    pub const L1_BIAS: (i32, i32) = (-2000, 6000);
    pub const L1_WEIGHT: i32 = 4;
    pub const L2_BIAS: (i32, i32) = (-2000, 6000);
    pub const L2_WEIGHT: i32 = 24;
    pub const L3_BIAS: i32 = 3000;
    pub const L3_WEIGHT: i32 = 32;
}

struct Dice(SplitMix);

impl Dice {
    fn between(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.0.below((hi - lo + 1) as u64) as i32
    }

    fn symmetric(&mut self, r: i32) -> i32 {
        self.between(-r, r)
    }
}

/// Hidden-layer weights over the whole i8 range: 16-bit partial sums then saturate, as they can with trained
/// nets, which checks that saturation against the reference.
pub const SATURATING_WEIGHT: i32 = 127;

/// The net of a seed: the same bytes on every machine.
pub fn random_network(seed: u64) -> Network {
    random_network_with(seed, false)
}

/// The net of a seed; with `saturating`, its hidden layers' weights span the whole i8 range.
pub fn random_network_with(seed: u64, saturating: bool) -> Network {
    use ranges::*;
    let (l1_weight, l2_weight) =
        if saturating { (SATURATING_WEIGHT, SATURATING_WEIGHT) } else { (L1_WEIGHT, L2_WEIGHT) };
    let mut d = Dice(SplitMix(seed));
    let ft_biases = (0..HALF_DIMENSIONS).map(|_| d.between(FT_BIAS.0, FT_BIAS.1) as i16).collect();
    let ft_weights = (0..HALF_DIMENSIONS * FEATURES).map(|_| d.symmetric(FT_WEIGHT) as i16).collect();
    let psqt_weights = (0..BUCKETS * FEATURES).map(|_| d.symmetric(PSQT_WEIGHT)).collect();
    let stacks = (0..BUCKETS)
        .map(|_| {
            let l1_biases = std::array::from_fn(|_| d.between(L1_BIAS.0, L1_BIAS.1));
            let l1_weights = (0..L1_OUT * TRANSFORMED_DIMENSIONS).map(|_| d.symmetric(l1_weight) as i8).collect();
            let l2_biases = std::array::from_fn(|_| d.between(L2_BIAS.0, L2_BIAS.1));
            let l2_weights = (0..L2_OUT * L2_IN_PADDED)
                .map(|i| if i % L2_IN_PADDED < L1_OUT { d.symmetric(l2_weight) as i8 } else { 0 })
                .collect();
            let l3_bias = d.symmetric(L3_BIAS);
            let l3_weights = std::array::from_fn(|_| d.symmetric(L3_WEIGHT) as i8);
            LayerStack::new(l1_biases, l1_weights, l2_biases, l2_weights, l3_bias, l3_weights)
        })
        .collect();
    let kind = if saturating { " --saturating" } else { "" };
    let description = format!("random Janggi net, seed {seed} (janggi nnue random{kind})");
    Network { description, ft_biases, ft_weights, psqt_weights, stacks }
}
