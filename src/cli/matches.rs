//! `janggi match` and `janggi merge`: engine-vs-engine matches and their joined tables.

use super::{GameLimitArgs, SHARD_HELP, parse_sprt};
use clap::Args;
use janggi::matches::config::{Config, DEFAULT_CONFIG, Preset, SprtEntry};
use janggi::matches::stats::{DEFAULT_ALPHA, DEFAULT_BETA, Sprt};
use janggi::matches::{merge, runner, summary};
use std::path::PathBuf;
use std::process::ExitCode;

/// `janggi match`: every flag overrides the preset's value.
#[derive(Args)]
pub struct MatchArgs {
    /// A preset of the config ([preset.NAME]); without one, [preset.default] or the built-in defaults.
    preset: Option<String>,
    /// The engines and presets file.
    #[arg(long, default_value = DEFAULT_CONFIG)]
    config: PathBuf,
    /// The engines to play, by name: two for a match, more for a round robin.
    #[arg(long, value_delimiter = ',')]
    engines: Option<Vec<String>>,
    /// Games to play (each opening twice, colours reversed).
    #[arg(long)]
    games: Option<u32>,
    #[command(flatten)]
    limits: GameLimitArgs,
    /// Games played at once.
    #[arg(long)]
    concurrency: Option<usize>,
    /// `setups` (the 25 start positions) or a file of FEN or EPD lines; each is played with both colours.
    #[arg(long)]
    openings: Option<String>,
    /// The rule set of the games (janggi, janggimodern, ...).
    #[arg(long)]
    variant: Option<String>,
    /// The PGN file that every finished game is appended to.
    #[arg(long)]
    pgn: Option<String>,
    /// Stop when the SPRT of ELO0 against ELO1 (alpha = beta = 0.05) decides.
    #[arg(long, value_parser = parse_sprt)]
    sprt: Option<SprtEntry>,
    /// Continue the match whose games are already in the PGN file.
    #[arg(long)]
    resume: bool,
    /// Draw each pair's opening at random from this seed and the pair's number (openings in order without it).
    #[arg(long)]
    seed: Option<u64>,
    /// Play only the game pairs whose number is ≡ I (mod N), into the PGN's own shard file (match.I-of-N.pgn).
    #[arg(long, help = SHARD_HELP)]
    shard: Option<String>,
}

pub fn run(args: MatchArgs) -> Result<ExitCode, String> {
    let config = Config::load(&args.config).map_err(|e| e.to_string())?;
    let flags = Preset {
        engines: args.engines,
        variant: args.variant,
        games: args.games,
        concurrency: args.concurrency,
        tc: args.limits.tc,
        movetime: args.limits.movetime,
        depth: args.limits.depth,
        nodes: args.limits.nodes,
        openings: args.openings,
        pgn: args.pgn,
        sprt: args.sprt,
        seed: args.seed,
        ..Preset::default()
    };
    let mut settings = config.resolve(args.preset.as_deref(), &flags).map_err(|e| e.to_string())?;
    let shard = janggi::batch::shard::from_flag_and_env(args.shard.as_deref())?;
    if let Some(s) = shard {
        settings.pgn = s.file(&settings.pgn);
    }
    super::output_path::prepare(&settings.pgn, "--pgn")?;
    let report = runner::run(&settings, args.resume, shard)?;
    print!("{}", runner::format_report(&settings, &report));
    // Written only when the shard has played its whole share: its presence tells a waiting merge it is done.
    if shard.is_some() && !report.interrupted {
        summary::write(&settings.pgn.with_extension("json"), &settings, &report)?;
    }
    Ok(if report.interrupted { ExitCode::from(janggi::batch::interrupt::INTERRUPTED_EXIT) } else { ExitCode::SUCCESS })
}

/// `janggi merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// PGN files.
    #[arg(required = true)]
    pgn: Vec<PathBuf>,
    /// Decide the SPRT of ELO0 against ELO1 (alpha = beta = 0.05) on all the games.
    #[arg(long, value_parser = parse_sprt)]
    sprt: Option<SprtEntry>,
}

pub fn merge(args: MergeArgs) -> Result<(), String> {
    let MergeArgs { pgn: files, sprt } = args;
    let sprt = sprt
        .map(|s| Sprt::new(s.elo0, s.elo1, s.alpha.unwrap_or(DEFAULT_ALPHA), s.beta.unwrap_or(DEFAULT_BETA)))
        .transpose()?;
    let merged = merge::merge(&files, sprt)?;
    print!("{}", merge::format_merged(&merged));
    Ok(())
}
