//! Strictly legal move generation.
//!
//! Pseudo-legal targets come from the attack tables; a move is then tested only if it could matter for the mover's
//! general: the general itself moves, the side is in check or must break bikjang, or the move leaves a point whose
//! emptiness would open an attack, or enters a point where a piece would become a cannon's screen
//! (`Exposure`). Every other move is legal as generated.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::{Move, MoveList};
use super::piece::PieceKind;
use super::position::Position;
use super::rules::Bikjang;
use super::square::Square;

impl Position {
    /// Whether the last moves ended the game on the spot (two passes in a row, or a pass that answered bikjang),
    /// leaving the side to move without moves.
    pub fn ended_by_last_move(&self) -> bool {
        let Some(previous) = self.history.last() else {
            return false;
        };
        let st = &self.state;
        if self.rules.pass && st.last_move.is_pass() && previous.last_move.is_pass() {
            return true;
        }
        self.rules.bikjang == Bikjang::PassOrBreak && st.facing && previous.facing
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<false, _>(&mut list);
        list
    }

    /// The legal captures of the side to move.
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<true, _>(&mut list);
        list
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        !m.is_none() && self.legal_moves().contains(m)
    }

    /// The number of legal moves (perft's last ply).
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut counter = MoveCounter(0);
        self.generate::<false, _>(&mut counter);
        counter.0
    }

    /// Cannon targets along ranks and files: directions whose screen is a cannon are dropped, and so are cannons as
    /// targets.
    #[inline]
    pub fn cannon_targets(&self, from: Square, occ: Bitboard, cannons: Bitboard) -> Bitboard {
        let mut raw = attacks::cannon_lines_raw(from, occ, self.rotated);
        let screens = attacks::chariot_lines(from, occ, self.rotated) & occ;
        for screen in screens & cannons {
            raw &= !attacks::ray_through(from, screen);
        }
        raw & !cannons
    }

    /// Whether moving `kind` from `from` to `to` leaves the mover's general unattacked (and, when bikjang must be
    /// broken, the generals no longer facing).
    #[inline]
    fn keeps_general_safe(&self, from: Square, to: Square, kind: PieceKind, must_break: bool) -> bool {
        let us = self.side;
        let them = !us;
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        let occ = (self.occupied() ^ from_bb) | to_bb;
        let rotated = (self.rotated & !(1u128 << attacks::rotated_index(from))) | 1u128 << attacks::rotated_index(to);
        let attackers = self.by_color[them.index()] & !to_bb;
        let mut cannons = self.by_kind[PieceKind::Cannon.index()] & !from_bb & !to_bb;
        if kind == PieceKind::Cannon {
            cannons |= to_bb;
        }
        let general = if kind == PieceKind::General { to } else { self.generals[us.index()] };
        if must_break {
            let other = self.generals[them.index()];
            if general.file() == other.file() && (attacks::between(general, other) & occ).is_empty() {
                return false;
            }
        }
        !self.attacked_with(general, attackers, them, occ, rotated, cannons)
    }

    /// Legal moves by testing every pseudo-legal move, without the shortcut; the reference the fast generator is
    /// tested against.
    pub fn legal_moves_by_testing_each(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_with::<false, true, _>(&mut list);
        list
    }

    #[inline(always)]
    fn generate<const CAPTURES: bool, S: MoveSink>(&self, list: &mut S) {
        self.generate_with::<CAPTURES, false, S>(list)
    }

    fn generate_with<const CAPTURES: bool, const TEST_EACH: bool, S: MoveSink>(&self, list: &mut S) {
        if self.ended_by_last_move() {
            return;
        }
        let us = self.side;
        let rules = self.rules;
        let own = self.by_color[us.index()];
        let enemy = self.by_color[(!us).index()];
        let occ = own | enemy;
        let allowed = if CAPTURES { enemy } else { !own };
        let cannons = self.by_kind[PieceKind::Cannon.index()];
        let must_break = self.state.facing && rules.bikjang != Bikjang::Ignored;
        let test_all = TEST_EACH || self.state.in_check || must_break;
        let exposure = if test_all { Exposure::default() } else { self.exposure() };

        let mut emit = |from: Square, targets: Bitboard, kind: PieceKind| {
            if test_all || kind == PieceKind::General || exposure.leaving.has(from) {
                for to in targets {
                    if self.keeps_general_safe(from, to, kind, must_break) {
                        list.push(Move::new(from, to));
                    }
                }
            } else {
                list.push_all(from, targets & !exposure.entering);
                for to in targets & exposure.entering {
                    if self.keeps_general_safe(from, to, kind, must_break) {
                        list.push(Move::new(from, to));
                    }
                }
            }
        };

        for from in self.pieces(us, PieceKind::Chariot) {
            let mut targets = attacks::chariot_lines(from, occ, self.rotated);
            if rules.palace_diagonals {
                targets |= attacks::chariot_diagonals(from, occ);
            }
            emit(from, targets & allowed, PieceKind::Chariot);
        }
        for from in self.pieces(us, PieceKind::Cannon) {
            let mut targets = self.cannon_targets(from, occ, cannons);
            if rules.palace_diagonals {
                targets |= attacks::cannon_diagonals(from, occ, cannons) & !cannons;
            }
            emit(from, targets & allowed, PieceKind::Cannon);
        }
        for from in self.pieces(us, PieceKind::Horse) {
            emit(from, attacks::horse(from, occ) & allowed, PieceKind::Horse);
        }
        for from in self.pieces(us, PieceKind::Elephant) {
            emit(from, attacks::elephant(from, occ, rules.elephant_second_block) & allowed, PieceKind::Elephant);
        }
        for from in self.pieces(us, PieceKind::Soldier) {
            emit(from, attacks::soldier(us, from, rules.palace_diagonals) & allowed, PieceKind::Soldier);
        }
        for from in self.pieces(us, PieceKind::Guard) {
            emit(from, attacks::palace_steps(from) & allowed, PieceKind::Guard);
        }
        let general = self.generals[us.index()];
        emit(general, attacks::palace_steps(general) & allowed, PieceKind::General);

        if !CAPTURES && self.pass_allowed() {
            list.push(Move::pass(general));
        }
    }

    /// Where a move of a piece other than the general could expose the general of the side to move (which is
    /// not in check): points whose emptying opens a line or a leg, points where a new piece becomes a screen.
    fn exposure(&self) -> Exposure {
        let us = self.side;
        let them = !us;
        let rules = self.rules;
        let occ = self.occupied();
        let enemy = self.by_color[them.index()];
        let cannons = self.by_kind[PieceKind::Cannon.index()];
        let chariots = self.by_kind[PieceKind::Chariot.index()];
        let general = self.generals[us.index()];
        let mut ex = Exposure::default();

        let lines = Bitboard::rank_mask(general.rank().0) | Bitboard::file_mask(general.file().0);
        for slider in lines & enemy & (chariots | cannons) {
            let path = attacks::between(slider, general);
            let blockers = path & occ;
            if chariots.has(slider) {
                if blockers.single() {
                    ex.leaving |= blockers;
                }
            } else if blockers.is_empty() {
                ex.entering |= path;
            } else if !blockers.several() {
                // A lone cannon is no screen, but whatever captures it becomes one.
                ex.entering |= blockers & cannons;
            } else if blockers.pair() {
                ex.leaving |= blockers;
            }
        }
        if rules.palace_diagonals
            && let Some((centre, corner)) = attacks::diag_corner_line(general)
            && enemy.has(corner)
        {
            if chariots.has(corner) {
                ex.leaving = ex.leaving.with(centre);
            } else if cannons.has(corner) && (!occ.has(centre) || cannons.has(centre)) {
                ex.entering = ex.entering.with(centre);
            }
        }
        let horses = enemy & self.by_kind[PieceKind::Horse.index()];
        for horse in attacks::horse_attackers(general, Bitboard::EMPTY) & horses {
            ex.leaving = ex.leaving.with(attacks::diagonal_legs(general, horse).0);
        }
        let elephants = enemy & self.by_kind[PieceKind::Elephant.index()];
        for elephant in attacks::elephant_reach(general) & elephants {
            let (second, first) = attacks::diagonal_legs(general, elephant);
            let legs = if rules.elephant_second_block {
                Bitboard::from_square(first).with(second)
            } else {
                Bitboard::from_square(first)
            };
            if !(legs & occ).several() {
                ex.leaving |= legs & occ;
            }
        }
        ex
    }

    /// Passing is legal unless the side is in check, except under bikjang where it is always legal.
    #[inline]
    pub fn pass_allowed(&self) -> bool {
        self.rules.pass && (!self.state.in_check || (self.state.facing && self.rules.bikjang == Bikjang::PassOrBreak))
    }
}

/// Where generated moves go: a list, or just a count.
trait MoveSink {
    fn push(&mut self, m: Move);

    /// Moves from `from` to every point of `targets`.
    #[inline(always)]
    fn push_all(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Counts moves without storing them, for the last ply of perft.
struct MoveCounter(usize);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn push_all(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
}

/// Points that matter for the safety of the general of the side to move.
#[derive(Clone, Copy, Default)]
struct Exposure {
    /// A piece leaving one of these may open an attack.
    leaving: Bitboard,
    /// A piece arriving on one of these may become a cannon's screen.
    entering: Bitboard,
}
