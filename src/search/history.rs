//! Memory of a search thread: for move ordering, killer moves, butterfly, counter-move, continuation and capture
//! history; for the evaluation, correction history (how far searches found the static evaluation off, by structure).

use super::params::*;
use crate::board::{Color, Move, PieceKind, Position};

pub struct History {
    /// Two quiet moves per ply that caused a cutoff there.
    pub killers: [[Move; 2]; MAX_PLY + 2],
    /// [side][from][to]: how often a quiet move cut off, with gravity towards zero.
    butterfly: Vec<i16>,
    /// [side][previous move's to-point * 90 + previous move's from-point]: the reply that refuted it.
    counters: Vec<Move>,
    /// [piece-to of a move of the `Context`][piece-to of this move]: how well this move followed that one.
    continuation: Vec<i16>,
    /// Where continuation entries saturate (`cont_history_limit`): the larger, the slower they change.
    continuation_limit: i32,
    /// [capture name, see `CaptureKey`]: how often this piece taking this kind on this point cut off. Victim and
    /// attacker values say what a capture wins on paper; this says what it was worth in the searches so far.
    captures: Vec<i16>,
    /// [side][soldier-structure slot]: how far searches found the static evaluation off for positions with this
    /// soldier structure, in 1/`CORRECTION_GRAIN` centipawns.
    soldier_correction: Vec<i16>,
    /// [side][palace-structure slot]: the same, by where the generals, guards and elephants stand.
    palace_correction: Vec<i16>,
}

/// The correction-history slots of a position: hashes of its soldier and palace structures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionKeys {
    soldiers: usize,
    palace: usize,
}

/// A slot of a correction table for a set of points, told apart from other sets of points by `salt`.
fn correction_slot(bb: u128, salt: u64) -> usize {
    let folded = (bb as u64) ^ ((bb >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt;
    (folded.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> (64 - CORRECTION_BITS)) as usize
}

impl CorrectionKeys {
    pub fn of(pos: &Position) -> CorrectionKeys {
        let slot = correction_slot;
        let cho = pos.color_bb(Color::Cho).0;
        let soldiers = pos.kind_bb(PieceKind::Soldier).0;
        let palace =
            (pos.kind_bb(PieceKind::General) | pos.kind_bb(PieceKind::Guard) | pos.kind_bb(PieceKind::Elephant)).0;
        CorrectionKeys {
            soldiers: slot(soldiers & cho, 0) ^ slot(soldiers & !cho, 0x5851_F42D_4C95_7F2D),
            palace: slot(palace & cho, 0x1405_7B7E_F767_814F) ^ slot(palace & !cho, 0x2545_F491_4F6C_DD1D),
        }
    }
}

/// A move named by the piece that makes it and its destination (`piece index * 90 + to`); `NO_PIECE_TO` for a
/// null move or none.
pub type PieceTo = u16;
pub const NO_PIECE_TO: PieceTo = u16::MAX;

/// The moves a move's continuation history is looked up after: those one, two, four and six plies back (each
/// `NO_PIECE_TO` where there is none).
pub type Context = [PieceTo; 4];
const PIECE_TO_COUNT: usize = 14 * 90;

/// A capture named by the piece that makes it, its destination and the kind it takes:
/// `(piece-to) * 7 + victim kind`.
pub type CaptureKey = u16;
const CAPTURE_KEY_COUNT: usize = PIECE_TO_COUNT * 7;

/// The capture name of a capture by the piece `piece_to` (see `PieceTo`) of a piece of kind `victim`.
#[inline(always)]
pub fn capture_key(piece_to: PieceTo, victim: PieceKind) -> CaptureKey {
    piece_to * 7 + victim.index() as CaptureKey
}

impl History {
    pub fn new() -> History {
        History {
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            butterfly: vec![0; 2 * 90 * 90],
            counters: vec![Move::NONE; 2 * 90 * 90],
            continuation: vec![0; PIECE_TO_COUNT * PIECE_TO_COUNT],
            continuation_limit: HISTORY_MAX,
            captures: vec![0; CAPTURE_KEY_COUNT],
            soldier_correction: vec![0; 2 << CORRECTION_BITS],
            palace_correction: vec![0; 2 << CORRECTION_BITS],
        }
    }

    /// Forgets the killers (they belong to one search) and halves the butterfly history;
    /// continuation entries saturate at `continuation_limit` from now on (clamped to what an entry holds).
    pub fn new_search(&mut self, continuation_limit: i32) {
        self.killers = [[Move::NONE; 2]; MAX_PLY + 2];
        self.continuation_limit = continuation_limit.clamp(CONT_HISTORY_LIMIT_MIN, i16::MAX as i32);
        for h in &mut self.butterfly {
            *h /= 2;
        }
    }

    #[inline(always)]
    fn index(side: Color, m: Move) -> usize {
        side.index() * 8100 + m.from().index() * 90 + m.to().index()
    }

    #[inline(always)]
    pub fn score(&self, side: Color, m: Move) -> i32 {
        self.butterfly[Self::index(side, m)] as i32
    }

    /// The continuation history of a move (`to`) after the moves of `context`.
    #[inline(always)]
    pub fn continuation(&self, context: Context, to: PieceTo) -> i32 {
        let mut sum = 0;
        for c in context {
            if c != NO_PIECE_TO && to != NO_PIECE_TO {
                sum += self.continuation[c as usize * PIECE_TO_COUNT + to as usize] as i32;
            }
        }
        sum
    }

    /// The continuation history of a move (`to`) after the single move `before` (0 where either is unknown).
    #[inline(always)]
    pub fn continuation_after(&self, before: PieceTo, to: PieceTo) -> i32 {
        if before == NO_PIECE_TO || to == NO_PIECE_TO {
            return 0;
        }
        self.continuation[before as usize * PIECE_TO_COUNT + to as usize] as i32
    }

    /// Whether a quiet move (`to`) has done badly after each of the last two moves: its continuation history
    /// after both is negative (the test of continuation-history pruning).
    #[inline(always)]
    pub fn failed_after_both(&self, context: Context, to: PieceTo) -> bool {
        self.continuation_after(context[0], to) < 0 && self.continuation_after(context[1], to) < 0
    }

    fn gravity(h: &mut i16, bonus: i32) {
        Self::gravity_to(h, bonus, HISTORY_MAX);
    }

    /// Moves an entry by `bonus`, less the more it already leans that way: it stays within ±`limit`, since every
    /// bonus is at most `CONT_HISTORY_LIMIT_MIN` (see the parameter tests), the least limit `new_search` takes.
    fn gravity_to(h: &mut i16, bonus: i32, limit: i32) {
        let v = *h as i32;
        *h = (v + bonus - v * bonus.abs() / limit) as i16;
    }

    fn nudge(&mut self, side: Color, m: Move, piece_to: PieceTo, context: Context, bonus: i32) {
        Self::gravity(&mut self.butterfly[Self::index(side, m)], bonus);
        self.nudge_continuation(piece_to, context, bonus);
    }

    fn nudge_continuation(&mut self, piece_to: PieceTo, context: Context, bonus: i32) {
        for c in context {
            if c != NO_PIECE_TO && piece_to != NO_PIECE_TO {
                let entry = &mut self.continuation[c as usize * PIECE_TO_COUNT + piece_to as usize];
                Self::gravity_to(entry, bonus, self.continuation_limit);
            }
        }
    }

    /// A quiet move caused a cutoff: reward it by `bonus`, punish the quiets tried before it. Moves come with
    /// their piece-to names; `context` names the moves before.
    #[allow(clippy::too_many_arguments)]
    pub fn reward(
        &mut self,
        side: Color,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
        context: Context,
        bonus: i32,
        ply: usize,
        previous: Move,
    ) {
        self.nudge(side, best.0, best.1, context, bonus);
        for &(m, pt) in tried {
            if m != best.0 {
                self.nudge(side, m, pt, context, -bonus);
            }
        }
        let best = best.0;
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
        if !previous.is_none() {
            self.counters[Self::index(side, previous)] = best;
        }
    }

    /// The capture history of a capture.
    #[inline(always)]
    pub fn capture(&self, key: CaptureKey) -> i32 {
        self.captures[key as usize] as i32
    }

    /// A node's search ended with a cutoff: the capture that caused it (if it was one) is rewarded by `bonus`,
    /// the captures tried before it that did not are punished by as much.
    pub fn reward_captures(&mut self, best: Option<CaptureKey>, tried: &[CaptureKey], bonus: i32) {
        if let Some(best) = best {
            Self::gravity(&mut self.captures[best as usize], bonus);
        }
        for &c in tried {
            if Some(c) != best {
                Self::gravity(&mut self.captures[c as usize], -bonus);
            }
        }
    }

    /// The correction (centipawns) to add to the static evaluation of a position with these keys.
    #[inline]
    pub fn correction(&self, side: Color, keys: CorrectionKeys) -> i32 {
        let base = side.index() << CORRECTION_BITS;
        let sum =
            self.soldier_correction[base + keys.soldiers] as i32 + self.palace_correction[base + keys.palace] as i32;
        sum / (2 * CORRECTION_GRAIN)
    }

    /// A search at `depth` found the position worth `searched` where the (corrected) static evaluation said
    /// `static_eval`: move the corrections towards the difference, more for deeper searches.
    pub fn correct(&mut self, side: Color, keys: CorrectionKeys, searched: i32, static_eval: i32, depth: i32) {
        let base = side.index() << CORRECTION_BITS;
        let bonus = ((searched - static_eval) * depth * CORRECTION_GRAIN / 8)
            .clamp(-CORRECTION_LIMIT / 4, CORRECTION_LIMIT / 4);
        let learn = |h: &mut i16| {
            let v = *h as i32;
            *h = (v + bonus - v * bonus.abs() / CORRECTION_LIMIT) as i16;
        };
        learn(&mut self.soldier_correction[base + keys.soldiers]);
        learn(&mut self.palace_correction[base + keys.palace]);
    }

    pub fn counter(&self, side: Color, previous: Move) -> Move {
        if previous.is_none() { Move::NONE } else { self.counters[Self::index(side, previous)] }
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rules;

    impl History {
        /// A quiet move's continuation history alone moves by `bonus`.
        fn reward_continuation(&mut self, piece_to: PieceTo, context: Context, bonus: i32) {
            self.nudge_continuation(piece_to, context, bonus);
        }
    }

    fn position(fen: &str) -> Position {
        Position::from_fen(fen, Rules::default()).unwrap()
    }

    #[test]
    fn corrections_move_towards_what_searches_found_and_stay_bounded() {
        let pos = position("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1");
        let keys = CorrectionKeys::of(&pos);
        let mut h = History::new();
        assert_eq!(h.correction(Color::Cho, keys), 0);
        h.correct(Color::Cho, keys, 150, 50, 8);
        let once = h.correction(Color::Cho, keys);
        assert!(once > 0 && once <= 100, "{once}");
        for _ in 0..200 {
            h.correct(Color::Cho, keys, 10_000, 0, 20);
        }
        let saturated = h.correction(Color::Cho, keys);
        assert!(saturated > once && saturated <= CORRECTION_LIMIT / CORRECTION_GRAIN, "{saturated}");
        // The other side's table is separate.
        assert_eq!(h.correction(Color::Han, keys), 0);
        h.correct(Color::Cho, keys, -10_000, 0, 20);
        assert!(h.correction(Color::Cho, keys) < saturated);
    }

    #[test]
    fn capture_history_rewards_the_capture_that_cut_off_and_punishes_the_others() {
        // Two pieces (by index) arriving on point 5.
        let (chariot_to, cannon_to): (PieceTo, PieceTo) = (3 * 90 + 5, 4 * 90 + 5);
        let took_horse = capture_key(chariot_to, PieceKind::Horse);
        let took_soldier = capture_key(chariot_to, PieceKind::Soldier);
        let cannon_took = capture_key(cannon_to, PieceKind::Horse);
        assert!(took_horse != took_soldier && took_horse != cannon_took);
        let mut h = History::new();
        h.reward_captures(Some(took_horse), &[took_soldier, took_horse], 500);
        assert_eq!((h.capture(took_horse), h.capture(took_soldier), h.capture(cannon_took)), (500, -500, 0));
        // A quiet cutoff punishes every capture tried, and gravity keeps the values inside the history range.
        for _ in 0..1000 {
            h.reward_captures(None, &[took_horse, took_soldier], 2400);
        }
        assert!(h.capture(took_horse) < 0 && h.capture(took_horse) >= -HISTORY_MAX);
        assert!(h.capture(took_soldier) >= -HISTORY_MAX);
    }

    #[test]
    fn a_refutation_raises_the_continuation_history_after_each_move_of_its_context_only() {
        let mut h = History::new();
        let (reply, other): (PieceTo, PieceTo) = (2 * 90 + 40, 2 * 90 + 41);
        let context: Context = [90 + 3, 7 * 90 + 12, NO_PIECE_TO, 5 * 90 + 88];
        h.reward_continuation(reply, context, 600);
        assert_eq!(h.continuation(context, reply), 3 * 600);
        assert_eq!(h.continuation([context[0], NO_PIECE_TO, NO_PIECE_TO, NO_PIECE_TO], reply), 600);
        assert_eq!(h.continuation(context, other), 0);
    }

    #[test]
    fn continuation_entries_saturate_at_their_limit_and_a_higher_limit_forgets_more_slowly() {
        let (reply, before): (PieceTo, PieceTo) = (2 * 90 + 40, 90 + 3);
        let context: Context = [before, NO_PIECE_TO, NO_PIECE_TO, NO_PIECE_TO];
        let after_rewards = |limit: i32, rewards: usize, then_punish: usize| {
            let mut h = History::new();
            h.new_search(limit);
            for _ in 0..rewards {
                h.reward_continuation(reply, context, 2400);
            }
            for _ in 0..then_punish {
                h.reward_continuation(reply, context, -2400);
            }
            h.continuation(context, reply)
        };
        // A long run of rewards approaches the limit and never passes it.
        for limit in [HISTORY_MAX, 29952, 32000] {
            let v = after_rewards(limit, 200, 0);
            assert!(v <= limit && v > limit * 9 / 10, "limit {limit}: {v}");
        }
        // Limits below the largest bonus are raised to the bound above it.
        let v = after_rewards(1, 200, 0);
        assert!(v <= CONT_HISTORY_LIMIT_MIN && v > CONT_HISTORY_LIMIT_MIN * 9 / 10, "{v}");
        // One reward moves a fresh entry by the bonus whatever the limit; two punishments after a long run of
        // rewards take a smaller share of it off under a higher limit.
        assert_eq!(after_rewards(HISTORY_MAX, 1, 0), 2400);
        assert_eq!(after_rewards(29952, 1, 0), 2400);
        let kept = |limit: i32| f64::from(after_rewards(limit, 200, 2)) / f64::from(after_rewards(limit, 200, 0));
        assert!(kept(29952) > kept(HISTORY_MAX), "{} against {}", kept(29952), kept(HISTORY_MAX));
        // The butterfly table keeps its own limit whatever the continuation tables' is.
        let mut h = History::new();
        h.new_search(29952);
        let m = Move::new(crate::board::Square::from_index(0).unwrap(), crate::board::Square::from_index(9).unwrap());
        for _ in 0..200 {
            h.reward(Color::Cho, (m, NO_PIECE_TO), &[], [NO_PIECE_TO; 4], 2400, 0, Move::NONE);
        }
        assert!(h.score(Color::Cho, m) <= HISTORY_MAX && h.score(Color::Cho, m) > HISTORY_MAX * 9 / 10);
    }

    #[test]
    fn correction_keys_follow_the_soldiers_and_the_palace_pieces_only() {
        let start = position("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1");
        // A chariot moved: same structures.
        let chariot = position("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/RC5C1/4K4/1NBA1ABNR w - - 0 1");
        // A soldier moved: another soldier structure, same palace.
        let soldier = position("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/P8/2P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1");
        let (a, b, c) = (CorrectionKeys::of(&start), CorrectionKeys::of(&chariot), CorrectionKeys::of(&soldier));
        assert_eq!(a, b);
        assert_ne!(a.soldiers, c.soldiers);
        assert_eq!(a.palace, c.palace);
    }
}
