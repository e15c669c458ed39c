//! Korean `.gib` game records (Kakao Janggi and Korean Janggi sites): PGN-like tags with Korean names and moves
//! in Korean notation (`1. 79卒78 2. 12馬33 …`, a check as `32車22장군`, a pass as `한수쉼`). Games are read
//! into [`PgnGame`] values with coordinate moves, so that analysis takes them like PGN games.
//!
//! Tags used: `초대국자`/`한대국자` (Cho's and Han's player), `초차림`/`한차림` (or `초포진`/`한포진`: the
//! horses and elephants of each side as four names read with the record's file numbers 1 to 9, e.g. `상마상마`),
//! `대국결과` (the result, e.g. `한 시간승`: Han wins on time), `대회명` (event), `대국일자` (date), `대국장소`
//! (site). Text in braces is a comment. Files must be UTF-8 (Korean sites often write CP949: convert first with
//! `iconv -f cp949 -t utf-8`); stray 0xFF and 0x1A bytes, which some writers leave, are skipped.

use crate::board::{Color, Notation, Position, Rules};
use crate::records::pgn::PgnGame;
use crate::notation::korean;

/// Reads every game of a `.gib` file's bytes. An error names the game and the move that could not be read.
pub fn parse_games(bytes: &[u8]) -> Result<Vec<PgnGame>, String> {
    let clean: Vec<u8> = bytes.iter().copied().filter(|b| *b != 0xFF && *b != 0x1A).collect();
    let text = String::from_utf8(clean)
        .map_err(|_| "the .gib file is not UTF-8 (convert it first, e.g. iconv -f cp949 -t utf-8)".to_string())?;
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut in_comment = false;
    let finish = |tags: &mut Vec<(String, String)>, moves: &mut Vec<String>, games: &mut Vec<PgnGame>| {
        if !moves.is_empty() || !tags.is_empty() {
            let n = games.len() + 1;
            let game = to_game(std::mem::take(tags), std::mem::take(moves)).map_err(|e| format!("game {n}: {e}"))?;
            games.push(game);
        }
        Ok::<(), String>(())
    };
    for raw in text.lines() {
        let mut line = String::new();
        for c in raw.chars() {
            match c {
                '{' => in_comment = true,
                '}' => in_comment = false,
                c if !in_comment => line.push(c),
                _ => {}
            }
        }
        let line = line.trim();
        if line.starts_with('[') {
            if !moves.is_empty() {
                finish(&mut tags, &mut moves, &mut games)?;
            }
            let inner = line.trim_start_matches('[').trim_end_matches(']');
            let (key, value) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
            tags.push((key.to_string(), value.trim().trim_matches('"').to_string()));
        } else if line.is_empty() {
            if !moves.is_empty() {
                finish(&mut tags, &mut moves, &mut games)?;
            }
        } else {
            // Move numbers ("12.") and markers some writers add ("<0>") are skipped.
            moves
                .extend(line.split_whitespace().filter(|w| !w.contains('<') && !is_move_number(w)).map(str::to_string));
        }
    }
    finish(&mut tags, &mut moves, &mut games)?;
    Ok(games)
}

/// `12.`: a move number.
fn is_move_number(word: &str) -> bool {
    word.strip_suffix('.').is_some_and(|n| n.parse::<u32>().is_ok())
}

fn tag<'a>(tags: &'a [(String, String)], names: &[&str]) -> Option<&'a str> {
    names.iter().find_map(|n| tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str()))
}

/// The back rank of one side from its `차림`: four names for files b, c, g and h.
fn back_rank(setup: &str, color: Color) -> Result<String, String> {
    let names: Vec<char> = setup.chars().filter(|c| !c.is_whitespace()).collect();
    let letter = |c: char| match c {
        '마' | '馬' => Ok('n'),
        '상' | '象' => Ok('b'),
        _ => Err(format!("unknown setup '{setup}' (four of 마 and 상, e.g. 마상상마)")),
    };
    let [b, c, g, h] = names.as_slice() else {
        return Err(format!("unknown setup '{setup}' (four of 마 and 상, e.g. 마상상마)"));
    };
    let rank = format!("r{}{}a1a{}{}r", letter(*b)?, letter(*c)?, letter(*g)?, letter(*h)?);
    Ok(if color == Color::Cho { rank.to_ascii_uppercase() } else { rank })
}

fn to_game(tags: Vec<(String, String)>, texts: Vec<String>) -> Result<PgnGame, String> {
    if tag(&tags, &["판"]).is_some() {
        return Err("records that set up a board (판) are not supported, only the standard setups".into());
    }
    let cho = back_rank(tag(&tags, &["초차림", "초포진"]).unwrap_or("마상상마"), Color::Cho)?;
    let han = back_rank(tag(&tags, &["한차림", "한포진"]).unwrap_or("마상상마"), Color::Han)?;
    let board = format!("{han}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{cho}");
    let mut pos = Position::from_fen(&format!("{board} w - - 0 1"), Rules::JANGGI).map_err(|e| e.to_string())?;
    // A record may start with Han's move: the first from-point tells whose turn it is.
    if let Some(first) = texts.first() {
        let c: Vec<char> = first.chars().collect();
        let from = (c.len() >= 2).then(|| korean::parse_point(c[0], c[1])).flatten();
        if from.and_then(|sq| pos.piece_at(sq)).is_some_and(|p| p.color() == Color::Han) {
            pos = Position::from_fen(&format!("{board} b - - 0 1"), Rules::JANGGI).map_err(|e| e.to_string())?;
        }
    }
    let fen = pos.fen();
    let mut moves = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let m = korean::parse(&pos, text).map_err(|e| format!("move {}: {e}", i + 1))?;
        moves.push(m.display(Notation::Uci).to_string());
        pos.make_move(m);
    }
    let result_text = tag(&tags, &["대국결과"]);
    let result = match result_text.and_then(|r| r.chars().next()) {
        Some('초' | '楚') => "1-0",
        Some('한' | '漢') => "0-1",
        Some('무') => "1/2-1/2",
        _ => "*",
    };
    let mut out = vec![("Variant".to_string(), "janggi".to_string()), ("FEN".to_string(), fen)];
    for (ours, theirs) in
        [("Event", "대회명"), ("Site", "대국장소"), ("Date", "대국일자"), ("White", "초대국자"), ("Black", "한대국자")]
    {
        if let Some(v) = tag(&tags, &[theirs]) {
            out.push((ours.to_string(), v.to_string()));
        }
    }
    out.push(("Result".to_string(), result.to_string()));
    if let Some(r) = result_text {
        out.push(("Termination".to_string(), r.to_string()));
    }
    Ok(PgnGame { tags: out, moves, result: Some(result.to_string()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_comments_markers_passes_and_results() {
        let text = "[초대국자 \"A\"]\n[한대국자 \"B\"]\n[초차림 \"마상마상\"]\n[한차림 \"상마상마\"]\n[대국결과 \"초 완승\"]\n\
                    {a comment\nover two lines}\n1. 79卒78 <0> 2. 한수쉼 3. 07마86\n\n\
                    [한차림 \"마상상마\"]\n[대국결과 \"무승부\"]\n1. 41兵42\n";
        let games = parse_games(text.as_bytes()).unwrap();
        assert_eq!(games.len(), 2);
        let first = &games[0];
        assert_eq!(first.moves, ["i4h4", "e9e9", "g1f3"]);
        assert_eq!(first.tag("White"), Some("A"));
        assert_eq!(first.tag("Result"), Some("1-0"));
        assert_eq!(first.tag("Termination"), Some("초 완승"));
        // Cho's 마상마상 puts horses on b1 and g1; Han's 상마상마 elephants on b10 and g10.
        assert_eq!(first.tag("FEN"), Some("rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR w - - 0 1"));
        // A record that starts with Han's move: Han is to move in the start position.
        let second = &games[1];
        assert_eq!(second.moves, ["a7b7"]);
        assert!(second.tag("FEN").unwrap().ends_with(" b - - 0 1"));
        assert_eq!(second.tag("Result"), Some("1/2-1/2"));
    }

    #[test]
    fn records_we_cannot_read_are_refused() {
        for (text, why) in [
            ("[판 \"...\"]\n1. 79卒78\n", "판"),
            ("[초차림 \"마마마\"]\n1. 79卒78\n", "unknown setup"),
            ("1. 79卒78 2. 79卒78\n", "game 1: move 2"),
        ] {
            let err = parse_games(text.as_bytes()).unwrap_err();
            assert!(err.contains(why), "{err}");
        }
    }
}
