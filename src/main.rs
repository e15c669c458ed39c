//! The `janggi` command: with no subcommand, the protocol loop on stdin/stdout; otherwise a tool.

use clap::{Args, Parser, Subcommand};
use janggi::analyze::{self, AnalyzeOptions};
use janggi::board::{Move, Notation, Position, Rules, START_FEN};
use janggi::diagram::{ArrowKind, DiagramOptions};
use janggi::matches::config::{Config, DEFAULT_CONFIG, Preset, SprtEntry};
use janggi::matches::stats::{DEFAULT_ALPHA, DEFAULT_BETA, Sprt};
use janggi::matches::{merge, runner, summary};
use janggi::protocol::Dialect;
use janggi::protocol::session::{Output, Session};
use janggi::review::{self, PageOptions};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(name = "janggi", version, about = "A Janggi (Korean chess) engine for UCI, UCCI and USI hosts")]
struct Cli {
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
    /// Tune the evaluation (self-play positions, Texel fit) or the search parameters (SPSA by games).
    Tune {
        #[command(subcommand)]
        step: TuneStep,
    },
    /// Search a fixed set of positions to a fixed depth: the node count is the build's signature.
    Bench {
        #[arg(long, default_value_t = janggi::bench::BENCH_DEPTH)]
        depth: u32,
        #[command(flatten)]
        eval: EvalChoice,
    },
    /// Play configured engines against each other, every move refereed by our rules (see engines.toml).
    Match(MatchArgs),
    /// Analyse positions (FEN or EPD lines) or PGN games; one JSON line per position or game on stdout.
    Analyze(AnalyzeArgs),
    /// Join the games of PGN files (a match's shards, or earlier runs) into one final table.
    Merge {
        /// PGN files.
        #[arg(required = true)]
        pgn: Vec<PathBuf>,
        /// Decide the SPRT of ELO0 against ELO1 (alpha = beta = 0.05) on all the games.
        #[arg(long, value_parser = parse_sprt)]
        sprt: Option<SprtEntry>,
    },
    /// Draw a position as an SVG board (on stdout without --out).
    Diagram(DiagramArgs),
    /// Training data from self-play: quiet positions with the search's score and the game's result, as
    /// 32-byte binary records (docs/datagen-format.md); `stats`, `text` and `pack` read and convert them.
    Datagen(DatagenArgs),
    /// Train a net in Fairy-Stockfish's Janggi NNUE format on datagen files; one line per epoch on stdout.
    Train(TrainArgs),
    /// Nets in Fairy-Stockfish's Janggi NNUE format: random nets, file details, evaluations, speed.
    Nnue {
        #[command(subcommand)]
        action: NnueTool,
    },
}

#[derive(Subcommand)]
enum NnueTool {
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
    fn evaluator(&self) -> Result<janggi::eval::evaluator::Evaluator, String> {
        use janggi::eval::evaluator::Evaluator;
        use janggi::eval::nnue::{Network, default_network};
        Ok(match (&self.net, self.classical) {
            (_, true) => Evaluator::Classical,
            (Some(path), false) => Evaluator::Nnue(std::sync::Arc::new(
                Network::load(path).map_err(|e| format!("{}: {e}", path.display()))?,
            )),
            (None, false) => Evaluator::Nnue(default_network()),
        })
    }
}

/// `janggi diagram`.
#[derive(Args)]
struct DiagramArgs {
    #[arg(long, default_value = START_FEN)]
    fen: String,
    #[arg(long, default_value = "janggi")]
    variant: String,
    /// Moves played from the FEN first (UCI notation); the last one is highlighted.
    #[arg(long, num_args = 0..)]
    moves: Vec<String>,
    /// Moves drawn as arrows (UCI notation).
    #[arg(long, num_args = 0..)]
    arrow: Vec<String>,
    /// Han's view: Han's side at the bottom.
    #[arg(long)]
    flip: bool,
    #[arg(long)]
    out: Option<PathBuf>,
}

/// `janggi train`.
#[derive(Args)]
struct TrainArgs {
    /// Datagen files (also as --data).
    files: Vec<PathBuf>,
    #[arg(long, num_args = 1..)]
    data: Vec<PathBuf>,
    /// A datagen file of held-out positions (instead of --val-fraction of the data).
    #[arg(long)]
    val: Option<PathBuf>,
    /// Share of the data held out, as blocks of consecutive records (whole games) drawn by the seed.
    #[arg(long, default_value_t = janggi::train::defaults::VAL_FRACTION)]
    val_fraction: f64,
    #[arg(long, default_value_t = janggi::train::defaults::EPOCHS)]
    epochs: u32,
    #[arg(long, default_value_t = janggi::train::defaults::BATCH)]
    batch: usize,
    #[arg(long, default_value_t = janggi::train::defaults::LR)]
    lr: f32,
    /// Multiply the learning rate by --lr-gamma every this many epochs (0: never).
    #[arg(long, default_value_t = janggi::train::defaults::LR_DROP_EVERY)]
    lr_drop_every: u32,
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
    #[arg(long, default_value_t = 1)]
    threads: usize,
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

fn train(args: TrainArgs) -> Result<(), String> {
    use janggi::train::{self, TrainOptions, loss::Loss};
    let positive = |v: f32| v.is_finite() && v > 0.0;
    if !(0.0..=1.0).contains(&args.lambda) || !positive(args.scale) || !positive(args.lr) || !positive(args.lr_gamma) {
        return Err("--lambda must be in 0..1, --scale, --lr and --lr-gamma above 0".into());
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

/// `janggi datagen`: generation flags, or one of the file tools.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
struct DatagenArgs {
    #[command(subcommand)]
    tool: Option<DatagenTool>,
    /// The binary file to write (a new file; a shard writes NAME.I-of-N.EXT).
    #[arg(long)]
    out: Option<PathBuf>,
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Nodes searched per move (the default limit when --depth is not given either).
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth searched per move.
    #[arg(long)]
    depth: Option<u32>,
    #[arg(long, default_value = "janggi")]
    variant: String,
    /// A file of FEN or EPD lines to start games from instead of the 25 setups.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random legal moves (never a pass) at the start of each game.
    #[arg(long, default_value_t = janggi::datagen::defaults::RANDOM_PLIES)]
    random_plies: usize,
    /// Keep only positions whose score is within this many centipawns.
    #[arg(long, default_value_t = janggi::datagen::defaults::SCORE_LIMIT)]
    score_limit: i32,
    /// End a game once one side stays this many centipawns ahead for --resign-plies plies.
    #[arg(long, default_value_t = janggi::datagen::defaults::RESIGN_SCORE)]
    resign_score: i32,
    /// Plies in a row for the resign rule (0 = play every game out).
    #[arg(long, default_value_t = janggi::datagen::defaults::RESIGN_PLIES)]
    resign_plies: usize,
    /// Plies after which a game is decided as the rule set decides its move-count end (count or draw).
    #[arg(long, default_value_t = janggi::datagen::defaults::MAX_PLIES)]
    max_plies: usize,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash per game in MB.
    #[arg(long, default_value_t = janggi::datagen::defaults::HASH_MB)]
    hash: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    eval: EvalChoice,
    /// Play only the games whose number is ≡ I (mod N), into the output's own shard file.
    #[arg(long, help = SHARD_HELP)]
    shard: Option<String>,
}

#[derive(Subcommand)]
enum DatagenTool {
    /// Count, result balance, score and piece-count histograms of datagen files.
    Stats {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Write a datagen file as `fen;score;result` lines (on stdout without --out).
    Text {
        file: PathBuf,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Pack `fen;score;result` lines (a file, or stdin) into a new datagen file.
    Pack {
        input: Option<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
}

fn datagen(args: DatagenArgs) -> Result<ExitCode, String> {
    use janggi::datagen::{self, DatagenOptions, game::GameSettings, record, stats, text};
    match args.tool {
        Some(DatagenTool::Stats { files }) => {
            print!("{}", stats::collect(&files)?.report());
            return Ok(ExitCode::SUCCESS);
        }
        Some(DatagenTool::Text { file, out }) => {
            let records = record::open(&file)?;
            match out {
                Some(path) => {
                    let f =
                        std::fs::File::create(&path).map_err(|e| format!("cannot create '{}': {e}", path.display()))?;
                    text::to_text(records, &mut std::io::BufWriter::new(f))?;
                }
                None => {
                    text::to_text(records, &mut std::io::BufWriter::new(std::io::stdout().lock()))?;
                }
            }
            return Ok(ExitCode::SUCCESS);
        }
        Some(DatagenTool::Pack { input, out }) => {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&out)
                .map_err(|e| format!("cannot create '{}' (a new file): {e}", out.display()))?;
            let mut w = std::io::BufWriter::new(f);
            let packed = match &input {
                Some(path) => {
                    let file =
                        std::fs::File::open(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
                    text::pack(&mut std::io::BufReader::new(file), &path.display().to_string(), &mut w)
                }
                None => text::pack(&mut std::io::stdin().lock(), "stdin", &mut w),
            };
            drop(w);
            return match packed {
                Ok(n) => {
                    eprintln!("packed {n} records into {}", out.display());
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    // No half-written file is left behind.
                    let _ = std::fs::remove_file(&out);
                    Err(e)
                }
            };
        }
        None => {}
    }
    let out = args.out.ok_or("datagen needs --out FILE (or one of: stats, text, pack)")?;
    let rules = args.variant.parse::<Rules>().map_err(|e| e.to_string())?;
    if args.threads == 0 || args.hash == 0 {
        return Err("--threads and --hash must be at least 1".into());
    }
    let nodes = match (args.nodes, args.depth) {
        (None, None) => Some(datagen::defaults::NODES),
        (n, _) => n,
    };
    let openings = match &args.openings {
        Some(path) => janggi::records::positions::load(path, rules)?,
        None => janggi::board::setups::all_setups(),
    };
    let shard = janggi::batch::shard::from_flag_and_env(args.shard.as_deref())?;
    let opts = DatagenOptions {
        game: GameSettings {
            rules,
            limits: janggi::search::Limits { nodes, depth: args.depth, ..Default::default() },
            random_plies: args.random_plies,
            max_plies: args.max_plies,
            score_limit: args.score_limit,
            resign_score: args.resign_score,
            resign_plies: args.resign_plies,
            hash_mb: args.hash,
            evaluator: args.eval.evaluator()?,
        },
        games: args.games,
        threads: args.threads,
        seed: args.seed,
        openings,
        shard,
        out: match shard {
            Some(s) => s.file(&out),
            None => out,
        },
        progress: true,
    };
    let summary = datagen::run(&opts)?;
    eprintln!(
        "{} games, {} positions in {:.1} s ({:.0} positions/s) written to {}{}",
        summary.games,
        summary.positions,
        summary.elapsed.as_secs_f64(),
        summary.positions_per_second(),
        opts.out.display(),
        if summary.interrupted { " (interrupted)" } else { "" }
    );
    Ok(if summary.interrupted { ExitCode::from(janggi::batch::interrupt::INTERRUPTED_EXIT) } else { ExitCode::SUCCESS })
}

/// Help for `--shard` (shared by every command that splits its work).
const SHARD_HELP: &str = "Run shard I of N (I/N, from 0), or auto/N with the index from JOB_COMPLETION_INDEX or \
                          SLURM_ARRAY_TASK_ID; without the flag a Slurm array task is a shard by itself";

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
    /// List the search parameters that `janggi --tune` offers as options: name, default, min, max, step.
    Params,
    /// Tune search parameters by games (SPSA as fishtest runs it); the trace goes to a CSV file and resumes.
    Spsa(Box<SpsaArgs>),
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
        TuneStep::Spsa(args) => spsa(*args),
        TuneStep::Params => {
            print!("{}", janggi::tune::spsa::params_table());
            Ok(())
        }
    }
}

/// How long engines think in a game, for `janggi match` and `janggi tune spsa`.
#[derive(Args)]
struct GameLimitArgs {
    /// Clock: BASE+INC in seconds, e.g. 10+0.1.
    #[arg(long)]
    tc: Option<String>,
    /// Fixed time per move in milliseconds (instead of a clock).
    #[arg(long)]
    movetime: Option<u64>,
    #[arg(long)]
    depth: Option<u32>,
    #[arg(long)]
    nodes: Option<u64>,
}

/// `janggi tune spsa`.
#[derive(Args)]
struct SpsaArgs {
    /// The parameters to tune (comma-separated names from `janggi tune params`); all when absent.
    #[arg(long, value_delimiter = ',')]
    params: Vec<String>,
    /// Game pairs in all (each pair is two games); a resumed run goes on to this many.
    #[arg(long, default_value_t = 1000)]
    iterations: u32,
    /// The games' limits (the default when none is given is --tc 1+0.01).
    #[command(flatten)]
    limits: GameLimitArgs,
    /// Game pairs played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// `setups` (the 25 start positions) or a file of FEN or EPD lines.
    #[arg(long)]
    openings: Option<String>,
    #[arg(long)]
    variant: Option<String>,
    /// Plies after which a game is decided by count (default as for `janggi match`).
    #[arg(long)]
    max_plies: Option<u32>,
    /// The parameter trace: a CSV row per iteration; an existing trace is resumed.
    #[arg(long, default_value = "spsa.csv")]
    trace: PathBuf,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// fishtest's r_end: the learning rate at the end is r_end times the step squared.
    #[arg(long, default_value_t = janggi::tune::spsa::R_END)]
    r_end: f64,
    /// The stability constant A as a share of the iterations.
    #[arg(long, default_value_t = janggi::tune::spsa::A_RATIO)]
    a_ratio: f64,
    #[arg(long, default_value_t = janggi::tune::spsa::ALPHA)]
    alpha: f64,
    #[arg(long, default_value_t = janggi::tune::spsa::GAMMA)]
    gamma: f64,
    /// The engine binary to tune (this program when absent); it is started with --tune.
    #[arg(long)]
    engine: Option<PathBuf>,
    /// Tune against this engine of the config (e.g. Fairy-Stockfish): both perturbed sets play it with both
    /// colours on each iteration's opening, instead of playing each other.
    #[arg(long)]
    opponent: Option<String>,
    /// The config file the opponent is read from.
    #[arg(long, default_value = DEFAULT_CONFIG)]
    config: PathBuf,
}

fn spsa(args: SpsaArgs) -> Result<(), String> {
    use janggi::tune::spsa::{self, SpsaOptions};
    let engine = match args.engine {
        Some(e) => e,
        None => std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?,
    };
    let l = args.limits;
    let untimed = l.tc.is_none() && l.movetime.is_none() && l.depth.is_none() && l.nodes.is_none();
    let preset = Preset {
        tc: if untimed { Some("1+0.01".to_string()) } else { l.tc },
        movetime: l.movetime,
        depth: l.depth,
        nodes: l.nodes,
        openings: args.openings,
        variant: args.variant,
        max_plies: args.max_plies,
        ..Preset::default()
    };
    let opponent = args
        .opponent
        .as_ref()
        .map(|name| Config::load(&args.config).and_then(|c| c.engine(name).cloned()).map_err(|e| e.to_string()))
        .transpose()?;
    let opts = SpsaOptions {
        opponent,
        params: args.params,
        iterations: args.iterations,
        concurrency: args.concurrency,
        match_preset: preset,
        seed: args.seed,
        r_end: args.r_end,
        a_ratio: args.a_ratio,
        alpha: args.alpha,
        gamma: args.gamma,
        ..SpsaOptions::new(engine, args.trace)
    };
    let start = Instant::now();
    let state = spsa::run(&opts, |s, result| {
        let theta: Vec<String> = s.specs.iter().zip(&s.theta).map(|(p, t)| format!("{}={t:.1}", p.name)).collect();
        eprintln!(
            "iteration {}/{} ({:.0} s): pair {result:+}, {}",
            s.done,
            opts.iterations,
            start.elapsed().as_secs_f64(),
            theta.join(" ")
        );
    })?;
    print!("{}", spsa::final_table(&state));
    Ok(())
}

/// `janggi match`: every flag overrides the preset's value.
#[derive(Args)]
struct MatchArgs {
    /// A preset of the config ([preset.NAME]); without one, [preset.default] or the built-in defaults.
    preset: Option<String>,
    #[arg(long, default_value = DEFAULT_CONFIG)]
    config: PathBuf,
    /// The engines to play, by name: two for a match, more for a round robin.
    #[arg(long, value_delimiter = ',')]
    engines: Option<Vec<String>>,
    #[arg(long)]
    games: Option<u32>,
    #[command(flatten)]
    limits: GameLimitArgs,
    /// Games played at once.
    #[arg(long)]
    concurrency: Option<usize>,
    /// `setups` (the 25 start positions) or a file of FEN or EPD lines; each is played with both colours.
    #[arg(long)]
    openings: Option<String>,
    #[arg(long)]
    variant: Option<String>,
    /// The PGN file that every finished game is appended to.
    #[arg(long)]
    pgn: Option<String>,
    /// Stop when the SPRT of ELO0 against ELO1 (alpha = beta = 0.05) decides.
    #[arg(long, value_parser = parse_sprt)]
    sprt: Option<SprtEntry>,
    /// Continue the match whose games are already in the PGN file.
    #[arg(long)]
    resume: bool,
    /// Draw each pair's opening at random from this seed and the pair's number (openings in order without it).
    #[arg(long)]
    seed: Option<u64>,
    /// Play only the game pairs whose number is ≡ I (mod N), into the PGN's own shard file (match.I-of-N.pgn).
    #[arg(long, help = SHARD_HELP)]
    shard: Option<String>,
}

/// `janggi analyze`.
#[derive(Args)]
struct AnalyzeArgs {
    /// Input file (standard input when absent): FEN or EPD lines, or PGN with --pgn.
    file: Option<PathBuf>,
    /// Analyse with this engine of the config instead of the built-in search.
    #[arg(long)]
    engine: Option<String>,
    #[arg(long, default_value = DEFAULT_CONFIG)]
    config: PathBuf,
    /// The input is PGN: every position of every game is analysed and each move judged.
    #[arg(long)]
    pgn: bool,
    /// The rule set of FEN and EPD input.
    #[arg(long, default_value = "janggi")]
    variant: String,
    /// Search depth (the default limit is depth 12).
    #[arg(long)]
    depth: Option<u32>,
    #[arg(long)]
    nodes: Option<u64>,
    /// Time per position in milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Lines to report per position (a `lines` list in the output).
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Positions analysed in parallel.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size per search in MB (built-in search).
    #[arg(long, default_value_t = analyze::DEFAULT_HASH_MB)]
    hash: usize,
    /// The built-in search's evaluation.
    #[command(flatten)]
    eval: EvalChoice,
    /// Centipawns lost against the best move that mark a blunder (PGN input).
    #[arg(long, default_value_t = analyze::DEFAULT_BLUNDER_CP)]
    blunder: i32,
    /// Analyse every N-th position or game only, from the I-th (I/N or auto/N).
    #[arg(long, help = SHARD_HELP)]
    shard: Option<String>,
    /// The input is a Korean .gib game record (also taken from a FILE ending in .gib).
    #[arg(long)]
    gib: bool,
    /// Also write a self-contained HTML review page to this file.
    #[arg(long)]
    html: Option<PathBuf>,
    /// `korean` adds moves in Korean notation (e.g. 79졸78) to the JSON and the page, beside the coordinates.
    #[arg(long, default_value = "coordinate", value_parser = ["coordinate", "korean"])]
    notation: String,
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

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            let mut engine = Session::new(Output::stdout(), cli.protocol).with_ablation(cli.ablate.unwrap_or_default());
            if cli.tune {
                engine = engine.with_tuning();
            }
            engine.run(std::io::stdin().lock());
            Ok(())
        }
        Some(Tool::Perft { variant, fen, moves, depth, divide, threads }) => {
            perft(&variant, &fen, &moves, depth, divide, threads)
        }
        Some(Tool::Status) => janggi::status::run(std::io::stdin().lock(), std::io::stdout().lock()),
        Some(Tool::Bench { depth, eval }) => eval.evaluator().and_then(|e| bench(depth, &e)),
        Some(Tool::Tune { step }) => tune(step),
        Some(Tool::Setups) => {
            for fen in janggi::board::setups::all_setups() {
                println!("{fen}");
            }
            Ok(())
        }
        Some(Tool::Match(args)) => return exit(run_match(args)),
        Some(Tool::Analyze(args)) => return exit(run_analyze(args)),
        Some(Tool::Merge { pgn, sprt }) => merge(&pgn, sprt),
        Some(Tool::Diagram(args)) => diagram(args),
        Some(Tool::Nnue { action }) => nnue(action),
        Some(Tool::Train(args)) => train(args),
        Some(Tool::Datagen(args)) => return exit(datagen(args)),
    };
    exit(result.map(|()| ExitCode::SUCCESS))
}

/// `janggi bench`: the node count on stdout, one line per position and the speed on stderr.
fn bench(depth: u32, evaluator: &janggi::eval::evaluator::Evaluator) -> Result<(), String> {
    let result = janggi::bench::run_with(depth, evaluator, |i, fen, nodes| {
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

fn nnue(action: NnueTool) -> Result<(), String> {
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

fn exit(result: Result<ExitCode, String>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_match(args: MatchArgs) -> Result<ExitCode, String> {
    let config = Config::load(&args.config).map_err(|e| e.to_string())?;
    let flags = Preset {
        engines: args.engines,
        variant: args.variant,
        games: args.games,
        concurrency: args.concurrency,
        tc: args.limits.tc,
        movetime: args.limits.movetime,
        depth: args.limits.depth,
        nodes: args.limits.nodes,
        openings: args.openings,
        pgn: args.pgn,
        sprt: args.sprt,
        seed: args.seed,
        ..Preset::default()
    };
    let mut settings = config.resolve(args.preset.as_deref(), &flags).map_err(|e| e.to_string())?;
    let shard = janggi::batch::shard::from_flag_and_env(args.shard.as_deref())?;
    if let Some(s) = shard {
        settings.pgn = s.file(&settings.pgn);
    }
    let report = runner::run(&settings, args.resume, shard)?;
    print!("{}", runner::format_report(&settings, &report));
    // Written only when the shard has played its whole share: its presence tells a waiting merge it is done.
    if shard.is_some() && !report.interrupted {
        summary::write(&settings.pgn.with_extension("json"), &settings, &report)?;
    }
    Ok(if report.interrupted { ExitCode::from(janggi::batch::interrupt::INTERRUPTED_EXIT) } else { ExitCode::SUCCESS })
}

fn run_analyze(args: AnalyzeArgs) -> Result<ExitCode, String> {
    let rules = args.variant.parse::<Rules>().map_err(|e| e.to_string())?;
    let engine = match &args.engine {
        None => None,
        Some(name) => {
            let config = Config::load(&args.config).map_err(|e| e.to_string())?;
            Some(config.engine(name).map_err(|e| e.to_string())?.clone())
        }
    };
    if args.multipv == 0 || args.threads == 0 {
        return Err("--multipv and --threads must be at least 1".into());
    }
    let opts = AnalyzeOptions {
        engine,
        rules,
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        multipv: args.multipv,
        threads: args.threads,
        hash_mb: args.hash.max(1),
        evaluator: args.eval.evaluator()?,
        blunder_cp: args.blunder,
        shard: janggi::batch::shard::from_flag_and_env(args.shard.as_deref())?,
        korean: args.notation == "korean",
    }
    .with_default_limit();
    let mut out = std::io::stdout().lock();
    let gib =
        args.gib || args.file.as_ref().is_some_and(|f| f.extension().is_some_and(|e| e.eq_ignore_ascii_case("gib")));
    let page = PageOptions {
        title: match &args.file {
            Some(f) => format!("janggi analysis of {}", f.display()),
            None => "janggi analysis".to_string(),
        },
        korean: opts.korean,
    };
    let (all_ok, html) = if args.pgn || gib {
        let bytes = match &args.file {
            Some(path) => std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?,
            None => {
                let mut buf = Vec::new();
                std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut buf)
                    .map_err(|e| format!("cannot read standard input: {e}"))?;
                buf
            }
        };
        let (ok, games) = if gib {
            analyze::analyze_game_list(&opts, janggi::records::gib::parse_games(&bytes)?, &mut out)?
        } else {
            analyze::analyze_games(&opts, &String::from_utf8_lossy(&bytes), &mut out)?
        };
        (ok, review::games_page(&games, &page))
    } else {
        let (ok, positions) = match &args.file {
            Some(path) => {
                let file = std::fs::File::open(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
                analyze::analyze_positions(&opts, std::io::BufReader::new(file), &mut out)?
            }
            None => analyze::analyze_positions(&opts, std::io::BufReader::new(std::io::stdin()), &mut out)?,
        };
        (ok, review::positions_page(&positions, &page))
    };
    if let Some(path) = &args.html {
        std::fs::write(path, html).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    }
    Ok(if all_ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn merge(files: &[PathBuf], sprt: Option<SprtEntry>) -> Result<(), String> {
    let sprt = sprt
        .map(|s| Sprt::new(s.elo0, s.elo1, s.alpha.unwrap_or(DEFAULT_ALPHA), s.beta.unwrap_or(DEFAULT_BETA)))
        .transpose()?;
    let merged = merge::merge(files, sprt)?;
    print!("{}", merge::format_merged(&merged));
    Ok(())
}

fn diagram(args: DiagramArgs) -> Result<(), String> {
    let rules = args.variant.parse::<Rules>().map_err(|e| e.to_string())?;
    let pos = Position::from_fen_moves(&args.fen, rules, &args.moves, Notation::Uci).map_err(|e| e.to_string())?;
    // The last move played is highlighted.
    let last = args.moves.last().and_then(|m| Move::parse(m, Notation::Uci));
    let arrows = args
        .arrow
        .iter()
        .map(|t| Move::parse(t, Notation::Uci).map(|m| (m, ArrowKind::Best)).ok_or_else(|| format!("bad arrow '{t}'")))
        .collect::<Result<Vec<_>, _>>()?;
    let svg = janggi::diagram::svg(&pos, &DiagramOptions { flip: args.flip, arrows, last_move: last });
    match &args.out {
        Some(path) => std::fs::write(path, svg + "\n").map_err(|e| format!("cannot write '{}': {e}", path.display())),
        None => {
            println!("{svg}");
            Ok(())
        }
    }
}

fn perft(variant: &str, fen: &str, moves: &[String], depth: u32, divide: bool, threads: usize) -> Result<(), String> {
    let rules = variant.parse::<Rules>().map_err(|e| e.to_string())?;
    let mut pos = Position::from_fen_moves(fen, rules, moves, Notation::Uci).map_err(|e| e.to_string())?;
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
