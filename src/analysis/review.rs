//! What `janggi analyze` finds, per game and per position, as plain data: the JSON lines and the HTML review
//! page are both written from it.

use crate::board::{Color, Move, Rules};
use crate::score::Score;

/// Scores shown to people are clamped to this many centipawns before losses are computed and the evaluation is
/// drawn, and mates count as this much: a move from "mate in 5" to "+15 pawns" is no blunder.
pub const CLAMP_CP: i32 = 1000;

/// One analysed game.
#[derive(Clone, Debug)]
pub struct GameReview {
    /// The game's number in the input, from 1.
    pub number: usize,
    /// Cho's player (PGN's White) and Han's (Black).
    pub cho: Option<String>,
    pub han: Option<String>,
    pub result: Option<String>,
    /// How the game ended: the record's `Termination`, else the rule that ended it on the board.
    pub termination: Option<String>,
    pub event: Option<String>,
    pub rules: Rules,
    pub start_fen: String,
    pub moves: Vec<MoveReview>,
    /// Blunders of Cho and Han (indexed by `Color::index`).
    pub blunders: [u32; 2],
    /// The loss in centipawns that made a move a blunder.
    pub blunder_cp: i32,
}

/// One move of a game and its judgement.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// 1 for Cho's first move.
    pub ply: usize,
    pub side: Color,
    pub played: Move,
    /// The move in Korean notation.
    pub korean: String,
    /// The position before the move.
    pub fen: String,
    /// The judgement, or why the positions around the move could not be analysed.
    pub judgement: Result<Judgement, String>,
}

/// The engine's view of a move: centipawn values are from the mover's view, clamped, mates at the clamp.
#[derive(Clone, Debug)]
pub struct Judgement {
    pub best: Option<Move>,
    pub best_korean: Option<String>,
    pub pv: Vec<Move>,
    pub depth: u32,
    pub score_before: Score,
    /// `None` when the move ended the game.
    pub score_after: Option<Score>,
    pub before_cp: i32,
    pub after_cp: i32,
    pub loss: i32,
    pub blunder: bool,
    /// The rule that ended the game with this move.
    pub ends_game: Option<String>,
}

impl MoveReview {
    /// The value after the move from Cho's view (clamped centipawns), when the move was judged.
    pub fn cho_value_after(&self) -> Option<i32> {
        let j = self.judgement.as_ref().ok()?;
        Some(if self.side == Color::Cho { j.after_cp } else { -j.after_cp })
    }

    pub fn is_blunder(&self) -> bool {
        self.judgement.as_ref().is_ok_and(|j| j.blunder)
    }
}

/// One analysed position of FEN or EPD input.
#[derive(Clone, Debug)]
pub struct PositionReview {
    /// The input line.
    pub line: usize,
    pub id: Option<String>,
    /// The position and the engine's finding, or why the line could not be analysed.
    pub outcome: Result<PositionFinding, String>,
}

#[derive(Clone, Debug)]
pub struct PositionFinding {
    pub fen: String,
    pub rules: Rules,
    pub best: Option<Move>,
    pub best_korean: Option<String>,
    /// From the side to move's view.
    pub score: Score,
    pub pv: Vec<Move>,
    pub depth: u32,
    /// For a finished game: the result from the side to move's view and the reason.
    pub over: Option<(&'static str, &'static str)>,
}
