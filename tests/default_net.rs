//! The default net: the file committed in `nets/` is the one embedded in the binary, named by its sha256, the
//! evaluation the engine plays with when no `EvalFile` is set, and announced as `EvalFile`'s default value as
//! Fairy-Stockfish announces its own; `Use NNUE false` or an empty `EvalFile` return to the classical evaluation;
//! `bench`, `analyze` and `datagen` use it unless told `--classical` or `--net FILE`.

mod batch;
mod common;

use batch::{janggi, janggi_with_stdin};
use common::Engine;
use janggi::eval::nnue::DEFAULT_NET_NAME;
use janggi::eval::nnue::digest::sha256_hex;
use std::path::PathBuf;

fn committed_net() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("nets").join(DEFAULT_NET_NAME)
}

fn stdout(out: std::process::Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_committed_net_is_named_by_its_sha256_and_is_the_only_one() {
    let bytes = std::fs::read(committed_net()).unwrap();
    assert_eq!(DEFAULT_NET_NAME, format!("janggi-{}.nnue", &sha256_hex(&bytes)[..12]));
    let nets: Vec<_> = std::fs::read_dir(committed_net().parent().unwrap()).unwrap().collect();
    assert_eq!(nets.len(), 1, "nets/ holds the default net only");
}

/// Fairy-Stockfish's `eval` tables for the shipped net on 200 positions of random games in the four host rule
/// sets (`tools/nnue_compare.py --net nets/… --write-data`; 2,000 positions compared, none differed). Re-record
/// them when the default net changes.
const FS_TABLES: &str = "tests/data/nnue_fs_eval_default_net.tsv";

#[test]
fn fairy_stockfish_evaluates_the_shipped_net_exactly_as_we_do() {
    let text = std::fs::read_to_string(FS_TABLES).unwrap();
    let expected: Vec<(&str, &str)> =
        text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split_once('\t').unwrap()).collect();
    assert!(expected.len() >= 200, "{} recorded positions", expected.len());
    let fens: String = expected.iter().map(|(fen, _)| format!("{fen}\n")).collect();
    let dir = batch::workdir("default_net", "tables");
    let net = committed_net();
    let ours = common::nnue_summaries(&stdout(janggi_with_stdin(
        &dir,
        &["nnue", "eval", "--net", net.to_str().unwrap()],
        &fens,
    )));
    assert_eq!(ours.len(), expected.len());
    for ((fen, theirs), (our_fen, mine)) in expected.iter().zip(&ours) {
        assert_eq!((fen, theirs), (&our_fen.as_str(), &mine.as_str()));
    }
}

/// Fairy-Stockfish's `Final evaluation` (the net scaled by material, then faded toward the move-count rule's
/// verdict as the plies without a capture run out) on 200 positions of random games in the four host rule sets,
/// with halfmove clocks drawn across each rule's range (`tools/final_eval_compare.py --net nets/… --write-data`;
/// 2,000 positions compared, none more than 0.02 apart). The engines round centipawns differently, so values
/// agree to within 0.02 soldiers.
const FS_FINAL: &str = "tests/data/fs_final_eval_default_net.tsv";

#[test]
fn the_evaluation_the_search_starts_from_is_fairy_stockfishs_final_evaluation() {
    let text = std::fs::read_to_string(FS_FINAL).unwrap();
    let expected: Vec<Vec<&str>> =
        text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split('\t').collect()).collect();
    assert!(expected.len() >= 200, "{} recorded positions", expected.len());
    let (mut e, mut variant) = (Engine::start(), "");
    e.send("uci");
    e.read_until(|l| l == "uciok");
    let mut clocks_near_the_limit = 0;
    for row in &expected {
        let [rules, fen, theirs] = row[..] else { panic!("bad row {row:?}") };
        if rules != variant {
            e.send(&format!("setoption name UCI_Variant value {rules}"));
            variant = rules;
        }
        e.send(&format!("position fen {fen}"));
        let lines = e.eval_lines();
        let last = lines.last().unwrap();
        let mine: f64 = last.split_whitespace().nth(2).and_then(|v| v.parse().ok()).expect(last);
        let theirs: f64 = theirs.parse().unwrap();
        assert!((mine - theirs).abs() <= 0.02 + 1e-9, "{rules} {fen}: ours {mine}, Fairy-Stockfish {theirs}");
        let halfmove: u32 = fen.split_whitespace().nth(4).unwrap().parse().unwrap();
        clocks_near_the_limit += usize::from(halfmove >= 80);
    }
    assert!(clocks_near_the_limit >= 20, "the data reaches the end of the rule's range");

    // In check the search never evaluates, and `eval` says so as the reference does.
    e.send("setoption name UCI_Variant value janggi");
    e.send("position fen 4k4/9/9/9/9/9/9/4R4/9/4K4 b - - 0 1");
    assert_eq!(e.eval_lines().last().unwrap(), "Final evaluation: none (in check)");
}

#[test]
fn the_engine_announces_and_evaluates_with_the_embedded_net() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.read_until(|l| l == "uciok");
    let line = format!("option name EvalFile type string default {DEFAULT_NET_NAME}");
    assert!(hello.contains(&line), "{hello:?}");

    // What the engine prints is what `janggi nnue eval` prints for the committed file.
    let dir = batch::workdir("default_net", "eval");
    let fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    let net = committed_net();
    let tool = stdout(janggi(&dir, &["nnue", "eval", "--net", net.to_str().unwrap(), "--fen", fen], &[]));
    e.send(&format!("position fen {fen}"));
    let default_net = e.eval_lines();
    // ... then the reference's closing line: the value the search starts from.
    let (last, body) = default_net.split_last().unwrap();
    assert!(body.join("\n").ends_with(tool.trim_end()), "{default_net:?}\n{tool}");
    assert!(last.starts_with("Final evaluation       ") && last.ends_with("(white side) [net]"), "{last}");

    e.send("setoption name Use NNUE value false");
    let classical = e.eval_lines();
    assert!(!classical.iter().any(|l| l.contains("NNUE")));
    e.send("setoption name Use NNUE value true");
    assert_eq!(e.eval_lines(), default_net);
    e.send("setoption name EvalFile value <empty>");
    assert_eq!(e.eval_lines(), classical);
    // The default name brings the embedded net back (no file of that name where the engine runs).
    e.send(&format!("setoption name EvalFile value {DEFAULT_NET_NAME}"));
    assert_eq!(e.eval_lines(), default_net);
}

#[test]
fn bench_analyze_and_datagen_use_the_default_net_unless_told_otherwise() {
    let dir = batch::workdir("default_net", "tools");
    let net = committed_net();
    let net = net.to_str().unwrap();
    let bench = |extra: &[&str]| {
        let mut args = vec!["bench", "--depth", "6"];
        args.extend_from_slice(extra);
        stdout(janggi(&dir, &args, &[])).split_whitespace().next().unwrap().to_string()
    };
    let (default, file, classical) = (bench(&[]), bench(&["--net", net]), bench(&["--classical"]));
    assert_eq!(default, file, "bench searches with the embedded net");
    assert_ne!(default, classical);

    let fen = "3k5/9/9/9/4P4/9/9/9/5K3/R7R w - - 0 1\n";
    let analyze = |extra: &[&str]| {
        let mut args = vec!["analyze", "--nodes", "3000"];
        args.extend_from_slice(extra);
        let out = janggi_with_stdin(&dir, &args, fen);
        let v: serde_json::Value = serde_json::from_str(stdout(out).trim()).unwrap();
        v["nodes"].clone()
    };
    assert_eq!(analyze(&[]), analyze(&["--net", net]));

    let datagen = |name: &str, extra: &[&str]| {
        let mut args = vec!["datagen", "--games", "2", "--nodes", "300", "--seed", "5", "--out", name];
        args.extend_from_slice(extra);
        stdout(janggi(&dir, &args, &[]));
        std::fs::read(dir.join(name)).unwrap()
    };
    let (default, file, classical) =
        (datagen("a.bin", &[]), datagen("b.bin", &["--net", net]), datagen("c.bin", &["--classical"]));
    assert_eq!(default, file, "datagen plays with the embedded net");
    assert_ne!(default, classical);
}
