//! The arithmetic of a net, once in plain Rust and again with x86-64 SIMD instructions chosen at run time (and,
//! in a WebAssembly build with `simd128`, with WebAssembly's SIMD: `simd128.rs`). Every path computes exactly the
//! same integers: the plain one spells out the 16-bit saturation that the reference's
//! SIMD builds apply to partial sums of the hidden layers, so all paths agree with those builds bit for bit.

use super::arch::*;

/// One feature's row of transformer weights.
pub type Row = [i16; HALF_DIMENSIONS];

/// The instruction set an evaluation runs on. A value other than `scalar()` exists only when the processor was
/// found (at run time) to support its instructions: the field is private and only `detect`/`available` build it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Isa);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Isa {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Sse41,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

impl Kernel {
    /// Plain Rust, on every processor.
    pub const fn scalar() -> Kernel {
        Kernel(Isa::Scalar)
    }

    /// Every kernel this processor runs, the plain one first and the fastest last.
    pub fn available() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut out = vec![Kernel(Isa::Scalar)];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("sse4.1") {
                out.push(Kernel(Isa::Sse41));
            }
            if std::is_x86_feature_detected!("avx2") {
                out.push(Kernel(Isa::Avx2));
            }
        }
        // WebAssembly has no run-time detection: a module built with `simd128` only loads where it is supported.
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        out.push(Kernel(Isa::Simd128));
        out
    }

    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        *Kernel::available().last().expect("the scalar kernel is always there")
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Isa::Sse41 => "sse4.1",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => "avx2",
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128 => "simd128",
        }
    }

    /// `dst = src + sum(added) - sum(removed)`, lane by lane with 16-bit wrap-around (as the reference adds).
    #[inline]
    pub fn update(
        self,
        dst: &mut [i16; HALF_DIMENSIONS],
        src: &[i16; HALF_DIMENSIONS],
        added: &[&Row],
        removed: &[&Row],
    ) {
        match self.0 {
            Isa::Scalar => update_body(dst, src, added, removed),
            // SAFETY: a Kernel with this instruction set is built only after `is_x86_feature_detected!` found
            // the feature (see `available`), so the target-feature function runs on a processor that has it.
            #[cfg(target_arch = "x86_64")]
            Isa::Sse41 => unsafe { x86::update_sse41(dst, src, added, removed) },
            // SAFETY: as above, for AVX2. `dst` and `src` are distinct arrays (a `&mut` and a `&` cannot alias).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { x86::update_avx2(dst.as_mut_ptr(), src.as_ptr(), added, removed) },
            // SAFETY: the module was built with simd128; `dst` and `src` are distinct arrays.
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128 => unsafe { simd128::update(dst.as_mut_ptr(), src.as_ptr(), added, removed) },
        }
    }

    /// `acc += sum(added) - sum(removed)` in place, as `update` computes it.
    #[inline]
    pub fn update_in_place(self, acc: &mut [i16; HALF_DIMENSIONS], added: &[&Row], removed: &[&Row]) {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the feature was detected before this Kernel was built (see `available`); the kernel reads
            // each lane of `acc` before it writes that lane, so source and destination may be the same array.
            Isa::Avx2 => unsafe { x86::update_avx2(acc.as_mut_ptr(), acc.as_ptr(), added, removed) },
            // SAFETY: as above; each stretch of `acc` is read in full before it is written.
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128 => unsafe { simd128::update(acc.as_mut_ptr(), acc.as_ptr(), added, removed) },
            _ => {
                let src = *acc;
                self.update(acc, &src, added, removed)
            }
        }
    }

    /// The transformer's output for the first hidden layer: the side to move's half, then the other's, each
    /// clipped to 0..=127.
    #[inline]
    pub fn clip_halves(
        self,
        us: &[i16; HALF_DIMENSIONS],
        them: &[i16; HALF_DIMENSIONS],
        out: &mut [u8; TRANSFORMED_DIMENSIONS],
    ) {
        match self.0 {
            Isa::Scalar => clip_body(us, them, out),
            // SAFETY: the feature was detected before this Kernel was built (see `available`).
            #[cfg(target_arch = "x86_64")]
            Isa::Sse41 => unsafe { x86::clip_sse41(us, them, out) },
            // SAFETY: the feature was detected before this Kernel was built (see `available`).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { x86::clip_avx2(us, them, out) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128 => simd128::clip(us, them, out),
        }
    }

    /// A hidden layer on `inputs` bytes (a multiple of 16) with weights grouped by four inputs
    /// (`[input / 4][output][input % 4]`): `out = biases + weights . input`, with the reference's saturation.
    #[inline]
    pub fn affine(self, input: &[u8], grouped: &[i8], biases: &[i32], out: &mut [i32]) {
        debug_assert!(input.len().is_multiple_of(16) && grouped.len() == input.len() * out.len());
        debug_assert!(biases.len() == out.len() && out.len().is_multiple_of(8));
        match self.0 {
            Isa::Scalar => affine_scalar(input, grouped, biases, out),
            // SAFETY: the feature was detected before this Kernel was built; the function checks the lengths
            // it indexes with (asserts above are repeated there as hard asserts).
            #[cfg(target_arch = "x86_64")]
            Isa::Sse41 => unsafe { x86::affine_sse41(input, grouped, biases, out) },
            // SAFETY: as above, for AVX2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { x86::affine_avx2(input, grouped, biases, out) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128 => simd128::affine(input, grouped, biases, out),
        }
    }
}

#[inline(always)]
fn update_body(dst: &mut [i16; HALF_DIMENSIONS], src: &[i16; HALF_DIMENSIONS], added: &[&Row], removed: &[&Row]) {
    *dst = *src;
    for row in removed {
        for (a, w) in dst.iter_mut().zip(row.iter()) {
            *a = a.wrapping_sub(*w);
        }
    }
    for row in added {
        for (a, w) in dst.iter_mut().zip(row.iter()) {
            *a = a.wrapping_add(*w);
        }
    }
}

#[inline(always)]
fn clip_body(us: &[i16; HALF_DIMENSIONS], them: &[i16; HALF_DIMENSIONS], out: &mut [u8; TRANSFORMED_DIMENSIONS]) {
    let (first, second) = out.split_at_mut(HALF_DIMENSIONS);
    for (o, v) in first.iter_mut().zip(us) {
        *o = (*v).clamp(0, CLIP_MAX as i16) as u8;
    }
    for (o, v) in second.iter_mut().zip(them) {
        *o = (*v).clamp(0, CLIP_MAX as i16) as u8;
    }
}

#[inline(always)]
fn saturate_i16(v: i32) -> i32 {
    v.clamp(i16::MIN as i32, i16::MAX as i32)
}

/// The plain hidden layer. Per output and per block of 16 inputs the reference sums products in pairs
/// (inputs 0+1, 2+3, …), adds pair k to pair k+2 with 16-bit saturation (0+1 with 4+5, 2+3 with 6+7, 8+9 with
/// 12+13, 10+11 with 14+15), and then adds those four sums exactly. A block of zero inputs adds nothing.
fn affine_scalar(input: &[u8], grouped: &[i8], biases: &[i32], out: &mut [i32]) {
    let outputs = out.len();
    out.copy_from_slice(biases);
    for (block, bytes) in input.chunks_exact(16).enumerate() {
        if bytes.iter().all(|&b| b == 0) {
            continue;
        }
        let x: [i32; 16] = std::array::from_fn(|i| bytes[i] as i32);
        let weights = &grouped[block * 16 * outputs..(block + 1) * 16 * outputs];
        for (o, acc) in out.iter_mut().enumerate() {
            // The four weights of inputs 4k..4k+3 for this output.
            let w: [&[i8]; 4] = std::array::from_fn(|k| &weights[(k * outputs + o) * 4..(k * outputs + o) * 4 + 4]);
            let pair = |k: usize, j: usize| {
                saturate_i16(x[4 * k + j] * w[k][j] as i32 + x[4 * k + j + 1] * w[k][j + 1] as i32)
            };
            let sum = saturate_i16(pair(0, 0) + pair(1, 0))
                + saturate_i16(pair(0, 2) + pair(1, 2))
                + saturate_i16(pair(2, 0) + pair(3, 0))
                + saturate_i16(pair(2, 2) + pair(3, 2));
            *acc = acc.wrapping_add(sum);
        }
    }
}

/// The output layer: an exact dot product (the reference never saturates here).
#[inline]
pub fn output_layer(input: &[u8; L3_IN], weights: &[i8; L3_IN], bias: i32) -> i32 {
    input.iter().zip(weights).fold(bias, |acc, (&i, &w)| acc.wrapping_add(i as i32 * w as i32))
}

/// Clipped ReLU after a hidden layer: the sum scaled down by 2^6, clipped to 0..=127.
#[inline]
pub fn clipped_relu(input: &[i32], out: &mut [u8]) {
    for (o, &v) in out.iter_mut().zip(input) {
        *o = (v >> WEIGHT_SCALE_BITS).clamp(0, CLIP_MAX) as u8;
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use std::arch::x86_64::*;

    /// Registers of 16 lanes held while every row passes over one stretch of the accumulator: the rows are read
    /// once and the sums never leave the registers until the stretch is done (one pass, not one per row).
    const UPDATE_REGS: usize = 8;
    const UPDATE_TILE: usize = UPDATE_REGS * 16;

    /// `dst = src + sum(added) - sum(removed)` over `HALF_DIMENSIONS` lanes.
    ///
    /// # Safety
    /// The processor has AVX2; `src` is valid for reading and `dst` for writing `HALF_DIMENSIONS` lanes. They may
    /// be the same array (each stretch is read in full before it is written) but must not overlap otherwise.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update_avx2(dst: *mut i16, src: *const i16, added: &[&Row], removed: &[&Row]) {
        for tile in (0..HALF_DIMENSIONS).step_by(UPDATE_TILE) {
            let mut acc = [_mm256_setzero_si256(); UPDATE_REGS];
            for (k, a) in acc.iter_mut().enumerate() {
                // SAFETY: tile + 16 k + 16 <= HALF_DIMENSIONS lanes of `src` (caller's contract); unaligned load.
                *a = unsafe { _mm256_loadu_si256(src.add(tile + 16 * k) as *const __m256i) };
            }
            for row in removed {
                for (k, a) in acc.iter_mut().enumerate() {
                    // SAFETY: a row is an array of HALF_DIMENSIONS lanes; tile + 16 k + 16 <= HALF_DIMENSIONS.
                    let w = unsafe { _mm256_loadu_si256(row.as_ptr().add(tile + 16 * k) as *const __m256i) };
                    *a = _mm256_sub_epi16(*a, w);
                }
            }
            for row in added {
                for (k, a) in acc.iter_mut().enumerate() {
                    // SAFETY: as above.
                    let w = unsafe { _mm256_loadu_si256(row.as_ptr().add(tile + 16 * k) as *const __m256i) };
                    *a = _mm256_add_epi16(*a, w);
                }
            }
            for (k, a) in acc.iter().enumerate() {
                // SAFETY: tile + 16 k + 16 <= HALF_DIMENSIONS lanes of `dst` (caller's contract); this stretch of
                // `src` was read in full above, so writing it is right even when `dst` is `src`.
                unsafe { _mm256_storeu_si256(dst.add(tile + 16 * k) as *mut __m256i, *a) };
            }
        }
    }

    #[target_feature(enable = "sse4.1")]
    pub(super) fn update_sse41(
        dst: &mut [i16; HALF_DIMENSIONS],
        src: &[i16; HALF_DIMENSIONS],
        added: &[&Row],
        removed: &[&Row],
    ) {
        update_body(dst, src, added, removed)
    }

    /// Clipping by packing: `packs` saturates each sum to -128..=127, and a byte maximum with zero leaves
    /// 0..=127, the clamp of `clip_body`. AVX2's pack works within 128-bit halves, so the four 8-byte quarters
    /// come out as (a low, b low, a high, b high) and a permutation puts them back in order.
    #[target_feature(enable = "avx2")]
    pub(super) fn clip_avx2(
        us: &[i16; HALF_DIMENSIONS],
        them: &[i16; HALF_DIMENSIONS],
        out: &mut [u8; TRANSFORMED_DIMENSIONS],
    ) {
        const IN_ORDER: i32 = 0b11_01_10_00;
        let zero = _mm256_setzero_si256();
        for (half, values) in [us, them].into_iter().enumerate() {
            for i in (0..HALF_DIMENSIONS).step_by(32) {
                // SAFETY: i + 32 <= HALF_DIMENSIONS lanes of `values`, and half * HALF_DIMENSIONS + i + 32 <=
                // TRANSFORMED_DIMENSIONS bytes of `out`; the loads and the store are unaligned.
                unsafe {
                    let a = _mm256_loadu_si256(values.as_ptr().add(i) as *const __m256i);
                    let b = _mm256_loadu_si256(values.as_ptr().add(i + 16) as *const __m256i);
                    let bytes = _mm256_max_epi8(_mm256_packs_epi16(a, b), zero);
                    let ordered = _mm256_permute4x64_epi64::<IN_ORDER>(bytes);
                    _mm256_storeu_si256(out.as_mut_ptr().add(half * HALF_DIMENSIONS + i) as *mut __m256i, ordered);
                }
            }
        }
    }

    /// As `clip_avx2` on 128-bit registers, where the pack keeps the order.
    #[target_feature(enable = "sse4.1")]
    pub(super) fn clip_sse41(
        us: &[i16; HALF_DIMENSIONS],
        them: &[i16; HALF_DIMENSIONS],
        out: &mut [u8; TRANSFORMED_DIMENSIONS],
    ) {
        let zero = _mm_setzero_si128();
        for (half, values) in [us, them].into_iter().enumerate() {
            for i in (0..HALF_DIMENSIONS).step_by(16) {
                // SAFETY: i + 16 <= HALF_DIMENSIONS lanes of `values`, and half * HALF_DIMENSIONS + i + 16 <=
                // TRANSFORMED_DIMENSIONS bytes of `out`; the loads and the store are unaligned.
                unsafe {
                    let a = _mm_loadu_si128(values.as_ptr().add(i) as *const __m128i);
                    let b = _mm_loadu_si128(values.as_ptr().add(i + 8) as *const __m128i);
                    let bytes = _mm_max_epi8(_mm_packs_epi16(a, b), zero);
                    _mm_storeu_si128(out.as_mut_ptr().add(half * HALF_DIMENSIONS + i) as *mut __m128i, bytes);
                }
            }
        }
    }

    /// A hidden layer on one register width: `LANES` outputs per register; each step multiplies four groups of
    /// four inputs (`maddubs`: unsigned input bytes by signed weights, adjacent products summed to 16 bits), adds
    /// groups 0+1 and 2+3 with 16-bit saturation, widens the pairs to 32 bits (`madd` by ones) and accumulates.
    /// The body is generic in its register count so that each layer's sums stay in registers; the entry point
    /// picks the body for the layer's width.
    macro_rules! affine_kernel {
        ($name:ident, $body:ident, $feature:literal, $vec:ty, $lanes:literal, $zero:ident, $set1_32:ident,
         $set1_16:ident, $loadu:ident, $storeu:ident, $maddubs:ident, $adds:ident, $madd:ident, $add:ident) => {
            #[target_feature(enable = $feature)]
            pub(super) fn $name(input: &[u8], grouped: &[i8], biases: &[i32], out: &mut [i32]) {
                let outputs = out.len();
                assert!(input.len().is_multiple_of(16) && outputs.is_multiple_of($lanes));
                assert!(biases.len() == outputs && grouped.len() == input.len() * outputs);
                match outputs / $lanes {
                    1 => $body::<1>(input, grouped, biases, out),
                    2 => $body::<2>(input, grouped, biases, out),
                    4 => $body::<4>(input, grouped, biases, out),
                    8 => $body::<8>(input, grouped, biases, out),
                    _ => affine_scalar(input, grouped, biases, out),
                }
            }

            /// The layer with `REGS` registers of outputs; the caller checked every length.
            #[target_feature(enable = $feature)]
            fn $body<const REGS: usize>(input: &[u8], grouped: &[i8], biases: &[i32], out: &mut [i32]) {
                let outputs = REGS * $lanes;
                assert!(out.len() == outputs && biases.len() == outputs && grouped.len() == input.len() * outputs);
                let block_bytes = 16 * outputs;
                let ones = $set1_16(1);
                let zero = _mm_setzero_si128();
                let mut acc = [$zero(); REGS];
                for block in 0..input.len() / 16 {
                    // SAFETY: 16 block + 16 <= input.len(); the load is unaligned.
                    let bytes = unsafe { _mm_loadu_si128(input.as_ptr().add(16 * block) as *const __m128i) };
                    // Clipped inputs are often zero: a block of 16 zero bytes adds nothing (no saturation
                    // either), so skipping it keeps the numbers exact.
                    if _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, zero)) == 0xFFFF {
                        continue;
                    }
                    let word = |k: usize| {
                        // SAFETY: 16 block + 4 k + 4 <= 16 block + 16 <= input.len(); the read is unaligned.
                        $set1_32(unsafe { (input.as_ptr().add(16 * block + 4 * k) as *const i32).read_unaligned() })
                    };
                    let (in0, in1, in2, in3) = (word(0), word(1), word(2), word(3));
                    // SAFETY: this block's weights are the `block_bytes` from `block * block_bytes`, inside
                    // `grouped` (its length is input.len() * outputs = blocks * block_bytes).
                    let weights = unsafe { grouped.as_ptr().add(block * block_bytes) };
                    for (j, a) in acc.iter_mut().enumerate() {
                        // SAFETY: group k's register j starts at (k outputs + j LANES) * 4 and ends at most at
                        // (3 outputs + outputs) * 4 = block_bytes; the load is unaligned.
                        let col =
                            |k: usize| unsafe { $loadu(weights.add((k * outputs + j * $lanes) * 4) as *const $vec) };
                        let p0 = $maddubs(in0, col(0));
                        let p1 = $maddubs(in1, col(1));
                        let p2 = $maddubs(in2, col(2));
                        let p3 = $maddubs(in3, col(3));
                        let s01 = $madd($adds(p0, p1), ones);
                        let s23 = $madd($adds(p2, p3), ones);
                        *a = $add(*a, $add(s01, s23));
                    }
                }
                for (j, a) in acc.iter().enumerate() {
                    let mut lanes = [0i32; $lanes];
                    // SAFETY: `lanes` is exactly one register long; the unaligned store has no alignment demand.
                    unsafe { $storeu(lanes.as_mut_ptr() as *mut $vec, *a) };
                    for (k, lane) in lanes.iter().enumerate() {
                        out[j * $lanes + k] = biases[j * $lanes + k].wrapping_add(*lane);
                    }
                }
            }
        };
    }

    affine_kernel!(
        affine_avx2,
        affine_avx2_body,
        "avx2",
        __m256i,
        8,
        _mm256_setzero_si256,
        _mm256_set1_epi32,
        _mm256_set1_epi16,
        _mm256_loadu_si256,
        _mm256_storeu_si256,
        _mm256_maddubs_epi16,
        _mm256_adds_epi16,
        _mm256_madd_epi16,
        _mm256_add_epi32
    );
    affine_kernel!(
        affine_sse41,
        affine_sse41_body,
        "sse4.1",
        __m128i,
        4,
        _mm_setzero_si128,
        _mm_set1_epi32,
        _mm_set1_epi16,
        _mm_loadu_si128,
        _mm_storeu_si128,
        _mm_maddubs_epi16,
        _mm_adds_epi16,
        _mm_madd_epi16,
        _mm_add_epi32
    );
}
