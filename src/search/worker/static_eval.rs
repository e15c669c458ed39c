//! A node's static evaluation: computed (or taken from the hash table), corrected by what searches learnt about
//! positions of its structure, and tightened by a stored score whose bound points the right way.

use super::Worker;
use super::from_tt;
use super::node::Node;
use crate::board::Move;
use crate::search::history::CorrectionKeys;
use crate::search::params::*;
use crate::search::tt::Bound;

/// The static evaluation of a node and what follows from it.
pub(super) struct StaticEval {
    /// The evaluation as computed (or stored): what the hash table keeps.
    pub(super) raw: i32,
    /// Corrected by the correction history (`-INFINITE` in check).
    pub(super) corrected: i32,
    /// The corrected evaluation, or a stored score that bounds the value more tightly.
    pub(super) eval: i32,
    /// Whether the side to move stands better than two plies ago.
    pub(super) improving: bool,
    pub(super) correction_keys: CorrectionKeys,
}

impl Worker<'_> {
    /// The static evaluation of `node`, kept in `evals` for the nodes below.
    #[inline(always)]
    pub(super) fn static_evaluation(&mut self, node: &Node) -> StaticEval {
        let correction_keys = CorrectionKeys::of(&self.pos);
        let raw = if node.in_check {
            -INFINITE
        } else if let Some(e) = node.tt {
            e.eval
        } else {
            let raw = self.evaluate();
            // Kept at once, so that a node cut by the pruning below (which stores nothing) is not evaluated again
            // when the next iteration comes back to it.
            if !self.settings.ablation.tt {
                self.shared.tt.store(node.key, Move::NONE, 0, raw, TT_EVAL_DEPTH, Bound::None, node.tt_pv);
            }
            raw
        };
        let corrected = self.corrected(raw, correction_keys);
        self.evals[node.ply] = corrected;
        let improving = !node.in_check && self.improving(node.ply, corrected);
        // The stored score bounds the value better than the static evaluation where its bound points the right way.
        let eval = match node.tt {
            Some(e) if !node.in_check && e.score.abs() < MATE_BOUND => {
                let s = from_tt(e.score, node.ply);
                let tighter = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > corrected,
                    Bound::Upper => s < corrected,
                    Bound::None => false,
                };
                if tighter { s } else { corrected }
            }
            _ => corrected,
        };
        StaticEval { raw, corrected, eval, improving, correction_keys }
    }

    /// The position's evaluation (`ThreadEvaluator::evaluate`), short of the mate scores.
    #[inline]
    pub(super) fn evaluate(&mut self) -> i32 {
        self.evaluation.evaluate(&self.pos).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The static evaluation corrected by what searches learnt about this position's structures.
    #[inline]
    pub(super) fn corrected(&self, raw: i32, keys: CorrectionKeys) -> i32 {
        if raw == -INFINITE {
            return raw;
        }
        let side = self.pos.side_to_move();
        let correction = self.history.correction(side, keys) * self.tuning.correction_weight_pct / 100;
        (raw + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Whether the side to move stands better than two plies ago (four, where it was in check then). The root's
    /// entry of `evals` stays 0, so two plies down this asks whether the side to move stands better than even:
    /// the root's own evaluation there instead scored 46% in 200 games of self-play (see the README, "Strength").
    fn improving(&self, ply: usize, static_eval: i32) -> bool {
        if ply >= 2 && self.evals[ply - 2] != -INFINITE {
            static_eval > self.evals[ply - 2]
        } else if ply >= 4 && self.evals[ply - 4] != -INFINITE {
            static_eval > self.evals[ply - 4]
        } else {
            true
        }
    }
}
