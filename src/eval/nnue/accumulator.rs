//! The feature transformer's sums for both perspectives, computed from scratch or updated by the few features
//! a move changes, and a stack of them that follows make/unmake.

use super::arch::*;
use super::features::{FeatureIndex, active_features, feature, king_bucket};
use super::kernels::Kernel;
use super::network::Network;
use crate::board::{Color, Move, Piece, PieceKind, Position, Square};
use std::sync::Arc;

/// The transformer's 512 sums and 8 PSQT sums of each perspective (indexed by `Color::index`).
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub values: [[i16; HALF_DIMENSIONS]; 2],
    pub psqt: [[i32; BUCKETS]; 2],
}

/// Rows applied per kernel call when summing a whole position (a full board has 32 pieces).
const ROWS_PER_CALL: usize = 32;

impl Accumulator {
    fn zeroed() -> Accumulator {
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
        let biases: &[i16; HALF_DIMENSIONS] = net.ft_biases[..].try_into().expect("512 biases");
        let mut current = *biases;
        for group in features.chunks(ROWS_PER_CALL) {
            let mut rows: [&[i16]; ROWS_PER_CALL] = [&[]; ROWS_PER_CALL];
            for (slot, f) in rows.iter_mut().zip(group) {
                *slot = net.ft_row(f.0 as usize);
            }
            kernel.update(&mut self.values[p.index()], &current, &rows[..group.len()], &[]);
            current = self.values[p.index()];
        }
        self.values[p.index()] = current;
        let psqt = &mut self.psqt[p.index()];
        *psqt = [0; BUCKETS];
        for f in features {
            for (s, w) in psqt.iter_mut().zip(net.psqt_row(f.0 as usize)) {
                *s = s.wrapping_add(*w);
            }
        }
    }

    /// One perspective from `previous` with some features removed and some added.
    fn update_perspective(
        &mut self,
        previous: &Accumulator,
        net: &Network,
        kernel: Kernel,
        p: Color,
        removed: &[FeatureIndex],
        added: &[FeatureIndex],
    ) {
        let mut add_rows: [&[i16]; 2] = [&[]; 2];
        let mut remove_rows: [&[i16]; 2] = [&[]; 2];
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
}

/// Accumulators of the positions along a line of play: `push` after each move is made (or a pass or a null
/// move), `pop` after it is taken back. A move of a perspective's own general changes the bucket of all its
/// features, so that perspective is computed afresh; every other move changes at most three features.
pub struct AccumulatorStack {
    net: Arc<Network>,
    kernel: Kernel,
    stack: Vec<Accumulator>,
}

impl AccumulatorStack {
    /// A stack holding the accumulators of `pos`.
    pub fn new(net: Arc<Network>, kernel: Kernel, pos: &Position) -> AccumulatorStack {
        let root = Accumulator::refresh(&net, kernel, pos);
        let mut stack = Vec::with_capacity(256);
        stack.push(root);
        AccumulatorStack { net, kernel, stack }
    }

    /// Starts again from `pos`.
    pub fn reset(&mut self, pos: &Position) {
        self.stack.clear();
        self.stack.push(Accumulator::refresh(&self.net, self.kernel, pos));
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The accumulators of the current position.
    pub fn current(&self) -> &Accumulator {
        self.stack.last().expect("the stack always holds the root")
    }

    /// Positions pushed since the root.
    pub fn depth(&self) -> usize {
        self.stack.len() - 1
    }

    /// Follows the move that led to `pos` (read from its last state): call right after making it.
    pub fn push(&mut self, pos: &Position) {
        let m: Move = pos.state().last_move;
        let previous = self.current();
        if m.is_none() || m.is_pass() {
            let copy = previous.clone();
            self.stack.push(copy);
            return;
        }
        let (from, to) = (m.from(), m.to());
        let Some(moved) = pos.piece_at(to) else {
            // Not the position a move led to: start afresh rather than guess.
            let fresh = Accumulator::refresh(&self.net, self.kernel, pos);
            self.stack.push(fresh);
            return;
        };
        let captured = pos.state().captured;
        let mut next = Accumulator::zeroed();
        for p in Color::BOTH {
            if moved.kind() == PieceKind::General && moved.color() == p {
                let mut features = Vec::with_capacity(40);
                active_features(pos, p, &mut features);
                next.set_perspective(&self.net, self.kernel, p, &features);
                continue;
            }
            let bucket = king_bucket(p, pos.general(p));
            let mut removed = [feature(p, bucket, moved, from); 2];
            let mut removed_len = 1;
            if captured.is_some() {
                removed[1] = feature(p, bucket, captured, to);
                removed_len = 2;
            }
            let added = [feature(p, bucket, moved, to)];
            next.update_perspective(previous, &self.net, self.kernel, p, &removed[..removed_len], &added);
        }
        self.stack.push(next);
    }

    /// Takes back the last `push` (the root stays).
    pub fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }
}
