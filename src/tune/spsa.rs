//! `janggi tune spsa`: tuning the search parameters by games, with simultaneous perturbation stochastic
//! approximation as fishtest runs it. Each iteration draws a random sign per parameter, plays one game pair on one
//! opening (both colours) between θ + cΔ and θ − cΔ, and moves θ by the pair's result along Δ. The engines are our
//! own binary started with `--tune` and given the parameters as options; games are refereed by the match runner.
//! The trace (θ after every iteration) is a CSV file that a stopped run resumes from.
//!
//! With an opponent (another engine, such as Fairy-Stockfish), θ + cΔ and θ − cΔ each play it on the iteration's
//! opening with both colours instead of playing each other, and the result is the difference of their scores:
//! the run then climbs toward what beats that engine, not toward what beats our own search.

use crate::board::splitmix::SplitMix;
use crate::board::{Color, Outcome};
use crate::matches::config::{Config, MatchSettings, Preset};
use crate::matches::game;
use crate::matches::schedule::Pairing;
use crate::protocol::Dialect;
use crate::protocol::client::{EngineProcess, EngineSpec, Player};
use crate::search::params::{ParamSpec, SPECS};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// fishtest's exponents: the learning rate decays as (A + k)^-α, the perturbation as k^-γ.
pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;
/// fishtest's default `r_end`: the learning rate at the end is `r_end · c_end²`.
pub const R_END: f64 = 0.002;
/// The stability constant A as a share of the iterations (fishtest uses 10%).
pub const A_RATIO: f64 = 0.1;
/// Hash per engine (MB): the games are short.
pub const HASH_MB: usize = 16;

/// `janggi tune params`: every tunable parameter, one per line.
pub fn params_table() -> String {
    let mut out = format!("{:<26} {:>8} {:>8} {:>8} {:>6}\n", "name", "default", "min", "max", "step");
    for p in SPECS {
        out.push_str(&format!("{:<26} {:>8} {:>8} {:>8} {:>6}\n", p.name, p.default, p.min, p.max, p.step));
    }
    out
}

/// How a tuning run is set up.
#[derive(Clone, Debug)]
pub struct SpsaOptions {
    /// The parameters to tune by name (all when empty).
    pub params: Vec<String>,
    /// Game pairs in all (fishtest's N); a resumed run goes on to this many.
    pub iterations: u32,
    /// Game pairs played at once.
    pub concurrency: usize,
    /// The games' limits, openings and rule set, as for `janggi match` (`tc`, `depth`, `openings`, ...).
    pub match_preset: Preset,
    /// The parameter trace (CSV), appended after each iteration and read back to resume.
    pub trace: PathBuf,
    pub seed: u64,
    pub r_end: f64,
    pub a_ratio: f64,
    pub alpha: f64,
    pub gamma: f64,
    /// The engine binary (our own, started with `--tune`).
    pub engine: PathBuf,
    /// The engine both perturbed sets play, where the run is tuned against another engine (None: they play each
    /// other).
    pub opponent: Option<EngineSpec>,
}

impl SpsaOptions {
    pub fn new(engine: PathBuf, trace: PathBuf) -> SpsaOptions {
        SpsaOptions {
            params: Vec::new(),
            iterations: 1000,
            concurrency: 1,
            match_preset: Preset::default(),
            trace,
            seed: 1,
            r_end: R_END,
            a_ratio: A_RATIO,
            alpha: ALPHA,
            gamma: GAMMA,
            engine,
            opponent: None,
        }
    }
}

/// The parameters tuned, and θ.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub specs: Vec<ParamSpec>,
    /// Iterations done.
    pub done: u32,
    pub theta: Vec<f64>,
}

/// The chosen parameters' specs, in the order given (all, in declaration order, when none are named).
pub fn chosen(names: &[String]) -> Result<Vec<ParamSpec>, String> {
    if names.is_empty() {
        return Ok(SPECS.to_vec());
    }
    let mut out: Vec<ParamSpec> = Vec::new();
    for n in names {
        let (_, s) = crate::search::params::spec(n).ok_or_else(|| {
            format!("unknown search parameter '{}' (see `janggi tune params`)", crate::untrusted::shorten(n))
        })?;
        if out.iter().any(|o| o.name == s.name) {
            return Err(format!("parameter '{}' is named twice", s.name));
        }
        out.push(*s);
    }
    Ok(out)
}

/// The gains of iteration `k` (from 1) for one parameter: the perturbation c_k and the learning rate a_k.
pub fn gains(spec: &ParamSpec, k: u32, opts: &SpsaOptions) -> (f64, f64) {
    let n = f64::from(opts.iterations.max(1));
    let big_a = opts.a_ratio * n;
    let c_end = f64::from(spec.step);
    let c = c_end * n.powf(opts.gamma);
    let a_end = opts.r_end * c_end * c_end;
    let a = a_end * (big_a + n).powf(opts.alpha);
    let k = f64::from(k);
    (c / k.powf(opts.gamma), a / (big_a + k).powf(opts.alpha))
}

/// The random signs of iteration `k`: a function of the seed and k alone, so a resumed run draws the same.
fn signs(seed: u64, k: u32, count: usize) -> Vec<f64> {
    let mut rng = SplitMix(seed ^ u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (0..count).map(|_| if rng.below(2) == 0 { -1.0 } else { 1.0 }).collect()
}

/// One game pair's plan and result.
struct Pair {
    k: u32,
    delta: Vec<f64>,
    /// Games won minus games lost by θ + cΔ (draws count half each way, so they cancel); against an opponent, half
    /// the difference between θ + cΔ's and θ − cΔ's wins minus losses, so that it spans the same −2..2.
    result: f64,
}

fn csv_header(specs: &[ParamSpec]) -> String {
    let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    format!("iteration,result,{}", names.join(","))
}

fn csv_row(k: u32, result: Option<f64>, theta: &[f64]) -> String {
    let values: Vec<String> = theta.iter().map(|t| format!("{t:.4}")).collect();
    format!("{k},{},{}", result.map_or(String::new(), |r| format!("{r}")), values.join(","))
}

/// Reads a trace back: the last row's iteration and θ. The header must name exactly `specs`.
pub fn read_trace(path: &Path, specs: &[ParamSpec]) -> Result<Option<State>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read trace '{}': {e}", path.display())),
    };
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let Some(header) = lines.next() else { return Ok(None) };
    if header.trim() != csv_header(specs) {
        return Err(format!(
            "trace '{}' tunes other parameters ({}); name the same ones, or another --trace file",
            path.display(),
            crate::untrusted::shorten(header)
        ));
    }
    let Some(last) = lines.next_back() else { return Ok(None) };
    let bad = || format!("trace '{}': unreadable last row '{}'", path.display(), crate::untrusted::shorten(last));
    let fields: Vec<&str> = last.split(',').collect();
    if fields.len() != specs.len() + 2 {
        return Err(bad());
    }
    let done: u32 = fields[0].trim().parse().map_err(|_| bad())?;
    let theta = fields[2..].iter().map(|f| f.trim().parse::<f64>().map_err(|_| bad())).collect::<Result<_, _>>()?;
    Ok(Some(State { specs: specs.to_vec(), done, theta }))
}

fn append(path: &Path, line: &str) -> Result<(), String> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot write trace '{}': {e}", path.display()))?;
    writeln!(f, "{line}").and_then(|_| f.flush()).map_err(|e| format!("cannot write trace '{}': {e}", path.display()))
}

/// An engine of our binary with the given parameter values.
fn engine_spec(opts: &SpsaOptions, name: &str, specs: &[ParamSpec], values: &[f64]) -> EngineSpec {
    let mut options = vec![("Hash".to_string(), HASH_MB.to_string())];
    for (s, v) in specs.iter().zip(values) {
        options.push((s.name.to_string(), (v.round() as i32).clamp(s.min, s.max).to_string()));
    }
    EngineSpec {
        name: name.to_string(),
        command: opts.engine.clone(),
        args: vec!["--tune".to_string()],
        dialect: Dialect::Uci,
        options,
        variants: None,
    }
}

/// The match settings the games are played under: `janggi match`'s defaults with the run's preset on top.
fn match_settings(opts: &SpsaOptions) -> Result<MatchSettings, String> {
    let plus = engine_spec(opts, "spsa-plus", &[], &[]);
    let minus = engine_spec(opts, "spsa-minus", &[], &[]);
    let mut engines = vec![plus, minus];
    let mut names: Vec<String> = vec!["spsa-plus".into(), "spsa-minus".into()];
    // The opponent is checked with the others (its rule sets, its name), so that a run fails before any game.
    if let Some(o) = &opts.opponent {
        if names.contains(&o.name) {
            return Err(format!("the opponent may not be named '{}'", o.name));
        }
        names.push(o.name.clone());
        engines.push(o.clone());
    }
    let config = Config { engines, presets: BTreeMap::new(), dir: PathBuf::from(".") };
    let preset =
        Preset { engines: Some(names), concurrency: Some(opts.concurrency.max(1)), ..opts.match_preset.clone() };
    config.resolve(None, &preset).map_err(|e| e.to_string())
}

/// Plays iteration `k`'s pair: θ + cΔ against θ − cΔ on one opening with both colours.
fn play_pair(settings: &MatchSettings, opts: &SpsaOptions, state: &State, k: u32) -> Result<Pair, String> {
    let delta = signs(opts.seed, k, state.specs.len());
    let shifted = |sign: f64| -> Vec<f64> {
        state
            .specs
            .iter()
            .zip(&state.theta)
            .zip(&delta)
            .map(|((s, t), d)| (t + sign * gains(s, k, opts).0 * d).clamp(f64::from(s.min), f64::from(s.max)))
            .collect()
    };
    let mut plus = Player::new(engine_spec(opts, "spsa-plus", &state.specs, &shifted(1.0)));
    let mut minus = Player::new(engine_spec(opts, "spsa-minus", &state.specs, &shifted(-1.0)));
    let mut rng = SplitMix(opts.seed.wrapping_add(u64::from(k)).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let opening = rng.below(settings.openings.len() as u64) as usize;
    let result = match &opts.opponent {
        None => game_pair(settings, k, opening, [&mut plus, &mut minus], 2 * k - 1)?,
        Some(spec) => {
            let mut opponent = Player::new(spec.clone());
            let first = 4 * k - 3;
            let by_plus = game_pair(settings, k, opening, [&mut plus, &mut opponent], first);
            let difference = by_plus.and_then(|p| {
                game_pair(settings, k, opening, [&mut minus, &mut opponent], first + 2).map(|m| (p - m) / 2.0)
            });
            opponent.quit();
            difference?
        }
    };
    plus.quit();
    minus.quit();
    Ok(Pair { k, delta, result })
}

/// Two games of iteration `k` on one opening, the first player with Cho and then with Han (PGN rounds `round` and
/// the next): its wins minus its losses.
fn game_pair(
    settings: &MatchSettings,
    k: u32,
    opening: usize,
    [first, second]: [&mut Player; 2],
    round: u32,
) -> Result<f64, String> {
    let never = AtomicBool::new(false);
    let mut result = 0.0;
    for (round, first_side) in [(round, Color::Cho), (round + 1, Color::Han)] {
        let pairing = Pairing { round, pair: k - 1, opening, cho: 0, han: 1 };
        let players = if first_side == Color::Cho { [&mut *first, &mut *second] } else { [&mut *second, &mut *first] };
        let record = game::play(settings, &pairing, players, &never)
            .ok_or_else(|| format!("iteration {k}: a game was abandoned"))?;
        result += match record.outcome {
            Outcome::Win(c) if c == first_side => 1.0,
            Outcome::Win(_) => -1.0,
            Outcome::Draw => 0.0,
        };
        log::info!("iteration {k}: {} ({})", record.result_tag(), record.detail);
    }
    Ok(result)
}

/// Moves θ by one pair's result.
fn update(state: &mut State, pair: &Pair, opts: &SpsaOptions) {
    for ((s, t), d) in state.specs.iter().zip(state.theta.iter_mut()).zip(&pair.delta) {
        let (c_k, a_k) = gains(s, pair.k, opts);
        // fishtest: θ += R_k · c_k · result · Δ with R_k = a_k / c_k².
        *t = (*t + a_k / c_k * pair.result * d).clamp(f64::from(s.min), f64::from(s.max));
    }
    state.done = pair.k;
}

/// Runs (or resumes) a tuning run to `opts.iterations` pairs; returns the final state. Game pairs run
/// `concurrency` at a time, each batch perturbing the θ of its start; results are applied in iteration order.
pub fn run(opts: &SpsaOptions, mut progress: impl FnMut(&State, f64)) -> Result<State, String> {
    let specs = chosen(&opts.params)?;
    let settings = match_settings(opts)?;
    // Every engine must start: in a game an engine that cannot start forfeits, and a run of forfeits would move θ
    // by nothing (or by noise) for as long as it ran.
    for spec in &settings.engines {
        EngineProcess::start(spec, settings.rules)?.quit();
    }
    let mut state = match read_trace(&opts.trace, &specs)? {
        Some(s) => s,
        None => {
            let theta: Vec<f64> = specs.iter().map(|s| f64::from(s.default)).collect();
            append(&opts.trace, &csv_header(&specs))?;
            append(&opts.trace, &csv_row(0, None, &theta))?;
            State { specs: specs.clone(), done: 0, theta }
        }
    };
    while state.done < opts.iterations {
        let batch: Vec<u32> = (state.done + 1..=opts.iterations).take(opts.concurrency.max(1)).collect();
        let (settings, current) = (&settings, &state);
        let pairs: Vec<Result<Pair, String>> = std::thread::scope(|scope| {
            let handles: Vec<_> =
                batch.iter().map(|&k| scope.spawn(move || play_pair(settings, opts, current, k))).collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a game thread failed".into()))).collect()
        });
        for pair in pairs {
            let pair = pair?;
            update(&mut state, &pair, opts);
            append(&opts.trace, &csv_row(pair.k, Some(pair.result), &state.theta))?;
            progress(&state, pair.result);
        }
    }
    Ok(state)
}

/// The final values as a table, and as lines to paste into `search_params!` in `src/search/params.rs`.
pub fn final_table(state: &State) -> String {
    let mut out = format!("{:<26} {:>8} {:>10} {:>8}\n", "parameter", "default", "tuned", "change");
    for (s, t) in state.specs.iter().zip(&state.theta) {
        let v = t.round() as i32;
        out.push_str(&format!("{:<26} {:>8} {:>10.2} {:>+8}\n", s.name, s.default, t, v - s.default));
    }
    out.push_str("\nsrc/search/params.rs (search_params!):\n");
    for (s, t) in state.specs.iter().zip(&state.theta) {
        let v = (t.round() as i32).clamp(s.min, s.max);
        out.push_str(&format!("    {} = {v}, {}, {}, {};\n", s.name, s.min, s.max, s.step));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(n: u32) -> SpsaOptions {
        SpsaOptions { iterations: n, ..SpsaOptions::new(PathBuf::from("janggi"), PathBuf::from("t.csv")) }
    }

    #[test]
    fn gains_follow_fishtest_at_the_ends() {
        let spec = ParamSpec { name: "x", default: 100, min: 0, max: 200, step: 10 };
        let o = opts(1000);
        // At the last iteration c_k is c_end and a_k is r_end · c_end².
        let (c, a) = gains(&spec, 1000, &o);
        assert!((c - 10.0).abs() < 1e-9 && (a - 0.2).abs() < 1e-9, "{c} {a}");
        // Earlier both are larger, the perturbation by N^γ at the first iteration.
        let (c1, a1) = gains(&spec, 1, &o);
        assert!((c1 - 10.0 * 1000f64.powf(GAMMA)).abs() < 1e-9 && a1 > a);
    }

    #[test]
    fn a_won_pair_moves_theta_along_the_signs() {
        let o = opts(100);
        let spec = ParamSpec { name: "x", default: 100, min: 0, max: 200, step: 10 };
        let mut state = State { specs: vec![spec, spec], done: 0, theta: vec![100.0, 100.0] };
        update(&mut state, &Pair { k: 1, delta: vec![1.0, -1.0], result: 2.0 }, &o);
        assert!(state.theta[0] > 100.0 && state.theta[1] < 100.0, "{:?}", state.theta);
        assert_eq!(state.done, 1);
        // A drawn pair leaves θ alone.
        let before = state.theta.clone();
        update(&mut state, &Pair { k: 2, delta: vec![1.0, 1.0], result: 0.0 }, &o);
        assert_eq!(state.theta, before);
    }

    #[test]
    fn signs_are_a_function_of_the_seed_and_iteration() {
        assert_eq!(signs(7, 3, 10), signs(7, 3, 10));
        assert_ne!(signs(7, 3, 64), signs(7, 4, 64));
    }

    #[test]
    fn unknown_or_repeated_parameters_are_errors() {
        assert!(chosen(&["nope".into()]).is_err());
        assert!(chosen(&["rfp_margin".into(), "RFP_MARGIN".into()]).is_err());
        assert_eq!(chosen(&[]).unwrap().len(), SPECS.len());
    }
}
