//! Sides and pieces, with their FEN letters.

use std::fmt;
use std::ops::Not;

/// Cho (Blue, `w`, moves first, starts at the bottom) or Han (Red, `b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Cho = 0,
    Han = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Cho, Color::Han];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN side letter.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Cho => 'w',
            Color::Han => 'b',
        }
    }

    /// +1 for Cho (moving up the board), -1 for Han.
    pub const fn forward(self) -> i32 {
        match self {
            Color::Cho => 1,
            Color::Han => -1,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Cho => Color::Han,
            Color::Han => Color::Cho,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Cho => "Cho",
            Color::Han => "Han",
        })
    }
}

/// The seven kinds of Janggi pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    General = 0,
    Guard = 1,
    Chariot = 2,
    Cannon = 3,
    Horse = 4,
    Elephant = 5,
    Soldier = 6,
}

impl PieceKind {
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Guard,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Horse,
        PieceKind::Elephant,
        PieceKind::Soldier,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Uppercase FEN letter as Fairy-Stockfish writes it.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Guard => 'A',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Horse => 'N',
            PieceKind::Elephant => 'B',
            PieceKind::Soldier => 'P',
        }
    }

    /// Reads a FEN letter of either case; `H` and `E` are accepted for horse and elephant.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::General,
            'A' => PieceKind::Guard,
            'R' => PieceKind::Chariot,
            'C' => PieceKind::Cannon,
            'N' | 'H' => PieceKind::Horse,
            'B' | 'E' => PieceKind::Elephant,
            'P' => PieceKind::Soldier,
            _ => return None,
        })
    }
}

/// A piece of a side; `Piece::NONE` marks an empty point in the mailbox.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    pub const NONE: Piece = Piece(0xFF);

    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece((color as u8) << 3 | kind as u8)
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0xFF
    }

    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0xFF
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 >> 3 & 1 == 0 { Color::Cho } else { Color::Han }
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[(self.0 & 7) as usize]
    }

    /// 0..14, for tables indexed by colour and kind.
    #[inline(always)]
    pub const fn index(self) -> usize {
        ((self.0 >> 3) * 7 + (self.0 & 7)) as usize
    }

    /// FEN letter: uppercase for Cho, lowercase for Han.
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Cho => c,
            Color::Han => c.to_ascii_lowercase(),
        }
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() { Color::Cho } else { Color::Han };
        Some(Piece::new(color, kind))
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() { f.write_str("-") } else { write!(f, "{}", self.letter()) }
    }
}
