//! Extensions: the singular test of the hash move (searched a ply deeper where every other move falls well short
//! of it, a ply shallower where another move nearly matches it and it is expected to beat beta), and checks that
//! keep their piece, searched a ply deeper.

use super::Worker;
use super::from_tt;
use super::node::{Candidate, MoveLoop, Node};
use super::static_eval::StaticEval;
use crate::board::Move;
use crate::search::params::*;
use crate::search::tt::Bound;
use std::ops::ControlFlow::{self, Break, Continue};

impl Worker<'_> {
    /// The hash move's extension by the singular test (1, 0 or -1), or the node's score where several moves beat
    /// beta.
    #[inline(always)]
    pub(super) fn singular_extension(&mut self, node: &Node) -> ControlFlow<i32, i32> {
        let (depth, ply, tt_move) = (node.depth, node.ply, node.tt_move);
        let Some(e) = node.tt else { return Continue(0) };
        if ply == 0
            || node.singular_search()
            || depth < self.tuning.singular_min_depth
            || tt_move.is_none()
            || e.depth < depth - 3
            || !matches!(e.bound, Bound::Exact | Bound::Lower)
            || e.score.abs() >= MATE_BOUND
            || self.settings.ablation.pruning
        {
            return Continue(0);
        }
        let singular_beta = from_tt(e.score, ply) - self.tuning.singular_margin * depth / 8;
        self.excluded[ply] = tt_move;
        let score = self.negamax((depth - 1) / 2, singular_beta - 1, singular_beta, ply, node.cut, false);
        self.excluded[ply] = Move::NONE;
        if self.stopped {
            return Break(0);
        }
        if score < singular_beta {
            Continue(1)
        } else if singular_beta >= node.beta {
            // Several moves beat beta: cut at once.
            Break(singular_beta)
        } else if from_tt(e.score, ply) >= node.beta {
            // Another move nearly matches the hash move, which is expected to beat beta: search it less.
            Continue(-1)
        } else {
            Continue(0)
        }
    }

    /// The extension of the move `c`, just made: the singular test's for the hash move, otherwise a ply for a
    /// check. Checks are extended only where the checking piece is not simply lost: a hanging checker is a forced
    /// capture, not a threat worth a deeper look.
    #[inline(always)]
    pub(super) fn extension(
        &mut self,
        node: &Node,
        eval: &StaticEval,
        ml: &MoveLoop,
        c: &Candidate,
        gives_check: bool,
    ) -> i32 {
        let check_extension = i32::from(
            gives_check
                && node.depth >= self.tuning.check_extension_min_depth
                // In check the static evaluation is -INFINITE: always far enough from equal.
                && eval.corrected.abs() >= self.tuning.check_extension_eval_margin
                && node.ply < 2 * (node.depth as usize + self.tuning.max_extension_plies as usize)
                && self.safe_check(c.mv),
        );
        if c.mv == node.tt_move && ml.singular_extension != 0 { ml.singular_extension } else { check_extension }
    }
}
