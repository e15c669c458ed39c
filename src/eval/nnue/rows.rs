//! Adding and removing feature rows on one perspective's sums: what computing accumulators from scratch, the
//! refresh cache and the updates after a move share.

use super::arch::*;
use super::features::FeatureIndex;
use super::kernels::{Kernel, Row};
use super::network::Network;

/// Rows applied per kernel call when summing a whole position (a full board has 32 pieces).
const ROWS_PER_CALL: usize = 32;

/// Adds the rows of `added` and takes off those of `removed`, in place, on one perspective's sums.
pub(super) fn apply_features(
    net: &Network,
    kernel: Kernel,
    values: &mut [i16; HALF_DIMENSIONS],
    psqt: &mut [i32; BUCKETS],
    added: &[FeatureIndex],
    removed: &[FeatureIndex],
) {
    let empty = net.ft_row(0);
    let mut add_rows: [&Row; ROWS_PER_CALL] = [empty; ROWS_PER_CALL];
    let mut remove_rows: [&Row; ROWS_PER_CALL] = [empty; ROWS_PER_CALL];
    let calls = added.len().div_ceil(ROWS_PER_CALL).max(removed.len().div_ceil(ROWS_PER_CALL));
    for call in 0..calls {
        let part = |features: &[FeatureIndex]| {
            let start = (call * ROWS_PER_CALL).min(features.len());
            let end = (start + ROWS_PER_CALL).min(features.len());
            start..end
        };
        let (adds, removes) = (&added[part(added)], &removed[part(removed)]);
        for (slot, f) in add_rows.iter_mut().zip(adds) {
            *slot = net.ft_row(f.0 as usize);
        }
        for (slot, f) in remove_rows.iter_mut().zip(removes) {
            *slot = net.ft_row(f.0 as usize);
        }
        kernel.update_in_place(values, &add_rows[..adds.len()], &remove_rows[..removes.len()]);
    }
    apply_psqt(net, psqt, added, removed);
}

/// The PSQT sums' part of `apply_features`.
#[inline]
pub(super) fn apply_psqt(net: &Network, psqt: &mut [i32; BUCKETS], added: &[FeatureIndex], removed: &[FeatureIndex]) {
    for f in removed {
        for (s, w) in psqt.iter_mut().zip(net.psqt_row(f.0 as usize)) {
            *s = s.wrapping_sub(*w);
        }
    }
    for f in added {
        for (s, w) in psqt.iter_mut().zip(net.psqt_row(f.0 as usize)) {
            *s = s.wrapping_add(*w);
        }
    }
}
