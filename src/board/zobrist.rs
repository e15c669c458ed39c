//! Zobrist keys: one random 64-bit number per (piece, point) and one for the side to move.
//! Generated at compile time from a fixed seed so that keys (and `bench` signatures) never change between builds.

use super::piece::Piece;
use super::splitmix::splitmix;
use super::square::{SQUARE_COUNT, Square};

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
