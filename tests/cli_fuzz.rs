//! Random command lines through the real binary: subcommands with random flags, good and bad values, unknown
//! flags and stray arguments. Whatever the line, the program ends within a time limit, without a panic, with
//! status 0, or 1 or 2 and a message on stderr. The values are drawn so that a valid line stays cheap (small
//! depths, node counts and game counts), so a hang is never mistaken for honest work.
//!
//! `JANGGI_CLI_FUZZ_RUNS` sets the number of lines (default 2,000) and `JANGGI_CLI_FUZZ_SEED` the seed.

use janggi::board::splitmix::SplitMix;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");
/// Far more than any line drawn here needs; `timeout` reports 124 past it.
const LIMIT_S: &str = "60";

const START: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

/// The engine's own seeded generator: the same seed draws the same lines.
struct Rng(SplitMix);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.0.below(100) < percent
    }
    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.below(list.len())]
    }
}

/// What a flag takes: nothing, or one value from a pool (`@DIR` is the run's scratch folder).
enum Takes {
    Nothing,
    One(&'static [&'static str]),
    Many(&'static [&'static str]),
}

use Takes::*;

const COUNT: &[&str] = &["0", "1", "2", "-1", "abc", "", "99999999999999999999999", "1.5", " 2"];
const SMALL_DEPTH: &[&str] = &["0", "1", "2", "-3", "x", ""];
const NODES: &[&str] = &["1", "50", "0", "-5", "1e3", "nodes"];
const VARIANT: &[&str] = &["janggi", "janggimodern", "janggicasual", "chess", "", "JANGGI"];
const FEN: &[&str] = &[START, "not a fen", "", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "9/9/9/9/9/9/9/9/9/9 w - - 0 1"];
const MOVES: &[&str] = &["b1c3", "h1g3", "e2e2", "zz", "a1a11", "i10i9", ""];
const PATH_IN: &[&str] = &["@DIR/missing.txt", "@DIR/junk.txt", "@DIR/one.fen", "@DIR/games.pgn", "@DIR", ""];
const PATH_OUT: &[&str] = &["@DIR/out-@N.txt", "@DIR/junk.txt/x", "@DIR", "@DIR/new-@N/deeper/out", ""];
const SHARD: &[&str] = &["0/2", "1/2", "2/2", "auto/3", "1/0", "x", "-1/2", ""];
const SPRT: &[&str] = &["0,10", "-10,0", "a,b", ",", "10", ""];
const TC: &[&str] = &["abc", "-1+0", "+", "", "0+0"];
const MOVETIME: &[&str] = &["10", "0", "-5", "x"];
const BOOL_WORD: &[&str] = &["korean", "coordinate", "x", ""];
const SEED: &[&str] = &["1", "0", "-1", "x", "18446744073709551616"];
const FLOAT: &[&str] = &["0.5", "0", "-1", "nan", "inf", "x", "1e-3"];
const KERNEL: &[&str] = &["scalar", "sse4.1", "avx2", "x", ""];
const NET: &[&str] = &["@DIR/missing.nnue", "@DIR/junk.txt", "@DIR/random.nnue", ""];

/// A subcommand (its words) and the flags it takes.
type Subcommand = (Vec<&'static str>, Vec<(&'static str, Takes)>);

/// The subcommands and their flags.
fn commands() -> Vec<Subcommand> {
    vec![
        (vec![], vec![("--protocol", One(&["uci", "ucci", "usi", "x", ""])), ("--tune", Nothing)]),
        (
            vec!["perft"],
            vec![
                ("--variant", One(VARIANT)),
                ("--fen", One(FEN)),
                ("--moves", Many(MOVES)),
                ("--depth", One(&["0", "1", "2", "-1", "x", ""])),
                ("--divide", Nothing),
                ("--threads", One(&["1", "2", "0", "-1", "x"])),
            ],
        ),
        (vec!["status"], vec![]),
        (vec!["setups"], vec![]),
        (vec!["bench"], vec![("--depth", One(SMALL_DEPTH)), ("--classical", Nothing), ("--net", One(NET))]),
        (
            vec!["match"],
            vec![
                ("--config", One(&["@DIR/missing.toml", "@DIR/junk.txt", "@DIR"])),
                ("--engines", One(&["janggi", "janggi,janggi", "x,y", ""])),
                ("--games", One(COUNT)),
                ("--depth", One(SMALL_DEPTH)),
                ("--nodes", One(NODES)),
                ("--tc", One(TC)),
                ("--movetime", One(MOVETIME)),
                ("--concurrency", One(COUNT)),
                ("--openings", One(&["setups", "@DIR/missing.txt", "@DIR/junk.txt", ""])),
                ("--variant", One(VARIANT)),
                ("--pgn", One(PATH_OUT)),
                ("--sprt", One(SPRT)),
                ("--resume", Nothing),
                ("--seed", One(SEED)),
                ("--shard", One(SHARD)),
            ],
        ),
        (
            vec!["analyze"],
            vec![
                ("", One(&["@DIR/one.fen", "@DIR/missing.txt", "@DIR/junk.txt", "@DIR/games.pgn"])),
                ("--engine", One(&["x", ""])),
                ("--pgn", Nothing),
                ("--gib", Nothing),
                ("--variant", One(VARIANT)),
                ("--depth", One(SMALL_DEPTH)),
                ("--nodes", One(NODES)),
                ("--movetime", One(MOVETIME)),
                ("--multipv", One(&["1", "2", "0", "-1"])),
                ("--threads", One(&["1", "2", "0", "x"])),
                ("--hash", One(&["1", "0", "-1", "x"])),
                ("--blunder", One(&["100", "-5", "x"])),
                ("--shard", One(SHARD)),
                ("--html", One(PATH_OUT)),
                ("--notation", One(BOOL_WORD)),
                ("--net", One(NET)),
                ("--classical", Nothing),
            ],
        ),
        (vec!["merge"], vec![("", Many(PATH_IN)), ("--sprt", One(SPRT))]),
        (
            vec!["diagram"],
            vec![
                ("--fen", One(FEN)),
                ("--variant", One(VARIANT)),
                ("--moves", Many(MOVES)),
                ("--arrow", Many(MOVES)),
                ("--flip", Nothing),
                ("--out", One(PATH_OUT)),
            ],
        ),
        (
            vec!["datagen"],
            vec![
                ("--out", One(PATH_OUT)),
                ("--games", One(&["0", "1", "2", "-1", "x"])),
                ("--nodes", One(NODES)),
                ("--depth", One(&["1", "-1", "x"])),
                ("--variant", One(VARIANT)),
                ("--openings", One(PATH_IN)),
                ("--random-plies", One(&["0", "8", "-1", "x"])),
                ("--score-limit", One(&["100", "0", "-1", "x"])),
                ("--resign-score", One(&["300", "-1", "x"])),
                ("--resign-plies", One(&["0", "2", "-1"])),
                ("--max-plies", One(&["10", "0", "-1", "x"])),
                ("--threads", One(&["1", "2", "0"])),
                ("--hash", One(&["1", "0", "x"])),
                ("--seed", One(SEED)),
                ("--classical", Nothing),
                ("--net", One(NET)),
                ("--shard", One(SHARD)),
            ],
        ),
        (vec!["datagen", "stats"], vec![("", Many(PATH_IN))]),
        (vec!["datagen", "text"], vec![("", One(PATH_IN)), ("--out", One(PATH_OUT))]),
        (vec!["datagen", "pack"], vec![("", One(PATH_IN)), ("--out", One(PATH_OUT))]),
        (
            vec!["train"],
            vec![
                ("", Many(PATH_IN)),
                ("--data", Many(PATH_IN)),
                ("--val", One(PATH_IN)),
                ("--val-fraction", One(FLOAT)),
                ("--epochs", One(&["1", "0", "-1"])),
                ("--batch", One(&["1", "0", "x"])),
                ("--lr", One(FLOAT)),
                ("--lr-drop-every", One(&["1", "0", "-1"])),
                ("--lr-gamma", One(FLOAT)),
                ("--lambda", One(FLOAT)),
                ("--scale", One(FLOAT)),
                ("--mirror", Nothing),
                ("--threads", One(&["1", "2", "0"])),
                ("--seed", One(SEED)),
                ("--dir", One(PATH_OUT)),
                ("--resume", One(PATH_OUT)),
                ("--init", One(NET)),
                ("--out", One(PATH_OUT)),
            ],
        ),
        (vec!["nnue", "random"], vec![("--seed", One(SEED)), ("--out", One(PATH_OUT)), ("--saturating", Nothing)]),
        (vec!["nnue", "info"], vec![("", One(NET))]),
        (
            vec!["nnue", "eval"],
            vec![
                ("--net", One(NET)),
                ("--fen", One(FEN)),
                ("--variant", One(VARIANT)),
                ("--moves", Many(MOVES)),
                ("--kernel", One(KERNEL)),
            ],
        ),
        (vec!["nnue", "bench"], vec![("--net", One(NET)), ("--rounds", One(&["1", "2", "0", "-1", "x"]))]),
        (
            vec!["tune", "selfplay"],
            vec![
                ("--games", One(&["0", "1", "-1", "x"])),
                ("--nodes", One(NODES)),
                ("--seed", One(SEED)),
                ("--out", One(PATH_OUT)),
            ],
        ),
        (vec!["tune", "params"], vec![]),
        (
            vec!["tune", "fit"],
            vec![
                ("--data", One(PATH_IN)),
                ("--epochs", One(&["1", "0", "-1"])),
                ("--rate", One(FLOAT)),
                ("--terms", One(&["x", "", "material"])),
                ("--out", One(PATH_OUT)),
            ],
        ),
        (
            vec!["tune", "spsa"],
            // Never a positive iteration count: a valid run would play games for minutes.
            vec![
                ("--iterations", One(&["0", "-1", "x"])),
                ("--params", One(&["x", "", "aspiration_window"])),
                ("--trace", One(PATH_OUT)),
                ("--tc", One(TC)),
                ("--concurrency", One(&["1", "0", "-1"])),
                ("--r-end", One(FLOAT)),
            ],
        ),
    ]
}

/// One random command line.
fn draw(rng: &mut Rng, dir: &Path, n: usize) -> Vec<String> {
    let table = commands();
    let (words, flags) = &table[rng.below(table.len())];
    let fill = |s: &str| s.replace("@DIR", &dir.display().to_string()).replace("@N", &n.to_string());
    let mut args: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    // The flags that bound a command's work are always there, so that its default (a full bench, a hundred
    // games) never runs; the others come and go at random.
    for (flag, takes) in flags {
        let always = match words.as_slice() {
            ["bench"] => *flag == "--depth",
            ["datagen"] => *flag == "--games" || *flag == "--nodes",
            ["tune", "selfplay"] => *flag == "--games" || *flag == "--nodes",
            ["tune", "spsa"] => *flag == "--iterations",
            ["nnue", "bench"] => *flag == "--rounds",
            _ => false,
        };
        if !always && !rng.chance(40) {
            continue;
        }
        if !flag.is_empty() {
            args.push(flag.to_string());
        }
        match takes {
            Nothing => {}
            One(pool) => args.push(fill(rng.pick(pool))),
            Many(pool) => {
                for _ in 0..1 + rng.below(3) {
                    args.push(fill(rng.pick(pool)));
                }
            }
        }
    }
    if rng.chance(8) {
        args.push(rng.pick(&["--nope", "-x", "stray", "--", "--help", "--version", "-h"]).to_string());
    }
    if rng.chance(5) && args.len() > words.len() + 2 {
        // A flag given with its value missing: the last argument dropped.
        args.pop();
    }
    args
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janggi-cli-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("junk.txt"), "junk\n\u{0}\u{ff}not anything\n").unwrap();
    std::fs::write(dir.join("one.fen"), "4k4/9/4a4/9/9/9/9/9/3K5/R7r b - - 0 1\n").unwrap();
    std::fs::write(
        dir.join("games.pgn"),
        "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n[Round \"1\"]\n\n1. b1c3 b10c8 *\n",
    )
    .unwrap();
    let status = Command::new(BIN)
        .args(["nnue", "random", "--seed", "3", "--out"])
        .arg(dir.join("random.nnue"))
        .output()
        .unwrap();
    assert!(status.status.success());
    dir
}

#[test]
fn random_command_lines_end_cleanly() {
    let runs: usize = std::env::var("JANGGI_CLI_FUZZ_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let seed: u64 = std::env::var("JANGGI_CLI_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(20261207);
    let dir = scratch();
    let lines: Vec<Vec<String>> = {
        let mut rng = Rng(SplitMix(seed));
        (0..runs).map(|n| draw(&mut rng, &dir, n)).collect()
    };
    let failures = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(args) = lines.get(i) else { break };
                    let out = Command::new("timeout")
                        .arg(LIMIT_S)
                        .arg(BIN)
                        .args(args)
                        .current_dir(&dir)
                        .stdin(Stdio::null())
                        .env("RUST_LOG", "off")
                        .output()
                        .expect("the binary runs");
                    let code = out.status.code();
                    let stderr = String::from_utf8_lossy(&out.stderr);
                    let bad = match code {
                        Some(0) => None,
                        Some(1 | 2) if stderr.trim().is_empty() => Some("failed without a message"),
                        Some(1 | 2) => None,
                        Some(124) => Some("hung past the time limit"),
                        Some(101) => Some("panicked"),
                        _ => Some("ended by a signal or an unexpected status"),
                    }
                    .or_else(|| stderr.contains("panicked").then_some("panicked"));
                    if let Some(why) = bad {
                        let said: Vec<&str> = stderr.lines().take(3).collect();
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{why} ({code:?}): janggi {args:?}\n  {}", said.join("\n  ")));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} of {runs} lines failed:\n{}", failures.len(), failures.join("\n"));
}
