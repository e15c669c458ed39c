//! A stack of accumulators that follows make/unmake along the line searched, computing them only when a
//! position is evaluated.

use super::accumulator::Accumulator;
use super::evaluate::{RawOutput, output};
use super::features::{feature, king_bucket};
use super::kernels::Kernel;
use super::network::Network;
use super::refresh_cache::RefreshCache;
use crate::board::{Color, Move, Piece, PieceKind, Position, Square};
use std::sync::Arc;

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
    pub fn output(&mut self, pos: &Position) -> RawOutput {
        self.current(pos);
        let top = &self.stack[self.len - 1].acc;
        output(&self.net, self.kernel, top, pos)
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
