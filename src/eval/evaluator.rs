//! Which evaluation a search uses: the hand-written one, or a net shared by every search thread.

use super::nnue::Network;
use std::sync::Arc;

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
}
