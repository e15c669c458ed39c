//! FEN in and out, as Fairy-Stockfish writes it for Janggi, with an error that says what is wrong.

use super::attacks;
use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::rules::Rules;
use super::square::{FILES, RANKS, Square};
use std::fmt;

/// Writes FEN's first field, the pieces rank by rank from the tenth, for any board that can say what stands on
/// (file, rank), both from 0.
pub fn write_placement(out: &mut String, piece_at: impl Fn(usize, usize) -> Option<Piece>) {
    for rank in (0..RANKS).rev() {
        let mut empty = 0;
        for file in 0..FILES {
            match piece_at(usize::from(file), usize::from(rank)) {
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

/// Most pieces of a kind one side can have: an army has no promotions, so never more than it starts with.
const MAX_PER_SIDE: [(PieceKind, u32, &str); 7] = [
    (PieceKind::General, 1, "generals"),
    (PieceKind::Guard, 2, "guards"),
    (PieceKind::Chariot, 2, "chariots"),
    (PieceKind::Cannon, 2, "cannons"),
    (PieceKind::Horse, 2, "horses"),
    (PieceKind::Elephant, 2, "elephants"),
    (PieceKind::Soldier, 5, "soldiers"),
];

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    RankCount(usize),
    RankLength { rank: usize, points: usize },
    ZeroDigit { rank: usize },
    UnknownLetter(char),
    MissingGeneral(Color),
    TooMany { color: Color, kind: &'static str, count: u32, max: u32 },
    GeneralOutsidePalace(Color, Square),
    BadSide(String),
    MissingSide,
    BadField { field: &'static str, value: String },
    TrailingFields(String),
    SideNotToMoveInCheck(Color),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => write!(f, "FEN has {n} ranks, a Janggi board has 10"),
            FenError::RankLength { rank, points } => {
                write!(f, "rank {rank} of the FEN describes {points} points, a rank has 9")
            }
            FenError::ZeroDigit { rank } => {
                write!(f, "rank {rank} of the FEN has a '0', empty runs are 1 to 9")
            }
            FenError::UnknownLetter(c) => write!(f, "unknown piece letter '{c}' in FEN"),
            FenError::MissingGeneral(c) => write!(f, "{c} has no general"),
            FenError::TooMany { color, kind, count, max } => {
                write!(f, "{color} has {count} {kind}, at most {max} are possible")
            }
            FenError::GeneralOutsidePalace(c, sq) => {
                write!(f, "{c}'s general on {sq} is outside its palace")
            }
            FenError::BadSide(s) => write!(f, "side to move must be 'w' or 'b', not '{s}'"),
            FenError::MissingSide => write!(f, "FEN has no side to move"),
            FenError::BadField { field, value } => write!(f, "bad {field} '{value}' in FEN"),
            FenError::TrailingFields(s) => write!(f, "unexpected text after the FEN: '{s}'"),
            FenError::SideNotToMoveInCheck(c) => {
                write!(f, "{c}'s general is attacked although it is not {c}'s move")
            }
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Reads a FEN: board, side, then optionally the castling and en-passant fields (always `-`) and the
    /// halfmove clock and fullmove number (0 and 1 when missing).
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let mut pos = Position::empty(rules);

        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != RANKS as usize {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = RANKS as usize - 1 - i;
            let mut file = 0usize;
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    // Digits count empty points.
                    file += d as usize;
                    if d == 0 {
                        return Err(FenError::ZeroDigit { rank: rank + 1 });
                    }
                } else {
                    let piece = Piece::from_letter(c).ok_or(FenError::UnknownLetter(c))?;
                    if file < FILES as usize {
                        pos.put(Square::from_coords(file as i32, rank as i32).expect("on board"), piece);
                    }
                    file += 1;
                }
                if file > FILES as usize {
                    let rest: usize = chars.by_ref().map(|c| c.to_digit(10).map_or(1, |d| d as usize)).sum::<usize>();
                    return Err(FenError::RankLength { rank: rank + 1, points: file + rest });
                }
            }
            if file != FILES as usize {
                return Err(FenError::RankLength { rank: rank + 1, points: file });
            }
        }

        for color in Color::BOTH {
            for (kind, max, name) in MAX_PER_SIDE {
                let count = pos.pieces(color, kind).count();
                if count > max {
                    return Err(FenError::TooMany { color, kind: name, count, max });
                }
            }
            if pos.pieces(color, PieceKind::General).is_empty() {
                return Err(FenError::MissingGeneral(color));
            }
            let g = pos.general(color);
            if !attacks::palace_of(color).has(g) {
                return Err(FenError::GeneralOutsidePalace(color, g));
            }
        }

        let side = fields.next().ok_or(FenError::MissingSide)?;
        pos.side = match side {
            "w" | "W" => Color::Cho,
            "b" | "B" => Color::Han,
            other => return Err(FenError::BadSide(other.to_string())),
        };
        if pos.side == Color::Han {
            pos.state.key ^= super::zobrist::SIDE;
        }

        let rest: Vec<&str> = fields.collect();
        let mut i = 0;
        // Castling and en-passant fields: only "-" makes sense in Janggi.
        for field in ["castling field", "en-passant field"] {
            if let Some(&v) = rest.get(i) {
                if v.parse::<u32>().is_ok() {
                    break;
                }
                if v != "-" {
                    return Err(FenError::BadField { field, value: v.to_string() });
                }
                i += 1;
            }
        }
        if let Some(&v) = rest.get(i) {
            pos.state.halfmove =
                v.parse().map_err(|_| FenError::BadField { field: "halfmove clock", value: v.to_string() })?;
            i += 1;
        }
        if let Some(&v) = rest.get(i) {
            let n: u16 =
                v.parse().map_err(|_| FenError::BadField { field: "fullmove number", value: v.to_string() })?;
            pos.state.fullmove = n.max(1);
            i += 1;
        }
        if i < rest.len() {
            return Err(FenError::TrailingFields(rest[i..].join(" ")));
        }

        pos.refresh_state();
        let not_to_move = !pos.side;
        // The one reachable position with the side not to move in check: a pass under bikjang, which the rule
        // sets with bikjang allow even in check and which ends the game; a host may still send its FEN.
        if pos.attacked(pos.general(not_to_move), pos.side) && !pos.generals_face() {
            return Err(FenError::SideNotToMoveInCheck(not_to_move));
        }
        Ok(pos)
    }

    /// The FEN with all six fields.
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(96);
        write_placement(&mut out, |file, rank| {
            self.piece_at(Square::from_coords(file as i32, rank as i32).expect("on board"))
        });
        out.push(' ');
        out.push(self.side.fen_char());
        out.push_str(&format!(" - - {} {}", self.state.halfmove, self.state.fullmove));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::setups::START_FEN;

    #[test]
    fn start_fen_round_trips() {
        let pos = Position::from_fen(START_FEN, Rules::JANGGI).unwrap();
        assert_eq!(pos.fen(), START_FEN);
    }

    #[test]
    fn the_game_ply_comes_from_the_move_number_and_the_side_to_move() {
        let board = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR";
        let ply = |tail: &str| Position::from_fen(&format!("{board} {tail}"), Rules::JANGGI).unwrap();
        assert_eq!(ply("w - - 0 1").game_ply_from_move_number(), 0);
        assert_eq!(ply("b - - 0 1").game_ply_from_move_number(), 1);
        assert_eq!(ply("w - - 0 21").game_ply_from_move_number(), 40);
        let mut pos = ply("b - - 0 21");
        let m = *pos.legal_moves().iter().next().unwrap();
        pos.make_move(m);
        assert_eq!(pos.game_ply_from_move_number(), 42);
    }

    #[test]
    fn short_fens_get_default_fields() {
        let pos =
            Position::from_fen("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b", Rules::JANGGI)
                .unwrap();
        assert_eq!(pos.fen(), "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1");
    }

    #[test]
    fn horse_and_elephant_may_be_written_h_and_e() {
        let pos = Position::from_fen(
            "rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w - - 0 1",
            Rules::JANGGI,
        )
        .unwrap();
        assert_eq!(pos.fen(), START_FEN);
    }
}
