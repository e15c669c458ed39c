//! The `janggi` command: with no subcommand, the protocol loop on stdin/stdout; otherwise a tool. This file only
//! starts the logger, parses the command line and hands it to `cli`.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::closed_pipe::install();
    // Logs go to stderr: stdout carries the protocol alone.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    cli::run(cli::Cli::from_env())
}
