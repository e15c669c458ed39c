//! The move-count rule seen from the evaluation. Where a rule set ends the game after a number of plies without a
//! capture, a position's worth fades, as that limit nears, from what the board says to what the rule will decide:
//! the evaluation shrinks in proportion to the plies left, and where the rule counts material, the side that
//! would win the count gains a pull that grows as the plies left run out. Fairy-Stockfish's evaluation does the
//! same for the Janggi rule sets (its `eval` prints the result as `Final evaluation`), so with this the two
//! engines score a position alike whatever its halfmove clock.

use crate::board::Position;
use crate::board::rules::Adjudication;

/// The count's pull in centipawns times plies: with `left` plies to the limit the side winning the count gains
/// `COUNT_PULL / left` (15 cp a hundred plies out, the whole of it on the last ply). Fairy-Stockfish's figure:
/// a tenth of its mate value, 3200 internal units, at 208 units a soldier.
pub const COUNT_PULL: i32 = 3200 * 100 / 208;

/// `value` (centipawns, side to move) as the move-count rule bends it; unchanged where the rule set has no such
/// rule.
pub fn toward_move_limit(value: i32, pos: &Position) -> i32 {
    let rules = pos.rules();
    let Some(limit) = rules.move_limit else {
        return value;
    };
    let limit = i32::from(limit);
    let left = (limit - i32::from(pos.halfmove_clock())).max(0);
    let faded = value * left / limit;
    match rules.adjudication {
        Adjudication::Count => {
            let pull = COUNT_PULL / left.max(1);
            if pos.count_winner() == pos.side_to_move() { faded + pull } else { faded - pull }
        }
        Adjudication::Draw => faded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rules;

    fn at(fen: &str, rules: Rules) -> Position {
        Position::from_fen(fen, rules).unwrap()
    }

    const EVEN: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR";

    #[test]
    fn a_fresh_clock_keeps_the_value_and_adds_the_count_winners_small_pull() {
        // Even material: Han wins the count on its komi.
        let cho = at(&format!("{EVEN} w - - 0 1"), Rules::JANGGI);
        let han = at(&format!("{EVEN} b - - 0 1"), Rules::JANGGI);
        assert_eq!(toward_move_limit(40, &cho), 40 - COUNT_PULL / 100);
        assert_eq!(toward_move_limit(40, &han), 40 + COUNT_PULL / 100);
    }

    #[test]
    fn the_value_fades_as_the_limit_nears_and_the_count_takes_over() {
        let half = at(&format!("{EVEN} w - - 50 1"), Rules::JANGGI);
        assert_eq!(toward_move_limit(400, &half), 200 - COUNT_PULL / 50);
        let last = at(&format!("{EVEN} w - - 99 1"), Rules::JANGGI);
        assert_eq!(toward_move_limit(400, &last), 4 - COUNT_PULL);
    }

    #[test]
    fn drawing_rule_sets_fade_without_a_pull_and_those_without_a_limit_keep_the_value() {
        let casual = at(&format!("{EVEN} w - - 50 1"), Rules::CASUAL);
        assert_eq!(toward_move_limit(400, &casual), 200);
        let modern = at(&format!("{EVEN} w - - 100 1"), Rules::MODERN);
        assert_eq!(toward_move_limit(400, &modern), 200 - COUNT_PULL / 100);
        let strict = at(&format!("{EVEN} w - - 90 1"), Rules::STRICT);
        assert_eq!(toward_move_limit(400, &strict), 400);
    }
}
