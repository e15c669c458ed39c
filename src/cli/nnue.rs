//! `janggi nnue`: net files in Fairy-Stockfish's Janggi NNUE format.

use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum NnueTool {
    /// Write a net of random weights (the same bytes for the same seed).
    Random {
        #[arg(long)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
        /// Hidden-layer weights over the whole i8 range, so that 16-bit partial sums saturate (as trained
        /// nets can make them): a harder check against the reference.
        #[arg(long)]
        saturating: bool,
    },
    /// Print a net file's header, description, hashes and sha256.
    Info { file: PathBuf },
    /// Print what Fairy-Stockfish's `eval` prints for the net: piece values, bucket table, NNUE evaluation.
    /// Without --fen, evaluates every FEN line read from stdin.
    Eval {
        #[arg(long)]
        net: PathBuf,
        #[arg(long)]
        fen: Option<String>,
        #[arg(long, default_value = "janggi")]
        variant: String,
        /// Moves played from the FEN first (UCI notation).
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// scalar, sse4.1 or avx2 (default: the fastest this processor runs).
        #[arg(long)]
        kernel: Option<String>,
    },
    /// Evaluations per second of each kernel (incremental updates on playouts from the bench positions).
    Bench {
        /// A net file (default: the random net of seed 1).
        #[arg(long)]
        net: Option<PathBuf>,
        #[arg(long, default_value_t = 100)]
        rounds: usize,
    },
}

pub fn run(action: NnueTool) -> Result<(), String> {
    use janggi::nnue_tool;
    match action {
        NnueTool::Random { seed, out, saturating } => nnue_tool::random(seed, saturating, &out),
        NnueTool::Info { file } => nnue_tool::info(&file).map(|text| print!("{text}")),
        NnueTool::Eval { net, fen, variant, moves, kernel } => {
            let kernel = nnue_tool::kernel_by_name(kernel.as_deref())?;
            nnue_tool::eval(&net, &variant, fen.as_deref(), &moves, kernel)
        }
        NnueTool::Bench { net, rounds } => nnue_tool::bench(net.as_deref(), rounds).map(|text| print!("{text}")),
    }
}
