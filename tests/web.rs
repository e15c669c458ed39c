//! The engine in a browser: builds the WebAssembly package (`web/build.sh`), serves it with the COOP/COEP headers
//! its shared memory needs (`web/serve.py`) and drives pages in Debian's headless `chromium`. A page reports what
//! it saw by POSTing JSON to the server, which writes one line per report; the tests compare those reports with
//! the native binary: the same `uci` text, the same best move and node count at depth 9 with the net and with the
//! classical evaluation, Fairy-Stockfish's recorded eval tables for the embedded net and for a net given as bytes,
//! `stop` answered at once during `go infinite`, `ponderhit`, two search threads, a refused net, and the demo page
//! playing legal moves against the engine.
//!
//! `.ci/run` installs the toolchain (Debian's `rustc-web cargo-web rust-web-src lld-22`) and `chromium`; without
//! them these tests fail under `CI=true` and elsewhere say loudly on stderr that they skipped.

mod common;

use common::Engine;
use janggi::board::{Position, Rules, START_FEN};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");
/// How long one page may run before the test fails.
const PAGE_TIMEOUT: Duration = Duration::from_secs(300);

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Whether the package can be built and run here. Under CI (`CI=true`) a missing tool is a failure: CI installs
/// them, so their absence means the browser build went untested.
fn tools_present() -> bool {
    let missing: Vec<&str> = [
        ("/usr/bin/cargo", "cargo-web"),
        ("/usr/bin/rustc", "rustc-web"),
        ("/usr/lib/rustlib/src/rust/library/std", "rust-web-src"),
    ]
    .iter()
    .filter(|(path, _)| !Path::new(path).exists())
    .map(|(_, package)| *package)
    .chain(
        (!Command::new("chromium").arg("--version").output().is_ok_and(|o| o.status.success())).then_some("chromium"),
    )
    .chain((!wasm_ld_present()).then_some("lld-22"))
    .collect();
    if missing.is_empty() {
        return true;
    }
    let install = format!("apt-get install -y --no-install-recommends {}", missing.join(" "));
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "missing under CI=true, so the browser build cannot be tested: {install}"
    );
    eprintln!("SKIPPED: the WebAssembly package tests need {}; install them: {install}", missing.join(", "));
    false
}

fn wasm_ld_present() -> bool {
    std::fs::read_dir("/usr/lib")
        .map(|dirs| {
            dirs.flatten()
                .any(|d| d.file_name().to_string_lossy().starts_with("llvm-") && d.path().join("bin/wasm-ld").exists())
        })
        .unwrap_or(false)
}

/// Builds the package once for all tests of this file.
fn build_package() {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let out = Command::new("bash").arg(repo().join("web/build.sh")).output().expect("bash runs");
        if out.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) }
    });
    if let Err(e) = built {
        panic!("web/build.sh failed:\n{e}");
    }
}

/// A served folder: the repository's `web/` and `tests/web/` linked in, plus the test's own files.
struct Site {
    root: PathBuf,
}

impl Site {
    fn new(name: &str) -> Site {
        let root = std::env::temp_dir().join(format!("janggi-web-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("tests")).unwrap();
        std::os::unix::fs::symlink(repo().join("web"), root.join("web")).unwrap();
        std::os::unix::fs::symlink(repo().join("tests/web"), root.join("tests/web")).unwrap();
        Site { root }
    }

    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) {
        std::fs::write(self.root.join(name), bytes).unwrap();
    }

    /// Opens `page` (a path with its query) in headless Chromium and returns the reports it POSTed, once it
    /// reported `{"done": true}`. A report `{"check": "error"}` or a message on the console fails the test.
    fn run(&self, page: &str) -> Vec<Value> {
        let report = self.root.join("report.txt");
        let _ = std::fs::remove_file(&report);
        let mut server = Killed(
            Command::new("python3")
                .arg(repo().join("web/serve.py"))
                .args(["--port", "0", "--root"])
                .arg(&self.root)
                .arg("--report")
                .arg(&report)
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("python3 starts"),
        );
        let mut port = String::new();
        BufReader::new(server.0.stdout.take().unwrap()).read_line(&mut port).unwrap();
        let url = format!("http://127.0.0.1:{}/{page}", port.trim());
        let browser_log = self.root.join("chromium.log");
        let _browser = Killed(
            Command::new("chromium")
                .args(common::HEADLESS_CHROMIUM)
                // Keeps the browser running the page instead of exiting after the first load.
                .arg("--remote-debugging-port=0")
                .arg(format!("--user-data-dir={}", self.root.join("profile").display()))
                .arg(&url)
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(&browser_log).unwrap())
                .spawn()
                .expect("chromium starts"),
        );
        let start = Instant::now();
        let reports = loop {
            let text = std::fs::read_to_string(&report).unwrap_or_default();
            let reports: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("a JSON report")).collect();
            if reports.iter().any(|r| r["done"] == true) {
                break reports;
            }
            assert!(start.elapsed() < PAGE_TIMEOUT, "{page} did not finish; reports so far: {text}");
            std::thread::sleep(Duration::from_millis(200));
        };
        let log = std::fs::read_to_string(&browser_log).unwrap_or_default();
        let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
        assert!(console.is_empty(), "{page} wrote to the console:\n{}", console.join("\n"));
        let errors: Vec<&Value> = reports.iter().filter(|r| r["check"] == "error").collect();
        assert!(errors.is_empty(), "{page} failed: {errors:?}");
        reports
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A child process killed when the test lets go of it.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn check<'a>(reports: &'a [Value], name: &str) -> Vec<&'a Value> {
    let found: Vec<&Value> = reports.iter().filter(|r| r["check"] == name).collect();
    assert!(!found.is_empty(), "no '{name}' report in {reports:?}");
    found
}

fn lines(report: &Value) -> Vec<String> {
    report["lines"].as_array().expect("lines").iter().map(|l| l.as_str().unwrap().to_string()).collect()
}

/// The FENs and expected table summaries of a recorded file (`fen<TAB>summary`).
fn recorded_tables(file: &str) -> Vec<(String, String)> {
    std::fs::read_to_string(repo().join(file))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_once('\t').map(|(f, s)| (f.to_string(), s.to_string())).unwrap())
        .collect()
}

fn native(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The seed of the random net that Fairy-Stockfish's tables in `tests/data/nnue_fs_eval.tsv` were taken with.
fn recorded_seed() -> String {
    let text = std::fs::read_to_string(repo().join("tests/data/nnue_random_net.txt")).unwrap();
    text.lines().find_map(|l| l.strip_prefix("seed")).unwrap().trim().to_string()
}

/// A site for test `name` with the package built, or `None` when the tools are missing (see `tools_present`).
fn site(name: &str) -> Option<Site> {
    if !tools_present() {
        return None;
    }
    build_package();
    Some(Site::new(name))
}

#[test]
fn the_package_speaks_the_native_engines_protocol_and_computes_its_numbers() {
    let Some(site) = site("protocol") else { return };
    let net = site.root.join("random.nnue");
    native(&["nnue", "random", "--seed", &recorded_seed(), "--out", net.to_str().unwrap()]);
    let given = recorded_tables("tests/data/nnue_fs_eval.tsv");
    let default = recorded_tables("tests/data/nnue_fs_eval_default_net.tsv");
    site.write("given.txt", given.iter().map(|(f, _)| format!("{f}\n")).collect::<String>());
    site.write("default.txt", default.iter().map(|(f, _)| format!("{f}\n")).collect::<String>());
    let reports = site.run("tests/web/engine.html?defaultFens=/default.txt&net=/random.nnue&fens=/given.txt");

    // The same text as the native engine's `uci`.
    let mut e = Engine::start();
    e.send("uci");
    let native_uci = e.read_until(|l| l == "uciok");
    assert_eq!(lines(check(&reports, "uci")[0]), native_uci);

    // The same search: best move and node count at depth 9, one thread, with the net and the classical terms.
    for depth in check(&reports, "depth") {
        let nnue = depth["eval"] == "nnue";
        let mut e = Engine::start_uci();
        for line in [
            "setoption name Threads value 1",
            &format!("setoption name Use NNUE value {nnue}"),
            "ucinewgame",
            "position startpos",
            "go depth 9",
        ] {
            e.send(line);
        }
        let out = e.read_until(|l| l.starts_with("bestmove"));
        let nodes: u64 = out
            .iter()
            .rev()
            .find_map(|l| l.split_once(" nodes ").map(|(_, rest)| rest.split(' ').next().unwrap().parse().unwrap()))
            .unwrap();
        assert_eq!(depth["bestmove"].as_str().unwrap(), out.last().unwrap(), "{depth}");
        assert_eq!(depth["nodes"].as_u64().unwrap(), nodes, "{depth}");
    }

    // A search answers `isready` and `stop` at once; `ponderhit` turns pondering into a search that ends.
    let infinite = check(&reports, "infinite")[0];
    assert!(infinite["readyMs"].as_f64().unwrap() < 1000.0, "{infinite}");
    assert!(infinite["stopMs"].as_f64().unwrap() < 1000.0, "{infinite}");
    assert!(infinite["bestmove"].as_str().unwrap().starts_with("bestmove "), "{infinite}");
    assert!(check(&reports, "ponderhit")[0]["bestmove"].as_str().unwrap().starts_with("bestmove "));

    // Lazy SMP: two threads search and agree on a legal move.
    let threads = check(&reports, "threads")[0];
    let best = threads["bestmove"].as_str().unwrap().split(' ').nth(1).unwrap();
    let start = Position::from_fen(START_FEN, Rules::JANGGI).unwrap();
    assert!(start.clone().play_moves(&[best], janggi::board::Notation::default()).is_ok(), "{threads}");

    // Fairy-Stockfish's eval tables: the embedded net, then a net given as bytes.
    for (name, expected) in [("default net", &default), ("net", &given)] {
        let ours = common::nnue_summaries(&lines(check(&reports, name)[0]).join("\n"));
        assert_eq!(ours.len(), expected.len(), "{name}");
        for ((fen, theirs), (our_fen, mine)) in expected.iter().zip(&ours) {
            assert_eq!((fen, theirs), (our_fen, mine), "{name}");
        }
    }

    // A file that is not a net is refused, and the engine still plays.
    let bad = check(&reports, "bad net")[0];
    assert!(bad["refusal"][0].as_str().unwrap().starts_with("info string error: option 'EvalFile'"), "{bad}");
    assert!(bad["bestmove"].as_str().unwrap().starts_with("bestmove "), "{bad}");

    // `quit` ends the session and the next line starts a new one, in the dialect it names (UCCI here), with the
    // native engine's text.
    let mut e = Engine::start();
    e.send("ucci");
    assert_eq!(lines(check(&reports, "after quit")[0]), e.read_until(|l| l == "ucciok"));
}

#[test]
fn the_demo_page_plays_legal_moves_against_the_engine() {
    let Some(site) = site("demo") else { return };
    let reports = site.run("web/demo/index.html?selftest=3");
    let demo = check(&reports, "demo")[0];
    let moves: Vec<&str> = demo["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(moves.len() >= 6, "three moves of the page's side and the engine's answers: {demo}");
    let mut pos = Position::from_fen(START_FEN, Rules::JANGGI).unwrap();
    pos.play_moves(&moves, janggi::board::Notation::default()).unwrap_or_else(|e| panic!("{e}: {demo}"));
    assert_eq!(demo["fen"].as_str().unwrap(), pos.fen(), "{demo}");
    assert!(demo["board_pieces"].as_u64().unwrap() >= 28, "{demo}");
}
