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
    // Board and side to move as pyffish gives them (the move counters are its own business).
    let fen = record["fen"].as_str().unwrap();
    assert_eq!(fen.split(' ').take(2).collect::<Vec<_>>(), BEFORE.split(' ').take(2).collect::<Vec<_>>());
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
    assert!(loss >= 500, "a chariot for a soldier loses at least five pawns: {record}");
    // --loss is the least loss that keeps a move.
    let at = stdout_of(tool(&["confirm", set_path, "--engine", BIN, "--depth", "6", "--loss", &loss.to_string()]));
    assert_eq!(at.lines().count(), 1, "{at}");
    let above = (loss + 1).to_string();
    let above = stdout_of(tool(&["confirm", set_path, "--engine", BIN, "--depth", "6", "--loss", &above]));
    assert_eq!(above, "");

    // The judge's own move at the same depth, put in the blunder's place, is no mistake to it, however small the
    // loss asked for; and an engine plays it again.
    let verbose = stdout_of(tool(&["repeat", set_path, "--engine", BIN, "--depth", "6", "--verbose"]));
    let own = verbose.lines().next().unwrap().rsplit(' ').next().unwrap().to_string();
    assert_ne!(own, "i1i7");
    let own_set = temp("confirm-own.jsonl");
    let text = std::fs::read_to_string(&set).unwrap().replace("\"i1i7\"", &format!("\"{own}\""));
    std::fs::write(&own_set, text).unwrap();
    let own_path = own_set.to_str().unwrap();
    let kept = stdout_of(tool(&["confirm", own_path, "--engine", BIN, "--depth", "6", "--loss=-100000"]));
    assert_eq!(kept, "", "the judge's own choice {own} is not a mistake");
    let again = stdout_of(tool(&["repeat", own_path, "--engine", BIN, "--depth", "6"]));
    assert_eq!(again.trim(), "a: 1 of 1 moves played again");
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
    let good =
        "{\"engine\": \"a\", \"fen\": \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\", \"move\": \"e1e1\", \"reply\": \"e9e9\"}";
    for (bad, why) in [
        ("not json", "not a position record"),
        ("[1]", "not a JSON object"),
        ("{\"engine\": \"a\"}", "needs the strings"),
        ("{\"engine\": \"a\", \"fen\": \"x\\ngo infinite\", \"move\": \"e1e1\", \"reply\": \"e9e9\"}", "a FEN has"),
        ("{\"engine\": \"a\", \"fen\": \"x\", \"move\": \"e1\", \"reply\": \"e9e9\"}", "move and reply are moves"),
    ] {
        let set = temp("bad.jsonl");
        std::fs::write(&set, format!("{good}\n{bad}\n")).unwrap();
        let out = tool(&["solve", set.to_str().unwrap(), "--engine", BIN]);
        std::fs::remove_file(set).ok();
        assert!(!out.status.success(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(":2: not a position record") && err.contains(why), "{bad}: {err}");
        assert!(!err.contains("Traceback"), "{err}");
    }
}

#[test]
fn an_engine_that_cannot_start_or_refuses_an_option_ends_the_run_with_a_message() {
    let set = extracted("option");
    let path = set.to_str().unwrap();
    let out = tool(&["repeat", path, "--engine", BIN, "--depth", "2", "no_such_option=1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("option 'no_such_option': unknown option") && !err.contains("Traceback"), "{err}");
    let out = tool(&["repeat", path, "--engine", "/nonexistent/engine", "--depth", "2"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("/nonexistent/engine") && !err.contains("Traceback"), "{err}");
    // A known option after the flags reaches the engine: the run succeeds.
    let out = tool(&["repeat", path, "--engine", BIN, "--depth", "2", "rfp_margin=120"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_file(set).ok();
}

#[test]
fn extract_refuses_an_unknown_rule_set_and_an_illegal_move() {
    for (label, game, why) in [
        ("variant", GAME.replace("[Result", "[Variant \"nosuch\"]\n[Result"), "unknown rule set 'nosuch'"),
        ("illegal", GAME.replace("i1i7", "i1i9"), "illegal move i1i9"),
    ] {
        let pgn = temp(&format!("{label}.pgn"));
        std::fs::write(&pgn, game).unwrap();
        let out = tool(&["extract", pgn.to_str().unwrap()]);
        std::fs::remove_file(pgn).ok();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{label}");
        assert!(err.contains("game 1") && err.contains(why) && !err.contains("Traceback"), "{label}: {err}");
    }
}
