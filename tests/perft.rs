//! Every row of tests/data/perft.tsv: the reference node counts of Fairy-Stockfish for the four host rule sets.
//! Rows above `QUICK_LIMIT` nodes only run in release builds (`cargo test --release`), where they take seconds.

use janggi::board::perft::perft;
use janggi::board::{Move, Notation, Position, Rules};

const QUICK_LIMIT: u64 = 200_000;

struct Row {
    line: usize,
    variant: String,
    fen: String,
    moves: Vec<String>,
    depth: u32,
    nodes: u64,
    label: String,
}

fn rows() -> Vec<Row> {
    let text = include_str!("data/perft.tsv");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                line: i + 1,
                variant: f[0].to_string(),
                fen: f[1].to_string(),
                moves: f[2].split_whitespace().map(str::to_string).collect(),
                depth: f[3].parse().unwrap(),
                nodes: f[4].parse().unwrap(),
                label: f.get(5).unwrap_or(&"").to_string(),
            }
        })
        .collect()
}

fn position_of(row: &Row) -> Position {
    let rules = Rules::by_name(&row.variant).unwrap();
    let mut pos = Position::from_fen(&row.fen, rules).unwrap();
    for text in &row.moves {
        let m = Move::parse(text, Notation::Uci).unwrap();
        assert!(pos.is_legal(m), "line {}: {text} is not legal", row.line);
        pos.make_move(m);
    }
    pos
}

fn check(filter: impl Fn(&Row) -> bool) {
    let rows: Vec<Row> = rows().into_iter().filter(|r| filter(r)).collect();
    assert!(!rows.is_empty());
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|row| {
            let got = perft(&mut position_of(row), row.depth);
            (got != row.nodes).then(|| {
                format!(
                    "line {} {} [{}] depth {}: {} expected {}",
                    row.line, row.variant, row.label, row.depth, got, row.nodes
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{} perft mismatches:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn perft_table_small_rows_match_the_reference() {
    check(|r| r.nodes <= QUICK_LIMIT);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "large rows run in release builds")]
fn perft_table_large_rows_match_the_reference() {
    check(|r| r.nodes > QUICK_LIMIT);
}
