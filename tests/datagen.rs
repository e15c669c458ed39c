//! `janggi datagen` through the real binary: self-play games written as 32-byte records that read back to legal
//! positions with the side to move, a score from the side to move's view and the game's result; reproducible
//! from the seed whatever the thread count; shards that split the games; `stats`, and a text form that
//! round-trips byte for byte; bad files refused with the record's number.

use janggi::board::{Color, Position, Rules};
use janggi::datagen::record::{self, GameResult, HEADER_BYTES, RECORD_BYTES, Record};
use janggi::search::Limits;
use janggi::search::engine::{Engine, Finish};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod batch;
use batch::{BIN, janggi};

/// Small games: depth 2 searches.
const QUICK: [&str; 2] = ["--depth", "2"];

fn workdir(name: &str) -> PathBuf {
    batch::workdir("datagen", name)
}

fn ok(out: Output) -> Output {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn datagen(dir: &Path, out: &str, extra: &[&str]) -> Output {
    let mut args = vec!["datagen", "--out", out];
    if !extra.contains(&"--depth") {
        args.extend_from_slice(&QUICK);
    }
    args.extend_from_slice(extra);
    ok(janggi(dir, &args, &[]))
}

fn records(path: &Path) -> Vec<Record> {
    record::open(path).unwrap().collect::<Result<Vec<_>, _>>().unwrap()
}

#[test]
fn records_read_back_to_legal_positions_with_side_score_and_result() {
    let dir = workdir("legal");
    let mut signs_checked = 0;
    let mut signs_agree = 0;
    let mut decisive = 0;
    for seed in ["1", "2", "3"] {
        let file = format!("game{seed}.bin");
        datagen(&dir, &file, &["--games", "1", "--seed", seed]);
        let recs = records(&dir.join(&file));
        assert!(recs.len() >= 10, "a game keeps its quiet positions: {}", recs.len());
        let bytes = std::fs::metadata(dir.join(&file)).unwrap().len() as usize;
        assert_eq!(bytes, HEADER_BYTES + RECORD_BYTES * recs.len());
        // One game: the result seen from Cho is the same in every record, flipped for Han to move.
        let cho_results: Vec<GameResult> = recs.iter().map(|r| r.for_cho().1).collect();
        assert!(cho_results.iter().all(|&r| r == cho_results[0]), "{cho_results:?}");
        // Under janggi a game is never drawn (ends are decided by count).
        assert_ne!(cho_results[0], GameResult::Draw);
        decisive += 1;
        for r in &recs {
            let pos = Position::from_fen(&r.fen(), Rules::JANGGI).expect("a legal position");
            assert_eq!(pos.side_to_move(), r.side);
            assert!(r.fen().contains(if r.side == Color::Cho { " w " } else { " b " }));
            assert!(!pos.in_check(), "positions in check are skipped: {}", r.fen());
            assert!(i32::from(r.score.0).abs() <= 3000, "the default score limit");
            // The score is the side to move's: a fresh search of the same position to the same depth agrees.
            if i32::from(r.score.0).abs() >= 150 {
                let mut engine = Engine::silent(8);
                engine.set_game(pos);
                let Finish::Best(o) = engine.think(&Limits { depth: Some(2), ..Limits::default() }) else {
                    panic!("the game goes on in a kept position")
                };
                signs_checked += 1;
                signs_agree += usize::from(o.score.signum() == i32::from(r.score.0).signum());
            }
        }
    }
    assert_eq!(decisive, 3);
    assert!(signs_checked >= 5, "positions with a clear score: {signs_checked}");
    assert!(signs_agree * 10 >= signs_checked * 9, "{signs_agree} of {signs_checked} scores agree in sign");
}

#[test]
fn the_same_seed_gives_the_same_file_with_any_thread_count() {
    let dir = workdir("seed");
    datagen(&dir, "one.bin", &["--games", "6", "--seed", "7", "--threads", "1"]);
    datagen(&dir, "two.bin", &["--games", "6", "--seed", "7", "--threads", "2"]);
    datagen(&dir, "other.bin", &["--games", "6", "--seed", "8", "--threads", "2"]);
    let read = |n: &str| std::fs::read(dir.join(n)).unwrap();
    assert_eq!(read("one.bin"), read("two.bin"));
    assert_ne!(read("one.bin"), read("other.bin"));
    // An existing file is never overwritten.
    let again = janggi(&dir, &["datagen", "--out", "one.bin", "--depth", "2", "--games", "1"], &[]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists"));
    assert_eq!(read("one.bin"), read("two.bin"));
}

#[test]
fn shards_split_the_games_of_the_unsharded_run() {
    let dir = workdir("shards");
    let common = ["--games", "6", "--seed", "3"];
    datagen(&dir, "all.bin", &common);
    datagen(&dir, "part.bin", &[&common[..], &["--shard", "0/2"]].concat());
    // The index from a Kubernetes Indexed Job.
    let mut args = vec!["datagen", "--out", "part.bin", "--shard", "auto/2"];
    args.extend_from_slice(&QUICK);
    args.extend_from_slice(&common);
    ok(janggi(&dir, &args, &[("JOB_COMPLETION_INDEX", "1")]));
    let key = |r: &Record| r.to_bytes();
    let mut all: Vec<_> = records(&dir.join("all.bin")).iter().map(key).collect();
    let s0: Vec<_> = records(&dir.join("part.0-of-2.bin")).iter().map(key).collect();
    let s1: Vec<_> = records(&dir.join("part.1-of-2.bin")).iter().map(key).collect();
    assert!(!s0.is_empty() && !s1.is_empty());
    assert!(s0.iter().all(|r| !s1.contains(r)), "the shards are disjoint");
    let mut joined = [s0, s1].concat();
    joined.sort();
    all.sort();
    assert_eq!(joined, all, "together the shards hold the unsharded run's records");
}

#[test]
fn stats_count_and_balance() {
    let dir = workdir("stats");
    datagen(&dir, "a.bin", &["--games", "3", "--seed", "5"]);
    datagen(&dir, "b.bin", &["--games", "2", "--seed", "6", "--variant", "janggimodern"]);
    let n = records(&dir.join("a.bin")).len() + records(&dir.join("b.bin")).len();
    let out = ok(janggi(&dir, &["datagen", "stats", "a.bin", "b.bin"], &[]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with(&format!("positions {n}\n")), "{text}");
    assert!(text.contains("results (Cho's view) win"), "{text}");
    assert!(text.contains("janggimodern"), "{text}");
    assert!(text.contains("score histogram") && text.contains("piece-count histogram"), "{text}");
}

#[test]
fn the_text_form_round_trips_byte_for_byte() {
    let dir = workdir("text");
    datagen(&dir, "a.bin", &["--games", "2", "--seed", "9"]);
    datagen(&dir, "m.bin", &["--games", "1", "--seed", "9", "--variant", "janggistrict"]);
    for name in ["a", "m"] {
        let text = ok(janggi(&dir, &["datagen", "text", &format!("{name}.bin")], &[])).stdout;
        let lines = String::from_utf8(text.clone()).unwrap();
        for line in lines.lines() {
            let fields: Vec<&str> = line.split(';').collect();
            assert!(Position::from_fen(fields[0], Rules::STRICT).is_ok(), "{line}");
            assert!(["1", "0", "-1"].contains(&fields[2]), "{line}");
            assert_eq!(fields.get(3).copied(), (name == "m").then_some("janggistrict"), "{line}");
        }
        std::fs::write(dir.join(format!("{name}.txt")), &text).unwrap();
        ok(janggi(&dir, &["datagen", "pack", &format!("{name}.txt"), "--out", &format!("{name}2.bin")], &[]));
        let bin = |n: String| std::fs::read(dir.join(n)).unwrap();
        assert_eq!(bin(format!("{name}.bin")), bin(format!("{name}2.bin")));
        let again = ok(janggi(&dir, &["datagen", "text", &format!("{name}2.bin")], &[])).stdout;
        assert_eq!(again, text);
    }
    // A bad line is refused with its number, and leaves no file.
    std::fs::write(dir.join("bad.txt"), "# comment\n9/9/9 w - - 0 1;0;1\n").unwrap();
    let out = janggi(&dir, &["datagen", "pack", "bad.txt", "--out", "bad.bin"], &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.txt:2"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.join("bad.bin").exists());
}

#[test]
fn bad_and_truncated_files_are_refused_with_the_record_number() {
    let dir = workdir("bad");
    datagen(&dir, "a.bin", &["--games", "1", "--seed", "4"]);
    let bytes = std::fs::read(dir.join("a.bin")).unwrap();
    let n = (bytes.len() - HEADER_BYTES) / RECORD_BYTES;
    std::fs::write(dir.join("cut.bin"), &bytes[..bytes.len() - 5]).unwrap();
    for tool in ["stats", "text"] {
        let out = janggi(&dir, &["datagen", tool, "cut.bin"], &[]);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("record {n} is truncated")), "{err}");
    }
    // A record whose piece codes were overwritten (two generals for Cho, none for Han, ...).
    let mut broken = bytes.clone();
    broken[HEADER_BYTES + RECORD_BYTES + 12..HEADER_BYTES + RECORD_BYTES + 28].fill(0);
    std::fs::write(dir.join("broken.bin"), &broken).unwrap();
    let out = janggi(&dir, &["datagen", "stats", "broken.bin"], &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("record 2:"), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(dir.join("notdata.bin"), b"hello, world").unwrap();
    let out = janggi(&dir, &["datagen", "stats", "notdata.bin"], &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a datagen file"));
}

#[test]
fn ctrl_c_keeps_every_finished_game_whole() {
    let dir = workdir("interrupt");
    let child = Command::new(BIN)
        .current_dir(&dir)
        .args(["datagen", "--out", "i.bin", "--games", "100000", "--depth", "3", "--threads", "2"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until some games are written, then interrupt as Ctrl-C does.
    let start = std::time::Instant::now();
    while std::fs::metadata(dir.join("i.bin")).map_or(0, |m| m.len()) <= HEADER_BYTES as u64 {
        assert!(start.elapsed() < std::time::Duration::from_secs(60), "no game finished");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("(interrupted)"));
    let bytes = std::fs::read(dir.join("i.bin")).unwrap();
    assert_eq!((bytes.len() - HEADER_BYTES) % RECORD_BYTES, 0, "no record is cut");
    assert!(!records(&dir.join("i.bin")).is_empty());
    // The games written are the first ones of the run, whole: the same run stopped at that many games.
    let err = String::from_utf8_lossy(&out.stderr);
    let games = err.lines().last().unwrap().split(" games,").next().unwrap().trim().to_string();
    datagen(&dir, "first.bin", &["--games", &games, "--depth", "3"]);
    assert_eq!(bytes, std::fs::read(dir.join("first.bin")).unwrap());
}
