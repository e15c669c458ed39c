//! How games end: the status of a position under its rule set, with the result and the reason.
//!
//! Ends come in three groups, as the hosts see them: ends that happen at once and leave no moves (two passes in a
//! row, a pass answering bikjang); the side to move having no legal move (checkmate, or the rule set's stalemate);
//! and ends that hosts adjudicate while moves are still listed (repetition, perpetual check, the move-count rule,
//! the shuttle rule). When several apply, checkmate comes first, then the move-count rule, the shuttle rule, and
//! repetition (with perpetual check).

use super::moves::Move;
use super::piece::{Color, PieceKind};
use super::position::Position;
use super::rules::{Adjudication, NoMove, count};
use std::fmt;

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color),
    Draw,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    /// No legal move without being in check.
    Stalemate,
    DoublePass,
    BikjangPass,
    Repetition,
    PerpetualCheck,
    MoveLimit,
    Shuttle,
}

impl Reason {
    /// Whether the end leaves the side to move without moves (hosts stop at once), as opposed to an end that
    /// hosts adjudicate while moves are still listed.
    pub fn is_immediate(self) -> bool {
        matches!(self, Reason::DoublePass | Reason::BikjangPass | Reason::Checkmate | Reason::Stalemate)
    }

    pub fn describe(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "no legal move",
            Reason::DoublePass => "two passes in a row",
            Reason::BikjangPass => "bikjang answered by a pass",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual check",
            Reason::MoveLimit => "move-count rule",
            Reason::Shuttle => "shuttle rule",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// Plies without a capture that any shuttle or cycle needs.
const MIN_CYCLE_PLIES: u16 = 4;

/// How a caller looks at game ends: the game's view, which is what hosts adjudicate, or the search's, which
/// ends a line at its first cycle and never looks across one of its null moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndView {
    /// Plies searched since the root: a position repeated within them ends the line at once (0 for the game).
    pub since_root: usize,
    /// Null moves cut the record: no position before one counts for repetition.
    pub null_barrier: bool,
    /// Under rule sets without a repetition rule a cycle ends as an even draw instead of going on.
    pub cycles_draw: bool,
}

impl EndView {
    pub const GAME: EndView = EndView { since_root: 0, null_barrier: false, cycles_draw: false };

    /// The search's view at `ply` plies from its root.
    pub fn search(ply: usize) -> EndView {
        EndView { since_root: ply, null_barrier: true, cycles_draw: true }
    }
}

/// A finished game: the outcome, the reason, and whether the outcome was decided by counting material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub outcome: Outcome,
    pub reason: Reason,
    pub counted: bool,
}

impl GameEnd {
    /// +1 if `side` won, -1 if it lost, 0 for a draw.
    pub fn score_for(&self, side: Color) -> i32 {
        match self.outcome {
            Outcome::Win(c) if c == side => 1,
            Outcome::Win(_) => -1,
            Outcome::Draw => 0,
        }
    }
}

impl Position {
    /// The status of the position: `None` while the game goes on, otherwise how it ended. Adjudicated ends
    /// (repetition, move-count rule, shuttle rule) are included; see `Reason::is_immediate`.
    pub fn game_end(&self) -> Option<GameEnd> {
        if let Some(end) = self.immediate_end() {
            return Some(end);
        }
        if self.legal_moves().is_empty() {
            return Some(self.no_move_end());
        }
        self.end_with(EndView::GAME)
    }

    /// Two passes in a row, or a pass that answered bikjang: the game is over and no move is left.
    pub fn immediate_end(&self) -> Option<GameEnd> {
        if !self.ended_by_last_move() {
            return None;
        }
        let reason = if self.state.last_move.is_pass() && self.history.last().is_some_and(|p| p.last_move.is_pass()) {
            Reason::DoublePass
        } else {
            Reason::BikjangPass
        };
        Some(self.adjudicate(reason))
    }

    /// The end when the side to move has no legal move.
    pub fn no_move_end(&self) -> GameEnd {
        let in_check = self.in_check_by_rules();
        let lose = |reason| GameEnd { outcome: Outcome::Win(!self.side), reason, counted: false };
        match (self.rules.no_move, in_check) {
            (_, true) => lose(Reason::Checkmate),
            (NoMove::Loss, false) => lose(Reason::Stalemate),
            (NoMove::LossInCheckElseDraw, false) => {
                GameEnd { outcome: Outcome::Draw, reason: Reason::Stalemate, counted: false }
            }
        }
    }

    /// The ends that hosts adjudicate: the move-count rule, the shuttle rule, repetition and perpetual check.
    /// Meant for a position whose game goes on by `immediate_end` and has legal moves.
    pub fn adjudicated_end(&self) -> Option<GameEnd> {
        self.end_with(EndView::GAME)
    }

    /// Every end that does not need the list of legal moves, as `view` sees it: the game just ended (two passes,
    /// a pass under bikjang); the move-count rule (checkmate first); the shuttle rule; repetition with perpetual
    /// check. One rule book for the game and the search: the search's view only adds its twists.
    pub fn end_with(&self, view: EndView) -> Option<GameEnd> {
        if let Some(end) = self.immediate_end() {
            return Some(end);
        }
        if let Some(limit) = self.rules.move_limit
            && self.state.halfmove >= limit
        {
            // Checkmate comes first.
            if self.in_check_by_rules() && self.legal_moves().is_empty() {
                return Some(self.no_move_end());
            }
            return Some(self.adjudicate(Reason::MoveLimit));
        }
        // Neither a shuttle (five moves without a capture) nor a cycle fits in fewer plies.
        if self.state.halfmove < MIN_CYCLE_PLIES {
            return None;
        }
        if self.rules.shuttle && self.shuttled() {
            // The side that just moved loses.
            return Some(GameEnd { outcome: Outcome::Win(self.side), reason: Reason::Shuttle, counted: false });
        }
        self.repetition_end(view)
    }

    /// The outcome of an end that the rule set decides by counting or calls a draw.
    fn adjudicate(&self, reason: Reason) -> GameEnd {
        match self.rules.adjudication {
            Adjudication::Count => GameEnd { outcome: Outcome::Win(self.count_winner()), reason, counted: true },
            Adjudication::Draw => GameEnd { outcome: Outcome::Draw, reason, counted: false },
        }
    }

    /// Material points of a side in half points (chariot 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2),
    /// with Han's 1.5-point komi included.
    pub fn count_points(&self, side: Color) -> i32 {
        let n = |k| self.piece_count(side, k) as i32;
        let material = n(PieceKind::Chariot) * count::CHARIOT
            + n(PieceKind::Cannon) * count::CANNON
            + n(PieceKind::Horse) * count::HORSE
            + n(PieceKind::Elephant) * count::ELEPHANT
            + n(PieceKind::Guard) * count::GUARD
            + n(PieceKind::Soldier) * count::SOLDIER;
        material + if side == Color::Han { count::HAN_BONUS } else { 0 }
    }

    /// Who wins on count: Cho needs more points than Han plus komi; a count never draws.
    pub fn count_winner(&self) -> Color {
        if self.count_points(Color::Cho) > self.count_points(Color::Han) { Color::Cho } else { Color::Han }
    }

    /// The state of the position `back` plies ago (0 = now), if the record reaches that far.
    pub fn state_back(&self, back: usize) -> Option<&super::position::State> {
        if back == 0 { Some(&self.state) } else { self.history.len().checked_sub(back).map(|i| &self.history[i]) }
    }

    /// Repetition as `view` sees it: the position has occurred as often as the rule set needs since the last
    /// capture (or, for the search, once within the plies searched). A perpetual check loses for the side that gave
    /// every check; otherwise the rule set counts or draws.
    fn repetition_end(&self, view: EndView) -> Option<GameEnd> {
        let needed = match self.rules.repetition {
            Some(n) => n as usize,
            None if view.cycles_draw => 2,
            None => return None,
        };
        let key = self.state.key;
        let reach = (self.state.halfmove as usize).min(self.history.len());
        let mut count = 1;
        for back in 1..=reach {
            if view.null_barrier && self.state_back(back - 1)?.last_move.is_none() {
                return None;
            }
            if back % 2 == 0 && self.state_back(back)?.key == key {
                count += 1;
                if back <= view.since_root || count >= needed {
                    return Some(self.cycle_end(back));
                }
            }
        }
        None
    }

    /// The end of a cycle of `span` plies.
    fn cycle_end(&self, span: usize) -> GameEnd {
        if self.rules.repetition.is_none() {
            // No repetition rule (a search's cycle): nothing changes, even.
            return GameEnd { outcome: Outcome::Draw, reason: Reason::Repetition, counted: false };
        }
        if self.rules.perpetual_check_loses {
            // Moves in the span: `back` = 0..span-1 names the move that led to the position `back` plies ago,
            // made by the side not to move in that position.
            let mut all_checks = [true, true];
            for back in 0..span {
                let st = self.state_back(back).expect("within the record");
                let mover = if back % 2 == 0 { !self.side } else { self.side };
                if !st.in_check {
                    all_checks[mover.index()] = false;
                }
            }
            let loser = match all_checks {
                [true, false] => Some(Color::Cho),
                [false, true] => Some(Color::Han),
                _ => None,
            };
            if let Some(loser) = loser {
                return GameEnd { outcome: Outcome::Win(!loser), reason: Reason::PerpetualCheck, counted: false };
            }
        }
        self.adjudicate(Reason::Repetition)
    }

    /// The shuttle rule: the side that just moved made its last five moves with one piece (not a general or
    /// guard): a move to a point, then four moves back and forth along one path, each the reverse of the one
    /// before, with at most one pass of its own just before the last; no capture by either side and no check
    /// against it in that span.
    pub fn shuttled(&self) -> bool {
        const MOVES: usize = 5;
        let last = self.state.last_move;
        if last.is_none() || last.is_pass() {
            return false;
        }
        match self.piece_at(last.to()).map(|p| p.kind()) {
            Some(PieceKind::General) | Some(PieceKind::Guard) | None => return false,
            _ => {}
        }
        // Walk back over the mover's own moves (every other ply), allowing one pass right before the last move.
        let mut back = 0;
        let mut seen = 0;
        let mut previous: Option<Move> = None;
        let mut pass_used = false;
        while seen < MOVES {
            let Some(st) = self.state_back(back) else {
                return false;
            };
            let m = st.last_move;
            if m.is_none() {
                return false;
            }
            if m.is_pass() {
                if seen != 1 || pass_used {
                    return false;
                }
                pass_used = true;
            } else {
                if let Some(later) = previous {
                    // The first move only brings the piece to the point it then leaves; after it, each move
                    // reverses the one before.
                    let reverses = later.from() == m.to() && later.to() == m.from();
                    if later.from() != m.to() || (seen < MOVES - 1 && !reverses) {
                        return false;
                    }
                }
                previous = Some(m);
                seen += 1;
            }
            // No capture on this ply, and none on the opponent's ply before it (within the window).
            if !st.captured.is_none() {
                return false;
            }
            // The mover was not in check before this move: look at the position one ply earlier.
            let Some(before) = self.state_back(back + 1) else {
                return false;
            };
            if before.in_check {
                return false;
            }
            if seen < MOVES {
                if !before.captured.is_none() {
                    return false;
                }
                back += 2;
            }
        }
        true
    }
}
