//! `janggi match` through the real binary: self-play PGN that replays under our rules, resume, forfeits of
//! engines that crash, move illegally, write garbage or hang (fake engines in `tests/fixtures/`), an SPRT that
//! stops early, and config errors that stop the match before any game.

use janggi::board::{Color, Outcome};
use janggi::records::pgn::{self, PgnGame};
use std::path::{Path, PathBuf};
use std::process::Output;

const BIN: &str = env!("CARGO_BIN_EXE_janggi");

/// A fresh folder for one test's files.
fn workdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("matches").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fake(mode: &str, n: u32) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_engine.py");
    format!("command = \"python3\"\nargs = [\"{}\", \"{mode}\", \"{n}\", \"{BIN}\"]\n", script.display())
}

/// The default net as committed: a net our engine loads, for engines configured with an `EvalFile`.
fn shipped_net() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("nets").join(janggi::eval::nnue::DEFAULT_NET_NAME)
}

/// A config with our engine twice (full strength and Skill Level 10) plus any extra entries.
fn config(dir: &Path, extra: &str) -> PathBuf {
    let text = format!(
        "[[engine]]\nname = \"janggi\"\ncommand = \"{BIN}\"\n\n[[engine]]\nname = \"janggi-skill10\"\ncommand = \
         \"{BIN}\"\n[engine.options]\n\"Skill Level\" = 10\nHash = 8\n\n{extra}"
    );
    let path = dir.join("engines.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let out = std::process::Command::new(BIN).current_dir(dir).arg("match").args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn games(path: &Path) -> Vec<PgnGame> {
    pgn::read_file(path).unwrap()
}

/// The engine that lost a decided game.
fn loser(g: &PgnGame) -> Option<&str> {
    match g.tag("Result") {
        Some("1-0") => g.tag("Black"),
        Some("0-1") => g.tag("White"),
        _ => None,
    }
}

#[test]
fn self_play_pgn_parses_back_and_replays_legally() {
    let dir = workdir("self_play");
    config(&dir, "");
    let out = run(&dir, &["--games", "4", "--depth", "3", "--concurrency", "2", "--pgn", "games.pgn"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    for word in
        ["Rank", "janggi vs janggi-skill10:", "Elo", "LOS", "Terminations:", "Forfeits: none", "Timing:", "overhead"]
    {
        assert!(table.contains(word), "{word} missing from\n{table}");
    }
    let list = games(&dir.join("games.pgn"));
    assert_eq!(list.len(), 4);
    let mut rounds: Vec<u32> = list.iter().map(|g| g.tag("Round").unwrap().parse().unwrap()).collect();
    rounds.sort();
    assert_eq!(rounds, vec![1, 2, 3, 4]);
    for g in &list {
        for tag in ["Event", "Site", "Date", "White", "Black", "Result", "FEN", "TimeControl", "Termination"] {
            assert!(g.tag(tag).is_some(), "no {tag} tag");
        }
        assert_eq!(g.tag("Variant"), Some("Janggi"));
        assert_eq!(g.tag("SetUp"), Some("1"));
        assert_eq!(g.tag("PlyCount").unwrap().parse::<usize>().unwrap(), g.moves.len());
        assert_eq!(g.tag("Result"), g.result.as_deref());
        let (end, moves) = g.replay().expect("every move is legal");
        assert_eq!(moves.len(), g.moves.len());
        let round: u32 = g.tag("Round").unwrap().parse().unwrap();
        // Each opening is played twice, colours swapped: odd rounds have the first engine as Cho.
        let cho = if round % 2 == 1 { "janggi" } else { "janggi-skill10" };
        assert_eq!(g.tag("White"), Some(cho));
        match g.tag("Termination") {
            Some("normal") => {
                let status = end.game_end().expect("a normal end is an end under the rules");
                let expected = match status.outcome {
                    Outcome::Win(Color::Cho) => "1-0",
                    Outcome::Win(Color::Han) => "0-1",
                    Outcome::Draw => "1/2-1/2",
                };
                assert_eq!(g.tag("Result"), Some(expected));
            }
            Some("adjudication") => assert_eq!(moves.len(), 600),
            other => panic!("unexpected termination {other:?}"),
        }
    }
}

#[test]
fn resume_continues_a_stopped_match() {
    let dir = workdir("resume");
    config(&dir, "");
    let first = run(&dir, &["--games", "2", "--depth", "2", "--pgn", "r.pgn"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let again = run(&dir, &["--games", "4", "--depth", "2", "--pgn", "r.pgn"]);
    assert!(!again.status.success());
    assert!(stderr(&again).contains("--resume"), "{}", stderr(&again));
    let resumed = run(&dir, &["--games", "4", "--depth", "2", "--pgn", "r.pgn", "--resume"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stdout(&resumed).contains("2 games were read from r.pgn"), "{}", stdout(&resumed));
    assert!(stdout(&resumed).contains("4 games, Elo"), "{}", stdout(&resumed));
    let list = games(&dir.join("r.pgn"));
    let rounds: Vec<&str> = list.iter().map(|g| g.tag("Round").unwrap()).collect();
    assert_eq!(rounds.len(), 4);
    for r in ["1", "2", "3", "4"] {
        assert!(rounds.contains(&r));
    }
    // A PGN from another match is refused.
    let other = run(&dir, &["--engines", "janggi-skill10,janggi", "--games", "4", "--pgn", "r.pgn", "--resume"]);
    assert!(!other.status.success());
    assert!(stderr(&other).contains("same match"), "{}", stderr(&other));
    // So is a resume with other limits or other openings: one table never mixes two experiments.
    let before = std::fs::read_to_string(dir.join("r.pgn")).unwrap();
    let deeper = run(&dir, &["--games", "6", "--depth", "3", "--pgn", "r.pgn", "--resume"]);
    assert!(!deeper.status.success());
    assert!(stderr(&deeper).contains("was played at depth 2, this match plays depth 3"), "{}", stderr(&deeper));
    let timed = run(&dir, &["--games", "6", "--movetime", "20", "--pgn", "r.pgn", "--resume"]);
    assert!(!timed.status.success());
    assert!(stderr(&timed).contains("TimeControl -, this match plays 1/0.02"), "{}", stderr(&timed));
    std::fs::write(dir.join("other.epd"), "4k4/9/4a4/9/9/9/9/9/3K5/R7r w - - 0 1\n").unwrap();
    let moved = run(&dir, &["--games", "6", "--depth", "2", "--openings", "other.epd", "--pgn", "r.pgn", "--resume"]);
    assert!(!moved.status.success());
    assert!(stderr(&moved).contains("same openings"), "{}", stderr(&moved));
    assert_eq!(std::fs::read_to_string(dir.join("r.pgn")).unwrap(), before, "a refused resume writes nothing");
}

/// A round robin of our engine and two fakes (name, mode, move number), one opening with both colours: six
/// games at depth 2. Returns the runner's output, the games and the PGN text.
fn round_robin_with_fakes(test: &str, fakes: [(&str, &str, u32); 2]) -> (Output, Vec<PgnGame>, String) {
    let dir = workdir(test);
    let extra: String =
        fakes.iter().map(|(name, mode, n)| format!("[[engine]]\nname = \"{name}\"\n{}\n", fake(mode, *n))).collect();
    config(&dir, &extra);
    let engines = format!("janggi,{},{}", fakes[0].0, fakes[1].0);
    let out = run(&dir, &["--engines", &engines, "--games", "6", "--depth", "2", "--pgn", "games.pgn"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let list = games(&dir.join("games.pgn"));
    assert_eq!(list.len(), 6, "the match goes on after each forfeit");
    (out, list, std::fs::read_to_string(dir.join("games.pgn")).unwrap())
}

#[test]
fn crashing_engines_forfeit_and_the_match_goes_on() {
    let (out, list, _) = round_robin_with_fakes("crash", [("crash-early", "crash", 1), ("crash-mid", "crash", 3)]);
    for g in &list {
        assert_eq!(g.tag("Termination"), Some("abandoned"));
        let players = [g.tag("White").unwrap(), g.tag("Black").unwrap()];
        // crash-early dies on its first move, before crash-mid's third.
        let expected = if players.contains(&"crash-early") { "crash-early" } else { "crash-mid" };
        assert_eq!(loser(g), Some(expected), "{g:?}");
        assert!(g.replay().is_ok());
    }
    assert_eq!(list.iter().filter(|g| loser(g) == Some("crash-mid") && !g.moves.is_empty()).count(), 2);
    let table = stdout(&out);
    assert!(table.contains("crash-early abandoned 4"), "{table}");
    assert!(table.contains("crash-mid abandoned 2"), "{table}");
}

#[test]
fn illegal_and_unreadable_moves_forfeit() {
    let (_, list, text) = round_robin_with_fakes("illegal", [("illegal", "illegal", 2), ("garbage", "garbage", 2)]);
    assert!(text.contains("makes an illegal move: e5e5"), "{text}");
    assert!(text.contains("makes an illegal move: zz99"), "{text}");
    for g in &list {
        assert_eq!(g.tag("Termination"), Some("illegal move"));
        let l = loser(g).unwrap();
        assert!(l == "illegal" || l == "garbage", "{g:?}");
        if g.tag("White") == Some("janggi") || g.tag("Black") == Some("janggi") {
            assert_ne!(l, "janggi");
        }
        // Each fake errs on its second move; between the two fakes Cho's second move comes first.
        assert_eq!(g.moves.len(), if l == g.tag("White").unwrap() { 2 } else { 3 });
        assert!(g.replay().is_ok());
    }
}

#[test]
fn a_hanging_engine_loses_on_time_or_by_stalling() {
    let dir = workdir("hang");
    let extra = format!(
        "[[engine]]\nname = \"hang\"\n{}\n[preset.stall]\nengines = [\"janggi\", \"hang\"]\ndepth = 2\nmove_timeout_ms = \
         400\n",
        fake("hang", 2)
    );
    config(&dir, &extra);
    let timed = run(&dir, &["--engines", "janggi,hang", "--games", "2", "--tc", "0.5+0.05", "--pgn", "t.pgn"]);
    assert!(timed.status.success(), "{}", stderr(&timed));
    let list = games(&dir.join("t.pgn"));
    assert_eq!(list.len(), 2);
    for g in &list {
        assert_eq!(g.tag("Termination"), Some("time forfeit"));
        assert_eq!(loser(g), Some("hang"));
        assert_eq!(g.tag("TimeControl"), Some("0.5+0.05"));
    }
    let stalled = run(&dir, &["stall", "--games", "2", "--pgn", "s.pgn"]);
    assert!(stalled.status.success(), "{}", stderr(&stalled));
    let list = games(&dir.join("s.pgn"));
    assert_eq!(list.len(), 2);
    for g in &list {
        assert_eq!(g.tag("Termination"), Some("stalled connection"));
        assert_eq!(loser(g), Some("hang"));
    }
}

#[test]
fn sprt_stops_the_match_when_decided() {
    let dir = workdir("sprt");
    config(&dir, &format!("[[engine]]\nname = \"crash\"\n{}", fake("crash", 1)));
    // Against [0, 200] Elo a clean sweep decides after 8 games (fishtest's LLR reaches 2.94 there).
    let out =
        run(&dir, &["--engines", "janggi,crash", "--games", "50", "--depth", "2", "--sprt", "0,200", "--pgn", "s.pgn"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(table.contains("H1 accepted"), "{table}");
    assert!(table.contains("LLR"), "{table}");
    assert_eq!(games(&dir.join("s.pgn")).len(), 8);
}

#[test]
fn an_engine_asked_for_its_classical_evaluation_plays_with_it() {
    // The check that stops an engine playing without its net leaves alone one told to play without a net.
    let dir = workdir("classical-asked");
    let extra = format!(
        "[[engine]]\nname = \"empty-net\"\n{}[engine.options]\nEvalFile = \"\"\n[[engine]]\nname = \"nnue-off\"\n{}\
         [engine.options]\nEvalFile = \"{}\"\n\"Use NNUE\" = false\n",
        fake("classical", 1),
        fake("classical", 1),
        shipped_net().display()
    );
    config(&dir, &extra);
    let out = run(&dir, &["--engines", "empty-net,nnue-off", "--games", "2", "--depth", "1", "--pgn", "c.pgn"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(games(&dir.join("c.pgn")).len(), 2);
}

#[test]
fn errors_stop_the_match_before_any_game() {
    let dir = workdir("errors");
    let extra = format!(
        "[[engine]]\nname = \"xiangqi\"\n{}\n[[engine]]\nname = \"modern-only\"\ncommand = \"{BIN}\"\nvariants = \
         [\"janggimodern\"]\n[[engine]]\nname = \"missing\"\ncommand = \"./no/such/engine\"\n[[engine]]\nname = \
         \"no-net\"\ncommand = \"{BIN}\"\n[engine.options]\nEvalFile = \"no/such/janggi-net.nnue\"\n[[engine]]\nname = \
         \"classical\"\n{}[engine.options]\nEvalFile = \"{}\"\n",
        fake("novariant", 1),
        fake("classical", 1),
        shipped_net().display()
    );
    config(&dir, &extra);
    let cases: [(&[&str], &str); 8] = [
        (&["--engines", "janggi,xiangqi"], "cannot play janggi: its UCI_Variant option lists xiangqi"),
        // An engine that answers an option with an error would play as it was before the option.
        (
            &["--engines", "janggi,no-net"],
            "engine 'no-net' refused its configuration: info string error: option 'EvalFile': cannot read net file \
             no/such/janggi-net.nnue",
        ),
        // An engine that takes a net without a word and plays without it (Fairy-Stockfish, when the file's name
        // does not start with janggi) would be measured with the wrong evaluation.
        (
            &["--engines", "janggi,classical"],
            "but plays without it ('info string classical evaluation enabled'); Fairy-Stockfish loads a Janggi net \
             only from a file whose name starts with 'janggi'",
        ),
        (&["--engines", "janggi,modern-only"], "does not play janggi"),
        (&["--engines", "janggi,missing"], "cannot start"),
        (&["--engines", "janggi,nobody"], "no engine named 'nobody'"),
        (&["nopreset"], "no preset named 'nopreset'"),
        (&["--tc", "fast"], "bad time control"),
    ];
    for (args, message) in cases {
        let mut all = args.to_vec();
        all.extend(["--pgn", "never.pgn", "--games", "2", "--depth", "1"]);
        let out = run(&dir, &all);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("error:") && err.contains(message), "{args:?}: {err}");
        assert!(!dir.join("never.pgn").exists(), "{args:?} started a game");
    }
    std::fs::write(dir.join("bad.toml"), "[[engine]]\nname = 3\n").unwrap();
    let out = run(&dir, &["--config", "bad.toml"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("error: bad.toml"), "{}", stderr(&out));
    let out = run(&dir, &["--config", "absent.toml"]);
    assert!(stderr(&out).contains("cannot read config"), "{}", stderr(&out));
}
