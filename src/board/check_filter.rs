//! Which moves could give check, told apart from those that cannot without testing each one: the points a
//! piece of each kind attacks the other general from, the points whose leaving could uncover an attack, and the
//! points whose entering could become a cannon's screen. A superset of the checking moves (`gives_check` stays
//! the exact test), cheap enough to ask of every move a node looks at.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::PieceKind;
use super::position::Position;
use super::square::{FILES, SQUARE_COUNT, Square};

/// The points that matter for a check of the side not to move, computed once for a position.
#[derive(Clone, Copy, Debug)]
pub struct CheckFilter {
    /// Points whose piece, moving anywhere, could uncover a line or a leg, or take a screen away: between the
    /// general and one of our chariots or cannons, within two points of it (every horse and elephant leg), or
    /// in its palace where the diagonals count; and our cannons on its lines (one moving along the line changes
    /// the screens between itself and the general).
    leave: Bitboard,
    /// Points where any arriving piece could become a cannon's screen or check along a palace diagonal.
    arrive_any: Bitboard,
    /// By piece kind: the points from which a piece of that kind attacks the general, for a piece arriving from
    /// off its lines (for cannons every point beyond one piece, whatever that piece is).
    reach: [Bitboard; 7],
}

impl CheckFilter {
    /// Whether the move `m` of a piece of kind `kind` could give check. False means it surely does not.
    #[inline(always)]
    pub fn may_check(&self, kind: PieceKind, m: Move) -> bool {
        !m.is_pass() && (self.leave.has(m.from()) || (self.reach[kind.index()] | self.arrive_any).has(m.to()))
    }

    /// Where a piece of kind `kind` on `from` could go and give check: anywhere when leaving `from` could
    /// uncover a check, else the points it checks from and those where it becomes a screen.
    #[inline(always)]
    pub(super) fn wanted(&self, kind: PieceKind, from: Square) -> Bitboard {
        if self.leave.has(from) { Bitboard::FULL } else { self.reach[kind.index()] | self.arrive_any }
    }
}

impl Position {
    /// The check filter of the side to move against the other general.
    pub fn check_filter(&self) -> CheckFilter {
        let us = self.side_to_move();
        let rules = self.rules();
        let general = self.general(!us);
        let occ = self.occupied();
        let cannons = self.by_kind[PieceKind::Cannon.index()];
        let lines = Bitboard::rank_mask(general.rank().0) | Bitboard::file_mask(general.file().0);
        let palace = if rules.palace_diagonals { attacks::palace_of(!us) } else { Bitboard::EMPTY };
        let own = self.by_color[us.index()];
        let (mut between_cannons, mut between_sliders) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for slider in own & (self.by_kind[PieceKind::Chariot.index()] | cannons) & lines {
            let between = attacks::between(general, slider);
            between_sliders |= between;
            if cannons.has(slider) {
                between_cannons |= between;
            }
        }
        let mut reach = [Bitboard::EMPTY; 7];
        reach[PieceKind::Chariot.index()] = attacks::chariot_lines(general, occ, self.rotated);
        reach[PieceKind::Cannon.index()] = attacks::cannon_lines_raw(general, occ, self.rotated);
        reach[PieceKind::Horse.index()] = attacks::horse_attackers(general, Bitboard::EMPTY);
        reach[PieceKind::Elephant.index()] = attacks::elephant_reach(general);
        reach[PieceKind::Soldier.index()] = attacks::soldier_attackers(us, general, rules.palace_diagonals);
        CheckFilter {
            leave: between_sliders | (own & cannons & lines) | Bitboard(WITHIN_TWO[general.index()]) | palace,
            arrive_any: between_cannons | palace,
            reach,
        }
    }
}

/// For each point, the points at most two files and two ranks away: where every horse and elephant leg of an
/// attack on a general standing there lies.
static WITHIN_TWO: [u128; SQUARE_COUNT] = {
    let mut t = [0u128; SQUARE_COUNT];
    let mut s = 0;
    while s < SQUARE_COUNT {
        let (f, r) = ((s % FILES as usize) as i32, (s / FILES as usize) as i32);
        let mut o = 0;
        while o < SQUARE_COUNT {
            let (g, q) = ((o % FILES as usize) as i32, (o / FILES as usize) as i32);
            if (g - f).abs() <= 2 && (q - r).abs() <= 2 {
                t[s] |= 1u128 << o;
            }
            o += 1;
        }
        s += 1;
    }
    t
};
