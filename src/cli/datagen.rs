//! `janggi datagen`: self-play training data, and the tools that read and convert it.

use super::{EvalChoice, SHARD_HELP};
use clap::{Args, Subcommand};
use janggi::board::Rules;
use std::path::PathBuf;
use std::process::ExitCode;

/// `janggi datagen`: generation flags, or one of the file tools.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct DatagenArgs {
    #[command(subcommand)]
    tool: Option<DatagenTool>,
    /// The binary file to write (a new file; a shard writes NAME.I-of-N.EXT).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Games to play (numbered from 0; a shard plays its share).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Nodes searched per move (the default limit when --depth is not given either).
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth searched per move.
    #[arg(long)]
    depth: Option<u32>,
    /// The rule set of the games.
    #[arg(long, default_value = "janggi")]
    variant: String,
    /// A file of FEN or EPD lines to start games from instead of the 25 setups.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random legal moves (never a pass) at the start of each game.
    #[arg(long, default_value_t = janggi::datagen::defaults::RANDOM_PLIES)]
    random_plies: usize,
    /// Keep only positions whose score is within this many centipawns.
    #[arg(long, default_value_t = janggi::datagen::defaults::SCORE_LIMIT)]
    score_limit: i32,
    /// End a game once one side stays this many centipawns ahead for --resign-plies plies.
    #[arg(long, default_value_t = janggi::datagen::defaults::RESIGN_SCORE)]
    resign_score: i32,
    /// Plies in a row for the resign rule (0 = play every game out).
    #[arg(long, default_value_t = janggi::datagen::defaults::RESIGN_PLIES)]
    resign_plies: usize,
    /// Plies after which a game is decided as the rule set decides its move-count end (count or draw).
    #[arg(long, default_value_t = janggi::datagen::defaults::MAX_PLIES)]
    max_plies: usize,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash per game in MB.
    #[arg(long, default_value_t = janggi::datagen::defaults::HASH_MB)]
    hash: usize,
    /// Seed of the openings and random moves: the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    eval: EvalChoice,
    /// Play only the games whose number is ≡ I (mod N), into the output's own shard file.
    #[arg(long, help = SHARD_HELP)]
    shard: Option<String>,
}

#[derive(Subcommand)]
pub enum DatagenTool {
    /// Count, result balance, score and piece-count histograms of datagen files.
    #[command(after_help = "Example: janggi datagen stats gen.bin")]
    Stats {
        /// Datagen files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Write a datagen file as `fen;score;result` lines (on stdout without --out).
    #[command(after_help = "Example: janggi datagen text gen.bin --out gen.txt")]
    Text {
        /// The datagen file to read.
        file: PathBuf,
        /// The text file to write (a new or replaced file).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Pack `fen;score;result` lines (a file, or stdin) into a new datagen file.
    #[command(after_help = "Example: janggi datagen pack gen.txt --out packed.bin")]
    Pack {
        /// The `fen;score;result` lines (standard input without it).
        input: Option<PathBuf>,
        /// The datagen file to write (a new file).
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(args: DatagenArgs) -> Result<ExitCode, String> {
    use janggi::datagen::{self, DatagenOptions, game::GameSettings, record, stats, text};
    match args.tool {
        Some(DatagenTool::Stats { files }) => {
            print!("{}", stats::collect(&files)?.report());
            return Ok(ExitCode::SUCCESS);
        }
        Some(DatagenTool::Text { file, out }) => {
            if let Some(path) = &out {
                super::output_path::prepare(path, "--out")?;
            }
            let records = record::open(&file)?;
            match out {
                Some(path) => {
                    let f =
                        std::fs::File::create(&path).map_err(|e| format!("cannot create '{}': {e}", path.display()))?;
                    text::to_text(records, &mut std::io::BufWriter::new(f))?;
                }
                None => {
                    text::to_text(records, &mut std::io::BufWriter::new(std::io::stdout().lock()))?;
                }
            }
            return Ok(ExitCode::SUCCESS);
        }
        Some(DatagenTool::Pack { input, out }) => {
            super::output_path::prepare(&out, "--out")?;
            let f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&out)
                .map_err(|e| format!("cannot create '{}' (a new file): {e}", out.display()))?;
            let mut w = std::io::BufWriter::new(f);
            let packed = match &input {
                Some(path) => {
                    let file =
                        std::fs::File::open(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
                    text::pack(&mut std::io::BufReader::new(file), &path.display().to_string(), &mut w)
                }
                None => text::pack(&mut std::io::stdin().lock(), "stdin", &mut w),
            };
            drop(w);
            return match packed {
                Ok(n) => {
                    eprintln!("packed {n} records into {}", out.display());
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    // No half-written file is left behind.
                    let _ = std::fs::remove_file(&out);
                    Err(e)
                }
            };
        }
        None => {}
    }
    let out = args.out.ok_or("datagen needs --out FILE (or one of: stats, text, pack)")?;
    super::output_path::prepare(&out, "--out")?;
    let rules = args.variant.parse::<Rules>().map_err(|e| e.to_string())?;
    if args.threads == 0 || args.hash == 0 {
        return Err("--threads and --hash must be at least 1".into());
    }
    janggi::search::engine::check_hash_mb(args.hash).map_err(|e| format!("--hash: {e}"))?;
    let nodes = match (args.nodes, args.depth) {
        (None, None) => Some(datagen::defaults::NODES),
        (n, _) => n,
    };
    let openings = match &args.openings {
        Some(path) => janggi::records::positions::load(path, rules)?,
        None => janggi::board::setups::all_setups(),
    };
    let shard = janggi::batch::shard::from_flag_and_env(args.shard.as_deref())?;
    let opts = DatagenOptions {
        game: GameSettings {
            rules,
            limits: janggi::search::Limits { nodes, depth: args.depth, ..Default::default() },
            random_plies: args.random_plies,
            max_plies: args.max_plies,
            score_limit: args.score_limit,
            resign_score: args.resign_score,
            resign_plies: args.resign_plies,
            hash_mb: args.hash,
            evaluator: args.eval.evaluator()?,
        },
        games: args.games,
        threads: args.threads,
        seed: args.seed,
        openings,
        shard,
        out: match shard {
            Some(s) => s.file(&out),
            None => out,
        },
        progress: true,
    };
    let summary = datagen::run(&opts)?;
    eprintln!(
        "{} games, {} positions in {:.1} s ({:.0} positions/s) written to {}{}",
        summary.games,
        summary.positions,
        summary.elapsed.as_secs_f64(),
        summary.positions_per_second(),
        opts.out.display(),
        if summary.interrupted { " (interrupted)" } else { "" }
    );
    Ok(if summary.interrupted { ExitCode::from(janggi::batch::interrupt::INTERRUPTED_EXIT) } else { ExitCode::SUCCESS })
}
