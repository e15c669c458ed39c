//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.

use crate::board::{Move, Position};
#[cfg(feature = "tools")]
use rayon::prelude::*;

/// Leaves of the legal move tree `depth` plies deep. The last ply is counted, not played.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in &moves {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Perft split by root move, the root moves searched in parallel on rayon's pool (one after the other in a build
/// without the tools, e.g. in a browser).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let count = |&m: &Move| {
        let mut child = pos.clone();
        child.make_move(m);
        (m, perft(&mut child, depth - 1))
    };
    #[cfg(feature = "tools")]
    return moves.par_iter().map(count).collect();
    #[cfg(not(feature = "tools"))]
    return moves.iter().map(count).collect();
}
