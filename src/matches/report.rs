//! What a match has played so far: each engine's results against each other (games and game pairs), how the
//! games ended, forfeits and timings. The runner fills it game by game; the final table and the shard summary
//! read it.

use super::pentanomial::{PairBook, Pentanomial};
use super::stats::{Decision, Sprt, Tally};
use crate::batch::shard::Shard;
use crate::board::{Color, Outcome};
use std::collections::BTreeMap;
use std::time::Duration;
/// Termination tags that mean the loser's engine failed, not its play.
const FORFEIT_TAGS: [&str; 4] = ["time forfeit", "illegal move", "abandoned", "stalled connection"];

/// One finished game, from a fresh game or from a PGN file.
pub struct Finished {
    /// The PGN `Round`, from 1, and the opening FEN: they pair the game with its colour-reversed partner.
    pub round: u32,
    pub opening: String,
    /// Cho's and Han's engines.
    pub players: [usize; 2],
    pub outcome: Outcome,
    pub termination: String,
}

/// Everything the final table shows.
pub struct MatchReport {
    pub names: Vec<String>,
    /// `pair[i][j]`: engine i's results against engine j.
    pub pair: Vec<Vec<Tally>>,
    /// `penta[i][j]`: engine i's game-pair results against engine j.
    pub penta: Vec<Vec<Pentanomial>>,
    pairs: PairBook,
    /// The shard of the match this run played, if it played one.
    pub shard: Option<Shard>,
    pub terminations: BTreeMap<String, u32>,
    /// (engine, termination) -> forfeits.
    pub forfeits: BTreeMap<(String, String), u32>,
    /// Games read from the PGN of an earlier run.
    pub resumed: u32,
    /// Games played in this run, their moves, wall time and engine thinking time.
    pub played: u32,
    pub moves: u64,
    /// Engine start-ups and new-game handshakes, outside the games' wall time.
    pub setup: Duration,
    pub game_wall: Duration,
    pub thinking: Duration,
    /// This run's wall time, from the first game's start to the last game's end.
    pub wall: Duration,
    pub sprt: Option<(Sprt, f64, Decision)>,
    pub interrupted: bool,
}

impl MatchReport {
    pub fn new(names: Vec<String>) -> MatchReport {
        let n = names.len();
        MatchReport {
            names,
            pair: vec![vec![Tally::default(); n]; n],
            penta: vec![vec![Pentanomial::default(); n]; n],
            pairs: PairBook::default(),
            shard: None,
            terminations: BTreeMap::new(),
            forfeits: BTreeMap::new(),
            resumed: 0,
            played: 0,
            moves: 0,
            setup: Duration::ZERO,
            game_wall: Duration::ZERO,
            thinking: Duration::ZERO,
            wall: Duration::ZERO,
            sprt: None,
            interrupted: false,
        }
    }

    pub fn add(&mut self, g: &Finished) {
        let [cho, han] = g.players;
        let (a, b) = match g.outcome {
            Outcome::Win(Color::Cho) => {
                (Tally { wins: 1, ..Tally::default() }, Tally { losses: 1, ..Tally::default() })
            }
            Outcome::Win(Color::Han) => {
                (Tally { losses: 1, ..Tally::default() }, Tally { wins: 1, ..Tally::default() })
            }
            Outcome::Draw => (Tally { draws: 1, ..Tally::default() }, Tally { draws: 1, ..Tally::default() }),
        };
        self.pair[cho][han].add(a);
        self.pair[han][cho].add(b);
        if let Some(done) = self.pairs.add(g.round, &g.opening, g.players, g.outcome) {
            let (lo, hi) = done.engines;
            self.penta[lo][hi].add(done.points);
            self.penta[hi][lo] = self.penta[lo][hi].flipped();
        }
        *self.terminations.entry(g.termination.clone()).or_default() += 1;
        if FORFEIT_TAGS.contains(&g.termination.as_str())
            && let Outcome::Win(winner) = g.outcome
        {
            let loser = g.players[(!winner).index()];
            *self.forfeits.entry((self.names[loser].clone(), g.termination.clone())).or_default() += 1;
        }
    }

    /// Engine i against the field.
    pub fn total(&self, i: usize) -> Tally {
        let mut t = Tally::default();
        for row in &self.pair[i] {
            t.add(*row);
        }
        t
    }

    /// Games whose colour-reversed partner is not (yet) among the finished games.
    pub fn unpaired_games(&self) -> usize {
        self.pairs.unpaired()
    }

    pub fn games(&self) -> u32 {
        (0..self.names.len()).map(|i| self.total(i).games()).sum::<u32>() / 2
    }

    /// The share of the games' wall time not spent in the engines' searches.
    pub fn overhead(&self) -> f64 {
        if self.game_wall.is_zero() {
            return 0.0;
        }
        1.0 - self.thinking.as_secs_f64() / self.game_wall.as_secs_f64()
    }
}
