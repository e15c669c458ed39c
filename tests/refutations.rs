//! `tools/refutations.py` end to end with the real engine: a move its engine regretted becomes a position, a judge
//! keeps it only if it calls it a mistake, and engines are measured on finding its refutation and on not playing
//! it again. Needs `pip install pyffish` (`.ci/run` installs it).

use std::path::PathBuf;
use std::process::{Command, Output};

const TOOL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/refutations.py");
const BIN: &str = env!("CARGO_BIN_EXE_janggi");

/// Cho ("a") pushes a soldier aside to open the i-file, then takes Han's i7 soldier with its chariot, which Han's
/// chariot takes back: a's score falls from +0.20 to -5.00 by its next move. Han ("b") stays at equal and then up.
const GAME: &str = r#"[Event "test"]
[White "a"]
[Black "b"]
[FEN "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"]
[Result "0-1"]

1. i4h4 {+0.10/10 0.1s} a7b7 {+0.00/10 0.1s} 2. i1i7 {+0.20/10 0.1s} i10i7 {+0.00/10 0.1s}
3. a1a2 {-5.00/10 0.1s} b10c8 {+5.00/10 0.1s} 4. a2a1 {-5.00/10 0.1s} 0-1
"#;

/// The position before the chariot's capture (pyffish's FEN after i4h4 a7b7).
const BEFORE: &str = "rnba1abnr/4k4/1c5c1/1pp1p1p1p/9/9/P1P1P1PP1/1C5C1/4K4/RNBA1ABNR w - - 2 2";

fn temp(label: &str) -> PathBuf {
    std::env::temp_dir().join(format!("janggi-refutations-{}-{label}", std::process::id()))
}

fn tool(args: &[&str]) -> Output {
    Command::new("python3").arg(TOOL).args(args).output().expect("python3 runs")
}

fn stdout_of(out: Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The game's surprises, extracted into a set file named by `label`.
fn extracted(label: &str) -> PathBuf {
    let pgn = temp(&format!("{label}.pgn"));
    std::fs::write(&pgn, GAME).unwrap();
    let set = temp(&format!("{label}.jsonl"));
    let text = stdout_of(tool(&["extract", pgn.to_str().unwrap()]));
    std::fs::remove_file(pgn).ok();
    std::fs::write(&set, text).unwrap();
    set
}

#[test]
fn extract_turns_each_regretted_move_into_the_position_before_it() {
    let set = extracted("extract");
    let text = std::fs::read_to_string(&set).unwrap();
    std::fs::remove_file(set).ok();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    let record: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(record["engine"], "a");
    assert_eq!(record["move"], "i1i7");
    assert_eq!(record["reply"], "i10i7");
    assert_eq!(record["fen"], BEFORE);
    assert_eq!(record["before"], 0.2);
    assert_eq!(record["after"], -5.0);
}

#[test]
fn confirm_keeps_a_mistake_and_drops_the_judges_own_choice() {
    let set = extracted("confirm");
    let set_path = set.to_str().unwrap();
    let kept = stdout_of(tool(&["confirm", set_path, "--engine", BIN, "--depth", "6"]));
    let record: serde_json::Value = serde_json::from_str(kept.lines().next().expect("the blunder is kept")).unwrap();
    assert_eq!(record["move"], "i1i7");
    assert_ne!(record["best"], "i1i7");
    let loss = record["best_score"].as_i64().unwrap() - record["move_score"].as_i64().unwrap();
    assert!(loss >= 500, "a chariot for a soldier loses more than five pawns: {record}");

    // The judge's own move at the same depth, put in the blunder's place, is no mistake to it.
    let verbose = stdout_of(tool(&["repeat", set_path, "--engine", BIN, "--depth", "6", "--verbose"]));
    let own = verbose.lines().next().unwrap().rsplit(' ').next().unwrap().to_string();
    assert_ne!(own, "i1i7");
    let own_set = temp("confirm-own.jsonl");
    let text = std::fs::read_to_string(&set).unwrap().replace("\"i1i7\"", &format!("\"{own}\""));
    std::fs::write(&own_set, text).unwrap();
    let kept = stdout_of(tool(&["confirm", own_set.to_str().unwrap(), "--engine", BIN, "--depth", "6"]));
    assert_eq!(kept, "", "the judge's own choice {own} is not a mistake");
    // A higher bar than the move loses drops the blunder too.
    let kept = stdout_of(tool(&["confirm", set_path, "--engine", BIN, "--depth", "6", "--loss", "30001"]));
    assert_eq!(kept, "");
    std::fs::remove_file(set).ok();
    std::fs::remove_file(own_set).ok();
}

#[test]
fn solve_finds_the_recapture_and_repeat_does_not_play_the_blunder_again() {
    let set = extracted("solve");
    let set_path = set.to_str().unwrap();
    let text = stdout_of(tool(&["solve", set_path, "--engine", BIN, "--nodes", "20000"]));
    assert!(text.starts_with("a: 1 of 1 replies found, geometric mean "), "{text}");
    let nodes: f64 = text.split("geometric mean ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(nodes > 0.0 && nodes < 20000.0, "{text}");
    let text = stdout_of(tool(&["repeat", set_path, "--engine", BIN, "--depth", "6"]));
    assert_eq!(text.trim(), "a: 0 of 1 moves played again");
    std::fs::remove_file(set).ok();
}

#[test]
fn a_set_line_that_is_not_a_position_is_refused_with_its_number() {
    let set = temp("bad.jsonl");
    std::fs::write(&set, "{\"engine\": \"a\", \"fen\": \"x\", \"move\": \"a1a2\", \"reply\": \"a10a9\"}\nnot json\n").unwrap();
    let out = tool(&["solve", set.to_str().unwrap(), "--engine", BIN]);
    std::fs::remove_file(set).ok();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(":2: not a position record"), "{err}");
    assert!(!err.contains("Traceback"), "{err}");
}

#[test]
fn an_unknown_engine_option_is_reported() {
    let set = extracted("option");
    let out = tool(&["repeat", set.to_str().unwrap(), "--engine", BIN, "--depth", "2", "no_such_option=1"]);
    std::fs::remove_file(set).ok();
    assert!(!out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
}
