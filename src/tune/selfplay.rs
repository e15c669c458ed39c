//! Self-play games for tuning: our engine against itself at a fixed node budget per move, from random setups
//! and a few random opening moves, every game refereed by the rules. Each game yields its quiet positions labelled
//! with the final result.

use crate::board::setups::all_setups;
use crate::board::splitmix::SplitMix;
use crate::board::{Color, Outcome, Position, Rules};
use crate::search::engine::{Engine, Finish};
use crate::search::{self, Limits};
use rayon::prelude::*;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Random plies at the start of each game, so that games differ.
pub const RANDOM_OPENING_PLIES: usize = 6;
/// Games that last longer are ended by count (they are cycling).
pub const MAX_GAME_PLIES: usize = 400;
/// Hash per game (MB).
const HASH_MB: usize = 4;

/// A labelled position: FEN and the result for Cho (1 win, 0.5 draw, 0 loss).
#[derive(Clone, Debug)]
pub struct Sample {
    pub fen: String,
    pub result: f64,
}

/// Plays one game; returns its quiet positions with the result.
pub fn play_game(seed: u64, nodes: u64, rules: Rules) -> Vec<Sample> {
    let mut rng = SplitMix(seed);
    let setups = all_setups();
    let fen = &setups[rng.below(setups.len() as u64) as usize];
    let mut pos = Position::from_fen(fen, rules).expect("setups are valid");
    let mut engine = Engine::silent(HASH_MB);
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let mut recorded: Vec<String> = Vec::new();
    let outcome = loop {
        if let Some(end) = pos.game_end() {
            break end.outcome;
        }
        if pos.game_ply() >= MAX_GAME_PLIES {
            break Outcome::Win(pos.count_winner());
        }
        let moves = pos.legal_moves();
        let m = if pos.game_ply() < RANDOM_OPENING_PLIES {
            // Random, but never a pass: two early passes would end the game.
            let quiet: Vec<_> = moves.iter().copied().filter(|m| !m.is_pass()).collect();
            quiet[rng.below(quiet.len() as u64) as usize]
        } else {
            engine.set_game(pos.clone());
            let result = match engine.think(&limits) {
                Finish::Best(outcome) => outcome,
                Finish::NoMove(end) => break end.outcome,
            };
            let Some(best) = result.best else { break pos.no_move_end().outcome };
            // Quiet positions only: not in check, and the search's choice is no capture.
            let quiet = !pos.in_check() && (best.is_pass() || pos.piece_at(best.to()).is_none());
            if quiet && result.score.abs() < search::params::MATE_BOUND {
                recorded.push(pos.fen());
            }
            best
        };
        pos.make_move(m);
    };
    let result = match outcome {
        Outcome::Win(Color::Cho) => 1.0,
        Outcome::Win(Color::Han) => 0.0,
        Outcome::Draw => 0.5,
    };
    recorded.into_iter().map(|fen| Sample { fen, result }).collect()
}

/// Plays `games` games on rayon's pool, appending `fen;result` lines to `out` as each game ends.
pub fn generate(games: usize, nodes: u64, seed: u64, out: &mut (dyn Write + Send)) -> std::io::Result<usize> {
    let out = Mutex::new(out);
    let done = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    (0..games).into_par_iter().try_for_each(|g| -> std::io::Result<()> {
        let samples = play_game(seed ^ (g as u64).wrapping_mul(0xA24B_AED4_963E_E407), nodes, Rules::JANGGI);
        let mut text = String::new();
        for s in &samples {
            text.push_str(&format!("{};{}\n", s.fen, s.result));
        }
        let mut w = out.lock().expect("output lock");
        w.write_all(text.as_bytes())?;
        w.flush()?;
        written.fetch_add(samples.len(), Ordering::Relaxed);
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(50) || n == games {
            eprintln!("{n}/{games} games, {} positions", written.load(Ordering::Relaxed));
        }
        Ok(())
    })?;
    Ok(written.load(Ordering::Relaxed))
}
