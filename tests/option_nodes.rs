//! `tools/option_nodes.py` end to end with the real binary: the node totals it prints are the searches' own, an
//! option set to its default leaves the tree exactly as it was, one that prunes changes it, and a malformed
//! option is refused.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");
const TOOL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/option_nodes.py");

fn tool(args: &[&str]) -> Output {
    Command::new("python3").arg(TOOL).args(["--ours", BIN, "--depth", "5"]).args(args).output().expect("python3 runs")
}

/// The two node totals of a successful run: the defaults' and the options'.
fn totals(out: &Output) -> (u64, u64) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let counts: Vec<u64> = text
        .lines()
        .map(|l| {
            let before = l.split(" nodes").next().unwrap();
            before.rsplit(' ').next().unwrap().parse().unwrap_or_else(|_| panic!("no node count in {l:?}"))
        })
        .collect();
    assert_eq!(counts.len(), 2, "{text}");
    assert!(text.contains("(37 positions)"), "{text}");
    (counts[0], counts[1])
}

#[test]
fn an_option_at_its_default_leaves_the_tree_as_it_was() {
    let (base, same) = totals(&tool(&["aspiration_window=25"]));
    assert!(base > 1000);
    assert_eq!(base, same);
}

#[test]
fn pruning_less_changes_the_tree() {
    let (base, spared) = totals(&tool(&["history_prune_depth=0", "conthist_prune_depth=0"]));
    assert!(spared > 0 && spared != base, "{base} {spared}");
}

#[test]
fn a_malformed_option_is_refused() {
    let out = tool(&["history_prune_depth"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("NAME=VALUE"));
}

#[test]
fn no_razoring_and_no_capture_limit_in_quiescence_change_the_tree() {
    for option in ["razor_max_depth=0", "qs_capture_limit=0"] {
        let (base, changed) = totals(&tool(&[option]));
        assert!(changed > 0 && changed != base, "{option}: {base} {changed}");
    }
}
