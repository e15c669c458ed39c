//! `janggi datagen stats`: what a set of datagen files holds (count, results, scores, material).

use super::record::{GameResult, open};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;

/// Width of a score histogram bucket (centipawns).
pub const SCORE_BUCKET: i32 = 250;

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub count: u64,
    /// Results from Cho's view.
    pub results: BTreeMap<GameResult, u64>,
    /// Records by rule set.
    pub variants: BTreeMap<&'static str, u64>,
    /// Records by score bucket (the bucket's lower bound, from the side to move's view).
    pub scores: BTreeMap<i32, u64>,
    pub pieces: BTreeMap<usize, u64>,
    pub han_to_move: u64,
    score_sum: i64,
}

/// Reads every record of the files; the first bad record stops it with its file and number.
pub fn collect(files: &[PathBuf]) -> Result<Stats, String> {
    let mut s = Stats::default();
    for path in files {
        for record in open(path)? {
            let r = record?;
            s.count += 1;
            *s.results.entry(r.for_cho().1).or_default() += 1;
            *s.variants.entry(r.rules.name).or_default() += 1;
            let score = i32::from(r.score.0);
            *s.scores.entry(score.div_euclid(SCORE_BUCKET) * SCORE_BUCKET).or_default() += 1;
            *s.pieces.entry(r.piece_count()).or_default() += 1;
            s.han_to_move += u64::from(r.side == crate::board::Color::Han);
            s.score_sum += i64::from(score);
        }
    }
    Ok(s)
}

fn share(n: u64, total: u64) -> f64 {
    100.0 * n as f64 / total.max(1) as f64
}

impl Stats {
    pub fn report(&self) -> String {
        let mut o = String::new();
        let n = self.count;
        let _ = writeln!(o, "positions {n}");
        let get = |r| self.results.get(&r).copied().unwrap_or(0);
        let (w, d, l) = (get(GameResult::Win), get(GameResult::Draw), get(GameResult::Loss));
        let _ = writeln!(
            o,
            "results (Cho's view) win {w} ({:.1}%) draw {d} ({:.1}%) loss {l} ({:.1}%)",
            share(w, n),
            share(d, n),
            share(l, n)
        );
        let _ = writeln!(o, "side to move Cho {} Han {}", n - self.han_to_move, self.han_to_move);
        let mean = self.score_sum as f64 / n.max(1) as f64;
        let _ = writeln!(o, "mean score (side to move) {mean:.1}");
        let variants: Vec<String> = self.variants.iter().map(|(v, c)| format!("{v} {c}")).collect();
        let _ = writeln!(o, "variants {}", variants.join(", "));
        let _ = writeln!(o, "score histogram (side to move, {SCORE_BUCKET} cp buckets)");
        for (lo, c) in &self.scores {
            let _ = writeln!(o, "  {:>6} .. {:>6}  {c:>10}  {:5.1}%", lo, lo + SCORE_BUCKET - 1, share(*c, n));
        }
        let _ = writeln!(o, "piece-count histogram");
        for (p, c) in &self.pieces {
            let _ = writeln!(o, "  {p:>2} pieces  {c:>10}  {:5.1}%", share(*c, n));
        }
        o
    }
}
