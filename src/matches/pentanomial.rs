//! Game-pair (pentanomial) statistics, as fishtest and fastchess report them. A match plays each opening twice
//! with colours reversed; the two games form a pair whose result for one engine is 0, ½, 1, 1½ or 2 points.
//! Pairs cancel most of an opening's bias, so the variance of the pair scores is smaller than the trinomial
//! per-game variance suggests, and the Elo error and the SPRT are computed from the pairs.
//!
//! Formulas (the figures of fishtest's `stat_util.get_elo`, `LLRcalc.LLR_logistic` and fastchess's
//! `EloPentanomial`): with N pairs and p_k the share of pairs scoring k/4 per game (k = 0..4),
//! - score s = Σ p_k k/4; pair variance v = Σ p_k (k/4 − s)²;
//! - Elo = −400 log10(1/s − 1), its 95% error half the Elo width of s ± 1.96 √(v/N);
//! - normalised Elo = (s − ½) / √(2v) · 800/ln 10, its error the same width in normalised Elo;
//! - LOS = Φ((s − ½) / √(v/N));
//! - GSPRT: the generalised log-likelihood ratio of the five counts (zero counts taken as 0.001), logistic Elo.

use super::stats::{Sprt, Z_95, elo_from_score, erf, generalised_llr};
use crate::board::{Color, Outcome};
use std::collections::BTreeMap;

/// 800 / ln 10: normalised Elo per unit of t-value (fishtest's `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 347.435_585_522_601_46;

/// Half-points one engine scored in a pair of games: 0 (two losses) to 4 (two wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PairPoints(u8);

impl PairPoints {
    pub fn new(half_points: u8) -> Option<PairPoints> {
        (half_points <= 4).then_some(PairPoints(half_points))
    }

    pub fn half_points(self) -> u8 {
        self.0
    }
}

/// Counts of pair results from one engine's view: `counts[k]` pairs scored k half-points (0, ½, 1, 1½, 2 points).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl Pentanomial {
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    pub fn add(&mut self, p: PairPoints) {
        self.counts[usize::from(p.0)] += 1;
    }

    /// The same pairs from the other engine's view.
    pub fn flipped(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }

    fn shares(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        let n = f64::from(self.pairs().max(1));
        self.counts.iter().enumerate().map(move |(k, &c)| (k as f64 / 4.0, f64::from(c) / n))
    }

    /// Points per game in [0, 1]; 0.5 before any pair.
    pub fn score(&self) -> f64 {
        if self.pairs() == 0 {
            return 0.5;
        }
        self.shares().map(|(a, p)| a * p).sum()
    }

    /// Variance of one pair's per-game score.
    pub fn variance(&self) -> f64 {
        let s = self.score();
        self.shares().map(|(a, p)| p * (a - s).powi(2)).sum()
    }

    /// The standard error of the score.
    fn standard_error(&self) -> f64 {
        (self.variance() / f64::from(self.pairs())).sqrt()
    }

    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Half the width of the 95% interval of the Elo difference: infinite when the interval reaches a score of 0
    /// or 1, NaN before any pair.
    pub fn elo_error_95(&self) -> f64 {
        if self.pairs() == 0 {
            return f64::NAN;
        }
        let (s, margin) = (self.score(), Z_95 * self.standard_error());
        if s - margin <= 0.0 || s + margin >= 1.0 {
            return f64::INFINITY;
        }
        (elo_from_score(s + margin) - elo_from_score(s - margin)) / 2.0
    }

    /// Normalised Elo: the score's distance from ½ in units of the per-game standard deviation (√(2v)), scaled
    /// so that small differences read like logistic Elo. NaN when every pair scored the same.
    pub fn nelo(&self) -> f64 {
        let v = self.variance();
        if self.pairs() == 0 || v <= 0.0 {
            return f64::NAN;
        }
        (self.score() - 0.5) / (2.0 * v).sqrt() * NELO_PER_T
    }

    /// Half the width of the 95% interval of the normalised Elo.
    pub fn nelo_error_95(&self) -> f64 {
        let v = self.variance();
        if self.pairs() == 0 || v <= 0.0 {
            return f64::NAN;
        }
        Z_95 * self.standard_error() / (2.0 * v).sqrt() * NELO_PER_T
    }

    /// Likelihood of superiority from the pair scores.
    pub fn los(&self) -> f64 {
        if self.pairs() == 0 {
            return 0.5;
        }
        let (d, se) = (self.score() - 0.5, self.standard_error());
        if se <= 0.0 {
            return if d > 0.0 {
                1.0
            } else if d < 0.0 {
                0.0
            } else {
                0.5
            };
        }
        0.5 * (1.0 + erf(d / (std::f64::consts::SQRT_2 * se)))
    }

    /// The GSPRT's log-likelihood ratio on the five pair counts (fishtest's `LLR_logistic` on the pentanomial
    /// results; a zero count is taken as `REGULARIZE`).
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        generalised_llr(&self.counts, sprt.elo0, sprt.elo1)
    }
}

/// The second game of a pair replays the first one's opening with the colours reversed. Games are matched by
/// their pair number (from the round: games 2k+1 and 2k+2 form pair k), their opening and their two engines;
/// a game whose partner never comes (an odd number of games, a stopped match) stays unpaired.
#[derive(Default)]
pub struct PairBook {
    waiting: BTreeMap<PairKey, Vec<HalfPair>>,
}

/// What the two games of a pair share: pair number, opening FEN, lower engine, higher engine.
type PairKey = (u32, String, usize, usize);
/// A game waiting for its partner: Cho's engine and the lower engine's half-points.
type HalfPair = (usize, u8);

/// A completed pair: the two engines (lower index first) and the lower one's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompletedPair {
    pub engines: (usize, usize),
    pub points: PairPoints,
}

/// The pair number of a game by its PGN `Round` (from 1).
pub fn pair_of_round(round: u32) -> u32 {
    round.saturating_sub(1) / 2
}

impl PairBook {
    /// Files a finished game; returns the pair it completes, if any.
    pub fn add(&mut self, round: u32, opening: &str, players: [usize; 2], outcome: Outcome) -> Option<CompletedPair> {
        let [cho, han] = players;
        if cho == han {
            return None;
        }
        let (lo, hi) = (cho.min(han), cho.max(han));
        let lo_color = if lo == cho { Color::Cho } else { Color::Han };
        let half = match outcome {
            Outcome::Draw => 1,
            Outcome::Win(c) if c == lo_color => 2,
            Outcome::Win(_) => 0,
        };
        let list = self.waiting.entry((pair_of_round(round), opening.to_string(), lo, hi)).or_default();
        match list.iter().position(|&(c, _)| c != cho) {
            Some(i) => {
                let (_, first) = list.swap_remove(i);
                Some(CompletedPair { engines: (lo, hi), points: PairPoints(first + half) })
            }
            None => {
                list.push((cho, half));
                None
            }
        }
    }

    /// Games still waiting for their partner.
    pub fn unpaired(&self) -> usize {
        self.waiting.values().map(Vec::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Reference values: fishtest's own functions (server/fishtest/stats/stat_util.py `get_elo` and LLRcalc.py
    // `LLR_logistic`, official-stockfish/fishtest commit b8eecff2, 2026-08-22) run with scipy on these counts, and
    // fastchess's EloPentanomial formulas (app/src/matchmaking/elo/elo_pentanomial.cpp) for the normalised Elo.
    // Counts are [LL, LD+DL, LW+WL+DD, DW+WD, WW].

    #[test]
    fn pair_statistics_match_fishtest_and_fastchess() {
        let cases: [([u32; 5], f64, f64, f64, f64, f64); 3] = [
            // counts, Elo, ±95%, LOS, nElo, ±95%
            ([2_216, 14_690, 38_010, 15_345, 2_316], 2.046_522, 1.029_487, 0.999_951_17, 3.553_158, 1.787_343),
            ([10, 40, 100, 60, 20], 30.288_286, 21.801_053, 0.996_932_48, 44.393_691, 31.749_981),
            ([30, 10, 5, 10, 45], 52.511_566, 62.124_882, 0.955_542_02, 41.792_693, 48.151_231),
        ];
        for (counts, elo, err, los, nelo, nerr) in cases {
            let p = Pentanomial { counts };
            assert!(close(p.elo(), elo, 1e-3), "{counts:?} Elo {}", p.elo());
            assert!(close(p.elo_error_95(), err, 1e-3), "{counts:?} error {}", p.elo_error_95());
            assert!(close(p.los(), los, 1e-5), "{counts:?} LOS {}", p.los());
            assert!(close(p.nelo(), nelo, 1e-3), "{counts:?} nElo {}", p.nelo());
            assert!(close(p.nelo_error_95(), nerr, 1e-3), "{counts:?} nElo error {}", p.nelo_error_95());
        }
    }

    #[test]
    fn gsprt_on_pair_counts_matches_fishtest() {
        let cases: [([u32; 5], (f64, f64), f64); 5] = [
            ([2_216, 14_690, 38_010, 15_345, 2_316], (0.0, 2.0), 7.585_317),
            ([10, 40, 100, 60, 20], (0.0, 10.0), 2.016_505),
            ([30, 10, 5, 10, 45], (-5.0, 5.0), 0.540_564),
            // Zero counts are taken as 0.001, as fishtest does.
            ([0, 3, 10, 40, 0], (0.0, 20.0), 2.962_946),
            ([1, 0, 0, 0, 0], (0.0, 5.0), -0.014_524),
        ];
        for (counts, (elo0, elo1), expected) in cases {
            let sprt = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap();
            let llr = Pentanomial { counts }.llr(&sprt);
            assert!(close(llr, expected, 1e-4), "{counts:?} [{elo0}, {elo1}]: {llr} vs {expected}");
        }
        assert_eq!(Pentanomial::default().llr(&Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap()), 0.0);
    }

    #[test]
    fn degenerate_counts_give_infinite_or_undefined_figures_not_panics() {
        let sweep = Pentanomial { counts: [0, 0, 0, 0, 12] };
        assert!(sweep.elo().is_infinite() && sweep.elo_error_95().is_infinite());
        assert_eq!(sweep.los(), 1.0);
        assert!(sweep.nelo().is_nan());
        let even = Pentanomial { counts: [0, 0, 7, 0, 0] };
        assert_eq!((even.elo(), even.los()), (0.0, 0.5));
        assert!(Pentanomial::default().elo_error_95().is_nan());
        assert_eq!(Pentanomial { counts: [1, 2, 3, 4, 5] }.flipped().counts, [5, 4, 3, 2, 1]);
    }

    #[test]
    fn games_of_one_opening_with_colours_reversed_form_a_pair() {
        let mut book = PairBook::default();
        // Pair 0: engine 0 wins as Cho, then draws as Han: 1.5 points for engine 0.
        assert_eq!(book.add(1, "fen a", [0, 1], Outcome::Win(Color::Cho)), None);
        let done = book.add(2, "fen a", [1, 0], Outcome::Draw).unwrap();
        assert_eq!(done, CompletedPair { engines: (0, 1), points: PairPoints(3) });
        // Arrival order does not matter; a game of another opening or pair number waits.
        assert_eq!(book.add(4, "fen b", [1, 0], Outcome::Win(Color::Cho)), None);
        assert_eq!(book.add(5, "fen b", [0, 1], Outcome::Win(Color::Cho)), None);
        assert_eq!(book.unpaired(), 2);
        let done = book.add(3, "fen b", [0, 1], Outcome::Win(Color::Han)).unwrap();
        assert_eq!(done.points, PairPoints(0));
        assert_eq!(book.unpaired(), 1);
        assert_eq!(pair_of_round(1), 0);
        assert_eq!(pair_of_round(2), 0);
        assert_eq!(pair_of_round(3), 1);
    }
}
