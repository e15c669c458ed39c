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
}

impl History {
    pub fn new() -> History {
        History {
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            butterfly: vec![0; 2 * 90 * 90],
            counters: vec![Move::NONE; 2 * 90 * 90],
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

    fn nudge(&mut self, side: Color, m: Move, bonus: i32) {
        let h = &mut self.butterfly[Self::index(side, m)];
        let v = *h as i32;
        *h = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
    }

    /// A quiet move caused a cutoff at `depth`: reward it, punish the quiets tried before it.
    pub fn reward(&mut self, side: Color, best: Move, tried: &[Move], depth: i32, ply: usize, previous: Move) {
        let bonus = (HISTORY_BONUS_PER_DEPTH * depth).min(HISTORY_BONUS_MAX);
        self.nudge(side, best, bonus);
        for &m in tried {
            if m != best {
                self.nudge(side, m, -bonus);
            }
        }
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
