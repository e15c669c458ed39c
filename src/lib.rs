//! janggi: a Janggi (Korean chess) engine that speaks the protocols of Fairy-Stockfish hosts.
//!
//! The layers only look down: `board` (the rules) knows nothing of the rest; `eval` and `search` use `board`;
//! `protocol` turns lines into calls to the search's facade (`search::engine`) and results into lines;
//! `matches` and `analysis` talk to engines through the protocol's client; `datagen`, `train` and `tune` make
//! and fit data; `records` and `notation` read and write game records; `batch` is what long jobs share.

pub mod analysis;
pub mod batch;
pub mod board;
pub mod datagen;
pub mod eval;
pub mod matches;
pub mod notation;
pub mod protocol;
pub mod records;
pub mod score;
pub mod search;
pub mod train;
pub mod tune;
pub mod untrusted;
