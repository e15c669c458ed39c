//! `janggi analyze`: positions and games analysed as JSON lines, and the review page.

use super::output_path;
use super::{EvalChoice, SHARD_HELP};
use clap::Args;
use janggi::analysis::analyze::{self, AnalyzeOptions};
use janggi::analysis::page::{self, PageOptions};
use janggi::board::Rules;
use janggi::matches::config::{Config, DEFAULT_CONFIG};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// `janggi analyze`.
#[derive(Args)]
pub struct AnalyzeArgs {
    /// Input file (standard input when absent): FEN or EPD lines, or PGN with --pgn.
    file: Option<PathBuf>,
    /// Analyse with this engine of the config instead of the built-in search.
    #[arg(long)]
    engine: Option<String>,
    /// The engines file --engine is read from.
    #[arg(long, default_value = DEFAULT_CONFIG)]
    config: PathBuf,
    /// The input is PGN: every position of every game is analysed and each move judged.
    #[arg(long)]
    pgn: bool,
    /// The rule set of FEN and EPD input.
    #[arg(long, default_value = "janggi")]
    variant: String,
    /// Search depth (the default limit is depth 12).
    #[arg(long)]
    depth: Option<u32>,
    /// Nodes per position.
    #[arg(long)]
    nodes: Option<u64>,
    /// Time per position in milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Lines to report per position (a `lines` list in the output).
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Positions analysed in parallel.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size per search in MB (built-in search).
    #[arg(long, default_value_t = analyze::DEFAULT_HASH_MB)]
    hash: usize,
    /// The built-in search's evaluation.
    #[command(flatten)]
    eval: EvalChoice,
    /// Centipawns lost against the best move that mark a blunder (PGN input).
    #[arg(long, default_value_t = analyze::DEFAULT_BLUNDER_CP)]
    blunder: i32,
    /// Analyse every N-th position or game only, from the I-th (I/N or auto/N).
    #[arg(long, help = SHARD_HELP)]
    shard: Option<String>,
    /// The input is a Korean .gib game record (also taken from a FILE ending in .gib).
    #[arg(long)]
    gib: bool,
    /// Also write a self-contained HTML review page to this file.
    #[arg(long)]
    html: Option<PathBuf>,
    /// `korean` adds moves in Korean notation (e.g. 79졸78) to the JSON and the page, beside the coordinates.
    #[arg(long, default_value = "coordinate", value_parser = ["coordinate", "korean"])]
    notation: String,
}

pub fn run(args: AnalyzeArgs) -> Result<ExitCode, String> {
    let rules = args.variant.parse::<Rules>().map_err(|e| e.to_string())?;
    let engine = match &args.engine {
        None => None,
        Some(name) => {
            let config = Config::load(&args.config).map_err(|e| e.to_string())?;
            Some(config.engine(name).map_err(|e| e.to_string())?.clone())
        }
    };
    if args.blunder < 0 {
        return Err("--blunder must be at least 0 (centipawns lost)".into());
    }
    janggi::search::engine::check_hash_mb(args.hash).map_err(|e| format!("--hash: {e}"))?;
    if args.multipv == 0 || args.threads == 0 {
        return Err("--multipv and --threads must be at least 1".into());
    }
    let opts = AnalyzeOptions {
        engine,
        rules,
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        multipv: args.multipv,
        threads: args.threads,
        hash_mb: args.hash.max(1),
        evaluator: args.eval.evaluator()?,
        blunder_cp: args.blunder,
        shard: janggi::batch::shard::from_flag_and_env(args.shard.as_deref())?,
        korean: args.notation == "korean",
    }
    .with_default_limit();
    if let Some(path) = &args.html {
        output_path::prepare(path, "--html")?;
    }
    if args.file.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        // Without a file the input is standard input: say so, or a person sees a command that seems to hang.
        eprintln!(
            "reading {} from standard input (give a FILE to read a file; end the input with Ctrl-D)",
            if args.pgn || args.gib { "PGN games" } else { "FEN or EPD lines" }
        );
    }
    let mut out = std::io::stdout().lock();
    let gib =
        args.gib || args.file.as_ref().is_some_and(|f| f.extension().is_some_and(|e| e.eq_ignore_ascii_case("gib")));
    let page = PageOptions {
        title: match &args.file {
            Some(f) => format!("janggi analysis of {}", f.display()),
            None => "janggi analysis".to_string(),
        },
        korean: opts.korean,
    };
    let (all_ok, html) = if args.pgn || gib {
        let bytes = match &args.file {
            Some(path) => std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?,
            None => {
                let mut buf = Vec::new();
                std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf)
                    .map_err(|e| format!("cannot read standard input: {e}"))?;
                buf
            }
        };
        let (ok, games) = if gib {
            analyze::analyze_game_list(&opts, janggi::records::gib::parse_games(&bytes)?, &mut out)?
        } else {
            analyze::analyze_games(&opts, &String::from_utf8_lossy(&bytes), &mut out)?
        };
        (ok, page::games_page(&games, &page))
    } else {
        let (ok, positions) = match &args.file {
            Some(path) => {
                let file = std::fs::File::open(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
                analyze::analyze_positions(&opts, std::io::BufReader::new(file), &mut out)?
            }
            None => analyze::analyze_positions(&opts, std::io::BufReader::new(std::io::stdin()), &mut out)?,
        };
        (ok, page::positions_page(&positions, &page))
    };
    if let Some(path) = &args.html {
        std::fs::write(path, html).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
