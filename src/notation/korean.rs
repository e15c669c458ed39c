//! Korean move notation, as Korean game records and `.gib` files write moves: `79졸78` is the piece on point 79
//! (the from-point), its Korean name, and the point it goes to.
//!
//! Points are two digits, the row first: rows count from Han's back rank (1) down to Cho's back rank (written 0,
//! for 10), files count 1 to 9 from left to right as Cho sees the board. Our `a1` is `01`, `e2` (Cho's palace
//! centre) is `95`, `e9` (Han's) is `25`. A pass is `한수쉼` ("resting one move"); a check carries `장군` after
//! the move, as the records of Kakao Janggi do; a capture is written like any other move.

use crate::board::square::{File, Rank};
use crate::board::{Color, Move, Piece, PieceKind, Position, Square};

/// The pass, written in place of a move.
pub const PASS: &str = "한수쉼";
/// Written after a move that gives check.
pub const CHECK: &str = "장군";

/// A point as two digits: row (1 at Han's back rank … 9, then 0 at Cho's) then file (1 … 9 from the left).
pub fn point(sq: Square) -> String {
    let row = (10 - sq.rank().0) % 10;
    format!("{row}{}", sq.file().0 + 1)
}

/// The point of two digits, as [`point`] writes it.
pub fn parse_point(row: char, file: char) -> Option<Square> {
    let row = row.to_digit(10)?;
    let file = file.to_digit(10)?;
    if file == 0 {
        return None;
    }
    let rank = (10 - if row == 0 { 10 } else { row }) as u8;
    Some(Square::new(File(file as u8 - 1), Rank(rank)))
}

/// The Korean name of a piece as the records write it (Cho's soldier is 졸, Han's 병).
pub fn piece_name(piece: Piece) -> char {
    match piece.kind() {
        PieceKind::General => '장',
        PieceKind::Guard => '사',
        PieceKind::Chariot => '차',
        PieceKind::Cannon => '포',
        PieceKind::Horse => '마',
        PieceKind::Elephant => '상',
        PieceKind::Soldier if piece.color() == Color::Cho => '졸',
        PieceKind::Soldier => '병',
    }
}

/// The kind named by a Korean or Hanja piece name; `None` for anything else.
fn kind_of_name(c: char) -> Option<PieceKind> {
    Some(match c {
        '장' | '將' | '帥' | '楚' | '漢' | '궁' | '宮' | '초' | '한' => PieceKind::General,
        '사' | '士' | '仕' => PieceKind::Guard,
        '차' | '車' | '俥' => PieceKind::Chariot,
        '포' | '包' | '炮' | '砲' => PieceKind::Cannon,
        '마' | '馬' | '傌' => PieceKind::Horse,
        '상' | '象' | '相' => PieceKind::Elephant,
        '졸' | '卒' | '병' | '兵' => PieceKind::Soldier,
        _ => return None,
    })
}

/// The side named by a marker some records put before the piece (`79楚卒78`).
fn side_of_marker(c: char) -> Option<Color> {
    match c {
        '楚' | '초' => Some(Color::Cho),
        '漢' | '한' => Some(Color::Han),
        _ => None,
    }
}

/// A legal move of `pos` in Korean notation. The move must be legal in `pos`.
pub fn format(pos: &Position, m: Move) -> String {
    if m.is_pass() {
        return PASS.to_string();
    }
    let name = pos.piece_at(m.from()).map(piece_name).unwrap_or('?');
    let mut after = pos.clone();
    after.make_move(m);
    let check = if after.in_check() { CHECK } else { "" };
    format!("{}{name}{}{check}", point(m.from()), point(m.to()))
}

/// Reads a move in Korean notation (Hangul or Hanja names, an optional side marker, anything after the
/// to-point such as `장군` ignored) and checks it against the legal moves of `pos`.
pub fn parse(pos: &Position, text: &str) -> Result<Move, String> {
    let text = text.trim();
    let bad = |why: &str| format!("'{text}' is not a Korean move: {why}");
    let pass = Move::pass(pos.general(pos.side_to_move()));
    if text.starts_with(PASS) {
        return if pos.is_legal(pass) { Ok(pass) } else { Err(format!("'{text}': no pass is allowed here")) };
    }
    let chars: Vec<char> = text.chars().collect();
    let digits_at = |i: usize| chars.get(i).is_some_and(|c| c.is_ascii_digit());
    if !(digits_at(0) && digits_at(1)) {
        return Err(bad("it must start with the two digits of a point"));
    }
    let from = parse_point(chars[0], chars[1]).ok_or_else(|| bad("no such from-point"))?;
    let names: Vec<char> = chars[2..].iter().copied().take_while(|c| !c.is_ascii_digit()).collect();
    let to_at = 2 + names.len();
    if !(digits_at(to_at) && digits_at(to_at + 1)) {
        return Err(bad("the to-point must follow the piece's name"));
    }
    let to = parse_point(chars[to_at], chars[to_at + 1]).ok_or_else(|| bad("no such to-point"))?;
    let (side, name) = match names.as_slice() {
        [name] => (None, *name),
        [marker, name] => (Some(side_of_marker(*marker).ok_or_else(|| bad("unknown side marker"))?), *name),
        _ => return Err(bad("one piece name between the points")),
    };
    let kind = kind_of_name(name).ok_or_else(|| bad("unknown piece name"))?;
    let mover = pos.side_to_move();
    if side.is_some_and(|s| s != mover) {
        return Err(format!("'{text}': it is the other side's turn"));
    }
    match pos.piece_at(from) {
        Some(p) if p.color() == mover && p.kind() == kind => {}
        _ => return Err(format!("'{text}': no such piece of the side to move on {}", point(from))),
    }
    let m = Move::new(from, to);
    if pos.is_legal(m) { Ok(m) } else { Err(format!("'{text}' is not legal here")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Notation, Rules};

    #[test]
    fn points_as_the_records_number_them() {
        let sq = |s: &str| Square::parse(s, Notation::Uci).unwrap();
        assert_eq!(point(sq("a1")), "01");
        assert_eq!(point(sq("e2")), "95");
        assert_eq!(point(sq("e9")), "25");
        assert_eq!(point(sq("i10")), "19");
        assert_eq!(point(sq("i4")), "79");
        for s in Square::all() {
            let p: Vec<char> = point(s).chars().collect();
            assert_eq!(parse_point(p[0], p[1]), Some(s));
        }
    }

    #[test]
    fn a_soldier_move_and_a_pass_both_ways() {
        let pos = Position::startpos(Rules::JANGGI);
        let m = Move::parse("i4h4", Notation::Uci).unwrap();
        assert_eq!(format(&pos, m), "79졸78");
        assert_eq!(parse(&pos, "79卒78"), Ok(m));
        assert_eq!(parse(&pos, "79楚卒78"), Ok(m));
        let pass = Move::pass(pos.general(Color::Cho));
        assert_eq!(format(&pos, pass), "한수쉼");
        assert_eq!(parse(&pos, "한수쉼"), Ok(pass));
        assert!(parse(&pos, "79병78").is_ok(), "the two soldier names are one kind");
        assert!(parse(&pos, "79漢卒78").is_err());
        assert!(parse(&pos, "79차78").is_err());
        assert!(parse(&pos, "7졸78").is_err());
        assert!(parse(&pos, "79졸68").is_err());
    }
}
