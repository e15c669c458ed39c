//! The `janggi` command: with no subcommand, the protocol loop on stdin/stdout; otherwise a tool.

use clap::{Parser, Subcommand};
use janggi::board::{Move, Notation, Position, Rules, START_FEN};
use janggi::protocol::Dialect;
use janggi::protocol::engine::{Engine, Output};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "janggi", version, about = "A Janggi (Korean chess) engine for UCI, UCCI and USI hosts")]
struct Cli {
    /// Fix the protocol instead of taking it from the first command (uci, ucci or usi).
    #[arg(long, value_parser = parse_dialect)]
    protocol: Option<Dialect>,
    /// Switch parts of the search off to measure their worth in matches: tt, pruning, nmp, lmr.
    #[arg(long, value_parser = janggi::search::Ablation::parse, hide = true)]
    ablate: Option<janggi::search::Ablation>,
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand)]
enum Tool {
    /// Count the leaves of the legal move tree (and print nodes per second to stderr).
    Perft {
        #[arg(long, default_value = "janggi")]
        variant: String,
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Moves played from the FEN first (UCI notation).
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        #[arg(long)]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Threads splitting the root moves (1 = a single-threaded run).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Legal moves and game status of positions read as JSON lines {"variant","fen","moves"} from stdin.
    Status,
    /// Print the FENs of the 25 start positions.
    Setups,
    /// Tune the evaluation: generate self-play positions, or fit the weights to them.
    Tune {
        #[command(subcommand)]
        step: TuneStep,
    },
    /// Search a fixed set of positions to a fixed depth: the node count is the build's signature.
    Bench {
        #[arg(long, default_value_t = janggi::bench::BENCH_DEPTH)]
        depth: u32,
    },
}

#[derive(Subcommand)]
enum TuneStep {
    /// Play self-play games and append their quiet positions with results (`fen;result`) to a file.
    Selfplay {
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Fit the weights to a file of labelled positions and write the Rust source of the weights.
    Fit {
        #[arg(long)]
        data: std::path::PathBuf,
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

fn tune(step: TuneStep) -> Result<(), String> {
    match step {
        TuneStep::Selfplay { games, nodes, seed, out } => janggi::tune::selfplay_to_file(games, nodes, seed, &out),
        TuneStep::Fit { data, terms, epochs, rate, out } => janggi::tune::fit_file(&data, &terms, epochs, rate, &out),
    }
}

fn parse_dialect(s: &str) -> Result<Dialect, String> {
    Dialect::by_name(s).ok_or_else(|| format!("unknown protocol '{s}' (uci, ucci or usi)"))
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            let mut engine = Engine::new(Output::stdout(), cli.protocol).with_ablation(cli.ablate.unwrap_or_default());
            engine.run(std::io::stdin().lock());
            Ok(())
        }
        Some(Tool::Perft { variant, fen, moves, depth, divide, threads }) => {
            perft(&variant, &fen, &moves, depth, divide, threads)
        }
        Some(Tool::Status) => janggi::status::run(std::io::stdin().lock(), std::io::stdout().lock()),
        Some(Tool::Bench { depth }) => {
            let result =
                janggi::bench::run(depth, |i, fen, nodes| eprintln!("position {:>2}: {nodes:>10} nodes  {fen}", i + 1));
            println!("{} nodes {} nps", result.nodes, result.nps());
            eprintln!(
                "bench depth {depth}: {} nodes in {:.2} s, {} nodes/s",
                result.nodes,
                result.elapsed.as_secs_f64(),
                result.nps()
            );
            Ok(())
        }
        Some(Tool::Tune { step }) => tune(step),
        Some(Tool::Setups) => {
            for fen in janggi::board::setups::all_setups() {
                println!("{fen}");
            }
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn perft(variant: &str, fen: &str, moves: &[String], depth: u32, divide: bool, threads: usize) -> Result<(), String> {
    let rules = Rules::by_name(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
    let mut pos = Position::from_fen(fen, rules).map_err(|e| e.to_string())?;
    for text in moves {
        let m = Move::parse(text, Notation::Uci)
            .filter(|m| pos.is_legal(*m))
            .ok_or_else(|| format!("illegal move '{text}'"))?;
        pos.make_move(m);
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().map_err(|e| e.to_string())?;
    let start = Instant::now();
    let (total, divided) = pool.install(|| {
        if divide || threads > 1 {
            let d = janggi::perft::divide(&pos, depth);
            let total = if depth == 0 { 1 } else { d.iter().map(|x| x.1).sum() };
            (total, d)
        } else {
            (janggi::perft::perft(&mut pos, depth), Vec::new())
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    if divide {
        for (m, n) in &divided {
            println!("{m}: {n}");
        }
        println!();
    }
    println!("Nodes searched: {total}");
    eprintln!(
        "perft {depth}: {total} nodes in {seconds:.3} s, {:.1} M nodes/s ({} thread{})",
        total as f64 / seconds.max(1e-9) / 1e6,
        threads.max(1),
        if threads > 1 { "s" } else { "" }
    );
    Ok(())
}
