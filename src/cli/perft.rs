//! `janggi perft`: leaf counts of the legal move tree.

use clap::Args;
use janggi::board::{Notation, Position, Rules, START_FEN};
use std::time::Instant;

/// `janggi perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// The rule set (janggi, janggimodern, janggicasual, janggitraditional, janggibasic, janggistrict).
    #[arg(long, default_value = "janggi")]
    variant: String,
    /// The position to count from.
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// Moves played from the FEN first (UCI notation).
    #[arg(long, num_args = 0..)]
    moves: Vec<String>,
    /// Plies to count to.
    #[arg(long)]
    depth: u32,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Threads splitting the root moves (1 = a single-threaded run).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

pub fn run(args: PerftArgs) -> Result<(), String> {
    let PerftArgs { variant, fen, moves, depth, divide, threads } = args;
    let rules = variant.parse::<Rules>().map_err(|e| e.to_string())?;
    let mut pos = Position::from_fen_moves(&fen, rules, &moves, Notation::Uci).map_err(|e| e.to_string())?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().map_err(|e| e.to_string())?;
    let start = Instant::now();
    let (total, divided) = pool.install(|| {
        if divide || threads > 1 {
            let d = janggi::board::perft::divide(&pos, depth);
            let total = if depth == 0 { 1 } else { d.iter().map(|x| x.1).sum() };
            (total, d)
        } else {
            (janggi::board::perft::perft(&mut pos, depth), Vec::new())
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
