//! One generation of the net (`tools/net_next.py`) through the real binary, on a tiny budget: self-play data
//! from the shipped net, a candidate trained from it, a match against the parent and the verdict; a second call
//! with other settings refused, and a candidate the engine cannot load refused before any game; a foreign or
//! corrupt data file refused with its name; and a run killed in the middle of its data that keeps every finished
//! game and goes on with a new seed.

use janggi::datagen::record::{self, HEADER_BYTES, RECORD_BYTES};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");

fn workdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("net_next").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tool(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new("python3");
    command
        .current_dir(dir)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/net_next.py"))
        .args(["--binary", BIN, "--threads", "2"])
        .args(args);
    command
}

fn run(dir: &Path, args: &[&str]) -> Output {
    tool(dir, args).output().expect("python3 runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The settings of a tiny generation: a few hundred positions at 200 nodes, one epoch, four games at 20 ms a move.
const TINY: [&str; 14] = [
    "--dir",
    "run",
    "--positions",
    "400",
    "--nodes",
    "200",
    "--epochs",
    "1",
    "--games",
    "4",
    "--tc",
    "20ms",
    "--concurrency",
    "2",
];

fn positions(path: &Path) -> u64 {
    (std::fs::metadata(path).unwrap().len() - HEADER_BYTES as u64) / RECORD_BYTES as u64
}

fn data_files(run: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(run.join("data")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

#[test]
fn a_tiny_generation_runs_data_training_match_and_verdict_and_refuses_other_settings() {
    let dir = workdir("tiny");
    let out = run(&dir, &TINY);
    assert!(out.status.success(), "net_next failed:\n{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let verdict = stdout.lines().next().unwrap_or_default();
    assert!(
        ["verdict: replace", "verdict: keep", "verdict: undecided"].contains(&verdict),
        "first line: {verdict:?}\n{stdout}"
    );
    assert!(stdout.contains(" 4 games, Elo "), "{stdout}");
    assert!(stdout.contains("SPRT [0,10] on game pairs: LLR "), "{stdout}");
    let run_dir = dir.join("run");
    // The data: at least the positions asked for, every record a legal position of its game.
    let files = data_files(&run_dir);
    let total: u64 = files.iter().map(|f| positions(f)).sum();
    assert!(total >= 400, "{total} positions in {files:?}");
    for f in &files {
        let read = record::open(f).unwrap().collect::<Result<Vec<_>, _>>().unwrap();
        assert_eq!(read.len() as u64, positions(f));
    }
    // The candidate, named as shipped nets are, reads as a net of the format.
    let name = std::fs::read_to_string(run_dir.join("train/candidate.txt")).unwrap();
    let name = name.trim();
    assert!(name.starts_with("janggi-") && name.ends_with(".nnue") && name.len() == "janggi-.nnue".len() + 12);
    let info = Command::new(BIN).args(["nnue", "info"]).arg(run_dir.join("train").join(name)).output().unwrap();
    assert!(info.status.success(), "{}", text(&info.stderr));
    // The match: four games of the candidate against the parent, in the verdict file too.
    let pgn = std::fs::read_to_string(run_dir.join("match.pgn")).unwrap();
    assert_eq!(pgn.matches("[Result ").count(), 4);
    assert!(pgn.contains("[White \"candidate\"]") && pgn.contains("[White \"parent\"]"));
    assert!(std::fs::read_to_string(run_dir.join("verdict.txt")).unwrap().starts_with(verdict));

    // Done steps are not done again: a second call plays no game and prints the same verdict.
    let again = run(&dir, &TINY);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout).lines().next().unwrap_or_default(), verdict);
    assert_eq!(std::fs::read_to_string(run_dir.join("match.pgn")).unwrap(), pgn);

    // Another setting in the same folder would mix two experiments: refused, nothing changed.
    let mut other = TINY.to_vec();
    other[5] = "300";
    let refused = run(&dir, &other);
    assert!(!refused.status.success());
    let err = text(&refused.stderr);
    assert!(err.contains("--nodes 200") && err.contains("300") && err.contains("never mixed"), "{err}");
    assert_eq!(data_files(&run_dir), files);

    // A candidate the engine cannot load is refused before any game (it would play its embedded net instead):
    // with the last two games still to play, the match stops at the engines' set-up and adds nothing.
    std::fs::write(run_dir.join("train").join(name), b"not a net").unwrap();
    let third = pgn.match_indices("[Event ").nth(2).map(|(i, _)| i).expect("four games");
    let two_games = &pgn[..third];
    std::fs::write(run_dir.join("match.pgn"), two_games).unwrap();
    let broken = run(&dir, &["--dir", "run", "--step", "match"]);
    assert!(!broken.status.success());
    let err = text(&broken.stderr);
    assert!(err.contains("engine 'candidate' refused its configuration") && err.contains(name), "{err}");
    assert_eq!(std::fs::read_to_string(run_dir.join("match.pgn")).unwrap(), two_games);
}

#[test]
fn a_foreign_or_corrupt_data_file_is_refused_with_its_name() {
    let dir = workdir("foreign");
    let data = dir.join("run/data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("notes.bin"), b"these are not positions at all, just text").unwrap();
    let out = run(&dir, &TINY);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("notes.bin") && err.contains("not a datagen file"), "{err}");
    assert!(!dir.join("run/train").exists(), "nothing trained on it");

    // A file with the right header but a record that is not a position: the trainer names the file and record.
    std::fs::remove_file(data.join("notes.bin")).unwrap();
    let mut bytes = Vec::from(*b"JANGGIDG");
    bytes.extend_from_slice(&[1, 0, 32, 0, 0, 0, 0, 0]);
    bytes.extend_from_slice(&[0xff; 32]);
    std::fs::write(data.join("bad.bin"), bytes).unwrap();
    let out = run(&dir, &["--dir", "run", "--step", "train"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("bad.bin") && err.contains("record 1"), "{err}");
    assert!(!dir.join("run/train/candidate.txt").exists());
}

#[test]
fn a_run_killed_while_making_data_keeps_every_finished_game_and_goes_on_with_a_new_seed() {
    let dir = workdir("killed");
    let settings = ["--dir", "run", "--step", "datagen", "--positions", "1000000", "--nodes", "200"];
    let mut child = tool(&dir, &settings).stdout(Stdio::null()).stderr(Stdio::null()).process_group(0).spawn().unwrap();
    let first = dir.join("run/data/gen-1.bin");
    let start = Instant::now();
    while !first.exists() || positions(&first) < 300 {
        assert!(start.elapsed() < Duration::from_secs(120), "no data after two minutes");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The tool dies at once (its whole process group); its datagen, in a session of its own, is told as by
    // Ctrl-C, finishes its games and exits, and holds the run's lock until then.
    let group = format!("-{}", child.id());
    assert!(Command::new("kill").args(["-KILL", "--", &group]).status().unwrap().success());
    child.wait().unwrap();
    let killed_at = positions(&first);
    let start = Instant::now();
    loop {
        let out = run(&dir, &["--dir", "run", "--step", "verdict"]);
        let err = text(&out.stderr);
        if !err.contains("still working in run") {
            assert!(err.contains("no match games yet"), "{err}");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "the orphaned datagen never stopped");
        std::thread::sleep(Duration::from_millis(100));
    }
    let before = std::fs::metadata(&first).unwrap().len();
    assert_eq!((before - HEADER_BYTES as u64) % RECORD_BYTES as u64, 0, "the games in progress were written whole");
    assert!(positions(&first) >= killed_at);
    // What a machine that died in the middle of a write would leave: half a record.
    let mut bytes = std::fs::read(&first).unwrap();
    bytes.extend_from_slice(&[7; 13]);
    std::fs::write(&first, &bytes).unwrap();

    // The same command with a time budget: the cut record is trimmed, every earlier one kept, and a new seed
    // adds games in a file of its own.
    let mut resumed = settings.to_vec();
    resumed.extend_from_slice(&["--hours", "0.0004"]);
    let out = run(&dir, &resumed);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("trimming a record cut short (13 bytes)"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&first).unwrap()[..], bytes[..before as usize]);
    let second = dir.join("run/data/gen-2.bin");
    assert!(second.exists() && positions(&second) > 0, "{:?}", data_files(&dir.join("run")));
    let stats = Command::new(BIN).args(["datagen", "stats"]).args(data_files(&dir.join("run"))).output().unwrap();
    assert!(stats.status.success(), "every record reads: {}", text(&stats.stderr));
}
