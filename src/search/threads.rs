//! The thread pool of one search (Lazy SMP): N workers share the table and stop together, and the move to play
//! is chosen from their results.

use super::worker::{ThreadResult, Worker};
use super::{Limits, Listener, Outcome, Settings, Shared, Silent, history};
use crate::board::Position;
use crate::platform::clock::Instant;
use crate::search::time::{ShareCurve, TimeBudget, TimeManager};
use std::sync::atomic::Ordering;

/// Searches `pos` with `settings.threads` threads and returns the best move found. The shared state is readied
/// (`Shared::ready`) before; `Shared::stop` stops the search. Programs search through `engine::Engine`.
pub fn search(
    pos: &Position,
    limits: &Limits,
    settings: &Settings,
    shared: &Shared,
    listener: &dyn Listener,
) -> Outcome {
    let start = Instant::now();
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tt.new_search();
    let ply = pos.game_ply_from_move_number();
    let budget = TimeBudget::of(&limits.clock, limits.infinite, ply, ShareCurve::of(&settings.search));
    let clock = TimeManager::new(start, budget);
    let threads = settings.threads.max(1);

    let mut histories = shared.histories.lock().map(|mut h| std::mem::take(&mut *h)).unwrap_or_default();
    histories.resize_with(threads, history::History::new);
    let mut results: Vec<(ThreadResult, history::History)> = Vec::with_capacity(threads);

    crate::platform::thread::scope(|scope| {
        let mut handles = Vec::new();
        let mut histories = histories.into_iter();
        let main_history = histories.next().unwrap_or_default();
        for id in 1..threads {
            let h = histories.next().unwrap_or_default();
            let clock = clock.clone();
            handles.push(scope.spawn(move || {
                let mut w = Worker::new(id, pos, limits, settings, shared, clock, h);
                let r = w.run(&Silent);
                (r, w.into_history())
            }));
        }
        let mut main = Worker::new(0, pos, limits, settings, shared, clock, main_history);
        let r = main.run(listener);
        // The main thread decides when the search ends; helpers stop with it.
        shared.stop.store(true, Ordering::Relaxed);
        results.push((r, main.into_history()));
        for h in handles {
            if let Ok(r) = h.join() {
                results.push(r);
            }
        }
    });

    let mut outcome = pick_best(results.iter().map(|(r, _)| r).collect());
    outcome.nodes = shared.nodes();
    if !settings.strength.is_full() && outcome.lines.len() > 1 {
        let scores: Vec<i32> = outcome.lines.iter().map(|l| l.0).collect();
        let (score, pv) = outcome.lines[settings.strength.choose(&scores, pos.key())].clone();
        outcome.best = pv.first().copied();
        outcome.ponder = pv.get(1).copied();
        outcome.score = score;
        outcome.pv = pv;
    }
    if let Ok(mut h) = shared.histories.lock() {
        *h = results.into_iter().map(|(_, h)| h).collect();
    }
    outcome
}

/// Chooses the move to play from the threads' results: the deepest completed iteration, the main thread first
/// among equals; a weakened search then picks among its candidate lines.
fn pick_best(results: Vec<&ThreadResult>) -> Outcome {
    let Some(best) = results
        .iter()
        .copied()
        .filter(|r| !r.pv.is_empty())
        .max_by(|a, b| a.depth.cmp(&b.depth).then(a.score.cmp(&b.score)).then(b.id.cmp(&a.id)))
        .or_else(|| results.first().copied())
    else {
        return Outcome::default();
    };
    let pv = best.pv.clone();
    Outcome {
        best: pv.first().copied(),
        ponder: pv.get(1).copied(),
        score: best.score,
        depth: best.depth,
        nodes: 0,
        pv,
        lines: best.lines.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::search;
    use crate::board::{Position, Rules};
    use crate::eval::evaluator::Evaluator;
    use crate::eval::nnue::random_network;
    use crate::search::{Limits, Settings, Shared, Silent};
    use std::sync::Arc;

    /// Searches with a net, each evaluation checked against a full refresh (`ThreadEvaluator::evaluate` does so
    /// under test, the accumulators having followed every make and unmake of the search), from
    /// positions where passes, null moves, captures and general moves across buckets all occur.
    #[test]
    fn accumulators_follow_the_search_exactly() {
        let settings = Settings { evaluator: Evaluator::Nnue(Arc::new(random_network(9))), ..Settings::default() };
        let fens = [
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            "1b1a1a1br/4k4/4cn1c1/1pp1pp3/2n6/1C1r5/PP1BP1P1P/3NC3N/4K4/R2A1AB1R b - - 10 13",
            "9/4ka3/4a2P1/9/5N3/9/PP7/9/3AA4/3K5 b - - 2 71",
            "4k4/9/4a4/9/9/9/9/9/3K5/R7r b - - 0 1",
        ];
        for (i, fen) in fens.iter().enumerate() {
            let rules = Rules::ALL[i % Rules::ALL.len()];
            let pos = Position::from_fen(fen, rules).unwrap();
            let shared = Shared::new(4);
            let limits = Limits { depth: Some(6), ..Limits::default() };
            shared.ready(&limits);
            let outcome = search(&pos, &limits, &settings, &shared, &Silent);
            assert!(pos.is_legal(outcome.best.unwrap()), "{fen}");
        }
    }
}
