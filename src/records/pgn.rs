//! PGN for Janggi as Fairy-Stockfish hosts write it: `Variant`, `FEN` and `SetUp` tags, moves in coordinate
//! notation (`h1g3`, a pass as `e2e2`), Cho as White. Read back for `--resume`, for analysis, and to check that a
//! match's games replay under our rules.

use crate::board::rules::UnknownVariant;
use crate::board::{Move, Notation, Position, Rules, START_FEN};
use std::path::Path;

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

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The rule set of the `Variant` tag (janggi when there is none).
    pub fn rules(&self) -> Result<Rules, String> {
        match self.tag("Variant") {
            None => Ok(Rules::JANGGI),
            Some(v) => v.parse().map_err(|e: UnknownVariant| e.to_string()),
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
                let pass = Move::pass(pos.general(pos.side_to_move()));
                pos.parse_move(&pass.display(Notation::Uci).to_string(), Notation::Uci)
            } else {
                pos.parse_move(text, Notation::Uci)
            };
            match m {
                Ok(m) => {
                    pos.make_move(m);
                    moves.push(m);
                }
                Err(why) => return Err(format!("ply {} '{text}' is {why}: {}", i + 1, pos.fen())),
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
                message: format!("bad tag '{}'", crate::untrusted::shorten(trimmed)),
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

    proptest::proptest! {
        #[test]
        fn the_reader_never_panics(text in "[\\[\\]{}();%$0-9a-j. \"\n\\\\/*@+!?#-]{0,300}|\\PC{0,100}") {
            if let Ok(games) = parse_games(&text) {
                for g in games {
                    let _ = g.replay();
                }
            }
            let _ = crate::records::positions::parse_line(&text, Rules::JANGGI);
        }
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
