//! Korean move notation (`79졸78`): a game published in Korean notation (a Kakao Janggi record quoted on the
//! WinBoard forum, in `tests/data/kakao-opening.gib`) read move for move into the coordinate moves we know it
//! stands for, written back the same way, and read through `janggi analyze`; and the points, pieces, checks and
//! passes of a few thousand moves of random games agree with pyffish's `NOTATION_JANGGI` (Fairy-Stockfish's
//! Janggi notation, `P79-78`). The pyffish check needs `pip install pyffish`; `.ci/run` installs it.

use janggi::board::{Move, Notation, PieceKind, Position, Rules};
use janggi::notation::korean;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");

/// The record's first 23 moves as it writes them (Hanja piece names, `장군` after a check) …
const RECORD: &str = "79卒78 12馬33 08馬87 32包35 88包85 18馬37 02象74 45兵44 71卒72 33馬45 09車69 49兵59 \
69車68 19車49 75卒76 47兵48 68車62 11車31 62車32 35包55 32車22장군 14士24 85包89";
/// … and the same moves in coordinates (worked out with pyffish's notation from the setups 상마상마/마상상마).
const COORDINATES: &str = "i4h4 b10c8 h1g3 b8e8 h3e3 h10g8 b1d4 e7d7 a4b4 c8e7 i1i5 i7i6 i5h5 i10i7 e4f4 g7h7 \
h5b5 a10a8 b5b8 e8e6 b8b9 d10d9 e3i3";
/// Cho's elephant–horse–elephant–horse setup against Han's horse–elephant–elephant–horse.
const START: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1";

/// The record's text with the Korean (Hangul) piece names that we write.
fn in_hangul(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '卒' => '졸',
            '兵' => '병',
            '馬' => '마',
            '包' => '포',
            '象' => '상',
            '車' => '차',
            '士' => '사',
            c => c,
        })
        .collect()
}

#[test]
fn a_published_game_reads_and_writes_in_both_notations() {
    let mut pos = Position::from_fen(START, Rules::JANGGI).unwrap();
    for (text, coords) in RECORD.split(' ').zip(COORDINATES.split(' ')) {
        let m = korean::parse(&pos, text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m.display(Notation::Uci).to_string(), coords, "{text}");
        assert_eq!(korean::format(&pos, m), in_hangul(text), "{coords}");
        assert_eq!(korean::parse(&pos, &in_hangul(text)), Ok(m), "Hangul names read too");
        pos.make_move(m);
    }
}

#[test]
fn a_gib_record_is_analysed_with_both_notations_in_the_json() {
    let out = Command::new(BIN)
        .args(["analyze", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/kakao-opening.gib")])
        .args(["--depth", "4", "--notation", "korean"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let game: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(game["white"], "수희짱쨩 9단");
    assert_eq!(game["black"], "정마노 9단");
    assert_eq!(game["result"], "0-1", "한 시간승: Han wins on time");
    assert_eq!(game["fen"], START);
    let moves = game["moves"].as_array().unwrap();
    let coords: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    let korean: Vec<&str> = moves.iter().map(|m| m["move_korean"].as_str().unwrap()).collect();
    assert_eq!(coords.join(" "), COORDINATES);
    assert_eq!(korean.join(" "), in_hangul(RECORD));
    for m in moves {
        let best = m["bestmove_korean"].as_str().unwrap();
        assert!(best.chars().take(2).all(|c| c.is_ascii_digit()), "{best}");
    }
}

#[test]
fn a_gib_record_with_a_wrong_move_is_refused_with_its_number() {
    let dir = std::env::temp_dir().join(format!("janggi-gib-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.gib");
    std::fs::write(&path, "[초차림 \"상마상마\"]\n[한차림 \"마상상마\"]\n\n1. 79卒78 2. 12馬33 3. 08車87\n").unwrap();
    let out = Command::new(BIN).args(["analyze", "--depth", "2"]).arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("move 3") && !stderr.contains("panicked"), "{stderr}");
    std::fs::write(&path, b"[\xc3\xca\xc2\xf7\xb8\xb2 \"x\"]\n").unwrap();
    let out = Command::new(BIN).args(["analyze", "--depth", "2"]).arg(&path).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("not UTF-8"), "a CP949 file is named as such");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random games from the 25 setups, with a small generator of our own so that the test repeats.
fn random_games(count: usize, plies: usize) -> Vec<(String, Vec<Move>)> {
    let setups = janggi::board::setups::all_setups();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..count)
        .map(|g| {
            let fen = setups[g % setups.len()].clone();
            let mut pos = Position::from_fen(&fen, Rules::JANGGI).unwrap();
            let mut moves = Vec::new();
            for _ in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() || pos.ended_by_last_move() {
                    break;
                }
                let m = legal.as_slice()[(next() % legal.len() as u64) as usize];
                moves.push(m);
                pos.make_move(m);
            }
            (fen, moves)
        })
        .collect()
}

#[test]
fn points_pieces_checks_and_passes_agree_with_pyffish() {
    let games = random_games(60, 120);
    let mut input = String::new();
    for (fen, moves) in &games {
        let list: Vec<String> = moves.iter().map(|m| m.display(Notation::Uci).to_string()).collect();
        input.push_str(&format!("janggi\t{fen}\t{}\n", list.join(" ")));
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/korean_notation.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "pyffish failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let reference = String::from_utf8_lossy(&out.stdout);
    let mut compared = 0;
    for ((fen, moves), line) in games.iter().zip(reference.lines()) {
        let theirs: Vec<&str> = line.split(' ').collect();
        assert_eq!(theirs.len(), moves.len());
        let mut pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
        for (m, their) in moves.iter().zip(theirs) {
            let ours = korean::format(&pos, *m);
            // pyffish: piece letter, from-point, '-' or 'x', to-point, '+' for check.
            let digits: String = their.chars().filter(char::is_ascii_digit).collect();
            let check = their.ends_with('+') || their.ends_with('#');
            if m.is_pass() {
                assert_eq!(ours, korean::PASS);
                assert_eq!(digits[..2], digits[2..], "{their} is a pass");
            } else {
                let our_digits: String = ours.chars().filter(char::is_ascii_digit).collect();
                assert_eq!(our_digits, digits, "{ours} vs {their} in {}", pos.fen());
                assert_eq!(ours.ends_with(korean::CHECK), check, "{ours} vs {their} in {}", pos.fen());
                let kind = pos.piece_at(m.from()).unwrap().kind();
                let letter = match kind {
                    PieceKind::General => 'K',
                    PieceKind::Guard => 'A',
                    PieceKind::Chariot => 'R',
                    PieceKind::Cannon => 'C',
                    PieceKind::Horse => 'H',
                    PieceKind::Elephant => 'E',
                    PieceKind::Soldier => 'P',
                };
                assert!(their.starts_with(letter), "{ours} vs {their}");
            }
            assert_eq!(korean::parse(&pos, &ours), Ok(*m), "{ours} reads back");
            pos.make_move(*m);
            compared += 1;
        }
    }
    assert!(compared > 3000, "only {compared} moves compared");
}
