//! Move ordering: the order in which a node tries its moves (hash move, good captures by victim then attacker,
//! killers, counter move, history, losing captures), and handing the moves out in that order. The
//! work is done as late as the order allows: the best move left is picked while hash move and captures remain, a
//! capture's exchange tested when it comes up; the quiet moves are scored when no winning capture is left, and the
//! moves left are then sorted once. A node that cuts off on the hash move or a capture never scores its quiets.

use super::Worker;
use crate::board::moves::StackList;
use crate::board::{Move, MoveList};
use crate::search::params::SEE_VALUE;

/// The hash move's score: first of all.
const HASH_MOVE: i32 = 1 << 30;
/// A capture whose exchange is not yet tested: its score is this plus its capture score, above every other move
/// but the hash move until the test places it.
const UNTESTED_CAPTURE: i32 = 1 << 29;
/// A capture that does not lose material: this plus its capture score.
const WINNING_CAPTURE: i32 = 1 << 28;
/// Killers and the counter move, above any history score.
const KILLER: i32 = 1 << 27;
const COUNTER_MOVE: i32 = 1 << 26;
/// A capture that loses material: this plus its capture score, below the quiet moves.
const LOSING_CAPTURE: i32 = -(1 << 20);
/// A quiet move not yet scored.
const QUIET_UNSCORED: i32 = i32::MIN;

/// What `order_lazily` left for `next_move` to do.
#[derive(Clone, Copy, Debug)]
pub(super) struct Deferred {
    /// Whether the list holds quiet moves not yet scored.
    quiets: bool,
    /// Whether the moves from the next one on are in order already (sorted once the quiet moves were scored).
    sorted: bool,
    ply: usize,
    previous: Move,
}

impl Deferred {
    /// Nothing deferred (a list not yet ordered).
    pub(super) const NONE: Deferred = Deferred { quiets: false, sorted: false, ply: 0, previous: Move::NONE };
}

impl Worker<'_> {
    /// Move-ordering scores, every one of them at once (for lists whose scores are read as a whole).
    pub(super) fn order(&self, moves: &MoveList, tt_move: Move, ply: usize, previous: Move, scores: &mut MoveScores) {
        let deferred = self.order_lazily(moves, tt_move, ply, previous, scores);
        for (i, &m) in moves.iter().enumerate() {
            let s = &mut scores.as_mut_slice()[i];
            if is_untested(*s) {
                *s = self.test_exchange(m, *s);
            }
        }
        if deferred.quiets {
            self.score_quiets(moves, scores, 0, deferred);
        }
    }

    /// The scores of the hash move and the captures (their exchanges untested); the quiet moves are left for
    /// `next_move` to score when it reaches them.
    pub(super) fn order_lazily(
        &self,
        moves: &MoveList,
        tt_move: Move,
        ply: usize,
        previous: Move,
        scores: &mut MoveScores,
    ) -> Deferred {
        scores.clear();
        let mut quiets = false;
        for &m in moves.iter() {
            let score = if m == tt_move {
                HASH_MOVE
            } else if let Some(victim) = self.pos.piece_at(m.to()).filter(|_| !m.is_pass()) {
                let attacker = self.pos.piece_at(m.from()).map_or(0, |p| SEE_VALUE[p.kind().index()]);
                UNTESTED_CAPTURE + SEE_VALUE[victim.kind().index()] * 8 - attacker / 16
            } else {
                quiets = true;
                QUIET_UNSCORED
            };
            scores.push(score);
        }
        Deferred { quiets, sorted: false, ply, previous }
    }

    /// The next move in order, brought to position `i`: the best-scored move left, once its exchange is tested
    /// (a capture that loses material goes below the quiet moves) and, where no hash move or winning capture is
    /// left, once the quiet moves are scored.
    #[inline]
    pub(super) fn next_move(
        &self,
        moves: &mut MoveList,
        scores: &mut MoveScores,
        i: usize,
        deferred: &mut Deferred,
    ) -> Move {
        if deferred.sorted {
            return moves.as_slice()[i];
        }
        loop {
            let best = best_from(scores, i);
            let score = scores.as_slice()[best];
            if is_untested(score) {
                let tested = self.test_exchange(moves.as_slice()[best], score);
                scores.as_mut_slice()[best] = tested;
                if tested < WINNING_CAPTURE {
                    continue;
                }
            } else if score < WINNING_CAPTURE && deferred.quiets {
                // No untested capture is left (their scores are above the winning captures'): every score from
                // here on is final, and one sort costs less than picking the best of the rest move by move.
                self.score_quiets(moves, scores, i, *deferred);
                deferred.quiets = false;
                deferred.sorted = true;
                sort_from(moves, scores, i);
                return moves.as_slice()[i];
            }
            moves.as_mut_slice().swap(i, best);
            scores.as_mut_slice().swap(i, best);
            return moves.as_slice()[i];
        }
    }

    /// An untested capture's score once its exchange is tested.
    fn test_exchange(&self, m: Move, untested: i32) -> i32 {
        let base = if self.see(m, 0) { WINNING_CAPTURE } else { LOSING_CAPTURE };
        untested - UNTESTED_CAPTURE + base
    }

    /// Scores the unscored quiet moves from position `from` on: killers, counter move, history.
    fn score_quiets(&self, moves: &MoveList, scores: &mut MoveScores, from: usize, deferred: Deferred) {
        let Deferred { ply, previous, .. } = deferred;
        let side = self.pos.side_to_move();
        let context = self.context(ply);
        let counter = self.history.counter(side, previous);
        let scores = &mut scores.as_mut_slice()[from..];
        for (&m, s) in moves.iter().skip(from).zip(scores.iter_mut()) {
            if *s != QUIET_UNSCORED {
                continue;
            }
            *s = if self.history.killers[ply][0] == m {
                KILLER + 2
            } else if self.history.killers[ply][1] == m {
                KILLER + 1
            } else if m == counter {
                COUNTER_MOVE
            } else {
                let to = self.piece_to(m);
                // The reply to the last move weighs more in the order where `order_cont1_extra_pct` asks.
                let extra = self.tuning.order_cont1_extra_pct;
                let reply = if extra != 0 { self.history.continuation_after(context[0], to) * extra / 100 } else { 0 };
                self.quiet_history(side, m, to, context) + reply
            };
        }
    }
}

/// The ordering scores of a move list, one a move in the list's order.
pub(super) type MoveScores = StackList<i32>;

/// Whether a score is that of a capture whose exchange is not yet tested (within the capture scores' range of it).
#[inline]
fn is_untested(score: i32) -> bool {
    (UNTESTED_CAPTURE - WINNING_CAPTURE / 2..UNTESTED_CAPTURE + WINNING_CAPTURE / 2).contains(&score)
}

/// Sorts the moves from position `i` on by their scores, best first (equal scores in the order they were in), by
/// insertion: the lists are short, and sorting them in place needs no buffer to set up.
fn sort_from(moves: &mut MoveList, scores: &mut MoveScores, i: usize) {
    let moves = &mut moves.as_mut_slice()[i..];
    let scores = &mut scores.as_mut_slice()[i..];
    for j in 1..scores.len() {
        let (m, s) = (moves[j], scores[j]);
        let mut k = j;
        while k > 0 && scores[k - 1] < s {
            moves[k] = moves[k - 1];
            scores[k] = scores[k - 1];
            k -= 1;
        }
        moves[k] = m;
        scores[k] = s;
    }
}

/// Selection sort step: where the best-scored move from position `i` on is.
#[inline]
fn best_from(scores: &MoveScores, i: usize) -> usize {
    let scores = scores.as_slice();
    let mut best = i;
    for j in i + 1..scores.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::super::Worker;
    use super::MoveScores;
    use crate::board::{Move, Position, Rules};
    use crate::search::history::History;
    use crate::search::time::TimeManager;
    use crate::search::{Limits, Settings, Shared, Silent};
    use std::time::Instant;

    /// Each position after a search has taught the histories and killers, with a quiet move (or none) as the
    /// hash move: the moves `next_move` hands out one by one, with their exchanges tested and quiet moves scored
    /// only when reached, are every legal move once, in the order of the scores `order` gives them all at once.
    #[test]
    fn moves_come_once_each_in_the_order_of_their_full_scores() {
        let fens = [
            "b1ra1aC1b/4k4/2n3nc1/pp3p1pp/5r3/3R1R3/1PPP2PP1/3NC1N2/4K4/1B1A1Ac2 b - - 1 13",
            "1b1a1a1br/4k4/4cn1c1/1pp1pp3/2n6/1C1r5/PP1BP1P1P/3NC3N/4K4/R2A1AB1R b - - 10 13",
            "rbRak1bn1/4a4/6cc1/5rpp1/p3p4/3R5/PPB1P2PP/2NC5/4K4/3A1A1NB b - - 16 13",
            "3a1a3/Cc2k4/nC2c4/2ppb1p1p/9/1P2P4/4P2b1/4B4/3N1K3/1B1A1A3 b - - 18 31",
        ];
        let settings = Settings::default();
        let limits = Limits { depth: Some(7), ..Limits::default() };
        for fen in fens {
            let pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
            let shared = Shared::new(4);
            shared.ready(&limits);
            let clock = TimeManager::new(Instant::now(), None);
            let mut w = Worker::new(0, &pos, &limits, &settings, &shared, clock, History::new());
            w.run(&Silent);
            let moves = w.pos.legal_moves();
            let captures = moves.iter().filter(|m| w.pos.piece_at(m.to()).is_some() && !m.is_pass()).count();
            assert!(captures > 0, "{fen}: a position with captures to order");
            let quiet = moves.iter().copied().find(|m| w.pos.piece_at(m.to()).is_none());
            for tt_move in [Move::NONE, quiet.unwrap()] {
                let mut full = MoveScores::new();
                w.order(&moves, tt_move, 2, Move::NONE, &mut full);
                let score_of = |m: Move| full.as_slice()[moves.iter().position(|&x| x == m).unwrap()];

                let mut list = moves.clone();
                let mut scores = MoveScores::new();
                let mut deferred = w.order_lazily(&list, tt_move, 2, Move::NONE, &mut scores);
                let handed: Vec<Move> =
                    (0..list.len()).map(|i| w.next_move(&mut list, &mut scores, i, &mut deferred)).collect();

                let mut expected: Vec<u16> = moves.iter().map(|m| m.bits()).collect();
                let mut got: Vec<u16> = handed.iter().map(|m| m.bits()).collect();
                expected.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, expected, "{fen}: every move once");
                let in_order: Vec<i32> = handed.iter().map(|&m| score_of(m)).collect();
                assert!(in_order.windows(2).all(|w| w[0] >= w[1]), "{fen}: {in_order:?}");
                if !tt_move.is_none() {
                    assert_eq!(handed[0], tt_move, "{fen}: the hash move first");
                }
            }
        }
    }
}
