//! Search parameters as a tuner sees them: `janggi tune params` lists them, `janggi --tune` offers them as options
//! that change the search, and `janggi tune spsa` plays game pairs, writes its trace and resumes from it.

mod common;

use common::Engine;
use janggi::search::params::{SPECS, SearchParams};
use std::path::Path;
use std::process::{Command, Output};

fn janggi(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_janggi")).args(args).current_dir(dir).output().expect("janggi runs")
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("janggi-spsa-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn tune_params_lists_every_parameter_with_its_default_inside_its_range() {
    let out = janggi(&["tune", "params"], &std::env::temp_dir());
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows.len(), SPECS.len());
    let defaults = SearchParams::default();
    for row in &rows {
        let [name, default, min, max, step] = row[..] else { panic!("row {row:?}") };
        let n = |s: &str| s.parse::<i32>().unwrap();
        assert!(n(min) <= n(default) && n(default) <= n(max) && n(step) > 0, "{row:?}");
        assert_eq!(defaults.get(name), Some(n(default)), "the listed default is the one the engine plays with");
    }
}

/// Nodes of a fixed-depth search of the start position, after the given `setoption` lines.
fn nodes_at_depth(args: &[&str], options: &[&str]) -> (u64, Vec<String>) {
    let mut e = Engine::start_with(args);
    e.send("uci");
    let handshake = e.read_until(|l| l == "uciok");
    for o in options {
        e.send(o);
    }
    e.send("position startpos");
    e.send("go depth 7");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let last = lines.iter().rev().find(|l| l.contains(" nodes ")).expect("an info line");
    let words: Vec<&str> = last.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "nodes").unwrap();
    (words[i + 1].parse().unwrap(), handshake)
}

#[test]
fn the_tune_flag_offers_the_parameters_as_options_that_reach_the_search() {
    let (plain, handshake) = nodes_at_depth(&[], &[]);
    assert!(!handshake.iter().any(|l| l.contains("rfp_margin")), "hidden without --tune");
    let (tuned_default, handshake) = nodes_at_depth(&["--tune"], &[]);
    assert!(handshake.contains(&"option name rfp_margin type spin default 103 min 20 max 200".to_string()));
    assert_eq!(plain, tuned_default, "the options' defaults are the engine's values");
    let (changed, _) = nodes_at_depth(&["--tune"], &["setoption name lmr_base_pct value 200"]);
    assert_ne!(changed, plain, "a changed parameter changes the search");
    // A value outside the range is refused and the default kept.
    let (refused, _) = nodes_at_depth(&["--tune"], &["setoption name lmr_base_pct value 900"]);
    assert_eq!(refused, plain);
}

fn trace_rows(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn spsa_plays_pairs_writes_its_trace_and_resumes_from_it() {
    let dir = temp_dir("run");
    let base = ["tune", "spsa", "--params", "rfp_margin,futility_base", "--depth", "2", "--max-plies", "120"];
    let run = |iterations: &str| {
        let mut args = base.to_vec();
        args.extend(["--iterations", iterations, "--concurrency", "2", "--trace", "trace.csv"]);
        janggi(&args, &dir)
    };
    let out = run("3");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = trace_rows(&dir.join("trace.csv"));
    assert_eq!(rows[0], "iteration,result,rfp_margin,futility_base");
    assert_eq!(rows.len(), 1 + 4, "the start and one row per iteration: {rows:?}");
    for (k, row) in rows[1..].iter().enumerate() {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[0], k.to_string());
        let rfp: f64 = f[2].parse().unwrap();
        let futility: f64 = f[3].parse().unwrap();
        assert!((20.0..=200.0).contains(&rfp) && (20.0..=300.0).contains(&futility), "{row}");
        if k > 0 {
            let result: f64 = f[1].parse().unwrap();
            assert!((-2.0..=2.0).contains(&result), "a pair scores -2..2: {row}");
        }
    }
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("rfp_margin") && table.contains("src/search/params.rs"), "{table}");

    // Resuming goes on from the last row to the new total.
    let out = run("5");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let resumed = trace_rows(&dir.join("trace.csv"));
    assert_eq!(resumed.len(), 1 + 6);
    assert_eq!(resumed[..5], rows[..], "the old rows are kept");
    assert!(resumed[6].starts_with("5,"));

    // A trace of other parameters is not mixed with this run.
    let out = janggi(
        &["tune", "spsa", "--params", "rfp_margin", "--depth", "2", "--iterations", "6", "--trace", "trace.csv"],
        &dir,
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("tunes other parameters"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spsa_refuses_unknown_parameters_before_any_game() {
    let dir = temp_dir("bad");
    let out = janggi(&["tune", "spsa", "--params", "no_such_thing", "--trace", "t.csv"], &dir);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown search parameter 'no_such_thing'"));
    assert!(!dir.join("t.csv").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spsa_against_an_opponent_plays_both_sets_against_it_with_both_colours() {
    let dir = temp_dir("opponent");
    let config = format!(
        "[[engine]]\nname = \"rival\"\ncommand = \"{}\"\n[engine.options]\nHash = 16\n\n\
         [[engine]]\nname = \"missing\"\ncommand = \"/no/such/engine\"\n",
        env!("CARGO_BIN_EXE_janggi")
    );
    std::fs::write(dir.join("rivals.toml"), config).unwrap();
    let run = |opponent: &str, trace: &str| {
        Command::new(env!("CARGO_BIN_EXE_janggi"))
            .args(["tune", "spsa", "--params", "rfp_margin", "--depth", "2", "--max-plies", "120"])
            .args(["--iterations", "2", "--config", "rivals.toml", "--opponent", opponent, "--trace", trace])
            .env("RUST_LOG", "info")
            .current_dir(&dir)
            .output()
            .expect("janggi runs")
    };

    let out = run("rival", "trace.csv");
    let log = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{log}");
    // Four games an iteration: θ + cΔ against the rival with both colours, then θ − cΔ.
    for k in 1..=2 {
        let games = log.lines().filter(|l| l.contains(&format!("iteration {k}: "))).count();
        assert_eq!(games, 4, "iteration {k}:\n{log}");
    }
    let rows = trace_rows(&dir.join("trace.csv"));
    assert_eq!(rows.len(), 1 + 3, "{rows:?}");
    for row in &rows[2..] {
        let result: f64 = row.split(',').nth(1).unwrap().parse().unwrap();
        assert!((-2.0..=2.0).contains(&result) && (2.0 * result).fract() == 0.0, "half a difference of pairs: {row}");
    }

    // An opponent the config does not name stops the run before any game; one that cannot start fails it.
    let out = run("nobody", "none.csv");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no engine named 'nobody'"));
    assert!(!dir.join("none.csv").exists());
    let out = run("missing", "missing.csv");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start '/no/such/engine'"));
    assert!(!dir.join("missing.csv").exists(), "no iteration of forfeits is recorded");
    let _ = std::fs::remove_dir_all(&dir);
}
