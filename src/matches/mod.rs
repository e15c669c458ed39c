//! Engine-vs-engine matches refereed by our own rules: engines run as child processes in their own dialect,
//! every move is checked and every game ended by the rule set, clocks are kept by the runner, and each finished
//! game is appended to a PGN file at once.

pub mod config;
pub mod game;
pub mod merge;
pub mod pentanomial;
pub mod pgn;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod summary;
pub mod table;
