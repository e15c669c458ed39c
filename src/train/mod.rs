//! `janggi train`: fits a Fairy-Stockfish-format Janggi net to datagen records. The float model (`model`) is
//! trained with Adam (`adam`) on mini-batches split over rayon threads: each thread runs forward and backward on
//! its share and keeps its own gradient of the small dense layers; the transformer's rows touched by the batch
//! are then gathered per row (a counting sort of the active features) and updated in parallel, row by row, so no
//! thread writes another's rows and untouched rows cost nothing. Every epoch writes a checkpoint and a quantised
//! net (`export`), read back by the engine's reader and compared with the float model.

pub mod adam;
pub mod batch;
pub mod checkpoint;
pub mod export;
pub mod loss;
pub mod model;
pub mod scale;

use adam::{Moments, Step};
use batch::Dataset;
use checkpoint::Checkpoint;
use loss::Loss;
use model::{DENSE_LEN, GROUP, H, Model, ROWS, Scratch, real_row};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

use crate::board::Position;
use crate::board::splitmix::SplitMix;
use crate::datagen::record::Record;
use crate::eval::evaluate;
use crate::eval::nnue::arch::{BUCKETS, KING_BUCKETS, TRANSFORMED_DIMENSIONS};
use crate::eval::params::Params;

/// The command's defaults.
pub mod defaults {
    /// The search score alone (docs/training.md, "Why λ = 1").
    pub const LAMBDA: f32 = 1.0;
    pub const SCALE_CP: f32 = 400.0;
    pub const LR: f32 = 1e-3;
    pub const BATCH: usize = 16384;
    pub const EPOCHS: u32 = 10;
    pub const VAL_FRACTION: f64 = 0.02;
    /// The learning rate is multiplied by `LR_GAMMA` every `LR_DROP_EVERY` epochs.
    pub const LR_DROP_EVERY: u32 = 10;
    pub const LR_GAMMA: f32 = 0.3;
    pub const SEED: u64 = 1;
    /// Held-out positions on which the float and quantised nets are compared.
    pub const CHECK_POSITIONS: usize = 10_000;
    /// Records per held-out block (about 30 games of datagen's default length).
    pub const VAL_BLOCK: usize = 4096;
    /// Small sets are cut into at least this many blocks, so that a held-out fraction is still a few blocks.
    pub const MIN_VAL_BLOCKS: usize = 64;
}

/// Mixed into the seed for the per-epoch shuffles, so that they differ from the held-out split's shuffle.
const SHUFFLE_SALT: u64 = 0x5EED_5EED_0000_0001;
pub const CHECKPOINT_FILE: &str = "checkpoint.bin";

#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub data: Vec<PathBuf>,
    /// Held-out records; without it, `val_fraction` of the data after a seeded shuffle.
    pub val: Option<PathBuf>,
    pub val_fraction: f64,
    pub epochs: u32,
    pub batch: usize,
    pub lr: f32,
    pub lr_drop_every: u32,
    pub lr_gamma: f32,
    pub loss: Loss,
    /// Train on every position and its mirror image (files reversed).
    pub mirror: bool,
    pub threads: usize,
    pub seed: u64,
    /// Where checkpoints and per-epoch nets go.
    pub dir: PathBuf,
    /// Continue from `dir`'s checkpoint.
    pub resume: bool,
    /// Start a new run from this net's weights instead of a fresh model (a new generation continuing the last).
    pub init: Option<PathBuf>,
    /// The final net.
    pub out: Option<PathBuf>,
}

/// What one epoch did.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: u32,
    pub train_loss: f64,
    pub val_loss: f64,
    pub lr: f32,
    pub positions_per_second: f64,
    pub elapsed_seconds: f64,
    /// Mean |float - quantised| evaluation on held-out positions, centipawns.
    pub mad_cp: f64,
}

pub const TABLE_HEADER: &str = "epoch  train_loss    val_loss        lr  positions/s  elapsed_s  mad_cp";

impl EpochReport {
    pub fn line(&self) -> String {
        format!(
            "{:>5}  {:>10.6}  {:>10.6}  {:>8.2e}  {:>11.0}  {:>9.1}  {:>6.2}",
            self.epoch,
            self.train_loss,
            self.val_loss,
            self.lr,
            self.positions_per_second,
            self.elapsed_seconds,
            self.mad_cp
        )
    }
}

/// The final export.
#[derive(Clone, Debug)]
pub struct Summary {
    pub train_positions: usize,
    pub val_positions: usize,
    /// The `--out` net's check: positions compared and the mean absolute difference (cp).
    pub out_check: Option<(usize, f64)>,
    /// The held-out loss of the classical evaluation on the same positions and targets.
    pub classical_val_loss: f64,
}

/// The learning rate of an epoch (from 1).
pub fn learning_rate(opts: &TrainOptions, epoch: u32) -> f32 {
    match opts.lr_drop_every {
        0 => opts.lr,
        every => opts.lr * opts.lr_gamma.powi(((epoch - 1) / every) as i32),
    }
}

fn shuffle<T>(items: &mut [T], rng: &mut SplitMix) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// Splits records (in file order) into training and held-out sets by whole blocks of consecutive records, about
/// `held` held out. A game's positions are consecutive in a datagen file and alike, so a split by position would
/// put most games on both sides and the held-out loss would reward memorising games; by blocks, only the games
/// that straddle a block's ends are shared.
fn hold_out_blocks(all: Vec<&Record>, held: usize, seed: u64) -> (Vec<&Record>, Vec<Record>) {
    let block = (all.len() / defaults::MIN_VAL_BLOCKS).clamp(1, defaults::VAL_BLOCK);
    let mut blocks: Vec<_> = all.chunks(block).collect();
    shuffle(&mut blocks, &mut SplitMix(seed));
    let (mut train, mut val) = (Vec::new(), Vec::new());
    for b in blocks {
        if val.len() < held {
            val.extend(b.iter().map(|&r| r.clone()));
        } else {
            train.extend_from_slice(b);
        }
    }
    (train, val)
}

/// The training and held-out sets and the positions of the float/quantised check.
struct Data {
    train: Dataset,
    val: Dataset,
    check: Vec<Position>,
    /// The held-out loss of the classical evaluation: what a net must beat to predict better than it.
    classical_val_loss: f64,
}

fn load_data(opts: &TrainOptions) -> Result<Data, String> {
    if opts.data.is_empty() {
        return Err("no data: give one or more datagen files (--data FILE… or as arguments)".into());
    }
    let records = batch::load_records(&opts.data)?;
    let all: Vec<_> = records.iter().collect();
    let (train, val_records) = match &opts.val {
        Some(path) => (all, batch::load_records(std::slice::from_ref(path))?),
        None => {
            if !(0.0..1.0).contains(&opts.val_fraction) {
                return Err(format!("--val-fraction {} is not in 0..1", opts.val_fraction));
            }
            let held = ((all.len() as f64 * opts.val_fraction).round() as usize).max(1);
            if all.len() <= held {
                return Err(format!("{} records are too few to hold {held} out for validation", all.len()));
            }
            hold_out_blocks(all, held, opts.seed)
        }
    };
    if train.is_empty() || val_records.is_empty() {
        return Err("the training and the held-out sets each need at least one record".into());
    }
    let check = val_records.iter().take(defaults::CHECK_POSITIONS).map(|r| r.position()).collect::<Result<_, _>>()?;
    let val_refs: Vec<_> = val_records.iter().collect();
    let val = batch::dataset(&val_refs, false)?;
    let classical_val_loss = classical_loss(&val_records, &val, &opts.loss)?;
    Ok(Data { train: batch::dataset(&train, opts.mirror)?, val, check, classical_val_loss })
}

/// Mean loss of the classical evaluation on records (with their samples, in the same order).
fn classical_loss(records: &[Record], samples: &Dataset, loss: &Loss) -> Result<f64, String> {
    let params = Params::default();
    let total = records
        .par_iter()
        .zip(samples.samples.par_iter())
        .map(|(r, s)| Ok(f64::from(loss.of_cp(evaluate(&r.position()?, &params) as f32, s).0)))
        .sum::<Result<f64, String>>()?;
    Ok(total / records.len().max(1) as f64)
}

/// Buffers reused from batch to batch.
#[derive(Default)]
struct Workspace {
    dacc: Vec<f32>,
    psqt_grad: Vec<f32>,
    row_start: Vec<u32>,
    entries: Vec<u32>,
}

/// One Adam update on the positions `batch` (indices into `data`); returns the summed loss.
fn train_step(s: &mut Checkpoint, data: &Dataset, batch: &[u32], loss: &Loss, lr: f32, ws: &mut Workspace) -> f64 {
    let n = batch.len();
    let per_thread = n.div_ceil(rayon::current_num_threads()).max(1);
    ws.dacc.resize(n * TRANSFORMED_DIMENSIONS, 0.0);
    ws.psqt_grad.resize(n, 0.0);
    let model = &s.model;
    let inv_n = 1.0 / n as f32;
    let (dense_grad, total) = batch
        .par_chunks(per_thread)
        .zip(ws.dacc.par_chunks_mut(per_thread * TRANSFORMED_DIMENSIONS))
        .zip(ws.psqt_grad.par_chunks_mut(per_thread))
        .map(|((indices, dacc), psqt_grad)| {
            let mut grad = vec![0.0f32; DENSE_LEN];
            let mut scratch = Box::<Scratch>::default();
            let mut total = 0.0f64;
            for (k, &i) in indices.iter().enumerate() {
                let view = data.view(i as usize);
                let eval = model.forward(&view, &mut scratch);
                let (l, g) = loss.of(eval, &data.samples[i as usize]);
                total += f64::from(l);
                let g = g * inv_n;
                let d = &mut dacc[k * TRANSFORMED_DIMENSIONS..(k + 1) * TRANSFORMED_DIMENSIONS];
                model.backward(&view, &scratch, g, &mut grad, d);
                psqt_grad[k] = g * scale::PSQT_UNIT / 2.0;
            }
            (grad, total)
        })
        .reduce(
            || (vec![0.0f32; DENSE_LEN], 0.0),
            |(mut a, ta), (b, tb)| {
                a.iter_mut().zip(&b).for_each(|(a, b)| *a += b);
                (a, ta + tb)
            },
        );
    s.step += 1;
    let step = Step::new(lr, s.step);
    step.apply(&mut s.model.dense, &mut s.dense.m, &mut s.dense.v, &dense_grad);
    s.model.clip_weights();

    // Gather, per real transformer row, the (position, perspective) pairs that activated it: a counting sort.
    ws.row_start.clear();
    ws.row_start.resize(ROWS + 1, 0);
    for &i in batch {
        let v = data.view(i as usize);
        for &f in v.us.iter().chain(v.them) {
            ws.row_start[real_row(f as usize) + 1] += 1;
        }
    }
    for r in 0..ROWS {
        ws.row_start[r + 1] += ws.row_start[r];
    }
    ws.entries.resize(ws.row_start[ROWS] as usize, 0);
    let mut cursor = ws.row_start.clone();
    for (k, &i) in batch.iter().enumerate() {
        let v = data.view(i as usize);
        for (p, features) in [v.us, v.them].into_iter().enumerate() {
            let entry = (k as u32) << 1 | p as u32;
            for &f in features {
                let row = real_row(f as usize);
                ws.entries[cursor[row] as usize] = entry;
                cursor[row] += 1;
            }
        }
    }
    let (row_start, entries, dacc, psqt_grad) = (&ws.row_start, &ws.entries, &ws.dacc, &ws.psqt_grad);
    let buckets: Vec<u8> = batch.iter().map(|&i| data.samples[i as usize].bucket).collect();
    (
        s.model.ft.par_chunks_mut(GROUP * H),
        s.ft.m.par_chunks_mut(GROUP * H),
        s.ft.v.par_chunks_mut(GROUP * H),
        s.model.psqt.par_chunks_mut(GROUP * BUCKETS),
        s.psqt.m.par_chunks_mut(GROUP * BUCKETS),
        s.psqt.v.par_chunks_mut(GROUP * BUCKETS),
    )
        .into_par_iter()
        .enumerate()
        .for_each(|(group, (w, m, v, pw, pm, pv))| {
            let first = group * GROUP;
            if row_start[first] == row_start[first + KING_BUCKETS] {
                return;
            }
            // The virtual row (last of the group) is active wherever one of the real rows is.
            let mut virtual_g = [0.0f32; H];
            let mut virtual_gp = [0.0f32; BUCKETS];
            for r in 0..KING_BUCKETS {
                let touched = &entries[row_start[first + r] as usize..row_start[first + r + 1] as usize];
                if touched.is_empty() {
                    continue;
                }
                let mut g = [0.0f32; H];
                let mut gp = [0.0f32; BUCKETS];
                for &e in touched {
                    let (k, p) = ((e >> 1) as usize, (e & 1) as usize);
                    let d = &dacc[k * TRANSFORMED_DIMENSIONS + p * H..k * TRANSFORMED_DIMENSIONS + (p + 1) * H];
                    g.iter_mut().zip(d).for_each(|(g, d)| *g += d);
                    // The PSQT value is (ours - theirs) / 2: the other perspective's rows pull the other way.
                    gp[buckets[k] as usize] += if p == 0 { psqt_grad[k] } else { -psqt_grad[k] };
                }
                let (rows, pr) = (r * H..(r + 1) * H, r * BUCKETS..(r + 1) * BUCKETS);
                step.apply(&mut w[rows.clone()], &mut m[rows.clone()], &mut v[rows], &g);
                step.apply(&mut pw[pr.clone()], &mut pm[pr.clone()], &mut pv[pr], &gp);
                virtual_g.iter_mut().zip(&g).for_each(|(a, b)| *a += b);
                virtual_gp.iter_mut().zip(&gp).for_each(|(a, b)| *a += b);
            }
            let (rows, pr) = (KING_BUCKETS * H.., KING_BUCKETS * BUCKETS..);
            step.apply(&mut w[rows.clone()], &mut m[rows.clone()], &mut v[rows], &virtual_g);
            step.apply(&mut pw[pr.clone()], &mut pm[pr.clone()], &mut pv[pr], &virtual_gp);
        });
    total
}

/// Mean loss over a data set.
fn mean_loss(model: &Model, data: &Dataset, loss: &Loss) -> f64 {
    let total: f64 = (0..data.len())
        .into_par_iter()
        .map_init(Box::<Scratch>::default, |scratch, i| {
            f64::from(loss.of(model.forward(&data.view(i), scratch), &data.samples[i]).0)
        })
        .sum();
    total / data.len().max(1) as f64
}

/// What a net file says of itself: its data by file name (never the folder of the machine that trained it), the
/// count, the settings and the epoch.
fn description(opts: &TrainOptions, positions: usize, epoch: u32) -> String {
    let files: Vec<String> = opts
        .data
        .iter()
        .map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()))
        .collect();
    format!(
        "janggi train: {positions} positions from {}; lambda {}, lr {}, batch {}{}; epoch {epoch} of {}",
        files.join(", "),
        opts.loss.lambda,
        opts.lr,
        opts.batch,
        if opts.mirror { ", mirrored" } else { "" },
        opts.epochs
    )
}

/// Trains as `opts` says, calling `report` after each epoch.
pub fn run(opts: &TrainOptions, report: &mut (dyn FnMut(&EpochReport) + Send)) -> Result<Summary, String> {
    if opts.batch == 0 || opts.threads == 0 || opts.epochs == 0 {
        return Err("--batch, --threads and --epochs must be at least 1".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", opts.threads))?;
    pool.install(|| train(opts, report))
}

fn train(opts: &TrainOptions, report: &mut (dyn FnMut(&EpochReport) + Send)) -> Result<Summary, String> {
    let started = Instant::now();
    let checkpoint_path = opts.dir.join(CHECKPOINT_FILE);
    // A bad checkpoint is refused before the data is read.
    let resumed = if opts.resume { Some(Checkpoint::load(&checkpoint_path)?) } else { None };
    let initial = match (&opts.init, &resumed) {
        (Some(path), None) => {
            let net = crate::eval::nnue::Network::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
            export::dequantise(&net)
        }
        (Some(_), Some(_)) => return Err("a resumed run continues its checkpoint: --init cannot be given too".into()),
        (None, _) => Model::new(opts.seed),
    };
    let data = load_data(opts)?;
    log::info!(
        "{} training and {} held-out positions loaded; classical evaluation's held-out loss {:.6}",
        data.train.len(),
        data.val.len(),
        data.classical_val_loss
    );
    let mut state = match resumed {
        Some(c) => {
            if c.records != data.train.len() as u64 {
                return Err(format!(
                    "{}: the checkpoint was trained on {} records, this data has {}",
                    checkpoint_path.display(),
                    c.records,
                    data.train.len()
                ));
            }
            c
        }
        None => Checkpoint {
            model: initial,
            ft: Moments::new(ROWS * H),
            psqt: Moments::new(ROWS * BUCKETS),
            dense: Moments::new(DENSE_LEN),
            epoch: 0,
            records: data.train.len() as u64,
            step: 0,
            rng: opts.seed ^ SHUFFLE_SALT,
        },
    };
    let mut rng = SplitMix(state.rng);
    std::fs::create_dir_all(&opts.dir).map_err(|e| format!("cannot create {}: {e}", opts.dir.display()))?;
    let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
    let mut ws = Workspace::default();
    for epoch in state.epoch + 1..=opts.epochs {
        let lr = learning_rate(opts, epoch);
        let epoch_start = Instant::now();
        order.sort_unstable();
        shuffle(&mut order, &mut rng);
        let mut total = 0.0;
        for batch in order.chunks(opts.batch) {
            total += train_step(&mut state, &data.train, batch, &opts.loss, lr, &mut ws);
        }
        let train_seconds = epoch_start.elapsed().as_secs_f64();
        let train_loss = total / data.train.len() as f64;
        let val_loss = mean_loss(&state.model, &data.val, &opts.loss);
        if !train_loss.is_finite() || !val_loss.is_finite() {
            return Err(format!("training diverged at epoch {epoch} (loss is not finite); lower --lr"));
        }
        state.epoch = epoch;
        state.rng = rng.0;
        state.save(&checkpoint_path)?;
        let net_path = opts.dir.join(format!("epoch-{epoch}.nnue"));
        let desc = description(opts, data.train.len(), epoch);
        let mad_cp = export::write_and_check(&state.model, desc, &net_path, &data.check, &data.val)?;
        report(&EpochReport {
            epoch,
            train_loss,
            val_loss,
            lr,
            positions_per_second: data.train.len() as f64 / train_seconds.max(1e-9),
            elapsed_seconds: started.elapsed().as_secs_f64(),
            mad_cp,
        });
    }
    let out_check = match &opts.out {
        Some(path) => {
            let desc = description(opts, data.train.len(), opts.epochs);
            Some((data.check.len(), export::write_and_check(&state.model, desc, path, &data.check, &data.val)?))
        }
        None => None,
    };
    Ok(Summary {
        train_positions: data.train.len(),
        val_positions: data.val.len(),
        out_check,
        classical_val_loss: data.classical_val_loss,
    })
}
