//! From accumulators to a score: the transformer's clipped output, one layer stack chosen by the number of
//! pieces, and the reference's integer scaling.

use super::accumulator::Accumulator;
use super::arch::*;
use super::features::stack_index;
use super::kernels::{Kernel, clipped_relu, output_layer};
use super::network::Network;
use crate::board::{Color, Piece, Position, Square};

/// The two parts of a net's output for one bucket, in the net's own units (16 per internal unit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawOutput {
    /// The PSQT part: half the difference of the side to move's and the other side's PSQT sums.
    pub psqt: i32,
    /// The layer stack's output.
    pub positional: i32,
}

impl RawOutput {
    /// The evaluation for the side to move in internal units (`PawnValueEg` = 208 per soldier-ish pawn):
    /// the reference's unadjusted `NNUE::evaluate`, (psqt + positional) / 16 rounded toward zero.
    pub fn value(self) -> i32 {
        self.psqt.wrapping_add(self.positional) / OUTPUT_SCALE
    }
}

/// Evaluates bucket `bucket` of the net on the accumulators, for `side` to move.
pub fn propagate(net: &Network, kernel: Kernel, acc: &Accumulator, side: Color, bucket: usize) -> RawOutput {
    let (us, them) = (side.index(), (!side).index());
    let psqt = acc.psqt[us][bucket].wrapping_sub(acc.psqt[them][bucket]) / 2;

    let mut transformed = [0u8; TRANSFORMED_DIMENSIONS];
    kernel.clip_halves(&acc.values[us], &acc.values[them], &mut transformed);

    let stack = &net.stacks[bucket];
    let mut l1 = [0i32; L1_OUT];
    kernel.affine(&transformed, &stack.l1_grouped, &stack.l1_biases, &mut l1);
    let mut l1_out = [0u8; L1_OUT];
    clipped_relu(&l1, &mut l1_out);

    let mut l2 = [0i32; L2_OUT];
    kernel.affine(&l1_out, &stack.l2_grouped, &stack.l2_biases, &mut l2);
    let mut l2_out = [0u8; L3_IN];
    clipped_relu(&l2, &mut l2_out);

    let positional = output_layer(&l2_out, &stack.l3_weights, stack.l3_bias);
    RawOutput { psqt, positional }
}

/// The net's evaluation of a position for the side to move, in internal units, with the bucket its piece count
/// selects.
pub fn evaluate(net: &Network, kernel: Kernel, acc: &Accumulator, pos: &Position) -> i32 {
    output(net, kernel, acc, pos).value()
}

/// The net's two parts for a position, for the side to move, with the bucket its piece count selects.
pub fn output(net: &Network, kernel: Kernel, acc: &Accumulator, pos: &Position) -> RawOutput {
    let bucket = stack_index(pos.occupied().count() as usize);
    propagate(net, kernel, acc, pos.side_to_move(), bucket)
}

/// Every bucket's contribution, as the reference's `eval` table shows them (each part divided by 16 separately,
/// in internal units, for the side to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BucketTrace {
    pub psqt: [i32; BUCKETS],
    pub positional: [i32; BUCKETS],
    /// The bucket the piece count selects.
    pub used: usize,
}

pub fn trace_buckets(net: &Network, kernel: Kernel, acc: &Accumulator, side: Color, pieces: usize) -> BucketTrace {
    let mut t = BucketTrace { psqt: [0; BUCKETS], positional: [0; BUCKETS], used: stack_index(pieces) };
    for b in 0..BUCKETS {
        let out = propagate(net, kernel, acc, side, b);
        t.psqt[b] = out.psqt / OUTPUT_SCALE;
        t.positional[b] = out.positional / OUTPUT_SCALE;
    }
    t
}

/// The evaluation, from Cho's side, of the pieces given, with `side` to move.
pub fn evaluate_pieces_white(net: &Network, kernel: Kernel, pieces: &[(Piece, Square)], side: Color) -> i32 {
    let acc = Accumulator::from_pieces(net, kernel, pieces);
    let v = propagate(net, kernel, &acc, side, stack_index(pieces.len())).value();
    if side == Color::Cho { v } else { -v }
}
