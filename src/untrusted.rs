//! Text from outside the program: lines read with a cap on their length, and text shortened before it is echoed
//! in an error message. Every reader of untrusted lines (protocol input, other engines' output) uses these.

use std::io::BufRead;

/// How much of a text an error message echoes: a hostile line may be a megabyte long.
const ECHO_LIMIT: usize = 60;

/// Cuts what we echo back in error messages.
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= ECHO_LIMIT {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(ECHO_LIMIT).collect::<String>())
    }
}

/// What one capped read found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A whole line (its newline kept, if it had one) is in the buffer.
    Line,
    /// The line was longer than the cap: its first `cap` bytes are in the buffer, the rest was drained.
    TooLong,
    /// The end of the input, with nothing read.
    Eof,
}

/// Reads one line into `buf`, keeping at most `cap` bytes of it, so that input without newlines cannot exhaust
/// memory. The rest of a longer line is read and dropped, so the next call starts at the next line.
pub fn read_line_capped(input: &mut impl BufRead, buf: &mut Vec<u8>, cap: usize) -> std::io::Result<LineRead> {
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(match (any, too_long) {
                (false, _) => LineRead::Eof,
                (true, true) => LineRead::TooLong,
                (true, false) => LineRead::Line,
            });
        }
        any = true;
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..used.min(room)]);
        too_long |= used > room;
        input.consume(used);
        if done {
            return Ok(if too_long { LineRead::TooLong } else { LineRead::Line });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    #[test]
    fn long_lines_are_cut_and_the_rest_kept() {
        const CAP: usize = 4096;
        let mut text = vec![b'x'; CAP * 3];
        text.extend_from_slice(b"\nreadyok\npartial");
        let mut reader = BufReader::with_capacity(1000, &text[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line_capped(&mut reader, &mut buf, CAP).unwrap(), LineRead::TooLong);
        assert_eq!(buf.len(), CAP);
        buf.clear();
        assert_eq!(read_line_capped(&mut reader, &mut buf, CAP).unwrap(), LineRead::Line);
        assert_eq!(buf, b"readyok\n");
        buf.clear();
        assert_eq!(read_line_capped(&mut reader, &mut buf, CAP).unwrap(), LineRead::Line);
        assert_eq!(buf, b"partial");
        buf.clear();
        assert_eq!(read_line_capped(&mut reader, &mut buf, CAP).unwrap(), LineRead::Eof);
    }

    #[test]
    fn a_line_of_exactly_the_cap_is_whole() {
        let mut reader = BufReader::new(&b"abc\n"[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line_capped(&mut reader, &mut buf, 4).unwrap(), LineRead::Line);
        assert_eq!(buf, b"abc\n");
    }

    #[test]
    fn shortening_keeps_short_text() {
        assert_eq!(shorten("go depth 3"), "go depth 3");
        assert!(shorten(&"y".repeat(1000)).len() < 70);
    }
}
