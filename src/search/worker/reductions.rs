//! Searching one move of the loop: the first with the full window, the later ones with a null window, late ones
//! reduced (late-move reductions), and searched again at full depth and with the full window where they beat alpha.

use super::Worker;
use super::node::{Candidate, MoveLoop, Node};
use super::static_eval::StaticEval;
use std::ops::ControlFlow::{self, Break, Continue};

impl Worker<'_> {
    /// Makes the move `c`, searches it and takes it back: its score, or `Break(0)` where the search stopped.
    #[inline(always)]
    pub(super) fn search_move(
        &mut self,
        node: &Node,
        eval: &StaticEval,
        ml: &MoveLoop,
        c: &Candidate,
    ) -> ControlFlow<i32, i32> {
        let (ply, alpha, beta, pv_node) = (node.ply, node.alpha, node.beta, node.pv_node);
        self.move_numbers[ply] = (c.index + 1).min(u16::MAX as usize) as u16;
        self.make(c.mv, ply);
        let gives_check = self.pos.in_check_by_rules();
        let new_depth = node.depth - 1 + self.extension(node, eval, ml, c, gives_check);
        let mut score;
        if c.index == 0 {
            score = -self.negamax(new_depth, -beta, -alpha, ply + 1, !pv_node && !node.cut, pv_node);
        } else {
            let r = self.reduction(node, eval, ml, c, gives_check, new_depth);
            score = -self.negamax(new_depth - r, -alpha - 1, -alpha, ply + 1, true, false);
            if score > alpha && r > 0 {
                score = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, !node.cut, false);
            }
            if pv_node && score > alpha && score < beta {
                score = -self.negamax(new_depth, -beta, -alpha, ply + 1, false, true);
            }
        }
        self.unmake();
        if self.stopped {
            return Break(0);
        }
        Continue(score)
    }

    /// The late-move reduction of the move `c` (not the first; made, to be searched to `new_depth`), in plies.
    #[inline(always)]
    fn reduction(
        &self,
        node: &Node,
        eval: &StaticEval,
        ml: &MoveLoop,
        c: &Candidate,
        gives_check: bool,
        new_depth: i32,
    ) -> i32 {
        let (depth, ply, i, pv_node, cut) = (node.depth, node.ply, c.index, node.pv_node, node.cut);
        // Captures on principal variations (now or before) keep their depth, except at expected cutoffs.
        let reducible = c.quiet() || ((!node.tt_pv || cut) && self.tuning.lmr_capture_pct > 0);
        if self.settings.ablation.lmr || depth < self.tuning.lmr_min_depth || i <= pv_node as usize || !reducible {
            return 0;
        }
        let mut r = self.reductions[depth.min(63) as usize][i.min(63)];
        if let Some(key) = c.capture {
            // Late captures are the ones that lose material or history found wanting.
            r = r * self.tuning.lmr_capture_pct / 100 + i32::from(cut) - i32::from(gives_check);
            r -= self.history.capture(key) / self.tuning.lmr_history_divisor;
        } else {
            r -= self.tuning.lmr_pv_less * i32::from(pv_node);
            r += i32::from(!eval.improving) + i32::from(cut) + i32::from(ml.tt_capture);
            let ttpv_less = node.tt_pv && !ml.likely_fail_low;
            r -= i32::from(c.killer) + i32::from(gives_check) + self.tuning.lmr_ttpv * i32::from(ttpv_less);
            // The move is made: its piece-to name was recorded by `make`.
            let h =
                c.history.unwrap_or_else(|| self.quiet_history(ml.side, c.mv, self.played_piece_to[ply], ml.context));
            r -= h / self.tuning.lmr_history_divisor;
            r += self.tuning.lmr_cut_quiet * i32::from(cut);
            let late_reply = self.tuning.lmr_opp_late_move;
            if late_reply > 0 && ply > 0 && i32::from(self.move_numbers[ply - 1]) >= late_reply {
                r -= 1;
            }
        }
        // While the root's best move holds, nodes off the principal variation matter less.
        if !pv_node && self.root_changes <= 2 {
            r += 1;
        }
        r.clamp(0, new_depth - 1)
    }
}
