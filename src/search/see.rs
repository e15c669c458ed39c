//! Static exchange evaluation: the material outcome of a series of captures on one point, each side capturing
//! with its least valuable piece. Occupancy is updated as pieces are taken, so cannons gain and lose screens and
//! horses and elephants are unblocked exactly as on the board.

use crate::board::attacks;
use crate::board::{Bitboard, Move, PieceKind, Position};

/// Piece values for exchanges, indexed by `PieceKind::index`.
pub type PieceValues = [i32; 7];

/// Whether the exchange started by `m` gains at least `threshold`, the pieces valued as `values`. Where `pins`
/// asks (as the search does), a piece whose capture would leave its own general attacked (pinned to it by a
/// chariot's line, a cannon's screen or a horse's or elephant's leg, on the board as the exchange has left it)
/// takes no part: in Janggi a defender pinned to its general by a cannon is a common reason a capture wins.
pub fn see_ge_pinned(pos: &Position, m: Move, threshold: i32, values: &PieceValues, pins: bool) -> bool {
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
        let mut attackers =
            pos.attackers_to(to, occ, rotated, on_target == PieceKind::Cannon) & pos.color_bb(side) & occ;
        let Some((sq, kind)) = (loop {
            let Some((sq, kind)) = least_valuable(pos, attackers) else {
                break None;
            };
            // (The general's own safety is tested below.)
            if pins && kind != PieceKind::General && !pos.capture_keeps_general_safe(side, sq, to, kind, occ, rotated) {
                attackers = attackers.without(sq);
                continue;
            }
            break Some((sq, kind));
        }) else {
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
    use crate::search::params::SEE_VALUE;

    /// Whether the exchange started by `m` gains at least `threshold`, the pieces valued as `SEE_VALUE`.
    fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
        see_ge_with(pos, m, threshold, &SEE_VALUE)
    }

    /// The same with the pieces valued as `values`, every attacker taking part.
    fn see_ge_with(pos: &Position, m: Move, threshold: i32, values: &PieceValues) -> bool {
        see_ge_pinned(pos, m, threshold, values, false)
    }

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
        // counts that 290 lost, values nearer the evaluation's centipawns 154.
        let near_eval: PieceValues = [20000, 192, 613, 385, 250, 163, 96];
        let pos = Position::from_fen("4k4/9/9/4p4/4p4/9/3N5/9/4K4/9 w - - 0 1", Rules::JANGGI).unwrap();
        let m = Move::parse("d4e6", Notation::Uci).unwrap();
        assert!(!see_ge_with(&pos, m, -200, &SEE_VALUE) && see_ge_with(&pos, m, -290, &SEE_VALUE));
        assert!(see_ge_with(&pos, m, -200, &near_eval) && !see_ge_with(&pos, m, -153, &near_eval));
    }

    #[test]
    fn a_defender_pinned_to_its_general_does_not_retake_where_pins_are_counted() {
        let after = |moves: &[&str]| {
            let fen = "2b2ab2/3ak4/2ncc4/2R1nppp1/8r/P1P6/4BPPP1/2N1C1NCr/4K4/R2A1A3 w - - 7 14";
            let mut pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
            for m in moves {
                pos.make_move(Move::parse(m, Notation::Uci).unwrap());
            }
            pos
        };
        // Han's chariot on i3 takes Cho's cannon on h3, which Cho's cannon on e3 can retake over the horse on g3.
        let takes = Move::parse("i3h3", Notation::Uci).unwrap();
        let cannon = SEE_VALUE[PieceKind::Cannon.index()];
        let free = after(&["e2e1"]);
        assert!(!see_ge_pinned(&free, takes, 0, &SEE_VALUE, false));
        assert!(!see_ge_pinned(&free, takes, 0, &SEE_VALUE, true));
        // With Han's cannon on e5, the cannon on e3 is the second piece between it and Cho's general on e1 (the
        // elephant on e4 the screen): leaving the file would give check, so the chariot wins the cannon.
        let pinned = after(&["e2e1", "e8e5", "a1b1"]);
        assert!(!see_ge_pinned(&pinned, takes, 0, &SEE_VALUE, false));
        assert!(see_ge_pinned(&pinned, takes, cannon, &SEE_VALUE, true));
        assert!(!see_ge_pinned(&pinned, takes, cannon + 1, &SEE_VALUE, true));
    }

    #[test]
    fn a_capture_can_give_a_cannon_its_screen() {
        // Cho's horse takes on c6; Han's cannon on c10 then jumps the soldier on c8 to retake.
        let fen = "2c1k4/9/2p6/9/2p6/9/1N7/9/4K4/9 w - - 0 1";
        assert!(!see(fen, "b4c6", 1));
    }
}
