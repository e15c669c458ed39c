//! janggi: a Janggi (Korean chess) engine that speaks the protocols of Fairy-Stockfish hosts.
//!
//! The layers only look down: `board` (the rules) knows nothing of the rest; `eval` and `search` use `board`;
//! `protocol` turns lines into calls to the search's facade (`search::engine`) and results into lines;
//! `matches` and `analysis` talk to engines through the protocol's client; `datagen`, `train` and `tune` make
//! and fit data; `records` and `notation` read and write game records; `batch` is what long jobs share.
//! `platform` is what the machine gives (clock, threads, files), natively or in a browser.
//!
//! The engine core is the first group: it builds for WebAssembly too (`--no-default-features`). The rest needs
//! the `tools` feature (on by default): processes, signals, the file system and the command line.

pub mod board;
pub mod eval;
pub mod platform;
pub mod protocol;
pub mod score;
pub mod search;
pub mod untrusted;

#[cfg(feature = "tools")]
pub mod analysis;
#[cfg(feature = "tools")]
pub mod batch;
#[cfg(feature = "tools")]
pub mod datagen;
#[cfg(feature = "tools")]
pub mod matches;
#[cfg(feature = "tools")]
pub mod notation;
#[cfg(feature = "tools")]
pub mod records;
#[cfg(feature = "tools")]
pub mod train;
#[cfg(feature = "tools")]
pub mod tune;
