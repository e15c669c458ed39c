//! The engine: one object that owns the game (position and history), the shared search state (transposition
//! table, move-ordering memory), the search thread and the settings, and reports through a `Listener`. The
//! protocol loop turns lines into calls on it; `analyze`, `bench` and self-play use it the same way.

use super::params::{SPECS, SearchParams};
use super::threads::search;
use super::tt::TranspositionTable;
use super::{Settings, Shared};
use crate::board::{GameEnd, Notation, Position, Rules, SetupError};
use crate::eval::evaluator::Evaluator;
use crate::eval::params::Params;
use std::sync::Arc;

// The engine is the one door to the search for the protocol and the analysis: what they hand it and what it
// reports back is named here, whichever module of the search defines it.
pub use super::params::{ParamError, ParamSpec};
pub use super::strength::Strength;
pub use super::time::{ClockState, TimeBudget};
pub use super::{Ablation, Limits, Listener, Outcome, Report, ScoreBound, Silent, reported_score, wdl};

/// The search's tunable numbers, each with its default, range and tuning step (`janggi --tune` offers them as
/// options).
pub fn tunable_params() -> &'static [ParamSpec] {
    SPECS
}

/// Whether `name` is one of the search's tunable numbers (case-insensitive, as option names are).
pub fn is_tunable(name: &str) -> bool {
    super::params::spec(name).is_some()
}

/// Whether a table of `megabytes` can be had, said before any work: the size in range and its memory allocated
/// once (then freed), so that a command line asking for more than the machine has is refused with a message.
pub fn check_hash_mb(megabytes: usize) -> Result<(), String> {
    if !HASH_MB_RANGE.contains(&megabytes) {
        return Err(format!("{megabytes} MB is outside {}..={} MB", HASH_MB_RANGE.start(), HASH_MB_RANGE.end()));
    }
    TranspositionTable::try_new(megabytes).map(drop)
}

/// The soft and hard limits the search draws from `clock` at game ply `ply` with its default numbers: what a
/// host's clock buys one move (none without a clock or a move time).
pub fn time_budget(clock: &ClockState, ply: u32) -> Option<TimeBudget> {
    TimeBudget::of(clock, false, ply, super::time::ShareCurve::of(&SearchParams::default()))
}

use crate::platform::thread::JoinHandle;

/// The hash sizes the engine accepts (MB).
pub const HASH_MB_RANGE: std::ops::RangeInclusive<usize> = 1..=65536;

/// How a search ended.
#[derive(Clone, Debug)]
pub enum Finish {
    /// The search's result, with its best move.
    Best(Outcome),
    /// There was no legal move: the game is over, and this is how it ended.
    NoMove(GameEnd),
}

impl Finish {
    /// The best move's outcome, if there was a move.
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            Finish::Best(o) => Some(o),
            Finish::NoMove(_) => None,
        }
    }
}

/// Why the engine refused a request; its state is as before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// Not while a search runs.
    Busy(&'static str),
    /// The hash size is outside `HASH_MB_RANGE`, or the memory cannot be had.
    Hash(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Busy(what) => write!(f, "{what} ignored during a search"),
            EngineError::Hash(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for EngineError {}

/// A listener shared with the search thread.
pub type SharedListener = Arc<dyn Listener + Send + Sync>;

pub struct Engine {
    position: Position,
    shared: Arc<Shared>,
    /// A table allocated by `set_hash` while a search ran; it replaces the old one when that search ends.
    pending_table: Option<TranspositionTable>,
    settings: Settings,
    listener: SharedListener,
    /// The running search (from `go`).
    job: Option<JoinHandle<()>>,
}

impl Engine {
    /// An engine at the start position of `janggi` with a table of `hash_mb` MB (clamped into `HASH_MB_RANGE`).
    pub fn new(hash_mb: usize, listener: SharedListener) -> Engine {
        let mb = hash_mb.clamp(*HASH_MB_RANGE.start(), *HASH_MB_RANGE.end());
        Engine {
            position: Position::startpos(Rules::JANGGI),
            shared: Arc::new(Shared::new(mb)),
            pending_table: None,
            settings: Settings::default(),
            listener,
            job: None,
        }
    }

    /// An engine that reports nothing: for tools that only want `think`'s answer.
    pub fn silent(hash_mb: usize) -> Engine {
        Engine::new(hash_mb, Arc::new(Silent))
    }

    /// Where the next searches report.
    pub fn set_listener(&mut self, listener: SharedListener) {
        self.listener = listener;
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Sets the game from a FEN and the moves played since. A bad FEN leaves the position as it was; at a bad
    /// move the position is the one before that move (as hosts expect), and the error says which move and why.
    /// A running search goes on with the position it was given.
    pub fn set_position<S: AsRef<str>>(
        &mut self,
        fen: &str,
        rules: Rules,
        moves: &[S],
        notation: Notation,
    ) -> Result<(), SetupError> {
        let mut pos = Position::from_fen(fen, rules).map_err(SetupError::Fen)?;
        let played = pos.play_moves(moves, notation);
        self.position = pos;
        played.map_err(SetupError::Move)
    }

    /// Sets the game to a position the caller built (with its history).
    pub fn set_game(&mut self, position: Position) {
        self.position = position;
    }

    /// Starts a search of the current position on its own thread; a running search is stopped first. The
    /// listener gets the search's reports, then `best_move` (or `no_move` when the game is over). In infinite and
    /// ponder mode the answer waits for `stop` (or `ponderhit`).
    pub fn go(&mut self, limits: Limits) {
        self.stop();
        self.shared.ready(&limits);
        let (pos, settings, shared, listener) =
            (self.position.clone(), self.settings.clone(), Arc::clone(&self.shared), Arc::clone(&self.listener));
        self.job = Some(crate::platform::thread::spawn(move || {
            run(&pos, &limits, &settings, &shared, &*listener);
        }));
    }

    /// Searches the current position on the calling thread and returns how it ended (also told to the listener).
    /// Infinite or ponder limits are not for this call: nothing could release the search.
    pub fn think(&mut self, limits: &Limits) -> Finish {
        self.stop();
        let limits = Limits { infinite: false, ponder: false, ..limits.clone() };
        self.shared.ready(&limits);
        run(&self.position, &limits, &self.settings, &self.shared, &*self.listener)
    }

    /// Stops the running search, if any, and waits for it to report its best move.
    pub fn stop(&mut self) {
        if let Some(job) = self.job.take() {
            self.shared.stop();
            let _ = job.join();
        }
        self.install_pending_table();
    }

    /// The opponent played the move pondered on: the search goes on as a normal one, its clock starting now.
    pub fn ponderhit(&self) {
        self.shared.ponderhit();
    }

    /// Waits until the running search (if any) has reported its best move by itself.
    pub fn wait(&mut self) {
        if let Some(job) = self.job.take() {
            let _ = job.join();
        }
        self.install_pending_table();
    }

    /// Whether a search is running (a finished one is reaped).
    pub fn is_searching(&mut self) -> bool {
        if self.job.as_ref().is_some_and(|j| j.is_finished()) {
            self.wait();
        }
        self.job.is_some()
    }

    /// Resizes the transposition table (emptying it). The memory is taken at once, so an impossible size is an
    /// error here and the old table is kept; during a search the new table replaces the old when it ends.
    pub fn set_hash(&mut self, megabytes: usize) -> Result<(), EngineError> {
        if !HASH_MB_RANGE.contains(&megabytes) {
            return Err(EngineError::Hash(format!(
                "hash size {megabytes} MB is outside {}..={} MB",
                HASH_MB_RANGE.start(),
                HASH_MB_RANGE.end()
            )));
        }
        if megabytes == self.hash_mb() {
            return Ok(());
        }
        let table = TranspositionTable::try_new(megabytes).map_err(EngineError::Hash)?;
        self.pending_table = Some(table);
        if !self.is_searching() {
            self.install_pending_table();
        }
        Ok(())
    }

    /// The table's size in MB (the new size once `set_hash` succeeded, even before a running search ends).
    pub fn hash_mb(&self) -> usize {
        self.pending_table.as_ref().map_or_else(|| self.shared.hash_mb(), TranspositionTable::megabytes)
    }

    fn install_pending_table(&mut self) {
        if self.job.is_none()
            && let Some(table) = self.pending_table.take()
        {
            self.shared = Arc::new(Shared::with_table(table));
        }
    }

    /// Forgets everything learned (new game, `Clear Hash`). Not during a search.
    pub fn clear(&mut self) -> Result<(), EngineError> {
        if self.is_searching() {
            return Err(EngineError::Busy("clearing the hash"));
        }
        self.shared.clear();
        Ok(())
    }

    /// Search threads of the next searches.
    pub fn set_threads(&mut self, threads: usize) {
        self.settings.threads = threads.max(1);
    }

    /// Lines reported (and kept in the outcome) by the next searches.
    pub fn set_multipv(&mut self, lines: usize) {
        self.settings.multipv = lines.max(1);
    }

    /// Full strength, or weakened play (`Skill Level`, `UCI_Elo`).
    pub fn set_strength(&mut self, strength: Strength) {
        self.settings.strength = strength;
    }

    /// Parts of the search switched off (for measurements).
    pub fn set_ablation(&mut self, ablation: Ablation) {
        self.settings.ablation = ablation;
    }

    /// The evaluation's weights.
    pub fn set_eval_params(&mut self, params: Arc<Params>) {
        self.settings.params = params;
    }

    /// The evaluation of the next searches: the hand-written one, or a net (shared, not copied, by the threads).
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.settings.evaluator = evaluator;
    }

    /// The search's tunable numbers.
    pub fn set_search_params(&mut self, params: Arc<SearchParams>) {
        self.settings.search = params;
    }

    /// Sets one of the search's tunable numbers (`tunable_params`) for the next searches; a value outside its range
    /// or an unknown name is refused and the numbers stay as they were.
    pub fn set_search_param(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let mut params = SearchParams::clone(&self.settings.search);
        params.set(name, value)?;
        self.settings.search = Arc::new(params);
        Ok(())
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }
}

impl Drop for Engine {
    /// No search thread outlives its engine.
    fn drop(&mut self) {
        self.stop();
    }
}

/// One search of `pos`, or the game's end when no move is left; either is told to the listener.
fn run(pos: &Position, limits: &Limits, settings: &Settings, shared: &Shared, listener: &dyn Listener) -> Finish {
    if pos.legal_moves().is_empty() {
        let end = pos.game_end().unwrap_or_else(|| pos.no_move_end());
        // The host may only receive the answer once it lets the search end.
        shared.wait_for_release(limits.infinite);
        listener.no_move(&end);
        return Finish::NoMove(end);
    }
    let outcome = search(pos, limits, settings, shared, listener);
    listener.best_move(&outcome);
    Finish::Best(outcome)
}
