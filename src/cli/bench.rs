//! `janggi bench`: the node count of a fixed search, the build's signature.

use super::EvalChoice;
use clap::Args;

/// `janggi bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Depth each position is searched to (the node count is the signature at the default).
    #[arg(long, default_value_t = janggi::search::bench::BENCH_DEPTH)]
    depth: u32,
    #[command(flatten)]
    eval: EvalChoice,
}

/// `janggi bench`: the node count on stdout, one line per position and the speed on stderr.
pub fn run(args: BenchArgs) -> Result<(), String> {
    let (depth, evaluator) = (args.depth, args.eval.evaluator()?);
    let result = janggi::search::bench::run_with(depth, &evaluator, |i, fen, nodes| {
        eprintln!("position {:>2}: {nodes:>10} nodes  {fen}", i + 1)
    });
    println!("{} nodes {} nps", result.nodes, result.nps());
    eprintln!(
        "bench depth {depth}: {} nodes in {:.2} s, {} nodes/s",
        result.nodes,
        result.elapsed.as_secs_f64(),
        result.nps()
    );
    Ok(())
}
