//! The input features of a Janggi net (Fairy-Stockfish's `HalfKAv2` on the 9x10 board): one feature per piece,
//! indexed by the perspective's general's palace point, the piece's plane and its point, all seen from the
//! perspective's side of the board.

use super::arch::{FEATURES_PER_BUCKET, KING_BUCKETS};
use crate::board::square::{FILES, SQUARE_COUNT};
use crate::board::{Color, Piece, PieceKind, Position, Square};

/// An index into the feature transformer's weight rows (below `arch::FEATURES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FeatureIndex(pub u32);

/// The palace point (0..9) of the perspective's general, as the bucket of all its features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBucket(pub u8);

/// The plane of each kind for a friendly piece, in Fairy-Stockfish's order of piece types (chariot, cannon,
/// soldier, horse, elephant, guard); the enemy's piece of the kind uses the next plane. Both generals share
/// the last plane (12).
const fn friendly_plane(kind: PieceKind) -> usize {
    match kind {
        PieceKind::Chariot => 0,
        PieceKind::Cannon => 2,
        PieceKind::Soldier => 4,
        PieceKind::Horse => 6,
        PieceKind::Elephant => 8,
        PieceKind::Guard => 10,
        PieceKind::General => 12,
    }
}

/// The point as the perspective sees it: Han's view turns the ranks over (files are kept, not mirrored).
#[inline(always)]
pub fn orient(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Cho => sq.index(),
        Color::Han => sq.flip_rank().index(),
    }
}

/// The bucket of a general standing on `general` for `perspective`: the nine points d1, e1, f1, d2, …, f3 of
/// the (oriented) palace in that order. A point outside the palace cannot occur in a valid position; it would
/// map to bucket 0, as in the reference.
#[inline(always)]
pub fn king_bucket(perspective: Color, general: Square) -> KingBucket {
    let s = orient(perspective, general);
    let (file, rank) = (s % FILES as usize, s / FILES as usize);
    if (3..=5).contains(&file) && rank <= 2 { KingBucket((rank * 3 + file - 3) as u8) } else { KingBucket(0) }
}

/// The feature of `piece` on `sq` for `perspective` whose general is in `bucket`.
#[inline(always)]
pub fn feature(perspective: Color, bucket: KingBucket, piece: Piece, sq: Square) -> FeatureIndex {
    let kind = piece.kind();
    let plane = friendly_plane(kind) + usize::from(kind != PieceKind::General && piece.color() != perspective);
    debug_assert!((bucket.0 as usize) < KING_BUCKETS);
    FeatureIndex((bucket.0 as usize * FEATURES_PER_BUCKET + plane * SQUARE_COUNT + orient(perspective, sq)) as u32)
}

/// Every active feature of the position for one perspective.
pub fn active_features(pos: &Position, perspective: Color, out: &mut Vec<FeatureIndex>) {
    out.clear();
    let bucket = king_bucket(perspective, pos.general(perspective));
    for sq in pos.occupied() {
        if let Some(piece) = pos.piece_at(sq) {
            out.push(feature(perspective, bucket, piece, sq));
        }
    }
}

/// The layer stack (and PSQT bucket) used for a position with `pieces` pieces on the board, generals included:
/// (pieces - 1) * 8 / 32, at most 7.
#[inline(always)]
pub fn stack_index(pieces: usize) -> usize {
    (pieces.saturating_sub(1) * super::arch::BUCKETS / super::arch::MAX_PIECES).min(super::arch::BUCKETS - 1)
}
