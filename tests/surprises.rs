//! `tools/surprises.py` end to end: an engine's own score falling by more than the threshold from one of its moves
//! to its next counts as a surprise, sorted by the opponent's reply in between (pyffish decides what a capture or
//! a check is). Needs `pip install pyffish` (`.ci/run` installs it).

use std::process::{Command, Output};

const TOOL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/surprises.py");

/// Nine plies from a setup. Engine "a" (Cho) scores +0.10, +0.20 and +0.30 on its first three moves; "b" then
/// takes a soldier with its chariot (i10i4) and "a" scores -1.20; after b's quiet a10a8 it sees a mate against
/// it (-M5). "b" scores 0.00 throughout.
const GAME: &str = r#"[Event "test"]
[White "a"]
[Black "b"]
[FEN "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"]
[Result "0-1"]

1. g4g5 {+0.10/10 0.1s} g7g6 {+0.00/10 0.1s} 2. f1e1 {+0.20/10 0.1s} i7h7 {+0.00/10 0.1s}
3. b1c3 {+0.30/10 0.1s} i10i4 {+0.00/10 0.1s} 4. a1a2 {-1.20/10 0.1s} a10a8 {+0.00/10 0.1s}
5. a2a1 {-M5/10 0.1s} 0-1
"#;

/// Five plies from a setup with Han to move: "b" (Han) scores 0.00 on its first two moves and -1.50 on its third,
/// after Cho's quiet a4b4; "a" (Cho) scores 0.00 on both of its moves.
const HAN_FIRST: &str = r#"[Event "test"]
[White "a"]
[Black "b"]
[FEN "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1"]
[Result "*"]

1... a10a8 {+0.00/10 0.1s} 2. a1a3 {+0.00/10 0.1s} a8a10 {+0.00/10 0.1s} 3. a4b4 {+0.00/10 0.1s}
b10a8 {-1.50/10 0.1s} *
"#;

/// The tool's output on `game` (written to a file of its own, named by `label`) with the flags `extra`.
fn run(label: &str, game: &str, extra: &[&str]) -> Output {
    let path = std::env::temp_dir().join(format!("janggi-surprises-{}-{label}.pgn", std::process::id()));
    std::fs::write(&path, game).unwrap();
    let out = Command::new("python3").arg(TOOL).args(extra).arg(&path).output().expect("python3 runs");
    std::fs::remove_file(path).ok();
    out
}

/// The standard output of a run that must succeed.
fn stdout_of(out: Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn line_of<'a>(text: &'a str, engine: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(&format!("{engine}:")))
        .unwrap_or_else(|| panic!("no line for {engine}: {text}"))
}

#[test]
fn a_falling_own_score_is_a_surprise_sorted_by_the_reply_that_caused_it() {
    let text = stdout_of(run("default", GAME, &[]));
    // a: four pairs of own moves; the fall after the capture (1.5 pawns) and the fall to a mate after a quiet
    // move both count. b: three pairs, none falling.
    let a = line_of(&text, "a");
    assert!(a.starts_with("a: 2 surprises in 4 moves"), "{a}");
    assert!(a.contains("replies: quiet 1, capture 1, check 0, capture+check 0"), "{a}");
    assert!(a.contains("own moves before: quiet 2, capture 0"), "{a}");
    assert!(line_of(&text, "b").starts_with("b: 0 surprises in 3 moves"), "{text}");
}

#[test]
fn the_threshold_and_the_window_decide_what_counts() {
    // Only the fall to the mate is more than two pawns.
    let text = stdout_of(run("drop", GAME, &["--drop", "2"]));
    assert!(line_of(&text, "a").starts_with("a: 1 surprises in 4 moves"), "{text}");
    // Within a pawn of equal, the move after -1.20 no longer counts: three moves, one surprise.
    let text = stdout_of(run("within", GAME, &["--within", "1"]));
    assert!(line_of(&text, "a").starts_with("a: 1 surprises in 3 moves"), "{text}");
    // The first four plies alone hold a's first pair only (plies 0 and 2).
    let text = stdout_of(run("plies", GAME, &["--plies", "4"]));
    assert!(line_of(&text, "a").starts_with("a: 0 surprises in 1 moves"), "{text}");
}

#[test]
fn where_han_moves_first_each_score_is_its_own_movers() {
    let text = stdout_of(run("han-first", HAN_FIRST, &[]));
    assert!(line_of(&text, "b").starts_with("b: 1 surprises in 2 moves"), "{text}");
    assert!(line_of(&text, "a").starts_with("a: 0 surprises in 1 moves"), "{text}");
}

#[test]
fn a_file_without_scored_moves_is_refused() {
    let out = run("empty", "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n\n*\n", &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no scored moves"));
}
