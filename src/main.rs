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
            let mut engine = Engine::new(Output::stdout(), cli.protocol);
            engine.run(std::io::stdin().lock());
            Ok(())
        }
        Some(Tool::Perft { variant, fen, moves, depth, divide, threads }) => {
            perft(&variant, &fen, &moves, depth, divide, threads)
        }
        Some(Tool::Status) => janggi::status::run(std::io::stdin().lock(), std::io::stdout().lock()),
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
