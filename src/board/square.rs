//! Points of the 9x10 board and their names in the three protocol dialects.
//!
//! Index = rank * 9 + file, with rank 0 at Cho's (the first player's) side. UCI names ranks 1..10,
//! UCCI 0..9, and USI writes a file digit (9 for file a) and a rank letter (a for rank 10), with a leading
//! `0` on rank-10 points, exactly as Fairy-Stockfish does.

use std::fmt;

pub const FILES: u8 = 9;
pub const RANKS: u8 = 10;
pub const SQUARE_COUNT: usize = 90;

/// A file `a`..`i`, 0-based from the left as Cho sees the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(pub u8);

/// A rank 1..10, stored 0-based from Cho's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(pub u8);

/// One of the 90 points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square(u8);

/// The square notation of a protocol dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    #[default]
    Uci,
    Ucci,
    Usi,
}

impl Square {
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * FILES + file.0)
    }

    /// The square with this index, if it is on the board.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARE_COUNT { Some(Square(index as u8)) } else { None }
    }

    /// Builds a square from an index known to be below 90 (tables and iteration).
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < SQUARE_COUNT);
        Square(index as u8)
    }

    /// The square at file/rank coordinates, `None` off the board.
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32 {
            Some(Square((rank * FILES as i32 + file) as u8))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 % FILES)
    }

    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / FILES)
    }

    /// The square `df` files and `dr` ranks away, if that is on the board.
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_coords(self.file().0 as i32 + df, self.rank().0 as i32 + dr)
    }

    /// The same point seen from the other side of the board.
    pub const fn flip_rank(self) -> Square {
        Square::new(self.file(), Rank(RANKS - 1 - self.rank().0))
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARE_COUNT as u8).map(Square)
    }

    /// Parses a square at the start of `text` in the given notation; returns the square and the bytes used.
    pub fn parse_prefix(text: &str, notation: Notation) -> Option<(Square, usize)> {
        let b = text.as_bytes();
        match notation {
            Notation::Uci | Notation::Ucci => {
                let file = *b.first()?;
                if !(b'a'..=b'i').contains(&file) {
                    return None;
                }
                let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                // UCI ranks have up to two digits (1..10), UCCI ranks one (0..9).
                let take = digits.min(if notation == Notation::Uci { 2 } else { 1 });
                if take == 0 {
                    return None;
                }
                let number: u32 = text[1..1 + take].parse().ok()?;
                let rank = match notation {
                    Notation::Uci => number.checked_sub(1)?,
                    _ => number,
                };
                if rank >= RANKS as u32 || (take == 2 && b[1] == b'0') {
                    return None;
                }
                Some((Square::new(File(file - b'a'), Rank(rank as u8)), 1 + take))
            }
            Notation::Usi => {
                let (skip, rank10) = if b.first() == Some(&b'0') { (1, true) } else { (0, false) };
                let digit = *b.get(skip)?;
                let letter = *b.get(skip + 1)?;
                if !(b'1'..=b'9').contains(&digit) || !(b'a'..=b'j').contains(&letter) {
                    return None;
                }
                let rank = RANKS - 1 - (letter - b'a');
                if rank10 != (rank == RANKS - 1) {
                    return None;
                }
                Some((Square::new(File(b'9' - digit), Rank(rank)), skip + 2))
            }
        }
    }

    /// Parses exactly one square.
    pub fn parse(text: &str, notation: Notation) -> Option<Square> {
        match Square::parse_prefix(text, notation) {
            Some((sq, used)) if used == text.len() => Some(sq),
            _ => None,
        }
    }

    /// The square's name in a dialect.
    pub fn display(self, notation: Notation) -> SquareDisplay {
        SquareDisplay(self, notation)
    }
}

/// Formats a square in a given notation.
pub struct SquareDisplay(Square, Notation);

impl fmt::Display for SquareDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let SquareDisplay(sq, notation) = *self;
        let file = sq.file().0;
        let rank = sq.rank().0;
        match notation {
            Notation::Uci => write!(f, "{}{}", (b'a' + file) as char, rank + 1),
            Notation::Ucci => write!(f, "{}{}", (b'a' + file) as char, rank),
            Notation::Usi => {
                if rank == RANKS - 1 {
                    f.write_str("0")?;
                }
                write!(f, "{}{}", (b'9' - file) as char, (b'a' + (RANKS - 1 - rank)) as char)
            }
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.display(Notation::Uci), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_every_notation() {
        for notation in [Notation::Uci, Notation::Ucci, Notation::Usi] {
            for sq in Square::all() {
                let name = sq.display(notation).to_string();
                assert_eq!(Square::parse(&name, notation), Some(sq), "{name}");
            }
        }
    }

    #[test]
    fn dialect_names_match_the_reference() {
        let h10 = Square::parse("h10", Notation::Uci).unwrap();
        assert_eq!(h10.display(Notation::Ucci).to_string(), "h9");
        assert_eq!(h10.display(Notation::Usi).to_string(), "02a");
        let e2 = Square::parse("e2", Notation::Uci).unwrap();
        assert_eq!(e2.display(Notation::Usi).to_string(), "5i");
        assert_eq!(e2.display(Notation::Ucci).to_string(), "e1");
        assert_eq!(Square::parse("a11", Notation::Uci), None);
        assert_eq!(Square::parse("j1", Notation::Uci), None);
        assert_eq!(Square::parse("a0", Notation::Uci), None);
        assert_eq!(Square::parse("a01", Notation::Uci), None);
    }
}
