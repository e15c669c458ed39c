//! Move ordering: the order in which a node tries its moves (hash move, good captures by victim, attacker and
//! capture history, killers, counter move, history), and picking the next best-scored move without sorting the whole list.

use super::Worker;
use crate::board::moves::StackList;
use crate::board::{Bitboard, Move, MoveList, PieceKind};
use crate::search::history::capture_key;

impl Worker<'_> {
    /// Move-ordering scores: hash move, captures by victim, attacker and capture history, killers, counter move,
    /// history.
    pub(super) fn order(&self, moves: &MoveList, tt_move: Move, ply: usize, previous: Move, scores: &mut MoveScores) {
        scores.clear();
        let side = self.pos.side_to_move();
        let context = self.context(ply);
        let counter = self.history.counter(side, previous);
        let threat_bonus = self.tuning.order_threat_bonus;
        // Built when the first quiet move is scored: many lists (quiescence, ProbCut) have none.
        let mut lesser: Option<[Bitboard; 7]> = None;
        for &m in moves.iter() {
            let score = if m == tt_move {
                1 << 30
            } else if let Some(victim) = self.pos.piece_at(m.to()).filter(|_| !m.is_pass()) {
                let attacker = self.pos.piece_at(m.from()).map_or(0, |p| self.see_values()[p.kind().index()]);
                let base = if self.see(m, 0) { 1 << 28 } else { -(1 << 20) };
                let learnt = self.history.capture(capture_key(self.piece_to(m), victim.kind()));
                base + self.see_values()[victim.kind().index()] * 8 - attacker / 16
                    + learnt * self.tuning.capture_history_weight_pct / 100
            } else if self.history.killers[ply][0] == m {
                (1 << 27) + 2
            } else if self.history.killers[ply][1] == m {
                (1 << 27) + 1
            } else if m == counter {
                1 << 26
            } else {
                let to = self.piece_to(m);
                // The reply to the last move weighs more in the order where `order_cont1_extra_pct` asks.
                let extra = self.tuning.order_cont1_extra_pct;
                let reply = if extra != 0 { self.history.continuation_after(context[0], to) * extra / 100 } else { 0 };
                // Where `order_threat_bonus` asks: a piece taken out of a lesser piece's attack ordered higher,
                // one put into it lower.
                let mut threat = 0;
                if threat_bonus != 0
                    && !m.is_pass()
                    && let Some(piece) = self.pos.piece_at(m.from())
                {
                    let danger = lesser.get_or_insert_with(|| self.attacked_by_lesser())[piece.kind().index()];
                    if danger.has(m.to()) {
                        threat = -threat_bonus / 2;
                    } else if danger.has(m.from()) {
                        threat = threat_bonus;
                    }
                }
                self.quiet_history(side, m, to, context) + reply + threat
            };
            scores.push(score);
        }
    }

    /// For each kind of the side to move's pieces, the points attacked by an enemy piece worth less (by the
    /// exchange values; the general attacks nothing here, as its worth is beyond any exchange).
    fn attacked_by_lesser(&self) -> [Bitboard; 7] {
        let values = self.see_values();
        let enemy = self.pos.attacks_by_kind(!self.pos.side_to_move());
        let mut lesser = [Bitboard::EMPTY; 7];
        for kind in PieceKind::ALL {
            for by in PieceKind::ALL {
                if by != PieceKind::General && values[by.index()] < values[kind.index()] {
                    lesser[kind.index()] |= enemy[by.index()];
                }
            }
        }
        lesser
    }
}

/// The ordering scores of a move list, one a move in the list's order.
pub(super) type MoveScores = StackList<i32>;

/// Selection sort step: brings the best-scored remaining move to position `i`.
#[inline]
pub(super) fn pick(moves: &mut MoveList, scores: &mut MoveScores, i: usize) -> Move {
    let list = moves.as_mut_slice();
    let scores = scores.as_mut_slice();
    debug_assert_eq!(list.len(), scores.len());
    let mut best = i;
    for j in i + 1..list.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    list.swap(i, best);
    scores.swap(i, best);
    list[i]
}
