//! Moves as 16-bit values, and a fixed-capacity move list.

use super::square::{Notation, Square};
use std::fmt;
use std::mem::MaybeUninit;

/// A move from one point to another; a pass is the general's point twice. `Move::NONE` (a1a1, never a general's
/// point) stands for "no move".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move((from.index() as u16) | (to.index() as u16) << 7)
    }

    /// The pass of a general standing on `general`.
    #[inline(always)]
    pub const fn pass(general: Square) -> Move {
        Move::new(general, general)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x7F) as usize)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 7) as usize)
    }

    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.0 != 0 && self.0 & 0x7F == self.0 >> 7
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The raw 14-bit encoding (for hash tables).
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits & 0x3FFF)
    }

    /// Text in a dialect's notation, e.g. `h1g3`, `e2e2` (UCI), `h0g2` (UCCI), `2j3h` (USI).
    pub fn display(self, notation: Notation) -> MoveDisplay {
        MoveDisplay(self, notation)
    }

    /// Parses the text of a move (not checked for legality).
    pub fn parse(text: &str, notation: Notation) -> Option<Move> {
        // A square's name never starts with a digit in UCI, so "a10a9" and "a1a10" split unambiguously.
        let (from, used) = Square::parse_prefix(text, notation)?;
        let to = Square::parse(text.get(used..)?, notation)?;
        Some(Move::new(from, to))
    }
}

pub struct MoveDisplay(Move, Notation);

impl fmt::Display for MoveDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let MoveDisplay(m, notation) = *self;
        if m.is_none() {
            return f.write_str(if notation == Notation::Usi { "resign" } else { "(none)" });
        }
        write!(f, "{}{}", m.from().display(notation), m.to().display(notation))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.display(Notation::Uci), f)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.display(Notation::Uci), f)
    }
}

/// Enough for any position: with at most the pieces of one army a side has fewer than 160 moves.
pub const MAX_MOVES: usize = 256;

/// A list on the stack with room for `MAX_MOVES` items: a node's moves (`MoveList`) or their ordering scores. Its
/// storage is left uninitialised beyond its length: a search makes such lists at every node and most of their 256
/// slots are never written, so they are not zeroed either.
#[derive(Clone)]
pub struct StackList<T: Copy> {
    items: [MaybeUninit<T>; MAX_MOVES],
    len: usize,
}

/// A list of moves on the stack.
pub type MoveList = StackList<Move>;

impl<T: Copy> StackList<T> {
    #[inline(always)]
    pub fn new() -> StackList<T> {
        StackList { items: [MaybeUninit::uninit(); MAX_MOVES], len: 0 }
    }

    #[inline(always)]
    pub fn push(&mut self, item: T) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.items[self.len] = MaybeUninit::new(item);
            self.len += 1;
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        let written = &self.items[..self.len];
        // SAFETY: the first `len` slots were written by `push` (or kept by `retain`), and `MaybeUninit<T>` has
        // `T`'s layout.
        unsafe { &*(written as *const [MaybeUninit<T>] as *const [T]) }
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        let written = &mut self.items[..self.len];
        // SAFETY: as in `as_slice`.
        unsafe { &mut *(written as *mut [MaybeUninit<T>] as *mut [T]) }
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    pub fn retain(&mut self, mut keep: impl FnMut(T) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let item = self.as_slice()[i];
            if keep(item) {
                self.items[n] = MaybeUninit::new(item);
                n += 1;
            }
        }
        self.len = n;
    }
}

impl<T: Copy + PartialEq> StackList<T> {
    pub fn contains(&self, item: T) -> bool {
        self.as_slice().contains(&item)
    }
}

impl<T: Copy> Default for StackList<T> {
    fn default() -> Self {
        StackList::new()
    }
}

impl<'a, T: Copy> IntoIterator for &'a StackList<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_two_digit_ranks_both_ways() {
        for text in ["a10a9", "a1a10", "h3h10", "i10i9", "e2e2", "a1a2"] {
            let m = Move::parse(text, Notation::Uci).unwrap();
            assert_eq!(m.to_string(), text);
        }
        let m = Move::parse("h3h10", Notation::Uci).unwrap();
        assert_eq!(m.display(Notation::Ucci).to_string(), "h2h9");
        assert_eq!(m.display(Notation::Usi).to_string(), "2h02a");
        assert_eq!(Move::parse("2h02a", Notation::Usi), Some(m));
        assert_eq!(Move::parse("h2h9", Notation::Ucci), Some(m));
        assert!(Move::parse("a11a1", Notation::Uci).is_none());
        assert!(Move::parse("a1a11", Notation::Uci).is_none());
        assert!(Move::parse("0000", Notation::Uci).is_none());
    }
}
