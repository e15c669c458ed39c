//! What a person reads when something is off: each message says what was wrong, once, in the words of the
//! command line, and a command that waits for input says so.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");

fn janggi(args: &[&str]) -> Output {
    Command::new(BIN).args(args).stdin(std::process::Stdio::null()).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn scratch(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("janggi-messages-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn a_negative_count_is_a_bad_value_not_an_unknown_flag() {
    for args in [["match", "--games", "-1"], ["datagen", "--seed", "-3"], ["perft", "--depth", "-2"]] {
        let o = janggi(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert!(e.contains(&format!("invalid value '{}'", args[2])), "{args:?}: {e}");
        assert!(!e.contains("-- "), "no tip to write '-- {}': {e}", args[2]);
    }
}

#[test]
fn a_missing_net_file_is_named_once() {
    let o = janggi(&["analyze", "--net", "/nonexistent/net.nnue"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o).matches("/nonexistent/net.nnue").count(), 1, "{}", stderr(&o));
}

#[test]
fn merge_of_a_file_that_is_not_pgn_says_so() {
    let file = scratch("notes.txt", "just some notes\nnot a game\n");
    let o = janggi(&["merge", &file]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("is it a PGN file?"), "{e}");
    assert!(!e.contains("Round"), "{e}");
}

#[test]
fn analysis_of_games_reports_progress_a_line_a_game() {
    let pgn = scratch("two.pgn", "[Event \"a\"]\n\n1. b1c3 b10c8 2. h1g3 *\n\n[Event \"b\"]\n\n1. h1g3 h10g8 *\n");
    let o = janggi(&["analyze", "--pgn", "--depth", "3", &pgn]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("game 1 (1 of 2): 3 moves"), "{e}");
    assert!(e.contains("game 2 (2 of 2): 2 moves"), "{e}");
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 2, "stdout carries the two JSON lines alone");
}

#[test]
fn analysis_waiting_on_a_terminal_says_what_it_reads() {
    // `script` (util-linux) gives the command a terminal as its standard input.
    let o = Command::new("script")
        .args(["-qec", &format!("timeout 5 {BIN} analyze"), "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .output()
        .expect("util-linux's script runs");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("reading FEN or EPD lines from standard input"), "{text}");
    // ... and says nothing when the input is a pipe or a file.
    let piped = janggi(&["analyze"]);
    assert!(!stderr(&piped).contains("reading"), "{}", stderr(&piped));
}

/// One protocol session: the lines in, everything the engine printed on stdout and on stderr.
fn session(lines: &str) -> (String, String) {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(lines.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (String::from_utf8_lossy(&out.stdout).to_string(), stderr(&out))
}

#[test]
fn the_protocol_names_the_option_and_says_what_value_was_used() {
    let (out, err) = session(
        "uci\nsetoption name Hash value abc\nsetoption name Threads value 0\nsetoption name Skill Level value 99\n\
         setoption name MultiPV value 3\ngo movetime -5 depth 1\nisready\nquit\n",
    );
    assert!(out.contains("info string error: option 'Hash': 'abc' is not a number"), "{out}");
    assert!(out.contains("info string option 'Threads': 0 is outside 1.."), "{out}");
    assert!(out.contains("info string option 'Skill Level': 99 is outside -20..20: 20 used"), "{out}");
    assert!(!out.contains("option 'MultiPV'"), "a value in range says nothing: {out}");
    assert!(out.contains("info string go: movetime -5 is negative: 0 used"), "{out}");
    assert!(out.contains("readyok") && out.contains("bestmove "), "{out}");
    // Each error is said once: on stdout for the host, not again as a log line on stderr.
    assert!(!err.contains("is not a number"), "printed twice: {err}");
}
