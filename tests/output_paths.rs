//! Every output path is checked before any work starts, the same way by every command: a missing folder is
//! created, a path that cannot be written is refused at once with the flag named, and nothing is printed on stdout.

use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_janggi");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janggi-outputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path below a plain file: no command can ever write it.
fn unwritable(dir: &std::path::Path) -> PathBuf {
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    file.join("out.txt")
}

fn refused_before_work(args: &[&str], flag: &str) {
    let out = Command::new(BIN).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(stderr.contains(flag) && stderr.contains("is a file, not a folder"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "work was done before the refusal: {}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn unwritable_outputs_are_refused_before_any_work() {
    let dir = scratch("refused");
    let bad = unwritable(&dir);
    let bad = bad.to_str().unwrap();
    let pgn = dir.join("g.pgn");
    std::fs::write(&pgn, "[Event \"x\"]\n\n1. b1c3 b10c8 2. h1g3 *\n").unwrap();
    let pgn = pgn.to_str().unwrap();
    refused_before_work(&["analyze", "--pgn", pgn, "--depth", "30", "--html", bad], "--html");
    refused_before_work(&["diagram", "--out", bad], "--out");
    refused_before_work(&["datagen", "--games", "50", "--out", bad], "--out");
    refused_before_work(&["train", pgn, "--out", bad], "--out");
    refused_before_work(&["tune", "selfplay", "--games", "50", "--out", bad], "--out");
    refused_before_work(&["match", "--engines", "janggi,janggi-skill19", "--games", "2", "--pgn", bad], "--pgn");
}

#[test]
fn missing_folders_are_created_the_same_way_everywhere() {
    let dir = scratch("created");
    let svg = dir.join("new/deeper/board.svg");
    let out = Command::new(BIN).args(["diagram", "--out", svg.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let page = dir.join("pages/review.html");
    let out = Command::new(BIN)
        .args(["analyze", "--depth", "2", "--html", page.to_str().unwrap()])
        .stdin(std::fs::File::open(unwritable_free_fen(&dir)).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(&page).unwrap().contains("<html"));
}

fn unwritable_free_fen(dir: &std::path::Path) -> PathBuf {
    let f = dir.join("positions.fen");
    std::fs::write(&f, "4k4/9/4a4/9/9/9/9/9/3K5/R7r b - - 0 1\n").unwrap();
    f
}
