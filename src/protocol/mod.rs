//! The protocols: host commands parsed into typed values, engine messages written as lines (and both the other
//! way round, for talking to other engines), and the session that turns a host's lines into calls on the engine.

#[cfg(feature = "tools")]
pub mod client;
pub mod command;
pub mod dialect;
pub mod message;
pub mod options;
pub mod session;

pub use command::{Command, Go, ParseError, StartPosition, parse};
pub use dialect::Dialect;
pub use message::{Info, Message, parse_message};
