//! `janggi analyze --html` through the real binary: the page of a PGN game (players, result, termination, a
//! graph point per ply, the move list with scores and losses, a diagram per blunder, blunders per side), Korean
//! notation beside the coordinates on request, and the page of FEN lines. The browser test renders such pages.

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn page(args: &[&str], stdin: &str) -> String {
    page_with(args, stdin, true)
}

/// The page written by `analyze`; `all_ok` is whether every input was expected to be analysed (the exit status).
fn page_with(args: &[&str], stdin: &str, all_ok: bool) -> String {
    let path = std::env::temp_dir().join(format!("janggi-review-{}-{}.html", std::process::id(), args.len()));
    let mut child = Command::new(BIN)
        .arg("analyze")
        .args(args)
        .arg("--html")
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.success(), all_ok, "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!out.stdout.is_empty(), "the JSON lines still go to stdout");
    let html = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    html
}

#[test]
fn a_game_page_shows_players_graph_moves_and_blunders() {
    let html = page(&["--pgn", &data("blunders.pgn"), "--depth", "8"], "");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("<link") && !html.contains(" src=\""), "self-contained: nothing loaded");
    assert!(html.contains("Careless Cho") && html.contains("Careless Han"));
    assert!(html.contains("class=\"result\">1-0<"));
    assert!(html.contains("class=\"termination\">"));
    assert_eq!(html.matches("<circle class=\"ply").count(), 5, "one graph point per ply");
    // 1. a1a5 misses a free chariot and 1... i1i5 hangs one: a blunder each, each with its diagram.
    assert_eq!(html.matches("<circle class=\"ply blunder\"").count(), 2);
    assert_eq!(html.matches("<figure class=\"blunder-diagram\"").count(), 2);
    assert!(html.contains("id=\"blunder-1-1\"") && html.contains("id=\"blunder-1-2\""));
    assert!(html.contains("data-move=\"a1a5\"") && html.contains("data-move=\"a1i1\""), "played and best arrows");
    assert_eq!(html.matches("<td class=\"count\">1</td>").count(), 2, "one blunder per side");
    assert_eq!(html.matches("<tr data-ply=").count(), 5, "a row per move");
    // Mates sit at the edge of the graph: after 1... i1i5 Cho mates, the point is at the top.
    let point = html.split("data-ply=\"2\" cx=\"").nth(1).unwrap();
    assert!(point.split("cy=\"").nth(1).unwrap().starts_with("14.0\""), "{}", &point[..60]);
    // The x axis counts moves, not plies: five plies are moves 1 to 3.
    let axis = html.split("class=\"x-axis\"").nth(1).unwrap().split("</g>").next().unwrap();
    assert!(axis.contains(">1</text>") && axis.contains(">3</text>") && !axis.contains(">4</text>"), "{axis}");
    assert!(!html.contains("<th>Korean</th>"), "coordinates only unless asked");
    // Scores are from Cho's view: after Cho's blunder Han leads, after Han's Cho mates.
    let row =
        |ply: usize| html.split(&format!("<tr data-ply=\"{ply}\"")).nth(1).unwrap().split("</tr>").next().unwrap();
    assert!(row(1).contains("<td class=\"num\">-"), "{}", row(1));
    assert!(row(2).contains("<td class=\"num\">#") && !row(2).contains("#-"), "{}", row(2));
}

#[test]
fn korean_notation_beside_the_coordinates() {
    let html = page(&["--pgn", &data("blunders.pgn"), "--depth", "6", "--notation", "korean"], "");
    assert!(html.contains("<th>Korean</th>"));
    assert!(html.contains("<td>01차61</td>"), "1. a1a5");
    assert!(html.contains("<td>09차69</td>"), "1... i1i5");
}

#[test]
fn a_page_of_fen_lines_draws_each_position_with_the_engine_move() {
    let input = "4k4/9/9/9/9/9/9/9/3K5/R7r w - - 0 1\nnot a fen\n";
    let html = page_with(&["--depth", "6"], input, false);
    assert_eq!(html.matches("<section class=\"position\"").count(), 2);
    assert_eq!(html.matches("class=\"janggi-diagram\"").count(), 1);
    assert!(html.contains("data-move=\"a1i1\""), "the engine takes the chariot");
    assert!(html.contains("class=\"error\""), "the bad line is reported on the page");
}
