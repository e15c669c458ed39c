//! The net in f32, exactly Fairy-Stockfish's Janggi architecture plus factorised features: 10530 real and 1170
//! virtual transformer rows (a virtual row, plane * 90 + point, is shared by the nine general buckets and added
//! into each of them at export), eight layer stacks 1024 -> 16 -> 32 -> 1 with clipped ReLU on 0..1, and PSQT.
//! Forward and backward passes for one position.

use super::batch::SampleFeatures;
use super::scale::{OUTPUT_UNIT, PSQT_UNIT};
use crate::board::PieceKind;
use crate::board::splitmix::SplitMix;
use crate::eval::nnue::arch::*;
use crate::eval::params::MATERIAL;
use crate::eval::weights::WEIGHTS;

/// Virtual features: one per plane and point, whatever the general's bucket.
pub const VIRTUAL_FEATURES: usize = FEATURES_PER_BUCKET;
/// Transformer (and PSQT) rows: the real features, then the virtual ones.
pub const ROWS: usize = FEATURES + VIRTUAL_FEATURES;
pub const H: usize = HALF_DIMENSIONS;

/// Rows are stored by virtual feature: the nine general buckets' rows of one plane and point, then the virtual
/// row they share. A group is then one contiguous block, so the update of a virtual row and its nine real rows
/// is one task, and the virtual row's gradient is the sum of theirs.
pub const GROUP: usize = KING_BUCKETS + 1;

/// The stored row of a real feature.
#[inline(always)]
pub fn real_row(feature: usize) -> usize {
    feature % FEATURES_PER_BUCKET * GROUP + feature / FEATURES_PER_BUCKET
}

/// The stored row of a real feature's virtual feature.
#[inline(always)]
pub fn virtual_row(feature: usize) -> usize {
    feature % FEATURES_PER_BUCKET * GROUP + KING_BUCKETS
}

/// Offsets inside one layer stack's slice of `Model::dense`.
pub mod stack {
    use crate::eval::nnue::arch::*;
    pub const L1_W: usize = 0;
    pub const L1_B: usize = L1_W + L1_OUT * TRANSFORMED_DIMENSIONS;
    pub const L2_W: usize = L1_B + L1_OUT;
    pub const L2_B: usize = L2_W + L2_OUT * L1_OUT;
    pub const L3_W: usize = L2_B + L2_OUT;
    pub const L3_B: usize = L3_W + L3_IN;
    pub const LEN: usize = L3_B + 1;
}

/// `Model::dense` holds the transformer's biases, then the eight stacks.
pub const FT_BIAS: usize = 0;
pub const STACKS: usize = H;
pub const DENSE_LEN: usize = STACKS + BUCKETS * stack::LEN;

/// Initial ranges (uniform): small transformer rows so that accumulators start inside 0..1, hidden layers scaled
/// to their fan-in, a small output so that the net starts as the material PSQT.
pub mod init {
    pub const FT_WEIGHT: f32 = 0.05;
    pub const FT_BIAS: f32 = 0.25;
    pub const L1_WEIGHT: f32 = 0.05;
    pub const L2_WEIGHT: f32 = 0.4;
    pub const HIDDEN_BIAS: f32 = 0.3;
    pub const L3_WEIGHT: f32 = 0.02;
}

#[derive(Clone, PartialEq)]
pub struct Model {
    /// `[ROWS][512]`, rows in groups (`real_row`, `virtual_row`).
    pub ft: Vec<f32>,
    /// `[ROWS][8]`.
    pub psqt: Vec<f32>,
    /// Transformer biases and layer stacks (layout above).
    pub dense: Vec<f32>,
}

/// The intermediate values of one forward pass, kept for the backward pass.
pub struct Scratch {
    pub acc: [[f32; H]; 2],
    pub psqt: [f32; 2],
    x: [f32; TRANSFORMED_DIMENSIONS],
    z1: [f32; L1_OUT],
    h1: [f32; L1_OUT],
    z2: [f32; L2_OUT],
    h2: [f32; L2_OUT],
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            acc: [[0.0; H]; 2],
            psqt: [0.0; 2],
            x: [0.0; TRANSFORMED_DIMENSIONS],
            z1: [0.0; L1_OUT],
            h1: [0.0; L1_OUT],
            z2: [0.0; L2_OUT],
            h2: [0.0; L2_OUT],
        }
    }
}

#[inline(always)]
fn clip(v: f32) -> f32 {
    v.clamp(0.0, 1.0)
}

/// A dot product in independent lanes: a plain `sum()` adds one product after another (float addition is not
/// reassociated), which keeps the compiler from using vector instructions.
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    const LANES: usize = 16;
    let mut acc = [0.0f32; LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for l in 0..LANES {
            acc[l] += x[l] * y[l];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// Clipped ReLU's slope: 1 inside 0..1, else 0.
#[inline(always)]
fn slope(v: f32) -> f32 {
    if v > 0.0 && v < 1.0 { 1.0 } else { 0.0 }
}

/// Piece values of the classical evaluation (middlegame and endgame averaged), internal units, by kind.
fn material_value(kind: PieceKind) -> f32 {
    let s = WEIGHTS[MATERIAL + kind.index()];
    (s.0 + s.1) as f32 / 2.0
}

/// The kinds in plane order (the friendly plane of kind `i` is `2i`; the generals' plane 12 has no value).
const PLANE_KINDS: [PieceKind; 6] = [
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Horse,
    PieceKind::Elephant,
    PieceKind::Guard,
];

impl Model {
    /// A fresh net from a seed: material in the virtual PSQT rows (friend +V, enemy -V, every bucket), small
    /// random weights elsewhere.
    pub fn new(seed: u64) -> Model {
        let mut rng = SplitMix(seed);
        let mut uniform = |r: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * r - r;
        let mut ft = vec![0.0f32; ROWS * H];
        for f in 0..FEATURES {
            ft[real_row(f) * H..(real_row(f) + 1) * H].iter_mut().for_each(|w| *w = uniform(init::FT_WEIGHT));
        }
        let mut psqt = vec![0.0f32; ROWS * BUCKETS];
        for (i, kind) in PLANE_KINDS.iter().enumerate() {
            let v = material_value(*kind) / PSQT_UNIT;
            for point in 0..crate::board::square::SQUARE_COUNT {
                for (plane, sign) in [(2 * i, 1.0), (2 * i + 1, -1.0)] {
                    let row = virtual_row(plane * crate::board::square::SQUARE_COUNT + point);
                    psqt[row * BUCKETS..(row + 1) * BUCKETS].fill(sign * v);
                }
            }
        }
        let mut dense = vec![0.0f32; DENSE_LEN];
        dense[FT_BIAS..FT_BIAS + H].fill(init::FT_BIAS);
        for b in 0..BUCKETS {
            let s = &mut dense[STACKS + b * stack::LEN..STACKS + (b + 1) * stack::LEN];
            s[stack::L1_W..stack::L1_B].iter_mut().for_each(|w| *w = uniform(init::L1_WEIGHT));
            s[stack::L1_B..stack::L2_W].fill(init::HIDDEN_BIAS);
            s[stack::L2_W..stack::L2_B].iter_mut().for_each(|w| *w = uniform(init::L2_WEIGHT));
            s[stack::L2_B..stack::L3_W].fill(init::HIDDEN_BIAS);
            s[stack::L3_W..stack::L3_B].iter_mut().for_each(|w| *w = uniform(init::L3_WEIGHT));
        }
        Model { ft, psqt, dense }
    }

    fn stack(&self, bucket: usize) -> &[f32] {
        &self.dense[STACKS + bucket * stack::LEN..STACKS + (bucket + 1) * stack::LEN]
    }

    /// One perspective's accumulator and its PSQT sum for `bucket`.
    fn accumulate(&self, features: &[u16], bucket: usize, acc: &mut [f32; H]) -> f32 {
        acc.copy_from_slice(&self.dense[FT_BIAS..FT_BIAS + H]);
        let mut psqt = 0.0;
        for &f in features {
            for row in [real_row(f as usize), virtual_row(f as usize)] {
                let w = &self.ft[row * H..(row + 1) * H];
                acc.iter_mut().zip(w).for_each(|(a, w)| *a += w);
                psqt += self.psqt[row * BUCKETS + bucket];
            }
        }
        psqt
    }

    /// The evaluation for the side to move, internal units.
    pub fn forward(&self, s: &SampleFeatures<'_>, sc: &mut Scratch) -> f32 {
        sc.psqt[0] = self.accumulate(s.us, s.bucket, &mut sc.acc[0]);
        sc.psqt[1] = self.accumulate(s.them, s.bucket, &mut sc.acc[1]);
        for p in 0..2 {
            for i in 0..H {
                sc.x[p * H + i] = clip(sc.acc[p][i]);
            }
        }
        let st = self.stack(s.bucket);
        for o in 0..L1_OUT {
            let w = &st[stack::L1_W + o * TRANSFORMED_DIMENSIONS..stack::L1_W + (o + 1) * TRANSFORMED_DIMENSIONS];
            sc.z1[o] = st[stack::L1_B + o] + dot(w, &sc.x);
            sc.h1[o] = clip(sc.z1[o]);
        }
        for o in 0..L2_OUT {
            let w = &st[stack::L2_W + o * L1_OUT..stack::L2_W + (o + 1) * L1_OUT];
            sc.z2[o] = st[stack::L2_B + o] + w.iter().zip(&sc.h1).map(|(w, x)| w * x).sum::<f32>();
            sc.h2[o] = clip(sc.z2[o]);
        }
        let out = st[stack::L3_B] + st[stack::L3_W..stack::L3_B].iter().zip(&sc.h2).map(|(w, x)| w * x).sum::<f32>();
        PSQT_UNIT * (sc.psqt[0] - sc.psqt[1]) / 2.0 + OUTPUT_UNIT * out
    }

    /// Adds the gradient of `g` x (the evaluation) to `dense_grad`, and writes the gradient of the two
    /// accumulators to `dacc` (side to move's 512 first). The PSQT gradient is `±g PSQT_UNIT / 2`, left to the
    /// caller. Call after `forward` on the same scratch.
    pub fn backward(&self, s: &SampleFeatures<'_>, sc: &Scratch, g: f32, dense_grad: &mut [f32], dacc: &mut [f32]) {
        let st = self.stack(s.bucket);
        let base = STACKS + s.bucket * stack::LEN;
        let gs = &mut dense_grad[base..base + stack::LEN];
        let d_out = g * OUTPUT_UNIT;
        gs[stack::L3_B] += d_out;
        let mut dz2 = [0.0f32; L2_OUT];
        for o in 0..L2_OUT {
            gs[stack::L3_W + o] += d_out * sc.h2[o];
            dz2[o] = d_out * st[stack::L3_W + o] * slope(sc.z2[o]);
        }
        let mut dz1 = [0.0f32; L1_OUT];
        for o in 0..L2_OUT {
            if dz2[o] == 0.0 {
                continue;
            }
            gs[stack::L2_B + o] += dz2[o];
            for i in 0..L1_OUT {
                gs[stack::L2_W + o * L1_OUT + i] += dz2[o] * sc.h1[i];
                dz1[i] += dz2[o] * st[stack::L2_W + o * L1_OUT + i];
            }
        }
        let dacc = &mut dacc[..TRANSFORMED_DIMENSIONS];
        dacc.fill(0.0);
        for o in 0..L1_OUT {
            let d = dz1[o] * slope(sc.z1[o]);
            if d == 0.0 {
                continue;
            }
            gs[stack::L1_B + o] += d;
            let row = stack::L1_W + o * TRANSFORMED_DIMENSIONS;
            let gw = &mut gs[row..row + TRANSFORMED_DIMENSIONS];
            gw.iter_mut().zip(&sc.x).for_each(|(gw, x)| *gw += d * x);
            let w = &st[row..row + TRANSFORMED_DIMENSIONS];
            dacc.iter_mut().zip(w).for_each(|(da, w)| *da += d * w);
        }
        for p in 0..2 {
            for i in 0..H {
                dacc[p * H + i] *= slope(sc.acc[p][i]);
            }
        }
        let gb = &mut dense_grad[FT_BIAS..FT_BIAS + H];
        for i in 0..H {
            gb[i] += dacc[i] + dacc[H + i];
        }
    }

    /// Keeps every hidden weight where the exported integers match the float net (see `scale`).
    pub fn clip_weights(&mut self) {
        use super::scale::{HIDDEN_WEIGHT_LIMIT, OUTPUT_WEIGHT_LIMIT};
        for b in 0..BUCKETS {
            let s = &mut self.dense[STACKS + b * stack::LEN..STACKS + (b + 1) * stack::LEN];
            let hidden = |w: &mut f32| *w = w.clamp(-HIDDEN_WEIGHT_LIMIT, HIDDEN_WEIGHT_LIMIT);
            s[stack::L1_W..stack::L1_B].iter_mut().for_each(hidden);
            s[stack::L2_W..stack::L2_B].iter_mut().for_each(hidden);
            s[stack::L3_W..stack::L3_B]
                .iter_mut()
                .for_each(|w| *w = w.clamp(-OUTPUT_WEIGHT_LIMIT, OUTPUT_WEIGHT_LIMIT));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, Rules};
    use crate::train::batch::Dataset;

    /// The backward pass agrees with finite differences of the forward pass on every kind of parameter.
    #[test]
    fn backward_matches_finite_differences() {
        let pos = Position::from_fen(
            "1b1a1a1br/4k4/4cn1c1/1pp1pp3/2n6/1C1r5/PP1BP1P1P/3NC3N/4K4/R2A1AB1R b - - 10 13",
            Rules::JANGGI,
        )
        .unwrap();
        let mut data = Dataset::default();
        data.push(&pos, 0, crate::datagen::record::GameResult::Draw);
        let view = data.view(0);
        let mut model = Model::new(9);
        let mut sc = Scratch::default();
        let mut grad = vec![0.0f32; DENSE_LEN];
        let mut dacc = vec![0.0f32; TRANSFORMED_DIMENSIONS];
        model.forward(&view, &mut sc);
        model.backward(&view, &sc, 1.0, &mut grad, &mut dacc);

        let base = STACKS + view.bucket * stack::LEN;
        let probes = [
            FT_BIAS + 3,
            FT_BIAS + 300,
            base + stack::L1_W + 5,
            base + stack::L1_W + 7 * TRANSFORMED_DIMENSIONS + 600,
            base + stack::L1_B + 2,
            base + stack::L2_W + 33,
            base + stack::L2_B + 9,
            base + stack::L3_W + 4,
            base + stack::L3_B,
        ];
        let eps = 1e-3;
        for i in probes {
            let keep = model.dense[i];
            model.dense[i] = keep + eps;
            let up = model.forward(&view, &mut sc);
            model.dense[i] = keep - eps;
            let down = model.forward(&view, &mut sc);
            model.dense[i] = keep;
            let numeric = (up - down) / (2.0 * eps);
            assert!((numeric - grad[i]).abs() <= 0.02 * grad[i].abs() + 0.05, "{i}: {numeric} vs {}", grad[i]);
        }
        // A transformer weight of an active feature moves its perspective's accumulator one for one.
        let f = view.us[3] as usize;
        for (row, j) in [(real_row(f), 10), (virtual_row(f), 200)] {
            let keep = model.ft[row * H + j];
            model.ft[row * H + j] = keep + eps;
            let up = model.forward(&view, &mut sc);
            model.ft[row * H + j] = keep - eps;
            let down = model.forward(&view, &mut sc);
            model.ft[row * H + j] = keep;
            let numeric = (up - down) / (2.0 * eps);
            assert!((numeric - dacc[j]).abs() <= 0.02 * dacc[j].abs() + 0.05, "{row}: {numeric} vs {}", dacc[j]);
        }
        // PSQT: half the difference of the perspectives, in PSQT_UNIT units.
        let them = real_row(view.them[0] as usize) * BUCKETS + view.bucket;
        let keep = model.psqt[them];
        let e0 = model.forward(&view, &mut sc);
        model.psqt[them] = keep + 1.0;
        let e1 = model.forward(&view, &mut sc);
        assert!((e1 - e0 + PSQT_UNIT / 2.0).abs() < 0.01, "{e0} {e1}");
    }

    /// The starting net is the material balance of the classical evaluation's piece values.
    #[test]
    fn a_fresh_model_starts_near_material() {
        let even = Position::startpos(Rules::JANGGI);
        let up_a_chariot = Position::from_fen(
            "1nba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            Rules::JANGGI,
        )
        .unwrap();
        let model = Model::new(1);
        let mut sc = Scratch::default();
        let mut eval = |pos: &Position| {
            let mut data = Dataset::default();
            data.push(pos, 0, crate::datagen::record::GameResult::Draw);
            model.forward(&data.view(0), &mut sc)
        };
        let (e, c) = (eval(&even), eval(&up_a_chariot));
        let chariot = material_value(PieceKind::Chariot);
        assert!((c - e - chariot).abs() < 0.2 * chariot, "even {e}, a chariot up {c}, chariot {chariot}");
    }
}
