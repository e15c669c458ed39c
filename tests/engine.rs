//! The engine facade through its public API: the game it holds, each kind of search limit, stop and ponderhit,
//! hash sizes, and the game end it reports when no move is left.

use janggi::board::{Color, GameEnd, MoveError, Notation, Outcome, Position, Reason, Rules, START_FEN, SetupError};
use janggi::search::engine::{
    ClockState, Engine, EngineError, Finish, Limits, Listener, Outcome as SearchOutcome, Report, time_budget,
};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a listener heard, in order.
#[derive(Debug)]
enum Heard {
    Report(u32),
    Best(SearchOutcome),
    NoMove(GameEnd),
}

struct Recorder(Mutex<Sender<Heard>>);

impl Listener for Recorder {
    fn report(&self, r: &Report) {
        let _ = self.0.lock().unwrap().send(Heard::Report(r.depth));
    }
    fn best_move(&self, outcome: &SearchOutcome) {
        let _ = self.0.lock().unwrap().send(Heard::Best(outcome.clone()));
    }
    fn no_move(&self, end: &GameEnd) {
        let _ = self.0.lock().unwrap().send(Heard::NoMove(*end));
    }
}

fn engine() -> (Engine, Receiver<Heard>) {
    let (tx, rx) = channel();
    (Engine::new(16, Arc::new(Recorder(Mutex::new(tx)))), rx)
}

/// Waits for the final answer (best move or game end), returning it with the depths reported before it.
fn answer(rx: &Receiver<Heard>, within: Duration) -> (Heard, Vec<u32>) {
    let deadline = Instant::now() + within;
    let mut depths = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left).expect("an answer in time") {
            Heard::Report(d) => depths.push(d),
            other => return (other, depths),
        }
    }
}

fn best(rx: &Receiver<Heard>, within: Duration) -> SearchOutcome {
    match answer(rx, within).0 {
        Heard::Best(o) => o,
        other => panic!("expected a best move, got {other:?}"),
    }
}

/// Nothing final arrives within `wait`.
fn silent_for(rx: &Receiver<Heard>, wait: Duration) {
    let deadline = Instant::now() + wait;
    while let Ok(h) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        assert!(matches!(h, Heard::Report(_)), "answered before being released: {h:?}");
    }
}

fn limits() -> Limits {
    Limits::default()
}

/// A fixed time for the move, as `go movetime` gives it (no overhead kept back).
fn movetime(time: Duration) -> ClockState {
    ClockState { movetime: Some(time), ..ClockState::default() }
}

#[test]
fn a_position_with_moves_is_set_and_a_bad_move_keeps_the_moves_before_it() {
    let (mut e, _rx) = engine();
    e.set_position(START_FEN, Rules::JANGGI, &["h1g3", "h10g8"], Notation::Uci).unwrap();
    let expected = Position::from_fen_moves(START_FEN, Rules::JANGGI, &["h1g3", "h10g8"], Notation::Uci).unwrap();
    assert_eq!(e.position().fen(), expected.fen());
    assert_eq!(e.position().history().len(), 2);

    let err = e.set_position(START_FEN, Rules::JANGGI, &["h1g3", "h1g3"], Notation::Uci).unwrap_err();
    assert!(matches!(err, SetupError::Move(ref b) if b.ply == 2 && b.why == MoveError::Illegal), "{err}");
    assert_eq!(e.position().history().len(), 1, "the position stops before the bad move");

    let before = e.position().fen();
    assert!(matches!(
        e.set_position("not a fen", Rules::JANGGI, &[] as &[&str], Notation::Uci),
        Err(SetupError::Fen(_))
    ));
    assert_eq!(e.position().fen(), before, "a bad FEN leaves the position as it was");
}

#[test]
fn go_depth_reports_each_iteration_then_a_legal_best_move() {
    let (mut e, rx) = engine();
    e.set_position(START_FEN, Rules::JANGGI, &["h1g3"], Notation::Uci).unwrap();
    e.go(Limits { depth: Some(5), ..limits() });
    let (heard, depths) = answer(&rx, Duration::from_secs(20));
    let Heard::Best(out) = heard else { panic!("{heard:?}") };
    assert_eq!(out.depth, 5);
    assert_eq!(depths.iter().max(), Some(&5));
    assert!(depths.contains(&1), "every iteration is reported: {depths:?}");
    assert!(e.position().is_legal(out.best.unwrap()));
}

#[test]
fn go_nodes_stops_near_the_budget() {
    let (mut e, rx) = engine();
    e.go(Limits { nodes: Some(20_000), ..limits() });
    let out = best(&rx, Duration::from_secs(20));
    assert!(out.nodes >= 20_000 && out.nodes < 25_000, "{} nodes", out.nodes);
    assert!(e.position().is_legal(out.best.unwrap()));
}

#[test]
fn go_movetime_uses_about_the_time_asked() {
    let (mut e, rx) = engine();
    let start = Instant::now();
    e.go(Limits { clock: movetime(Duration::from_millis(300)), ..limits() });
    // The search ends by itself (the guard is far beyond any machine's delay), and never before its time: a
    // loaded machine only makes it later.
    let out = best(&rx, Duration::from_secs(30));
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(250), "{took:?}");
    assert!(out.best.is_some());
}

#[test]
fn go_on_a_clock_spends_a_small_share_of_it() {
    let (mut e, rx) = engine();
    let clock = ClockState {
        time: Some(Duration::from_secs(2)),
        inc: Duration::from_millis(20),
        overhead: Duration::from_millis(10),
        ..ClockState::default()
    };
    // What the clock buys this move, as the search draws it: a small share of the 2 s, whatever the machine's speed.
    let budget = time_budget(&clock, 0).expect("a clock gives a budget");
    assert!(budget.soft <= Duration::from_millis(100) && budget.hard <= Duration::from_millis(700), "{budget:?}");
    // The search ends by itself on that budget, with no depth limit and no `stop`.
    e.go(Limits { clock, ..limits() });
    let out = best(&rx, Duration::from_secs(30));
    assert!(out.best.is_some());
}

#[test]
fn go_mate_stops_once_the_mate_is_found() {
    let (mut e, rx) = engine();
    e.set_position("3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1", Rules::JANGGI, &[] as &[&str], Notation::Uci).unwrap();
    e.go(Limits { mate: Some(1), ..limits() });
    let out = best(&rx, Duration::from_secs(30));
    assert_eq!(out.best.unwrap().to_string(), "b1b10");
    assert_eq!(janggi::search::engine::reported_score(out.score), janggi::score::Score::Mate(1));
    // It stopped at the depth that found the mate instead of searching on to the deepest depth.
    assert!(out.depth <= 3, "searched on to depth {}", out.depth);
}

#[test]
fn searchmoves_restricts_the_root_moves() {
    let (mut e, rx) = engine();
    let only = e.position().parse_move("a4a5", Notation::Uci).unwrap();
    e.go(Limits { depth: Some(4), searchmoves: vec![only], ..limits() });
    assert_eq!(best(&rx, Duration::from_secs(10)).best, Some(only));
}

#[test]
fn go_infinite_answers_only_after_stop() {
    let (mut e, rx) = engine();
    e.go(Limits { infinite: true, depth: Some(2), ..limits() });
    // Even a finished depth-2 search waits for `stop` before its best move.
    silent_for(&rx, Duration::from_millis(400));
    assert!(e.is_searching());
    e.stop();
    // `stop` returns once the search has answered: the best move is already there, no wait needed.
    let out = best(&rx, Duration::ZERO);
    assert!(out.best.is_some());
    assert!(!e.is_searching());
}

#[test]
fn stop_ends_a_long_search_at_once_with_its_best_move_so_far() {
    let (mut e, rx) = engine();
    e.go(Limits { depth: Some(64), ..limits() });
    std::thread::sleep(Duration::from_millis(200));
    // A depth-64 search would run for days: `stop` returning at all, with the best move already there, shows that
    // the search broke off. The guard only turns a hang into a failure.
    let (done_tx, done_rx) = channel();
    let stopper = std::thread::spawn(move || {
        e.stop();
        let _ = done_tx.send(());
        e
    });
    done_rx.recv_timeout(Duration::from_secs(30)).expect("stop ended the search");
    let e = stopper.join().unwrap();
    let out = best(&rx, Duration::ZERO);
    assert!(e.position().is_legal(out.best.unwrap()));
}

#[test]
fn ponderhit_turns_pondering_into_a_timed_search() {
    let (mut e, rx) = engine();
    e.go(Limits { ponder: true, clock: movetime(Duration::from_millis(200)), ..limits() });
    // While pondering the clock does not run: no answer long after the move time.
    silent_for(&rx, Duration::from_millis(600));
    let start = Instant::now();
    e.ponderhit();
    let out = best(&rx, Duration::from_secs(5));
    assert!(start.elapsed() >= Duration::from_millis(150), "the clock starts at ponderhit: {:?}", start.elapsed());
    assert!(out.best.is_some());
}

#[test]
fn think_answers_on_the_calling_thread() {
    let (mut e, rx) = engine();
    let finish = e.think(&Limits { depth: Some(3), ..limits() });
    let out = finish.outcome().expect("a move");
    assert_eq!(out.depth, 3);
    // The listener heard the same answer.
    assert!(matches!(answer(&rx, Duration::from_secs(1)).0, Heard::Best(ref o) if o.best == out.best));
}

#[test]
fn the_hash_is_resized_while_idle_and_an_impossible_size_is_refused() {
    let (mut e, _rx) = engine();
    assert_eq!(e.hash_mb(), 16);
    e.set_hash(32).unwrap();
    assert_eq!(e.hash_mb(), 32);
    for impossible in [0, 1 << 40, usize::MAX] {
        assert!(matches!(e.set_hash(impossible), Err(EngineError::Hash(_))), "{impossible} MB");
        assert_eq!(e.hash_mb(), 32, "the table is kept");
    }
    // The engine still searches with it.
    assert!(e.think(&Limits { depth: Some(3), ..limits() }).outcome().is_some());
}

#[test]
fn during_a_search_a_resize_waits_for_its_end_and_clearing_is_refused() {
    let (mut e, rx) = engine();
    e.go(Limits { infinite: true, ..limits() });
    e.set_hash(8).unwrap();
    assert_eq!(e.hash_mb(), 8);
    assert!(matches!(e.clear(), Err(EngineError::Busy(_))));
    e.stop();
    best(&rx, Duration::from_secs(1));
    assert_eq!(e.hash_mb(), 8);
    e.clear().unwrap();
}

#[test]
fn more_threads_and_lines_search_too() {
    let (mut e, rx) = engine();
    e.set_threads(2);
    e.set_multipv(3);
    e.go(Limits { depth: Some(5), ..limits() });
    let out = best(&rx, Duration::from_secs(20));
    assert_eq!(out.lines.len(), 3);
    assert!(out.lines.windows(2).all(|w| w[0].0 >= w[1].0), "lines best first");
}

/// The game end the engine reports for `go` in the position after `moves`.
fn no_move_end(fen: &str, rules: Rules, moves: &[&str]) -> GameEnd {
    let (mut e, rx) = engine();
    e.set_position(fen, rules, moves, Notation::Uci).unwrap();
    e.go(Limits { depth: Some(4), ..limits() });
    match answer(&rx, Duration::from_secs(5)).0 {
        Heard::NoMove(end) => end,
        other => panic!("expected no move, got {other:?}"),
    }
}

#[test]
fn no_move_reports_the_game_end_of_each_kind() {
    let mate = no_move_end("3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1", Rules::JANGGI, &["b1b10"]);
    assert_eq!((mate.reason, mate.outcome), (Reason::Checkmate, Outcome::Win(Color::Cho)));

    let passes = no_move_end(START_FEN, Rules::JANGGI, &["e2e2", "e9e9"]);
    assert_eq!(passes.reason, Reason::DoublePass);
    assert!(passes.counted, "janggi decides two passes by count");
    let drawn = no_move_end(START_FEN, Rules::TRADITIONAL, &["e2e2", "e9e9"]);
    assert_eq!((drawn.reason, drawn.outcome), (Reason::DoublePass, Outcome::Draw));

    let bikjang = no_move_end("9/3k5/9/6p1r/9/9/R1P6/9/4K4/9 w - - 0 1", Rules::JANGGI, &["e2d2", "d9d9"]);
    assert_eq!(bikjang.reason, Reason::BikjangPass);

    // A general that cannot move without a pass: a draw in janggistrict, a loss in janggibasic.
    let hemmed = "5k3/9/4r4/9/9/9/9/9/8r/3K5 w - - 0 1";
    let strict = no_move_end(hemmed, Rules::STRICT, &[]);
    assert_eq!((strict.reason, strict.outcome), (Reason::Stalemate, Outcome::Draw));
    let basic = no_move_end(hemmed, Rules::BASIC, &[]);
    assert_eq!((basic.reason, basic.outcome), (Reason::Stalemate, Outcome::Win(Color::Han)));
}

#[test]
fn a_finished_game_under_go_infinite_answers_after_stop() {
    let (mut e, rx) = engine();
    e.set_position(START_FEN, Rules::JANGGI, &["e2e2", "e9e9"], Notation::Uci).unwrap();
    e.go(Limits { infinite: true, ..limits() });
    silent_for(&rx, Duration::from_millis(300));
    e.stop();
    assert!(matches!(answer(&rx, Duration::from_secs(1)).0, Heard::NoMove(end) if end.reason == Reason::DoublePass));
    assert!(matches!(e.think(&limits()), Finish::NoMove(_)));
}
