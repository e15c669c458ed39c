//! The protocols: host commands parsed into typed values, engine messages written as lines (and both the other
//! way round, for talking to other engines), and the engine's command loop.

pub mod client;
pub mod command;
pub mod dialect;
pub mod engine;
pub mod message;
pub mod options;

pub use command::{Command, Go, ParseError, StartPosition, parse};
pub use dialect::Dialect;
pub use message::{Info, Message, Score, parse_message};
