//! Tuning from games (`janggi tune`): self-play data and the Texel fit for the evaluation, SPSA for the search.

pub mod selfplay;
pub mod spsa;
pub mod texel;

use crate::eval::params::Params;
use std::path::Path;

/// `janggi tune selfplay`: plays games and appends their labelled positions to `out`.
pub fn selfplay_to_file(games: usize, nodes: u64, seed: u64, out: &Path) -> Result<(), String> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let n = selfplay::generate(games, nodes, seed, &mut file).map_err(|e| e.to_string())?;
    eprintln!("{games} games, {n} positions appended to {}", out.display());
    Ok(())
}

/// `janggi tune fit`: fits the weights to the positions in `data` (every tenth held out to show how well the fit
/// generalises) and writes them as Rust source to `out`.
pub fn fit_file(data: &Path, terms: &[String], epochs: usize, rate: f64, out: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(data).map_err(|e| format!("{}: {e}", data.display()))?;
    let start = Params::default();
    let (entries, skipped) = texel::load(&text, &start);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, e) in entries.into_iter().enumerate() {
        if i % 10 == 0 { held.push(e) } else { train.push(e) }
    }
    eprintln!("{} positions to fit, {} held out ({skipped} lines skipped)", train.len(), held.len());
    let w = texel::as_reals(&start);
    let k = texel::fit_k(&train, &w);
    eprintln!("K = {k:.6}: error {:.6}, held out {:.6}", texel::error(&train, &w, k), texel::error(&held, &w, k));
    let free = texel::free_mask(terms);
    let (params, e) =
        texel::fit(&train, &start, &free, k, epochs, rate, |epoch, e| eprintln!("epoch {epoch}: error {e:.6}"));
    std::fs::write(out, texel::weights_source(&params)).map_err(|e| format!("{}: {e}", out.display()))?;
    let held_error = texel::error(&held, &texel::as_reals(&params), k);
    eprintln!("final error {e:.6}, held out {held_error:.6}; weights written to {}", out.display());
    Ok(())
}
