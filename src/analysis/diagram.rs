//! Board diagrams as SVG text, in the traditional look: the 9×10 grid with the palace diagonals, octagonal
//! pieces of three sizes (generals largest, guards and soldiers smallest) carrying their Hanja, Cho in
//! blue-green and Han in red, file letters and rank numbers as our FEN squares name them, arrows for moves and
//! a highlighted last move. Nothing is fetched: the text uses the first installed font of [`FONTS`].

use crate::board::square::{File, Rank};
use crate::board::{Color, Move, Notation, Piece, PieceKind, Position, Square};
use std::fmt::Write;

/// Distance between files and between ranks: Janggi boards are a little wider than high per cell.
const FILE_STEP: f64 = 56.0;
const RANK_STEP: f64 = 52.0;
/// Room around the grid for half a general and the coordinates.
const MARGIN: f64 = 48.0;
/// Circumradius of the octagons: generals, then chariots/cannons/horses/elephants, then guards/soldiers.
const GENERAL_RADIUS: f64 = 25.0;
const MAJOR_RADIUS: f64 = 21.0;
const MINOR_RADIUS: f64 = 17.0;
/// Radius of the marks on the two points of the last move.
const HIGHLIGHT_RADIUS: f64 = 26.0;
/// Radius of the dot drawn on every point of the grid.
const POINT_RADIUS: f64 = 1.8;
const ARROW_WIDTH: f64 = 7.0;
const ARROW_HEAD: f64 = 18.0;

/// Fonts with Hanja glyphs, best first; the generic `serif` ends the list.
pub const FONTS: &str = "'Noto Serif CJK KR', 'Noto Serif KR', 'Source Han Serif K', 'Batang', 'AppleMyungjo', \
'Noto Sans CJK KR', 'Malgun Gothic', 'WenQuanYi Zen Hei', 'SimSun', serif";

const BOARD_COLOR: &str = "#eccb8f";
const LINE_COLOR: &str = "#5b3a1a";
const FACE_COLOR: &str = "#fbf4e2";
const CHO_COLOR: &str = "#0b7a6e";
const HAN_COLOR: &str = "#c4122f";
const HIGHLIGHT_COLOR: &str = "#f5e663";
const PLAYED_COLOR: &str = "#e8590c";
const BEST_COLOR: &str = "#1c6fd6";

/// What an arrow stands for; each kind has its colour and CSS class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    /// The move played in the game.
    Played,
    /// The engine's move.
    Best,
}

impl ArrowKind {
    fn class(self) -> &'static str {
        match self {
            ArrowKind::Played => "played",
            ArrowKind::Best => "best",
        }
    }

    fn color(self) -> &'static str {
        match self {
            ArrowKind::Played => PLAYED_COLOR,
            ArrowKind::Best => BEST_COLOR,
        }
    }
}

/// How to draw a position.
#[derive(Clone, Debug, Default)]
pub struct DiagramOptions {
    /// Han's view: Han's back rank at the bottom.
    pub flip: bool,
    pub arrows: Vec<(Move, ArrowKind)>,
    /// The two points of this move are highlighted.
    pub last_move: Option<Move>,
}

/// Total width and height of a diagram in SVG units.
pub fn size() -> (f64, f64) {
    (2.0 * MARGIN + 8.0 * FILE_STEP, 2.0 * MARGIN + 9.0 * RANK_STEP)
}

/// The Hanja on a piece: the generals carry their states' names, the soldiers differ by side.
pub fn hanja(piece: Piece) -> char {
    match (piece.kind(), piece.color()) {
        (PieceKind::General, Color::Cho) => '楚',
        (PieceKind::General, Color::Han) => '漢',
        (PieceKind::Guard, _) => '士',
        (PieceKind::Chariot, _) => '車',
        (PieceKind::Cannon, _) => '包',
        (PieceKind::Horse, _) => '馬',
        (PieceKind::Elephant, _) => '象',
        (PieceKind::Soldier, Color::Cho) => '卒',
        (PieceKind::Soldier, Color::Han) => '兵',
    }
}

fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "general",
        PieceKind::Guard => "guard",
        PieceKind::Chariot => "chariot",
        PieceKind::Cannon => "cannon",
        PieceKind::Horse => "horse",
        PieceKind::Elephant => "elephant",
        PieceKind::Soldier => "soldier",
    }
}

fn radius(kind: PieceKind) -> f64 {
    match kind {
        PieceKind::General => GENERAL_RADIUS,
        PieceKind::Guard | PieceKind::Soldier => MINOR_RADIUS,
        _ => MAJOR_RADIUS,
    }
}

/// Where a point is drawn.
fn at(sq: Square, flip: bool) -> (f64, f64) {
    let (f, r) = (sq.file().0 as f64, sq.rank().0 as f64);
    let (col, row) = if flip { (8.0 - f, r) } else { (f, 9.0 - r) };
    (MARGIN + col * FILE_STEP, MARGIN + row * RANK_STEP)
}

fn point(file: u8, rank: u8, flip: bool) -> (f64, f64) {
    at(Square::new(File(file), Rank(rank)), flip)
}

/// A regular octagon with flat top and bottom around (x, y).
fn octagon(x: f64, y: f64, r: f64) -> String {
    (0..8)
        .map(|k| {
            let a = (22.5 + 45.0 * k as f64).to_radians();
            format!("{:.1},{:.1}", x + r * a.cos(), y + r * a.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The SVG of a position.
pub fn svg(pos: &Position, opts: &DiagramOptions) -> String {
    let mut s = frame(&pos.fen(), opts.flip);
    s.push_str(&last_move_marks(opts.last_move, opts.flip));
    s.push_str(&pieces(pos, opts.flip));
    s.push_str(&arrows(&opts.arrows, opts.flip));
    s.push_str("</svg>");
    s
}

/// The board without pieces, its `<svg>` element left open: background, grid, palaces, coordinates, points.
pub fn frame(fen: &str, flip: bool) -> String {
    let (w, h) = size();
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="janggi-diagram" viewBox="0 0 {w} {h}" width="{w}" height="{h}" data-fen="{fen}" role="img" font-family="{fonts}"><title>{fen}</title>"#,
        fonts = FONTS,
    );
    let _ = write!(s, r#"<rect width="{w}" height="{h}" rx="10" fill="{BOARD_COLOR}"/>"#);
    // The grid: ten ranks, nine files, and the diagonals of both palaces.
    let _ = write!(s, r#"<g class="grid" stroke="{LINE_COLOR}" stroke-width="1.4" stroke-linecap="round">"#);
    for r in 0..10u8 {
        let ((x1, y1), (x2, y2)) = (point(0, r, flip), point(8, r, flip));
        let _ = write!(s, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
    }
    for f in 0..9u8 {
        let ((x1, y1), (x2, y2)) = (point(f, 0, flip), point(f, 9, flip));
        let _ = write!(s, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
    }
    for (low, high) in [(0u8, 2u8), (7, 9)] {
        for (a, b) in [((3u8, low), (5u8, high)), ((5, low), (3, high))] {
            let ((x1, y1), (x2, y2)) = (point(a.0, a.1, flip), point(b.0, b.1, flip));
            let _ = write!(s, r#"<line class="palace" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
        }
    }
    let _ = write!(
        s,
        r#"<rect x="{MARGIN}" y="{MARGIN}" width="{}" height="{}" fill="none" stroke-width="2.6"/></g>"#,
        8.0 * FILE_STEP,
        9.0 * RANK_STEP
    );
    // Coordinates: letters under the files, numbers beside the ranks.
    let _ = write!(
        s,
        r#"<g class="coords" fill="{LINE_COLOR}" font-family="sans-serif" font-size="13" text-anchor="middle">"#
    );
    for f in 0..9u8 {
        let (x, _) = point(f, 0, flip);
        let letter = (b'a' + f) as char;
        let _ = write!(s, r#"<text x="{x}" y="{:.1}">{letter}</text>"#, h - 8.0);
    }
    for r in 0..10u8 {
        let (_, y) = point(0, r, flip);
        let _ = write!(s, r#"<text x="13" y="{:.1}">{}</text>"#, y + 4.5, r + 1);
    }
    s.push_str("</g>");
    let _ = write!(s, r#"<g class="points" fill="{LINE_COLOR}">"#);
    for sq in Square::all() {
        let (x, y) = at(sq, flip);
        let _ = write!(
            s,
            r#"<circle class="point" data-square="{}" cx="{x}" cy="{y}" r="{POINT_RADIUS}"/>"#,
            sq.display(Notation::Uci)
        );
    }
    s.push_str("</g>");
    s
}

/// The marks on the two points of the last move.
pub fn last_move_marks(last_move: Option<Move>, flip: bool) -> String {
    let Some(m) = last_move else { return String::new() };
    let mut s = String::from(r#"<g class="last-move">"#);
    for sq in [m.from(), m.to()] {
        let (x, y) = at(sq, flip);
        let _ = write!(
            s,
            r#"<circle cx="{x}" cy="{y}" r="{HIGHLIGHT_RADIUS}" fill="{HIGHLIGHT_COLOR}" fill-opacity="0.75"/>"#
        );
    }
    s.push_str("</g>");
    s
}

fn side_and_color(piece: Piece) -> (&'static str, &'static str) {
    if piece.color() == Color::Cho { ("cho", CHO_COLOR) } else { ("han", HAN_COLOR) }
}

/// One piece drawn around (x, y).
fn piece_markup(piece: Piece, x: f64, y: f64) -> String {
    let r = radius(piece.kind());
    let (_, color) = side_and_color(piece);
    format!(
        r#"<polygon points="{oct}" fill="{FACE_COLOR}" stroke="{color}" stroke-width="2"/><polygon points="{inner}" fill="none" stroke="{color}" stroke-width="0.8" stroke-opacity="0.6"/><text x="{x}" y="{y:.1}" font-size="{size:.1}" fill="{color}">{ch}</text>"#,
        oct = octagon(x, y, r),
        inner = octagon(x, y, r - 3.5),
        size = r * 1.12,
        ch = hanja(piece),
    )
}

/// The pieces of a position, each drawn in full.
pub fn pieces(pos: &Position, flip: bool) -> String {
    let mut s = String::from(r#"<g class="pieces" text-anchor="middle" dominant-baseline="central">"#);
    for sq in Square::all() {
        let Some(piece) = pos.piece_at(sq) else { continue };
        let (x, y) = at(sq, flip);
        let _ = write!(
            s,
            r#"<g class="piece {side} {kind}" data-square="{sq}">{body}</g>"#,
            side = side_and_color(piece).0,
            kind = kind_name(piece.kind()),
            sq = sq.display(Notation::Uci),
            body = piece_markup(piece, x, y),
        );
    }
    s.push_str("</g>");
    s
}

/// The fourteen pieces drawn once around (0, 0), as `<defs>` for [`pieces_by_reference`]: a page that shows
/// many positions draws each piece once.
pub fn piece_defs() -> String {
    // The text's placement is on each piece: a `<use>` inherits from where it stands, not from the `<defs>`.
    let mut s = String::from("<defs>");
    for color in [Color::Cho, Color::Han] {
        for kind in PieceKind::ALL {
            let piece = Piece::new(color, kind);
            let _ = write!(
                s,
                r#"<g id="janggi-{}-{}" text-anchor="middle" dominant-baseline="central">{}</g>"#,
                side_and_color(piece).0,
                kind_name(kind),
                piece_markup(piece, 0.0, 0.0)
            );
        }
    }
    s.push_str("</defs>");
    s
}

/// The pieces of a position as references to [`piece_defs`] (which the document must hold once).
pub fn pieces_by_reference(pos: &Position, flip: bool) -> String {
    let mut s = String::from(r#"<g class="pieces">"#);
    for sq in Square::all() {
        let Some(piece) = pos.piece_at(sq) else { continue };
        let (x, y) = at(sq, flip);
        let (side, kind) = (side_and_color(piece).0, kind_name(piece.kind()));
        let _ = write!(
            s,
            r##"<use class="piece {side} {kind}" data-square="{sq}" href="#janggi-{side}-{kind}" x="{x}" y="{y}"/>"##,
            sq = sq.display(Notation::Uci),
        );
    }
    s.push_str("</g>");
    s
}

/// Arrows for moves.
pub fn arrows(list: &[(Move, ArrowKind)], flip: bool) -> String {
    list.iter().map(|(m, kind)| arrow(*m, *kind, flip)).collect()
}

/// An arrow from a move's from-point to its to-point; a pass is a ring around the general.
fn arrow(m: Move, kind: ArrowKind, flip: bool) -> String {
    let (color, class) = (kind.color(), kind.class());
    let (x1, y1) = at(m.from(), flip);
    let (x2, y2) = at(m.to(), flip);
    let data = m.display(Notation::Uci);
    if m.is_pass() {
        return format!(
            r#"<circle class="arrow {class}" data-move="{data}" cx="{x1}" cy="{y1}" r="{}" fill="none" stroke="{color}" stroke-width="{ARROW_WIDTH}" stroke-opacity="0.8"/>"#,
            GENERAL_RADIUS + 5.0
        );
    }
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    // The shaft stops where the head begins; the head's tip stops short of the target's centre.
    let tip = (x2 - ux * 6.0, y2 - uy * 6.0);
    let base = (tip.0 - ux * ARROW_HEAD, tip.1 - uy * ARROW_HEAD);
    let half = ARROW_HEAD * 0.6;
    let (left, right) = ((base.0 - uy * half, base.1 + ux * half), (base.0 + uy * half, base.1 - ux * half));
    format!(
        r#"<g class="arrow {class}" data-move="{data}" fill="{color}" stroke="{color}" opacity="0.82"><line x1="{x1:.1}" y1="{y1:.1}" x2="{:.1}" y2="{:.1}" stroke-width="{ARROW_WIDTH}" stroke-linecap="round"/><polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" stroke="none"/></g>"#,
        base.0, base.1, tip.0, tip.1, left.0, left.1, right.0, right.1
    )
}
