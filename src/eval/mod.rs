//! Static evaluation: a sum of weighted terms (material, piece-square tables, mobility, general safety, cannon
//! screens, blocked horses and elephants, soldier structure), blended between middlegame and endgame by the
//! material left. The weights live in `params`/`weights`; the same code can record each term's coefficient so
//! that the tuner can fit the weights to game results.

pub mod evaluator;
pub mod move_limit;
pub mod nnue;
pub mod params;
pub mod tapered;
pub mod weights;

use crate::board::attacks;
use crate::board::{Bitboard, Color, PieceKind, Position, Square};
use params::*;
use tapered::S;

pub use move_limit::toward_move_limit;

/// Receives every weight used, with its coefficient (positive for Cho).
pub trait Trace {
    fn add(&mut self, index: usize, count: i32);
}

/// The trace of normal play: records nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: i32) {}
}

/// The coefficients of one position, for the tuner.
#[derive(Default, Clone, Debug)]
pub struct Coefficients {
    pub terms: Vec<(u16, i16)>,
}

impl Trace for Coefficients {
    fn add(&mut self, index: usize, count: i32) {
        if count != 0 {
            if let Some(t) = self.terms.iter_mut().find(|t| t.0 as usize == index) {
                t.1 += count as i16;
            } else {
                self.terms.push((index as u16, count as i16));
            }
        }
    }
}

/// Evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position, params: &Params) -> i32 {
    evaluate_traced(pos, params, &mut NoTrace)
}

/// The folded piece-square index of a point for a side.
#[inline(always)]
pub fn pst_index(color: Color, sq: Square) -> usize {
    let file = sq.file().0 as usize;
    let folded = file.min(8 - file);
    let rank = match color {
        Color::Cho => sq.rank().0 as usize,
        Color::Han => 9 - sq.rank().0 as usize,
    };
    rank * 5 + folded
}

/// The game phase: `MAX_PHASE` with full armies, 0 with no chariots, cannons, horses or elephants.
pub fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for kind in PieceKind::ALL {
        let count = pos.piece_count(Color::Cho, kind) + pos.piece_count(Color::Han, kind);
        phase += PHASE_WEIGHT[kind.index()] * count as i32;
    }
    phase.min(MAX_PHASE)
}

pub fn evaluate_traced<T: Trace>(pos: &Position, params: &Params, trace: &mut T) -> i32 {
    let w = &params.w;
    let (cho, cho_attacks) = side_terms(pos, Color::Cho, w, trace);
    let (han, han_attacks) = side_terms(pos, Color::Han, w, trace);
    let mut total = cho - han;
    total += threat_terms(pos, Color::Cho, &cho_attacks, &han_attacks, w, trace);
    total -= threat_terms(pos, Color::Han, &han_attacks, &cho_attacks, w, trace);
    let stm_sign = if pos.side_to_move() == Color::Cho { 1 } else { -1 };
    total += w[TEMPO] * stm_sign;
    trace.add(TEMPO, stm_sign);
    let phase = phase(pos);
    let value = total.blend(phase, MAX_PHASE);
    value * stm_sign
}

/// What one side's pieces attack, in all and by the kind of the attacker.
#[derive(Default)]
struct Attacks {
    all: Bitboard,
    by_kind: [Bitboard; 7],
}

impl Attacks {
    fn note(&mut self, kind: PieceKind, targets: Bitboard) {
        self.all |= targets;
        self.by_kind[kind.index()] |= targets;
    }
}

/// The piece kinds other than the general, from the least to the most valuable by `THREAT_RANK` (which must rank
/// every kind differently, so that "ranked below" is the same as "came earlier").
const BY_THREAT_RANK: [PieceKind; 6] = {
    let mut order = [1usize, 2, 3, 4, 5, 6];
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() {
            assert!(THREAT_RANK[order[i]] != THREAT_RANK[order[j]], "THREAT_RANK ranks two kinds alike");
            if THREAT_RANK[order[j]] < THREAT_RANK[order[i]] {
                let t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            j += 1;
        }
        i += 1;
    }
    let mut kinds = [PieceKind::General; 6];
    let mut k = 0;
    while k < kinds.len() {
        kinds[k] = PieceKind::ALL[order[k]];
        k += 1;
    }
    kinds
};

/// Threats against one side's pieces, from that side's point of view: pieces attacked and undefended, and pieces
/// attacked by a less valuable enemy piece.
fn threat_terms<T: Trace>(pos: &Position, us: Color, ours: &Attacks, theirs: &Attacks, w: &[S], trace: &mut T) -> S {
    let sign = if us == Color::Cho { 1 } else { -1 };
    let mut s = S::ZERO;
    // What the enemy attacks with kinds less valuable than the one looked at, grown kind by kind.
    let mut lesser = Bitboard::EMPTY;
    for kind in BY_THREAT_RANK {
        let attacked = pos.pieces(us, kind) & theirs.all;
        if attacked.any() {
            let hanging = (attacked & !ours.all).count() as i32;
            if hanging != 0 {
                s += w[HANGING + kind.index()] * hanging;
                trace.add(HANGING + kind.index(), hanging * sign);
            }
            let threatened = (attacked & lesser).count() as i32;
            if threatened != 0 {
                s += w[THREAT_BY_LESSER + kind.index()] * threatened;
                trace.add(THREAT_BY_LESSER + kind.index(), threatened * sign);
            }
        }
        lesser |= theirs.by_kind[kind.index()];
    }
    s
}

/// The terms of one side, from that side's point of view, and what its pieces attack.
fn side_terms<T: Trace>(pos: &Position, us: Color, w: &[S], trace: &mut T) -> (S, Attacks) {
    let sign = if us == Color::Cho { 1 } else { -1 };
    let mut s = S::ZERO;
    let mut add = |s: &mut S, index: usize, count: i32| {
        if count != 0 {
            *s += w[index] * count;
            trace.add(index, count * sign);
        }
    };
    let rules = pos.rules();
    let occ = pos.occupied();
    let rot = pos.rotated_occupancy();
    let own = pos.color_bb(us);
    let them = !us;
    let cannons = pos.kind_bb(PieceKind::Cannon);
    let enemy_palace = attacks::palace_of(them);
    // Palace points attacked at least once, twice and three times.
    let mut pressure = [Bitboard::EMPTY; 3];
    let mut all = Attacks::default();
    let mut note = |targets: Bitboard, kind: PieceKind, s: &mut S, add: &mut dyn FnMut(&mut S, usize, i32)| {
        all.note(kind, targets);
        let hit = targets & enemy_palace;
        if hit.any() {
            add(s, PALACE_ATTACKER + kind.index(), 1);
            pressure[2] |= pressure[1] & hit;
            pressure[1] |= pressure[0] & hit;
            pressure[0] |= hit;
        }
    };

    for kind in PieceKind::ALL {
        let pieces = pos.pieces(us, kind);
        add(&mut s, MATERIAL + kind.index(), pos.piece_count(us, kind) as i32);
        for sq in pieces {
            add(&mut s, PST + kind.index() * PST_SIZE + pst_index(us, sq), 1);
        }
    }

    for sq in pos.pieces(us, PieceKind::Chariot) {
        let mut targets = attacks::chariot_lines(sq, occ, rot);
        if rules.palace_diagonals {
            targets |= attacks::chariot_diagonals(sq, occ);
        }
        let mobility = (targets & !own).count() as usize;
        add(&mut s, MOBILITY_CHARIOT + mobility.min(MOB_CHARIOT - 1), 1);
        note(targets, PieceKind::Chariot, &mut s, &mut add);
        if (Bitboard::file_mask(sq.file().0) & pos.pieces(us, PieceKind::Soldier)).is_empty() {
            add(&mut s, CHARIOT_OPEN_FILE, 1);
        }
    }
    for sq in pos.pieces(us, PieceKind::Cannon) {
        let mut targets = pos.cannon_targets(sq, occ, cannons);
        if rules.palace_diagonals {
            targets |= attacks::cannon_diagonals(sq, occ, cannons) & !cannons;
        }
        let mobility = (targets & !own).count() as usize;
        add(&mut s, MOBILITY_CANNON + mobility.min(MOB_CANNON - 1), 1);
        note(targets, PieceKind::Cannon, &mut s, &mut add);
        let screens = attacks::chariot_lines(sq, occ, rot) & occ & !cannons;
        if screens.is_empty() {
            add(&mut s, CANNON_NO_SCREEN, 1);
        }
    }
    for sq in pos.pieces(us, PieceKind::Horse) {
        let targets = attacks::horse(sq, occ);
        let mobility = (targets & !own).count() as usize;
        add(&mut s, MOBILITY_HORSE + mobility.min(MOB_HORSE - 1), 1);
        note(targets, PieceKind::Horse, &mut s, &mut add);
        let blocked = (attacks::horse(sq, Bitboard::EMPTY).count() - targets.count()) as i32;
        add(&mut s, HORSE_BLOCKED_LEG, blocked / 2);
    }
    for sq in pos.pieces(us, PieceKind::Elephant) {
        let targets = attacks::elephant(sq, occ, rules.elephant_second_block);
        let mobility = (targets & !own).count() as usize;
        add(&mut s, MOBILITY_ELEPHANT + mobility.min(MOB_ELEPHANT - 1), 1);
        note(targets, PieceKind::Elephant, &mut s, &mut add);
        let blocked = (attacks::elephant(sq, Bitboard::EMPTY, false).count() - targets.count()) as i32;
        add(&mut s, ELEPHANT_BLOCKED_PATH, blocked);
    }
    let soldiers = pos.pieces(us, PieceKind::Soldier);
    for sq in soldiers {
        let targets = attacks::soldier(us, sq, rules.palace_diagonals);
        note(targets, PieceKind::Soldier, &mut s, &mut add);
        let beside = sq.offset(1, 0).is_some_and(|n| soldiers.has(n));
        if beside {
            add(&mut s, SOLDIER_CONNECTED, 1);
        }
    }
    for sq in pos.pieces(us, PieceKind::Guard) {
        all.note(PieceKind::Guard, attacks::palace_steps(sq));
    }
    let general = pos.general(us);
    all.note(PieceKind::General, attacks::palace_steps(general));

    add(&mut s, PALACE_PRESSURE, (pressure[0] & !pressure[1]).count() as i32);
    add(&mut s, PALACE_PRESSURE + 1, (pressure[1] & !pressure[2]).count() as i32);
    add(&mut s, PALACE_PRESSURE + 2, pressure[2].count() as i32);

    // Our general: a file without own cover in front, and guards beside it.
    let ahead = Bitboard::file_mask(general.file().0)
        & match us {
            Color::Cho => Bitboard(!((2u128 << general.index()) - 1)),
            Color::Han => Bitboard((1u128 << general.index()) - 1),
        };
    if (ahead & own).is_empty() {
        add(&mut s, GENERAL_FILE_OPEN, 1);
    }
    let shield = (attacks::palace_steps(general) & pos.pieces(us, PieceKind::Guard)).count() as i32;
    add(&mut s, GUARD_SHIELD, shield);
    (s, all)
}

/// The terms of a position as text, for the `eval` command.
pub fn describe(pos: &Position, params: &Params) -> String {
    let mut coefficients = Coefficients::default();
    let value = evaluate_traced(pos, params, &mut coefficients);
    let phase = phase(pos);
    let mut by_term: Vec<(&str, S)> = Vec::new();
    for &(index, count) in &coefficients.terms {
        let (name, _) = Params::term_of(index as usize);
        let contribution = params.w[index as usize] * count as i32;
        match by_term.iter_mut().find(|(n, _)| *n == name) {
            Some((_, s)) => *s += contribution,
            None => by_term.push((name, contribution)),
        }
    }
    by_term.sort_by_key(|(name, _)| TERMS.iter().position(|t| t.0 == *name));
    let mut out = String::from("      Term            |  MG (Cho)  EG (Cho) | blended\n");
    for (name, s) in by_term {
        out.push_str(&format!("{name:>22} | {:>9} {:>9} | {:>7}\n", s.0, s.1, s.blend(phase, MAX_PHASE)));
    }
    out.push_str(&format!("Phase: {phase}/{MAX_PHASE}\n"));
    out.push_str(&format!("Total evaluation: {value} (side to move)"));
    out
}

/// The evaluation the search starts from, in centipawns for the side to move: the net's (scaled as the search
/// scales it) where one is given, the hand-written one otherwise, then bent by the move-count rule. `None` in
/// check, where the search never evaluates.
pub fn static_value(pos: &Position, params: &Params, net: Option<(&nnue::Network, nnue::Kernel)>) -> Option<i32> {
    if pos.in_check_by_rules() {
        return None;
    }
    let board = match net {
        Some((net, kernel)) => {
            let acc = nnue::Accumulator::refresh(net, kernel, pos);
            nnue::search_value(nnue::output(net, kernel, &acc, pos), pos)
        }
        None => evaluate(pos, params),
    };
    Some(toward_move_limit(board, pos))
}

/// The reference's closing line of `eval`: `static_value` in soldiers from Cho's side, or why there is none.
pub fn final_evaluation_line(pos: &Position, params: &Params, net: Option<(&nnue::Network, nnue::Kernel)>) -> String {
    match static_value(pos, params, net) {
        None => "Final evaluation: none (in check)".to_string(),
        Some(v) => {
            let cho = if pos.side_to_move() == Color::Cho { v } else { -v };
            let source = if net.is_some() { "net" } else { "classical" };
            format!("Final evaluation       {:+.2} (white side) [{source}]", f64::from(cho) / 100.0)
        }
    }
}
