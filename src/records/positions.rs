//! Positions given as text lines: a FEN, or an EPD record (the FEN's first four fields followed by operations
//! such as `id "name";` or `hmvc 3;`). Match openings and the analysis tool both read them.

use crate::board::{Position, Rules};
use std::path::Path;

/// A position read from one line, with the EPD `id` if it had one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine {
    /// The position as a full FEN (EPD move counters filled in from `hmvc`/`fmvn`, or 0 and 1).
    pub fen: String,
    pub id: Option<String>,
}

/// Reads one FEN or EPD line and checks it under `rules`.
pub fn parse_line(line: &str, rules: Rules) -> Result<PositionLine, String> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    if words.len() < 2 {
        return Err(format!("'{}' is neither a FEN nor an EPD line", crate::untrusted::shorten(line)));
    }
    let is_count = |i: usize| words.get(i).is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()));
    let (fen, id) = if words.len() <= 6 && !line.contains(';') && (words.len() < 5 || (is_count(4) && is_count(5))) {
        (words.join(" "), None)
    } else {
        // EPD: four fields, then operations separated by semicolons.
        let fields = words.iter().take(4).copied().collect::<Vec<_>>();
        let rest = words.iter().skip(4).copied().collect::<Vec<_>>().join(" ");
        let mut hmvc = "0".to_string();
        let mut fmvn = "1".to_string();
        let mut id = None;
        for op in rest.split(';') {
            let op = op.trim();
            let (code, operand) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
            let operand = operand.trim();
            match code {
                "id" => id = Some(operand.trim_matches('"').to_string()),
                "hmvc" => hmvc = operand.to_string(),
                "fmvn" => fmvn = operand.to_string(),
                _ => {}
            }
        }
        let mut fen = fields.join(" ");
        for _ in fields.len()..4 {
            fen.push_str(" -");
        }
        (format!("{fen} {hmvc} {fmvn}"), id)
    };
    let pos = Position::from_fen(&fen, rules)
        .map_err(|e| format!("bad position '{}': {e}", crate::untrusted::shorten(&fen)))?;
    Ok(PositionLine { fen: pos.fen(), id })
}

/// Reads a file of FEN or EPD lines (blank lines and lines starting with `#` are skipped). Any bad line is an
/// error naming its line number: a match must not find out in game 300 that its opening 37 is broken.
pub fn load(path: &Path, rules: Rules) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read openings '{}': {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let p = parse_line(line, rules).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        let pos = Position::from_fen(&p.fen, rules).map_err(|e| e.to_string())?;
        if pos.game_end().is_some() {
            return Err(format!("{}:{}: the game is already over in this position", path.display(), i + 1));
        }
        out.push(p.fen);
    }
    if out.is_empty() {
        return Err(format!("openings '{}' holds no position", path.display()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;

    #[test]
    fn fen_and_epd_lines() {
        let p = parse_line(START_FEN, Rules::JANGGI).unwrap();
        assert_eq!(p, PositionLine { fen: START_FEN.to_string(), id: None });
        let epd = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - id \"start\"; hmvc 3;";
        let p = parse_line(epd, Rules::JANGGI).unwrap();
        assert_eq!(p.id.as_deref(), Some("start"));
        assert!(p.fen.ends_with("w - - 3 1"), "{}", p.fen);
        let short = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b";
        assert!(parse_line(short, Rules::JANGGI).unwrap().fen.contains(" b "));
        assert!(parse_line("hello", Rules::JANGGI).is_err());
        assert!(parse_line("9/9/9 w - - 0 1", Rules::JANGGI).is_err());
    }
}
