//! From the float model to a net file: virtual rows folded into every bucket's rows, each value scaled and
//! rounded into its integer type (`scale`), and the check of the result through the real reader and evaluator.

use super::batch::Dataset;
use super::model::{DENSE_LEN, FT_BIAS, H, Model, ROWS, STACKS, Scratch, real_row, stack, virtual_row};
use super::scale::*;
use crate::board::Position;
use crate::eval::nnue::arch::*;
use crate::eval::nnue::network::LayerStack;
use crate::eval::nnue::{Accumulator, Kernel, Network, evaluate};
use std::path::Path;

/// The quantised net.
pub fn quantise(model: &Model, description: String) -> Network {
    let ft_biases = model.dense[FT_BIAS..FT_BIAS + H].iter().map(|&b| quantise_i16(b, FT_SCALE)).collect();
    let mut ft_weights = Vec::with_capacity(FEATURES * H);
    let mut psqt_weights = Vec::with_capacity(FEATURES * BUCKETS);
    for f in 0..FEATURES {
        let (real, virt) = (real_row(f), virtual_row(f));
        for i in 0..H {
            ft_weights.push(quantise_i16(model.ft[real * H + i] + model.ft[virt * H + i], FT_SCALE));
        }
        for b in 0..BUCKETS {
            let v = model.psqt[real * BUCKETS + b] + model.psqt[virt * BUCKETS + b];
            psqt_weights.push(quantise_i32(v, PSQT_SCALE));
        }
    }
    let stacks = (0..BUCKETS)
        .map(|b| {
            let s = &model.dense[STACKS + b * stack::LEN..STACKS + (b + 1) * stack::LEN];
            let l1_weights = s[stack::L1_W..stack::L1_B].iter().map(|&w| quantise_i8(w, WEIGHT_SCALE)).collect();
            let l1_biases = std::array::from_fn(|o| quantise_i32(s[stack::L1_B + o], BIAS_SCALE));
            let mut l2_weights = vec![0i8; L2_OUT * L2_IN_PADDED];
            for o in 0..L2_OUT {
                for i in 0..L1_OUT {
                    l2_weights[o * L2_IN_PADDED + i] = quantise_i8(s[stack::L2_W + o * L1_OUT + i], WEIGHT_SCALE);
                }
            }
            let l2_biases = std::array::from_fn(|o| quantise_i32(s[stack::L2_B + o], BIAS_SCALE));
            let l3_weights = std::array::from_fn(|i| quantise_i8(s[stack::L3_W + i], WEIGHT_SCALE));
            let l3_bias = quantise_i32(s[stack::L3_B], OUTPUT_BIAS_SCALE);
            LayerStack::new(l1_biases, l1_weights, l2_biases, l2_weights, l3_bias, l3_weights)
        })
        .collect();
    Network { description, ft_biases, ft_weights, psqt_weights, stacks }
}

/// The float model of a net: every integer divided by the scale `quantise` multiplies it by, the virtual rows
/// zero (the net's rows already hold them). `quantise` gives the net back exactly, so a run started from it
/// (`janggi train --init`) continues that net rather than a fresh one.
pub fn dequantise(net: &Network) -> Model {
    // Every value is set below or stays zero (the virtual rows): no random start to throw away.
    let mut model = Model { ft: vec![0.0; ROWS * H], psqt: vec![0.0; ROWS * BUCKETS], dense: vec![0.0; DENSE_LEN] };
    for f in 0..FEATURES {
        let real = real_row(f);
        for i in 0..H {
            model.ft[real * H + i] = f32::from(net.ft_weights[f * H + i]) / FT_SCALE;
        }
        for b in 0..BUCKETS {
            model.psqt[real * BUCKETS + b] = net.psqt_weights[f * BUCKETS + b] as f32 / PSQT_SCALE;
        }
    }
    for (i, &b) in net.ft_biases.iter().enumerate() {
        model.dense[FT_BIAS + i] = f32::from(b) / FT_SCALE;
    }
    for (b, layers) in net.stacks.iter().enumerate() {
        let s = &mut model.dense[STACKS + b * stack::LEN..STACKS + (b + 1) * stack::LEN];
        for (w, &q) in s[stack::L1_W..stack::L1_B].iter_mut().zip(&layers.l1_weights) {
            *w = f32::from(q) / WEIGHT_SCALE;
        }
        for o in 0..L1_OUT {
            s[stack::L1_B + o] = layers.l1_biases[o] as f32 / BIAS_SCALE;
        }
        for o in 0..L2_OUT {
            for i in 0..L1_OUT {
                s[stack::L2_W + o * L1_OUT + i] = f32::from(layers.l2_weights[o * L2_IN_PADDED + i]) / WEIGHT_SCALE;
            }
            s[stack::L2_B + o] = layers.l2_biases[o] as f32 / BIAS_SCALE;
        }
        for i in 0..L3_IN {
            s[stack::L3_W + i] = f32::from(layers.l3_weights[i]) / WEIGHT_SCALE;
        }
        s[stack::L3_B] = layers.l3_bias as f32 / OUTPUT_BIAS_SCALE;
    }
    model
}

/// Writes the quantised net to `path`, reads it back with the engine's reader and returns the mean absolute
/// difference, in centipawns, between the float model and the engine's evaluator on `positions` (the first of
/// `data`, which holds the same positions in the same order).
pub fn write_and_check(
    model: &Model,
    description: String,
    path: &Path,
    positions: &[Position],
    data: &Dataset,
) -> Result<f64, String> {
    let net = quantise(model, description);
    std::fs::write(path, net.to_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let net = Network::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(mean_abs_difference(model, &net, positions, data))
}

/// Mean |float - quantised| evaluation in centipawns (0 for no positions).
pub fn mean_abs_difference(model: &Model, net: &Network, positions: &[Position], data: &Dataset) -> f64 {
    let kernel = Kernel::detect();
    let mut scratch = Scratch::default();
    let mut total = 0.0f64;
    for (i, pos) in positions.iter().enumerate() {
        let float = model.forward(&data.view(i), &mut scratch) * CP_PER_INTERNAL;
        let acc = Accumulator::refresh(net, kernel, pos);
        let int = evaluate(net, kernel, &acc, pos) as f32 * CP_PER_INTERNAL;
        total += f64::from((float - int).abs());
    }
    if positions.is_empty() { 0.0 } else { total / positions.len() as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dequantised_net_quantises_back_to_itself() {
        for net in
            [crate::eval::nnue::default_net::default_network().as_ref().clone(), crate::eval::nnue::random_network(5)]
        {
            let back = quantise(&dequantise(&net), net.description.clone());
            assert!(back == net, "the round trip changed the net");
        }
    }
}
