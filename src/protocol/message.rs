//! Messages from an engine to its host: written by our engine, and parsed back by the match runner and the
//! analysis tool when they drive other engines.

use super::dialect::Dialect;
use crate::board::{Move, Notation};
use crate::score::Score;
use std::fmt;

/// Whether a reported score is exact or a bound from a failed aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Lower,
    Upper,
}

/// An `info` line. Every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub bound: Option<Bound>,
    /// Win/draw/loss in permille.
    pub wdl: Option<(u32, u32, u32)>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub time_ms: Option<u64>,
    pub currmove: Option<Move>,
    pub currmovenumber: Option<u32>,
    pub pv: Vec<Move>,
    /// Free text (`info string ...`); when present the line carries nothing else.
    pub string: Option<String>,
}

/// The type of an engine option, with its default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check { default: bool },
    Spin { default: i64, min: i64, max: i64 },
    Combo { default: String, vars: Vec<String> },
    Button,
    String { default: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: String,
    pub kind: OptionKind,
}

/// One line of engine output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    IdName(String),
    IdAuthor(String),
    Option(OptionSpec),
    HandshakeOk,
    ReadyOk,
    Info(Info),
    /// `bestmove`; `None` when there is no move (`(none)`, or `resign` in USI).
    BestMove {
        best: Option<Move>,
        ponder: Option<Move>,
    },
    /// UCCI's answer to `quit`.
    Bye,
    /// USI's `bestmove win` (declaring a win) and anything else we do not model.
    Other(String),
}

impl Info {
    pub fn string(text: impl Into<String>) -> Info {
        Info { string: Some(text.into()), ..Info::default() }
    }
}

/// A message formatted for a dialect.
pub struct Line<'a>(pub &'a Message, pub Dialect);

impl Message {
    pub fn line(&self, dialect: Dialect) -> Line<'_> {
        Line(self, dialect)
    }
}

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Line(msg, dialect) = *self;
        let notation = dialect.notation();
        match msg {
            Message::IdName(name) => write!(f, "id name {name}"),
            Message::IdAuthor(author) => write!(f, "id author {author}"),
            Message::Option(spec) => write_option(f, spec, dialect),
            Message::HandshakeOk => f.write_str(dialect.handshake_ok()),
            Message::ReadyOk => f.write_str("readyok"),
            Message::Info(info) => write_info(f, info, dialect),
            Message::BestMove { best, ponder } => {
                match best {
                    Some(m) => write!(f, "bestmove {}", m.display(notation))?,
                    None if dialect == Dialect::Usi => f.write_str("bestmove resign")?,
                    None => f.write_str("bestmove (none)")?,
                }
                if let (Some(_), Some(p)) = (best, ponder) {
                    write!(f, " ponder {}", p.display(notation))?;
                }
                Ok(())
            }
            Message::Bye => f.write_str("bye"),
            Message::Other(text) => f.write_str(text),
        }
    }
}

fn write_option(f: &mut fmt::Formatter<'_>, spec: &OptionSpec, dialect: Dialect) -> fmt::Result {
    // UCCI writes `option <name> type ...` with no spaces in names.
    if dialect == Dialect::Ucci {
        write!(f, "option {} type ", spec.name.replace(' ', "_"))?;
    } else {
        write!(f, "option name {} type ", spec.name)?;
    }
    match &spec.kind {
        OptionKind::Check { default } => write!(f, "check default {default}"),
        OptionKind::Spin { default, min, max } => {
            write!(f, "spin default {default} min {min} max {max}")
        }
        OptionKind::Combo { default, vars } => {
            write!(f, "combo default {default}")?;
            for v in vars {
                write!(f, " var {v}")?;
            }
            Ok(())
        }
        OptionKind::Button => f.write_str("button"),
        OptionKind::String { default } => {
            write!(f, "string default {}", if default.is_empty() { "<empty>" } else { default })
        }
    }
}

fn write_info(f: &mut fmt::Formatter<'_>, info: &Info, dialect: Dialect) -> fmt::Result {
    if let Some(text) = &info.string {
        return write!(f, "info string {text}");
    }
    f.write_str("info")?;
    if let Some(d) = info.depth {
        write!(f, " depth {d}")?;
    }
    if let Some(d) = info.seldepth {
        write!(f, " seldepth {d}")?;
    }
    if let Some(n) = info.multipv {
        write!(f, " multipv {n}")?;
    }
    if let Some(score) = info.score {
        match (score, dialect) {
            (Score::Cp(cp), Dialect::Ucci) => write!(f, " score {cp}")?,
            (Score::Cp(cp), _) => write!(f, " score cp {cp}")?,
            // USI counts mates in plies.
            (Score::Mate(m), Dialect::Usi) => write!(f, " score mate {}", mate_plies(m))?,
            (Score::Mate(m), _) => write!(f, " score mate {m}")?,
        }
        match info.bound {
            Some(Bound::Lower) => f.write_str(" lowerbound")?,
            Some(Bound::Upper) => f.write_str(" upperbound")?,
            None => {}
        }
    }
    if let Some((w, d, l)) = info.wdl {
        write!(f, " wdl {w} {d} {l}")?;
    }
    if let Some(n) = info.nodes {
        write!(f, " nodes {n}")?;
    }
    if let Some(n) = info.nps {
        write!(f, " nps {n}")?;
    }
    if let Some(h) = info.hashfull {
        write!(f, " hashfull {h}")?;
    }
    if let Some(t) = info.time_ms {
        write!(f, " time {t}")?;
    }
    if let Some(m) = info.currmove {
        write!(f, " currmove {}", m.display(dialect.notation()))?;
    }
    if let Some(n) = info.currmovenumber {
        write!(f, " currmovenumber {n}")?;
    }
    if !info.pv.is_empty() {
        f.write_str(" pv")?;
        for m in &info.pv {
            write!(f, " {}", m.display(dialect.notation()))?;
        }
    }
    Ok(())
}

/// Mate in `moves` moves as plies: a mate we give in n moves takes 2n-1 plies, being mated in n takes 2n.
pub fn mate_plies(moves: i32) -> i32 {
    if moves > 0 { 2 * moves - 1 } else { 2 * moves }
}

/// Plies to mate back to moves (the inverse of `mate_plies`).
pub fn mate_moves(plies: i32) -> i32 {
    if plies > 0 { (plies + 1) / 2 } else { plies / 2 }
}

/// Why an engine's line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageError(pub String);

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MessageError {}

/// Reads one line of engine output. Lines that are no known message come back as `Message::Other`.
pub fn parse_message(dialect: Dialect, line: &str) -> Result<Message, MessageError> {
    let notation = dialect.notation();
    let mut words = line.split_ascii_whitespace();
    let Some(first) = words.next() else {
        return Ok(Message::Other(String::new()));
    };
    let rest = || line.trim_start()[first.len()..].trim().to_string();
    Ok(match first {
        "id" => match words.next() {
            Some("name") => Message::IdName(rest()["name".len()..].trim().to_string()),
            Some("author") => Message::IdAuthor(rest()["author".len()..].trim().to_string()),
            _ => Message::Other(line.to_string()),
        },
        "uciok" | "ucciok" | "usiok" => Message::HandshakeOk,
        "readyok" => Message::ReadyOk,
        "bye" => Message::Bye,
        "bestmove" => {
            let best = match words.next() {
                None => return Err(MessageError("bestmove without a move".into())),
                Some("(none)") | Some("resign") | Some("0000") | Some("null") | Some("none") => None,
                Some("win") => return Ok(Message::Other(line.to_string())),
                Some(m) => Some(parse_move(m, notation)?),
            };
            let ponder = match (words.next(), words.next()) {
                (Some("ponder"), Some(m)) => parse_move(m, notation).ok(),
                _ => None,
            };
            Message::BestMove { best, ponder }
        }
        "info" => Message::Info(parse_info(line, dialect)?),
        "option" => match parse_option(line) {
            Some(spec) => Message::Option(spec),
            None => Message::Other(line.to_string()),
        },
        _ => Message::Other(line.to_string()),
    })
}

fn parse_move(text: &str, notation: Notation) -> Result<Move, MessageError> {
    Move::parse(text, notation)
        .ok_or_else(|| MessageError(format!("unreadable move '{}'", crate::untrusted::shorten(text))))
}

fn parse_info(line: &str, dialect: Dialect) -> Result<Info, MessageError> {
    let mut info = Info::default();
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let num = |i: usize| -> Option<i64> { words.get(i).and_then(|w| w.parse::<i64>().ok()) };
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "string" => {
                let start = line.find("string").map_or(line.len(), |p| p + "string".len());
                info.string = Some(line[start..].trim().to_string());
                return Ok(info);
            }
            "depth" => info.depth = num(i + 1).map(|v| v.max(0) as u32),
            "seldepth" => info.seldepth = num(i + 1).map(|v| v.max(0) as u32),
            "multipv" => info.multipv = num(i + 1).map(|v| v.max(0) as u32),
            "nodes" => info.nodes = num(i + 1).map(|v| v.max(0) as u64),
            "nps" => info.nps = num(i + 1).map(|v| v.max(0) as u64),
            "hashfull" => info.hashfull = num(i + 1).map(|v| v.max(0) as u32),
            "time" => info.time_ms = num(i + 1).map(|v| v.max(0) as u64),
            "currmovenumber" => info.currmovenumber = num(i + 1).map(|v| v.max(0) as u32),
            "currmove" => info.currmove = words.get(i + 1).and_then(|m| Move::parse(m, dialect.notation())),
            "score" => {
                match words.get(i + 1) {
                    Some(&"cp") => {
                        info.score = num(i + 2).map(|v| Score::Cp(v as i32));
                        i += 1;
                    }
                    Some(&"mate") => {
                        let v = num(i + 2).unwrap_or(0) as i32;
                        info.score = Some(Score::Mate(if dialect == Dialect::Usi { mate_moves(v) } else { v }));
                        i += 1;
                    }
                    // UCCI writes a bare number.
                    Some(w) => {
                        if let Ok(v) = w.parse::<i32>() {
                            info.score = Some(Score::Cp(v));
                        }
                    }
                    None => {}
                }
            }
            "lowerbound" => info.bound = Some(Bound::Lower),
            "upperbound" => info.bound = Some(Bound::Upper),
            "wdl" => {
                if let (Some(w), Some(d), Some(l)) = (num(i + 1), num(i + 2), num(i + 3)) {
                    info.wdl = Some((w.max(0) as u32, d.max(0) as u32, l.max(0) as u32));
                }
            }
            "pv" => {
                for w in &words[i + 1..] {
                    match Move::parse(w, dialect.notation()) {
                        Some(m) => info.pv.push(m),
                        None => break,
                    }
                }
                break;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(info)
}

/// Reads an `option` line. UCCI names come back as written (with underscores for spaces).
fn parse_option(line: &str) -> Option<OptionSpec> {
    let body = line.trim_start().strip_prefix("option")?.trim_start();
    let body = body.strip_prefix("name ").unwrap_or(body);
    let type_at = body.find(" type ")?;
    let name = body[..type_at].trim().to_string();
    let spec: Vec<&str> = body[type_at + " type ".len()..].split_ascii_whitespace().collect();
    let value_of = |key: &str| spec.iter().position(|w| *w == key).and_then(|i| spec.get(i + 1)).copied();
    let kind = match *spec.first()? {
        "check" => OptionKind::Check { default: value_of("default") == Some("true") },
        "spin" => OptionKind::Spin {
            default: value_of("default")?.parse().ok()?,
            min: value_of("min").and_then(|v| v.parse().ok()).unwrap_or(i64::MIN),
            max: value_of("max").and_then(|v| v.parse().ok()).unwrap_or(i64::MAX),
        },
        "combo" => OptionKind::Combo {
            default: value_of("default").unwrap_or("").to_string(),
            vars: spec.windows(2).filter(|w| w[0] == "var").map(|w| w[1].to_string()).collect(),
        },
        "button" => OptionKind::Button,
        "string" => OptionKind::String { default: value_of("default").unwrap_or("").to_string() },
        _ => return None,
    };
    Some(OptionSpec { name, kind })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_round_trip_in_each_dialect() {
        let info = Info {
            depth: Some(12),
            seldepth: Some(20),
            multipv: Some(1),
            score: Some(Score::Mate(-3)),
            nodes: Some(12345),
            nps: Some(1000000),
            hashfull: Some(17),
            time_ms: Some(12),
            pv: vec![Move::parse("h1g3", Notation::Uci).unwrap(), Move::parse("e9e9", Notation::Uci).unwrap()],
            ..Info::default()
        };
        for dialect in Dialect::ALL {
            let text = Message::Info(info.clone()).line(dialect).to_string();
            assert_eq!(parse_message(dialect, &text).unwrap(), Message::Info(info.clone()), "{text}");
        }
        assert!(Message::Info(info.clone()).line(Dialect::Usi).to_string().contains("score mate -6"));
    }

    #[test]
    fn options_round_trip() {
        let spec = OptionSpec {
            name: "UCI_Variant".into(),
            kind: OptionKind::Combo { default: "janggi".into(), vars: vec!["janggi".into(), "janggimodern".into()] },
        };
        for dialect in Dialect::ALL {
            let text = Message::Option(spec.clone()).line(dialect).to_string();
            assert_eq!(parse_message(dialect, &text).unwrap(), Message::Option(spec.clone()));
        }
        let spin =
            OptionSpec { name: "Move Overhead".into(), kind: OptionKind::Spin { default: 30, min: 0, max: 5000 } };
        let text = Message::Option(spin.clone()).line(Dialect::Ucci).to_string();
        assert_eq!(text, "option Move_Overhead type spin default 30 min 0 max 5000");
    }

    #[test]
    fn no_move_is_none_or_resign() {
        let msg = Message::BestMove { best: None, ponder: None };
        assert_eq!(msg.line(Dialect::Uci).to_string(), "bestmove (none)");
        assert_eq!(msg.line(Dialect::Usi).to_string(), "bestmove resign");
        assert_eq!(parse_message(Dialect::Usi, "bestmove resign").unwrap(), msg);
    }
}
