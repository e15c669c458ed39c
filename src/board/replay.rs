//! A position reached from a FEN and moves written as text: the one way every caller (the protocol's `position`,
//! `perft`, `status`, PGN replay) turns a move list into a position and says which move was wrong and why.

use super::{FenError, Move, Notation, Position, Rules};
use std::fmt;

/// Why a move written as text cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is no move in the notation.
    Unreadable,
    /// The game ended with the move before (two passes, a pass under bikjang).
    GameOver,
    Illegal,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::Unreadable => "not a move in this notation",
            MoveError::GameOver => "the game is already over",
            MoveError::Illegal => "illegal in this position",
        })
    }
}

/// A move of a list that could not be played: its place in the list (from 1), its text and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    pub ply: usize,
    pub text: String,
    pub why: MoveError,
}

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} '{}' {}", self.ply, crate::untrusted::shorten(&self.text), self.why)
    }
}

impl std::error::Error for BadMove {}

/// Why a FEN and a move list give no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    Fen(FenError),
    Move(BadMove),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Fen(e) => write!(f, "bad FEN: {e}"),
            SetupError::Move(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SetupError {}

impl Position {
    /// Reads one move and checks that it is legal here.
    pub fn parse_move(&self, text: &str, notation: Notation) -> Result<Move, MoveError> {
        match Move::parse(text, notation) {
            None => Err(MoveError::Unreadable),
            Some(m) if self.is_legal(m) => Ok(m),
            Some(_) if self.ended_by_last_move() => Err(MoveError::GameOver),
            Some(_) => Err(MoveError::Illegal),
        }
    }

    /// Plays the moves in order. At the first bad one it stops, leaving the position after the move before it.
    pub fn play_moves<S: AsRef<str>>(&mut self, moves: &[S], notation: Notation) -> Result<(), BadMove> {
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            match self.parse_move(text, notation) {
                Ok(m) => self.make_move(m),
                Err(why) => return Err(BadMove { ply: i + 1, text: text.to_string(), why }),
            }
        }
        Ok(())
    }

    /// The position after playing `moves` from `fen`.
    pub fn from_fen_moves<S: AsRef<str>>(
        fen: &str,
        rules: Rules,
        moves: &[S],
        notation: Notation,
    ) -> Result<Position, SetupError> {
        let mut pos = Position::from_fen(fen, rules).map_err(SetupError::Fen)?;
        pos.play_moves(moves, notation).map_err(SetupError::Move)?;
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;

    #[test]
    fn a_move_list_reaches_its_position_or_names_the_bad_move() {
        let pos = Position::from_fen_moves(START_FEN, Rules::JANGGI, &["h1g3", "h10g8"], Notation::Uci).unwrap();
        assert_eq!(pos.history().len(), 2);
        let err = Position::from_fen_moves(START_FEN, Rules::JANGGI, &["h1g3", "h1g3"], Notation::Uci).unwrap_err();
        assert_eq!(err, SetupError::Move(BadMove { ply: 2, text: "h1g3".into(), why: MoveError::Illegal }));
        let err = Position::from_fen_moves(START_FEN, Rules::JANGGI, &["e2e2", "e9e9", "h1g3"], Notation::Uci);
        assert!(matches!(err, Err(SetupError::Move(BadMove { ply: 3, why: MoveError::GameOver, .. }))));
        let err = Position::from_fen_moves(START_FEN, Rules::JANGGI, &["zz"], Notation::Uci).unwrap_err();
        assert_eq!(err.to_string(), "move 1 'zz' not a move in this notation");
        assert!(matches!(
            Position::from_fen_moves::<&str>("9/9", Rules::JANGGI, &[], Notation::Uci),
            Err(SetupError::Fen(_))
        ));
    }

    #[test]
    fn a_bad_move_keeps_the_moves_before_it() {
        let mut pos = Position::from_fen(START_FEN, Rules::JANGGI).unwrap();
        assert!(pos.play_moves(&["h1g3", "a1a1"], Notation::Uci).is_err());
        assert_eq!(pos.history().len(), 1);
    }
}
