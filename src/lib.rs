//! janggi: a Janggi (Korean chess) engine that speaks the protocols of Fairy-Stockfish hosts.

pub mod analyze;
pub mod bench;
pub mod board;
pub mod datagen;
pub mod diagram;
pub mod eval;
pub mod game_review;
pub mod matches;
pub mod nnue_tool;
pub mod notation;
pub mod perft;
pub mod protocol;
pub mod records;
pub mod review;
pub mod score;
pub mod search;
pub mod shard;
pub mod status;
pub mod text;
pub mod train;
pub mod tune;
