//! Time management: how long to think from the clocks the host reports, and when to stop. The protocol hands
//! the search the clock as the host gave it (`ClockState`); the search draws each move's budget from it here.

use super::params::SearchParams;
use crate::platform::clock::Instant;
use std::time::Duration;

/// With `movestogo` from the host, the time left is shared evenly over the moves to go (at most this many).
pub const DEFAULT_MOVES_TO_GO: u32 = 32;
/// Without moves to go, a move's share of the time left at the game's first ply: small, as Janggi games are
/// mostly decided in the early middlegame, not in the first moves.
pub const TIME_SHARE_START: f64 = 0.012;
/// How much that share grows a ply.
pub const TIME_SHARE_PER_PLY: f64 = 0.0008;
/// The most that share grows to (4%, from ply 35).
pub const TIME_SHARE_MAX: f64 = 0.040;
/// Share of the increment added to every move's soft limit.
pub const INCREMENT_SHARE: f64 = 0.95;
/// Share of the remaining time a single move may never exceed.
pub const MAX_TIME_SHARE: f64 = 0.35;
/// The soft limit may shrink to this multiple when the best move is clear (`tm_effort_base`).
pub const MIN_SOFT_STRETCH: f64 = 0.5;
/// Of a `go movetime`, at most this fraction (one over it) is kept back for `Move Overhead`.
pub const FIXED_TIME_OVERHEAD_DIVISOR: u32 = 10;
/// The hard limit is this multiple of the soft limit (bounded by `MAX_TIME_SHARE`).
pub const HARD_LIMIT_FACTOR: f64 = 5.0;

/// The time the host gives the move, as it gave it: a fixed time, the side to move's clock, or neither (no time
/// limit). Which side's clock it is, the protocol resolved from the dialect's clock words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockState {
    /// `go movetime`: think this long (it wins over a clock and over `infinite`).
    pub movetime: Option<Duration>,
    /// The side to move's time left.
    pub time: Option<Duration>,
    /// Its increment a move.
    pub inc: Duration,
    pub movestogo: Option<u32>,
    /// USI byoyomi: time per move once the main time is spent (without a clock, the time of every move).
    pub byoyomi: Option<Duration>,
    /// `Move Overhead`: time lost on every move between the host and the engine, kept back from the budget.
    pub overhead: Duration,
}

/// Soft limit (do not start another iteration past it, stretched by instability) and hard limit (stop at once).
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    pub soft: Duration,
    pub hard: Duration,
    /// Whether the budget was drawn from a clock (the engine manages its time) rather than given per move
    /// (`movetime`, where the host asked for exactly that much thought).
    pub managed: bool,
}

/// How a move's share of the time left grows with the game where the host gives no moves to go: by `per_ply`
/// from `start`, up to `max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShareCurve {
    pub start: f64,
    pub per_ply: f64,
    pub max: f64,
}

impl ShareCurve {
    /// The time manager's curve (`TIME_SHARE_START`, `TIME_SHARE_PER_PLY`, `TIME_SHARE_MAX`).
    pub const DEFAULT: ShareCurve =
        ShareCurve { start: TIME_SHARE_START, per_ply: TIME_SHARE_PER_PLY, max: TIME_SHARE_MAX };

    /// The curve of `tm_share_start_permille`, `tm_share_per_ply_micro` and `tm_share_max_permille` (the tuning
    /// options of `--tune`).
    pub fn of(params: &SearchParams) -> ShareCurve {
        ShareCurve {
            start: f64::from(params.tm_share_start_permille) / 1000.0,
            per_ply: f64::from(params.tm_share_per_ply_micro) / 1e6,
            max: f64::from(params.tm_share_max_permille) / 1000.0,
        }
    }
}

impl TimeBudget {
    /// The budget of a move on `clock` at the game's `ply` (plies played, from the position's move number), or
    /// none where the search has no time limit: a `movetime`, else (unless the search is `infinite`) the clock,
    /// else byoyomi alone. Without moves to go, a move's share of the time left grows with the game as `curve`
    /// says.
    pub fn of(clock: &ClockState, infinite: bool, ply: u32, curve: ShareCurve) -> Option<TimeBudget> {
        if let Some(t) = clock.movetime {
            return Some(TimeBudget::movetime(t, clock.overhead));
        }
        if infinite {
            return None;
        }
        match (clock.time, clock.byoyomi) {
            (Some(time), _) => Some(TimeBudget::from_clock(time, clock, ply, curve)),
            (None, Some(byoyomi)) => Some(TimeBudget::fixed(byoyomi, clock.overhead)),
            (None, None) => None,
        }
    }

    /// A fixed time that must not be overrun (byoyomi): all of it but the overhead.
    pub fn fixed(time: Duration, overhead: Duration) -> TimeBudget {
        let t = time.saturating_sub(overhead).max(Duration::from_millis(1));
        TimeBudget { soft: t, hard: t, managed: false }
    }

    /// `go movetime`: the host asked for that much thought, so the overhead kept back is at most
    /// `1 / FIXED_TIME_OVERHEAD_DIVISOR` of it. Kept whole, a 30 ms overhead would leave a `go movetime 40` 10 ms
    /// of search, where Fairy-Stockfish searches the full 40.
    pub fn movetime(movetime: Duration, overhead: Duration) -> TimeBudget {
        TimeBudget::fixed(movetime, overhead.min(movetime / FIXED_TIME_OVERHEAD_DIVISOR))
    }

    /// The budget of a move from `time` left on the clock.
    fn from_clock(time: Duration, clock: &ClockState, ply: u32, curve: ShareCurve) -> TimeBudget {
        let overhead = clock.overhead;
        let mtg = clock.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, DEFAULT_MOVES_TO_GO);
        let mut soft = match clock.movestogo {
            // What we may spend over the moves to go, keeping the overhead for every one of them.
            Some(_) => (time + clock.inc * (mtg - 1)).saturating_sub(overhead * mtg) / mtg,
            None => {
                let share = (curve.start + curve.per_ply * f64::from(ply)).min(curve.max);
                time.saturating_sub(overhead).mul_f64(share) + clock.inc.mul_f64(INCREMENT_SHARE)
            }
        };
        let cap = time.mul_f64(MAX_TIME_SHARE).saturating_sub(overhead);
        let mut hard = (soft.mul_f64(HARD_LIMIT_FACTOR)).min(cap);
        if mtg == 1 {
            hard = time.saturating_sub(overhead).mul_f64(0.9);
            soft = hard.mul_f64(0.7);
        }
        // Byoyomi is time we may use on every move in full.
        let byo = clock.byoyomi.unwrap_or_default().saturating_sub(overhead);
        soft += byo.mul_f64(0.9);
        hard += byo;
        let floor = Duration::from_millis(1);
        let hard = hard.max(floor);
        TimeBudget { soft: soft.min(hard).max(floor), hard, managed: true }
    }
}

/// The search's view of the clock.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    budget: Option<TimeBudget>,
}

impl TimeManager {
    pub fn new(start: Instant, budget: Option<TimeBudget>) -> TimeManager {
        TimeManager { start, budget }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// After `ponderhit` the clock runs from now.
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn hard_limit_reached(&self) -> bool {
        self.budget.is_some_and(|b| self.elapsed() >= b.hard)
    }

    /// Whether to begin another iteration, given how unstable the best move is and how far the score fell
    /// and how clear the best move is (`stretch`, at most `most`). A fixed `movetime` is the host's request for
    /// that much thought: it never shrinks.
    pub fn soft_limit_reached(&self, stretch: f64, most: f64) -> bool {
        self.budget.is_some_and(|b| {
            let least = if b.managed { MIN_SOFT_STRETCH } else { 1.0 };
            let soft = b.soft.mul_f64(stretch.clamp(least, most.max(least))).min(b.hard);
            self.elapsed() >= soft
        })
    }

    /// Whether the engine spends its own clock (and so may save time on forced moves).
    pub fn is_managed(&self) -> bool {
        self.budget.is_some_and(|b| b.managed)
    }
}

/// The factor on the soft limit from the best move's share of an iteration's nodes: (base - slope x share) / 100
/// (both in hundredths; base 0 turns it off). A best move that took most of the work is clear; one that shared it
/// with the others is in doubt and earns more time. `soft_limit_reached` bounds the result with the other stretches.
pub fn effort_scale(base_pct: i32, slope_pct: i32, best_nodes: u64, all_nodes: u64) -> f64 {
    if base_pct == 0 || all_nodes == 0 {
        return 1.0;
    }
    let share = best_nodes as f64 / all_nodes as f64;
    (f64::from(base_pct) - f64::from(slope_pct) * share) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clear_best_move_saves_time_and_a_doubtful_one_gets_more() {
        let clear = effort_scale(190, 150, 90, 100);
        let doubtful = effort_scale(190, 150, 30, 100);
        assert!(clear < 1.0 && doubtful > 1.0, "{clear} {doubtful}");
        assert!((clear - 0.55).abs() < 1e-9);
        // Off, or nothing searched yet: the limit stands.
        assert_eq!(effort_scale(0, 150, 90, 100), 1.0);
        assert_eq!(effort_scale(190, 150, 0, 0), 1.0);
    }

    #[test]
    fn the_stretch_is_bounded_by_the_most_allowed_and_by_the_hard_limit() {
        let budget = TimeBudget { soft: Duration::from_secs(1), hard: Duration::from_secs(100), managed: true };
        let since = |secs| Instant::now().checked_sub(Duration::from_secs(secs)).expect("a clock running that long");
        // Three seconds spent: past a soft limit stretched at most 2.5 times, short of one stretched 4 times.
        let tm = TimeManager::new(since(3), Some(budget));
        assert!(tm.soft_limit_reached(10.0, 2.5));
        assert!(!tm.soft_limit_reached(10.0, 4.0));
        assert!(tm.soft_limit_reached(2.0, 8.0));
        // A clear best move shrinks the limit, but not below `MIN_SOFT_STRETCH`.
        assert!(tm.soft_limit_reached(0.1, 8.0));
        let early = TimeManager::new(since(0), Some(budget));
        assert!(!early.soft_limit_reached(0.1, 8.0));
        // However far it is stretched, the soft limit never passes the hard one.
        let late = TimeManager::new(since(100), Some(budget));
        assert!(late.soft_limit_reached(1000.0, 1000.0));
    }

    #[test]
    fn a_movetime_keeps_back_at_most_a_tenth_for_the_overhead_and_byoyomi_all_of_it() {
        let ms = Duration::from_millis;
        assert_eq!(TimeBudget::movetime(ms(1000), ms(30)).hard, ms(970));
        assert_eq!(TimeBudget::movetime(ms(100), ms(30)).hard, ms(90));
        assert_eq!(TimeBudget::movetime(ms(40), ms(30)).hard, ms(36));
        assert_eq!(TimeBudget::movetime(ms(40), ms(0)).hard, ms(40));
        let b = TimeBudget::movetime(ms(20), ms(5000));
        assert!(b.soft == b.hard && b.hard == ms(18) && !b.managed);
        assert_eq!(TimeBudget::movetime(ms(1), ms(30)).hard, ms(1));
        assert_eq!(TimeBudget::movetime(ms(0), ms(30)).hard, ms(1));
        // Byoyomi is a deadline: the whole overhead stays kept back, as on a clock.
        assert_eq!(TimeBudget::fixed(ms(1000), ms(300)).hard, ms(700));
        assert_eq!(TimeBudget::fixed(ms(20), ms(30)).hard, ms(1));
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        let overhead = Duration::from_millis(30);
        for (time, inc, mtg) in
            [(1000, 10, None), (60_000, 0, None), (100, 0, None), (5000, 100, Some(1)), (0, 0, None)]
        {
            let clock = ClockState {
                time: Some(Duration::from_millis(time)),
                inc: Duration::from_millis(inc),
                movestogo: mtg,
                overhead,
                ..ClockState::default()
            };
            let b = TimeBudget::of(&clock, false, 0, ShareCurve::DEFAULT).unwrap();
            assert!(b.soft <= b.hard);
            assert!(b.hard <= Duration::from_millis(time).max(Duration::from_millis(1)), "{time}: {b:?}");
        }
    }

    #[test]
    fn without_moves_to_go_the_share_grows_with_the_game_up_to_its_cap() {
        // The soft limit with 10 s left at `ply`, by `curve`.
        let soft = |ply, curve| {
            let clock = ClockState { time: Some(Duration::from_secs(10)), ..ClockState::default() };
            TimeBudget::of(&clock, false, ply, curve).unwrap().soft
        };
        let at = |ply| soft(ply, ShareCurve::DEFAULT);
        assert_eq!(ShareCurve::of(&SearchParams::default()), ShareCurve::DEFAULT);
        assert_eq!(at(0), Duration::from_millis(120));
        assert!(at(0) < at(10) && at(10) < at(20), "{:?} {:?} {:?}", at(0), at(10), at(20));
        // The cap is reached at ply 35 and not before.
        assert!(at(34) < at(35) && at(35) == at(400), "{:?} {:?}", at(34), at(35));
        assert_eq!(at(400), Duration::from_millis(400));
        // The host's moves to go share the time evenly instead, whatever the ply.
        let even = ClockState { time: Some(Duration::from_secs(10)), movestogo: Some(20), ..ClockState::default() };
        assert_eq!(TimeBudget::of(&even, false, 80, ShareCurve::DEFAULT).unwrap().soft, Duration::from_millis(500));
        // A larger cap is reached later, at ply 42 for 4.5%, and gives the middlegame more.
        let with = |ply, cap| soft(ply, ShareCurve { max: cap, ..ShareCurve::DEFAULT });
        assert_eq!(with(0, 0.045), at(0));
        assert!(with(38, 0.045) > at(38) && with(42, 0.045) == with(400, 0.045));
        assert_eq!(with(400, 0.045), Duration::from_millis(450));
        // A steeper curve gives the early middlegame more and reaches the same cap sooner: at ply 28 for 0.1% a
        // ply.
        let steeper = |ply| soft(ply, ShareCurve { per_ply: 0.001, ..ShareCurve::DEFAULT });
        assert_eq!(steeper(0), at(0));
        assert!(steeper(20) > at(20) && steeper(27) < steeper(28) && steeper(28) == at(400));
        // A larger start gives every move before the cap more, from the first, and reaches the cap sooner: at ply
        // 25 from 2%.
        let start = ShareCurve { start: 0.02, ..ShareCurve::DEFAULT };
        let sooner = |ply| soft(ply, start);
        assert_eq!(sooner(0), Duration::from_millis(200));
        assert!(sooner(10) > at(10) && sooner(24) < sooner(25) && sooner(25) == at(400));
        // The tuning option sets that start (`janggi --tune`, `tm_share_start_permille`).
        let mut params = SearchParams::default();
        params.set("tm_share_start_permille", 20).unwrap();
        assert_eq!(ShareCurve::of(&params), start);
    }

    #[test]
    fn the_time_share_options_default_to_the_time_managers_constants() {
        let p = SearchParams::default();
        assert_eq!(f64::from(p.tm_share_max_permille) / 1000.0, TIME_SHARE_MAX);
        assert_eq!(f64::from(p.tm_share_per_ply_micro) / 1e6, TIME_SHARE_PER_PLY);
        assert_eq!(f64::from(p.tm_share_start_permille) / 1000.0, TIME_SHARE_START);
    }

    /// Budgets pinned when the search began to draw them itself from the host's clock (the protocol drew them
    /// before): every clock gives every move the same time as it did then.
    #[test]
    fn budgets_are_pinned() {
        let ms = Duration::from_millis;
        let clock = |time: Option<u64>, inc, movestogo, overhead| ClockState {
            time: time.map(ms),
            inc: ms(inc),
            movestogo,
            overhead: ms(overhead),
            ..ClockState::default()
        };
        let curve = ShareCurve::DEFAULT;
        let budget = |c: ClockState, infinite, ply, curve| {
            TimeBudget::of(&c, infinite, ply, curve).map(|b| (b.soft.as_nanos(), b.hard.as_nanos(), b.managed))
        };
        let movetime = |t, overhead| ClockState { movetime: Some(ms(t)), ..clock(None, 0, None, overhead) };
        // `go movetime`: a tenth at most kept back; it wins over a clock and over `infinite`.
        assert_eq!(budget(movetime(1000, 30), false, 0, curve), Some((970_000_000, 970_000_000, false)));
        let with_clock = ClockState { movetime: Some(ms(40)), ..clock(Some(60_000), 0, None, 30) };
        assert_eq!(budget(with_clock, false, 0, curve), Some((36_000_000, 36_000_000, false)));
        assert_eq!(budget(movetime(500, 0), true, 0, curve), Some((500_000_000, 500_000_000, false)));
        // Sudden death and increments, by the share curve.
        assert_eq!(budget(clock(Some(60_000), 0, None, 30), false, 0, curve), Some((719_640_000, 3_598_200_000, true)));
        assert_eq!(
            budget(clock(Some(10_000), 100, None, 30), false, 20, curve),
            Some((374_160_000, 1_870_800_000, true))
        );
        assert_eq!(
            budget(clock(Some(10_000), 100, None, 10), false, 61, curve),
            Some((494_600_000, 2_473_000_000, true))
        );
        assert_eq!(budget(clock(Some(100), 0, None, 30), false, 10, curve), Some((1_400_000, 5_000_000, true)));
        // Moves to go, the last one included.
        assert_eq!(
            budget(clock(Some(5_000), 100, Some(1), 30), false, 7, curve),
            Some((3_131_100_000, 4_473_000_000, true))
        );
        assert_eq!(
            budget(clock(Some(30_000), 0, Some(20), 30), false, 80, curve),
            Some((1_470_000_000, 7_350_000_000, true))
        );
        // USI byoyomi, after the main time and alone.
        let byoyomi = |time| ClockState { byoyomi: Some(ms(1000)), ..clock(time, 0, None, 0) };
        assert_eq!(
            budget(ClockState { overhead: ms(100), ..byoyomi(Some(0)) }, false, 3, curve),
            Some((810_000_000, 900_000_000, true))
        );
        assert_eq!(
            budget(ClockState { overhead: ms(300), ..byoyomi(None) }, false, 3, curve),
            Some((700_000_000, 700_000_000, false))
        );
        // A tuned share curve (`tm_share_max_permille` 45 under `--tune`).
        let mut params = SearchParams::default();
        params.set("tm_share_max_permille", 45).unwrap();
        assert_eq!(
            budget(clock(Some(300_000), 2000, None, 30), false, 50, ShareCurve::of(&params)),
            Some((15_398_650_000, 76_993_250_000, true))
        );
        // No time limit: `infinite` on a clock, or no time given.
        assert_eq!(budget(clock(Some(60_000), 0, None, 30), true, 0, curve), None);
        assert_eq!(budget(clock(None, 0, None, 30), false, 0, curve), None);
    }
}
