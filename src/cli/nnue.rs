//! `janggi nnue`: net files in Fairy-Stockfish's Janggi NNUE format: write a random net, describe a net file,
//! print a net's evaluation of positions in the reference's `eval` format, measure evaluation speed per kernel.

use janggi::board::{Move, Notation, Position, Rules};
use janggi::eval::nnue::arch::{FEATURES, VERSION, network_hash, stack_hash, transformer_hash};
use janggi::eval::nnue::digest::sha256_hex;
use janggi::eval::nnue::{
    AccumulatorStack, Kernel, Network, eval_report, evaluate, random_network, random_network_with,
};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Writes the random net of `seed` to `out`.
fn random(seed: u64, saturating: bool, out: &Path) -> Result<(), String> {
    let bytes = random_network_with(seed, saturating).to_bytes();
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!("wrote {} ({} bytes, sha256 {})", out.display(), bytes.len(), sha256_hex(&bytes));
    Ok(())
}

/// Header, description, hashes and digest of a net file (refused files give the reader's error).
fn info(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read net file {}: {e}", path.display()))?;
    let net = Network::from_bytes(&bytes).map_err(|e| e.to_string())?;
    Ok(format!(
        "file: {}\nsize: {} bytes\nsha256: {}\nversion: {VERSION:#010x}\nhash: {:#010x} (feature transformer {:#010x}, \
         layer stacks {:#010x})\narchitecture: HalfKAv2(Friend) {FEATURES} features -> 2x512 -> 16 -> 32 -> 1, 8 PSQT \
         buckets, 8 layer stacks\ndescription: {}\n",
        path.display(),
        bytes.len(),
        sha256_hex(&bytes),
        network_hash(),
        transformer_hash(),
        stack_hash(),
        net.description
    ))
}

/// The kernel named on the command line, if this processor runs it.
fn kernel_by_name(name: Option<&str>) -> Result<Kernel, String> {
    match name {
        None => Ok(Kernel::detect()),
        Some(n) => Kernel::available().into_iter().find(|k| k.name() == n).ok_or_else(|| {
            let names: Vec<_> = Kernel::available().iter().map(|k| k.name()).collect();
            format!("kernel '{n}' is not available here (available: {})", names.join(", "))
        }),
    }
}

/// A position from a FEN and moves under a rule set.
fn position(variant: &str, fen: &str, moves: &[String]) -> Result<Position, String> {
    let rules = Rules::by_name(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
    let mut pos = Position::from_fen(fen, rules).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    for text in moves {
        let m = Move::parse(text, Notation::Uci).filter(|&m| pos.is_legal(m));
        let m = m.ok_or_else(|| format!("illegal move '{text}'"))?;
        pos.make_move(m);
    }
    Ok(pos)
}

/// Prints the report of one position, or of every FEN line on stdin (each after a `fen: …` line).
fn eval(net: &Path, variant: &str, fen: Option<&str>, moves: &[String], kernel: Kernel) -> Result<(), String> {
    let net = Network::load(net).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    let write_err = |e: std::io::Error| e.to_string();
    if let Some(fen) = fen {
        let pos = position(variant, fen, moves)?;
        return out.write_all(eval_report(&net, kernel, &pos).as_bytes()).map_err(write_err);
    }
    let mut failed = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        writeln!(out, "fen: {fen}").map_err(write_err)?;
        match position(variant, fen, &[]) {
            Ok(pos) => out.write_all(eval_report(&net, kernel, &pos).as_bytes()).map_err(write_err)?,
            Err(e) => {
                writeln!(out, "error: {e}").map_err(write_err)?;
                failed += 1;
            }
        }
    }
    if failed > 0 { Err(format!("{failed} lines were not positions")) } else { Ok(()) }
}

/// Evaluations per second of each kernel on the children of the bench positions: every move made and its
/// accumulators updated, the position evaluated, and the move taken back; the classical evaluation of the same
/// positions (make, evaluate, unmake) in the same run for comparison.
fn bench(net: Option<&Path>, rounds: usize) -> Result<String, String> {
    let net = Arc::new(match net {
        Some(p) => Network::load(p).map_err(|e| e.to_string())?,
        None => random_network(1),
    });
    let positions: Vec<Position> =
        janggi::search::bench::POSITIONS.iter().filter_map(|f| Position::from_fen(f, Rules::default()).ok()).collect();
    let mut report = String::new();
    let params = janggi::eval::params::Params::default();
    let (mut evals, mut checksum) = (0u64, 0i64);
    let start = Instant::now();
    for _ in 0..rounds {
        for root in &positions {
            let mut pos = root.clone();
            for m in pos.legal_moves().iter().copied().collect::<Vec<_>>() {
                pos.make_move(m);
                checksum += janggi::eval::evaluate(&pos, &params) as i64;
                evals += 1;
                pos.unmake_move();
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let classical = evals as f64 / secs;
    report.push_str(&format!(
        "{:<9} {evals} evaluations in {secs:.3} s: {classical:.0} evals/s (checksum {checksum})\n",
        "classical"
    ));
    let mut baseline = None;
    for kernel in Kernel::available() {
        let mut evals = 0u64;
        let mut checksum = 0i64;
        let start = Instant::now();
        for _ in 0..rounds {
            for root in &positions {
                let mut pos = root.clone();
                let mut stack = AccumulatorStack::new(Arc::clone(&net), kernel, &pos);
                for m in pos.legal_moves().iter().copied().collect::<Vec<_>>() {
                    pos.make_move(m);
                    stack.push(&pos);
                    checksum += evaluate(&net, kernel, stack.current(&pos), &pos) as i64;
                    evals += 1;
                    stack.pop();
                    pos.unmake_move();
                }
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let rate = evals as f64 / secs;
        let ratio = rate / *baseline.get_or_insert(rate);
        report.push_str(&format!(
            "{:<9} {evals} evaluations in {secs:.3} s: {rate:.0} evals/s, {ratio:.2}x scalar, {:.2}x classical \
             (checksum {checksum})\n",
            kernel.name(),
            rate / classical
        ));
    }
    Ok(report)
}
use clap::Subcommand;

#[derive(Subcommand)]
pub enum NnueTool {
    /// Write a net of random weights (the same bytes for the same seed).
    #[command(after_help = "Example: janggi nnue random --seed 1 --out random.nnue")]
    Random {
        /// The seed: the same seed writes the same bytes.
        #[arg(long)]
        seed: u64,
        /// The net file to write.
        #[arg(long)]
        out: PathBuf,
        /// Hidden-layer weights over the whole i8 range, so that 16-bit partial sums saturate (as trained
        /// nets can make them): a harder check against the reference.
        #[arg(long)]
        saturating: bool,
    },
    /// Print a net file's header, description, hashes and sha256.
    #[command(after_help = "Example: janggi nnue info net.nnue")]
    Info {
        /// The net file.
        file: PathBuf,
    },
    /// Print what Fairy-Stockfish's `eval` prints for the net: piece values, bucket table, NNUE evaluation.
    /// Without --fen, evaluates every FEN line read from stdin.
    #[command(after_help = "Example: janggi setups | janggi nnue eval --net net.nnue")]
    Eval {
        /// The net file.
        #[arg(long)]
        net: PathBuf,
        /// The position (FEN lines from stdin without it).
        #[arg(long)]
        fen: Option<String>,
        /// The rule set the FEN and moves are read under.
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
    #[command(after_help = "Example: janggi nnue bench --net net.nnue --rounds 100")]
    Bench {
        /// A net file (default: the random net of seed 1).
        #[arg(long)]
        net: Option<PathBuf>,
        /// Playouts per kernel.
        #[arg(long, default_value_t = 100)]
        rounds: usize,
    },
}

pub fn run(action: NnueTool) -> Result<(), String> {
    match action {
        NnueTool::Random { seed, out, saturating } => {
            super::output_path::prepare(&out, "--out")?;
            random(seed, saturating, &out)
        }
        NnueTool::Info { file } => info(&file).map(|text| print!("{text}")),
        NnueTool::Eval { net, fen, variant, moves, kernel } => {
            let kernel = kernel_by_name(kernel.as_deref())?;
            eval(&net, &variant, fen.as_deref(), &moves, kernel)
        }
        NnueTool::Bench { net, rounds } => bench(net.as_deref(), rounds).map(|text| print!("{text}")),
    }
}
