//! `tools/game_nodes.py` end to end with the real binary: searches along a game either carry the hash table and
//! histories from one to the next or start afresh, the first search of a game is the same either way, and the
//! carried state changes the later trees.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");
const TOOL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/game_nodes.py");

/// Sixteen plies of a game between engines, as `janggi match` writes it (comments hold score/depth and time).
const GAME: &str = r#"[Event "test"]
[FEN "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"]
[Result "*"]

1. h1g3 {+0.10/8 0.1s} a7b7 {-0.05/8 0.1s} 2. b1c3 b10c8 3. h3e3 h10g8 4. i4h4 e9e10 5. b3d3 b8d8
6. e2e1 f10e9 7. f1e2 d8f10 8. d1d2 e7d7 *
"#;

fn tool(pgn: &std::path::Path, extra: &[&str]) -> Output {
    Command::new("python3")
        .arg(TOOL)
        .args(["--engine", BIN, "--depth", "6", "--from", "4", "--to", "14", "--verbose", "--pgn"])
        .arg(pgn)
        .args(extra)
        .output()
        .expect("python3 runs")
}

/// The node count of each search a successful run printed, in order.
fn per_search(out: &Output) -> Vec<u64> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let counts: Vec<u64> = text
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| l.split(": ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap())
        .collect();
    assert!(text.contains(&format!("{} searches to depth 6", counts.len())), "{text}");
    counts
}

fn pgn_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("janggi-game-nodes-{}-{name}.pgn", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn searches_along_a_game_gain_from_the_ones_before_only_when_kept() {
    let pgn = pgn_file("game", GAME);
    let kept = per_search(&tool(&pgn, &[]));
    let fresh = per_search(&tool(&pgn, &["--fresh"]));
    let again = per_search(&tool(&pgn, &["--fresh"]));
    // Plies 4, 6, ..., 14 of the sixteen: six searches.
    assert_eq!(kept.len(), 6);
    assert_eq!(fresh, again, "a fresh search of a position is the same every time (one thread, fixed depth)");
    assert_eq!(kept[0], fresh[0], "the first search of a game has nothing before it either way");
    assert_ne!(kept[1..], fresh[1..], "what the earlier searches left changes the later trees");
    std::fs::remove_file(pgn).ok();
}

#[test]
fn a_pgn_without_games_and_a_malformed_option_are_refused() {
    let empty = pgn_file("empty", "no games here\n");
    let out = tool(&empty, &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game"));
    let pgn = pgn_file("option", GAME);
    let out = tool(&pgn, &["Hash"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("NAME=VALUE"));
    std::fs::remove_file(empty).ok();
    std::fs::remove_file(pgn).ok();
}

#[test]
fn depth_times_report_when_each_depth_was_finished_in_the_order_of_the_depths() {
    let pgn = pgn_file("depths", GAME);
    let out = tool(&pgn, &["--depth-times"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    // "depth D: finished at T ms on average (N searches)", one line a depth from 1 to the depth asked for.
    let rows: Vec<(u32, f64, usize)> = text
        .lines()
        .filter(|l| l.starts_with("depth "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let depth = words[1].trim_end_matches(':').parse().unwrap();
            let ms = words[4].parse().unwrap();
            let searches = words[8].trim_start_matches('(').parse().unwrap();
            (depth, ms, searches)
        })
        .collect();
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), (1..=6).collect::<Vec<_>>(), "{text}");
    assert!(rows.iter().all(|r| r.2 == 6), "every one of the six searches finishes every depth: {text}");
    assert!(rows.windows(2).all(|w| w[0].1 <= w[1].1), "a deeper iteration finishes no sooner: {text}");
    std::fs::remove_file(pgn).ok();
}
