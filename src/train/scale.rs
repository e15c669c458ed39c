//! How the trainer's float parameters map onto the integers of the net file (`docs/nnue-format.md`), so that
//! export is a plain scaling and rounding, and the constants that keep the float parameters near 1 for Adam.
//!
//! - Transformer: the file's accumulator is `127 x` the float accumulator, so a weight or bias is `round(127 w)`
//!   (i16); the float clipped ReLU on 0..1 is the file's clip on 0..127.
//! - Hidden layers: the file computes `(b + sum w x) >> 6` on inputs 0..127, which is `127 x` the float
//!   `b + sum w x` when `w_int = round(64 w)` and `b_int = round(64 * 127 b)`.
//! - Output layer: the float output is `OUTPUT_UNIT x (b + sum w x)` internal units; the file's
//!   `positional / 16` is the same when `w_int = round(16 OUTPUT_UNIT w / 127)` = `round(64 w)` and
//!   `b_int = round(16 OUTPUT_UNIT b)`.
//! - PSQT: the float PSQT value of a feature is `PSQT_UNIT x p` internal units and the file's values are 16 per
//!   internal unit, so `w_int = round(16 PSQT_UNIT p)` (i32); both halve the difference of the perspectives.

use crate::eval::nnue::arch::{CLIP_MAX, OUTPUT_SCALE, WEIGHT_SCALE_BITS};

/// The transformer's integer units per float unit (the clipped ReLU's ceiling).
pub const FT_SCALE: f32 = CLIP_MAX as f32;
/// A hidden layer's integer weight per float weight.
pub const WEIGHT_SCALE: f32 = (1 << WEIGHT_SCALE_BITS) as f32;
/// A hidden layer's integer bias per float bias: weight scale times the input scale.
pub const BIAS_SCALE: f32 = WEIGHT_SCALE * FT_SCALE;
/// Internal units per unit of the output layer's float sum, chosen so that an output weight quantises by the
/// hidden layers' factor 64 (16 x 508 / 127 = 64).
pub const OUTPUT_UNIT: f32 = WEIGHT_SCALE * FT_SCALE / OUTPUT_SCALE as f32;
/// Internal units per float PSQT parameter: material values (hundreds of units) stay near 1, where Adam's steps
/// of about the learning rate are a sensible size.
pub const PSQT_UNIT: f32 = 100.0;
/// The file's PSQT integers per float PSQT parameter.
pub const PSQT_SCALE: f32 = OUTPUT_SCALE as f32 * PSQT_UNIT;
/// The file's output integers per float output bias.
pub const OUTPUT_BIAS_SCALE: f32 = OUTPUT_SCALE as f32 * OUTPUT_UNIT;

/// Hidden-layer weights stay within +-64/64: then no pair of 16-bit partial sums of the reference's SIMD builds
/// can saturate (4 x 127 x 64 < 32768), so every build evaluates the exported net alike.
pub const HIDDEN_WEIGHT_LIMIT: f32 = 1.0;
/// The output layer's weights stay inside i8 once scaled.
pub const OUTPUT_WEIGHT_LIMIT: f32 = i8::MAX as f32 / WEIGHT_SCALE;

/// Centipawns per internal unit (`PawnValueEg` = 208 internal units is 100 cp).
pub const CP_PER_INTERNAL: f32 = 100.0 / crate::eval::nnue::arch::PAWN_VALUE_EG as f32;

/// Rounds and saturates into an integer type's range.
pub fn quantise_i8(v: f32, scale: f32) -> i8 {
    (v * scale).round().clamp(i8::MIN as f32, i8::MAX as f32) as i8
}

pub fn quantise_i16(v: f32, scale: f32) -> i16 {
    (v * scale).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

pub fn quantise_i32(v: f32, scale: f32) -> i32 {
    // f32 cannot hold i32::MAX exactly; the clamp stays inside the representable range.
    (v * scale).round().clamp(-2_147_483_520.0, 2_147_483_520.0) as i32
}
