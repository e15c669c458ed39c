//! A closed stdout or stderr (`janggi bench 2>&1 | head -1`, a host that went away) ends the program quietly and at
//! once, as a command killed by SIGPIPE ends. Rust ignores SIGPIPE so that a dead engine's pipe in a match is an
//! error to handle, not the end of the referee; the price is that `println!` and `eprintln!` panic on a closed
//! stream. This hook turns exactly that panic, in whichever thread, into a quiet exit; every other panic is
//! reported as before.

use std::io::Write;
use std::panic;

/// The exit status of a command whose output was closed: 128 + SIGPIPE, what a shell reports for a command
/// killed by it.
pub const CLOSED_PIPE_EXIT: i32 = 141;

/// Installs the hook; call once, first thing.
pub fn install() {
    let report = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if is_closed_stream(text) {
            std::process::exit(CLOSED_PIPE_EXIT);
        }
        report(info);
    }));
}

/// The standard library's message for a print to a closed stream: "failed printing to stdout: Broken pipe
/// (os error 32)".
fn is_closed_stream(text: &str) -> bool {
    text.starts_with("failed printing to std") && text.contains("Broken pipe")
}

/// Standard output for the protocol loop: a host that closed it has gone away, so the program ends quietly at
/// the first line it cannot take (a search in progress would otherwise run on, unheard, until `stop`).
pub struct ExitWhenClosed<W: Write>(pub W);

impl<W: Write> Write for ExitWhenClosed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).inspect_err(exit_if_closed)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().inspect_err(exit_if_closed)
    }
}

fn exit_if_closed(e: &std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(CLOSED_PIPE_EXIT);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_a_print_to_a_closed_stream_is_quiet() {
        assert!(super::is_closed_stream("failed printing to stdout: Broken pipe (os error 32)"));
        assert!(super::is_closed_stream("failed printing to stderr: Broken pipe (os error 32)"));
        assert!(!super::is_closed_stream("failed printing to stdout: No space left on device (os error 28)"));
        assert!(!super::is_closed_stream("index out of bounds"));
    }
}
