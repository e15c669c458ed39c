//! Which evaluation a search uses, and how: the hand-written one, or a net shared by every search thread. The
//! choice is the `Evaluator`; each search thread evaluates through a `ThreadEvaluator` made from it, which keeps
//! the thread's accumulators in step with the moves made and taken back, and scales and bounds the net's output.

use super::nnue::{self, AccumulatorStack, Kernel, Network};
use super::params::Params;
use crate::board::Position;
use std::sync::Arc;

/// A net's evaluation is clamped to ±this: far from the search's mate scores even with its pruning margins added,
/// so a net with wild weights cannot pass for a mate.
pub const NNUE_EVAL_LIMIT: i32 = 20000;

#[derive(Clone, Debug, Default)]
pub enum Evaluator {
    /// The hand-written evaluation (`eval::evaluate`) with the settings' weights.
    #[default]
    Classical,
    /// The net, one copy whatever the thread count; each thread keeps its own accumulators.
    Nnue(Arc<Network>),
}

impl Evaluator {
    /// The net, when the evaluator is one.
    pub fn network(&self) -> Option<&Arc<Network>> {
        match self {
            Evaluator::Classical => None,
            Evaluator::Nnue(net) => Some(net),
        }
    }

    /// The evaluation of one search thread starting from `pos`, the hand-written one with `params`.
    pub fn for_thread(&self, params: &Arc<Params>, pos: &Position) -> ThreadEvaluator {
        ThreadEvaluator {
            params: Arc::clone(params),
            accumulators: self.network().map(|net| AccumulatorStack::new(Arc::clone(net), Kernel::detect(), pos)),
        }
    }
}

/// One search thread's evaluation: `evaluate` scores the position the moves led to, `push` and `pop` follow each
/// move (pass, null move) made and taken back.
pub struct ThreadEvaluator {
    params: Arc<Params>,
    /// With a net: the accumulators along the line searched (the net itself is shared).
    accumulators: Option<AccumulatorStack>,
}

impl ThreadEvaluator {
    /// The evaluation of `pos` in centipawns for the side to move: the net's (scaled with the material and
    /// bounded by `NNUE_EVAL_LIMIT`) or the hand-written one, bent by the move-count rule's approach.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let board = match &mut self.accumulators {
            None => super::evaluate(pos, &self.params),
            Some(acc) => {
                // Under test, every evaluated position's accumulators must equal a fresh computation: the stack
                // followed every make and unmake of the search (moves, passes, null moves).
                #[cfg(test)]
                assert_eq!(
                    acc.current(pos).clone(),
                    nnue::Accumulator::refresh(acc.network(), acc.kernel(), pos),
                    "accumulators out of step at {}",
                    pos.fen()
                );
                let raw = acc.output(pos);
                nnue::search_value(raw, pos).clamp(-NNUE_EVAL_LIMIT, NNUE_EVAL_LIMIT)
            }
        };
        super::toward_move_limit(board, pos)
    }

    /// Follows the move (pass, null move) that led to `pos`: call right after making it.
    #[inline]
    pub fn push(&mut self, pos: &Position) {
        if let Some(acc) = &mut self.accumulators {
            acc.push(pos);
        }
    }

    /// Takes back the last `push`.
    #[inline]
    pub fn pop(&mut self) {
        if let Some(acc) = &mut self.accumulators {
            acc.pop();
        }
    }
}
