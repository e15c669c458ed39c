//! The text form of datagen records, for inspection and hand-made data: one `fen;score;result` line a record,
//! score in centipawns and result `1`, `0` or `-1` (win, draw, loss), both from the side to move's view. A record
//! of another rule set than `janggi` adds its name as a fourth field (`fen;score;result;janggimodern`).

use super::record::{Centipawns, GameResult, Record, RecordReader, header};
use crate::board::{Position, Rules};
use std::io::{BufRead, Read, Write};

/// The text line of a record.
pub fn line(r: &Record) -> String {
    let mut s = format!("{};{};{}", r.fen(), r.score.0, r.result.signum());
    if r.rules != Rules::JANGGI {
        s.push(';');
        s.push_str(r.rules.name);
    }
    s
}

/// Reads a text line back into a record.
pub fn parse_line(text: &str) -> Result<Record, String> {
    let fields: Vec<&str> = text.trim().split(';').collect();
    if !(3..=4).contains(&fields.len()) {
        return Err(format!("expected fen;score;result[;variant], found {} fields", fields.len()));
    }
    let rules = match fields.get(3) {
        Some(name) => name.parse::<Rules>().map_err(|e| e.to_string())?,
        None => Rules::JANGGI,
    };
    let pos = Position::from_fen(fields[0], rules).map_err(|e| format!("bad FEN: {e}"))?;
    let score: i16 =
        fields[1].trim().parse().map_err(|_| format!("bad score '{}' (whole centipawns in i16)", fields[1]))?;
    let result = fields[2]
        .trim()
        .parse::<i32>()
        .ok()
        .and_then(GameResult::from_signum)
        .ok_or_else(|| format!("bad result '{}' (1, 0 or -1)", fields[2]))?;
    if pos.halfmove_clock() > u16::from(u8::MAX) || pos.fullmove_number() > u16::from(u8::MAX) {
        return Err("halfmove clock or fullmove number above 255 (the binary record holds a byte each)".into());
    }
    Ok(Record::new(&pos, Centipawns(score), result))
}

/// Writes the records of a datagen file as text lines.
pub fn to_text<R: Read>(records: RecordReader<R>, out: &mut dyn Write) -> Result<u64, String> {
    // A reader that stops early (`| head`) ends the output quietly.
    let failed = |e: std::io::Error| if e.kind() == std::io::ErrorKind::BrokenPipe { None } else { Some(e) };
    let mut n = 0;
    for r in records {
        if let Err(e) = writeln!(out, "{}", line(&r?)) {
            return failed(e).map_or(Ok(n), |e| Err(format!("cannot write: {e}")));
        }
        n += 1;
    }
    match out.flush() {
        Err(e) => failed(e).map_or(Ok(n), |e| Err(format!("cannot write: {e}"))),
        Ok(()) => Ok(n),
    }
}

/// Packs text lines (blank lines and `#` comments skipped) into a datagen file; a bad line is an error with
/// its number.
pub fn pack(input: &mut dyn BufRead, name: &str, out: &mut dyn Write) -> Result<u64, String> {
    out.write_all(&header()).map_err(|e| format!("cannot write: {e}"))?;
    let mut n = 0;
    for (i, text) in input.lines().enumerate() {
        let text = text.map_err(|e| format!("{name}:{}: {e}", i + 1))?;
        if text.trim().is_empty() || text.trim_start().starts_with('#') {
            continue;
        }
        let r = parse_line(&text).map_err(|e| format!("{name}:{}: {e}", i + 1))?;
        out.write_all(&r.to_bytes()).map_err(|e| format!("cannot write: {e}"))?;
        n += 1;
    }
    out.flush().map_err(|e| format!("cannot write: {e}"))?;
    Ok(n)
}
