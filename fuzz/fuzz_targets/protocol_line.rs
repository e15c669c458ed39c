//! Any line, in any dialect, parses to a command or an error; a command writes back to a line that parses again.
#![no_main]

use janggi::protocol::{Dialect, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for dialect in Dialect::ALL {
        if let Ok(cmd) = parse(dialect, &text, false) {
            let line = cmd.to_line(dialect, false);
            let _ = parse(dialect, &line, false);
        }
    }
});
