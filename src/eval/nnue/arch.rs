//! The shape of a Fairy-Stockfish Janggi net and the hash values its file carries (see `docs/nnue-format.md`).
//! Every number here is a fact of the file format; changing one makes the reader refuse the nets that exist.

use crate::board::square::SQUARE_COUNT;

/// The first word of every file.
pub const VERSION: u32 = 0x7AF3_2F20;

/// Width of the feature transformer's output for one perspective.
pub const HALF_DIMENSIONS: usize = 512;
/// Both perspectives side by side: the first hidden layer's input.
pub const TRANSFORMED_DIMENSIONS: usize = 2 * HALF_DIMENSIONS;
/// Material (PSQT) buckets of the feature transformer; also the number of layer stacks.
pub const BUCKETS: usize = 8;
/// Outputs of the first and second hidden layers.
pub const L1_OUT: usize = 16;
pub const L2_OUT: usize = 32;
/// The second layer's input padded to the 32-byte SIMD width, as stored in the file.
pub const L2_IN_PADDED: usize = 32;
/// The output layer's input (already a multiple of 32).
pub const L3_IN: usize = L2_OUT;

/// Piece-square planes per general bucket: six kinds times two colours, plus one plane shared by both generals.
pub const PLANES: usize = 13;
/// Buckets of the own general: the nine points of a palace.
pub const KING_BUCKETS: usize = 9;
/// Features per general bucket.
pub const FEATURES_PER_BUCKET: usize = PLANES * SQUARE_COUNT;
/// Input features of the Janggi net: 9 x 13 x 90 = 10530.
pub const FEATURES: usize = KING_BUCKETS * FEATURES_PER_BUCKET;

/// Pieces in the start position: the divisor of the layer-stack choice.
pub const MAX_PIECES: usize = 32;

/// The transformer's accumulators hold sums scaled by 1; the hidden layers' sums are scaled by 2^6.
pub const WEIGHT_SCALE_BITS: u32 = 6;
/// The output is scaled by 16 relative to the engine's internal units.
pub const OUTPUT_SCALE: i32 = 16;
/// Clipped ReLU's ceiling.
pub const CLIP_MAX: i32 = 127;
/// Internal units of one pawn in the printed tables (`PawnValueEg`).
pub const PAWN_VALUE_EG: i32 = 208;

/// Hash of the feature set `HalfKAv2(Friend)`.
const FEATURE_SET_HASH: u32 = 0x5F23_4CB8;
const INPUT_SLICE_HASH: u32 = 0xEC42_E90D;
const AFFINE_HASH: u32 = 0xCC03_DAE4;
const CLIPPED_RELU_HASH: u32 = 0x538D_24C7;

/// Hash written before the feature transformer's parameters.
pub const fn transformer_hash() -> u32 {
    FEATURE_SET_HASH ^ TRANSFORMED_DIMENSIONS as u32
}

const fn affine_hash(previous: u32, outputs: u32) -> u32 {
    AFFINE_HASH.wrapping_add(outputs) ^ (previous >> 1) ^ (previous << 31)
}

const fn clipped_relu_hash(previous: u32) -> u32 {
    CLIPPED_RELU_HASH.wrapping_add(previous)
}

/// Hash written before each of the eight layer stacks: input slice, affine 16, clipped ReLU, affine 32, clipped
/// ReLU, affine 1, each folding in the one before it.
pub const fn stack_hash() -> u32 {
    let input = INPUT_SLICE_HASH ^ TRANSFORMED_DIMENSIONS as u32;
    let l1 = clipped_relu_hash(affine_hash(input, L1_OUT as u32));
    let l2 = clipped_relu_hash(affine_hash(l1, L2_OUT as u32));
    affine_hash(l2, 1)
}

/// Hash of the whole architecture, in the file header.
pub const fn network_hash() -> u32 {
    transformer_hash() ^ stack_hash()
}

/// Bytes of the feature transformer's parameters: i16 biases, i16 weights, i32 PSQT weights.
pub const TRANSFORMER_BYTES: usize = 2 * HALF_DIMENSIONS + 2 * HALF_DIMENSIONS * FEATURES + 4 * BUCKETS * FEATURES;
/// Bytes of one layer stack's parameters: i32 biases and i8 weights of three layers.
pub const STACK_BYTES: usize =
    4 * L1_OUT + L1_OUT * TRANSFORMED_DIMENSIONS + 4 * L2_OUT + L2_OUT * L2_IN_PADDED + 4 + L3_IN;
