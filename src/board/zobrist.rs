//! Zobrist keys: one random 64-bit number per (piece, point) and one for the side to move.
//! Generated at compile time from a fixed seed so that keys (and `bench` signatures) never change between builds.

use super::piece::Piece;
use super::square::{SQUARE_COUNT, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

static PIECE_SQUARE: [[u64; SQUARE_COUNT]; 14] = {
    let mut t = [[0u64; SQUARE_COUNT]; 14];
    let mut state = 0x4A41_4E47_4749_u64; // "JANGGI"
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < SQUARE_COUNT {
            let (next, value) = splitmix(state);
            state = next;
            t[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    t
};

/// Toggled whenever the side to move changes (every move, passes included).
pub const SIDE: u64 = splitmix(0x5349_4445).1;

#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}
