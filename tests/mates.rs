//! Short mates are found at the depths people analyse at: every position of `tests/data/mates.tsv` (forced mates
//! in at most three moves from the ends of self-play games, each proved with pyffish by `tools/mate_set.py`) gets
//! a mate score from `janggi analyze --depth 8`, with the net and with the classical evaluation, and never a
//! longer mate than the shortest one there is.

use assert_cmd::Command;
use serde_json::Value;

const MATES: &str = "tests/data/mates.tsv";

fn mates() -> Vec<(String, i64)> {
    let text = std::fs::read_to_string(MATES).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (fen, n) = l.split_once('\t').unwrap();
            (fen.to_string(), n.trim().parse().unwrap())
        })
        .collect()
}

fn analyze(extra: &[&str], fens: &str) -> Vec<Value> {
    let out = Command::cargo_bin("janggi")
        .unwrap()
        .args(["analyze", "--depth", "8"])
        .args(extra)
        .write_stdin(fens)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn analysis_at_depth_8_reports_every_mate_in_three_or_less() {
    let mates = mates();
    assert!(mates.len() >= 19, "{} mates in {MATES}", mates.len());
    let fens: String = mates.iter().map(|(f, _)| format!("{f}\n")).collect();
    for eval in [&[][..], &["--classical"][..]] {
        let results = analyze(eval, &fens);
        assert_eq!(results.len(), mates.len());
        let missed: Vec<String> = mates
            .iter()
            .zip(&results)
            .filter(|((_, n), r)| r["score"]["mate"].as_i64().is_none_or(|m| m <= 0 || m > *n))
            .map(|((fen, n), r)| format!("mate in {n} {fen}: {}", r["score"]))
            .collect();
        assert!(missed.is_empty(), "{eval:?}: {} of {} missed:\n{}", missed.len(), mates.len(), missed.join("\n"));
    }
}
