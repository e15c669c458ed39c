//! janggi: a Janggi (Korean chess) engine that speaks the protocols of Fairy-Stockfish hosts.

pub mod board;
pub mod perft;
