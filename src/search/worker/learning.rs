//! What a node's search teaches the histories: the move that cut off is rewarded and the moves tried before it
//! punished (butterfly, continuation and capture history, killers, counter move), and the correction history
//! learns how far off the static evaluation was.

use super::Worker;
use super::node::{Candidate, MoveLoop, Node};
use super::static_eval::StaticEval;
use crate::board::Move;
use crate::search::history::{CaptureKey, PieceTo};
use crate::search::params::*;
use crate::search::tt::Bound;

impl Worker<'_> {
    /// The move `c` cut off, after the quiet moves and captures in `quiets` and `captures` (itself among them).
    #[inline(always)]
    pub(super) fn reward_cutoff(
        &mut self,
        node: &Node,
        ml: &MoveLoop,
        c: &Candidate,
        quiets: &[(Move, PieceTo)],
        captures: &[CaptureKey],
    ) {
        let bonus = self.tuning.history_bonus(node.depth);
        if c.quiet() {
            let best = (c.mv, self.played_piece_to[node.ply]);
            self.history.reward(ml.side, best, quiets, ml.context, bonus, node.ply, ml.previous);
        }
        self.history.reward_captures(c.capture, captures, bonus);
    }

    /// The search result teaches the correction history how far off the static evaluation was, where the result
    /// is a true value or a bound on the right side of the evaluation.
    #[inline(always)]
    pub(super) fn learn_correction(
        &mut self,
        node: &Node,
        eval: &StaticEval,
        best: i32,
        best_move: Move,
        bound: Bound,
    ) {
        let static_eval = eval.corrected;
        let best_quiet = best_move.is_none() || !self.is_capture(best_move);
        if !node.in_check
            && !node.singular_search()
            && best_quiet
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            let side = self.pos.side_to_move();
            self.history.correct(side, eval.correction_keys, best, static_eval, node.depth);
        }
    }
}
