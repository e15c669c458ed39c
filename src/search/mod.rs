//! The search: iterative deepening over a principal-variation alpha-beta search with quiescence, sharing one
//! transposition table between threads (Lazy SMP). It reports through a `Listener` and knows nothing of protocols.

pub mod bench;
pub mod engine;
pub(crate) mod history;
pub mod params;
pub(crate) mod see;
pub mod strength;
pub(crate) mod threads;
pub mod time;
pub(crate) mod tt;
mod worker;

/// One search of a position with its own shared state, on the calling thread (and its helpers): the engine's
/// searches run through it, and so can a tool or a test that needs no game around the position.
pub use threads::search;

use crate::board::{Color, GameEnd, Move};
use crate::eval::evaluator::Evaluator;
use crate::eval::params::Params;
use crate::score::Score;
use params::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use strength::Strength;
use time::ClockState;
use tt::TranspositionTable;

/// What bounds one search. Every limit is optional; the first one reached stops the search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop when a mate in this many moves is found.
    pub mate: Option<u32>,
    /// The time the host gives the move, as it gave it; the search draws its time budget from it
    /// (`time::TimeBudget::of`).
    pub clock: ClockState,
    /// Search until told to stop (`go infinite`); a finished search waits for `stop`.
    pub infinite: bool,
    /// Pondering: time limits start at `ponderhit`; a finished search waits for `stop` or `ponderhit`.
    pub ponder: bool,
    /// Only these root moves (all when empty).
    pub searchmoves: Vec<Move>,
}

/// How the search runs.
#[derive(Clone, Debug)]
pub struct Settings {
    pub threads: usize,
    pub multipv: usize,
    pub strength: Strength,
    pub params: Arc<Params>,
    /// The search's tunable numbers.
    pub search: Arc<SearchParams>,
    pub ablation: Ablation,
    /// The evaluation: hand-written, or a net.
    pub evaluator: Evaluator,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            multipv: 1,
            strength: Strength::full(),
            params: Arc::new(Params::default()),
            search: Arc::new(SearchParams::default()),
            ablation: Ablation::default(),
            evaluator: Evaluator::Classical,
        }
    }
}

/// Parts of the search that can be switched off, to measure in matches what each one is worth
/// (`janggi --ablate tt,pruning,nmp,lmr`). Everything is on by default. This is the one way to switch parts of the
/// search off: `SearchParams` holds numbers the engine plays with, not switches that turn code off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ablation {
    /// No transposition table.
    pub tt: bool,
    /// No reverse futility pruning, razoring, futility, late-move or exchange pruning.
    pub pruning: bool,
    /// No null-move pruning.
    pub nmp: bool,
    /// No late-move reductions.
    pub lmr: bool,
}

impl Ablation {
    pub fn parse(list: &str) -> Result<Ablation, String> {
        let mut a = Ablation::default();
        for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "tt" => a.tt = true,
                "pruning" => a.pruning = true,
                "nmp" => a.nmp = true,
                "lmr" => a.lmr = true,
                other => return Err(format!("unknown search part '{other}' (tt, pruning, nmp, lmr)")),
            }
        }
        Ok(a)
    }
}

/// Whether a reported score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// One line of a finished (or failed) iteration.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number under MultiPV.
    pub multipv: u32,
    /// Centipawns, or beyond `MATE_BOUND` a mate (`MATE - plies`, negative when being mated).
    pub score: i32,
    pub bound: ScoreBound,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// Receives the search's output. Called from the search thread.
pub trait Listener: Sync {
    fn report(&self, report: &Report);
    /// A free-text note (e.g. why no move exists).
    fn note(&self, _text: &str) {}
    /// The search ended with this result (sent by `engine::Engine` once the host may receive it).
    fn best_move(&self, _outcome: &Outcome) {}
    /// There was no legal move to search: the game is over, ended so.
    fn no_move(&self, _end: &GameEnd) {}
}

/// A listener that ignores everything.
pub struct Silent;

impl Listener for Silent {
    fn report(&self, _: &Report) {}
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    /// The other lines under MultiPV (best first, including the first).
    pub lines: Vec<(i32, Vec<Move>)>,
}

/// State shared by the threads of a search and kept between searches. Its flags are set through methods, which
/// also wake a finished search that waits for `stop` or `ponderhit` (in infinite or ponder mode).
pub struct Shared {
    tt: TranspositionTable,
    stop: AtomicBool,
    /// Set while pondering; cleared by `ponderhit`.
    pondering: AtomicBool,
    /// Set by `ponderhit` so that the main thread restarts its clock.
    ponderhit: AtomicBool,
    nodes: AtomicU64,
    /// Per-thread move-ordering memory, kept between searches of one game.
    histories: Mutex<Vec<history::History>>,
    /// Wakes a search that waits to be released (`stop`, `ponderhit`).
    release: (Mutex<()>, Condvar),
}

impl Shared {
    pub fn new(hash_mb: usize) -> Shared {
        Shared::with_table(TranspositionTable::new(hash_mb))
    }

    /// Shared state around a table, e.g. one from `TranspositionTable::try_new`.
    pub fn with_table(tt: TranspositionTable) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            ponderhit: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            histories: Mutex::new(Vec::new()),
            release: (Mutex::new(()), Condvar::new()),
        }
    }

    /// Sets a flag under the release lock and wakes every waiter, so that no wake-up is lost between a
    /// waiter's test of the flags and its sleep.
    fn signal(&self, set: impl FnOnce()) {
        let guard = self.release.0.lock();
        set();
        drop(guard);
        self.release.1.notify_all();
    }

    /// Asks the running search to stop as soon as it can (it still reports its best move).
    pub fn stop(&self) {
        self.signal(|| {
            self.stop.store(true, Ordering::Relaxed);
            self.pondering.store(false, Ordering::Relaxed);
        });
    }

    /// The opponent played the expected move: pondering becomes a normal search whose clock starts now.
    pub fn ponderhit(&self) {
        self.signal(|| {
            // In this order (and sequentially consistent): a search that sees `pondering` cleared also sees the
            // flag that restarts its clock.
            self.ponderhit.store(true, Ordering::SeqCst);
            self.pondering.store(false, Ordering::SeqCst);
        });
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Blocks a finished search until it may answer: in infinite mode until `stop`, while pondering until
    /// `stop` or `ponderhit`.
    pub fn wait_for_release(&self, infinite: bool) {
        let held = |s: &Shared| !s.stop.load(Ordering::Relaxed) && (infinite || s.pondering.load(Ordering::Relaxed));
        let Ok(mut guard) = self.release.0.lock() else { return };
        while held(self) {
            guard = match self.release.1.wait(guard) {
                Ok(g) => g,
                Err(_) => return,
            };
        }
    }

    /// The size of the transposition table in MB.
    pub fn hash_mb(&self) -> usize {
        self.tt.megabytes()
    }

    /// Readies the shared state for the next search: clears a `stop` or `ponderhit` left by the previous one and
    /// sets pondering for `limits`. Callers do this before starting a search rather than `search` doing it, so
    /// that a `stop` or `ponderhit` that arrives before the search thread is running is not lost.
    pub fn ready(&self, limits: &Limits) {
        self.signal(|| {
            self.stop.store(false, Ordering::Relaxed);
            self.ponderhit.store(false, Ordering::Relaxed);
            self.pondering.store(limits.ponder, Ordering::Relaxed);
        });
    }

    /// Forgets everything learned (new game, `Clear Hash`).
    pub fn clear(&self) {
        self.tt.clear();
        if let Ok(mut h) = self.histories.lock() {
            h.clear();
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// A search score as it is reported: centipawns, or beyond `MATE_BOUND` moves to mate (negative when being mated).
pub fn reported_score(score: i32) -> Score {
    if score.abs() >= MATE_BOUND {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if score > 0 { moves } else { -moves })
    } else {
        Score::Cp(score)
    }
}

/// Win/draw/loss per mille from a score, by a logistic model: `WDL_EVEN_CP` wins half the games.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    if score.abs() >= MATE_BOUND {
        return if score > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let win = |s: f64| 1000.0 / (1.0 + (-(s - WDL_EVEN_CP) / WDL_SCALE_CP).exp());
    let w = win(score as f64).round() as u32;
    let l = win(-score as f64).round() as u32;
    (w, 1000u32.saturating_sub(w + l), l)
}

/// The score of a game end for the side to move at `ply` plies from the root: a win or loss counts like a mate
/// there, a draw is even.
pub fn end_score(end: &GameEnd, side_to_move: Color, ply: usize) -> i32 {
    match end.outcome {
        crate::board::Outcome::Win(c) if c == side_to_move => MATE - ply as i32,
        crate::board::Outcome::Win(_) => -(MATE - ply as i32),
        crate::board::Outcome::Draw => 0,
    }
}
