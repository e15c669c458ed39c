//! `janggi status`: the legal moves and game status of positions, one JSON object per input line. This is how
//! tools outside Rust (the cross-check against the reference implementation) ask the rules questions.
//!
//! Input: `{"variant": "janggi", "fen": "...", "moves": ["h1g3", ...]}`. Output: `{"legal": [...],
//! "immediate": v|null, "adjudicated": v|null, "no_move": v|null, "in_check": bool, "fen": "..."}` where each `v`
//! is +1 (the side to move wins), -1 (it loses) or 0 (draw), or `{"error": "..."}` for input that is not a position.

use janggi::board::{GameEnd, Notation, Position, Rules};
use serde::Deserialize;
use serde_json::{Value, json};
use std::io::{BufRead, Write};

#[derive(Deserialize)]
struct Query {
    variant: String,
    fen: String,
    #[serde(default)]
    moves: Vec<String>,
}

fn answer(line: &str) -> Value {
    let query: Query = match serde_json::from_str(line) {
        Ok(q) => q,
        Err(e) => return json!({ "error": format!("bad query: {e}") }),
    };
    let rules: Rules = match query.variant.parse() {
        Ok(r) => r,
        Err(e) => return json!({ "error": e.to_string() }),
    };
    let pos = match Position::from_fen_moves(&query.fen, rules, &query.moves, Notation::Uci) {
        Ok(p) => p,
        Err(e) => return json!({ "error": e.to_string() }),
    };
    let side = pos.side_to_move();
    let value = |end: Option<GameEnd>| end.map(|e| e.score_for(side));
    let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    let immediate = pos.immediate_end();
    let no_move = if immediate.is_none() && legal.is_empty() { Some(pos.no_move_end()) } else { None };
    let adjudicated = if immediate.is_none() && no_move.is_none() { pos.adjudicated_end() } else { None };
    let reason = immediate.or(no_move).or(adjudicated).map(|e| e.reason.describe());
    json!({
        "legal": legal,
        "immediate": value(immediate),
        "no_move": value(no_move),
        "adjudicated": value(adjudicated),
        "reason": reason,
        "in_check": pos.in_check(),
        "fen": pos.fen(),
    })
}

pub fn run(input: impl BufRead, mut output: impl Write) -> Result<(), String> {
    for line in input.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(output, "{}", answer(&line)).map_err(|e| e.to_string())?;
    }
    output.flush().map_err(|e| e.to_string())
}
