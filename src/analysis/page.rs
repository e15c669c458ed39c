//! The game-review page of `janggi analyze --html`: one self-contained HTML file (inline CSS and SVG, a few
//! lines of optional JavaScript) with, per game, the players and result, an evaluation graph over the plies, the
//! move list with each move's score and loss, a diagram at each blunder and the blunders per side.

use crate::analysis::diagram::{self, ArrowKind, DiagramOptions};
use crate::analysis::review::{CLAMP_CP, GameReview, MoveReview, PositionReview};
use crate::board::{Color, Move, Notation, Position};
use crate::score::Score;
use std::fmt::Write;

/// Size of the evaluation graph and the room kept for its axes.
const GRAPH_WIDTH: f64 = 760.0;
const GRAPH_HEIGHT: f64 = 220.0;
const GRAPH_LEFT: f64 = 48.0;
const GRAPH_RIGHT: f64 = 12.0;
const GRAPH_TOP: f64 = 14.0;
const GRAPH_BOTTOM: f64 = 30.0;
/// At most this many move numbers are written under the graph.
const MAX_X_LABELS: usize = 14;
/// Steps between labelled move numbers, smallest first.
const LABEL_STEPS: [usize; 8] = [1, 2, 5, 10, 20, 50, 100, 200];
/// Blunder diagrams are drawn at this fraction of their natural size.
const DIAGRAM_SCALE: f64 = 0.62;

/// What the page shows besides the fixed parts.
#[derive(Clone, Debug, Default)]
pub struct PageOptions {
    pub title: String,
    /// Moves also in Korean notation.
    pub korean: bool,
}

const STYLE: &str = "
body { font-family: system-ui, 'Segoe UI', 'Noto Sans KR', sans-serif; margin: 0 auto; max-width: 980px; padding: 16px;
  color: #222; background: #faf7f0; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 2px solid #d8c9a8; padding-bottom: 4px; }
section.game, section.position { background: #fff; border: 1px solid #e4dccb; border-radius: 8px; padding: 8px 18px 18px;
  margin-bottom: 28px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
.cho { color: #0b7a6e; } .han { color: #c4122f; }
svg.eval-graph { width: 100%; height: auto; background: #fcfbf8; border: 1px solid #e4dccb; }
svg.eval-graph circle.ply { cursor: pointer; }
svg.eval-graph circle.selected { stroke: #1c6fd6; stroke-width: 3; r: 6; }
.stepper figure.board { margin: 0; } .stepper svg.stepper-board { width: 100%; max-width: 520px; height: auto; }
.stepper-buttons button { font-size: 1.1em; margin-right: 4px; } .hint { color: #777; font-size: 0.85em; }
figcaption.ply-caption { font-size: 0.95em; margin: 4px 0 8px; max-width: 520px; }
table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: left; }
table.moves { font-variant-numeric: tabular-nums; font-size: 0.92em; }
table.moves tr:nth-child(even) { background: #f6f2e8; }
table.moves tr.blunder { background: #ffe3de; font-weight: 600; }
table.moves tr.selected { outline: 2px solid #1c6fd6; }
td.num { text-align: right; }
.moves-box { max-height: 420px; overflow-y: auto; border: 1px solid #e4dccb; display: inline-block; }
.diagrams { display: flex; flex-wrap: wrap; gap: 14px; }
figure.blunder-diagram, figure.position-diagram { margin: 0; }
figcaption { font-size: 0.9em; max-width: 340px; }
.legend-played { color: #e8590c; font-weight: 600; } .legend-best { color: #1c6fd6; font-weight: 600; }
.error { color: #b00020; }
";

/// The board you step through: a click on a move, a graph point or a blunder diagram, the arrow keys, Home and
/// End, or the buttons show the position after that ply (from the ply's data the page carries), with the move
/// played and the engine's choice as arrows, the graph point and the move row marked. `#game-N-ply-K` in the
/// address opens a game at a ply. The rest of the page reads the same without it.
const SCRIPT: &str = "
(function () {
  function plies(section) {
    if (!section.plyData) {
      var data = section.querySelector('script.plies');
      section.plyData = data ? JSON.parse(data.textContent) : [];
    }
    return section.plyData;
  }
  function select(section, ply) {
    var list = plies(section);
    if (isNaN(ply) || ply < 0 || ply >= list.length) { return; }
    document.querySelectorAll('section.game.active').forEach(function (e) { e.classList.remove('active'); });
    section.classList.add('active');
    section.querySelectorAll('.selected').forEach(function (e) { e.classList.remove('selected'); });
    section.querySelectorAll('[data-ply=\"' + ply + '\"]').forEach(function (e) { e.classList.add('selected'); });
    section.setAttribute('data-selected', ply);
    var board = section.querySelector('svg.stepper-board');
    if (board) {
      board.querySelector('g.layers').innerHTML = list[ply].layers;
      board.setAttribute('data-fen', list[ply].fen);
      board.setAttribute('data-shown', ply);
      section.querySelector('.ply-caption').textContent = list[ply].caption;
    }
    var row = section.querySelector('tr[data-ply=\"' + ply + '\"]');
    if (row && row.scrollIntoView) { row.scrollIntoView({ block: 'nearest' }); }
  }
  function current(section) { return parseInt(section.getAttribute('data-selected') || '0', 10); }
  function step(section, how) {
    var last = plies(section).length - 1, ply = current(section);
    var to = { home: 0, prev: ply - 1, next: ply + 1, end: last }[how];
    select(section, Math.max(0, Math.min(last, to)));
  }
  document.querySelectorAll('section.game [data-ply]').forEach(function (e) {
    e.addEventListener('click', function () { select(e.closest('section'), parseInt(e.getAttribute('data-ply'), 10)); });
  });
  document.querySelectorAll('section.game [data-step]').forEach(function (e) {
    e.addEventListener('click', function () { step(e.closest('section'), e.getAttribute('data-step')); });
  });
  var keys = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'home', End: 'end' };
  document.addEventListener('keydown', function (ev) {
    var section = document.querySelector('section.game.active') || document.querySelector('section.game');
    if (!section || !keys[ev.key]) { return; }
    ev.preventDefault();
    step(section, keys[ev.key]);
  });
  var want = /^#game-(\\d+)-ply-(\\d+)$/.exec(window.location.hash);
  document.querySelectorAll('section.game').forEach(function (section) {
    var chosen = want && section.id === 'game-' + want[1];
    select(section, chosen ? parseInt(want[2], 10) : 0);
    if (chosen && section.scrollIntoView) { section.scrollIntoView(); }
  });
  // The keys step the game the address chose, else the first.
  document.querySelectorAll('section.game.active').forEach(function (e) { e.classList.remove('active'); });
  var chosen = want && document.getElementById('game-' + want[1]);
  if (chosen) { chosen.classList.add('active'); }
  document.body.setAttribute('data-script', 'ready');
})();
";

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn page(opts: &PageOptions, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{title}</title><style>{STYLE}</style></head>\n<body><h1>{title}</h1>\n{body}<script>{SCRIPT}</script></body></html>\n",
        title = escape(&opts.title)
    )
}

fn uci(m: Move) -> String {
    m.display(Notation::Uci).to_string()
}

/// A move number as the PGN counts them: `12.` for Cho's 12th move, `12...` for Han's.
fn move_number(ply: usize, side: Color) -> String {
    let n = ply.div_ceil(2);
    if side == Color::Cho { format!("{n}.") } else { format!("{n}...") }
}

/// A score from the mover's view shown from Cho's: `+1.35`, `-0.20`, `#4` (Cho mates), `#-2`.
fn cho_score(side: Color, score: Score) -> String {
    let sign = if side == Color::Cho { 1 } else { -1 };
    match score {
        Score::Cp(cp) => format!("{:+.2}", (sign * cp) as f64 / 100.0),
        Score::Mate(n) => format!("#{}", sign * n),
    }
}

/// The value after a move as the graph and the list show it (Cho's view).
fn after_text(mv: &MoveReview) -> String {
    match &mv.judgement {
        Err(_) => "?".into(),
        Ok(j) => match (j.score_after, &j.ends_game) {
            (Some(s), _) => cho_score(mv.side, s),
            (None, Some(reason)) => format!("end ({reason})"),
            (None, None) => "end".into(),
        },
    }
}

/// The review page of analysed games.
pub fn games_page(games: &[GameReview], opts: &PageOptions) -> String {
    let mut body = String::new();
    if games.is_empty() {
        body.push_str("<p>No game could be analysed.</p>");
    }
    if !games.is_empty() {
        // The pieces drawn once for every board of the page.
        let _ = write!(
            body,
            r#"<svg class="piece-defs" width="0" height="0" aria-hidden="true" font-family="{}">{}</svg>"#,
            diagram::FONTS,
            diagram::piece_defs()
        );
    }
    for g in games {
        body.push_str(&game_section(g, opts));
    }
    page(opts, &body)
}

fn game_section(g: &GameReview, opts: &PageOptions) -> String {
    let mut s = String::new();
    let name = |p: &Option<String>| escape(p.as_deref().unwrap_or("?"));
    let _ = write!(
        s,
        r#"<section class="game" id="game-{n}" data-plies="{plies}"><h2>Game {n}: <span class="cho">{cho}</span> (Cho) vs <span class="han">{han}</span> (Han)</h2><dl class="facts"><dt>Result</dt><dd class="result">{result}</dd><dt>Termination</dt><dd class="termination">{term}</dd>"#,
        n = g.number,
        plies = g.moves.len(),
        cho = name(&g.cho),
        han = name(&g.han),
        result = escape(g.result.as_deref().unwrap_or("*")),
        term = escape(g.termination.as_deref().unwrap_or("unknown")),
    );
    if let Some(event) = &g.event {
        let _ = write!(s, "<dt>Event</dt><dd>{}</dd>", escape(event));
    }
    let _ = write!(s, "<dt>Rule set</dt><dd>{}</dd><dt>Moves</dt><dd>{} plies</dd></dl>", g.rules.name, g.moves.len());
    s.push_str("<h3>Evaluation</h3>");
    s.push_str(&eval_graph(g));
    s.push_str(&stepping_board(g, opts));
    s.push_str(&blunder_summary(g));
    s.push_str(&move_list(g, opts));
    s.push_str(&blunder_diagrams(g, opts));
    s.push_str("</section>\n");
    s
}

/// The evaluation after every ply from Cho's view, clamped to ±[`CLAMP_CP`] (mates at the edge), one point per
/// ply, blunders marked; the x axis is labelled in move numbers.
pub fn eval_graph(g: &GameReview) -> String {
    let n = g.moves.len();
    let (plot_w, plot_h) = (GRAPH_WIDTH - GRAPH_LEFT - GRAPH_RIGHT, GRAPH_HEIGHT - GRAPH_TOP - GRAPH_BOTTOM);
    let x = |ply: usize| GRAPH_LEFT + plot_w * (ply as f64 - 0.5) / n.max(1) as f64;
    let y = |cp: i32| {
        GRAPH_TOP + plot_h * (1.0 - (cp.clamp(-CLAMP_CP, CLAMP_CP) + CLAMP_CP) as f64 / (2 * CLAMP_CP) as f64)
    };
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg class="eval-graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {GRAPH_WIDTH} {GRAPH_HEIGHT}" role="img" aria-label="evaluation from Cho's view"><rect x="{GRAPH_LEFT}" y="{GRAPH_TOP}" width="{plot_w}" height="{:.1}" fill="#fbe9ea"/><rect x="{GRAPH_LEFT}" y="{GRAPH_TOP}" width="{plot_w}" height="{:.1}" fill="#e3f3f0"/>"##,
        plot_h,
        plot_h / 2.0
    );
    // The y axis: pawns from Cho's view, the clamp at the edges.
    let _ = write!(s, r##"<g class="y-axis" font-size="11" fill="#555" text-anchor="end">"##);
    let pawns = CLAMP_CP / 100;
    for v in [pawns, pawns / 2, 0, -pawns / 2, -pawns] {
        let yy = y(v * 100);
        let _ = write!(
            s,
            r##"<line x1="{GRAPH_LEFT}" x2="{:.1}" y1="{yy:.1}" y2="{yy:.1}" stroke="{}" stroke-width="{}"/><text x="{:.1}" y="{:.1}">{v:+}</text>"##,
            GRAPH_WIDTH - GRAPH_RIGHT,
            if v == 0 { "#888" } else { "#ddd" },
            if v == 0 { 1.2 } else { 0.6 },
            GRAPH_LEFT - 6.0,
            yy + 4.0
        );
    }
    let _ = write!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="start" fill="#0b7a6e">Cho</text><text x="{:.1}" y="{:.1}" text-anchor="start" fill="#c4122f">Han</text></g>"##,
        GRAPH_LEFT + 4.0,
        GRAPH_TOP + 12.0,
        GRAPH_LEFT + 4.0,
        GRAPH_TOP + plot_h - 4.0
    );
    // The x axis in move numbers: Cho's move m is ply 2m - 1.
    let moves = n.div_ceil(2).max(1);
    let step = LABEL_STEPS.iter().copied().find(|st| moves / st < MAX_X_LABELS).unwrap_or(500);
    let _ = write!(s, r##"<g class="x-axis" font-size="11" fill="#555" text-anchor="middle">"##);
    let labels = std::iter::once(1).chain((step..=moves).step_by(step).filter(|m| *m != 1));
    for m in labels.filter(|m| 2 * m - 1 <= n.max(1)) {
        let _ = write!(s, r#"<text x="{:.1}" y="{:.1}">{m}</text>"#, x(2 * m - 1), GRAPH_HEIGHT - 12.0);
    }
    let _ =
        write!(s, r#"<text x="{:.1}" y="{:.1}">move</text></g>"#, GRAPH_WIDTH - GRAPH_RIGHT - 16.0, GRAPH_HEIGHT - 1.0);
    // The curve, then one point per ply (a move without a judgement keeps the value before it).
    let mut values = Vec::with_capacity(n);
    let mut last = 0;
    for mv in &g.moves {
        last = mv.cho_value_after().unwrap_or(last);
        values.push(last);
    }
    let line: Vec<String> = values.iter().enumerate().map(|(i, v)| format!("{:.1},{:.1}", x(i + 1), y(*v))).collect();
    let _ = write!(
        s,
        r##"<polyline class="curve" points="{}" fill="none" stroke="#333" stroke-width="1.6"/>"##,
        line.join(" ")
    );
    s.push_str(r#"<g class="points">"#);
    for (mv, v) in g.moves.iter().zip(&values) {
        let (class, r, fill) = if mv.is_blunder() {
            ("ply blunder", 5.5, if mv.side == Color::Cho { "#0b7a6e" } else { "#c4122f" })
        } else if mv.judgement.is_err() {
            ("ply unjudged", 2.5, "#aaa")
        } else {
            ("ply", 2.5, "#333")
        };
        let _ = write!(
            s,
            r#"<circle class="{class}" data-ply="{ply}" cx="{:.1}" cy="{:.1}" r="{r}" fill="{fill}"><title>{num} {mv_text}: {score}</title></circle>"#,
            x(mv.ply),
            y(*v),
            ply = mv.ply,
            num = move_number(mv.ply, mv.side),
            mv_text = uci(mv.played),
            score = after_text(mv),
        );
    }
    s.push_str("</g></svg>");
    s
}

fn blunder_summary(g: &GameReview) -> String {
    let mut s = format!(
        r#"<h3>Blunders</h3><p>A blunder loses at least {:.2} pawns against the engine's move.</p><table class="blunder-summary"><tr><th>Side</th><th>Player</th><th>Blunders</th><th>Moves</th></tr>"#,
        g.blunder_cp as f64 / 100.0
    );
    for (side, player) in [(Color::Cho, &g.cho), (Color::Han, &g.han)] {
        let (class, label) = if side == Color::Cho { ("cho", "Cho") } else { ("han", "Han") };
        let links: Vec<String> = g
            .moves
            .iter()
            .filter(|m| m.side == side && m.is_blunder())
            .map(|m| {
                format!(
                    r##"<a href="#blunder-{}-{}">{} {}</a>"##,
                    g.number,
                    m.ply,
                    move_number(m.ply, side),
                    uci(m.played)
                )
            })
            .collect();
        let _ = write!(
            s,
            r#"<tr class="{class}" data-side="{class}"><td>{label}</td><td>{}</td><td class="count">{}</td><td>{}</td></tr>"#,
            escape(player.as_deref().unwrap_or("?")),
            g.blunders[side.index()],
            if links.is_empty() { "none".into() } else { links.join(", ") }
        );
    }
    s.push_str("</table>");
    s
}

/// The board to step through: the start position drawn, and each ply's position, arrows and caption as data
/// for the page's script.
fn stepping_board(g: &GameReview, opts: &PageOptions) -> String {
    let Ok(mut pos) = Position::from_fen(&g.start_fen, g.rules) else { return String::new() };
    let layers = |pos: &Position, arrows: Vec<(Move, ArrowKind)>, last: Option<Move>| {
        diagram::last_move_marks(last, false)
            + &diagram::pieces_by_reference(pos, false)
            + &diagram::arrows(&arrows, false)
    };
    let first_best = g.moves.first().and_then(|m| m.judgement.as_ref().ok()).and_then(|j| j.best);
    let mut plies = vec![serde_json::json!({
        "fen": pos.fen(),
        "layers": layers(&pos, first_best.map(|b| vec![(b, ArrowKind::Best)]).unwrap_or_default(), None),
        "caption": match first_best {
            Some(b) => format!("Start position; the engine would play {}", move_text(b, None, opts)),
            None => "Start position".to_string(),
        },
    })];
    let start = plies[0]["layers"].as_str().unwrap_or_default().to_string();
    for mv in &g.moves {
        let judgement = mv.judgement.as_ref().ok();
        let best = judgement.and_then(|j| j.best);
        pos.make_move(mv.played);
        let mut arrows = vec![(mv.played, ArrowKind::Played)];
        arrows.extend(best.filter(|b| *b != mv.played).map(|b| (b, ArrowKind::Best)));
        let engine = match best {
            Some(b) if b == mv.played => "the engine's choice too".to_string(),
            Some(b) => {
                format!("the engine played {}", move_text(b, judgement.and_then(|j| j.best_korean.as_deref()), opts))
            }
            None => "not analysed".to_string(),
        };
        plies.push(serde_json::json!({
            "fen": pos.fen(),
            "layers": layers(&pos, arrows, Some(mv.played)),
            "caption": format!("{} {}: {}; {engine}", move_number(mv.ply, mv.side), move_text(mv.played, Some(&mv.korean), opts), after_text(mv)),
        }));
    }
    // Inside a <script> element, "</" would end it early.
    let data = serde_json::Value::Array(plies).to_string().replace("</", "<\\/");
    let frame = diagram::frame(&g.start_fen, false);
    format!(
        r#"<h3>Board</h3><div class="stepper"><figure class="board">{}<g class="layers">{start}</g></svg><figcaption class="ply-caption">Start position</figcaption></figure><div class="stepper-buttons"><button type="button" data-step="home" title="Home">«</button><button type="button" data-step="prev" title="←">◀</button><button type="button" data-step="next" title="→">▶</button><button type="button" data-step="end" title="End">»</button> <span class="hint">←/→, Home/End, or click a move or a point of the graph</span></div><script type="application/json" class="plies">{data}</script></div>"#,
        frame.replacen("class=\"janggi-diagram\"", "class=\"janggi-diagram stepper-board\"", 1)
    )
}

/// A move as the page writes it: coordinates, with the Korean notation beside them when chosen.
fn move_text(m: Move, korean: Option<&str>, opts: &PageOptions) -> String {
    match korean {
        Some(k) if opts.korean && !k.is_empty() => format!("{} ({k})", uci(m)),
        _ => uci(m),
    }
}

fn move_list(g: &GameReview, opts: &PageOptions) -> String {
    let mut s =
        String::from(r#"<h3>Moves</h3><div class="moves-box"><table class="moves"><tr><th>Move</th><th>Played</th>"#);
    if opts.korean {
        s.push_str("<th>Korean</th>");
    }
    s.push_str("<th>Score after (Cho)</th><th>Loss</th><th>Engine's move</th></tr>");
    for mv in &g.moves {
        let blunder = mv.is_blunder();
        let _ = write!(
            s,
            r#"<tr data-ply="{}" class="{}"><td>{}</td><td class="{}">{}</td>"#,
            mv.ply,
            if blunder { "blunder" } else { "" },
            move_number(mv.ply, mv.side),
            if mv.side == Color::Cho { "cho" } else { "han" },
            uci(mv.played),
        );
        if opts.korean {
            let _ = write!(s, "<td>{}</td>", escape(&mv.korean));
        }
        match &mv.judgement {
            Ok(j) => {
                let best = match (j.best, &j.best_korean) {
                    (Some(b), Some(k)) if opts.korean => format!("{} ({})", uci(b), escape(k)),
                    (Some(b), _) => uci(b),
                    (None, _) => "—".into(),
                };
                let loss = if blunder {
                    format!(r##"<a href="#blunder-{}-{}">{:.2}</a>"##, g.number, mv.ply, j.loss as f64 / 100.0)
                } else {
                    format!("{:.2}", j.loss.max(0) as f64 / 100.0)
                };
                let _ = write!(
                    s,
                    r#"<td class="num">{}</td><td class="num">{loss}</td><td>{best}</td></tr>"#,
                    escape(&after_text(mv))
                );
            }
            Err(e) => {
                let _ = write!(s, r#"<td colspan="3" class="error">not analysed: {}</td></tr>"#, escape(e));
            }
        }
    }
    s.push_str("</table></div>");
    s
}

fn blunder_diagrams(g: &GameReview, opts: &PageOptions) -> String {
    let mut s = String::from(
        r#"<h3>Blunder diagrams</h3><p><span class="legend-played">Orange</span>: the move played; <span class="legend-best">blue</span>: the engine's move. Each board is seen from the side that blundered.</p><div class="diagrams">"#,
    );
    let (w, h) = diagram::size();
    let mut any = false;
    for (i, mv) in g.moves.iter().enumerate() {
        let Ok(j) = &mv.judgement else { continue };
        if !j.blunder {
            continue;
        }
        let Ok(pos) = Position::from_fen(&mv.fen, g.rules) else { continue };
        any = true;
        let mut arrows = vec![(mv.played, ArrowKind::Played)];
        arrows.extend(j.best.map(|b| (b, ArrowKind::Best)));
        let last_move = i.checked_sub(1).map(|p| g.moves[p].played);
        let svg = diagram::svg(&pos, &DiagramOptions { flip: mv.side == Color::Han, arrows, last_move });
        // The diagram keeps its viewBox and is drawn smaller.
        let svg = svg.replacen(
            &format!(r#"width="{w}" height="{h}""#),
            &format!(r#"width="{:.0}" height="{:.0}""#, w * DIAGRAM_SCALE, h * DIAGRAM_SCALE),
            1,
        );
        let korean = |text: &str| if opts.korean { format!(" ({})", escape(text)) } else { String::new() };
        let best = match j.best {
            Some(b) => format!("{}{}", uci(b), korean(j.best_korean.as_deref().unwrap_or(""))),
            None => "—".into(),
        };
        let _ = write!(
            s,
            r#"<figure class="blunder-diagram" id="blunder-{}-{}" data-ply="{}">{svg}<figcaption>{} <span class="legend-played">{}</span>{} loses {:.2} ({} → {}); the engine played <span class="legend-best">{best}</span>.</figcaption></figure>"#,
            g.number,
            mv.ply,
            mv.ply,
            move_number(mv.ply, mv.side),
            uci(mv.played),
            korean(&mv.korean),
            j.loss as f64 / 100.0,
            cho_score(mv.side, j.score_before),
            escape(&after_text(mv)),
        );
    }
    if !any {
        s.push_str("<p>No blunders.</p>");
    }
    s.push_str("</div>");
    s
}

/// The page of analysed positions (FEN or EPD input): a diagram with the engine's move per position.
pub fn positions_page(positions: &[PositionReview], opts: &PageOptions) -> String {
    let mut body = String::new();
    for p in positions {
        let id = p.id.as_deref().map(|i| format!(" ({})", escape(i))).unwrap_or_default();
        let _ = write!(body, r#"<section class="position" id="line-{}"><h2>Line {}{id}</h2>"#, p.line, p.line);
        match &p.outcome {
            Err(e) => {
                let _ = write!(body, r#"<p class="error">{}</p>"#, escape(e));
            }
            Ok(f) => {
                let pos = Position::from_fen(&f.fen, f.rules);
                let side = pos.as_ref().map(|p| p.side_to_move()).unwrap_or(Color::Cho);
                let arrows = f.best.map(|b| vec![(b, ArrowKind::Best)]).unwrap_or_default();
                if let Ok(pos) = &pos {
                    let svg = diagram::svg(pos, &DiagramOptions { flip: false, arrows, last_move: None });
                    let _ = write!(body, r#"<figure class="position-diagram">{svg}</figure>"#);
                }
                let _ = write!(body, r#"<dl class="facts"><dt>FEN</dt><dd><code>{}</code></dd>"#, escape(&f.fen));
                match f.over {
                    Some((result, reason)) => {
                        let _ = write!(body, "<dt>Game over</dt><dd>{result} for the side to move ({reason})</dd>");
                    }
                    None => {
                        let best = f.best.map(uci).unwrap_or_else(|| "—".into());
                        let korean = match (&f.best_korean, opts.korean) {
                            (Some(k), true) => format!(" ({})", escape(k)),
                            _ => String::new(),
                        };
                        let pv: Vec<String> = f.pv.iter().map(|m| uci(*m)).collect();
                        let _ = write!(
                            body,
                            r#"<dt>Engine's move</dt><dd class="legend-best">{best}{korean}</dd><dt>Score (Cho)</dt><dd>{}</dd><dt>Depth</dt><dd>{}</dd><dt>Line</dt><dd>{}</dd>"#,
                            cho_score(side, f.score),
                            f.depth,
                            pv.join(" ")
                        );
                    }
                }
                body.push_str("</dl>");
            }
        }
        body.push_str("</section>\n");
    }
    page(opts, &body)
}
