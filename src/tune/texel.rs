//! Texel tuning: fit the evaluation weights to game results. The evaluation is linear in its weights (each term
//! contributes coefficient x weight, blended by the game phase), so every position is reduced once to its
//! coefficients and the mean squared error between sigmoid(K * eval) and the result is minimised by gradient
//! descent with momentum. Plain (not per-weight normalised) steps matter here: a weight that few positions use
//! gets a small gradient and so stays near its start instead of being fitted to noise.

use crate::board::{Position, Rules};
use crate::eval::params::{MAX_PHASE, NUM_PARAMS, Params, TERMS};
use crate::eval::tapered::S;
use crate::eval::{Coefficients, evaluate_traced, phase};
use rayon::prelude::*;

/// One position reduced to what the fit needs.
pub struct Entry {
    /// (weight index, coefficient for Cho).
    terms: Vec<(u16, i16)>,
    /// Middlegame share of the blend.
    rho: f64,
    result: f64,
}

/// Reads `fen;result` lines; lines that do not parse are skipped and counted.
pub fn load(text: &str, params: &Params) -> (Vec<Entry>, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let parsed: Vec<Option<Entry>> = lines
        .par_iter()
        .map(|line| {
            let (fen, result) = line.rsplit_once(';')?;
            let result: f64 = result.trim().parse().ok()?;
            let pos = Position::from_fen(fen, Rules::JANGGI).ok()?;
            let mut c = Coefficients::default();
            evaluate_traced(&pos, params, &mut c);
            Some(Entry { terms: c.terms, rho: phase(&pos) as f64 / MAX_PHASE as f64, result })
        })
        .collect();
    let skipped = parsed.iter().filter(|e| e.is_none()).count();
    (parsed.into_iter().flatten().collect(), skipped)
}

/// The weights as real numbers, the form the fit works in.
pub fn as_reals(params: &Params) -> Vec<(f64, f64)> {
    params.w.iter().map(|s| (s.0 as f64, s.1 as f64)).collect()
}

fn linear(e: &Entry, w: &[(f64, f64)]) -> f64 {
    e.terms.iter().map(|&(i, c)| c as f64 * (w[i as usize].0 * e.rho + w[i as usize].1 * (1.0 - e.rho))).sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the predictions with scale `k`.
pub fn error(entries: &[Entry], w: &[(f64, f64)], k: f64) -> f64 {
    let total: f64 = entries.par_iter().map(|e| (e.result - sigmoid(k * linear(e, w))).powi(2)).sum();
    total / entries.len().max(1) as f64
}

/// The scale that best maps centipawns to results for the given weights (golden-section search).
pub fn fit_k(entries: &[Entry], w: &[(f64, f64)]) -> f64 {
    let (mut lo, mut hi) = (0.0005f64, 0.02f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(entries, w, a) < error(entries, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Which weights the fit may change: the terms named (all when empty), never the general's material (always
/// one each, so it cancels).
pub fn free_mask(terms: &[String]) -> Vec<bool> {
    (0..NUM_PARAMS)
        .map(|i| {
            let (name, _) = Params::term_of(i);
            i != crate::eval::params::MATERIAL && (terms.is_empty() || terms.iter().any(|t| t == name))
        })
        .collect()
}

/// Runs `epochs` full passes of gradient descent over the weights marked free and returns the fitted weights (rounded) and
/// the final error.
pub fn fit(
    entries: &[Entry],
    start: &Params,
    free: &[bool],
    k: f64,
    epochs: usize,
    rate: f64,
    mut log: impl FnMut(usize, f64),
) -> (Params, f64) {
    let mut w = as_reals(start);
    let mut m = vec![(0.0, 0.0); NUM_PARAMS];
    const MOMENTUM: f64 = 0.9;
    let n = entries.len().max(1) as f64;
    for epoch in 1..=epochs {
        let grad = entries
            .par_iter()
            .fold(
                || vec![(0.0f64, 0.0f64); NUM_PARAMS],
                |mut g, e| {
                    let s = sigmoid(k * linear(e, &w));
                    let d = -2.0 * (e.result - s) * s * (1.0 - s) * k / n;
                    for &(i, c) in &e.terms {
                        let c = c as f64 * d;
                        g[i as usize].0 += c * e.rho;
                        g[i as usize].1 += c * (1.0 - e.rho);
                    }
                    g
                },
            )
            .reduce(
                || vec![(0.0, 0.0); NUM_PARAMS],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        x.0 += y.0;
                        x.1 += y.1;
                    }
                    a
                },
            );
        for i in 0..NUM_PARAMS {
            if !free[i] {
                continue;
            }
            m[i].0 = MOMENTUM * m[i].0 + grad[i].0;
            m[i].1 = MOMENTUM * m[i].1 + grad[i].1;
            w[i].0 -= rate * m[i].0;
            w[i].1 -= rate * m[i].1;
        }
        if epoch % 50 == 0 || epoch == epochs {
            log(epoch, error(entries, &w, k));
        }
    }
    let params = Params { w: w.iter().map(|&(a, b)| S(a.round() as i32, b.round() as i32)).collect() };
    let e = error(entries, &as_reals(&params), k);
    (params, e)
}

/// The weights as the Rust source of `src/eval/weights.rs`, one commented line per term.
pub fn weights_source(params: &Params) -> String {
    let mut out = String::from(
        "//! The evaluation weights (middlegame, endgame), indexed as laid out in `params.rs`.\n\
         //! Written by `janggi tune fit`; edit by hand only to start a tuning run from other values.\n\n\
         use super::tapered::S;\n\n",
    );
    out.push_str(&format!("pub const WEIGHTS: [S; {}] = [\n", params.w.len()));
    for &(name, start, len) in TERMS.iter() {
        if len == 0 {
            continue;
        }
        out.push_str(&format!("    // {name}\n"));
        for chunk in params.w[start..start + len].chunks(8) {
            let items: Vec<String> = chunk.iter().map(|s| format!("S({}, {})", s.0, s.1)).collect();
            out.push_str(&format!("    {},\n", items.join(", ")));
        }
    }
    out.push_str("];\n");
    out
}
