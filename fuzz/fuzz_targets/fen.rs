//! Any text given as a FEN is either read into a position whose FEN reads back the same, or rejected.
#![no_main]

use janggi::board::{Position, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = Position::from_fen(&text, Rules::JANGGI) {
        let again = Position::from_fen(&pos.fen(), Rules::JANGGI).expect("our own FEN reads back");
        assert_eq!(again.fen(), pos.fen());
        let _ = pos.legal_moves();
    }
});
