//! The six rule sets as data. Everything that differs between them is a field here; move generation and the game
//! status read these fields and never the rule set's name.

use std::fmt;

/// What facing generals (bikjang) do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bikjang {
    /// No effect at all.
    Ignored,
    /// The side facing bikjang must pass or separate the generals; a pass in bikjang ends the game.
    PassOrBreak,
    /// The next move must separate the generals, as if in check (no pass exists).
    MustBreak,
}

/// How a game that ends without a winner on the board is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudication {
    /// By material count (Han gets a komi).
    Count,
    Draw,
}

/// What happens to a side that has no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoMove {
    /// It loses, in check or not.
    Loss,
    /// It loses when in check (checkmate); otherwise the game is drawn.
    LossInCheckElseDraw,
}

/// One rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub name: &'static str,
    /// Whether the pass exists.
    pub pass: bool,
    pub bikjang: Bikjang,
    /// How passes, bikjang, repetition and the move-count rule are decided.
    pub adjudication: Adjudication,
    /// The occurrence of a position that ends the game by repetition (3 = third time), if repetition ends games.
    pub repetition: Option<u8>,
    /// Whether a side that repeats positions by checking every move loses.
    pub perpetual_check_loses: bool,
    /// Plies without a capture after which the game ends, if such a rule exists.
    pub move_limit: Option<u16>,
    /// The janggimodern shuttle rule (a piece moving back and forth loses).
    pub shuttle: bool,
    pub no_move: NoMove,
    /// Whether chariots, cannons and soldiers use the palace diagonals.
    pub palace_diagonals: bool,
    /// Whether an elephant is also blocked on the diagonal point after its first, straight step.
    pub elephant_second_block: bool,
}

/// Material points used by counting, in half points so that Han's 1.5-point komi is whole.
pub mod count {
    pub const CHARIOT: i32 = 26;
    pub const CANNON: i32 = 14;
    pub const HORSE: i32 = 10;
    pub const ELEPHANT: i32 = 6;
    pub const GUARD: i32 = 6;
    pub const SOLDIER: i32 = 4;
    /// Han's komi: 1.5 points.
    pub const HAN_BONUS: i32 = 3;
}

const HOST: Rules = Rules {
    name: "janggi",
    pass: true,
    bikjang: Bikjang::PassOrBreak,
    adjudication: Adjudication::Count,
    repetition: Some(3),
    perpetual_check_loses: true,
    move_limit: Some(100),
    shuttle: false,
    no_move: NoMove::Loss,
    palace_diagonals: true,
    elephant_second_block: true,
};

impl Rules {
    pub const JANGGI: Rules = HOST;
    pub const TRADITIONAL: Rules = Rules { name: "janggitraditional", adjudication: Adjudication::Draw, ..HOST };
    pub const MODERN: Rules = Rules {
        name: "janggimodern",
        bikjang: Bikjang::Ignored,
        repetition: Some(4),
        move_limit: Some(200),
        shuttle: true,
        ..HOST
    };
    pub const CASUAL: Rules =
        Rules { name: "janggicasual", bikjang: Bikjang::Ignored, adjudication: Adjudication::Draw, ..HOST };
    pub const BASIC: Rules = Rules {
        name: "janggibasic",
        pass: false,
        bikjang: Bikjang::Ignored,
        adjudication: Adjudication::Draw,
        repetition: None,
        perpetual_check_loses: false,
        move_limit: Some(120),
        shuttle: false,
        no_move: NoMove::Loss,
        palace_diagonals: false,
        elephant_second_block: false,
    };
    pub const STRICT: Rules = Rules {
        name: "janggistrict",
        pass: false,
        bikjang: Bikjang::MustBreak,
        adjudication: Adjudication::Draw,
        repetition: None,
        perpetual_check_loses: false,
        move_limit: None,
        shuttle: false,
        no_move: NoMove::LossInCheckElseDraw,
        palace_diagonals: true,
        elephant_second_block: true,
    };

    /// Every rule set, in the order the `UCI_Variant` option lists them.
    pub const ALL: [Rules; 6] =
        [Rules::JANGGI, Rules::MODERN, Rules::CASUAL, Rules::TRADITIONAL, Rules::BASIC, Rules::STRICT];

    /// The rule sets that Fairy-Stockfish also implements.
    pub const HOSTED: [Rules; 4] = [Rules::JANGGI, Rules::TRADITIONAL, Rules::MODERN, Rules::CASUAL];

    /// Looks a rule set up by its variant name (case-insensitive).
    pub fn by_name(name: &str) -> Option<Rules> {
        Rules::ALL.into_iter().find(|r| r.name.eq_ignore_ascii_case(name.trim()))
    }

    pub fn names() -> impl Iterator<Item = &'static str> {
        Rules::ALL.iter().map(|r| r.name)
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::JANGGI
    }
}

/// A variant name that names none of the rule sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Rules::names().collect();
        write!(f, "unknown variant '{}' (one of: {})", crate::untrusted::shorten(&self.0), names.join(", "))
    }
}

impl std::error::Error for UnknownVariant {}

impl std::str::FromStr for Rules {
    type Err = UnknownVariant;

    /// A rule set by its variant name, case-insensitive.
    fn from_str(name: &str) -> Result<Rules, UnknownVariant> {
        Rules::by_name(name).ok_or_else(|| UnknownVariant(name.to_string()))
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}
