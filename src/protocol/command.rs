//! Commands from a host to an engine: parsed from a line in any dialect, and written back as a line (the match
//! runner sends them to other engines).

use super::dialect::Dialect;
use crate::untrusted::shorten;
use std::fmt;
use std::time::Duration;

/// Where a `position` command starts. USI's `sfen` is converted to a FEN when parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    Startpos,
    Fen(String),
}

/// A side's clock as the host reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: Option<Duration>,
    pub inc: Option<Duration>,
}

/// Clocks are named by colour in UCI and USI, but relative to the side to move in UCCI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    /// Cho's and Han's clocks (UCI `wtime`/`btime`, USI `btime`/`wtime`).
    pub by_color: [Clock; 2],
    /// The side to move's and the opponent's clocks (UCCI `time`/`opptime`).
    pub own: Clock,
    pub opp: Clock,
}

/// The parameters of `go`. Every limit is optional; several limits may be given and the first reached stops.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub clocks: Clocks,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub mate: Option<u32>,
    pub byoyomi: Option<Duration>,
    pub infinite: bool,
    pub ponder: bool,
    /// Root moves to consider, as text in the dialect (checked against the position by the engine).
    pub searchmoves: Vec<String>,
    pub perft: Option<u32>,
    /// Values taken otherwise than written (a negative time read as zero), as a host's log should show them.
    pub adjusted: Vec<String>,
}

/// One command line. (`go`'s variant is the large one; a session holds one command at a time, so boxing it
/// would buy nothing.)
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// `uci`, `ucci` or `usi`: the handshake, which also selects the dialect.
    Hello(Dialect),
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    NewGame,
    Position {
        start: StartPosition,
        moves: Vec<String>,
    },
    BanMoves(Vec<String>),
    Go(Go),
    Stop,
    PonderHit,
    /// USI `gameover win|lose|draw`.
    GameOver(String),
    /// `d`: show the position.
    Display,
    /// `eval`: show the static evaluation and its terms.
    Eval,
    Quit,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    Empty,
    Unknown(String),
    Missing(&'static str),
    BadValue { what: &'static str, value: String },
    Unexpected(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty line"),
            ParseError::Unknown(word) => write!(f, "unknown command '{}'", shorten(word)),
            ParseError::Missing(what) => write!(f, "missing {what}"),
            ParseError::BadValue { what, value } => {
                write!(f, "bad value '{}' for {what}", shorten(value))
            }
            ParseError::Unexpected(word) => write!(f, "unexpected '{}'", shorten(word)),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses a duration in milliseconds (or seconds), clamping negative values (clocks that ran out) to zero and
/// saturating values too large for any clock.
fn parse_duration(what: &'static str, text: &str, seconds: bool) -> Result<Duration, ParseError> {
    let bad = || ParseError::BadValue { what, value: text.to_string() };
    let value: f64 = if text.bytes().all(|b| b.is_ascii_digit() || b == b'-' || b == b'+') {
        // Integers of any length: a string of digits too long for i64 is simply a very long time.
        match text.parse::<i64>() {
            Ok(v) => v as f64,
            Err(_) if text.trim_start_matches(['+', '-']).bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() => {
                if text.starts_with('-') {
                    0.0
                } else {
                    f64::MAX
                }
            }
            Err(_) => return Err(bad()),
        }
    } else {
        text.parse::<f64>().map_err(|_| bad())?
    };
    if value.is_nan() {
        return Err(bad());
    }
    let ms = if seconds { value * 1000.0 } else { value };
    // A century is longer than any game.
    let ms = ms.clamp(0.0, 100.0 * 365.0 * 86_400_000.0);
    Ok(Duration::from_millis(ms as u64))
}

/// [`parse_duration`] for `go`, noting a negative time that is taken as zero.
fn go_duration(
    what: &'static str,
    word: &str,
    text: &str,
    seconds: bool,
    adjusted: &mut Vec<String>,
) -> Result<Duration, ParseError> {
    let d = parse_duration(what, text, seconds)?;
    if d.is_zero() && text.trim().starts_with('-') && !text.trim().trim_start_matches(['-', '0', '.']).is_empty() {
        adjusted.push(format!("{word} {} is negative: 0 used", crate::untrusted::shorten(text)));
    }
    Ok(d)
}

/// Parses a count, saturating at `max` (so `go depth 300` is simply the deepest search we do).
fn parse_count<T: TryFrom<u64> + Copy>(what: &'static str, text: &str, max: T) -> Result<T, ParseError> {
    let bad = || ParseError::BadValue { what, value: text.to_string() };
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let value = digits.parse::<u64>().unwrap_or(u64::MAX);
    Ok(T::try_from(value).unwrap_or(max))
}

fn next_value<'a>(
    words: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
    what: &'static str,
) -> Result<&'a str, ParseError> {
    words.next().ok_or(ParseError::Missing(what))
}

/// Words of `go` that take no value or a value; anything else ends a `searchmoves` list.
const GO_KEYWORDS: [&str; 22] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "byoyomi",
    "time",
    "opptime",
    "increment",
    "oppincrement",
    "draw",
    "usemillisec",
    "nodestime",
    "sfen",
];

/// Parses one line of host input in a dialect. `millis` says whether UCCI times are in milliseconds (the
/// `usemillisec` option) rather than seconds.
pub fn parse(dialect: Dialect, line: &str, millis: bool) -> Result<Command, ParseError> {
    let mut words = line.split_ascii_whitespace().peekable();
    let first = words.next().ok_or(ParseError::Empty)?;
    let command = match first {
        "uci" | "ucci" | "usi" => Command::Hello(Dialect::by_name(first).expect("a dialect name")),
        "debug" => match words.next() {
            Some("on") | None => Command::Debug(true),
            Some("off") => Command::Debug(false),
            Some(other) => {
                return Err(ParseError::BadValue { what: "debug", value: other.to_string() });
            }
        },
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(dialect, line)?,
        "ucinewgame" | "usinewgame" => Command::NewGame,
        "position" => parse_position(dialect, &mut words)?,
        "banmoves" => Command::BanMoves(words.by_ref().map(str::to_string).collect()),
        "go" => Command::Go(parse_go(dialect, &mut words, millis)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "gameover" => Command::GameOver(next_value(&mut words, "game result")?.to_string()),
        "d" => Command::Display,
        "eval" => Command::Eval,
        "quit" => Command::Quit,
        other => return Err(ParseError::Unknown(other.to_string())),
    };
    // Commands without arguments tolerate none: trailing words would be a sign of a garbled line.
    if matches!(command, Command::IsReady | Command::Stop | Command::Quit | Command::NewGame | Command::Hello(_))
        && let Some(extra) = words.next()
    {
        return Err(ParseError::Unexpected(extra.to_string()));
    }
    Ok(command)
}

fn parse_setoption(dialect: Dialect, line: &str) -> Result<Command, ParseError> {
    let rest = line.trim_start().strip_prefix("setoption").unwrap_or("").trim();
    let words: Vec<&str> = rest.split_ascii_whitespace().collect();
    if words.first() == Some(&"name") {
        // `name <words...> [value <words...>]`: option names may contain spaces ("Move Overhead").
        let value_at = words.iter().position(|w| *w == "value");
        let name_words = &words[1..value_at.unwrap_or(words.len())];
        if name_words.is_empty() {
            return Err(ParseError::Missing("option name"));
        }
        let value = value_at.map(|i| words[i + 1..].join(" "));
        return Ok(Command::SetOption { name: name_words.join(" "), value });
    }
    if dialect == Dialect::Ucci && !words.is_empty() {
        // UCCI: `setoption <name> [<value>]`.
        let value = (words.len() > 1).then(|| words[1..].join(" "));
        return Ok(Command::SetOption { name: words[0].to_string(), value });
    }
    Err(ParseError::Missing("option name"))
}

fn parse_position<'a>(
    dialect: Dialect,
    words: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
) -> Result<Command, ParseError> {
    let start = match words.next() {
        Some("startpos") => StartPosition::Startpos,
        Some("fen") => {
            let mut fields = Vec::new();
            while let Some(&w) = words.peek() {
                if w == "moves" {
                    break;
                }
                fields.push(w);
                words.next();
            }
            if fields.is_empty() {
                return Err(ParseError::Missing("FEN"));
            }
            StartPosition::Fen(fields.join(" "))
        }
        Some("sfen") if dialect == Dialect::Usi || dialect == Dialect::Uci => {
            let mut fields = Vec::new();
            while let Some(&w) = words.peek() {
                if w == "moves" {
                    break;
                }
                fields.push(w);
                words.next();
            }
            StartPosition::Fen(sfen_to_fen(&fields.join(" ")).ok_or(ParseError::Missing("SFEN board and side"))?)
        }
        Some(other) => {
            return Err(ParseError::BadValue { what: "position", value: other.to_string() });
        }
        None => return Err(ParseError::Missing("startpos or fen")),
    };
    let moves = match words.next() {
        None => Vec::new(),
        Some("moves") => words.map(str::to_string).collect(),
        Some(other) => return Err(ParseError::Unexpected(other.to_string())),
    };
    Ok(Command::Position { start, moves })
}

fn parse_go<'a>(
    dialect: Dialect,
    words: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
    millis: bool,
) -> Result<Go, ParseError> {
    let mut go = Go::default();
    let seconds = dialect == Dialect::Ucci && !millis;
    // USI names colours the other way round: b (sente) is the first player, Cho.
    let (first, second) = if dialect == Dialect::Usi { ("b", "w") } else { ("w", "b") };
    while let Some(word) = words.next() {
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "draw" => {}
            "searchmoves" => {
                while let Some(&m) = words.peek() {
                    if GO_KEYWORDS.contains(&m) {
                        break;
                    }
                    go.searchmoves.push(m.to_string());
                    words.next();
                }
            }
            "depth" => {
                let v = next_value(words, "depth")?;
                // UCCI engines also see `go depth infinite`.
                if v == "infinite" {
                    go.infinite = true;
                } else {
                    go.depth = Some(parse_count("depth", v, u32::MAX)?);
                }
            }
            "nodes" => go.nodes = Some(parse_count("nodes", next_value(words, "nodes")?, u64::MAX)?),
            "mate" => go.mate = Some(parse_count("mate", next_value(words, "mate")?, u32::MAX)?),
            "movestogo" => go.movestogo = Some(parse_count("movestogo", next_value(words, "movestogo")?, u32::MAX)?),
            "perft" => go.perft = Some(parse_count("perft", next_value(words, "perft")?, u32::MAX)?),
            "movetime" => {
                go.movetime = Some(go_duration(
                    "movetime",
                    "movetime",
                    next_value(words, "movetime")?,
                    seconds,
                    &mut go.adjusted,
                )?)
            }
            "byoyomi" => {
                go.byoyomi =
                    Some(go_duration("byoyomi", "byoyomi", next_value(words, "byoyomi")?, false, &mut go.adjusted)?)
            }
            "time" => {
                go.clocks.own.time =
                    Some(go_duration("time", "time", next_value(words, "time")?, seconds, &mut go.adjusted)?)
            }
            "opptime" => {
                go.clocks.opp.time =
                    Some(go_duration("opptime", "opptime", next_value(words, "opptime")?, seconds, &mut go.adjusted)?)
            }
            "increment" => {
                go.clocks.own.inc = Some(go_duration(
                    "increment",
                    "increment",
                    next_value(words, "increment")?,
                    seconds,
                    &mut go.adjusted,
                )?)
            }
            "oppincrement" => {
                go.clocks.opp.inc = Some(go_duration(
                    "oppincrement",
                    "oppincrement",
                    next_value(words, "oppincrement")?,
                    seconds,
                    &mut go.adjusted,
                )?)
            }
            w if w.len() == 5 && (w.ends_with("time") || w.ends_with("_inc")) || w.ends_with("inc") && w.len() == 4 => {
                let (color_letter, field) = w.split_at(1);
                let index = if color_letter == first {
                    0
                } else if color_letter == second {
                    1
                } else {
                    return Err(ParseError::Unexpected(w.to_string()));
                };
                let what = if field == "time" { "time" } else { "increment" };
                let value = go_duration(what, w, next_value(words, what)?, false, &mut go.adjusted)?;
                match field {
                    "time" => go.clocks.by_color[index].time = Some(value),
                    "inc" => go.clocks.by_color[index].inc = Some(value),
                    _ => return Err(ParseError::Unexpected(w.to_string())),
                }
            }
            other => return Err(ParseError::Unexpected(other.to_string())),
        }
    }
    Ok(go)
}

/// USI `<board> <b|w> <hand> <ply>` to a FEN (`b`, sente, is Cho). Returns `None` without board and side.
pub fn sfen_to_fen(sfen: &str) -> Option<String> {
    let f: Vec<&str> = sfen.split_ascii_whitespace().collect();
    let board = f.first()?;
    let side = match *f.get(1)? {
        "b" => "w",
        "w" => "b",
        // Anything else is passed on for the FEN reader to reject with its own message.
        other => other,
    };
    let ply: u64 = f.get(3).and_then(|p| p.parse().ok()).unwrap_or(1).max(1);
    Some(format!("{board} {side} - - 0 {}", (ply - 1) / 2 + 1))
}

/// A FEN to USI's `<board> <b|w> - <ply>`.
pub fn fen_to_sfen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_ascii_whitespace().collect();
    let board = f.first().copied().unwrap_or("");
    let han = f.get(1) == Some(&"b");
    let fullmove: u64 = f.get(5).and_then(|n| n.parse().ok()).unwrap_or(1).max(1);
    let ply = (fullmove - 1).saturating_mul(2).saturating_add(u64::from(han) + 1);
    format!("{board} {} - {ply}", if han { "w" } else { "b" })
}

/// Formats a duration for a dialect: milliseconds, or seconds in UCCI unless `usemillisec` is on.
fn fmt_time(d: Duration, seconds: bool) -> String {
    if seconds {
        let ms = d.as_millis();
        if ms.is_multiple_of(1000) { format!("{}", ms / 1000) } else { format!("{:.3}", d.as_secs_f64()) }
    } else {
        d.as_millis().to_string()
    }
}

impl Command {
    /// The command as a line in a dialect (without newline). UCCI times are written in milliseconds when `millis`.
    pub fn to_line(&self, dialect: Dialect, millis: bool) -> String {
        match self {
            Command::Hello(d) => d.handshake().to_string(),
            Command::Debug(on) => format!("debug {}", if *on { "on" } else { "off" }),
            Command::IsReady => "isready".to_string(),
            // UCCI's short form cannot carry a name with spaces (or one spelled "name"); such names use the long form.
            Command::SetOption { name, value } => {
                match (dialect == Dialect::Ucci && !name.contains(' ') && name != "name", value) {
                    (true, Some(v)) => format!("setoption {name} {v}"),
                    (true, None) => format!("setoption {name}"),
                    (_, Some(v)) => format!("setoption name {name} value {v}"),
                    (_, None) => format!("setoption name {name}"),
                }
            }
            Command::NewGame => if dialect == Dialect::Usi { "usinewgame" } else { "ucinewgame" }.to_string(),
            Command::Position { start, moves } => {
                let mut line = match (start, dialect) {
                    (StartPosition::Startpos, _) => "position startpos".to_string(),
                    (StartPosition::Fen(fen), Dialect::Usi) => {
                        format!("position sfen {}", fen_to_sfen(fen))
                    }
                    (StartPosition::Fen(fen), _) => format!("position fen {fen}"),
                };
                if !moves.is_empty() {
                    line.push_str(" moves ");
                    line.push_str(&moves.join(" "));
                }
                line
            }
            Command::BanMoves(moves) => format!("banmoves {}", moves.join(" ")),
            Command::Go(go) => go.to_line(dialect, millis),
            Command::Stop => "stop".to_string(),
            Command::PonderHit => "ponderhit".to_string(),
            Command::GameOver(result) => format!("gameover {result}"),
            Command::Display => "d".to_string(),
            Command::Eval => "eval".to_string(),
            Command::Quit => "quit".to_string(),
        }
    }
}

impl Go {
    fn to_line(&self, dialect: Dialect, millis: bool) -> String {
        let mut w: Vec<String> = vec!["go".to_string()];
        let seconds = dialect == Dialect::Ucci && !millis;
        if self.ponder {
            w.push("ponder".into());
        }
        let (first, second) = if dialect == Dialect::Usi { ("b", "w") } else { ("w", "b") };
        for (i, letter) in [(0, first), (1, second)] {
            if let Some(t) = self.clocks.by_color[i].time {
                w.push(format!("{letter}time {}", fmt_time(t, false)));
            }
        }
        for (i, letter) in [(0, first), (1, second)] {
            if let Some(t) = self.clocks.by_color[i].inc {
                w.push(format!("{letter}inc {}", fmt_time(t, false)));
            }
        }
        let relative = [
            ("time", self.clocks.own.time),
            ("increment", self.clocks.own.inc),
            ("opptime", self.clocks.opp.time),
            ("oppincrement", self.clocks.opp.inc),
        ];
        for (word, value) in relative {
            if let Some(t) = value {
                w.push(format!("{word} {}", fmt_time(t, seconds)));
            }
        }
        if let Some(t) = self.byoyomi {
            w.push(format!("byoyomi {}", t.as_millis()));
        }
        if let Some(n) = self.movestogo {
            w.push(format!("movestogo {n}"));
        }
        if let Some(d) = self.depth {
            w.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            w.push(format!("nodes {n}"));
        }
        if let Some(t) = self.movetime {
            w.push(format!("movetime {}", fmt_time(t, seconds)));
        }
        if let Some(m) = self.mate {
            w.push(format!("mate {m}"));
        }
        if let Some(d) = self.perft {
            w.push(format!("perft {d}"));
        }
        if self.infinite {
            w.push("infinite".into());
        }
        if !self.searchmoves.is_empty() {
            w.push(format!("searchmoves {}", self.searchmoves.join(" ")));
        }
        w.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_with_every_uci_limit() {
        let cmd = parse(Dialect::Uci, "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 300 nodes 99999999999999999999999 movetime -5 mate 3", false).unwrap();
        let Command::Go(go) = cmd else { panic!() };
        assert_eq!(go.clocks.by_color[0].time, Some(Duration::from_millis(1000)));
        assert_eq!(go.clocks.by_color[1].inc, Some(Duration::from_millis(20)));
        assert_eq!(go.depth, Some(300));
        assert_eq!(go.nodes, Some(u64::MAX));
        assert_eq!(go.movetime, Some(Duration::ZERO));
        assert_eq!(go.mate, Some(3));
    }

    #[test]
    fn usi_btime_is_the_first_player() {
        let Command::Go(go) = parse(Dialect::Usi, "go btime 5000 wtime 7000 byoyomi 1000", false).unwrap() else {
            panic!()
        };
        assert_eq!(go.clocks.by_color[0].time, Some(Duration::from_millis(5000)));
        assert_eq!(go.clocks.by_color[1].time, Some(Duration::from_millis(7000)));
        assert_eq!(go.byoyomi, Some(Duration::from_millis(1000)));
    }

    #[test]
    fn ucci_times_are_seconds_unless_millis() {
        let Command::Go(go) = parse(Dialect::Ucci, "go time 30 increment 1 opptime 20", false).unwrap() else {
            panic!()
        };
        assert_eq!(go.clocks.own.time, Some(Duration::from_secs(30)));
        assert_eq!(go.clocks.opp.time, Some(Duration::from_secs(20)));
        let Command::Go(go) = parse(Dialect::Ucci, "go time 30", true).unwrap() else { panic!() };
        assert_eq!(go.clocks.own.time, Some(Duration::from_millis(30)));
    }

    #[test]
    fn option_names_keep_their_spaces() {
        assert_eq!(
            parse(Dialect::Uci, "setoption name Move Overhead value 100", false).unwrap(),
            Command::SetOption { name: "Move Overhead".into(), value: Some("100".into()) }
        );
        assert_eq!(
            parse(Dialect::Ucci, "setoption hashsize 64", false).unwrap(),
            Command::SetOption { name: "hashsize".into(), value: Some("64".into()) }
        );
        assert_eq!(
            parse(Dialect::Uci, "setoption name Clear Hash", false).unwrap(),
            Command::SetOption { name: "Clear Hash".into(), value: None }
        );
    }

    #[test]
    fn position_with_a_bare_moves_word() {
        assert_eq!(
            parse(Dialect::Uci, "position startpos moves", false).unwrap(),
            Command::Position { start: StartPosition::Startpos, moves: vec![] }
        );
    }

    #[test]
    fn sfen_and_fen_convert_both_ways() {
        let fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/4K4/RNBA1AB1R b - - 0 1";
        let sfen = fen_to_sfen(fen);
        assert_eq!(sfen, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/4K4/RNBA1AB1R w - 2");
        assert_eq!(sfen_to_fen(&sfen).unwrap(), fen);
    }

    #[test]
    fn commands_write_back_to_what_they_were_parsed_from() {
        for (dialect, line) in [
            (Dialect::Uci, "position fen 4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1 moves e2e2"),
            (Dialect::Uci, "go wtime 1000 btime 2000 winc 10 binc 10"),
            (Dialect::Usi, "go btime 1000 wtime 2000 byoyomi 100"),
            (Dialect::Ucci, "setoption hashsize 64"),
            (Dialect::Uci, "setoption name Skill Level value 3"),
            (Dialect::Uci, "go depth 5 searchmoves h1g3 b1c3"),
        ] {
            let cmd = parse(dialect, line, false).unwrap();
            assert_eq!(cmd.to_line(dialect, false), line);
        }
    }
}
