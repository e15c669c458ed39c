//! Move and attack tables, computed at compile time.
//!
//! Chariots and cannons look their moves up by the occupancy of their rank (9 bits) and of their file (10 bits,
//! read from a file-major copy of the occupancy that the position keeps up to date), so no ray is ever walked at
//! run time. Leapers use per-point tables indexed by the occupancy of their blocking points. Palace diagonals are a
//! handful of fixed lines and get small tables of their own.

use super::bitboard::Bitboard;
use super::piece::Color;
use super::square::{FILES, RANKS, SQUARE_COUNT, Square};

const N: usize = SQUARE_COUNT;

/// Centre points of the two palaces (e2 and e9).
pub const PALACE_CENTERS: [usize; 2] = [13, 76];

const fn sq_of(file: i32, rank: i32) -> i32 {
    if file < 0 || file >= FILES as i32 || rank < 0 || rank >= RANKS as i32 { -1 } else { rank * FILES as i32 + file }
}

const fn bit(sq: i32) -> u128 {
    if sq < 0 { 0 } else { 1u128 << sq }
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7)
}

/// Palace diagonal points: the corners and centre of each palace.
const fn is_diag_point(file: i32, rank: i32) -> bool {
    if !in_palace(file, rank) {
        return false;
    }
    let r = if rank >= 7 { rank - 7 } else { rank };
    (file - 4).abs() == (r - 1).abs()
}

/// The palace diagonal points as a mask.
pub const DIAG_POINTS: Bitboard = {
    let mut bits = 0u128;
    let mut s = 0;
    while s < N as i32 {
        if is_diag_point(s % 9, s / 9) {
            bits |= 1u128 << s;
        }
        s += 1;
    }
    Bitboard(bits)
};

/// Both palaces.
pub const PALACES: Bitboard = {
    let mut bits = 0u128;
    let mut s = 0;
    while s < N as i32 {
        if in_palace(s % 9, s / 9) {
            bits |= 1u128 << s;
        }
        s += 1;
    }
    Bitboard(bits)
};

/// The palace of each side (Cho's at the bottom).
pub const fn palace_of(color: Color) -> Bitboard {
    let half = match color {
        Color::Cho => (1u128 << 27) - 1,
        Color::Han => !((1u128 << 63) - 1),
    };
    Bitboard(PALACES.0 & half)
}

// ---- sliders along ranks and files -------------------------------------------------------------------------

/// Points a slider on `pos` of a line of `len` points reaches with line occupancy `occ`, the first blocker on each
/// side included; and what a cannon reaches: the points beyond the first blocker up to and including the second.
const fn line_moves(pos: i32, occ: u32, len: i32) -> (u16, u16) {
    let mut slide = 0u16;
    let mut jump = 0u16;
    let mut dir = -1;
    while dir <= 1 {
        let mut p = pos + dir;
        let mut screen = false;
        while p >= 0 && p < len {
            let occupied = occ >> p & 1 != 0;
            if screen {
                jump |= 1 << p;
                if occupied {
                    break;
                }
            } else {
                slide |= 1 << p;
                if occupied {
                    screen = true;
                }
            }
            p += dir;
        }
        dir += 2;
    }
    (slide, jump)
}

const fn rank_tables() -> ([[u16; 512]; 9], [[u16; 512]; 9]) {
    let mut slide = [[0u16; 512]; 9];
    let mut jump = [[0u16; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut o = 0;
        while o < 512 {
            let (s, j) = line_moves(f as i32, o as u32, 9);
            slide[f][o] = s;
            jump[f][o] = j;
            o += 1;
        }
        f += 1;
    }
    (slide, jump)
}

const fn file_tables() -> ([[u16; 1024]; 10], [[u16; 1024]; 10]) {
    let mut slide = [[0u16; 1024]; 10];
    let mut jump = [[0u16; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut o = 0;
        while o < 1024 {
            let (s, j) = line_moves(r as i32, o as u32, 10);
            slide[r][o] = s;
            jump[r][o] = j;
            o += 1;
        }
        r += 1;
    }
    (slide, jump)
}

static RANK_SLIDE: [[u16; 512]; 9] = rank_tables().0;
static RANK_JUMP: [[u16; 512]; 9] = rank_tables().1;
static FILE_SLIDE: [[u16; 1024]; 10] = file_tables().0;
static FILE_JUMP: [[u16; 1024]; 10] = file_tables().1;

/// A 10-bit file mask spread onto file a of the board (bit r goes to point r*9).
static FILE_SPREAD: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if m >> r & 1 != 0 {
                t[m] |= 1u128 << (r * 9);
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// Index of a point in the file-major occupancy (`file * 10 + rank`).
#[inline(always)]
pub const fn rotated_index(sq: Square) -> u32 {
    sq.file().0 as u32 * RANKS as u32 + sq.rank().0 as u32
}

#[inline(always)]
fn line_lookup(sq: Square, occ: Bitboard, rot: u128, rank_t: &[[u16; 512]; 9], file_t: &[[u16; 1024]; 10]) -> Bitboard {
    let f = sq.file().0 as u32;
    let r = sq.rank().0 as u32;
    let rank_occ = (occ.0 >> (r * 9)) as usize & 0x1FF;
    let file_occ = (rot >> (f * 10)) as usize & 0x3FF;
    let along_rank = (rank_t[f as usize][rank_occ] as u128) << (r * 9);
    let along_file = FILE_SPREAD[file_t[r as usize][file_occ] as usize] << f;
    Bitboard(along_rank | along_file)
}

/// Chariot moves along its rank and file: empty points and the first piece in each direction.
#[inline(always)]
pub fn chariot_lines(sq: Square, occ: Bitboard, rot: u128) -> Bitboard {
    line_lookup(sq, occ, rot, &RANK_SLIDE, &FILE_SLIDE)
}

/// Cannon moves along rank and file, assuming every first piece may serve as a screen: the points beyond it up to
/// and including the next piece. Callers remove directions whose screen is a cannon and targets that are cannons.
#[inline(always)]
pub fn cannon_lines_raw(sq: Square, occ: Bitboard, rot: u128) -> Bitboard {
    line_lookup(sq, occ, rot, &RANK_JUMP, &FILE_JUMP)
}

/// The four orthogonal rays from each point to the board edge (north, south, east, west).
static RAYS: [[u128; 4]; N] = {
    let mut t = [[0u128; 4]; N];
    let dirs = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let mut s = 0;
    while s < N {
        let mut d = 0;
        while d < 4 {
            let mut f = (s % 9) as i32 + dirs[d].0;
            let mut r = (s / 9) as i32 + dirs[d].1;
            while sq_of(f, r) >= 0 {
                t[s][d] |= bit(sq_of(f, r));
                f += dirs[d].0;
                r += dirs[d].1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// The ray from `from` through `towards` to the board edge; the two points must share a rank or file.
#[inline]
pub fn ray_through(from: Square, towards: Square) -> Bitboard {
    let d = if from.file() == towards.file() {
        if towards.rank() > from.rank() { 0 } else { 1 }
    } else if towards.file() > from.file() {
        2
    } else {
        3
    };
    Bitboard(RAYS[from.index()][d])
}

/// Points strictly between two points on one rank or one file (empty otherwise).
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = if a.index() < b.index() { (a, b) } else { (b, a) };
    if lo.index() == hi.index() {
        return Bitboard::EMPTY;
    }
    let span = (1u128 << hi.index()) - (2u128 << lo.index());
    if lo.rank() == hi.rank() {
        Bitboard(span)
    } else if lo.file() == hi.file() {
        Bitboard(span) & Bitboard::file_mask(lo.file().0)
    } else {
        Bitboard::EMPTY
    }
}

// ---- palace diagonals -----------------------------------------------------------------------------------------

/// For a palace corner: the palace centre and the opposite corner; for a centre: its four corners.
const fn diag_neighbours(s: i32) -> (u128, i32, i32) {
    let f = s % 9;
    let r = s / 9;
    if !is_diag_point(f, r) {
        return (0, -1, -1);
    }
    let base = if r >= 7 { 7 } else { 0 };
    let centre = sq_of(4, base + 1);
    if s == centre {
        let corners = bit(sq_of(3, base)) | bit(sq_of(5, base)) | bit(sq_of(3, base + 2)) | bit(sq_of(5, base + 2));
        (corners, centre, -1)
    } else {
        let opposite = sq_of(8 - f, 2 * (base + 1) - r);
        (bit(centre), centre, opposite)
    }
}

/// Chariot moves along palace diagonals from each point, indexed by whether the palace centre is occupied.
static CHARIOT_DIAG: [[u128; 2]; N] = {
    let mut t = [[0u128; 2]; N];
    let mut s = 0;
    while s < N {
        let (near, centre, opposite) = diag_neighbours(s as i32);
        if centre >= 0 {
            t[s][1] = near;
            t[s][0] = near | bit(opposite);
        }
        s += 1;
    }
    t
};

/// For each palace corner: its palace's centre and the opposite corner (`u8::MAX` elsewhere).
static CORNER_LINES: [(u8, u8); N] = {
    let mut t = [(u8::MAX, u8::MAX); N];
    let mut s = 0;
    while s < N {
        let (_, centre, opposite) = diag_neighbours(s as i32);
        if opposite >= 0 {
            t[s] = (centre as u8, opposite as u8);
        }
        s += 1;
    }
    t
};

/// The palace centre on a corner's diagonal and the corner opposite it (`None` if `sq` is not a corner).
#[inline(always)]
pub fn diag_corner_line(sq: Square) -> Option<(Square, Square)> {
    let (centre, opposite) = CORNER_LINES[sq.index()];
    if centre == u8::MAX {
        None
    } else {
        Some((Square::from_index_unchecked(centre as usize), Square::from_index_unchecked(opposite as usize)))
    }
}

/// Chariot moves along palace diagonals (the first piece included).
#[inline(always)]
pub fn chariot_diagonals(sq: Square, occ: Bitboard) -> Bitboard {
    if !DIAG_POINTS.has(sq) {
        return Bitboard::EMPTY;
    }
    let centre = PALACE_CENTERS[(sq.index() >= 45) as usize];
    Bitboard(CHARIOT_DIAG[sq.index()][(occ.0 >> centre & 1) as usize])
}

/// Cannon moves along palace diagonals: from a corner over an occupied, non-cannon centre to the opposite corner.
#[inline(always)]
pub fn cannon_diagonals(sq: Square, occ: Bitboard, cannons: Bitboard) -> Bitboard {
    match diag_corner_line(sq) {
        Some((centre, opposite)) if occ.has(centre) && !cannons.has(centre) => Bitboard::from_square(opposite),
        _ => Bitboard::EMPTY,
    }
}

// ---- general and guard ------------------------------------------------------------------------------------------

/// One step inside the palace: orthogonally, or along a diagonal line between diagonal points.
static PALACE_STEPS: [u128; N] = {
    let mut t = [0u128; N];
    let mut s = 0;
    while s < N as i32 {
        let f = s % 9;
        let r = s / 9;
        if in_palace(f, r) {
            let mut df = -1;
            while df <= 1 {
                let mut dr = -1;
                while dr <= 1 {
                    let (tf, tr) = (f + df, r + dr);
                    let orth = (df == 0) != (dr == 0);
                    let diag = df != 0 && dr != 0 && is_diag_point(f, r) && is_diag_point(tf, tr);
                    if (orth || diag) && in_palace(tf, tr) && (tr >= 7) == (r >= 7) {
                        t[s as usize] |= bit(sq_of(tf, tr));
                    }
                    dr += 1;
                }
                df += 1;
            }
        }
        s += 1;
    }
    t
};

#[inline(always)]
pub fn palace_steps(sq: Square) -> Bitboard {
    Bitboard(PALACE_STEPS[sq.index()])
}

// ---- horse ------------------------------------------------------------------------------------------------------

const ORTH: [(i32, i32); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
const DIAG: [(i32, i32); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];

/// Horse targets by the occupancy of the four orthogonal neighbours (bit 0 south, 1 west, 2 east, 3 north).
static HORSE: [[u128; 16]; N] = {
    let mut t = [[0u128; 16]; N];
    let mut s = 0;
    while s < N as i32 {
        let (f, r) = (s % 9, s / 9);
        let mut idx = 0;
        while idx < 16 {
            let mut d = 0;
            while d < 4 {
                let (of, or) = ORTH[d];
                if idx >> d & 1 == 0 && sq_of(f + of, r + or) >= 0 {
                    // Step out orthogonally, then diagonally outward: two targets per direction.
                    let (a, b) = if of == 0 { ((-1, or), (1, or)) } else { ((of, -1), (of, 1)) };
                    t[s as usize][idx] |=
                        bit(sq_of(f + of + a.0, r + or + a.1)) | bit(sq_of(f + of + b.0, r + or + b.1));
                }
                d += 1;
            }
            idx += 1;
        }
        s += 1;
    }
    t
};

/// Points from which a horse attacks each point, by the occupancy of its four diagonal neighbours
/// (bit 0 south-west, 1 south-east, 2 north-west, 3 north-east): the horse's blocking point is that neighbour.
static HORSE_FROM: [[u128; 16]; N] = {
    let mut t = [[0u128; 16]; N];
    let mut s = 0;
    while s < N as i32 {
        let (f, r) = (s % 9, s / 9);
        let mut idx = 0;
        while idx < 16 {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = DIAG[d];
                if idx >> d & 1 == 0 && sq_of(f + df, r + dr) >= 0 {
                    t[s as usize][idx] |= bit(sq_of(f + 2 * df, r + dr)) | bit(sq_of(f + df, r + 2 * dr));
                }
                d += 1;
            }
            idx += 1;
        }
        s += 1;
    }
    t
};

#[inline(always)]
pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
    // Shift so that the south neighbour lands on bit `sq`: west at +8, east at +10, north at +18.
    let t = (occ.0 << 9) >> sq.index();
    let idx = (t & 1) | (t >> 7 & 2) | (t >> 8 & 4) | (t >> 15 & 8);
    Bitboard(HORSE[sq.index()][idx as usize])
}

/// Points holding a horse that would attack `sq` given the occupancy.
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    // Shift so that the south-west neighbour lands on bit `sq`: south-east +2, north-west +18, north-east +20.
    let t = (occ.0 << 10) >> sq.index();
    let idx = (t & 1) | (t >> 1 & 2) | (t >> 16 & 4) | (t >> 17 & 8);
    Bitboard(HORSE_FROM[sq.index()][idx as usize])
}

// ---- elephant ---------------------------------------------------------------------------------------------------

/// One elephant path: the straight first step, the diagonal point after it, and the target.
#[derive(Clone, Copy)]
pub struct ElephantPath {
    pub first: u8,
    pub second: u8,
    pub target: u8,
}

/// The elephant paths from every point (up to eight), with their count.
static ELEPHANT_PATHS: [([ElephantPath; 8], u8); N] = {
    let empty = ElephantPath { first: 0, second: 0, target: 0 };
    let mut t = [([empty; 8], 0u8); N];
    let mut s = 0;
    while s < N as i32 {
        let (f, r) = (s % 9, s / 9);
        let mut d = 0;
        while d < 4 {
            let (of, or) = ORTH[d];
            let mut side = -1;
            while side <= 1 {
                let (df, dr) = if of == 0 { (side, or) } else { (of, side) };
                let first = sq_of(f + of, r + or);
                let second = sq_of(f + of + df, r + or + dr);
                let target = sq_of(f + of + 2 * df, r + or + 2 * dr);
                if first >= 0 && second >= 0 && target >= 0 {
                    let n = t[s as usize].1 as usize;
                    t[s as usize].0[n] =
                        ElephantPath { first: first as u8, second: second as u8, target: target as u8 };
                    t[s as usize].1 += 1;
                }
                side += 2;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Elephant targets; `second_blocks` says whether the diagonal point after the first step blocks too.
#[inline]
pub fn elephant(sq: Square, occ: Bitboard, second_blocks: bool) -> Bitboard {
    let (paths, n) = &ELEPHANT_PATHS[sq.index()];
    let mut targets = 0u128;
    for p in &paths[..*n as usize] {
        let blocked = occ.0 >> p.first & 1 != 0 || (second_blocks && occ.0 >> p.second & 1 != 0);
        if !blocked {
            targets |= 1u128 << p.target;
        }
    }
    Bitboard(targets)
}

/// Every point from which an elephant could reach each point on an empty board (at most eight).
static ELEPHANT_REACH: [u128; N] = {
    let mut t = [0u128; N];
    let mut s = 0;
    while s < N {
        let (paths, n) = ELEPHANT_PATHS[s];
        let mut i = 0;
        while i < n as usize {
            t[s] |= 1u128 << paths[i].target;
            i += 1;
        }
        s += 1;
    }
    t
};

/// Points from which an elephant could reach `sq` on an empty board (elephant moves are symmetric).
#[inline(always)]
pub fn elephant_reach(sq: Square) -> Bitboard {
    Bitboard(ELEPHANT_REACH[sq.index()])
}

/// Points holding an elephant that would attack `sq` given the occupancy.
#[inline]
pub fn elephant_attackers(sq: Square, occ: Bitboard, second_blocks: bool) -> Bitboard {
    let (f, r) = (sq.file().0 as i32, sq.rank().0 as i32);
    let mut from = 0u128;
    for (df, dr) in DIAG {
        // Walking back from the target: the diagonal point next to it, then the end of the straight first step.
        let second = sq_of(f - df, r - dr);
        let first = sq_of(f - 2 * df, r - 2 * dr);
        if first < 0 || occ.0 & bit(first) != 0 || (second_blocks && occ.0 & bit(second) != 0) {
            continue;
        }
        from |= bit(sq_of(f - 3 * df, r - 2 * dr)) | bit(sq_of(f - 2 * df, r - 3 * dr));
    }
    Bitboard(from)
}

// ---- soldier ----------------------------------------------------------------------------------------------------

/// Soldier moves per [palace diagonals allowed][colour][point]: forward, sideways, and forward along a
/// palace's diagonal lines.
static SOLDIER: [[[u128; N]; 2]; 2] = {
    let mut t = [[[0u128; N]; 2]; 2];
    let mut diag = 0;
    while diag < 2 {
        let mut c = 0;
        while c < 2 {
            let fwd = if c == 0 { 1 } else { -1 };
            let mut s = 0;
            while s < N as i32 {
                let (f, r) = (s % 9, s / 9);
                let mut m = bit(sq_of(f, r + fwd)) | bit(sq_of(f - 1, r)) | bit(sq_of(f + 1, r));
                // Forward along a palace diagonal. In play this happens in the enemy palace, but a soldier set up
                // in its own palace may do it too (as the reference implementation has it).
                if diag == 1 && is_diag_point(f, r) {
                    let mut df = -1;
                    while df <= 1 {
                        if is_diag_point(f + df, r + fwd) && in_palace(f + df, r + fwd) && (r + fwd >= 7) == (r >= 7) {
                            m |= bit(sq_of(f + df, r + fwd));
                        }
                        df += 2;
                    }
                }
                t[diag][c][s as usize] = m;
                s += 1;
            }
            c += 1;
        }
        diag += 1;
    }
    t
};

/// The inverse of `SOLDIER`: from which points a soldier of a colour attacks each point.
static SOLDIER_FROM: [[[u128; N]; 2]; 2] = {
    let mut t = [[[0u128; N]; 2]; 2];
    let mut diag = 0;
    while diag < 2 {
        let mut c = 0;
        while c < 2 {
            let mut s = 0;
            while s < N {
                let mut targets = SOLDIER[diag][c][s];
                while targets != 0 {
                    let to = targets.trailing_zeros() as usize;
                    t[diag][c][to] |= 1u128 << s;
                    targets &= targets - 1;
                }
                s += 1;
            }
            c += 1;
        }
        diag += 1;
    }
    t
};

#[inline(always)]
pub fn soldier(color: Color, sq: Square, palace_diagonals: bool) -> Bitboard {
    Bitboard(SOLDIER[palace_diagonals as usize][color.index()][sq.index()])
}

/// Points holding a soldier of `color` that would attack `sq`.
#[inline(always)]
pub fn soldier_attackers(color: Color, sq: Square, palace_diagonals: bool) -> Bitboard {
    Bitboard(SOLDIER_FROM[palace_diagonals as usize][color.index()][sq.index()])
}

/// For each point, the squares one and two diagonal steps away in each direction (`u8::MAX` off the board):
/// the blocking points of elephants attacking it, nearest first.
static DIAG_STEPS: [[(u8, u8); 4]; N] = {
    let mut t = [[(u8::MAX, u8::MAX); 4]; N];
    let mut s = 0;
    while s < N as i32 {
        let (f, r) = (s % 9, s / 9);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG[d];
            let one = sq_of(f + df, r + dr);
            let two = sq_of(f + 2 * df, r + 2 * dr);
            t[s as usize][d] = (if one < 0 { u8::MAX } else { one as u8 }, if two < 0 { u8::MAX } else { two as u8 });
            d += 1;
        }
        s += 1;
    }
    t
};

/// The diagonal neighbour of `sq` in the direction of `towards` (which lies in a diagonal quadrant of it) and the
/// point after it: the blocking points of a horse (first only) or elephant on `towards` attacking `sq`.
#[inline]
pub fn diagonal_legs(sq: Square, towards: Square) -> (Square, Square) {
    let east = towards.file() > sq.file();
    let north = towards.rank() > sq.rank();
    let d = (east as usize) | (north as usize) << 1;
    let (one, two) = DIAG_STEPS[sq.index()][d];
    // A piece in that quadrant exists, so the first step is on the board; the second may not be (horses).
    let two = if two == u8::MAX { one } else { two };
    (Square::from_index_unchecked(one as usize), Square::from_index_unchecked(two as usize))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::square::Notation;

    fn sq(name: &str) -> Square {
        Square::parse(name, Notation::Uci).unwrap()
    }

    fn set(names: &[&str]) -> Bitboard {
        names.iter().fold(Bitboard::EMPTY, |b, n| b.with(sq(n)))
    }

    #[test]
    fn horse_is_blocked_by_its_first_step() {
        assert_eq!(horse(sq("b1"), Bitboard::EMPTY), set(&["a3", "c3", "d2"]));
        assert_eq!(horse(sq("b1"), set(&["b2"])), set(&["d2"]));
        assert_eq!(horse(sq("e5"), set(&["e6", "d5"])), set(&["d3", "f3", "g4", "g6"]));
    }

    #[test]
    fn horse_attackers_invert_horse_moves() {
        let occ = set(&["e6", "d5", "c2", "f4", "g7", "b9", "h8"]);
        for target in Square::all() {
            let expected: Bitboard =
                Square::all().filter(|&h| horse(h, occ).has(target)).fold(Bitboard::EMPTY, |b, h| b.with(h));
            assert_eq!(horse_attackers(target, occ), expected, "{target}");
        }
    }

    #[test]
    fn elephant_attackers_invert_elephant_moves() {
        let occ = set(&["e6", "d5", "c2", "f4", "g7", "b9", "h8", "e3"]);
        for second in [false, true] {
            for target in Square::all() {
                let expected: Bitboard = Square::all()
                    .filter(|&e| elephant(e, occ, second).has(target))
                    .fold(Bitboard::EMPTY, |b, e| b.with(e));
                assert_eq!(elephant_attackers(target, occ, second), expected, "{target}");
            }
        }
    }

    #[test]
    fn elephant_moves_three_by_two() {
        assert_eq!(elephant(sq("c1"), Bitboard::EMPTY, true), set(&["a4", "e4", "f3"]));
        assert_eq!(elephant(sq("c1"), set(&["d3"]), true), set(&["a4", "f3"]));
        assert_eq!(elephant(sq("c1"), set(&["d3"]), false), set(&["a4", "e4", "f3"]));
    }

    #[test]
    fn palace_steps_follow_the_lines() {
        assert_eq!(palace_steps(sq("e2")), set(&["d1", "e1", "f1", "d2", "f2", "d3", "e3", "f3"]));
        assert_eq!(palace_steps(sq("e1")), set(&["d1", "f1", "e2"]));
        assert_eq!(palace_steps(sq("d1")), set(&["e1", "d2", "e2"]));
        assert_eq!(palace_steps(sq("f10")), set(&["e10", "f9", "e9"]));
        assert_eq!(palace_steps(sq("e5")), Bitboard::EMPTY);
    }

    #[test]
    fn soldiers_step_forward_along_palace_diagonals() {
        assert_eq!(soldier(Color::Cho, sq("d8"), true), set(&["d9", "c8", "e8", "e9"]));
        assert_eq!(soldier(Color::Cho, sq("e9"), true), set(&["e10", "d9", "f9", "d10", "f10"]));
        assert_eq!(soldier(Color::Cho, sq("e9"), false), set(&["e10", "d9", "f9"]));
        assert_eq!(soldier(Color::Cho, sq("d1"), true), set(&["d2", "c1", "e1", "e2"]));
        assert_eq!(soldier(Color::Han, sq("e2"), true), set(&["e1", "d2", "f2", "d1", "f1"]));
        assert_eq!(soldier(Color::Cho, sq("e10"), true), set(&["d10", "f10"]));
    }

    #[test]
    fn sliders_stop_at_the_first_piece_and_cannons_jump_one() {
        let occ = set(&["e5", "e7", "e9", "b5", "h5", "e2"]);
        let rot = Square::all().filter(|&s| occ.has(s)).fold(0u128, |r, s| r | 1u128 << rotated_index(s));
        assert_eq!(
            chariot_lines(sq("e5"), occ, rot),
            set(&["e6", "e7", "e4", "e3", "e2", "d5", "c5", "b5", "f5", "g5", "h5"])
        );
        assert_eq!(cannon_lines_raw(sq("e5"), occ, rot), set(&["e8", "e9", "e1", "a5", "i5"]));
    }

    #[test]
    fn palace_diagonals_for_sliders() {
        assert_eq!(chariot_diagonals(sq("d1"), Bitboard::EMPTY), set(&["e2", "f3"]));
        assert_eq!(chariot_diagonals(sq("d1"), set(&["e2"])), set(&["e2"]));
        assert_eq!(chariot_diagonals(sq("e9"), Bitboard::EMPTY), set(&["d8", "f8", "d10", "f10"]));
        assert_eq!(chariot_diagonals(sq("e8"), Bitboard::EMPTY), Bitboard::EMPTY);
        assert_eq!(cannon_diagonals(sq("f10"), set(&["e9"]), Bitboard::EMPTY), set(&["d8"]));
        assert_eq!(cannon_diagonals(sq("f10"), set(&["e9"]), set(&["e9"])), Bitboard::EMPTY);
    }

    #[test]
    fn between_points_on_a_line() {
        assert_eq!(between(sq("e2"), sq("e9")), set(&["e3", "e4", "e5", "e6", "e7", "e8"]));
        assert_eq!(between(sq("a1"), sq("d1")), set(&["b1", "c1"]));
        assert_eq!(between(sq("a1"), sq("b2")), Bitboard::EMPTY);
    }
}
