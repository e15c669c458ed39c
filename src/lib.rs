//! janggi: a Janggi (Korean chess) engine that speaks the protocols of Fairy-Stockfish hosts.

pub mod analyze;
pub mod bench;
pub mod board;
pub mod eval;
pub mod matches;
pub mod perft;
pub mod protocol;
pub mod records;
pub mod search;
pub mod shard;
pub mod status;
pub mod text;
pub mod tune;
