//! A score as engines report it and people read it: centipawns, or moves to mate. It sits below the protocol, the
//! analysis and the matches, so that they share it without the analysis depending on a wire format: the protocol
//! writes and reads it in each dialect's words (`protocol::message`), the search's facade turns its internal
//! scores into it.

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when being mated, 0 when mated already.
    Mate(i32),
}

impl Score {
    /// The same score from the other side's view.
    pub fn negated(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// Whether this is a mate score.
    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negating_turns_the_view_to_the_other_side() {
        assert_eq!(Score::Cp(35).negated(), Score::Cp(-35));
        assert_eq!(Score::Mate(3).negated(), Score::Mate(-3));
        assert_eq!(Score::Mate(-2).negated().negated(), Score::Mate(-2));
        assert!(Score::Mate(0).is_mate() && !Score::Cp(0).is_mate());
    }
}
