//! A set of points as one bit per point in a `u128` (bits 0..90), with the fixed masks of the board.

use super::square::{FILES, RANKS, SQUARE_COUNT, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const BOARD_BITS: u128 = (1u128 << SQUARE_COUNT) - 1;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(BOARD_BITS);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one point set.
    #[inline(always)]
    pub const fn several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Exactly one point set.
    #[inline(always)]
    pub const fn single(self) -> bool {
        self.any() && !self.several()
    }

    /// Exactly two points set.
    #[inline(always)]
    pub const fn pair(self) -> bool {
        Bitboard(self.0 & self.0.wrapping_sub(1)).single()
    }

    /// The lowest point, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::from_index_unchecked(self.0.trailing_zeros() as usize)) }
    }

    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// Rank `r` (0-based) as a bitboard.
    pub const fn rank_mask(r: u8) -> Bitboard {
        Bitboard(0x1FFu128 << (r as u32 * FILES as u32))
    }

    /// File `f` (0-based) as a bitboard.
    pub const fn file_mask(f: u8) -> Bitboard {
        let mut bits = 0u128;
        let mut r = 0;
        while r < RANKS {
            bits |= 1u128 << (r as u32 * FILES as u32 + f as u32);
            r += 1;
        }
        Bitboard(bits)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_unchecked(self.0.trailing_zeros() as usize);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Bitboard({:#x})", self.0)?;
        for r in (0..RANKS).rev() {
            for file in 0..FILES {
                let bit = self.0 >> (r as u32 * FILES as u32 + file as u32) & 1;
                f.write_str(if bit == 1 { "x" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_BITS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_and_pair_count_without_counting() {
        for bits in [0u128, 1, 2, 3, 5, 7, 1 << 89, (1 << 89) | 1, (1 << 89) | (1 << 70) | 4, u128::MAX] {
            let b = Bitboard(bits);
            assert_eq!(b.single(), b.count() == 1, "{bits:#x}");
            assert_eq!(b.pair(), b.count() == 2, "{bits:#x}");
        }
    }
}
