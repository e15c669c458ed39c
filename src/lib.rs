//! janggi: a Janggi (Korean chess) engine that speaks the protocols of Fairy-Stockfish hosts.

pub mod analyze;
pub mod bench;
pub mod board;
pub mod eval;
pub mod matches;
pub mod nnue_tool;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod status;
pub mod tune;
