//! `tools/rescore.py` end to end with the real binary: a datagen file rescored by a deeper search keeps its
//! positions and results, takes the engine's scores (the same bytes however many engines share the work), and a
//! file that is not datagen data is refused with the reader's error.

mod batch;

use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");
const TOOL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/rescore.py");

fn janggi(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("janggi runs")
}

fn rescore(input: &Path, out: &Path, nodes: &str, procs: &str) -> Output {
    Command::new("python3")
        .arg(TOOL)
        .args(["--binary", BIN, "--nodes", nodes, "--procs", procs])
        .arg(input)
        .arg("--out")
        .arg(out)
        .output()
        .expect("python3 runs")
}

/// `fen;score;result` lines of a datagen file, split.
fn records(file: &Path) -> Vec<(String, i32, String)> {
    let out = janggi(&["datagen", "text", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            (f[0].to_string(), f[1].parse().unwrap(), f[2].to_string())
        })
        .collect()
}

#[test]
fn rescored_positions_keep_their_results_and_take_the_deeper_scores() {
    let dir = batch::workdir("rescore", "keeps");
    let data = dir.join("games.bin");
    let path = data.to_str().unwrap();
    let made = janggi(&["datagen", "--games", "2", "--nodes", "300", "--threads", "1", "--seed", "7", "--out", path]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));

    let (two, one) = (dir.join("two.bin"), dir.join("one.bin"));
    let out = rescore(&data, &two, "2000", "2");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("rescored at 2000 nodes"));
    assert!(rescore(&data, &one, "2000", "1").status.success());
    assert_eq!(std::fs::read(&two).unwrap(), std::fs::read(&one).unwrap(), "engines sharing the work change nothing");

    let before = records(&data);
    let after = records(&two);
    assert!(after.len() > before.len() / 2, "{} of {}", after.len(), before.len());
    // Every kept position is one of the input's, in order, with its game result.
    let mut rest = before.iter();
    let mut changed = 0;
    for (fen, score, result) in &after {
        let (_, old, old_result) = rest.find(|(f, _, _)| f == fen).expect("a position of the input");
        assert_eq!(result, old_result, "{fen}");
        assert!(score.abs() <= 3000);
        changed += usize::from(score != old);
    }
    assert!(changed > 0, "a search ten times longer changes some score");
}

#[test]
fn a_file_that_is_not_datagen_data_is_refused() {
    let dir = batch::workdir("rescore", "refused");
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, b"not a datagen file at all, just text").unwrap();
    let out = rescore(&bad, &dir.join("out.bin"), "100", "1");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.bin"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.join("out.bin").exists());
}
