//! Pruning: before a node's moves (reverse futility, razoring, the null move, ProbCut, and the internal iterative
//! reduction of nodes without a hash move), and of each move before it is made (late-move, futility, history and
//! continuation-history pruning of quiet moves, capture-history pruning, exchange pruning), except that a move
//! that mates at once is never pruned.

use super::Worker;
use super::movepick::MoveScores;
use super::node::{Candidate, MoveLoop, Node};
use super::static_eval::StaticEval;
use super::{from_tt, to_tt};
use crate::board::{CheckFilter, Move};
use crate::search::params::*;
use crate::search::tt::Bound;
use std::ops::ControlFlow::{self, Break, Continue};

impl Worker<'_> {
    /// The pruning before the moves, off the principal variation: each may decide the node without its moves.
    #[inline(always)]
    pub(super) fn prune_before_moves(&mut self, node: &Node, eval: &StaticEval) -> ControlFlow<i32> {
        if !node.pv_node && !node.in_check && !node.must_break && !node.singular_search() {
            self.reverse_futility(node, eval)?;
            self.razoring(node, eval)?;
            self.null_move(node, eval)?;
        }
        self.probcut(node, eval)
    }

    /// Reverse futility pruning: a static evaluation that beats beta by a margin a ply stands for the node.
    #[inline(always)]
    fn reverse_futility(&self, node: &Node, eval: &StaticEval) -> ControlFlow<i32> {
        let (depth, beta, e) = (node.depth, node.beta, eval.eval);
        let margin = if eval.improving {
            self.tuning.rfp_improving_margin * depth - self.tuning.rfp_improving_flat
        } else {
            self.tuning.rfp_margin * depth
        };
        // (Not where beta is a mated score: a static evaluation beats it without showing an escape.)
        if !self.settings.ablation.pruning
            && depth <= self.tuning.rfp_max_depth
            && e - margin >= beta
            && e < MATE_BOUND
            && beta > -MATE_BOUND
        {
            return Break(e);
        }
        Continue(())
    }

    /// Razoring: at low depth, an evaluation far below alpha asks quiescence whether anything saves the node.
    #[inline(always)]
    fn razoring(&mut self, node: &Node, eval: &StaticEval) -> ControlFlow<i32> {
        let (depth, alpha, beta) = (node.depth, node.alpha, node.beta);
        if !self.settings.ablation.pruning
            && depth <= self.tuning.razor_max_depth
            && eval.eval + self.tuning.razor_margin * depth < alpha
        {
            let score = self.quiescence(alpha, beta, node.ply, 0);
            if score < alpha {
                return Break(score);
            }
        }
        Continue(())
    }

    /// Null move: hand the move over; if the opponent still cannot reach beta, the node is a cut. With passing
    /// legal (the host rule sets) there is no zugzwang; without it, deep null-move cutoffs are verified.
    #[inline(always)]
    fn null_move(&mut self, node: &Node, eval: &StaticEval) -> ControlFlow<i32> {
        let (depth, beta, ply) = (node.depth, node.beta, node.ply);
        if self.settings.ablation.nmp
            || depth < self.tuning.nmp_min_depth
            || eval.eval < beta
            || eval.corrected < beta - self.tuning.nmp_static_margin - self.tuning.nmp_static_per_depth * depth
            || self.played[ply.saturating_sub(1)].is_none()
            || !self.has_pieces_beyond_soldiers()
        {
            return Continue(());
        }
        let r = self.tuning.nmp_base_reduction
            + depth / self.tuning.nmp_depth_divisor
            + ((eval.eval - beta) / self.tuning.nmp_eval_divisor).min(3);
        self.make_null(ply);
        let score = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, !node.cut, false);
        self.unmake_null();
        if self.stopped {
            return Break(0);
        }
        if score >= beta {
            let score = if score >= MATE_BOUND { beta } else { score };
            if self.pos.rules().pass || depth < self.tuning.nmp_verify_depth {
                return Break(score);
            }
            let verified = self.negamax(depth - 1 - r, beta - 1, beta, ply, false, false);
            if verified >= beta {
                return Break(score);
            }
        }
        Continue(())
    }

    /// ProbCut: a capture whose reduced search beats beta by a margin almost surely makes the full search beat
    /// beta too.
    #[inline(always)]
    fn probcut(&mut self, node: &Node, eval: &StaticEval) -> ControlFlow<i32> {
        let (depth, ply) = (node.depth, node.ply);
        let probcut_beta = node.beta + self.tuning.probcut_margin;
        if self.settings.ablation.pruning
            || node.pv_node
            || node.in_check
            || node.must_break
            || node.singular_search()
            || depth < self.tuning.probcut_min_depth
            || node.beta.abs() >= MATE_BOUND
            || node.tt.is_some_and(|e| e.depth >= depth - 3 && from_tt(e.score, ply) < probcut_beta)
        {
            return Continue(());
        }
        let mut captures = self.pos.legal_captures();
        let mut scores = MoveScores::new();
        let mut deferred = self.order_lazily(&captures, node.tt_move, ply, Move::NONE, &mut scores);
        for i in 0..captures.len() {
            let m = self.next_move(&mut captures, &mut scores, i, &mut deferred);
            if !self.see(m, probcut_beta - eval.corrected) {
                continue;
            }
            self.make(m, ply);
            let mut score = -self.quiescence(-probcut_beta, -probcut_beta + 1, ply + 1, 1);
            if score >= probcut_beta {
                score = -self.negamax(depth - 4, -probcut_beta, -probcut_beta + 1, ply + 1, !node.cut, false);
            }
            self.unmake();
            if self.stopped {
                return Break(0);
            }
            if score >= probcut_beta {
                if !self.settings.ablation.tt {
                    self.shared.tt.store(node.key, m, to_tt(score, ply), eval.raw, depth - 3, Bound::Lower, node.tt_pv);
                }
                return Break(score);
            }
        }
        Continue(())
    }

    /// Internal iterative reduction: without a hash move, a deep principal-variation node is searched a little
    /// shallower first.
    #[inline(always)]
    pub(super) fn reduce_without_hash_move(&self, node: &mut Node) {
        if node.tt_move.is_none() && node.depth >= self.tuning.iir_min_depth && node.pv_node {
            node.depth = (node.depth - self.tuning.iir_reduction).max(1);
        }
    }

    /// Whether the move `c` is skipped before it is made. In check, evasions are pruned as other moves are
    /// (except by futility: there is no static evaluation to judge them by).
    #[inline(always)]
    pub(super) fn prune_move(
        &self,
        node: &Node,
        eval: &StaticEval,
        ml: &MoveLoop,
        c: &mut Candidate,
        best: i32,
    ) -> bool {
        if self.settings.ablation.pruning || node.ply == 0 || best <= -MATE_BOUND || node.must_break {
            return false;
        }
        let (depth, i, m) = (node.depth, c.index, c.mv);
        // The depth this move would be searched to after its late-move reduction.
        let lmr_depth = depth - 1 - self.reductions[depth.min(63) as usize][i.min(63)];
        if c.quiet() && self.prune_quiet(node, eval, ml, c, lmr_depth) {
            return true;
        }
        // Capture-history pruning: a capture that has kept failing to cut off, where its reduced search would
        // reach no depth at all.
        if let Some(key) = c.capture
            && i > 0
            && lmr_depth < 1
            && self.history.capture(key) < 0
        {
            return true;
        }
        // Exchange pruning of losing moves: quiet moves at low depth, captures at any depth.
        let margin =
            if c.quiet() { self.tuning.see_quiet_margin * depth } else { -self.tuning.see_capture_linear * depth };
        (depth <= 6 || !c.quiet()) && !m.is_pass() && i > 0 && !self.see(m, margin)
    }

    /// Whether `m` (not yet made) checkmates: a move the pruning would skip is searched after all when it ends
    /// the game, so that the short mates an analysis looks for are not left to depths where nothing is pruned.
    /// `filter` (the node's, made here the first time) rules out most moves at once; the exact check test and
    /// the trial move are left to the few it lets through.
    pub(super) fn mates_at_once(&mut self, m: Move, filter: &mut Option<CheckFilter>) -> bool {
        // A pass starts on the general: `may_check` turns it away.
        let Some(piece) = self.pos.piece_at(m.from()) else {
            return false;
        };
        let filter = filter.get_or_insert_with(|| self.pos.check_filter());
        if !filter.may_check(piece.kind(), m) || !self.pos.gives_check(m) {
            return false;
        }
        // The evaluation is not told: the move is taken back at once.
        self.pos.make_move(m);
        let mate = !self.pos.has_legal_move();
        self.pos.unmake_move();
        mate
    }

    /// Whether the quiet move `c` is skipped: late-move, futility, history or continuation-history pruning. Where
    /// the history is looked up, it is kept in `c` for the reduction.
    #[inline(always)]
    fn prune_quiet(&self, node: &Node, eval: &StaticEval, ml: &MoveLoop, c: &mut Candidate, lmr_depth: i32) -> bool {
        let (depth, alpha, m) = (node.depth, node.alpha, c.mv);
        // Late move pruning.
        let late = c.index as i32 >= self.tuning.lmp_base + depth * depth / if eval.improving { 1 } else { 2 };
        if depth <= self.tuning.lmp_max_depth && late {
            return true;
        }
        // Futility pruning, by the depth after the move's reduction. (Never against a mate score: no static
        // evaluation reaches it, and the move may be the quicker mate the search is looking for.)
        let futility_depth = lmr_depth.max(0);
        if futility_depth <= self.tuning.futility_max_depth
            && !node.in_check
            && alpha.abs() < MATE_BOUND
            && eval.corrected + self.tuning.futility_base + self.tuning.futility_per_depth * futility_depth <= alpha
            && !c.killer
        {
            return true;
        }
        let to = self.piece_to(m);
        // History pruning: quiet moves that keep failing here are not worth a look at low depth.
        if depth <= self.tuning.history_prune_depth && !c.killer {
            let h = self.quiet_history(ml.side, m, to, ml.context);
            c.history = Some(h);
            if h < -self.tuning.history_prune_margin * depth {
                return true;
            }
        }
        // Continuation-history pruning: a quiet move that has done badly after both of the last two moves, where
        // it would be searched shallow anyway.
        self.tuning.conthist_prune_depth > 0
            && !c.killer
            && lmr_depth < self.tuning.conthist_prune_depth
            && self.history.failed_after_both(ml.context, to)
    }
}
