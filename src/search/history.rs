//! Move-ordering memory of a search thread: killer moves, butterfly history and counter moves.

use super::params::*;
use crate::board::{Color, Move};

pub struct History {
    /// Two quiet moves per ply that caused a cutoff there.
    pub killers: [[Move; 2]; MAX_PLY + 2],
    /// [side][from][to]: how often a quiet move cut off, with gravity towards zero.
    butterfly: Vec<i16>,
    /// [side][previous move's to-point * 90 + previous move's from-point]: the reply that refuted it.
    counters: Vec<Move>,
    /// [piece-to of a move one or two plies back][piece-to of this move]: how well this move answered that one.
    continuation: Vec<i16>,
}

/// A move named by the piece that makes it and its destination (`piece index * 90 + to`); `NO_PIECE_TO` for a
/// null move or none.
pub type PieceTo = u16;
pub const NO_PIECE_TO: PieceTo = u16::MAX;
const PIECE_TO_COUNT: usize = 14 * 90;

impl History {
    pub fn new() -> History {
        History {
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            butterfly: vec![0; 2 * 90 * 90],
            counters: vec![Move::NONE; 2 * 90 * 90],
            continuation: vec![0; PIECE_TO_COUNT * PIECE_TO_COUNT],
        }
    }

    /// Forgets the killers (they belong to one search) and ages the history.
    pub fn new_search(&mut self) {
        self.killers = [[Move::NONE; 2]; MAX_PLY + 2];
        for h in &mut self.butterfly {
            *h /= 2;
        }
    }

    #[inline(always)]
    fn index(side: Color, m: Move) -> usize {
        side.index() * 8100 + m.from().index() * 90 + m.to().index()
    }

    #[inline(always)]
    pub fn score(&self, side: Color, m: Move) -> i32 {
        self.butterfly[Self::index(side, m)] as i32
    }

    /// The continuation history of a move (`to`) after the moves `context` one and two plies back.
    #[inline(always)]
    pub fn continuation(&self, context: [PieceTo; 2], to: PieceTo) -> i32 {
        let mut sum = 0;
        for c in context {
            if c != NO_PIECE_TO && to != NO_PIECE_TO {
                sum += self.continuation[c as usize * PIECE_TO_COUNT + to as usize] as i32;
            }
        }
        sum
    }

    fn gravity(h: &mut i16, bonus: i32) {
        let v = *h as i32;
        *h = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
    }

    fn nudge(&mut self, side: Color, m: Move, piece_to: PieceTo, context: [PieceTo; 2], bonus: i32) {
        Self::gravity(&mut self.butterfly[Self::index(side, m)], bonus);
        for c in context {
            if c != NO_PIECE_TO && piece_to != NO_PIECE_TO {
                Self::gravity(&mut self.continuation[c as usize * PIECE_TO_COUNT + piece_to as usize], bonus);
            }
        }
    }

    /// A quiet move caused a cutoff: reward it by `bonus`, punish the quiets tried before it. Moves come with
    /// their piece-to names; `context` names the moves one and two plies back.
    #[allow(clippy::too_many_arguments)]
    pub fn reward(
        &mut self,
        side: Color,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
        context: [PieceTo; 2],
        bonus: i32,
        ply: usize,
        previous: Move,
    ) {
        self.nudge(side, best.0, best.1, context, bonus);
        for &(m, pt) in tried {
            if m != best.0 {
                self.nudge(side, m, pt, context, -bonus);
            }
        }
        let best = best.0;
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
        if !previous.is_none() {
            self.counters[Self::index(side, previous)] = best;
        }
    }

    pub fn counter(&self, side: Color, previous: Move) -> Move {
        if previous.is_none() { Move::NONE } else { self.counters[Self::index(side, previous)] }
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}
