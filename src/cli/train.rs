//! `janggi train`: a net from datagen files.

use clap::Args;
use std::path::PathBuf;

/// `janggi train`.
#[derive(Args)]
pub struct TrainArgs {
    /// Datagen files (also as --data).
    files: Vec<PathBuf>,
    /// More datagen files.
    #[arg(long, num_args = 1..)]
    data: Vec<PathBuf>,
    /// A datagen file of held-out positions (instead of --val-fraction of the data).
    #[arg(long)]
    val: Option<PathBuf>,
    /// Share of the data held out, as blocks of consecutive records (whole games) drawn by the seed.
    #[arg(long, default_value_t = janggi::train::defaults::VAL_FRACTION)]
    val_fraction: f64,
    /// Passes over the training data.
    #[arg(long, default_value_t = janggi::train::defaults::EPOCHS)]
    epochs: u32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = janggi::train::defaults::BATCH)]
    batch: usize,
    /// Adam's learning rate at the start.
    #[arg(long, default_value_t = janggi::train::defaults::LR)]
    lr: f32,
    /// Multiply the learning rate by --lr-gamma every this many epochs (0: never).
    #[arg(long, default_value_t = janggi::train::defaults::LR_DROP_EVERY)]
    lr_drop_every: u32,
    /// Factor the learning rate is multiplied by every --lr-drop-every epochs.
    #[arg(long, default_value_t = janggi::train::defaults::LR_GAMMA)]
    lr_gamma: f32,
    /// Weight of the search score in the target; the game result has the rest.
    #[arg(long, default_value_t = janggi::train::defaults::LAMBDA)]
    lambda: f32,
    /// Centipawns per unit of the win-probability sigmoid.
    #[arg(long, default_value_t = janggi::train::defaults::SCALE_CP)]
    scale: f32,
    /// Also train on each position's mirror image (files a..i reversed: the rules are symmetric), doubling the
    /// training set; the held-out set is kept as it is.
    #[arg(long)]
    mirror: bool,
    /// Threads computing the gradients.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the initial weights, the held-out split and the shuffling.
    #[arg(long, default_value_t = janggi::train::defaults::SEED)]
    seed: u64,
    /// Folder for checkpoint.bin and epoch-N.nnue.
    #[arg(long, default_value = "train-out")]
    dir: PathBuf,
    /// Continue the run whose checkpoint is in DIR (with the same data), up to --epochs.
    #[arg(long, value_name = "DIR", conflicts_with = "dir")]
    resume: Option<PathBuf>,
    /// Start from this net's weights (a net file of the architecture) instead of a fresh model: a new generation
    /// can continue the last one on new data.
    #[arg(long, value_name = "NET", conflicts_with = "resume")]
    init: Option<PathBuf>,
    /// The final net.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: TrainArgs) -> Result<(), String> {
    use janggi::train::{self, TrainOptions, loss::Loss};
    let positive = |v: f32| v.is_finite() && v > 0.0;
    if !(0.0..=1.0).contains(&args.lambda) || !positive(args.scale) || !positive(args.lr) || !positive(args.lr_gamma) {
        return Err("--lambda must be in 0..1, --scale, --lr and --lr-gamma above 0".into());
    }
    if let Some(path) = &args.out {
        super::output_path::prepare(path, "--out")?;
    }
    match &args.resume {
        // A run to continue must be there already: nothing is created for it.
        Some(dir) if !dir.is_dir() => return Err(format!("--resume '{}': no such folder", dir.display())),
        Some(_) => {}
        None => super::output_path::prepare_dir(&args.dir, "--dir")?,
    }
    let mut data = args.files;
    data.extend(args.data);
    let opts = TrainOptions {
        data,
        val: args.val,
        val_fraction: args.val_fraction,
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_drop_every: args.lr_drop_every,
        lr_gamma: args.lr_gamma,
        loss: Loss { lambda: args.lambda, scale: args.scale },
        mirror: args.mirror,
        threads: args.threads,
        seed: args.seed,
        resume: args.resume.is_some(),
        init: args.init,
        dir: args.resume.unwrap_or(args.dir),
        out: args.out,
    };
    let mut header = Some(train::TABLE_HEADER);
    let summary = train::run(&opts, &mut |r| {
        if let Some(h) = header.take() {
            println!("{h}");
        }
        println!("{}", r.line())
    })?;
    println!("positions: {} training, {} held out", summary.train_positions, summary.val_positions);
    println!("held-out loss of the classical evaluation on the same targets: {:.6}", summary.classical_val_loss);
    if let (Some(path), Some((n, mad))) = (&opts.out, summary.out_check) {
        println!("wrote {}: mean |float - quantised| {mad:.2} cp over {n} held-out positions", path.display());
    }
    Ok(())
}
