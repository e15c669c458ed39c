//! The feature transformer's sums for both perspectives, computed from scratch or updated by the few features
//! a move changes, and a stack of them that follows make/unmake.

use super::arch::*;
use super::features::{FeatureIndex, active_features, feature, king_bucket};
use super::kernels::{Kernel, Row};
use super::network::Network;
use super::refresh_cache::RefreshCache;
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
        let values = &mut self.values[p.index()];
        *values = net.ft_biases[..].try_into().expect("512 biases");
        let psqt = &mut self.psqt[p.index()];
        *psqt = [0; BUCKETS];
        apply_features(net, kernel, values, psqt, features, &[]);
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
fn apply_psqt(net: &Network, psqt: &mut [i32; BUCKETS], added: &[FeatureIndex], removed: &[FeatureIndex]) {
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

/// What a move changed for the accumulators, kept until they are needed.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// A pass or a null move: no feature changes.
    Nothing,
    /// A piece other than a general moved (perhaps capturing).
    Piece { moved: Piece, from: Square, to: Square, captured: Piece },
    /// A general moved: its side's features all change bucket; the other side sees an ordinary move.
    General { moved: Piece, from: Square, to: Square, captured: Piece },
}

struct Entry {
    acc: Accumulator,
    /// Which perspectives of `acc` are computed.
    computed: [bool; 2],
    /// The move from the entry below to this one.
    change: Change,
}

/// Accumulators of the positions along a line of play: `push` after each move is made (or a pass or a null
/// move), `pop` after it is taken back. Pushing only notes the move; `current` computes the accumulators when a
/// position is evaluated, from the nearest computed entry below, move by move (as Stockfish does), so positions
/// that are never evaluated (hash cutoffs, pruned moves) cost nothing. A move of a perspective's own general
/// changes the bucket of all its features, so that perspective is computed afresh from the position.
pub struct AccumulatorStack {
    net: Arc<Network>,
    kernel: Kernel,
    /// Slots of entries; the first `len` are the line's. Slots above are kept to be overwritten, so a push
    /// writes a few bytes, not a whole accumulator.
    stack: Vec<Entry>,
    len: usize,
    /// Where a perspective whose general moved is computed from (by difference), instead of from scratch.
    refresh_cache: RefreshCache,
}

impl AccumulatorStack {
    /// A stack holding the accumulators of `pos`.
    pub fn new(net: Arc<Network>, kernel: Kernel, pos: &Position) -> AccumulatorStack {
        let refresh_cache = RefreshCache::new(&net);
        let mut stack = AccumulatorStack { net, kernel, stack: Vec::with_capacity(256), len: 0, refresh_cache };
        stack.reset(pos);
        stack
    }

    /// Starts again from `pos`.
    pub fn reset(&mut self, pos: &Position) {
        self.len = 0;
        let acc = Accumulator::refresh(&self.net, self.kernel, pos);
        *self.place() = Entry { acc, computed: [true; 2], change: Change::Nothing };
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Positions pushed since the root.
    pub fn depth(&self) -> usize {
        self.len - 1
    }

    /// Follows the move that led to `pos` (read from its last state): call right after making it.
    pub fn push(&mut self, pos: &Position) {
        let m: Move = pos.state().last_move;
        let change = if m.is_none() || m.is_pass() {
            Change::Nothing
        } else {
            let (from, to, captured) = (m.from(), m.to(), pos.state().captured);
            match pos.piece_at(to) {
                Some(moved) if moved.kind() == PieceKind::General => Change::General { moved, from, to, captured },
                Some(moved) => Change::Piece { moved, from, to, captured },
                None => {
                    // Not the position a move led to: start afresh rather than guess.
                    let acc = Accumulator::refresh(&self.net, self.kernel, pos);
                    *self.place() = Entry { acc, computed: [true; 2], change: Change::Nothing };
                    return;
                }
            }
        };
        // The values are written before they are read (`current`), so whatever the slot held serves.
        let entry = self.place();
        entry.computed = [false; 2];
        entry.change = change;
    }

    /// The slot above the line, now part of it.
    fn place(&mut self) -> &mut Entry {
        if self.len == self.stack.len() {
            self.stack.push(Entry { acc: Accumulator::zeroed(), computed: [false; 2], change: Change::Nothing });
        }
        self.len += 1;
        &mut self.stack[self.len - 1]
    }

    /// Takes back the last `push` (the root stays).
    pub fn pop(&mut self) {
        if self.len > 1 {
            self.len -= 1;
        }
    }

    /// The accumulators of `pos`, the position the pushes led to, computed now if they are not yet.
    pub fn current(&mut self, pos: &Position) -> &Accumulator {
        for p in Color::BOTH {
            self.compute(p, pos);
        }
        &self.stack[self.len - 1].acc
    }

    /// The net's output for `pos`, the position the pushes led to.
    pub fn output(&mut self, pos: &Position) -> super::evaluate::RawOutput {
        self.current(pos);
        let top = &self.stack[self.len - 1].acc;
        super::evaluate::output(&self.net, self.kernel, top, pos)
    }

    /// Computes perspective `p` of the top entry.
    fn compute(&mut self, p: Color, pos: &Position) {
        let top = self.len - 1;
        let mut base = top;
        while !self.stack[base].computed[p.index()] {
            if let Change::General { moved, .. } = self.stack[base].change
                && moved.color() == p
            {
                // The general moved on the way: every feature changed, so the top is computed afresh.
                let acc = &mut self.stack[top].acc;
                let (values, psqt) = (&mut acc.values[p.index()], &mut acc.psqt[p.index()]);
                self.refresh_cache.refresh(&self.net, self.kernel, pos, p, values, psqt);
                self.stack[top].computed[p.index()] = true;
                return;
            }
            base -= 1;
        }
        // No general of `p` moved since `base`, so its bucket is the one of `pos`.
        let bucket = king_bucket(p, pos.general(p));
        for i in base + 1..=top {
            let (below, above) = self.stack.split_at_mut(i);
            let (previous, next) = (&below[i - 1].acc, &mut above[0]);
            match next.change {
                Change::Nothing => {
                    next.acc.values[p.index()] = previous.values[p.index()];
                    next.acc.psqt[p.index()] = previous.psqt[p.index()];
                }
                Change::Piece { moved, from, to, captured } | Change::General { moved, from, to, captured } => {
                    let mut removed = [feature(p, bucket, moved, from); 2];
                    let mut removed_len = 1;
                    if captured.is_some() {
                        removed[1] = feature(p, bucket, captured, to);
                        removed_len = 2;
                    }
                    let added = [feature(p, bucket, moved, to)];
                    next.acc.update_perspective(previous, &self.net, self.kernel, p, &removed[..removed_len], &added);
                }
            }
            next.computed[p.index()] = true;
        }
    }
}
