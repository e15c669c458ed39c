//! The protocol loop, driven through the real binary as a host drives it.

mod common;

use common::Engine;
use janggi::board::{Move, Notation, Position, Rules, START_FEN};
use std::time::{Duration, Instant};

fn legal_in(fen: &str, rules: Rules, text: &str) -> bool {
    let pos = Position::from_fen(fen, rules).unwrap();
    Move::parse(text, Notation::Uci).is_some_and(|m| pos.is_legal(m))
}

#[test]
fn uci_handshake_lists_the_options_hosts_set() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name janggi"));
    assert!(lines.contains(&"option name UCI_Variant type combo default janggi var janggi var janggimodern var janggicasual var janggitraditional var janggibasic var janggistrict".to_string()));
    for name in [
        "Threads",
        "Hash",
        "Clear Hash",
        "Ponder",
        "MultiPV",
        "Move Overhead",
        "Skill Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "UCI_AnalyseMode",
        "UCI_ShowWDL",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {name} type "))), "{name} missing");
    }
    assert!(lines.contains(&"option name Skill Level type spin default 20 min -20 max 20".to_string()));
}

#[test]
fn ucci_and_usi_handshakes_use_their_own_words() {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.read_until(|l| l == "ucciok");
    assert!(lines.iter().any(|l| l.starts_with("option hashsize type spin")));
    assert!(lines.iter().any(|l| l.starts_with("option UCI_Variant type combo")));
    e.send("quit");
    e.read_until(|l| l == "bye");
    assert!(e.exits_cleanly(Duration::from_secs(5)));

    let mut e = Engine::start();
    e.send("usi");
    let lines = e.read_until(|l| l == "usiok");
    assert!(lines.iter().any(|l| l.starts_with("option name USI_Variant type combo default janggi")));
}

#[test]
fn the_same_game_in_every_dialect_reaches_the_same_fen() {
    let uci = ["h1g3", "h10g8", "e2e2", "a10a9", "i1h1", "e9e9", "c4c5", "a9d9"];
    let mut fens = Vec::new();
    for (hello, notation) in [("uci", Notation::Uci), ("ucci", Notation::Ucci), ("usi", Notation::Usi)] {
        let moves: Vec<String> =
            uci.iter().map(|m| Move::parse(m, Notation::Uci).unwrap().display(notation).to_string()).collect();
        let mut e = Engine::start();
        e.send(hello);
        e.read_until(|l| l.ends_with("ok"));
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        fens.push(e.fen());
    }
    let mut expected = Position::startpos(Rules::JANGGI);
    for m in uci {
        expected.make_move(Move::parse(m, Notation::Uci).unwrap());
    }
    assert_eq!(fens, vec![expected.fen(); 3]);
}

#[test]
fn usi_reads_sfen_and_writes_its_own_squares() {
    let mut e = Engine::start();
    e.send("usi");
    e.read_until(|l| l == "usiok");
    e.send("position sfen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - 1 moves 2j3h");
    assert_eq!(e.fen(), "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/4K4/RNBA1AB1R b - - 1 1");
    e.send("go perft 1");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert!(lines.iter().any(|l| l == "5b5b: 1"), "Han's pass in USI squares");
    assert!(lines.iter().any(|l| l == "09a9c: 1"), "rank-10 points get a leading 0");
}

#[test]
fn go_perft_answers_in_fairy_stockfish_format() {
    let mut e = Engine::start_uci();
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.iter().filter(|l| l.ends_with(": 32")).count(), 32, "32 moves with 32 replies each");
    assert!(lines.contains(&"e2e2: 32".to_string()));
    assert_eq!(lines[lines.len() - 2], "");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1024");
}

#[test]
fn setting_the_variant_is_announced_and_changes_the_rules() {
    let mut e = Engine::start_uci();
    e.send("setoption name UCI_Variant value janggimodern");
    let lines = e.read_until(|l| l.starts_with("info string variant"));
    assert_eq!(
        lines.last().unwrap(),
        &format!("info string variant janggimodern files 9 ranks 10 pocket 0 template janggi startpos {START_FEN}")
    );
    e.send("position startpos");
    e.send("go perft 3");
    assert_eq!(e.read_until(|l| l.starts_with("Nodes")).last().unwrap(), "Nodes searched: 33316");
}

#[test]
fn option_names_match_case_insensitively() {
    let mut e = Engine::start_uci();
    for line in [
        "setoption name threads value 2",
        "setoption name hash value 8",
        "setoption name uci_variant value JANGGICASUAL",
        "setoption name move overhead value 10",
        "setoption name clear hash",
    ] {
        e.send(line);
    }
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.read_until(|l| l.starts_with("Nodes"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 33316");
    assert!(!e.transcript.iter().any(|l| l.contains("error")), "{:?}", e.transcript);
    e.send("setoption name NoSuchOption value 3");
    let lines = e.read_until(|l| l.starts_with("info string"));
    assert!(lines.last().unwrap().contains("unknown option"));
}

#[test]
fn passes_in_the_move_list_and_a_game_ended_by_two_passes() {
    let mut e = Engine::start_uci();
    e.send("position startpos moves e2e2");
    assert_eq!(e.fen(), "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 1 1");
    e.send("position startpos moves e2e2 e9e9");
    e.send("go depth 3");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert_eq!(lines, vec!["info depth 0 score mate 0", "bestmove (none)"]);
    e.send("setoption name UCI_Variant value janggitraditional");
    e.send("position startpos moves e2e2 e9e9");
    e.send("go depth 3");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.contains(&"info depth 0 score cp 0".to_string()), "a drawn end: {lines:?}");
}

#[test]
fn a_game_played_to_mate_ends_with_no_best_move() {
    // Cho mates with the chariot along the tenth rank.
    let fen = "3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1";
    for (hello, none) in [("uci", "bestmove (none)"), ("usi", "bestmove resign")] {
        let mut e = Engine::start();
        e.send(hello);
        e.read_until(|l| l.ends_with("ok"));
        let (position, notation) = if hello == "usi" {
            ("position sfen 3k5/R8/9/9/9/9/9/9/4K4/1R7 b - 1".to_string(), Notation::Usi)
        } else {
            (format!("position fen {fen}"), Notation::Uci)
        };
        e.send(&position);
        let best = e.best_move("go depth 4");
        let uci = Move::parse(&best, notation).unwrap().to_string();
        assert_eq!(uci, "b1b10");
        e.send(&format!("{position} moves {best}"));
        e.send("go depth 4");
        let lines = e.read_until(|l| l.starts_with("bestmove"));
        assert_eq!(lines, vec!["info depth 0 score mate 0".to_string(), none.to_string()]);
    }
}

#[test]
fn an_illegal_move_stops_the_move_list_there() {
    let mut e = Engine::start_uci();
    e.send("position startpos moves h1g3 e2e5 h10g8");
    let lines = e.read_until(|l| l.starts_with("info string error"));
    assert!(lines.last().unwrap().contains("move 2 'e2e5'"), "{lines:?}");
    assert_eq!(e.fen(), "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/4K4/RNBA1AB1R b - - 1 1");
    e.send("position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4 w - - 0 1");
    let lines = e.read_until(|l| l.starts_with("info string error"));
    assert!(lines.last().unwrap().contains("9 ranks"), "{lines:?}");
    assert_eq!(e.fen(), "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/4K4/RNBA1AB1R b - - 1 1");
}

#[test]
fn isready_is_answered_during_a_search_and_stop_ends_it() {
    let mut e = Engine::start_uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "an infinite search waits for stop");
    let best = e.best_move("stop");
    assert!(legal_in(START_FEN, Rules::JANGGI, &best));
}

#[test]
fn end_of_input_ends_the_engine_cleanly_even_mid_search() {
    let mut e = Engine::start();
    e.send("uci");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_input();
    assert!(e.exits_cleanly(Duration::from_secs(5)));
}

#[test]
fn ucci_clock_words_are_seconds_of_the_side_to_move() {
    let mut e = Engine::start();
    e.send("ucci");
    e.read_until(|l| l == "ucciok");
    e.send("position startpos moves h0g2");
    // One second is the mover's (Han's 300 are not): the engine's own account of its search stays well within it.
    // Its account, not the wall time here, so that a loaded machine's delays do not count against it.
    let best = e.best_move("go time 1 increment 0 opptime 300 oppincrement 0");
    assert!(e.last_reported_time() < 500, "{} ms of one second", e.last_reported_time());
    let pos = Position::from_fen(START_FEN, Rules::JANGGI).unwrap();
    let mut pos = pos;
    pos.make_move(Move::parse("h1g3", Notation::Uci).unwrap());
    assert!(pos.is_legal(Move::parse(&best, Notation::Ucci).unwrap()), "{best}");
    e.send("setoption usemillisec true");
    e.send("banmoves h9g7 b9c7");
    let best = e.best_move("go time 300 opptime 300");
    assert!(best != "h9g7" && best != "b9c7", "banned moves are not played");
}

#[test]
fn usi_btime_belongs_to_the_first_player() {
    let mut e = Engine::start();
    e.send("usi");
    e.read_until(|l| l == "usiok");
    e.send("usinewgame");
    e.send("position startpos");
    // Cho (sente, b) has 300 ms; Han has an hour: the move must come fast.
    let best = e.best_move("go btime 300 wtime 3600000 byoyomi 0");
    assert!(e.last_reported_time() < 150, "{} ms of Cho's 300", e.last_reported_time());
    assert!(Move::parse(&best, Notation::Usi).is_some_and(|m| Position::startpos(Rules::JANGGI).is_legal(m)));
    e.send("gameover win");
    e.sync();
}

#[test]
fn a_short_movetime_is_searched_for_most_of_its_length_despite_the_move_overhead() {
    // The default Move Overhead (30 ms) kept whole would leave a `go movetime 50` 20 ms; at most a tenth of the
    // time asked is kept back, so the answer comes no sooner than 45 ms after the `go`.
    let mut e = Engine::start_uci();
    e.send("position startpos");
    e.sync();
    let start = Instant::now();
    let best = e.best_move("go movetime 50");
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(44), "answered {best} after {took:?} of a 50 ms movetime");
}

#[test]
fn d_shows_the_board_fen_key_and_checkers() {
    let mut e = Engine::start();
    e.send("position fen 3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1 moves b1b10");
    e.send("d");
    let lines = e.read_until(|l| l.starts_with("Checkers"));
    assert!(lines.iter().any(|l| l.starts_with("Key: ")));
    assert_eq!(lines.last().unwrap(), "Checkers: b10");
}

#[test]
fn logs_go_to_stderr_and_stdout_carries_protocol_only() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_janggi"))
        .env("RUST_LOG", "debug")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.as_mut().unwrap().write_all(b"uci\nisready\nquit\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("<< uci") && stderr.contains(">> readyok"), "{stderr}");
    for line in stdout.lines() {
        assert!(
            ["id ", "option ", "uciok", "readyok"].iter().any(|p| line.starts_with(p)),
            "not a protocol line on stdout: {line}"
        );
    }
}

/// Lines a host should never send. After each the engine answers `isready` and plays a legal move.
const HOSTILE: &[&str] = &[
    "garbage",
    "go depth 300",
    "go depth -1",
    "go depth",
    "go nodes 99999999999999999999999999999",
    "go wtime -500 btime -500",
    "go movetime abc",
    "go movetime 0",
    "go nodes 0",
    "go depth 0",
    "go mate 0",
    "go perft 0",
    "go perft -3",
    "go searchmoves zz99 a11a12",
    "go wtime 1 btime 1",
    "go infinite searchmoves",
    "position startpos moves a10a11",
    "position startpos moves j1j2",
    "position startpos moves e2e5",
    "position startpos moves 0000",
    "position startpos moves h1g3 moves",
    "position startpos moves e2e2 e9e9 h1g3",
    "position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR/9/9 w - - 0 1",
    "position fen",
    "position",
    "position sfen garbage",
    "position fen 4k4/9/9/9/9/9/9/9/4K4/9 x - - 0 1",
    "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "position fen 9/9/9/9/9/9/9/9/4K4/9 w - - 0 1",
    "position fen 4k4/9/9/9/9/9/9/9/3KK4/9 w - - 0 1",
    "position fen 4k4/9/9/9/9/9/9/9/4K4/9 w - - 99999999999999 1",
    "position startpos moves ｈ１ｇ３",
    "stop",
    "ponderhit",
    "setoption name Hash value 999999999999",
    "setoption name Threads value -5",
    "setoption name UCI_Variant value chess",
    "setoption name",
    "setoption",
    "setoption name NoSuchOption value 1",
    "setoption name MultiPV value banana",
    "isready extra words",
    "banmoves xx",
    "\u{0}\u{1}\u{2} binary",
    "debug maybe",
    "d extra",
    "eval",
    "usinewgame",
    "gameover",
    "ucinewgame",
];

#[test]
fn hostile_lines_leave_the_engine_working() {
    let mut e = Engine::start_uci();
    let huge_junk = "x".repeat(1 << 20);
    let huge_moves = format!("position startpos moves {}", "h1g3 h10g8 g3h1 g8h10 ".repeat(12_000));
    let lines: Vec<&str> = HOSTILE.iter().copied().chain([huge_junk.as_str(), huge_moves.as_str()]).collect();
    assert!(lines.len() >= 40);
    for line in lines {
        e.send(line);
        // Any search the line started is stopped; its best move must be legal where it was asked for.
        e.send("stop");
        e.sync();
        e.send("position startpos");
        let best = e.best_move("go depth 2");
        assert!(
            legal_in(START_FEN, Rules::JANGGI, &best),
            "after '{}' the engine played '{best}'",
            &line[..line.len().min(60)]
        );
    }
}

#[test]
fn a_new_position_during_a_search_does_not_disturb_it() {
    let mut e = Engine::start_uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("position startpos moves h1g3");
    let best = e.best_move("stop");
    assert!(legal_in(START_FEN, Rules::JANGGI, &best), "the search was on the start position: {best}");
    assert_eq!(e.fen(), "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/4K4/RNBA1AB1R b - - 1 1");
}

#[test]
fn fixed_protocol_flag_selects_the_dialect() {
    let mut e = Engine::start_with(&["--protocol", "ucci"]);
    e.send("position startpos moves h0g2");
    assert_eq!(e.fen(), "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/4K4/RNBA1AB1R b - - 1 1");
}

mod parser_properties {
    use janggi::protocol::{Dialect, parse};
    use proptest::prelude::*;

    const WORDS: &str = "(uci|ucci|usi|isready|go|position|fen|sfen|startpos|moves|setoption|name|value|depth|nodes|\
                         movetime|wtime|btime|winc|binc|byoyomi|time|opptime|increment|infinite|ponder|searchmoves|\
                         perft|mate|stop|quit|banmoves|h1g3|a10a9|e2e2|2j3h|02a|-5|0|300|99999999999999999999|\
                         rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR|w|b|-)";

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn any_text_parses_or_fails_without_panicking(text in "\\PC{0,200}") {
            for dialect in Dialect::ALL {
                let _ = parse(dialect, &text, false);
            }
        }

        #[test]
        fn command_like_lines_round_trip_through_their_written_form(words in prop::collection::vec(WORDS, 1..12)) {
            let line = words.join(" ");
            for dialect in Dialect::ALL {
                if let Ok(cmd) = parse(dialect, &line, false) {
                    // SFEN has no halfmove clock, so a USI position from a FEN is not written back word for word.
                    if dialect == Dialect::Usi && matches!(cmd, janggi::protocol::Command::Position { .. }) {
                        continue;
                    }
                    let written = cmd.to_line(dialect, false);
                    let again = parse(dialect, &written, false);
                    prop_assert_eq!(again, Ok(cmd), "{} -> {}", line, written);
                }
            }
        }
    }
}
