//! Work split into shards through the real binary: a match played as shards (`--shard I/N`, or the index from
//! `JOB_COMPLETION_INDEX` or `SLURM_ARRAY_TASK_ID`) and joined by `janggi merge` prints exactly the table of the
//! same match played in one process, with the same games; each shard has its own PGN and JSON summary and
//! resumes on its own; an analysis shard takes every N-th position.

use janggi::records::pgn::{self, PgnGame};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Output;

mod batch;
use batch::{BIN, janggi};

fn workdir(name: &str) -> PathBuf {
    let dir = batch::workdir("shards", name);
    let text = format!(
        "[[engine]]\nname = \"janggi\"\ncommand = \"{BIN}\"\n\n[[engine]]\nname = \"janggi-skill10\"\ncommand = \
         \"{BIN}\"\n[engine.options]\n\"Skill Level\" = 10\n"
    );
    std::fs::write(dir.join("engines.toml"), text).unwrap();
    dir
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The table from the ranking to the forfeits: what a single run and a merge must agree on.
fn table(stdout: &str) -> String {
    let start = stdout.find("Rank").expect("a table");
    let end = stdout.find("Forfeits:").expect("a forfeits line");
    let end = end + stdout[end..].find('\n').unwrap();
    stdout[start..=end].to_string()
}

/// Games by round: (white, black, result, moves).
fn by_round(games: &[PgnGame]) -> BTreeMap<u32, (String, String, String, Vec<String>)> {
    games
        .iter()
        .map(|g| {
            let tag = |n: &str| g.tag(n).unwrap_or("?").to_string();
            (g.tag("Round").unwrap().parse().unwrap(), (tag("White"), tag("Black"), tag("Result"), g.moves.clone()))
        })
        .collect()
}

/// `janggi match` of `games` games at depth `depth`, then `more`.
fn match_args<'a>(games: &'a str, depth: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    [&["match", "--games", games, "--depth", depth][..], more].concat()
}

#[test]
fn shards_plus_merge_give_exactly_the_single_run_table_and_games() {
    let dir = workdir("merge");
    let single = janggi(&dir, &match_args("10", "3", &["--concurrency", "2", "--pgn", "one.pgn"]), &[]);
    assert!(single.status.success(), "{}", String::from_utf8_lossy(&single.stderr));
    let mut shard_files = Vec::new();
    for i in 0..3 {
        let flag = format!("{i}/3");
        let out = janggi(&dir, &match_args("10", "3", &["--pgn", "s.pgn", "--shard", &flag]), &[]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(text(&out).starts_with(&format!("Match default shard {i}/3:")), "{}", text(&out));
        shard_files.push(format!("s.{i}-of-3.pgn"));
    }
    // Shard i plays the pairs i, i+3, ...: pair k is rounds 2k+1 and 2k+2.
    let rounds: Vec<u32> = by_round(&pgn::read_file(&dir.join("s.1-of-3.pgn")).unwrap()).into_keys().collect();
    assert_eq!(rounds, vec![3, 4, 9, 10]);

    let mut args = vec!["merge"];
    args.extend(shard_files.iter().map(String::as_str));
    let merged = janggi(&dir, &args, &[]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    assert!(text(&merged).starts_with("Merged 3 PGN files: 10 games of Janggi"), "{}", text(&merged));
    assert_eq!(table(&text(&merged)), table(&text(&single)));
    assert!(table(&text(&single)).contains("pairs [0, 0.5, 1, 1.5, 2 points]: ["), "{}", text(&single));

    // The same games, move for move, whichever process played them.
    let one = by_round(&pgn::read_file(&dir.join("one.pgn")).unwrap());
    let mut sharded = BTreeMap::new();
    for f in &shard_files {
        sharded.extend(by_round(&pgn::read_file(&dir.join(f)).unwrap()));
    }
    assert_eq!(one.len(), 10);
    assert_eq!(sharded, one);
}

#[test]
fn merge_decides_the_sprt_on_trinomial_and_pair_counts() {
    let dir = workdir("sprt");
    let out = janggi(&dir, &match_args("6", "2", &["--pgn", "g.pgn"]), &[]);
    assert!(out.status.success());
    let merged = janggi(&dir, &["merge", "--sprt", "0,20", "g.pgn"], &[]);
    let t = text(&merged);
    assert!(t.contains("SPRT (GSPRT, logistic Elo) elo0 0 elo1 20 alpha 0.05 beta 0.05: LLR"), "{t}");
    assert!(t.contains("SPRT (GSPRT on game pairs, logistic Elo) elo0 0 elo1 20"), "{t}");
    // Bad input: a clear error and a failing exit, no panic.
    for args in [&["merge", "missing.pgn"][..], &["merge", "engines.toml"][..]] {
        let bad = janggi(&dir, args, &[]);
        assert!(!bad.status.success());
        assert!(String::from_utf8_lossy(&bad.stderr).starts_with("error: "), "{:?}", bad);
    }
    std::fs::write(dir.join("noround.pgn"), "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0\n").unwrap();
    let bad = janggi(&dir, &["merge", "noround.pgn"], &[]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no Round number"));
}

#[test]
fn the_shard_index_comes_from_kubernetes_or_slurm() {
    let dir = workdir("env");
    let args = match_args("8", "2", &["--pgn", "m.pgn"]);
    // Kubernetes Indexed Job: the index from JOB_COMPLETION_INDEX, the count from --shard auto/N.
    let k8s = janggi(&dir, &[&args[..], &["--shard", "auto/2"]].concat(), &[("JOB_COMPLETION_INDEX", "1")]);
    assert!(k8s.status.success(), "{}", String::from_utf8_lossy(&k8s.stderr));
    let rounds: Vec<u32> = by_round(&pgn::read_file(&dir.join("m.1-of-2.pgn")).unwrap()).into_keys().collect();
    assert_eq!(rounds, vec![3, 4, 7, 8]);
    // Without the count Kubernetes gives none: an error, not the whole match in every pod.
    let unknown = janggi(&dir, &args, &[("JOB_COMPLETION_INDEX", "1")]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("--shard auto/N"));
    // A Slurm array task needs no flag: --array=1-2 gives task ids 1 and 2, shards 0 and 1.
    let slurm = [("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "2")];
    let out = janggi(&dir, &args, &slurm);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rounds: Vec<u32> = by_round(&pgn::read_file(&dir.join("m.0-of-2.pgn")).unwrap()).into_keys().collect();
    assert_eq!(rounds, vec![1, 2, 5, 6]);
    // Each shard's JSON summary names it.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("m.0-of-2.json")).unwrap()).unwrap();
    assert_eq!(json["shard"], serde_json::json!({ "index": 0, "count": 2 }));
    assert_eq!(json["games"], 4);
    assert_eq!(
        json["results"][0]["pentanomial"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum::<u64>(),
        2
    );
}

#[test]
fn a_shard_resumes_its_own_file() {
    let dir = workdir("resume");
    let args = match_args("8", "2", &["--pgn", "r.pgn", "--shard", "1/2"]);
    assert!(janggi(&dir, &args, &[]).status.success());
    let path = dir.join("r.1-of-2.pgn");
    let full = std::fs::read_to_string(&path).unwrap();
    let before = by_round(&pgn::read_file(&path).unwrap());
    // Keep the first game only, as if the task had been stopped.
    let cut = full.match_indices("[Event ").nth(1).unwrap().0;
    std::fs::write(&path, &full[..cut]).unwrap();
    let again = janggi(&dir, &args, &[]);
    assert!(!again.status.success(), "an existing shard file needs --resume");
    let resumed = janggi(&dir, &[&args[..], &["--resume"]].concat(), &[]);
    assert!(resumed.status.success());
    assert!(text(&resumed).contains("(1 games were read from r.1-of-2.pgn"), "{}", text(&resumed));
    assert_eq!(by_round(&pgn::read_file(&path).unwrap()), before);
}

#[test]
fn an_analysis_shard_takes_every_nth_position() {
    let dir = workdir("analyze");
    let fens = [
        "3k5/9/9/9/4P4/9/9/9/5K3/R7R w - - 0 1",
        "# a comment is no position",
        "4k4/9/9/9/9/9/9/9/4K4/R8 w - - 0 1",
        "not a position",
        "4k4/9/9/9/9/9/9/9/3K5/R7r b - - 0 1",
        "3k5/9/9/9/9/9/9/9/5K3/R8 w - - 0 1",
    ];
    std::fs::write(dir.join("in.epd"), fens.join("\n")).unwrap();
    let lines = |out: &Output| -> Vec<serde_json::Value> {
        text(out).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    // Positions (and unreadable lines) are items 0..4, comments are none: shard 1/2 takes items 1 and 3.
    let out = janggi(&dir, &["analyze", "--depth", "3", "--shard", "1/2", "in.epd"], &[]);
    let got = lines(&out);
    assert_eq!(got.len(), 2, "{}", text(&out));
    assert_eq!(got[0]["fen"], fens[2]);
    assert_eq!(got[1]["fen"], fens[4]);
    let k8s =
        janggi(&dir, &["analyze", "--depth", "3", "--shard", "auto/2", "in.epd"], &[("JOB_COMPLETION_INDEX", "0")]);
    let got = lines(&k8s);
    assert_eq!(got.len(), 3);
    assert_eq!(got[0]["fen"], fens[0]);
    assert_eq!(got[1]["line"], 4, "the unreadable line keeps its line number");
    assert_eq!(got[2]["fen"], fens[5]);
    assert!(!k8s.status.success(), "an unreadable line still fails the run");
}
