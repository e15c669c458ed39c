//! A cache for the perspectives that a move of their own general forces to be computed afresh: per perspective
//! and general bucket, the sums of the last position computed there and its pieces. A new position of that
//! bucket is reached from them by the pieces that differ (usually a handful), not by adding all its rows.

use super::arch::{BUCKETS, HALF_DIMENSIONS, KING_BUCKETS};
use super::features::{FeatureIndex, feature, king_bucket};
use super::kernels::Kernel;
use super::network::Network;
use super::rows::apply_features;
use crate::board::{Bitboard, Color, Piece, PieceKind, Position};

/// The sums of one perspective in one bucket, and the pieces they hold (by colour and kind).
#[derive(Clone)]
struct Entry {
    values: [i16; HALF_DIMENSIONS],
    psqt: [i32; BUCKETS],
    pieces: [[Bitboard; PieceKind::ALL.len()]; 2],
}

pub struct RefreshCache {
    /// `[perspective][bucket]`.
    entries: Vec<Entry>,
    /// The differing features, kept to be reused without allocating.
    added: Vec<FeatureIndex>,
    removed: Vec<FeatureIndex>,
}

impl RefreshCache {
    /// Every entry holds an empty board: the biases alone.
    pub fn new(net: &Network) -> RefreshCache {
        let empty = Entry {
            values: net.ft_biases[..].try_into().expect("512 biases"),
            psqt: [0; BUCKETS],
            pieces: [[Bitboard::EMPTY; PieceKind::ALL.len()]; 2],
        };
        RefreshCache { entries: vec![empty; 2 * KING_BUCKETS], added: Vec::new(), removed: Vec::new() }
    }

    /// Perspective `p` of `pos` into `values` and `psqt`, exactly as a computation from scratch gives it.
    pub fn refresh(
        &mut self,
        net: &Network,
        kernel: Kernel,
        pos: &Position,
        p: Color,
        values: &mut [i16; HALF_DIMENSIONS],
        psqt: &mut [i32; BUCKETS],
    ) {
        let bucket = king_bucket(p, pos.general(p));
        let entry = &mut self.entries[p.index() * KING_BUCKETS + bucket.0 as usize];
        self.added.clear();
        self.removed.clear();
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                let now = pos.color_bb(color) & pos.kind_bb(kind);
                let before = entry.pieces[color.index()][kind.index()];
                if now == before {
                    continue;
                }
                let piece = Piece::new(color, kind);
                self.removed.extend((before & !now).map(|sq| feature(p, bucket, piece, sq)));
                self.added.extend((now & !before).map(|sq| feature(p, bucket, piece, sq)));
                entry.pieces[color.index()][kind.index()] = now;
            }
        }
        apply_features(net, kernel, &mut entry.values, &mut entry.psqt, &self.added, &self.removed);
        *values = entry.values;
        *psqt = entry.psqt;
    }
}
