//! `janggi analyze` through the real binary: JSON lines with the promised keys, a mate in 2 found, MultiPV
//! lines, order kept with several threads, bad lines reported without stopping, PGN games judged move by move,
//! and the same analysis through an engine of the config.

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");
const START: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
/// Cho mates in 2 with its chariots: a1a9 cuts rank 9, then i1i10.
const MATE_IN_2: &str = "3k5/9/9/9/4P4/9/9/9/5K3/R7R w - - 0 1";
/// Han, to move, loses in 2 whatever it plays (seen from the side to move): after e10f10, e10e9 or a pass, Cho
/// mates with a1e1 and then a chariot on the f- or e-file; e10d10 faces the generals, Cho passes and the bikjang
/// ends the game on count, a decided end that the search scores as a mate. Checked against pyffish's move lists
/// and results.
const MATED_IN_2: &str = "4k4/9/9/9/9/9/9/9/3K5/R7R b - - 0 1";
/// Han to move is checkmated already.
const MATED: &str = "3k1R3/R8/9/9/9/9/9/9/5K3/9 b - - 0 1";

fn analyze(args: &[&str], input: &str) -> (Vec<Value>, Output) {
    let mut child = Command::new(BIN)
        .arg("analyze")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let values = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    (values, out)
}

fn check_position_keys(v: &Value) {
    for key in ["fen", "bestmove", "score", "depth", "nodes", "pv"] {
        assert!(v.get(key).is_some(), "{key} missing in {v}");
    }
    let score = v["score"].as_object().unwrap();
    assert_eq!(score.len(), 1);
    assert!(score.contains_key("cp") || score.contains_key("mate"), "{v}");
    assert!(v["pv"].is_array());
}

#[test]
fn positions_give_json_lines_and_a_mate_in_two() {
    let input = format!(
        "{START}\n# a comment\n\n{MATE_IN_2}\n{} id \"epd start\"; hmvc 0;\n{MATED_IN_2}\n{MATED}\n",
        START.split(' ').take(4).collect::<Vec<_>>().join(" ")
    );
    // Depth 10: with the default net, depth 8 finds a mate in 4 before the mate in 2.
    let (values, out) = analyze(&["--depth", "10"], &input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(values.len(), 5);
    for v in &values {
        check_position_keys(v);
    }
    assert_eq!(values[0]["fen"], START);
    assert_eq!(values[0]["depth"], 10);
    assert!(values[0]["nodes"].as_u64().unwrap() > 0);
    assert_eq!(values[1]["score"]["mate"], 2, "{}", values[1]);
    assert_eq!(values[1]["pv"].as_array().unwrap().len(), 3);
    assert_eq!(values[1]["pv"][0], values[1]["bestmove"]);
    assert_eq!(values[2]["id"], "epd start");
    assert_eq!(values[2]["fen"], START);
    assert_eq!(values[3]["score"]["mate"], -2, "{}", values[3]);
    assert_eq!(values[4]["bestmove"], Value::Null);
    assert_eq!(values[4]["score"]["mate"], 0);
    assert_eq!(values[4]["game_over"]["result"], "loss");
    assert_eq!(values[4]["game_over"]["reason"], "checkmate");
}

#[test]
fn multipv_lines_and_parallel_order() {
    let (values, out) = analyze(&["--depth", "5", "--multipv", "3"], &format!("{START}\n"));
    assert!(out.status.success());
    let lines = values[0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["pv"], values[0]["pv"]);
    assert_eq!(lines[0]["multipv"], 1);
    let mut moves: Vec<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
    moves.dedup();
    assert_eq!(moves.len(), 3, "three different first moves");

    let setups = String::from_utf8(Command::new(BIN).arg("setups").output().unwrap().stdout).unwrap();
    let one = analyze(&["--depth", "4"], &setups).0;
    let four = analyze(&["--depth", "4", "--threads", "4"], &setups).0;
    assert_eq!(four.len(), 25);
    for (i, (a, b)) in one.iter().zip(&four).enumerate() {
        assert_eq!(a["fen"], setups.lines().nth(i).unwrap());
        // Every position starts from an empty table, so threads change nothing.
        assert_eq!(a["bestmove"], b["bestmove"]);
        assert_eq!(a["score"], b["score"]);
        assert!(a.get("lines").is_none());
    }
}

#[test]
fn bad_lines_are_reported_and_the_rest_analysed() {
    let (values, out) = analyze(&["--depth", "3"], &format!("not a position\n{START}\n9/9/9 w\n"));
    assert!(!out.status.success());
    assert_eq!(values.len(), 3);
    assert_eq!(values[0]["line"], 1);
    assert!(values[0]["error"].as_str().unwrap().contains("bad position"));
    check_position_keys(&values[1]);
    assert!(values[2]["error"].is_string());
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: line 1"));
    let (_, out) = analyze(&["--variant", "chess"], "");
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: unknown variant"));
}

#[test]
fn a_pgn_game_is_judged_move_by_move() {
    // Cho passes with its chariot facing Han's on an open file, and Han takes it.
    let pgn = "[Event \"blunder\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[Variant \"Janggi\"]\n\
               [FEN \"r2k5/9/9/9/9/9/9/9/4K4/R8 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e2e2 a10a1 *\n\n\
               [Event \"bad\"]\n\n1. h1h9 *\n";
    let (values, out) = analyze(&["--pgn", "--depth", "6"], pgn);
    assert!(!out.status.success(), "the second game has an illegal move");
    assert_eq!(values.len(), 2);
    let bad = values.iter().find(|v| v.get("error").is_some()).unwrap();
    assert_eq!(bad["game"], 2);
    let game = values.iter().find(|v| v["game"] == 1).unwrap();
    assert_eq!(game["white"], "a");
    let moves = game["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    for key in ["ply", "side", "move", "fen", "bestmove", "score_before", "score_after", "loss", "blunder"] {
        assert!(moves[0].get(key).is_some(), "{key} missing");
    }
    assert_eq!(moves[0]["side"], "cho");
    assert_eq!(moves[0]["bestmove"], "a1a10");
    assert_eq!(moves[0]["blunder"], true, "{}", moves[0]);
    assert!(moves[0]["before_cp"].as_i64().unwrap() > 500 && moves[0]["loss"].as_i64().unwrap() >= 200);
    assert_eq!(moves[1]["blunder"], false, "{}", moves[1]);
    assert_eq!(game["blunders"]["cho"], 1);
    assert_eq!(game["blunders"]["han"], 0);
}

#[test]
fn an_engine_from_the_config_analyses_the_same_way() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("analyze");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("engines.toml");
    std::fs::write(&config, format!("[[engine]]\nname = \"ext\"\ncommand = \"{BIN}\"\nprotocol = \"usi\"\n")).unwrap();
    let config = config.to_str().unwrap();
    let (values, out) = analyze(
        &["--engine", "ext", "--config", config, "--depth", "8", "--multipv", "2"],
        &format!("{MATE_IN_2}\n{START}\n"),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(values.len(), 2);
    for v in &values {
        check_position_keys(v);
        assert_eq!(v["lines"].as_array().unwrap().len(), 2);
    }
    assert_eq!(values[0]["score"]["mate"], 2, "{}", values[0]);
    assert_eq!(values[1]["depth"], 8);
    let (_, out) = analyze(&["--engine", "nobody", "--config", config], "");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no engine named 'nobody'"));
}
