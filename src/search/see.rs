//! Static exchange evaluation: the material outcome of a series of captures on one point, each side capturing
//! with its least valuable piece. Occupancy is updated as pieces are taken, so cannons gain and lose screens and
//! horses and elephants are unblocked exactly as on the board.

use super::params::SEE_VALUE;
use crate::board::attacks;
use crate::board::{Bitboard, Move, PieceKind, Position};

/// Piece values for exchanges, indexed by `PieceKind::index`.
pub type PieceValues = [i32; 7];

/// Whether the exchange started by `m` gains at least `threshold`, the pieces valued as `SEE_VALUE`.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    see_ge_with(pos, m, threshold, &SEE_VALUE)
}

/// Whether the exchange started by `m` gains at least `threshold`, the pieces valued as `values`.
pub fn see_ge_with(pos: &Position, m: Move, threshold: i32, values: &PieceValues) -> bool {
    let value = |kind: PieceKind| values[kind.index()];
    if m.is_pass() {
        return 0 >= threshold;
    }
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    let mut swap = pos.piece_at(to).map_or(0, |p| value(p.kind())) - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(mover.kind()) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(from);
    let mut rotated = pos.rotated_occupancy() & !(1u128 << attacks::rotated_index(from));
    if pos.piece_at(to).is_none() {
        occ = occ.with(to);
        rotated |= 1u128 << attacks::rotated_index(to);
    }
    let mut side = !mover.color();
    let mut on_target = mover.kind();
    let mut result = 1;
    loop {
        let attackers = pos.attackers_to(to, occ, rotated, on_target == PieceKind::Cannon) & pos.color_bb(side) & occ;
        let Some((sq, kind)) = least_valuable(pos, attackers) else {
            break;
        };
        // Capturing with the general into a defended point would be illegal.
        if kind == PieceKind::General {
            let defended = pos.attackers_to(to, occ.without(sq), rotated, false) & pos.color_bb(!side) & occ;
            if defended.any() {
                break;
            }
        }
        result ^= 1;
        occ = occ.without(sq);
        rotated &= !(1u128 << attacks::rotated_index(sq));
        swap = value(kind) - swap;
        on_target = kind;
        if swap < result {
            break;
        }
        side = !side;
    }
    result == 1
}

fn least_valuable(pos: &Position, attackers: Bitboard) -> Option<(crate::board::Square, PieceKind)> {
    const ORDER: [PieceKind; 7] = [
        PieceKind::Soldier,
        PieceKind::Guard,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Chariot,
        PieceKind::General,
    ];
    for kind in ORDER {
        if let Some(sq) = (attackers & pos.kind_bb(kind)).first() {
            return Some((sq, kind));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Notation, Rules};

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
        see_ge(&pos, Move::parse(mv, Notation::Uci).unwrap(), threshold)
    }

    #[test]
    fn undefended_piece_is_won() {
        // Chariot a1 takes a soldier on a7 that nothing defends.
        assert!(see("4k4/9/9/p8/9/9/9/9/4K4/R8 w - - 0 1", "a1a7", 100));
    }

    #[test]
    fn defended_soldier_costs_the_chariot() {
        // The soldier on a7 is defended by the chariot on a10.
        let fen = "r3k4/9/9/p8/9/9/9/9/4K4/R8 w - - 0 1";
        assert!(!see(fen, "a1a7", 0));
        assert!(see(fen, "a1a7", -1000));
    }

    #[test]
    fn the_values_decide_what_an_exchange_costs() {
        // Cho's horse takes a soldier on e6 that a soldier on e7 defends: a horse for a soldier. `SEE_VALUE`
        // counts that 290 lost, the evaluation's values 154.
        use crate::search::params::SEE_VALUE_EVAL;
        let pos = Position::from_fen("4k4/9/9/4p4/4p4/9/3N5/9/4K4/9 w - - 0 1", Rules::JANGGI).unwrap();
        let m = Move::parse("d4e6", Notation::Uci).unwrap();
        assert!(!see_ge_with(&pos, m, -200, &SEE_VALUE) && see_ge_with(&pos, m, -290, &SEE_VALUE));
        assert!(see_ge_with(&pos, m, -200, &SEE_VALUE_EVAL) && !see_ge_with(&pos, m, -153, &SEE_VALUE_EVAL));
    }

    #[test]
    fn a_capture_can_give_a_cannon_its_screen() {
        // Cho's horse takes on c6; Han's cannon on c10 then jumps the soldier on c8 to retake.
        let fen = "2c1k4/9/2p6/9/2p6/9/1N7/9/4K4/9 w - - 0 1";
        assert!(!see(fen, "b4c6", 1));
    }
}
