//! The command line: what each subcommand takes (clap's derive) and the function that runs it, one file a
//! command. Every `run` returns an error as text; `run` here prints it and turns it into the exit status.

mod analyze;
mod bench;
pub mod closed_pipe;
mod datagen;
mod diagram;
mod matches;
mod nnue;
mod output_path;
mod perft;
mod status;
mod train;
mod tune;

use clap::{Args, Command, CommandFactory, FromArgMatches, Parser, Subcommand};
use janggi::eval::evaluator::Evaluator;
use janggi::matches::config::SprtEntry;
use janggi::protocol::Dialect;
use janggi::protocol::session::{Output, Session};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "janggi", version, about = "A Janggi (Korean chess) engine for UCI, UCCI and USI hosts")]
pub struct Cli {
    /// Fix the protocol instead of taking it from the first command (uci, ucci or usi).
    #[arg(long, value_parser = parse_dialect)]
    protocol: Option<Dialect>,
    /// Switch parts of the search off to measure their worth in matches: tt, pruning, nmp, lmr.
    #[arg(long, value_parser = janggi::search::Ablation::parse, hide = true)]
    ablate: Option<janggi::search::Ablation>,
    /// Offer the search parameters as UCI options (for `janggi tune spsa`; see `janggi tune params`).
    #[arg(long)]
    tune: bool,
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand)]
enum Tool {
    /// Count the leaves of the legal move tree (and print nodes per second to stderr).
    #[command(after_help = "Example: janggi perft --depth 4 --divide")]
    Perft(perft::PerftArgs),
    /// Legal moves and game status of positions read as JSON lines {"variant","fen","moves"} from stdin.
    #[command(
        after_help = "Example: echo '{\"variant\": \"janggi\", \"fen\": \"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\", \"moves\": [\"b1c3\"]}' | janggi status"
    )]
    Status,
    /// Print the FENs of the 25 start positions.
    #[command(after_help = "Example: janggi setups > setups.epd")]
    Setups,
    /// Tune the evaluation (self-play positions, Texel fit) or the search parameters (SPSA by games).
    #[command(after_help = "Example: janggi tune params")]
    Tune {
        #[command(subcommand)]
        step: tune::TuneStep,
    },
    /// Search a fixed set of positions to a fixed depth: the node count is the build's signature.
    #[command(after_help = "Example: janggi bench --classical")]
    Bench(bench::BenchArgs),
    /// Play configured engines against each other, every move refereed by our rules (see engines.toml).
    #[command(
        after_help = "Example: janggi match --engines janggi,janggi-skill19 --games 20 --tc 10+0.1 --concurrency 2 --pgn games.pgn"
    )]
    Match(matches::MatchArgs),
    /// Analyse positions (FEN or EPD lines) or PGN games; one JSON line per position or game on stdout.
    #[command(after_help = "Example: janggi analyze --pgn games.pgn --depth 12 --html review.html")]
    Analyze(analyze::AnalyzeArgs),
    /// Join the games of PGN files (a match's shards, or earlier runs) into one final table.
    #[command(after_help = "Example: janggi merge games.0-of-2.pgn games.1-of-2.pgn --sprt 0,10")]
    Merge(matches::MergeArgs),
    /// Draw a position as an SVG board (on stdout without --out).
    #[command(after_help = "Example: janggi diagram --moves b1c3 b10c8 --arrow h1g3 --out board.svg")]
    Diagram(diagram::DiagramArgs),
    /// Training data from self-play: quiet positions with the search's score and the game's result, as
    /// 32-byte binary records (docs/datagen-format.md); `stats`, `text` and `pack` read and convert them.
    #[command(after_help = "Example: janggi datagen --games 1000 --threads 2 --out gen.bin")]
    Datagen(datagen::DatagenArgs),
    /// Train a net in Fairy-Stockfish's Janggi NNUE format on datagen files; one line per epoch on stdout.
    #[command(after_help = "Example: janggi train gen.bin --epochs 10 --threads 2 --out net.nnue")]
    Train(train::TrainArgs),
    /// Nets in Fairy-Stockfish's Janggi NNUE format: random nets, file details, evaluations, speed.
    #[command(after_help = "Example: janggi nnue info net.nnue")]
    Nnue {
        #[command(subcommand)]
        action: nnue::NnueTool,
    },
}

impl Cli {
    /// The command line of this process. A negative number is read as a value everywhere (`--games -1` is then
    /// refused as a bad count, not misread as an unknown flag `-1` with a tip to write `-- -1`).
    pub fn from_env() -> Cli {
        fn negatives_are_values(cmd: Command) -> Command {
            cmd.allow_negative_numbers(true).mut_subcommands(negatives_are_values)
        }
        let matches = negatives_are_values(Cli::command()).get_matches();
        Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
    }
}

/// Runs what the command line asks for: the protocol loop without a subcommand, else the tool.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        None => {
            let stdout = closed_pipe::ExitWhenClosed(std::io::stdout());
            let mut engine =
                Session::new(Output::new(Box::new(stdout)), cli.protocol).with_ablation(cli.ablate.unwrap_or_default());
            if cli.tune {
                engine = engine.with_tuning();
            }
            engine.run(std::io::stdin().lock());
            Ok(ExitCode::SUCCESS)
        }
        Some(Tool::Perft(args)) => perft::run(args).map(done),
        Some(Tool::Status) => status::run(std::io::stdin().lock(), std::io::stdout().lock()).map(done),
        Some(Tool::Bench(args)) => bench::run(args).map(done),
        Some(Tool::Tune { step }) => tune::run(step).map(done),
        Some(Tool::Setups) => {
            for fen in janggi::board::setups::all_setups() {
                println!("{fen}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Tool::Match(args)) => matches::run(args),
        Some(Tool::Analyze(args)) => analyze::run(args),
        Some(Tool::Merge(args)) => matches::merge(args).map(done),
        Some(Tool::Diagram(args)) => diagram::run(args).map(done),
        Some(Tool::Nnue { action }) => nnue::run(action).map(done),
        Some(Tool::Train(args)) => train::run(args).map(done),
        Some(Tool::Datagen(args)) => datagen::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn done(_: ()) -> ExitCode {
    ExitCode::SUCCESS
}

/// Which evaluation the built-in search uses: the embedded default net unless told otherwise.
#[derive(Args, Clone, Debug)]
struct EvalChoice {
    /// Evaluate with this net file (Fairy-Stockfish's Janggi NNUE format) instead of the embedded default net.
    #[arg(long, conflicts_with = "classical")]
    net: Option<PathBuf>,
    /// Evaluate with the classical (hand-written) evaluation instead of a net.
    #[arg(long)]
    classical: bool,
}

impl EvalChoice {
    fn evaluator(&self) -> Result<Evaluator, String> {
        use janggi::eval::nnue::{NetError, Network, default_network};
        Ok(match (&self.net, self.classical) {
            (_, true) => Evaluator::Classical,
            (Some(path), false) => Evaluator::Nnue(std::sync::Arc::new(Network::load(path).map_err(|e| match e {
                // The read error names the file already.
                NetError::Io { .. } => e.to_string(),
                _ => format!("{}: {e}", path.display()),
            })?)),
            (None, false) => Evaluator::Nnue(default_network()),
        })
    }
}

/// Help for `--shard` (shared by every command that splits its work).
const SHARD_HELP: &str = "Run shard I of N (I/N, from 0), or auto/N with the index from JOB_COMPLETION_INDEX or \
                          SLURM_ARRAY_TASK_ID; without the flag a Slurm array task is a shard by itself";

/// How long engines think in a game, for `janggi match` and `janggi tune spsa`.
#[derive(Args)]
struct GameLimitArgs {
    /// Clock: BASE+INC in seconds, e.g. 10+0.1.
    #[arg(long, allow_hyphen_values = true)]
    tc: Option<String>,
    /// Fixed time per move in milliseconds (instead of a clock).
    #[arg(long)]
    movetime: Option<u64>,
    /// Fixed search depth per move (instead of a clock).
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed node count per move (instead of a clock).
    #[arg(long)]
    nodes: Option<u64>,
}

fn parse_sprt(s: &str) -> Result<SprtEntry, String> {
    let bad = || format!("bad SPRT '{s}': write ELO0,ELO1, e.g. 0,10");
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    let elo0 = a.trim().parse().map_err(|_| bad())?;
    let elo1 = b.trim().parse().map_err(|_| bad())?;
    Ok(SprtEntry { elo0, elo1, alpha: None, beta: None })
}

fn parse_dialect(s: &str) -> Result<Dialect, String> {
    Dialect::by_name(s).ok_or_else(|| format!("unknown protocol '{s}' (uci, ucci or usi)"))
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::{Command, CommandFactory};

    /// Every flag and argument of every subcommand, with the ones that have no help line.
    fn missing_help(cmd: &Command, path: &str, found: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if id != "help" && id != "version" && arg.get_help().is_none() && !arg.is_hide_set() {
                found.push(format!("{path} --{id}"));
            }
        }
        for sub in cmd.get_subcommands() {
            missing_help(sub, &format!("{path} {}", sub.get_name()), found);
        }
    }

    #[test]
    fn every_flag_has_a_help_line() {
        let mut found = Vec::new();
        missing_help(&Cli::command(), "janggi", &mut found);
        assert!(found.is_empty(), "no help line: {found:#?}");
    }

    #[test]
    fn every_subcommand_help_ends_with_an_example() {
        fn walk(cmd: &Command, path: &str, found: &mut Vec<String>) {
            for sub in cmd.get_subcommands() {
                let name = format!("{path} {}", sub.get_name());
                let example = sub.get_after_help().map(|h| h.to_string()).unwrap_or_default();
                if !example.starts_with("Example:") || !example.contains(&name) {
                    found.push(name.clone());
                }
                walk(sub, &name, found);
            }
        }
        let mut found = Vec::new();
        walk(&Cli::command(), "janggi", &mut found);
        assert!(found.is_empty(), "no example: {found:#?}");
    }
}
