//! The kernels in WebAssembly SIMD (`simd128`, 128-bit registers). WebAssembly has no `maddubs` (bytes times
//! signed bytes, adjacent products summed with saturation): inputs and weights are widened to 16 bits and
//! `i32x4_dot_i16x8` sums adjacent products exactly. That is the same number, because the inputs are clipped to
//! 0..=127, so two products (at most 2 x 127 x 128) never leave 16 bits; the narrowing back to 16 bits is exact too.
//! The saturating additions of pairs that follow are the reference's, lane for lane.

use super::{HALF_DIMENSIONS, Row, TRANSFORMED_DIMENSIONS, affine_scalar};
use core::arch::wasm32::*;

/// Registers of 8 lanes held while every row passes over one stretch of the accumulator.
const UPDATE_REGS: usize = 8;
const UPDATE_TILE: usize = UPDATE_REGS * 8;

/// `dst = src + sum(added) - sum(removed)` over `HALF_DIMENSIONS` lanes, with 16-bit wrap-around.
///
/// # Safety
/// `src` is valid for reading and `dst` for writing `HALF_DIMENSIONS` lanes; they may be the same array (each
/// stretch is read in full before it is written) but must not overlap otherwise.
pub(super) unsafe fn update(dst: *mut i16, src: *const i16, added: &[&Row], removed: &[&Row]) {
    for tile in (0..HALF_DIMENSIONS).step_by(UPDATE_TILE) {
        let mut acc = [i16x8_splat(0); UPDATE_REGS];
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: tile + 8 k + 8 <= HALF_DIMENSIONS lanes of `src` (caller's contract); unaligned load.
            *a = unsafe { v128_load(src.add(tile + 8 * k) as *const v128) };
        }
        for row in removed {
            for (k, a) in acc.iter_mut().enumerate() {
                // SAFETY: a row is an array of HALF_DIMENSIONS lanes; tile + 8 k + 8 <= HALF_DIMENSIONS.
                *a = i16x8_sub(*a, unsafe { v128_load(row.as_ptr().add(tile + 8 * k) as *const v128) });
            }
        }
        for row in added {
            for (k, a) in acc.iter_mut().enumerate() {
                // SAFETY: as above.
                *a = i16x8_add(*a, unsafe { v128_load(row.as_ptr().add(tile + 8 * k) as *const v128) });
            }
        }
        for (k, a) in acc.iter().enumerate() {
            // SAFETY: tile + 8 k + 8 <= HALF_DIMENSIONS lanes of `dst`; this stretch of `src` was read above.
            unsafe { v128_store(dst.add(tile + 8 * k) as *mut v128, *a) };
        }
    }
}

/// Clipping by packing: the signed saturating narrow gives -128..=127, and a byte maximum with zero 0..=127.
pub(super) fn clip(us: &[i16; HALF_DIMENSIONS], them: &[i16; HALF_DIMENSIONS], out: &mut [u8; TRANSFORMED_DIMENSIONS]) {
    let zero = i8x16_splat(0);
    for (half, values) in [us, them].into_iter().enumerate() {
        for i in (0..HALF_DIMENSIONS).step_by(16) {
            // SAFETY: i + 16 <= HALF_DIMENSIONS lanes of `values` and half * HALF_DIMENSIONS + i + 16 <=
            // TRANSFORMED_DIMENSIONS bytes of `out`; WebAssembly loads and stores need no alignment.
            unsafe {
                let a = v128_load(values.as_ptr().add(i) as *const v128);
                let b = v128_load(values.as_ptr().add(i + 8) as *const v128);
                let bytes = i8x16_max(i8x16_narrow_i16x8(a, b), zero);
                v128_store(out.as_mut_ptr().add(half * HALF_DIMENSIONS + i) as *mut v128, bytes);
            }
        }
    }
}

/// A hidden layer, four outputs to a register (see `Kernel::affine` for the layout and the saturation).
pub(super) fn affine(input: &[u8], grouped: &[i8], biases: &[i32], out: &mut [i32]) {
    let outputs = out.len();
    assert!(input.len().is_multiple_of(16) && outputs.is_multiple_of(4));
    assert!(biases.len() == outputs && grouped.len() == input.len() * outputs);
    match outputs / 4 {
        1 => affine_body::<1>(input, grouped, biases, out),
        2 => affine_body::<2>(input, grouped, biases, out),
        4 => affine_body::<4>(input, grouped, biases, out),
        8 => affine_body::<8>(input, grouped, biases, out),
        _ => affine_scalar(input, grouped, biases, out),
    }
}

/// The products of one group of four inputs (`x`: their bytes widened, twice over) with the 16 weight bytes of
/// four outputs: per output, the sums of products 0+1 and 2+3 in 16 bits, in `maddubs` order.
#[inline(always)]
fn pairs(x: v128, w: v128) -> v128 {
    let low = i32x4_dot_i16x8(x, i16x8_extend_low_i8x16(w));
    let high = i32x4_dot_i16x8(x, i16x8_extend_high_i8x16(w));
    i16x8_narrow_i32x4(low, high)
}

/// The layer with `REGS` registers of outputs; `affine` checked every length.
#[inline(always)]
fn affine_body<const REGS: usize>(input: &[u8], grouped: &[i8], biases: &[i32], out: &mut [i32]) {
    let outputs = REGS * 4;
    assert!(out.len() == outputs && biases.len() == outputs && grouped.len() == input.len() * outputs);
    let block_bytes = 16 * outputs;
    let mut acc = [i32x4_splat(0); REGS];
    for block in 0..input.len() / 16 {
        // SAFETY: 16 block + 16 <= input.len().
        let bytes = unsafe { v128_load(input.as_ptr().add(16 * block) as *const v128) };
        // Zero inputs add nothing (no saturation either): groups 0+1 (the first 8 bytes) and 2+3 (the last 8)
        // are skipped when all their inputs are zero, which keeps the numbers exact and saves most of the work on
        // the sparse output of the transformer.
        let (first, second) = (i64x2_extract_lane::<0>(bytes) != 0, i64x2_extract_lane::<1>(bytes) != 0);
        if !first && !second {
            continue;
        }
        // Inputs 4k..4k+3, widened to 16 bits and repeated for two outputs.
        let x = |k: usize| {
            // SAFETY: 16 block + 4 k + 4 <= 16 block + 16 <= input.len(); the read is unaligned.
            let word = unsafe { (input.as_ptr().add(16 * block + 4 * k) as *const u32).read_unaligned() };
            u16x8_extend_low_u8x16(u32x4_splat(word))
        };
        let (x0, x1, x2, x3) = (x(0), x(1), x(2), x(3));
        // SAFETY: this block's weights are the `block_bytes` from `block * block_bytes`, inside `grouped`.
        let weights = unsafe { grouped.as_ptr().add(block * block_bytes) };
        for (j, a) in acc.iter_mut().enumerate() {
            // SAFETY: group k's register j starts at (k outputs + 4 j) * 4 and ends at most at block_bytes.
            let col = |k: usize| unsafe { v128_load(weights.add((k * outputs + 4 * j) * 4) as *const v128) };
            if first {
                let s01 = i16x8_add_sat(pairs(x0, col(0)), pairs(x1, col(1)));
                *a = i32x4_add(*a, i32x4_extadd_pairwise_i16x8(s01));
            }
            if second {
                let s23 = i16x8_add_sat(pairs(x2, col(2)), pairs(x3, col(3)));
                *a = i32x4_add(*a, i32x4_extadd_pairwise_i16x8(s23));
            }
        }
    }
    for (j, a) in acc.iter().enumerate() {
        let lanes = [
            i32x4_extract_lane::<0>(*a),
            i32x4_extract_lane::<1>(*a),
            i32x4_extract_lane::<2>(*a),
            i32x4_extract_lane::<3>(*a),
        ];
        for (k, lane) in lanes.iter().enumerate() {
            out[j * 4 + k] = biases[j * 4 + k].wrapping_add(*lane);
        }
    }
}
