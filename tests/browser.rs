//! The pictures in a real browser: Debian's `chromium`, headless, loads a review page and a diagram made by
//! the binary, takes a screenshot of each, and the rendered DOM (`--dump-dom`) is checked: one graph point per
//! ply, one diagram per blunder, the page's script ran, no console message; the diagram has 90 points and the
//! pieces of its FEN, and its glyphs take up room on the page. `.ci/run` installs `chromium` when it is missing;
//! without it these tests fail under `CI=true` and elsewhere say loudly on stderr that they skipped.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_janggi");
/// How long one browser run may take before the test fails.
const BROWSER_TIMEOUT_S: &str = "120";

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janggi-browser-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The browser, or `None` (with the reason on stderr) when it is not installed. Under CI (`CI=true`) a missing
/// browser is a failure, not a skip: CI installs it, so its absence means the pages went untested.
fn chromium() -> Option<&'static str> {
    let found = Command::new("chromium").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "no `chromium` on PATH under CI=true: the browser tests cannot run (apt-get install -y chromium)"
        );
        eprintln!(
            "SKIPPED: no `chromium` on PATH; install it (apt-get update && apt-get install -y chromium) to run the browser tests"
        );
    }
    found.then_some("chromium")
}

/// One headless run with a fresh profile and no network activity of its own; returns stdout and stderr.
fn run_browser(browser: &str, work: &Path, args: &[String]) -> (String, String) {
    let profile = work.join(format!("profile-{}", args.len()));
    let out = Command::new("timeout")
        .arg(BROWSER_TIMEOUT_S)
        .arg(browser)
        .args(common::HEADLESS_CHROMIUM)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("the browser starts");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "the browser failed ({:?}):\n{stderr}", out.status);
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

/// The DOM after scripts ran, and the console messages the page produced.
fn dump_dom(browser: &str, work: &Path, file: &Path) -> (String, Vec<String>) {
    let (dom, log) = run_browser(browser, work, &["--dump-dom".into(), format!("file://{}", file.display())]);
    let console = log.lines().filter(|l| l.contains(":CONSOLE")).map(str::to_string).collect();
    (dom, console)
}

/// Opens the page `html` at `#fragment` (none when empty) with `script` run after the page's own, as a person's
/// clicks and keys reach the page's handlers, and returns what the script left in `<pre id="trace">`. The page
/// must log nothing to the console.
fn drive(browser: &str, work: &Path, html: &Path, fragment: &str, script: &str) -> String {
    let session = format!("<pre id=\"trace\"></pre><script>{script}</script></body>");
    let driven = work.join("driven.html");
    std::fs::write(&driven, std::fs::read_to_string(html).unwrap().replacen("</body>", &session, 1)).unwrap();
    let url = format!(
        "file://{}{}",
        driven.display(),
        if fragment.is_empty() { String::new() } else { format!("#{fragment}") }
    );
    let (dom, log) = run_browser(browser, work, &["--dump-dom".into(), url]);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:#?}");
    let from = dom.find("<pre id=\"trace\">").expect("the trace") + "<pre id=\"trace\">".len();
    dom[from..from + dom[from..].find("</pre>").unwrap()].to_string()
}

fn screenshot(browser: &str, work: &Path, file: &Path, png: &Path, size: &str) {
    run_browser(
        browser,
        work,
        &[
            format!("--screenshot={}", png.display()),
            format!("--window-size={size}"),
            format!("file://{}", file.display()),
        ],
    );
    let bytes = std::fs::read(png).expect("a screenshot was written");
    assert!(bytes.starts_with(b"\x89PNG"), "not a PNG");
    assert!(bytes.len() > 10_000, "the screenshot is almost empty ({} bytes)", bytes.len());
}

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

/// The value of an attribute on the first element whose opening tag contains `marker`.
fn attribute(dom: &str, marker: &str, name: &str) -> Option<String> {
    let at = dom.find(marker)?;
    let tag_start = dom[..at + 1].rfind('<')?;
    let tag = &dom[tag_start..tag_start + dom[tag_start..].find('>')?];
    let key = format!("{name}=\"");
    let from = tag.find(&key)? + key.len();
    Some(tag[from..from + tag[from..].find('"')?].to_string())
}

#[test]
fn a_review_page_renders_with_a_point_per_ply_and_a_diagram_per_blunder() {
    let Some(browser) = chromium() else { return };
    let work = scratch("review");
    let html = work.join("review.html");
    let out = Command::new(BIN)
        .args(["analyze", "--pgn", &data("blunders.pgn"), "--depth", "8", "--notation", "korean", "--html"])
        .arg(&html)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let game: Value = serde_json::from_slice(out.stdout.split(|b| *b == b'\n').next().unwrap()).unwrap();
    let plies = game["moves"].as_array().unwrap().len();
    let blunders = (game["blunders"]["cho"].as_u64().unwrap() + game["blunders"]["han"].as_u64().unwrap()) as usize;
    assert_eq!(plies, 5);
    assert!(blunders >= 2, "both sides' chariot blunders are found: {game}");

    let (dom, console) = dump_dom(browser, &work, &html);
    assert!(console.is_empty(), "console messages: {console:#?}");
    assert_eq!(attribute(&dom, "<body", "data-script").as_deref(), Some("ready"), "the page's script ran");
    let graph_start = dom.find("class=\"eval-graph\"").expect("an evaluation graph");
    let graph = &dom[graph_start..graph_start + dom[graph_start..].find("</svg>").unwrap()];
    assert_eq!(count(graph, "<circle class=\"ply"), plies, "one point per ply");
    assert_eq!(count(graph, "<circle class=\"ply blunder"), blunders, "blunders marked on the graph");
    assert_eq!(count(&dom, "<figure class=\"blunder-diagram\""), blunders, "one diagram per blunder");
    let diagrams = &dom[dom.find("<h3>Blunder diagrams").expect("the blunder diagrams")..];
    assert_eq!(count(diagrams, "class=\"arrow played\""), blunders, "the move played drawn on each");
    assert_eq!(count(diagrams, "class=\"arrow best\""), blunders, "the engine's move drawn on each");
    assert!(dom.contains("Careless Cho") && dom.contains("Careless Han"), "the players");
    assert!(dom.contains("01차61"), "the Korean notation of 1. a1a5");
    screenshot(browser, &work, &html, &work.join("review.png"), "1000,1600");
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn a_diagram_renders_with_ninety_points_and_the_pieces_of_its_fen() {
    let Some(browser) = chromium() else { return };
    let work = scratch("diagram");
    let svg = work.join("board.svg");
    // Cho's elephant–horse setup against Han's horse–elephant one, after 1. i4h4.
    let fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1";
    let out = Command::new(BIN)
        .args(["diagram", "--fen", fen, "--moves", "i4h4", "--arrow", "b10c8", "--out"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let (dom, console) = dump_dom(browser, &work, &svg);
    assert!(console.is_empty(), "console messages: {console:#?}");
    assert!(!dom.contains("parsererror"), "the SVG parses: {dom}");
    assert_eq!(count(&dom, "<circle class=\"point\""), 90, "90 points");
    let pieces: Vec<(String, String)> = dom
        .match_indices("<g class=\"piece ")
        .map(|(at, _)| {
            let square = attribute(&dom[at..], "<g", "data-square").unwrap();
            let class = attribute(&dom[at..], "<g", "class").unwrap();
            let text_at = at + dom[at..].find("<text").unwrap();
            let glyph_from = text_at + dom[text_at..].find('>').unwrap() + 1;
            let glyph = &dom[glyph_from..glyph_from + dom[glyph_from..].find('<').unwrap()];
            (square, format!("{class} {glyph}"))
        })
        .collect();
    assert_eq!(pieces.len(), 32);
    let piece = |sq: &str| pieces.iter().find(|(s, _)| s == sq).map(|(_, d)| d.as_str());
    assert_eq!(piece("e2"), Some("piece cho general 楚"));
    assert_eq!(piece("e9"), Some("piece han general 漢"));
    assert_eq!(piece("b1"), Some("piece cho elephant 象"));
    assert_eq!(piece("c1"), Some("piece cho horse 馬"));
    assert_eq!(piece("b10"), Some("piece han horse 馬"));
    assert_eq!(piece("h3"), Some("piece cho cannon 包"));
    assert_eq!(piece("a10"), Some("piece han chariot 車"));
    assert_eq!(piece("d10"), Some("piece han guard 士"));
    assert_eq!(piece("h4"), Some("piece cho soldier 卒"), "the soldier moved by i4h4");
    assert_eq!(piece("i4"), None);
    assert_eq!(piece("i7"), Some("piece han soldier 兵"));
    assert_eq!(count(&dom, "class=\"arrow best\""), 1);
    assert_eq!(count(&dom, "class=\"last-move\""), 1);

    // Laid out in a page, every glyph takes room: the fonts of the list (or the generic one) drew them.
    let page = work.join("board.html");
    let text = std::fs::read_to_string(&svg).unwrap();
    std::fs::write(
        &page,
        format!(
            "<!DOCTYPE html><html><body>{text}<script>var w = Array.from(document.querySelectorAll('g.piece text')).\
             filter(function (t) {{ return t.getBBox().width > 4; }}).length;\
             document.body.setAttribute('data-drawn-glyphs', String(w));</script></body></html>"
        ),
    )
    .unwrap();
    let (dom, console) = dump_dom(browser, &work, &page);
    assert!(console.is_empty(), "console messages: {console:#?}");
    assert_eq!(attribute(&dom, "<body", "data-drawn-glyphs").as_deref(), Some("32"));
    screenshot(browser, &work, &svg, &work.join("board.png"), "540,560");
    let _ = std::fs::remove_dir_all(&work);
}

/// The pieces a position shows, as the board draws them: `square:piece side kind`, sorted.
fn expected_pieces(pos: &janggi::board::Position) -> Vec<String> {
    use janggi::board::{Color, Notation, PieceKind, Square};
    let mut out: Vec<String> = Square::all()
        .filter_map(|sq| {
            let p = pos.piece_at(sq)?;
            let side = if p.color() == Color::Cho { "cho" } else { "han" };
            let kind = match p.kind() {
                PieceKind::General => "general",
                PieceKind::Guard => "guard",
                PieceKind::Chariot => "chariot",
                PieceKind::Cannon => "cannon",
                PieceKind::Horse => "horse",
                PieceKind::Elephant => "elephant",
                PieceKind::Soldier => "soldier",
            };
            Some(format!("{}:piece {side} {kind}", sq.display(Notation::Uci)))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_review_board_steps_through_the_game_by_keys_and_clicks() {
    let Some(browser) = chromium() else { return };
    let work = scratch("stepper");
    let html = work.join("review.html");
    let out = Command::new(BIN)
        .args(["analyze", "--pgn", &data("blunders.pgn"), "--depth", "4", "--notation", "korean", "--html"])
        .arg(&html)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The game replayed here, independently of the page: the position after each ply.
    let games = janggi::records::pgn::read_file(Path::new(&data("blunders.pgn"))).unwrap();
    let (_, moves) = games[0].replay().unwrap();
    let mut pos = games[0].start().unwrap();
    let mut after = vec![pos.clone()];
    for m in &moves {
        pos.make_move(*m);
        after.push(pos.clone());
    }
    // A person's session, as events the page's own handlers receive; each step's board is recorded.
    let session = r#"
(function () {
  var s = document.querySelector('section.game'), trace = [];
  function snap() {
    var b = s.querySelector('svg.stepper-board');
    trace.push({
      ply: parseInt(s.getAttribute('data-selected'), 10),
      fen: b.getAttribute('data-fen'),
      pieces: Array.from(b.querySelectorAll('g.layers .piece')).map(function (p) {
        return p.getAttribute('data-square') + ':' + p.getAttribute('class'); }).sort(),
      played: Array.from(b.querySelectorAll('g.layers .arrow.played')).map(function (a) { return a.getAttribute('data-move'); }),
      point: Array.from(s.querySelectorAll('svg.eval-graph circle.selected')).map(function (c) { return c.getAttribute('data-ply'); }),
      row: Array.from(s.querySelectorAll('tr.selected')).map(function (r) { return r.getAttribute('data-ply'); }),
      caption: s.querySelector('.ply-caption').textContent
    });
  }
  function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); snap(); }
  snap();
  s.querySelector('tr[data-ply="1"]').click(); snap();
  key('ArrowRight'); key('ArrowRight'); key('ArrowLeft'); key('End'); key('Home');
  s.querySelector('svg.eval-graph circle[data-ply="4"]').dispatchEvent(new MouseEvent('click', { bubbles: true })); snap();
  s.querySelector('button[data-step="next"]').click(); snap();
  document.getElementById('trace').textContent = JSON.stringify(trace);
})();
"#;
    let trace: Value = serde_json::from_str(&drive(browser, &work, &html, "", session)).unwrap();
    let steps = trace.as_array().unwrap();
    let plies: Vec<u64> = steps.iter().map(|s| s["ply"].as_u64().unwrap()).collect();
    let last = moves.len() as u64;
    assert_eq!(plies, vec![0, 1, 2, 3, 2, last, 0, 4, 5], "click, →, →, ←, End, Home, graph point 4, the next button");
    for step in steps {
        let ply = step["ply"].as_u64().unwrap() as usize;
        let expected = &after[ply];
        assert_eq!(step["fen"].as_str(), Some(expected.fen().as_str()), "the FEN after ply {ply}");
        let shown: Vec<String> =
            step["pieces"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
        assert_eq!(shown, expected_pieces(expected), "the pieces after ply {ply}");
        if ply == 0 {
            assert!(step["played"].as_array().unwrap().is_empty());
            assert!(step["caption"].as_str().unwrap().starts_with("Start position"));
            continue;
        }
        let played = moves[ply - 1].display(janggi::board::Notation::Uci).to_string();
        assert_eq!(step["played"], serde_json::json!([played]), "the move played as an arrow at ply {ply}");
        assert_eq!(step["point"], serde_json::json!([ply.to_string()]), "the graph point of ply {ply}");
        assert_eq!(step["row"], serde_json::json!([ply.to_string()]), "the move row of ply {ply}");
        assert!(step["caption"].as_str().unwrap().contains(&played), "{}", step["caption"]);
    }
    // Korean notation as chosen: 1. a1a5 is 01차61 from this position.
    assert!(steps[1]["caption"].as_str().unwrap().contains("(01차61)"), "{}", steps[1]["caption"]);
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn an_address_opens_a_game_at_a_ply_and_the_keys_then_step_that_game() {
    let Some(browser) = chromium() else { return };
    let work = scratch("address");
    let pgn = work.join("two.pgn");
    let one = std::fs::read_to_string(data("blunders.pgn")).unwrap();
    std::fs::write(&pgn, format!("{one}\n{one}")).unwrap();
    let html = work.join("review.html");
    let out = Command::new(BIN)
        .args(["analyze", "--pgn", pgn.to_str().unwrap(), "--depth", "3", "--html"])
        .arg(&html)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The address is read at load; the key comes after it, as a person's would.
    let session = r#"
document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
document.getElementById('trace').textContent = Array.from(document.querySelectorAll('section.game'))
  .map(function (s) { return s.id + '=' + s.getAttribute('data-selected'); }).join(' ');
"#;
    let trace = drive(browser, &work, &html, "game-1-ply-2", session);
    assert_eq!(trace, "game-1=3 game-2=0", "the linked game opened at ply 2 and stepped to 3; the other stayed");
    let _ = std::fs::remove_dir_all(&work);
}
