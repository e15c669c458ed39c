//! Efficiently updatable neural network evaluation in Fairy-Stockfish's Janggi format (`docs/nnue-format.md`):
//! the file reader and writer, the input features, accumulators that follow make/unmake, the forward pass on
//! scalar or SIMD kernels picked at run time, and the reference's `eval` text.

pub mod accumulator;
pub mod arch;
pub mod default_net;
pub mod digest;
pub mod evaluate;
pub mod features;
pub mod kernels;
pub mod network;
pub mod random;
mod refresh_cache;
mod rows;
pub mod search_value;
pub mod stack;
pub mod trace;

pub use accumulator::Accumulator;
pub use default_net::{DEFAULT_NET_NAME, default_network};
pub use evaluate::{BucketTrace, RawOutput, evaluate, output, propagate, trace_buckets};
pub use kernels::Kernel;
pub use network::{NetError, Network};
pub use random::{random_network, random_network_with};
pub use search_value::search_value;
pub use stack::AccumulatorStack;
pub use trace::eval_report;
