//! `janggi diagram` through the real binary: an SVG board on stdout or in a file, the position after moves with
//! the last move highlighted, arrows, Han's view with `--flip`, and clear errors for bad input.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_janggi");

fn diagram(args: &[&str]) -> Output {
    let out = Command::new(BIN).arg("diagram").args(args).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    out
}

fn svg(args: &[&str]) -> String {
    let out = diagram(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The (x, y) of the piece group on a square.
fn piece_at(svg: &str, square: &str) -> Option<(String, f64, f64)> {
    let at = svg.find(&format!("data-square=\"{square}\"><polygon"))?;
    let start = svg[..at].rfind("<g class=\"piece ")?;
    let class = svg[start + 10..at].split('"').next()?.to_string();
    let text = &svg[at..];
    let x: f64 = text.split("<text x=\"").nth(1)?.split('"').next()?.parse().ok()?;
    let y: f64 = text.split(" y=\"").nth(1)?.split('"').next()?.parse().ok()?;
    Some((class, x, y))
}

#[test]
fn the_start_position_is_a_board_with_thirty_two_pieces_in_three_sizes() {
    let s = svg(&[]);
    assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(s.trim_end().ends_with("</svg>"));
    assert_eq!(s.matches("<circle class=\"point\"").count(), 90);
    assert_eq!(s.matches("<g class=\"piece ").count(), 32);
    assert_eq!(s.matches("class=\"palace\"").count(), 4, "two diagonals in each palace");
    for glyph in ["楚", "漢", "車", "包", "馬", "象", "士", "卒", "兵"] {
        assert!(s.contains(&format!(">{glyph}</text>")), "{glyph}");
    }
    // Font sizes follow the octagons: generals largest, chariots next, soldiers smallest.
    let size = |kind: &str| -> f64 {
        let at = s.find(&format!("piece cho {kind}")).unwrap();
        s[at..].split("font-size=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap()
    };
    assert!(size("general") > size("chariot") && size("chariot") > size("soldier"));
    assert!(s.contains("font-family=\"'Noto Serif CJK KR'"), "a named font list");
    assert!(!s.contains("http://") || s.matches("http://").count() == 1, "nothing but the SVG namespace is named");
    for label in ["a", "i"] {
        assert!(s.contains(&format!(">{label}</text>")));
    }
    assert!(s.contains(">10</text>"));
}

#[test]
fn moves_arrows_and_the_flip() {
    let s = svg(&["--moves", "h1g3", "b10c8", "--arrow", "b3e3"]);
    let (class, x, y) = piece_at(&s, "c8").expect("Han's horse moved to c8");
    assert_eq!(class, "piece han horse");
    assert!(piece_at(&s, "b10").is_none());
    assert_eq!(s.matches("class=\"last-move\"").count(), 1);
    assert_eq!(s.matches("class=\"arrow best\" data-move=\"b3e3\"").count(), 1);
    let (_, gx, gy) = piece_at(&s, "e2").unwrap();
    assert!(gy > y, "Cho's general below Han's pieces");
    let flipped = svg(&["--moves", "h1g3", "b10c8", "--flip"]);
    let (_, fx, fy) = piece_at(&flipped, "c8").unwrap();
    let (_, fgx, fgy) = piece_at(&flipped, "e2").unwrap();
    assert!(fgy < fy, "Han's view: Cho's general at the top");
    assert!(fx > fgx && x < gx, "files run from right to left");
}

#[test]
fn writes_to_a_file_with_out() {
    let path = std::env::temp_dir().join(format!("janggi-diagram-{}.svg", std::process::id()));
    let out = diagram(&["--out", path.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.trim_end(), svg(&[]).trim_end());
    let _ = std::fs::remove_file(&path);
}

#[test]
fn bad_input_is_an_error_without_output() {
    // A path below a plain file can never be written, whoever runs the test (a missing folder would be created).
    let file = std::env::temp_dir().join(format!("janggi-diagram-file-{}", std::process::id()));
    std::fs::write(&file, "").unwrap();
    let below_a_file = file.join("x.svg");
    for args in [
        vec!["--fen", "not a fen"],
        vec!["--moves", "e2e5"],
        vec!["--arrow", "z9z9"],
        vec!["--variant", "chess"],
        vec!["--out", below_a_file.to_str().unwrap()],
    ] {
        let out = diagram(&args);
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "), "{args:?}");
    }
}
