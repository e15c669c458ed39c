//! What the engine needs from the machine it runs on: a clock, threads and files by name. A native build takes
//! them from the standard library; a WebAssembly build for a browser (`target_arch = "wasm32"`) gets them from
//! the page's script through a handful of imports (`web.rs`), because there the standard library has no threads,
//! no clock and no file system.
//!
//! The engine core (board, evaluation, search, protocol session) reaches the machine only through this module.

pub mod clock;
pub mod files;
pub mod thread;

#[cfg(target_arch = "wasm32")]
pub mod web;
