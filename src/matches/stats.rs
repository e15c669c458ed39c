//! Match statistics: Elo difference with its 95% error, likelihood of superiority, and the sequential
//! probability ratio test that stops a match once it has shown which of two Elo hypotheses holds.
//!
//! All formulas use the per-game score variance (trinomial: wins, draws, losses) with the normal
//! approximation, as cutechess-cli does for Elo and LOS. The SPRT is fishtest's generalised SPRT (Michel Van
//! den Bergh's multinomial maximum-likelihood form) over the trinomial results, with the logistic Elo model.

/// The 97.5% quantile of the standard normal distribution (two-sided 95% interval).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Default type I and type II error rates of the SPRT.
pub const DEFAULT_ALPHA: f64 = 0.05;
pub const DEFAULT_BETA: f64 = 0.05;
/// What a zero count of wins, losses or draws is taken as in the LLR (fishtest's `regularize`).
pub const REGULARIZE: f64 = 1e-3;

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// Elo difference from an expected score in (0, 1), logistic model.
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score from an Elo difference, logistic model.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function: its Maclaurin series below 2.5, the continued fraction of erfc above (both accurate to
/// about 1e-12, far more than a percentage needs; std has no erf).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: erf x = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * std::f64::consts::FRAC_2_SQRT_PI
    } else {
        // Continued fraction for erfc, evaluated from its tail.
        let mut f = 0.0;
        for k in (1..60).rev() {
            f = (k as f64 / 2.0) / (x + f);
        }
        let erfc = (-x * x).exp() / (x + f) / std::f64::consts::PI.sqrt();
        1.0 - erfc
    }
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The same games seen from the other side.
    pub fn flipped(&self) -> Tally {
        Tally { wins: self.losses, losses: self.wins, draws: self.draws }
    }

    pub fn add(&mut self, other: Tally) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
    }

    /// Points per game in [0, 1] (a draw is half a point); 0.5 before any game.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 { 0.5 } else { (self.wins as f64 + 0.5 * self.draws as f64) / n as f64 }
    }

    /// Variance of one game's score around the mean score.
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        let (w, l, d) = (self.wins as f64, self.losses as f64, self.draws as f64);
        (w * (1.0 - s).powi(2) + l * s.powi(2) + d * (0.5 - s).powi(2)) / n as f64
    }

    /// The Elo difference the score implies (infinite for a score of 0 or 1).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Half the width of the 95% confidence interval of the Elo difference (infinite when the interval
    /// reaches a score of 0 or 1, NaN before any game).
    pub fn elo_error_95(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return f64::NAN;
        }
        let s = self.score();
        let margin = Z_95 * (self.variance() / n as f64).sqrt();
        let (low, high) = (s - margin, s + margin);
        if low <= 0.0 || high >= 1.0 {
            return f64::INFINITY;
        }
        (elo_from_score(high) - elo_from_score(low)) / 2.0
    }

    /// Likelihood of superiority: the probability that this side is the stronger, from wins and losses
    /// (draws carry no information about it).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }
}

/// The distribution closest to `observed` (by likelihood) whose mean score is `mean`: p_i / (1 + x (a_i - mean))
/// with x solving sum p_i (a_i - mean) / (1 + x (a_i - mean)) = 0, found by bisection (the sum falls as x
/// grows). `observed` lists (score, probability) by rising score; `mean` must lie strictly between the lowest and
/// highest score.
fn most_likely_with_mean(observed: &[(f64, f64)], mean: f64) -> Vec<f64> {
    const ITERATIONS: usize = 200;
    let deviations: Vec<f64> = observed.iter().map(|(a, _)| a - mean).collect();
    let (lowest, highest) = (deviations[0], deviations[deviations.len() - 1]);
    // 1 + x d > 0 for every deviation d: x lies strictly between -1/highest and -1/lowest.
    const INSIDE: f64 = 1.0 - 1e-12;
    let (mut lo, mut hi) = (-INSIDE / highest, -INSIDE / lowest);
    let g = |x: f64| observed.iter().zip(&deviations).map(|((_, p), d)| p * d / (1.0 + x * d)).sum::<f64>();
    for _ in 0..ITERATIONS {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    observed.iter().zip(&deviations).map(|((_, p), d)| p / (1.0 + x * d)).collect()
}

/// Fishtest's generalised log-likelihood ratio (`LLR_logistic`) of counts of equally spaced outcomes from 0 to 1
/// (loss, draw, win per game; or the five results of a game pair, scored per game): the observed distribution is
/// compared with the most likely distributions whose mean is s0 and s1, the scores of elo0 and elo1 in the
/// logistic model. A count of zero is taken as `REGULARIZE`, so a clean sweep still counts, and a single result
/// cannot decide anything.
pub fn generalised_llr(counts: &[u32], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let steps = (counts.len() - 1) as f64;
    let reg = |c: u32| if c == 0 { REGULARIZE } else { f64::from(c) };
    let n: f64 = counts.iter().map(|&c| reg(c)).sum();
    let observed: Vec<(f64, f64)> = counts.iter().enumerate().map(|(i, &c)| (i as f64 / steps, reg(c) / n)).collect();
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    let (p0, p1) = (most_likely_with_mean(&observed, s0), most_likely_with_mean(&observed, s1));
    n * observed.iter().zip(p0.iter().zip(&p1)).map(|((_, p), (q0, q1))| p * (q1 / q0).ln()).sum::<f64>()
}

/// The parameters of a sequential probability ratio test: H0 "the Elo difference is elo0" against H1
/// "it is elo1", with error rates alpha (accepting H1 wrongly) and beta (accepting H0 wrongly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Continue,
    /// H0 accepted: the difference is at most elo0.
    AcceptH0,
    /// H1 accepted: the difference is at least elo1.
    AcceptH1,
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite()) || elo1 <= elo0 {
            return Err(format!("SPRT needs elo0 < elo1 (got {elo0} and {elo1})"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("SPRT {name} must lie strictly between 0 and 0.5 (got {v})"));
            }
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// (lower, upper): accept H0 at or below ln(beta/(1-alpha)), H1 at or above ln((1-beta)/alpha).
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The generalised log-likelihood ratio of H1 against H0 given the games so far (trinomial: losses, draws,
    /// wins; see `generalised_llr`).
    pub fn llr(&self, t: &Tally) -> f64 {
        generalised_llr(&[t.losses, t.draws, t.wins], self.elo0, self.elo1)
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> Decision {
        let (low, high) = self.bounds();
        if llr >= high {
            Decision::AcceptH1
        } else if llr <= low {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }

    pub fn decision(&self, t: &Tally) -> Decision {
        self.decide(self.llr(t))
    }
}

/// Formats an Elo value: finite values with one decimal and a sign, otherwise "+inf"/"-inf"/"n/a".
pub fn format_elo(elo: f64) -> String {
    if elo.is_nan() {
        "n/a".to_string()
    } else if elo.is_infinite() {
        if elo > 0.0 { "+inf".to_string() } else { "-inf".to_string() }
    } else {
        // Adding zero turns -0.0 into 0.0, so an even score reads "+0.0".
        format!("{:+.1}", elo + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn sixty_percent_is_seventy_elo() {
        // 60 wins, 40 losses: score 0.6 -> -400 log10(1/0.6 - 1) = 70.437...
        let t = Tally { wins: 60, losses: 40, draws: 0 };
        assert!(close(t.elo(), 70.437, 0.001), "{}", t.elo());
        let t = Tally { wins: 50, losses: 30, draws: 20 };
        assert!(close(t.elo(), 70.437, 0.001));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(score_from_elo(elo_from_score(0.73)), 0.73, 1e-12));
    }

    #[test]
    fn elo_error_matches_the_normal_approximation() {
        // 60-40-0 over 100 games: per-game variance 0.24, standard error 0.04899, 95% interval of the score
        // 0.6 -/+ 0.09602; computed independently in python: (elo(0.69602) - elo(0.50398)) / 2 = 70.571.
        let t = Tally { wins: 60, losses: 40, draws: 0 };
        assert!(close(t.variance(), 0.24, 1e-12));
        assert!(close(t.elo_error_95(), 70.571, 0.001), "{}", t.elo_error_95());
        assert!(Tally { wins: 3, losses: 0, draws: 0 }.elo_error_95().is_infinite());
        assert!(Tally::default().elo_error_95().is_nan());
    }

    #[test]
    fn los_of_known_results() {
        // 100 wins, 50 losses: 0.5 (1 + erf(50 / sqrt(300))) = 0.9999777 (python's math.erf).
        let t = Tally { wins: 100, losses: 50, draws: 30 };
        assert!(close(t.los(), 0.999_977_72, 1e-8), "{}", t.los());
        assert!(close(Tally { wins: 10, losses: 10, draws: 5 }.los(), 0.5, 1e-12));
        // 12 wins, 8 losses: 0.5 (1 + erf(4 / sqrt(40))) = 0.814453...
        assert!(close(Tally { wins: 12, losses: 8, draws: 0 }.los(), 0.814_453, 1e-6));
    }

    #[test]
    fn erf_matches_tabulated_values() {
        for (x, v) in
            [(0.0, 0.0), (0.5, 0.520_499_877_8), (1.0, 0.842_700_792_9), (2.0, 0.995_322_265_0), (3.0, 0.999_977_909_5)]
        {
            assert!(close(erf(x), v, 1e-9), "erf({x}) = {}", erf(x));
            assert!(close(erf(-x), -v, 1e-9));
        }
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (low, high) = sprt.bounds();
        assert!(close(low, -2.944_439, 1e-6) && close(high, 2.944_439, 1e-6));
        // Reference values from an independent python implementation of fishtest's LLR (bisection for the
        // constrained maximum-likelihood distributions, zero counts taken as 0.001).
        let cases = [
            ((520, 480, 1000), (0.0, 10.0), 0.646_075),
            ((700, 500, 800), (0.0, 10.0), 8.225_139),
            ((480, 520, 1000), (0.0, 10.0), -3.955_299),
            ((520, 480, 1000), (-5.0, 5.0), 2.302_109),
            ((60, 40, 0), (0.0, 10.0), 0.534_236),
            ((1, 0, 0), (0.0, 20.0), 0.055_905),
            ((100, 0, 0), (0.0, 20.0), 5.590_867),
            ((0, 100, 0), (0.0, 20.0), -5.922_059),
        ];
        for ((wins, losses, draws), (elo0, elo1), expected) in cases {
            let t = Tally { wins, losses, draws };
            let llr = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap().llr(&t);
            assert!(close(llr, expected, 1e-5), "{t:?} [{elo0}, {elo1}]: {llr} vs {expected}");
        }
        assert_eq!(sprt.decision(&Tally { wins: 520, losses: 480, draws: 1000 }), Decision::Continue);
        assert_eq!(sprt.decision(&Tally { wins: 700, losses: 500, draws: 800 }), Decision::AcceptH1);
        assert_eq!(sprt.decision(&Tally { wins: 480, losses: 520, draws: 1000 }), Decision::AcceptH0);
        // A few straight wins prove nothing yet; a long sweep does.
        assert_eq!(sprt.decision(&Tally { wins: 3, losses: 0, draws: 0 }), Decision::Continue);
        let wide = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        assert_eq!(wide.decision(&Tally { wins: 100, losses: 0, draws: 0 }), Decision::AcceptH1);
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    }
}
