//! What long batch jobs (matches, analysis, data generation) share: splitting the work into shards for a
//! cluster, and stopping cleanly on Ctrl-C.

pub mod interrupt;
pub mod shard;
