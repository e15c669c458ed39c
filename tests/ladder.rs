//! The time-control ladder (`tools/ladder.py`) and the time-per-ply pictures (`tools/time_per_ply.py`) through
//! the real binary: two rungs (a clock and a fixed time per move) of our engine against its weakened self, one
//! table row per rung with the game pairs' counts, a second run that resumes and plays nothing more, the clock
//! after each move in the PGN of the clock rung, and an SVG with one line per engine drawn from it.

use janggi::records::pgn;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn workdir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ladder");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn python(dir: &Path, tool: &str, args: &[&str]) -> Output {
    let out = Command::new("python3").current_dir(dir).arg(repo(tool)).args(args).output().expect("python3 runs");
    assert!(out.status.success(), "{tool}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn ladder(dir: &Path) -> String {
    let out = python(
        dir,
        "tools/ladder.py",
        &[
            "--engines",
            "janggi,janggi-skill10",
            "--rungs",
            "1+0.01,20ms",
            "--games",
            "4,2",
            "--out",
            "lad",
            "--binary",
            BIN,
            "--seed",
            "5",
            "--concurrency",
            "2",
        ],
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_ladder_plays_each_rung_resumes_and_its_games_draw_time_per_ply() {
    let dir = workdir();
    std::fs::write(
        dir.join("engines.toml"),
        format!(
            "[[engine]]\nname = \"janggi\"\ncommand = \"{BIN}\"\n[engine.options]\nHash = 8\n\n[[engine]]\nname = \
             \"janggi-skill10\"\ncommand = \"{BIN}\"\n[engine.options]\n\"Skill Level\" = 10\nHash = 8\n"
        ),
    )
    .unwrap();
    let table = ladder(&dir);
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("| 1+0.01") || l.starts_with("| 20ms")).collect();
    assert_eq!(rows.len(), 2, "{table}");
    // Rung, games, W - L - D, score, Elo, pairs: four games are two pairs, two games one.
    assert!(rows[0].starts_with("| 1+0.01 | 4 | ") && rows[0].contains("(2 pairs)"), "{table}");
    assert!(rows[1].starts_with("| 20ms | 2 | ") && rows[1].contains("(1 pairs)"), "{table}");
    for row in &rows {
        let counts: Vec<u32> = row.split(" | ").nth(2).unwrap().split(" - ").map(|n| n.parse().unwrap()).collect();
        assert_eq!(counts.iter().sum::<u32>(), row.split(" | ").nth(1).unwrap().parse::<u32>().unwrap(), "{row}");
    }

    // Run again: every rung is complete, so nothing is played and the table is the same.
    let clock_pgn = dir.join("lad/ladder-1_0.01.pgn");
    let before = std::fs::read_to_string(&clock_pgn).unwrap();
    assert_eq!(ladder(&dir), table);
    assert_eq!(std::fs::read_to_string(&clock_pgn).unwrap(), before);

    // The clock rung's moves carry the mover's clock; the fixed-time rung's do not.
    let games = pgn::parse_games(&before).unwrap();
    assert_eq!(games.len(), 4);
    assert!(before.contains("[%clk 0:00:0"), "{before}");
    assert!(!std::fs::read_to_string(dir.join("lad/ladder-20ms.pgn")).unwrap().contains("%clk"));

    let svg = dir.join("time.svg");
    python(
        &dir,
        "tools/time_per_ply.py",
        &[clock_pgn.to_str().unwrap(), "--out", svg.to_str().unwrap(), "--min-games", "2"],
    );
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    for engine in ["janggi", "janggi-skill10"] {
        let line =
            svg.lines().find(|l| l.contains(&format!("data-engine=\"{engine}\""))).unwrap_or_else(|| panic!("{svg}"));
        assert!(line.matches(',').count() >= 10, "a point for each ply of two games or more: {line}");
    }
}
