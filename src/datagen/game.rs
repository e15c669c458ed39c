//! One self-play game for training data: an opening, a few random plies, then every move searched by the engine
//! to a fixed node count or depth; the quiet positions are kept with the search's score and, once the game is
//! over, its result.

use super::record::{Centipawns, GameResult, Record};
use crate::board::rules::Adjudication;
use crate::board::splitmix::SplitMix;
use crate::board::{Color, Outcome, Position, Rules};
use crate::eval::evaluator::Evaluator;
use crate::search::Limits;
use crate::search::engine::{Engine, Finish};

/// How every game of a run is played and which positions it keeps.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub rules: Rules,
    /// The search limit of every move (nodes and/or depth).
    pub limits: Limits,
    /// Random legal moves (never a pass) played first, so that games from the same opening differ.
    pub random_plies: usize,
    /// Plies (from the opening) after which the game is decided as the rule set decides a move-count end.
    pub max_plies: usize,
    /// Positions whose score is beyond this (centipawns) are not kept.
    pub score_limit: i32,
    /// End the game early once the score stays at or beyond this many centipawns, for one side, for
    /// `resign_plies` plies in a row (0 = never).
    pub resign_score: i32,
    pub resign_plies: usize,
    /// The transposition table of the game's engine (MB).
    pub hash_mb: usize,
    /// The evaluation the games are played with (generation 0: classical; later: the previous net).
    pub evaluator: Evaluator,
}

/// How a game ended when the rule set did not end it: decided as the rule set decides its move-count rule.
fn adjudicated(pos: &Position) -> Outcome {
    match pos.rules().adjudication {
        Adjudication::Count => Outcome::Win(pos.count_winner()),
        Adjudication::Draw => Outcome::Draw,
    }
}

fn result_for(outcome: Outcome, side: Color) -> GameResult {
    match outcome {
        Outcome::Win(c) if c == side => GameResult::Win,
        Outcome::Win(_) => GameResult::Loss,
        Outcome::Draw => GameResult::Draw,
    }
}

/// Plays one game from `opening` with the random choices drawn from `seed`; returns the kept positions.
pub fn play(opening: &str, seed: u64, settings: &GameSettings) -> Result<Vec<Record>, String> {
    let mut rng = SplitMix(seed);
    let mut pos = Position::from_fen(opening, settings.rules).map_err(|e| format!("bad opening '{opening}': {e}"))?;
    let mut engine = Engine::silent(settings.hash_mb);
    engine.set_evaluator(settings.evaluator.clone());
    // Kept positions; their results are filled in when the game is over.
    let mut kept: Vec<Record> = Vec::new();
    // Plies in a row that one side (the colour) has been judged winning by at least the resign score.
    let mut decided: Option<(Color, usize)> = None;
    let mut plies = 0;
    let outcome = loop {
        if let Some(end) = pos.game_end() {
            break end.outcome;
        }
        if plies >= settings.max_plies {
            break adjudicated(&pos);
        }
        let m = if plies < settings.random_plies {
            // Random, but never a pass: two early passes would end the game.
            let moves: Vec<_> = pos.legal_moves().iter().copied().filter(|m| !m.is_pass()).collect();
            if moves.is_empty() {
                break adjudicated(&pos);
            }
            moves[rng.below(moves.len() as u64) as usize]
        } else {
            engine.set_game(pos.clone());
            let result = match engine.think(&settings.limits) {
                Finish::Best(outcome) => outcome,
                Finish::NoMove(end) => break end.outcome,
            };
            let Some(best) = result.best else { break pos.no_move_end().outcome };
            let quiet = !pos.in_check() && (best.is_pass() || pos.piece_at(best.to()).is_none());
            if quiet && result.score.abs() <= settings.score_limit {
                // Within the limit, which is below i16's range.
                let score = Centipawns(result.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16);
                kept.push(Record::new(&pos, score, GameResult::Draw));
            }
            if settings.resign_plies > 0 {
                let ahead = match result.score {
                    s if s >= settings.resign_score => Some(pos.side_to_move()),
                    s if s <= -settings.resign_score => Some(!pos.side_to_move()),
                    _ => None,
                };
                decided = match (ahead, decided) {
                    (Some(c), Some((d, n))) if c == d => Some((c, n + 1)),
                    (Some(c), _) => Some((c, 1)),
                    (None, _) => None,
                };
                if let Some((winner, n)) = decided
                    && n >= settings.resign_plies
                {
                    break Outcome::Win(winner);
                }
            }
            best
        };
        pos.make_move(m);
        plies += 1;
    };
    for r in &mut kept {
        r.result = result_for(outcome, r.side);
    }
    Ok(kept)
}
