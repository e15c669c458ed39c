//! `tools/search_agreement.py` end to end with the real binary: positions sampled from a PGN are positions of
//! its games (not in check), every search answers a legal move for every position, and the agreement counts are
//! what the searches' own answers give. Needs `pip install pyffish` (`.ci/run` installs it).

use janggi::board::setups::all_setups;
use janggi::board::{Move, Notation, Position, Rules};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_janggi");
const TOOL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/search_agreement.py");

fn tool(args: &[&str]) -> String {
    let out = Command::new("python3").arg(TOOL).args(args).output().expect("python3 runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Board and side to move: the move counters of a FEN are left out.
fn placement(fen: &str) -> String {
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// Games of random legal moves (a small generator of our own, so the test repeats), written as a PGN.
fn random_games_pgn(dir: &Path, games: usize, plies: usize) -> (PathBuf, HashSet<String>) {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut pgn = String::new();
    let mut reached = HashSet::new();
    for (g, fen) in all_setups().iter().take(games).enumerate() {
        let mut pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
        let mut text = String::new();
        for ply in 0..plies {
            reached.insert(placement(&pos.fen()));
            let legal: Vec<Move> = pos.legal_moves().iter().copied().filter(|m| !m.is_pass()).collect();
            if legal.is_empty() || pos.ended_by_last_move() {
                break;
            }
            let m = legal[(next() % legal.len() as u64) as usize];
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&format!("{} ", m.display(Notation::Uci)));
            pos.make_move(m);
        }
        pgn.push_str(&format!(
            "[Event \"random {g}\"]\n[Variant \"Janggi\"]\n[FEN \"{fen}\"]\n[SetUp \"1\"]\n[Result \"*\"]\n\n{text}*\n\n"
        ));
    }
    let path = dir.join("games.pgn");
    std::fs::write(&path, pgn).unwrap();
    (path, reached)
}

/// Each position's chosen move, checked to be legal there.
fn answers(path: &Path, fens: &[String]) -> HashMap<String, String> {
    let results: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(results.len(), fens.len(), "one answer a position");
    results
        .iter()
        .zip(fens)
        .map(|(r, fen)| {
            assert_eq!(r["fen"].as_str().unwrap(), fen);
            let best = r["best"].as_str().unwrap().to_string();
            let pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
            assert!(
                pos.legal_moves().iter().any(|m| m.display(Notation::Uci).to_string() == best),
                "{best} is not legal in {fen}"
            );
            assert!(r["depth"].as_u64().unwrap() >= 1 && r["nodes"].as_u64().unwrap() > 0);
            (fen.clone(), best)
        })
        .collect()
}

#[test]
fn sampled_positions_searched_and_scored_against_two_oracles() {
    let dir = std::env::temp_dir().join(format!("janggi-agreement-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (pgn, reached) = random_games_pgn(&dir, 6, 60);
    let suite = dir.join("suite.fen");
    let printed = tool(&["positions", "--pgn", pgn.to_str().unwrap(), "--seed", "5", "--out", suite.to_str().unwrap()]);
    let fens: Vec<String> = std::fs::read_to_string(&suite).unwrap().lines().map(str::to_string).collect();
    assert_eq!(printed.trim(), format!("{} positions written to {}", fens.len(), suite.display()));
    assert!(fens.len() >= 12 && fens.len() <= 18, "three a game, less those in check: {}", fens.len());
    for fen in &fens {
        let pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
        assert!(!pos.in_check(), "{fen} is in check");
        assert!(reached.contains(&placement(fen)), "{fen} is no position of the games");
    }

    let engine = format!("{BIN} --tune");
    let run = |name: &str, go: &str, options: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["run", "--engine", &engine, "--go", go, "--suite", suite.to_str().unwrap()];
        for o in options {
            args.extend(["--option", o]);
        }
        args.extend(["--out", out.to_str().unwrap()]);
        let printed = tool(&args);
        assert!(printed.starts_with(&format!("positions {}, nodes ", fens.len())), "{printed}");
        let chosen = answers(&out, &fens);
        (out, chosen)
    };
    let (deep, deep_moves) = run("deep.json", "depth 5", &[]);
    let (other, other_moves) = run("other.json", "depth 4", &["singular_margin=16"]);
    let (short, short_moves) = run("short.json", "nodes 300", &[]);

    let consensus: HashMap<&String, &String> =
        deep_moves.iter().filter(|(fen, best)| other_moves[*fen] == **best).collect();
    let agree = short_moves.iter().filter(|(fen, best)| consensus.get(fen) == Some(best)).count();
    let scored = tool(&[
        "score",
        "--oracle",
        deep.to_str().unwrap(),
        "--oracle",
        other.to_str().unwrap(),
        deep.to_str().unwrap(),
        short.to_str().unwrap(),
    ]);
    let lines: Vec<&str> = scored.lines().collect();
    let n = consensus.len();
    assert!(n > 0, "the two oracles agree somewhere");
    assert_eq!(lines[0], format!("consensus: {n} of {} positions", fens.len()));
    assert!(lines[1].starts_with(&format!("{}: {n}/{n} = ", deep.display())), "an oracle agrees with itself");
    assert!(lines[2].starts_with(&format!("{}: {agree}/{n} = ", short.display())), "{}", lines[2]);
    std::fs::remove_dir_all(&dir).ok();
}
