//! The search with a NNUE net: `EvalFile` and `Use NNUE` take effect at the next `go`, a refused file keeps the
//! evaluation in use, `Use NNUE false` is exactly the classical search, and several threads share one net.

mod common;

use common::Engine as Uci;
use janggi::board::{Notation, Position, Rules};
use janggi::eval::evaluator::Evaluator;
use janggi::eval::nnue::random_network;
use janggi::search::Limits;
use janggi::search::engine::Engine;
use std::path::PathBuf;
use std::sync::Arc;

/// A middlegame with Han to move, and an opening where Han passed.
const POSITIONS: [&str; 2] = [
    "position fen 1b1a1a1br/4k4/4cn1c1/1pp1pp3/2n6/1C1r5/PP1BP1P1P/3NC3N/4K4/R2A1AB1R b - - 10 13",
    "position startpos moves h1g3 e9e9 b1c3",
];

fn random_net_file(name: &str, seed: u64) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janggi-nnue-search-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Fairy-Stockfish takes a Janggi net only under a name that starts with `janggi`; ours follows suit.
    let path = dir.join(format!("janggi-{seed}.nnue"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_janggi"))
        .args(["nnue", "random", "--seed", &seed.to_string(), "--out", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    path
}

/// Searches `position` to a fixed depth on a fresh table; the best move and the node count of the last report.
fn search(e: &mut Uci, position: &str, depth: u32) -> (String, u64) {
    e.send("ucinewgame");
    e.send(position);
    e.send(&format!("go depth {depth}"));
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let nodes = lines
        .iter()
        .rev()
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "nodes")?;
            words.get(at + 1)?.parse().ok()
        })
        .expect("a report with nodes");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    (best, nodes)
}

fn assert_legal(position: &str, best: &str) {
    let pos = match position.strip_prefix("position fen ") {
        Some(fen) => Position::from_fen(fen, Rules::JANGGI).unwrap(),
        None => {
            let mut p = Position::startpos(Rules::JANGGI);
            p.play_moves(&["h1g3", "e9e9", "b1c3"], Notation::Uci).unwrap();
            p
        }
    };
    assert!(pos.parse_move(best, Notation::Uci).is_ok(), "{best} is not legal in {position}");
}

#[test]
fn eval_file_and_use_nnue_choose_the_evaluation_of_the_next_search() {
    let net = random_net_file("options", 7);
    let mut e = Uci::start_uci();
    let default_net: Vec<(String, u64)> = POSITIONS.iter().map(|p| search(&mut e, p, 6)).collect();
    e.send("setoption name EvalFile value <empty>");
    let classical: Vec<(String, u64)> = POSITIONS.iter().map(|p| search(&mut e, p, 6)).collect();
    for ((position, (_, nodes)), (_, classical_nodes)) in POSITIONS.iter().zip(&default_net).zip(&classical) {
        assert_ne!(
            nodes, classical_nodes,
            "the embedded default net searches {position}, not the classical evaluation"
        );
    }

    e.send(&format!("setoption name EvalFile value {}", net.display()));
    let with_net: Vec<(String, u64)> = POSITIONS.iter().map(|p| search(&mut e, p, 6)).collect();
    for ((position, (best, nodes)), (_, classical_nodes)) in POSITIONS.iter().zip(&with_net).zip(&classical) {
        assert_legal(position, best);
        assert_ne!(nodes, classical_nodes, "the net must change the search of {position}");
    }

    e.send("setoption name Use NNUE value false");
    let switched_off: Vec<(String, u64)> = POSITIONS.iter().map(|p| search(&mut e, p, 6)).collect();
    assert_eq!(switched_off, classical, "Use NNUE false is the classical search");

    e.send("setoption name Use NNUE value true");
    let again: Vec<(String, u64)> = POSITIONS.iter().map(|p| search(&mut e, p, 6)).collect();
    assert_eq!(again, with_net, "the same net searches the same tree");
}

#[test]
fn a_refused_eval_file_keeps_the_net_in_use() {
    let net = random_net_file("refused", 11);
    let truncated = net.with_file_name("janggi-truncated.nnue");
    let bytes = std::fs::read(&net).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();

    let mut e = Uci::start_uci();
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    let before = search(&mut e, POSITIONS[0], 6);

    e.send(&format!("setoption name EvalFile value {}", truncated.display()));
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(lines.iter().any(|l| l.starts_with("info string error:")), "{lines:?}");
    assert_eq!(search(&mut e, POSITIONS[0], 6), before, "the search still uses the net loaded before");

    e.send("setoption name EvalFile value /no/such/dir/janggi.nnue");
    assert_eq!(search(&mut e, POSITIONS[0], 6), before);
}

#[test]
fn threads_share_one_net_through_the_engine() {
    let net = Arc::new(random_network(5));
    let mut engine = Engine::silent(16);
    engine.set_threads(2);
    engine.set_evaluator(Evaluator::Nnue(Arc::clone(&net)));
    let finish = engine.think(&Limits { depth: Some(7), ..Limits::default() });
    let outcome = finish.outcome().expect("a move at the start position");
    assert!(engine.position().is_legal(outcome.best.expect("a best move")));
    assert!(outcome.score.abs() < janggi::eval::evaluator::NNUE_EVAL_LIMIT);
    // The settings hold the net itself, not a copy: the test's handle and the engine's are the only ones left.
    assert!(Arc::ptr_eq(engine.settings().evaluator.network().unwrap(), &net));
    assert_eq!(Arc::strong_count(&net), 2);
}
