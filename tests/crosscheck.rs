//! Legal moves and game status agree with the reference implementation (pyffish, Fairy-Stockfish's Python
//! binding) over a few thousand positions of random games in the four rule sets both implement.
//! Needs `pip install pyffish`; `.ci/run` installs it.

use std::process::Command;

#[test]
fn rules_agree_with_the_reference_over_random_games() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/crosscheck.py");
    let out = Command::new("python3")
        .args([script, "--binary", env!("CARGO_BIN_EXE_janggi"), "--games", "48", "--seed", "2026"])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "crosscheck failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains(" 0 mismatches"), "{stdout}");
}
