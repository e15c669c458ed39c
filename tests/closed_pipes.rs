//! A reader that closes early (`janggi bench 2>&1 | head -1`, a host that goes away) ends every command quietly
//! and soon: no panic, no hang. Each case runs in bash with a time limit (`timeout`, exit 124 when it hangs)
//! and reports the command's own exit status.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_janggi");
/// Far more than any of these commands needs when it stops as it should; a hang runs into it.
const LIMIT_S: u32 = 60;

/// Runs `pipeline` (with `$BIN` set) and returns the exit status of its first command and all it printed.
fn first_status(pipeline: &str) -> (i32, String) {
    let script = format!("{pipeline}; echo \"status=${{PIPESTATUS[0]}}\"");
    let out = Command::new("bash").arg("-c").arg(&script).env("BIN", BIN).output().expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let status = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("status="))
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("no status in:\n{text}"));
    (status, text)
}

fn assert_quiet_end(pipeline: &str) {
    let (status, text) = first_status(pipeline);
    assert_ne!(status, 124, "hung past {LIMIT_S} s: {pipeline}\n{text}");
    assert_ne!(status, 101, "panicked: {pipeline}\n{text}");
    assert!(!text.contains("panicked"), "panicked: {pipeline}\n{text}");
    assert!(status == 0 || status == 1 || status == 141, "status {status}: {pipeline}\n{text}");
}

fn lines(name: &str, line: &str, count: usize) -> String {
    let path = std::env::temp_dir().join(format!("janggi-pipes-{}-{name}", std::process::id()));
    std::fs::write(&path, format!("{line}\n").repeat(count)).unwrap();
    path.display().to_string()
}

#[test]
fn bench_with_both_streams_into_a_closed_pipe() {
    assert_quiet_end(&format!("timeout {LIMIT_S} \"$BIN\" bench --depth 9 2>&1 | head -1"));
}

#[test]
fn bench_with_stderr_closed_and_stdout_kept() {
    assert_quiet_end(&format!("timeout {LIMIT_S} \"$BIN\" bench --depth 7 2>&1 >/dev/null | head -1"));
}

#[test]
fn analyze_of_bad_lines_into_a_closed_pipe() {
    let file = lines("bad", "not a position", 5000);
    assert_quiet_end(&format!("timeout {LIMIT_S} \"$BIN\" analyze {file} 2>&1 | head -1"));
}

#[test]
fn analyze_of_many_positions_into_a_closed_pipe() {
    let file = lines("good", "4k4/9/4a4/9/9/9/9/9/3K5/R7r b - - 0 1", 2000);
    assert_quiet_end(&format!(
        "timeout {LIMIT_S} \"$BIN\" analyze --depth 10 --threads 2 {file} 2>/dev/null | head -1"
    ));
}

#[test]
fn perft_divide_into_a_closed_pipe() {
    assert_quiet_end(&format!("timeout {LIMIT_S} \"$BIN\" perft --depth 4 --divide 2>&1 | head -1"));
}

#[test]
fn a_search_whose_host_closed_its_output_but_not_its_input_ends() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut engine =
        Command::new(BIN).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut input = engine.stdin.take().unwrap();
    input.write_all(b"uci\nposition startpos\ngo infinite\n").unwrap();
    let mut output = BufReader::new(engine.stdout.take().unwrap());
    let mut first = String::new();
    output.read_line(&mut first).unwrap();
    assert!(first.starts_with("id name"), "{first}");
    // The host stops reading but keeps the input open: only the closed output can end the infinite search.
    drop(output);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(u64::from(LIMIT_S));
    let status = loop {
        if let Some(status) = engine.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = engine.kill();
            panic!("the engine ran on after its host closed the output");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    drop(input);
    let mut err = String::new();
    std::io::Read::read_to_string(&mut engine.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(141), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn the_protocol_loop_whose_host_stops_reading() {
    assert_quiet_end(&format!(
        "(echo uci; echo 'go depth 30'; sleep 3; echo stop; echo quit) | timeout {LIMIT_S} \"$BIN\" 2>&1 | head -2"
    ));
}
