//! The position: pieces on points, side to move, counters, and the history of earlier states that unmaking moves
//! and the repetition rules need. Moves are made and unmade in place; the Zobrist key is kept incrementally.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::piece::{Color, Piece, PieceKind};
use super::rules::{Bikjang, Rules};
use super::square::{FILES, RANKS, SQUARE_COUNT, Square};
use super::zobrist;

/// What a move changes that cannot be recomputed when it is taken back, plus facts about the position it led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub key: u64,
    /// Plies since the last capture.
    pub halfmove: u16,
    pub fullmove: u16,
    /// The move that led to this position (`Move::NONE` at the start of the record).
    pub last_move: Move,
    /// The piece `last_move` captured.
    pub captured: Piece,
    /// The side to move is attacked by a piece other than the enemy general.
    pub in_check: bool,
    /// The generals stand on one file with nothing between them.
    pub facing: bool,
}

#[derive(Clone)]
pub struct Position {
    pub(super) board: [Piece; SQUARE_COUNT],
    pub(super) by_color: [Bitboard; 2],
    pub(super) by_kind: [Bitboard; 7],
    /// Occupancy in file-major order (bit `file * 10 + rank`) for the file lookups of chariots and cannons.
    pub(super) rotated: u128,
    pub(super) generals: [Square; 2],
    /// Pieces of each side and kind, kept with the bitboards: the evaluation's material terms read them at every
    /// node, where counting bits of two 64-bit words per kind costs more (a portable build has no popcount
    /// instruction).
    pub(super) counts: [[u8; 7]; 2],
    pub(super) side: Color,
    pub(super) rules: Rules,
    pub(super) state: State,
    /// The states before each move made so far, oldest first.
    pub(super) history: Vec<State>,
}

impl Position {
    /// An empty board (no generals yet); only the FEN reader builds positions from it.
    pub(super) fn empty(rules: Rules) -> Position {
        Position {
            board: [Piece::NONE; SQUARE_COUNT],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            rotated: 0,
            generals: [Square::default(); 2],
            counts: [[0; 7]; 2],
            side: Color::Cho,
            rules,
            state: State {
                key: 0,
                halfmove: 0,
                fullmove: 1,
                last_move: Move::NONE,
                captured: Piece::NONE,
                in_check: false,
                facing: false,
            },
            history: Vec::with_capacity(256),
        }
    }

    /// The standard start position under a rule set.
    pub fn startpos(rules: Rules) -> Position {
        Position::from_fen(super::setups::START_FEN, rules).expect("the start FEN is valid")
    }

    pub(super) fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.board[sq.index()] = piece;
        self.by_color[piece.color().index()] |= bb;
        self.by_kind[piece.kind().index()] |= bb;
        self.rotated |= 1u128 << attacks::rotated_index(sq);
        self.counts[piece.color().index()][piece.kind().index()] += 1;
        self.state.key ^= zobrist::piece_square(piece, sq);
        if piece.kind() == PieceKind::General {
            self.generals[piece.color().index()] = sq;
        }
    }

    /// Recomputes the derived facts of the current state after the pieces were set up.
    pub(super) fn refresh_state(&mut self) {
        self.state.in_check = self.attacked(self.generals[self.side.index()], !self.side);
        self.state.facing = self.generals_on_open_file();
    }

    // ---- accessors -------------------------------------------------------------------------------------------

    #[inline(always)]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rule set, keeping the pieces and the history.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        self.refresh_state();
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.index()];
        p.is_some().then_some(p)
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn color_bb(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    #[inline(always)]
    pub fn kind_bb(&self, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[k.index()]
    }

    /// How many pieces of kind `k` side `c` has (`pieces(c, k).count()`, without counting).
    #[inline(always)]
    pub fn piece_count(&self, c: Color, k: PieceKind) -> u32 {
        u32::from(self.counts[c.index()][k.index()])
    }

    #[inline(always)]
    pub fn rotated_occupancy(&self) -> u128 {
        self.rotated
    }

    #[inline(always)]
    pub fn general(&self, c: Color) -> Square {
        self.generals[c.index()]
    }

    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state.key
    }

    /// The key the position will have after `m` (a legal move or a pass), computed without making it: a search
    /// asks memory for the hash-table entry of the next position while the move is being made.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let mut key = self.state.key ^ zobrist::SIDE;
        if !m.is_pass() {
            let (from, to) = (m.from(), m.to());
            let piece = self.board[from.index()];
            let captured = self.board[to.index()];
            if captured.is_some() {
                key ^= zobrist::piece_square(captured, to);
            }
            key ^= zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to);
        }
        key
    }

    #[inline(always)]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The states before each move of the record, oldest first (the current one is `state()`).
    pub fn history(&self) -> &[State] {
        &self.history
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.state.in_check
    }

    /// Whether the generals face each other on a file with nothing between them (bikjang).
    #[inline(always)]
    pub fn generals_face(&self) -> bool {
        self.state.facing
    }

    pub fn halfmove_clock(&self) -> u16 {
        self.state.halfmove
    }

    pub fn fullmove_number(&self) -> u16 {
        self.state.fullmove
    }

    /// Plies played in the game, as the move number and side to move tell it (a FEN set up mid-game counts the
    /// plies before it); Cho moves first.
    pub fn game_ply_from_move_number(&self) -> u32 {
        2 * u32::from(self.state.fullmove.max(1) - 1) + u32::from(self.side == Color::Han)
    }

    /// Plies played since the position was set up.
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// The move that led here, if any.
    pub fn last_move(&self) -> Option<Move> {
        (!self.state.last_move.is_none()).then_some(self.state.last_move)
    }

    /// The piece the move that led here took, if it took one.
    pub fn last_captured(&self) -> Option<Piece> {
        self.state.captured.is_some().then_some(self.state.captured)
    }

    /// Forgets the moves that led here: the current position becomes the start of the record.
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.state.last_move = Move::NONE;
        self.state.captured = Piece::NONE;
    }

    /// Whether the side to move counts as in check under its rules: attacked, or (janggistrict) facing bikjang.
    pub fn in_check_by_rules(&self) -> bool {
        self.state.in_check || (self.rules.bikjang == Bikjang::MustBreak && self.state.facing)
    }

    // ---- attacks ---------------------------------------------------------------------------------------------

    /// Whether `sq` is attacked by a piece of `by` (generals and guards excluded: they never leave their palace,
    /// so they never reach the other general).
    #[inline]
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked_with(
            sq,
            self.by_color[by.index()],
            by,
            self.occupied(),
            self.rotated,
            self.kind_bb(PieceKind::Cannon),
        )
    }

    /// Whether `side`'s general stays safe when its piece of kind `kind` on `from` moves to (or takes on) `to`, on a
    /// board whose occupancy is `occ`/`rotated` (with `to` occupied) and whose pieces off `occ` are gone: the
    /// legality test of a move, and what an exchange worked out without making its moves needs to know of a
    /// capturer pinned by a chariot's line, a cannon's screen or a horse's or elephant's leg.
    pub fn capture_keeps_general_safe(
        &self,
        side: Color,
        from: Square,
        to: Square,
        kind: PieceKind,
        occ: Bitboard,
        rotated: u128,
    ) -> bool {
        let to_bb = Bitboard::from_square(to);
        let occ = occ.without(from);
        let rotated = rotated & !(1u128 << attacks::rotated_index(from));
        let attackers = self.by_color[(!side).index()] & occ & !to_bb;
        let mut cannons = self.by_kind[PieceKind::Cannon.index()] & occ & !to_bb;
        if kind == PieceKind::Cannon {
            cannons |= to_bb;
        }
        let general = if kind == PieceKind::General { to } else { self.generals[side.index()] };
        !self.attacked_with(general, attackers, !side, occ, rotated, cannons)
    }

    /// `attacked` on a board where `attackers` are the attacking side's pieces, `occ`/`rotated` the occupancy and
    /// `cannons` all cannons (which may not serve as screens); used to test a move before it is made.
    #[inline]
    pub(super) fn attacked_with(
        &self,
        sq: Square,
        attackers: Bitboard,
        by: Color,
        occ: Bitboard,
        rotated: u128,
        cannons: Bitboard,
    ) -> bool {
        let rules = &self.rules;
        let chariots = attackers & self.by_kind[PieceKind::Chariot.index()];
        if (attacks::chariot_lines(sq, occ, rotated) & chariots).any() {
            return true;
        }
        let horses = attackers & self.by_kind[PieceKind::Horse.index()];
        if (attacks::horse_attackers(sq, occ) & horses).any() {
            return true;
        }
        let soldiers = attackers & self.by_kind[PieceKind::Soldier.index()];
        if (attacks::soldier_attackers(by, sq, rules.palace_diagonals) & soldiers).any() {
            return true;
        }
        let elephants = attackers & self.by_kind[PieceKind::Elephant.index()];
        if (attacks::elephant_reach(sq) & elephants).any()
            && (attacks::elephant_attackers(sq, occ, rules.elephant_second_block) & elephants).any()
        {
            return true;
        }
        let enemy_cannons = attackers & cannons;
        if enemy_cannons.any() {
            for c in attacks::cannon_lines_raw(sq, occ, rotated) & enemy_cannons {
                if (attacks::between(sq, c) & occ & cannons).is_empty() {
                    return true;
                }
            }
        }
        if rules.palace_diagonals && attacks::DIAG_POINTS.has(sq) {
            if (attacks::chariot_diagonals(sq, occ) & chariots).any() {
                return true;
            }
            if (attacks::cannon_diagonals(sq, occ, cannons) & enemy_cannons).any() {
                return true;
            }
        }
        false
    }

    /// Every piece of either side that attacks `sq` on a board with occupancy `occ`/`rotated` (pieces outside
    /// `occ` are taken as removed), ignoring pins. A cannon never attacks a point holding a cannon, which the
    /// caller says with `target_is_cannon`.
    pub fn attackers_to(&self, sq: Square, occ: Bitboard, rotated: u128, target_is_cannon: bool) -> Bitboard {
        let rules = &self.rules;
        let kind = |k: PieceKind| self.by_kind[k.index()] & occ;
        let chariots = kind(PieceKind::Chariot);
        let cannons = kind(PieceKind::Cannon);
        let mut found = attacks::chariot_lines(sq, occ, rotated) & chariots;
        found |= attacks::horse_attackers(sq, occ) & kind(PieceKind::Horse);
        let elephants = kind(PieceKind::Elephant);
        if (attacks::elephant_reach(sq) & elephants).any() {
            found |= attacks::elephant_attackers(sq, occ, rules.elephant_second_block) & elephants;
        }
        let soldiers = kind(PieceKind::Soldier);
        for c in Color::BOTH {
            found |= attacks::soldier_attackers(c, sq, rules.palace_diagonals) & soldiers & self.by_color[c.index()];
        }
        found |= attacks::palace_steps(sq) & (kind(PieceKind::General) | kind(PieceKind::Guard));
        if !target_is_cannon {
            for c in attacks::cannon_lines_raw(sq, occ, rotated) & cannons {
                if (attacks::between(sq, c) & occ & cannons).is_empty() {
                    found = found.with(c);
                }
            }
        }
        if rules.palace_diagonals && attacks::DIAG_POINTS.has(sq) {
            found |= attacks::chariot_diagonals(sq, occ) & chariots;
            if !target_is_cannon {
                found |= attacks::cannon_diagonals(sq, occ, cannons) & cannons;
            }
        }
        found
    }

    /// The pieces of the side not to move that attack the general of the side to move.
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        let them = self.by_color[(!us).index()];
        let ksq = self.generals[us.index()];
        // Test each enemy piece alone so that every attacker is named.
        let mut found = Bitboard::EMPTY;
        for sq in them {
            if self.attacked_with(
                ksq,
                Bitboard::from_square(sq),
                !us,
                self.occupied(),
                self.rotated,
                self.kind_bb(PieceKind::Cannon),
            ) {
                found = found.with(sq);
            }
        }
        found
    }

    /// Whether the generals stand on one file with nothing between them.
    #[inline]
    fn generals_on_open_file(&self) -> bool {
        let (a, b) = (self.generals[0], self.generals[1]);
        a.file() == b.file() && (attacks::between(a, b) & self.occupied()).is_empty()
    }

    // ---- making and unmaking moves ---------------------------------------------------------------------------

    /// Plays a move, which must be legal (or at least pseudo-legal) in this position.
    pub fn make_move(&mut self, m: Move) {
        self.make_move_keyed(m, self.key_after(m));
    }

    /// `make_move` with the new key already computed by `key_after(m)` (a search that prefetched with it need
    /// not compute it twice).
    pub fn make_move_keyed(&mut self, m: Move, key: u64) {
        let us = self.side;
        let them = !us;
        self.history.push(self.state);
        let st = &mut self.state;
        st.last_move = m;
        st.captured = Piece::NONE;
        st.halfmove = st.halfmove.saturating_add(1);
        if us == Color::Han {
            st.fullmove = st.fullmove.saturating_add(1);
        }
        st.key = key;
        if !m.is_pass() {
            let (from, to) = (m.from(), m.to());
            let piece = self.board[from.index()];
            let captured = self.board[to.index()];
            let from_bb = Bitboard::from_square(from);
            let to_bb = Bitboard::from_square(to);
            if captured.is_some() {
                self.by_color[them.index()] ^= to_bb;
                self.by_kind[captured.kind().index()] ^= to_bb;
                self.counts[them.index()][captured.kind().index()] -= 1;
                st.captured = captured;
                st.halfmove = 0;
            } else {
                self.rotated ^= 1u128 << attacks::rotated_index(to);
            }
            self.rotated ^= 1u128 << attacks::rotated_index(from);
            self.board[to.index()] = piece;
            self.board[from.index()] = Piece::NONE;
            self.by_color[us.index()] ^= from_bb | to_bb;
            self.by_kind[piece.kind().index()] ^= from_bb | to_bb;
            if piece.kind() == PieceKind::General {
                self.generals[us.index()] = to;
            }
        }
        self.side = them;
        self.state.in_check = self.attacked(self.generals[them.index()], us);
        self.state.facing = self.generals_on_open_file();
    }

    /// Hands the move to the other side without a move (the search's null move). Unlike a pass it never ends the
    /// game, and repetition scans stop at it.
    pub fn make_null_move(&mut self) {
        self.history.push(self.state);
        let us = self.side;
        let st = &mut self.state;
        st.last_move = Move::NONE;
        st.captured = Piece::NONE;
        st.halfmove = st.halfmove.saturating_add(1);
        st.key ^= zobrist::SIDE;
        st.in_check = false;
        self.side = !us;
    }

    /// Takes back a null move.
    pub fn unmake_null_move(&mut self) {
        if let Some(previous) = self.history.pop() {
            self.state = previous;
            self.side = !self.side;
        }
    }

    /// Takes back the last move made.
    pub fn unmake_move(&mut self) {
        let Some(previous) = self.history.pop() else {
            return;
        };
        let m = self.state.last_move;
        let captured = self.state.captured;
        self.state = previous;
        self.side = !self.side;
        if m.is_pass() {
            return;
        }
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let piece = self.board[to.index()];
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        self.board[from.index()] = piece;
        self.board[to.index()] = captured;
        self.by_color[us.index()] ^= from_bb | to_bb;
        self.by_kind[piece.kind().index()] ^= from_bb | to_bb;
        self.rotated ^= 1u128 << attacks::rotated_index(from);
        if captured.is_some() {
            self.by_color[(!us).index()] ^= to_bb;
            self.by_kind[captured.kind().index()] ^= to_bb;
            self.counts[(!us).index()][captured.kind().index()] += 1;
        } else {
            self.rotated ^= 1u128 << attacks::rotated_index(to);
        }
        if piece.kind() == PieceKind::General {
            self.generals[us.index()] = from;
        }
    }

    /// The key computed from scratch (to check the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            key ^= zobrist::piece_square(self.board[sq.index()], sq);
        }
        if self.side == Color::Han {
            key ^= zobrist::SIDE;
        }
        key
    }

    /// The board drawn as text, Han at the top, for the `d` command.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        let line = format!("   +{}\n", "---+".repeat(FILES as usize));
        out.push_str(&line);
        for r in (0..RANKS).rev() {
            out.push_str(&format!("{:>2} |", r + 1));
            for f in 0..FILES {
                let sq = Square::new(super::square::File(f), super::square::Rank(r));
                let c = self.piece_at(sq).map_or(' ', |p| p.letter());
                out.push_str(&format!(" {c} |"));
            }
            out.push('\n');
            out.push_str(&line);
        }
        out.push_str("     a   b   c   d   e   f   g   h   i\n");
        out
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}
