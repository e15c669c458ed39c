//! The feature transformer's sums for both perspectives, computed from scratch or updated by the few features
//! a move changes (`stack` follows make/unmake with them).

use super::arch::*;
use super::features::{FeatureIndex, active_features, feature, king_bucket};
use super::kernels::{Kernel, Row};
use super::network::Network;
use super::rows::{apply_features, apply_psqt};
use crate::board::{Color, Piece, PieceKind, Position, Square};

/// The transformer's 512 sums and 8 PSQT sums of each perspective (indexed by `Color::index`).
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub values: [[i16; HALF_DIMENSIONS]; 2],
    pub psqt: [[i32; BUCKETS]; 2],
}

impl Accumulator {
    pub(super) fn zeroed() -> Accumulator {
        Accumulator { values: [[0; HALF_DIMENSIONS]; 2], psqt: [[0; BUCKETS]; 2] }
    }

    /// Both perspectives from scratch.
    pub fn refresh(net: &Network, kernel: Kernel, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::zeroed();
        let mut features = Vec::with_capacity(40);
        for p in Color::BOTH {
            active_features(pos, p, &mut features);
            acc.set_perspective(net, kernel, p, &features);
        }
        acc
    }

    /// Both perspectives from a list of pieces (the derived piece values take pieces off one at a time).
    pub fn from_pieces(net: &Network, kernel: Kernel, pieces: &[(Piece, Square)]) -> Accumulator {
        let mut acc = Accumulator::zeroed();
        for p in Color::BOTH {
            let general = pieces
                .iter()
                .find(|(pc, _)| pc.kind() == PieceKind::General && pc.color() == p)
                .map_or(Square::default(), |&(_, sq)| sq);
            let bucket = king_bucket(p, general);
            let features: Vec<FeatureIndex> = pieces.iter().map(|&(pc, sq)| feature(p, bucket, pc, sq)).collect();
            acc.set_perspective(net, kernel, p, &features);
        }
        acc
    }

    /// One perspective = biases + the rows of its active features.
    fn set_perspective(&mut self, net: &Network, kernel: Kernel, p: Color, features: &[FeatureIndex]) {
        let values = &mut self.values[p.index()];
        *values = net.ft_biases[..].try_into().expect("512 biases");
        let psqt = &mut self.psqt[p.index()];
        *psqt = [0; BUCKETS];
        apply_features(net, kernel, values, psqt, features, &[]);
    }

    /// One perspective from `previous` with some features removed and some added.
    pub(super) fn update_perspective(
        &mut self,
        previous: &Accumulator,
        net: &Network,
        kernel: Kernel,
        p: Color,
        removed: &[FeatureIndex],
        added: &[FeatureIndex],
    ) {
        let empty = net.ft_row(0);
        let mut add_rows: [&Row; 2] = [empty; 2];
        let mut remove_rows: [&Row; 2] = [empty; 2];
        for (slot, f) in add_rows.iter_mut().zip(added) {
            *slot = net.ft_row(f.0 as usize);
        }
        for (slot, f) in remove_rows.iter_mut().zip(removed) {
            *slot = net.ft_row(f.0 as usize);
        }
        kernel.update(
            &mut self.values[p.index()],
            &previous.values[p.index()],
            &add_rows[..added.len()],
            &remove_rows[..removed.len()],
        );
        let psqt = &mut self.psqt[p.index()];
        *psqt = previous.psqt[p.index()];
        apply_psqt(net, psqt, added, removed);
    }
}
