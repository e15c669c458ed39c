//! `janggi tune`: the evaluation's weights by a fit to self-play positions, the search's parameters by games.

use super::GameLimitArgs;
use clap::{Args, Subcommand};
use janggi::matches::config::{Config, DEFAULT_CONFIG, Preset};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Subcommand)]
pub enum TuneStep {
    /// Play self-play games and append their quiet positions with results (`fen;result`) to a file.
    #[command(after_help = "Example: janggi tune selfplay --games 200 --nodes 5000 --out selfplay.txt")]
    Selfplay {
        /// Games to play.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Seed of the random opening moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The file the `fen;result` lines are appended to.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// List the search parameters that `janggi --tune` offers as options: name, default, min, max, step.
    #[command(after_help = "Example: janggi tune params")]
    Params,
    /// Tune search parameters by games (SPSA as fishtest runs it); the trace goes to a CSV file and resumes.
    #[command(
        after_help = "Example: janggi tune spsa --params aspiration_window,rfp_margin --iterations 500 --tc 5+0.05 --concurrency 2 --trace spsa.csv"
    )]
    Spsa(Box<SpsaArgs>),
    /// Fit the weights to a file of labelled positions and write the Rust source of the weights.
    #[command(after_help = "Example: janggi tune fit --data selfplay.txt --out weights.rs")]
    Fit {
        /// The labelled positions (`fen;result` lines, as `janggi tune selfplay` writes them).
        #[arg(long)]
        data: std::path::PathBuf,
        /// Passes of gradient descent over the data.
        #[arg(long, default_value_t = 1000)]
        epochs: usize,
        /// Step size of the gradient descent.
        #[arg(long, default_value_t = 30000.0)]
        rate: f64,
        /// Fit only these terms (comma-separated names from `src/eval/params.rs`); all when absent.
        #[arg(long, value_delimiter = ',')]
        terms: Vec<String>,
        /// Where to write the weights (e.g. src/eval/weights.rs).
        #[arg(long)]
        out: std::path::PathBuf,
    },
}

pub fn run(step: TuneStep) -> Result<(), String> {
    match step {
        TuneStep::Selfplay { games, nodes, seed, out } => {
            super::output_path::prepare(&out, "--out")?;
            janggi::tune::selfplay_to_file(games, nodes, seed, &out)
        }
        TuneStep::Fit { data, terms, epochs, rate, out } => {
            super::output_path::prepare(&out, "--out")?;
            janggi::tune::fit_file(&data, &terms, epochs, rate, &out)
        }
        TuneStep::Spsa(args) => spsa(*args),
        TuneStep::Params => {
            print!("{}", janggi::tune::spsa::params_table());
            Ok(())
        }
    }
}

/// `janggi tune spsa`.
#[derive(Args)]
pub struct SpsaArgs {
    /// The parameters to tune (comma-separated names from `janggi tune params`); all when absent.
    #[arg(long, value_delimiter = ',')]
    params: Vec<String>,
    /// Game pairs in all (each pair is two games); a resumed run goes on to this many.
    #[arg(long, default_value_t = 1000)]
    iterations: u32,
    /// The games' limits (the default when none is given is --tc 1+0.01).
    #[command(flatten)]
    limits: GameLimitArgs,
    /// Game pairs played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// `setups` (the 25 start positions) or a file of FEN or EPD lines.
    #[arg(long)]
    openings: Option<String>,
    /// The rule set of the games (default janggi).
    #[arg(long)]
    variant: Option<String>,
    /// Plies after which a game is decided by count (default as for `janggi match`).
    #[arg(long)]
    max_plies: Option<u32>,
    /// The parameter trace: a CSV row per iteration; an existing trace is resumed.
    #[arg(long, default_value = "spsa.csv")]
    trace: PathBuf,
    /// Seed of the perturbations and the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// fishtest's r_end: the learning rate at the end is r_end times the step squared.
    #[arg(long, default_value_t = janggi::tune::spsa::R_END)]
    r_end: f64,
    /// The stability constant A as a share of the iterations.
    #[arg(long, default_value_t = janggi::tune::spsa::A_RATIO)]
    a_ratio: f64,
    /// fishtest's alpha: the learning rate decays as (A + k + 1)^-alpha.
    #[arg(long, default_value_t = janggi::tune::spsa::ALPHA)]
    alpha: f64,
    /// fishtest's gamma: the perturbation decays as (k + 1)^-gamma.
    #[arg(long, default_value_t = janggi::tune::spsa::GAMMA)]
    gamma: f64,
    /// The engine binary to tune (this program when absent); it is started with --tune.
    #[arg(long)]
    engine: Option<PathBuf>,
    /// Tune against this engine of the config (e.g. Fairy-Stockfish): both perturbed sets play it with both
    /// colours on each iteration's opening, instead of playing each other.
    #[arg(long)]
    opponent: Option<String>,
    /// The config file the opponent is read from.
    #[arg(long, default_value = DEFAULT_CONFIG)]
    config: PathBuf,
}

fn spsa(args: SpsaArgs) -> Result<(), String> {
    use janggi::tune::spsa::{self, SpsaOptions};
    super::output_path::prepare(&args.trace, "--trace")?;
    let engine = match args.engine {
        Some(e) => e,
        None => std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?,
    };
    let l = args.limits;
    let untimed = l.tc.is_none() && l.movetime.is_none() && l.depth.is_none() && l.nodes.is_none();
    let preset = Preset {
        tc: if untimed { Some("1+0.01".to_string()) } else { l.tc },
        movetime: l.movetime,
        depth: l.depth,
        nodes: l.nodes,
        openings: args.openings,
        variant: args.variant,
        max_plies: args.max_plies,
        ..Preset::default()
    };
    let opponent = args
        .opponent
        .as_ref()
        .map(|name| Config::load(&args.config).and_then(|c| c.engine(name).cloned()).map_err(|e| e.to_string()))
        .transpose()?;
    let opts = SpsaOptions {
        opponent,
        params: args.params,
        iterations: args.iterations,
        concurrency: args.concurrency,
        match_preset: preset,
        seed: args.seed,
        r_end: args.r_end,
        a_ratio: args.a_ratio,
        alpha: args.alpha,
        gamma: args.gamma,
        ..SpsaOptions::new(engine, args.trace)
    };
    let start = Instant::now();
    let state = spsa::run(&opts, |s, result| {
        let theta: Vec<String> = s.specs.iter().zip(&s.theta).map(|(p, t)| format!("{}={t:.1}", p.name)).collect();
        eprintln!(
            "iteration {}/{} ({:.0} s): pair {result:+}, {}",
            s.done,
            opts.iterations,
            start.elapsed().as_secs_f64(),
            theta.join(" ")
        );
    })?;
    print!("{}", spsa::final_table(&state));
    Ok(())
}
