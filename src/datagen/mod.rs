//! Training data from self-play (`janggi datagen`): games played in parallel by the engine facade, their quiet
//! positions written as fixed-size binary records (`record`, documented in `docs/datagen-format.md`), with tools
//! to summarise the files (`stats`) and to turn them into text and back (`text`).
//!
//! Reproducibility: game `g` depends only on the run's seed and `g` (its opening and random plies are drawn from
//! them, and every search is single-threaded with a node or depth limit and a fresh table), and finished games
//! are written in game-number order. So the same seed gives the same file whatever the thread count, and shard
//! `I/N` writes exactly the unsharded run's games numbered ≡ I (mod N), in the same order.

pub mod game;
pub mod record;
pub mod stats;
pub mod text;

use crate::batch::interrupt;
use crate::batch::shard::Shard;
use crate::board::splitmix::SplitMix;
use game::GameSettings;
use record::Record;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Defaults of the `janggi datagen` flags, with the reasons in the README ("Training data").
pub mod defaults {
    /// Random plies at the start: with 25 setups, 8 random plies make nearly every game's opening unique.
    pub const RANDOM_PLIES: usize = 8;
    /// Nodes per move when neither --nodes nor --depth is given: at equal CPU time, five times the positions of
    /// 5,000 nodes made the better net (docs/nets.md, experiment (a)).
    pub const NODES: u64 = 1000;
    /// Positions with a larger score are decided; they teach a net little and their scores are the least exact.
    pub const SCORE_LIMIT: i32 = 3000;
    /// A game ends once one side stays this far ahead...
    pub const RESIGN_SCORE: i32 = 3000;
    /// ...for this many plies in a row (both sides' searches agree, three times each).
    pub const RESIGN_PLIES: usize = 6;
    /// Games longer than this are decided as the rule set decides its move-count end.
    pub const MAX_PLIES: usize = 400;
    /// Hash per game (MB): a few thousand nodes a move fill a fraction of it.
    pub const HASH_MB: usize = 8;
}

/// Set by Ctrl-C: no game starts after it.
static ABORT: AtomicBool = AtomicBool::new(false);
/// Held while a game's records are written: a second Ctrl-C waits for it, so that no record is cut.
static WRITING: Mutex<()> = Mutex::new(());

/// A whole run.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    pub game: GameSettings,
    /// Games numbered 0..games (a shard plays its share of them).
    pub games: u64,
    pub threads: usize,
    pub seed: u64,
    /// The openings (FENs) that games start from, one drawn at random per game.
    pub openings: Vec<String>,
    pub shard: Option<Shard>,
    /// The output file (already the shard's own name when sharded).
    pub out: PathBuf,
    pub progress: bool,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    pub games: u64,
    pub positions: u64,
    pub elapsed: Duration,
    pub interrupted: bool,
}

impl RunSummary {
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The seed of game `game` of a run seeded `seed`.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    SplitMix(seed ^ SplitMix(game).next_u64()).next_u64()
}

fn install_ctrlc() {
    interrupt::install(interrupt::Job {
        stopping: "interrupted: finishing the games in progress, then stopping (Ctrl-C again to stop now)",
        exiting: "interrupted again: exiting now (every finished game is in the file)",
        stop: &ABORT,
        interrupted: &ABORT,
        writing: Some(&WRITING),
    });
}

fn create(path: &Path) -> Result<std::io::BufWriter<std::fs::File>, String> {
    let file = std::fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            format!("'{}' exists: datagen writes a new file (choose another name or delete it)", path.display())
        } else {
            format!("cannot create '{}': {e}", path.display())
        }
    })?;
    let mut out = std::io::BufWriter::new(file);
    out.write_all(&record::header()).and_then(|()| out.flush()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(out)
}

fn progress_bar(games: u64, show: bool) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(games);
    let style = indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg}")
        .expect("a valid template")
        .progress_chars("=> ");
    bar.set_style(style);
    bar
}

/// Plays the run's games on `threads` threads and appends each finished game's records to the output file in
/// game-number order, flushing after each. Ctrl-C stops starting games; the games in progress are finished and
/// written.
pub fn run(opts: &DatagenOptions) -> Result<RunSummary, String> {
    if opts.openings.is_empty() {
        return Err("no opening to start games from".into());
    }
    let numbers: Vec<u64> = (0..opts.games).filter(|&g| opts.shard.is_none_or(|s| s.takes(g))).collect();
    let mut out = create(&opts.out)?;
    install_ctrlc();
    let start = Instant::now();
    let bar = progress_bar(numbers.len() as u64, opts.progress);
    let next = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<Vec<Record>, String>)>();
    let mut written_games = 0u64;
    let mut positions = 0u64;
    let outcome = std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..opts.threads.max(1) {
            let tx = tx.clone();
            let (next, numbers) = (&next, &numbers);
            scope.spawn(move || {
                while !ABORT.load(Ordering::SeqCst) {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&g) = numbers.get(k) else { break };
                    let mut rng = SplitMix(game_seed(opts.seed, g));
                    let opening = &opts.openings[rng.below(opts.openings.len() as u64) as usize];
                    let records = game::play(opening, rng.next_u64(), &opts.game);
                    if tx.send((k, records)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Finished games wait here until every game before them is written.
        let mut waiting: BTreeMap<usize, Vec<Record>> = BTreeMap::new();
        let mut first_error = None;
        for (k, records) in rx {
            match records {
                Ok(r) => {
                    waiting.insert(k, r);
                }
                Err(e) => {
                    ABORT.store(true, Ordering::SeqCst);
                    first_error.get_or_insert(e);
                }
            }
            while let Some(records) = waiting.remove(&(written_games as usize)) {
                let mut bytes = Vec::with_capacity(records.len() * record::RECORD_BYTES);
                for r in &records {
                    bytes.extend_from_slice(&r.to_bytes());
                }
                {
                    let _guard = WRITING.lock().unwrap_or_else(|e| e.into_inner());
                    out.write_all(&bytes)
                        .and_then(|()| out.flush())
                        .map_err(|e| format!("{}: {e}", opts.out.display()))?;
                }
                written_games += 1;
                positions += records.len() as u64;
                bar.inc(1);
                let rate = positions as f64 / start.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!("{positions} positions, {rate:.0} positions/s"));
            }
        }
        match first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    });
    bar.finish_and_clear();
    outcome?;
    Ok(RunSummary {
        games: written_games,
        positions,
        elapsed: start.elapsed(),
        interrupted: written_games < numbers.len() as u64,
    })
}
