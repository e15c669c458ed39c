//! Strictly legal move generation.
//!
//! Pseudo-legal targets come from the attack tables; a move is then tested only if it could matter for the mover's
//! general: the general itself moves, the side is in check or must break bikjang, or the move leaves a point whose
//! emptiness would open an attack, or enters a point where a piece would become a cannon's screen
//! (`Exposure`). Every other move is legal as generated.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::{Move, MoveList};
use super::piece::{Color, Piece, PieceKind};
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

    /// Whether the side to move must break bikjang (the generals face each other and the rules count it): a move
    /// that leaves them facing is then illegal.
    #[inline]
    fn must_break_bikjang(&self) -> bool {
        self.state.facing && self.rules.bikjang != Bikjang::Ignored
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

    /// Whether `m` is a legal move here: one that `legal_moves` holds, tested alone (the search asks it of a hash
    /// move before it generates the others, and a hash move may come from another position).
    pub fn is_legal(&self, m: Move) -> bool {
        if m.is_none() || self.ended_by_last_move() {
            return false;
        }
        let us = self.side;
        if m.is_pass() {
            return m.from() == self.generals[us.index()] && self.pass_allowed();
        }
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from).filter(|p| p.color() == us) else {
            return false;
        };
        if self.by_color[us.index()].has(to) || !self.piece_targets(piece, from, self.occupied(), self.rotated).has(to)
        {
            return false;
        }
        let must_break = self.must_break_bikjang();
        self.keeps_general_safe(from, to, piece.kind(), must_break)
    }

    /// Whether the side to move has a legal move (a pass included): `legal_moves` stopped at the first one, for
    /// the search's test of whether a check mates.
    pub fn has_legal_move(&self) -> bool {
        let mut found = AnyMove(false);
        self.generate::<false, _>(&mut found);
        found.0
    }

    /// The number of legal moves (perft's last ply).
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut counter = MoveCounter(0);
        self.generate::<false, _>(&mut counter);
        counter.0
    }

    /// The points the piece on `from` attacks as things stand (empty if there is none): where it could capture
    /// were an enemy piece there, pins ignored. The search asks it of a piece just moved, to see what it now
    /// threatens.
    pub fn targets_of(&self, from: Square) -> Bitboard {
        match self.piece_at(from) {
            Some(piece) => self.piece_targets(piece, from, self.occupied(), self.rotated),
            None => Bitboard::EMPTY,
        }
    }

    /// The points the pieces of `color` attack, by kind (indexed by `PieceKind::index`), pins ignored: where each
    /// kind could capture were an enemy piece there (`targets_of` of every piece of the kind).
    pub fn attacks_by_kind(&self, color: Color) -> [Bitboard; 7] {
        let mut by_kind = [Bitboard::EMPTY; 7];
        let occ = self.occupied();
        for at in self.by_color[color.index()] {
            if let Some(piece) = self.piece_at(at) {
                by_kind[piece.kind().index()] |= self.piece_targets(piece, at, occ, self.rotated);
            }
        }
        by_kind
    }

    /// What the moving piece of `m`, a move to an empty point, would attack from there once it is made (pins
    /// ignored; empty for a pass or a capture): the same answer as `targets_of(m.to())` after `make_move(m)`,
    /// without making it, so that the search can ask before it decides to prune the move.
    pub fn targets_after_quiet(&self, m: Move) -> Bitboard {
        let (Some(piece), None) = (self.piece_at(m.from()), self.piece_at(m.to())) else {
            return Bitboard::EMPTY;
        };
        if m.is_pass() {
            return Bitboard::EMPTY;
        }
        let occ = self.occupied().without(m.from()).with(m.to());
        let rotated =
            (self.rotated & !(1u128 << attacks::rotated_index(m.from()))) | 1u128 << attacks::rotated_index(m.to());
        self.piece_targets(piece, m.to(), occ, rotated)
    }

    /// The legal quiet moves (no captures, no pass) that give check, found without making any move. Only the
    /// moves that could check are tested, each exactly by `gives_check` and for legality: a piece arriving where
    /// its kind attacks the other general from, or on a point between that general and one of our cannons (a
    /// new screen), and any move of a piece standing between that general and one of our chariots or cannons
    /// or next to it (a line or a leg uncovered, a screen taken away), or in its palace where the diagonals count.
    pub fn quiet_checks(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.ended_by_last_move() {
            return list;
        }
        let us = self.side;
        let occ = self.occupied();
        let empty = !occ;
        let own = self.by_color[us.index()];
        let filter = self.check_filter();
        let must_break = self.must_break_bikjang();
        for from in own {
            let Some(piece) = self.piece_at(from) else { continue };
            let kind = piece.kind();
            let wanted = empty & filter.wanted(kind, from);
            if wanted.is_empty() {
                continue;
            }
            for to in self.piece_targets(piece, from, occ, self.rotated) & wanted {
                let m = Move::new(from, to);
                if self.gives_check(m) && self.keeps_general_safe(from, to, kind, must_break) {
                    list.push(m);
                }
            }
        }
        list
    }

    /// Whether the legal move `m` attacks the other general once made: by the moved piece itself, or by
    /// another piece whose line it opens or for which it becomes the screen. Exact, without making the move,
    /// so that quiescence can pick out the quiet checks from the quiet moves cheaply.
    pub fn gives_check(&self, m: Move) -> bool {
        if m.is_pass() {
            return false;
        }
        let Some(piece) = self.piece_at(m.from()) else {
            return false;
        };
        let us = piece.color();
        let general = self.generals[(!us).index()];
        let occ = self.occupied().without(m.from()).with(m.to());
        let rotated =
            (self.rotated & !(1u128 << attacks::rotated_index(m.from()))) | 1u128 << attacks::rotated_index(m.to());
        if self.piece_targets(piece, m.to(), occ, rotated).has(general) {
            return true;
        }
        let mut cannons = self.by_kind[PieceKind::Cannon.index()].without(m.from()).without(m.to());
        if piece.kind() == PieceKind::Cannon {
            cannons = cannons.with(m.to());
        }
        // The moved piece is left out of the attackers (its own attack is judged above) but stays in the
        // occupancy, as a block or a screen.
        let others = self.by_color[us.index()].without(m.from());
        self.attacked_with(general, others, us, occ, rotated, cannons)
    }

    /// The points `piece` standing on `at` attacks on a board with occupancy `occ` (`rotated` the same
    /// occupancy by files), the other pieces where they are.
    fn piece_targets(&self, piece: Piece, at: Square, occ: Bitboard, rotated: u128) -> Bitboard {
        let diagonals = self.rules.palace_diagonals;
        match piece.kind() {
            PieceKind::Chariot => {
                let lines = attacks::chariot_lines(at, occ, rotated);
                if diagonals { lines | attacks::chariot_diagonals(at, occ) } else { lines }
            }
            PieceKind::Cannon => {
                // The cannon itself may have moved: the cannons are those on the board, with `at` among them.
                let cannons = (self.by_kind[PieceKind::Cannon.index()] & occ).with(at);
                let lines = cannon_line_targets(at, occ, rotated, cannons);
                if diagonals { lines | (attacks::cannon_diagonals(at, occ, cannons) & !cannons) } else { lines }
            }
            PieceKind::Horse => attacks::horse(at, occ),
            PieceKind::Elephant => attacks::elephant(at, occ, self.rules.elephant_second_block),
            PieceKind::Soldier => attacks::soldier(piece.color(), at, diagonals),
            PieceKind::Guard | PieceKind::General => attacks::palace_steps(at),
        }
    }

    /// Cannon targets along ranks and files: directions whose screen is a cannon are dropped, and so are cannons as
    /// targets.
    #[inline]
    pub fn cannon_targets(&self, from: Square, occ: Bitboard, cannons: Bitboard) -> Bitboard {
        cannon_line_targets(from, occ, self.rotated, cannons)
    }

    /// Whether moving `kind` from `from` to `to` leaves the mover's general unattacked (and, when bikjang must be
    /// broken, the generals no longer facing).
    #[inline]
    fn keeps_general_safe(&self, from: Square, to: Square, kind: PieceKind, must_break: bool) -> bool {
        let us = self.side;
        let occ = self.occupied().with(to);
        let rotated = self.rotated | 1u128 << attacks::rotated_index(to);
        if must_break {
            let general = if kind == PieceKind::General { to } else { self.generals[us.index()] };
            let other = self.generals[(!us).index()];
            if general.file() == other.file() && (attacks::between(general, other) & occ.without(from)).is_empty() {
                return false;
            }
        }
        self.capture_keeps_general_safe(us, from, to, kind, occ, rotated)
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
        let must_break = self.must_break_bikjang();
        let test_all = TEST_EACH || self.state.in_check || must_break;
        let exposure = if test_all { Exposure::default() } else { self.exposure() };

        let mut emit = |from: Square, targets: Bitboard, kind: PieceKind| {
            if list.satisfied() {
                return;
            }
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

/// Cannon targets along ranks and files from `from` on a board with occupancy `occ` (`rotated` by files):
/// directions whose screen is a cannon are dropped, and so are cannons as targets.
#[inline]
fn cannon_line_targets(from: Square, occ: Bitboard, rotated: u128, cannons: Bitboard) -> Bitboard {
    let mut raw = attacks::cannon_lines_raw(from, occ, rotated);
    let screens = attacks::chariot_lines(from, occ, rotated) & occ;
    for screen in screens & cannons {
        raw &= !attacks::ray_through(from, screen);
    }
    raw & !cannons
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

    /// Whether the sink wants no more moves (generation may stop early).
    #[inline(always)]
    fn satisfied(&self) -> bool {
        false
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

/// Notes whether there is any move at all, and asks for no more once there is one.
struct AnyMove(bool);

impl MoveSink for AnyMove {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 = true;
    }

    #[inline(always)]
    fn push_all(&mut self, _: Square, targets: Bitboard) {
        self.0 |= !targets.is_empty();
    }

    #[inline(always)]
    fn satisfied(&self) -> bool {
        self.0
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
