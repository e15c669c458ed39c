//! PGN for Janggi as Fairy-Stockfish hosts write it: `Variant`, `FEN` and `SetUp` tags, moves in coordinate
//! notation (`h1g3`, a pass as `e2e2`), Cho as White. Games are written one at a time and appended, and read
//! back for `--resume`, for analysis, and to check that a match's games replay under our rules.

use super::game::{GameRecord, PlayedMove};
use crate::board::{Color, Move, Notation, Position, Rules, START_FEN};
use crate::protocol::message::Score;
use std::io::Write;
use std::path::Path;
use std::time::SystemTime;

/// Movetext lines are wrapped before this column, as the PGN standard asks.
const LINE_WIDTH: usize = 79;

/// One game read from PGN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    /// Move tokens as written (comments, numbers, variations and NAGs removed).
    pub moves: Vec<String>,
    /// The result token at the end of the movetext, if there was one.
    pub result: Option<String>,
}

/// A PGN syntax error with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PgnError {}

/// The `Variant` tag of a rule set: `Janggi` as the hosts write it, otherwise the rule set's own name.
pub fn variant_tag(rules: Rules) -> String {
    if rules == Rules::JANGGI { "Janggi".to_string() } else { rules.name.to_string() }
}

/// `YYYY.MM.DD` (UTC) of a time.
pub fn date_tag(time: SystemTime) -> String {
    let days = time.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A move's comment as cutechess-cli writes it: the mover's score in pawns (or `+M3`) over the depth, and the
/// time used.
fn move_comment(m: &PlayedMove) -> String {
    let time = format!("{:.3}s", m.time.as_secs_f64());
    match m.score {
        Some(Score::Cp(cp)) => format!("{{{:+.2}/{} {time}}}", f64::from(cp) / 100.0, m.depth.unwrap_or(0)),
        Some(Score::Mate(n)) => {
            format!("{{{}M{}/{} {time}}}", if n > 0 { "+" } else { "-" }, n.abs(), m.depth.unwrap_or(0))
        }
        None => format!("{{{time}}}"),
    }
}

/// The game as PGN text, ending with a blank line.
pub fn format_game(record: &GameRecord, event: &str, time_control: &str) -> String {
    let result = record.result_tag();
    let tags = [
        ("Event", event.to_string()),
        ("Site", "?".to_string()),
        ("Date", date_tag(record.started)),
        ("Round", record.round.to_string()),
        ("White", record.names[0].clone()),
        ("Black", record.names[1].clone()),
        ("Result", result.to_string()),
        ("Variant", variant_tag(record.rules)),
        ("FEN", record.opening.clone()),
        ("SetUp", "1".to_string()),
        ("TimeControl", time_control.to_string()),
        ("Termination", record.termination.tag().to_string()),
        ("PlyCount", record.moves.len().to_string()),
    ];
    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    out.push('\n');

    let fields: Vec<&str> = record.opening.split_ascii_whitespace().collect();
    let mut number: u32 = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1).max(1);
    let mut side = if fields.get(1) == Some(&"b") { Color::Han } else { Color::Cho };
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        if side == Color::Cho {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.mv.display(Notation::Uci).to_string());
        tokens.push(move_comment(m));
        if side == Color::Han {
            number += 1;
        }
        side = !side;
    }
    tokens.push(format!("{{{}}}", record.detail.replace('}', ")")));
    tokens.push(result.to_string());

    let mut line = String::new();
    for word in tokens.iter().flat_map(|t| t.split(' ')) {
        if !line.is_empty() && line.len() + 1 + word.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Appends a game to a PGN file and flushes it to disk, so that no finished game is lost if the match stops.
pub fn append(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    file.write_all(text.as_bytes())?;
    file.flush()?;
    file.sync_data()
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The rule set of the `Variant` tag (janggi when there is none).
    pub fn rules(&self) -> Result<Rules, String> {
        match self.tag("Variant") {
            None => Ok(Rules::JANGGI),
            Some(v) => Rules::by_name(v).ok_or_else(|| format!("unknown variant '{v}'")),
        }
    }

    /// The starting position (the `FEN` tag, or the standard start).
    pub fn start(&self) -> Result<Position, String> {
        let rules = self.rules()?;
        let fen = self.tag("FEN").unwrap_or(START_FEN);
        Position::from_fen(fen, rules).map_err(|e| format!("bad FEN tag: {e}"))
    }

    /// Plays the moves from the start under our rules: the final position and the moves, or the first move
    /// that is not legal. A pass may also be written `pass` or `@@@@`.
    pub fn replay(&self) -> Result<(Position, Vec<Move>), String> {
        let mut pos = self.start()?;
        let mut moves = Vec::new();
        for (i, text) in self.moves.iter().enumerate() {
            let m = if text == "pass" || text == "@@@@" {
                Some(Move::pass(pos.general(pos.side_to_move())))
            } else {
                Move::parse(text, Notation::Uci)
            };
            match m.filter(|m| pos.is_legal(*m)) {
                Some(m) => {
                    pos.make_move(m);
                    moves.push(m);
                }
                None => return Err(format!("ply {} '{text}' is not legal in {}", i + 1, pos.fen())),
            }
        }
        Ok((pos, moves))
    }
}

fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Reads every game of a PGN text. Comments, variations, NAGs and move numbers are skipped.
pub fn parse_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_movetext = false;
    let mut comment_from: Option<usize> = None;
    let mut variation_depth = 0usize;
    let mut variation_from = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let mut line = raw.trim_end_matches('\r');
        // Inside a comment that began on an earlier line: skip to its end.
        if comment_from.is_some() {
            match line.find('}') {
                Some(end) => {
                    line = &line[end + 1..];
                    comment_from = None;
                }
                None => continue,
            }
        }
        if line.starts_with('%') {
            continue;
        }
        let trimmed = line.trim();
        if trimmed.starts_with('[') && variation_depth == 0 {
            if in_movetext {
                // A tag after movetext without a result token starts the next game.
                games.push(std::mem::take(&mut game));
                in_movetext = false;
            }
            game.tags.push(parse_tag(trimmed).ok_or_else(|| PgnError {
                line: line_no,
                message: format!("bad tag '{}'", crate::protocol::command::shorten(trimmed)),
            })?);
            continue;
        }
        let mut rest = line;
        while !rest.is_empty() {
            let c = rest.chars().next().unwrap_or(' ');
            if c.is_whitespace() {
                rest = &rest[c.len_utf8()..];
                continue;
            }
            match c {
                '{' => match rest.find('}') {
                    Some(end) => rest = &rest[end + 1..],
                    None => {
                        comment_from = Some(line_no);
                        break;
                    }
                },
                ';' => break,
                '(' => {
                    if variation_depth == 0 {
                        variation_from = line_no;
                    }
                    variation_depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    variation_depth = variation_depth.saturating_sub(1);
                    rest = &rest[1..];
                }
                // A stray closing brace is skipped like whitespace.
                '}' => rest = &rest[1..],
                _ => {
                    let end = rest.find(|ch: char| ch.is_whitespace() || "{};()".contains(ch)).unwrap_or(rest.len());
                    let token = &rest[..end];
                    rest = &rest[end..];
                    if variation_depth > 0 {
                        continue;
                    }
                    in_movetext = true;
                    if is_result(token) {
                        game.result = Some(token.to_string());
                        games.push(std::mem::take(&mut game));
                        in_movetext = false;
                        continue;
                    }
                    if token.starts_with('$') {
                        continue;
                    }
                    // Move numbers: "12." and "12...", possibly glued to the move ("12.h1g3").
                    let token = token.trim_start_matches(|ch: char| ch.is_ascii_digit() && token.contains('.'));
                    let token = token.trim_start_matches('.');
                    let token = token.trim_end_matches(['!', '?', '+', '#']);
                    if !token.is_empty() {
                        game.moves.push(token.to_string());
                    }
                }
            }
        }
    }
    if let Some(line) = comment_from {
        return Err(PgnError { line, message: "comment never closed".into() });
    }
    if variation_depth > 0 {
        return Err(PgnError { line: variation_from, message: "variation never closed".into() });
    }
    if !game.tags.is_empty() || !game.moves.is_empty() {
        games.push(game);
    }
    Ok(games)
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.push(chars.next()?);
        } else {
            out.push(c);
        }
    }
    Some((name.to_string(), out))
}

/// Reads a PGN file.
pub fn read_file(path: &Path) -> Result<Vec<PgnGame>, String> {
    let text = std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    parse_games(&String::from_utf8_lossy(&text)).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Outcome, Reason};
    use crate::matches::game::Termination;
    use std::time::Duration;

    proptest::proptest! {
        #[test]
        fn the_reader_never_panics(text in "[\\[\\]{}();%$0-9a-j. \"\n\\\\/*@+!?#-]{0,300}|\\PC{0,100}") {
            if let Ok(games) = parse_games(&text) {
                for g in games {
                    let _ = g.replay();
                }
            }
            let _ = crate::matches::openings::parse_line(&text, Rules::JANGGI);
        }
    }

    #[test]
    fn dates() {
        assert_eq!(date_tag(SystemTime::UNIX_EPOCH), "1970.01.01");
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_709_210_096); // 2024-02-29 12:34:56 UTC
        assert_eq!(date_tag(t), "2024.02.29");
    }

    #[test]
    fn a_written_game_reads_back() {
        let mut pos = Position::from_fen(START_FEN, Rules::JANGGI).unwrap();
        let mut moves = Vec::new();
        for (text, score) in [("h1g3", Some(Score::Cp(12))), ("e9e9", Some(Score::Mate(-3))), ("e2e2", None)] {
            let m = Move::parse(text, Notation::Uci).unwrap();
            assert!(pos.is_legal(m));
            pos.make_move(m);
            moves.push(PlayedMove { mv: m, score, depth: Some(7), time: Duration::from_millis(31) });
        }
        let record = GameRecord {
            round: 3,
            names: ["a \"quoted\" name".into(), "b".into()],
            opening: START_FEN.into(),
            rules: Rules::JANGGI,
            moves,
            outcome: Outcome::Win(Color::Han),
            termination: Termination::Rules(Reason::DoublePass),
            detail: "two passes in a row, Han wins on count (72 to 73.5)".into(),
            started: SystemTime::now(),
            setup: Duration::ZERO,
            wall: Duration::ZERO,
            thinking: Duration::ZERO,
        };
        let text = format_game(&record, "test", "1+0.01");
        assert!(text.contains("1. h1g3 {+0.12/7 0.031s} e9e9 {-M3/7 0.031s} 2. e2e2 {0.031s}"), "{text}");
        let games = parse_games(&(text.clone() + &text)).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("White"), Some("a \"quoted\" name"));
        assert_eq!(g.tag("Variant"), Some("Janggi"));
        assert_eq!(g.tag("Termination"), Some("normal"));
        assert_eq!(g.result.as_deref(), Some("0-1"));
        assert_eq!(g.moves, vec!["h1g3", "e9e9", "e2e2"]);
        let (end, played) = g.replay().unwrap();
        assert_eq!(played.len(), 3);
        assert_eq!(end.fen(), pos.fen());
    }

    #[test]
    fn foreign_pgn_features_and_errors() {
        let text = "[Event \"x\"]\n[Variant \"janggimodern\"]\n\n1. h1g3 $1 (1. b1c3 e7e6) e9e9 ; a comment\n2.pass {multi\nline} 1/2-1/2\n";
        let games = parse_games(text).unwrap();
        assert_eq!(games[0].moves, vec!["h1g3", "e9e9", "pass"]);
        assert_eq!(games[0].rules().unwrap(), Rules::MODERN);
        assert!(games[0].replay().is_ok());
        assert!(parse_games("[Event \"x\"]\n\n1. h1g3 {never closed").is_err());
        assert!(parse_games("[Event x]\n").is_err());
        // A stray closing brace once made the reader loop forever.
        assert_eq!(parse_games("1. h1g3 } e9e9 *").unwrap()[0].moves, vec!["h1g3", "e9e9"]);
        let bad = parse_games("1. h1h9 *").unwrap();
        assert!(bad[0].replay().unwrap_err().contains("ply 1 'h1h9'"));
    }
}
