//! The search: mates, limits, multiple lines, and game ends scored by each rule set.

mod common;

use janggi::board::setups::all_setups;
use janggi::board::{Move, Notation, Position, Rules};
use janggi::eval::evaluator::Evaluator;
use janggi::eval::nnue::default_network;
use janggi::score::Score;
use janggi::search::params::{MATE_BOUND, SearchParams};
use janggi::search::time::ClockState;
use janggi::search::{self, Limits, Settings, Shared, Silent, reported_score};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn search_fen(fen: &str, rules: Rules, limits: Limits, settings: &Settings) -> search::Outcome {
    let pos = Position::from_fen(fen, rules).unwrap();
    search::search(&pos, &limits, settings, &Shared::new(16), &Silent)
}

/// Forced checkmates (not wins on count), each checked to be a mate in exactly n moves with the reference
/// implementation's move generator by exhaustive search.
const MATES: [(u32, &str); 9] = [
    (1, "1P3kb2/9/4R4/9/6R2/9/9/5K3/8N/9 w - - 0 1"),
    (1, "4k4/4c4/9/9/N8/9/9/9/9/3K4R w - - 0 1"),
    (1, "6p2/3R1c3/5k3/9/p8/9/3C5/9/4K4/4n4 w - - 0 1"),
    (2, "4k4/6r2/4P4/3C5/7R1/9/9/3A5/5K3/9 w - - 0 1"),
    (2, "7R1/3k5/7p1/9/9/3B5/5R3/9/9/5K3 w - - 0 1"),
    (2, "3k5/9/9/7N1/9/P4R3/9/4K4/9/5B2b w - - 0 1"),
    (3, "9/B8/4k4/9/9/9/9/9/1R3K3/9 w - - 0 1"),
    (3, "9/3ka4/9/9/3N5/p8/9/9/1R2KC3/3A5 w - - 0 1"),
    (3, "9/3a5/3k5/9/6p2/2R6/2pB5/5K3/9/9 w - - 0 1"),
];

/// A fixed time for the move, as `go movetime` gives it (no overhead kept back).
fn movetime(time: Duration) -> ClockState {
    ClockState { movetime: Some(time), ..ClockState::default() }
}

#[test]
fn finds_mates_in_one_two_and_three_within_three_seconds() {
    let three_seconds = || movetime(Duration::from_secs(3));
    for (n, fen) in MATES {
        // Under janggi rules a win on count may come as fast as the mate: either is a forced win in n moves.
        let out = search_fen(
            fen,
            Rules::JANGGI,
            Limits { mate: Some(n), clock: three_seconds(), ..Limits::default() },
            &Settings::default(),
        );
        assert_eq!(reported_score(out.score), Score::Mate(n as i32), "{fen}: pv {:?}", out.pv);
        // Found by depth, not by luck of the clock: the search stopped at the mate's own depth or soon after (a
        // mate in 3 whose middle move is a quiet horse check, pruned at the frontier, is proved at depth 10).
        assert!(out.depth <= 2 * n + 4, "{fen}: searched to depth {}", out.depth);
        // Where counting decides nothing (janggicasual), the line played out ends in checkmate.
        let out = search_fen(
            fen,
            Rules::CASUAL,
            Limits { mate: Some(n), clock: three_seconds(), ..Limits::default() },
            &Settings::default(),
        );
        assert_eq!(reported_score(out.score), Score::Mate(n as i32), "{fen}: pv {:?}", out.pv);
        let mut pos = Position::from_fen(fen, Rules::CASUAL).unwrap();
        for m in &out.pv {
            assert!(pos.is_legal(*m));
            pos.make_move(*m);
        }
        assert_eq!(out.pv.len(), 2 * n as usize - 1, "{fen}: {:?}", out.pv);
        assert!(pos.legal_moves().is_empty() && pos.in_check(), "{fen}: {:?} is no mate", out.pv);
    }
}

/// The search's tunable numbers set away from their defaults (null moves tried further below beta the deeper the
/// node, checks extended only in unbalanced positions from depth 7, captures reduced, principal-variation nodes
/// reduced less, the root's quiet moves reduced from the second, continuation history saturating later, no
/// razoring and no history pruning): forced mates are still found in the fewest moves, and a position with the side
/// to move in check at the root still gets a legal move.
#[test]
fn the_optional_search_conditions_keep_forced_mates() {
    let mut params = SearchParams::default();
    for (name, value) in [
        ("singular_margin", 8),
        ("nmp_static_margin", -76),
        ("nmp_static_per_depth", 10),
        ("check_extension_min_depth", 7),
        ("check_extension_eval_margin", 48),
        ("rfp_max_depth", 8),
        ("rfp_margin", 103),
        ("rfp_improving_margin", 103),
        ("rfp_improving_flat", 103),
        ("lmr_capture_pct", 100),
        ("lmr_ttpv", 2),
        ("qs_capture_limit", 2),
        ("qs_recapture_ply", 5),
        ("conthist_prune_depth", 5),
        ("root_lmr_from", 1),
        ("root_lmr_less", 0),
        ("lmr_cut_quiet", 2),
        ("lmr_opp_late_move", 14),
        ("order_cont1_extra_pct", 100),
        ("history_bonus_per_depth", 225),
        ("history_bonus_max", 3200),
        ("cont_history_limit", 29952),
        ("iir_min_depth", 6),
        ("iir_reduction", 2),
        ("lmr_pv_less", 2),
        ("nmp_min_depth", 1),
        ("razor_max_depth", 0),
        ("history_prune_depth", 0),
    ] {
        params.set(name, value).unwrap();
    }
    let settings = Settings { search: Arc::new(params), ..Settings::default() };
    for (n, fen) in MATES {
        let out = search_fen(fen, Rules::CASUAL, Limits { mate: Some(n), ..Limits::default() }, &settings);
        assert_eq!(reported_score(out.score), Score::Mate(n as i32), "{fen}: pv {:?}", out.pv);
    }
    let in_check = "3k5/9/9/9/9/9/9/9/4K4/4r4 w - - 0 1";
    let out = search_fen(in_check, Rules::JANGGI, Limits { depth: Some(9), ..Limits::default() }, &settings);
    let pos = Position::from_fen(in_check, Rules::JANGGI).unwrap();
    assert!(pos.in_check() && pos.is_legal(out.best.unwrap()));
}

#[test]
fn quiescence_limits_still_take_the_free_piece_and_see_the_recapture() {
    // The chariot on e5 can take a free horse on a5, or a chariot on e7 that a soldier takes back: taking the
    // chariot looks better to a search that misses the recapture.
    let fen = "9/4k4/9/3pr4/9/n3R4/9/9/9/3K5 w - - 0 1";
    let pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
    let free_horse = pos.parse_move("e5a5", Notation::Uci).unwrap();
    let mut params = SearchParams::default();
    for (name, value) in [("qs_capture_limit", 1), ("qs_recapture_ply", 1)] {
        params.set(name, value).unwrap();
    }
    for settings in [Settings::default(), Settings { search: Arc::new(params), ..Settings::default() }] {
        for depth in [1, 4] {
            let out = search_fen(fen, Rules::JANGGI, Limits { depth: Some(depth), ..Limits::default() }, &settings);
            assert_eq!(out.best, Some(free_horse), "depth {depth}: pv {:?}", out.pv);
        }
    }
}

/// Two cannons against two chariots with the generals a file apart: a general stepping onto the open file faces
/// the other, a chariot then checks it, and round again. Quiescence searches every evasion, so without the
/// repetition rule there it chased that cycle to the ply limit at every leaf: with checks extended only from
/// depth 7 where the evaluation is unbalanced (the main search, which tests repetition, then leaves the chase to
/// quiescence) a depth-13 search with the default net ran for more than ten minutes. It now completes depth 13
/// well within a million nodes under every rule set, with that condition and with the default one.
#[test]
fn a_chase_of_checks_and_facing_generals_ends_in_quiescence() {
    let fen = "3rr4/3k5/9/9/9/9/9/9/4K4/3CC4 w - - 0 1";
    let mut late_checks = SearchParams::default();
    late_checks.set("check_extension_min_depth", 7).unwrap();
    late_checks.set("check_extension_eval_margin", 50).unwrap();
    let net = Settings { evaluator: Evaluator::Nnue(default_network()), ..Settings::default() };
    let net_late_checks = Settings { search: Arc::new(late_checks), ..net.clone() };
    for settings in [net_late_checks, net] {
        for rules in Rules::ALL {
            let limits = Limits { depth: Some(13), nodes: Some(1_000_000), ..Limits::default() };
            let out = search_fen(fen, rules, limits, &settings);
            assert_eq!(out.depth, 13, "{}: stopped by the node limit at depth {}", rules.name, out.depth);
            assert!(Position::from_fen(fen, rules).unwrap().is_legal(out.best.unwrap()), "{}", rules.name);
        }
    }
}

#[test]
fn always_returns_a_legal_move_when_one_exists() {
    for (i, fen) in all_setups().iter().enumerate().take(10) {
        for rules in Rules::ALL {
            let limits = Limits { nodes: Some(200 + 37 * i as u64), ..Limits::default() };
            let out = search_fen(fen, rules, limits, &Settings::default());
            let pos = Position::from_fen(fen, rules).unwrap();
            assert!(out.best.is_some_and(|m| pos.is_legal(m)), "{rules} {fen}");
        }
    }
}

#[test]
fn respects_depth_nodes_and_movetime() {
    let fen = janggi::board::START_FEN;
    let out = search_fen(fen, Rules::JANGGI, Limits { depth: Some(6), ..Limits::default() }, &Settings::default());
    assert_eq!(out.depth, 6);
    let out = search_fen(fen, Rules::JANGGI, Limits { nodes: Some(5000), ..Limits::default() }, &Settings::default());
    assert!(out.nodes <= 5000 + 200, "{} nodes", out.nodes);
    let start = Instant::now();
    let limits = Limits { clock: movetime(Duration::from_millis(300)), ..Limits::default() };
    let out = search_fen(fen, Rules::JANGGI, limits, &Settings::default());
    let spent = start.elapsed();
    // Never before its time (a loaded machine only makes it later); the upper guard only catches a search that
    // ignores its clock.
    assert!(spent >= Duration::from_millis(250) && spent < Duration::from_secs(30), "{spent:?}");
    assert!(out.best.is_some());
    // Several limits at once: the first reached stops.
    let limits =
        Limits { depth: Some(40), nodes: Some(3000), clock: movetime(Duration::from_secs(10)), ..Limits::default() };
    let out = search_fen(fen, Rules::JANGGI, limits, &Settings::default());
    assert!(out.nodes <= 3200);
}

#[test]
fn a_forced_move_is_analysed_under_movetime_and_played_at_once_on_a_clock() {
    // Han's only legal move takes the checking chariot, and it begins a mate in 3.
    let fen = "4kR3/3a5/4c4/4C4/4p4/5p3/1PP3P2/1C1nK4/3N1r3/3r5 b - - 0 43";
    assert_eq!(Position::from_fen(fen, Rules::JANGGI).unwrap().legal_moves().len(), 1);
    let analysis = Limits { clock: movetime(Duration::from_secs(3)), ..Limits::default() };
    let out = search_fen(fen, Rules::JANGGI, analysis, &Settings::default());
    assert_eq!(reported_score(out.score), Score::Mate(3), "{out:?}");
    let game = Limits {
        clock: ClockState { time: Some(Duration::from_secs(60)), ..ClockState::default() },
        ..Limits::default()
    };
    let out = search_fen(fen, Rules::JANGGI, game, &Settings::default());
    assert!(out.best.is_some() && out.depth <= 4, "{out:?}");
}

#[test]
fn multipv_lines_come_best_first_with_different_moves() {
    // Also with the root's quiet moves reduced from the second: the lines after the first are still searched exactly.
    let mut root = SearchParams::default();
    root.set("root_lmr_from", 1).unwrap();
    for search in [Arc::new(SearchParams::default()), Arc::new(root)] {
        let settings = Settings { multipv: 4, search, ..Settings::default() };
        let limits = Limits { depth: Some(7), ..Limits::default() };
        let out = search_fen(janggi::board::START_FEN, Rules::JANGGI, limits, &settings);
        assert_eq!(out.lines.len(), 4);
        for pair in out.lines.windows(2) {
            assert!(pair[0].0 >= pair[1].0, "{:?}", out.lines);
        }
        let firsts: std::collections::HashSet<Move> = out.lines.iter().map(|l| l.1[0]).collect();
        assert_eq!(firsts.len(), 4);
        assert_eq!(out.best, Some(out.lines[0].1[0]));
    }
}

#[test]
fn bikjang_wins_on_count_only_where_the_rule_set_says_so() {
    // Cho steps onto Han's file; Han's general is walled in by its own elephants, which cannot reach the file,
    // so only a pass answers the bikjang, and the pass ends the game on count (Cho 9 points, Han 6 + 1.5).
    let fen = "3bkb3/9/9/9/9/9/P1P6/9/3K5/N8 w - - 0 1";
    let limits = || Limits { depth: Some(5), ..Limits::default() };
    let out = search_fen(fen, Rules::JANGGI, limits(), &Settings::default());
    assert_eq!(out.best, Move::parse("d2e2", Notation::Uci));
    assert!(out.score >= MATE_BOUND, "a won count: {}", out.score);
    for rules in [Rules::TRADITIONAL, Rules::MODERN, Rules::CASUAL] {
        let out = search_fen(fen, rules, limits(), &Settings::default());
        assert!(out.score < MATE_BOUND, "{rules}: no forced win, {}", out.score);
    }
}

#[test]
fn repetition_is_scored_as_the_rule_set_decides() {
    // Equal chariots: a third repetition is counted for Han (the komi) in janggi, a draw in janggitraditional,
    // and janggimodern needs a fourth occurrence.
    let fen = "9/3k5/9/8r/9/9/R8/9/4K4/9 w - - 0 1";
    let cycle = ["a4a5", "i7i6", "a5b5", "i6h6", "b5b4", "h6h7", "b4a4", "h7i7"];
    let moves: Vec<&str> = cycle.iter().chain(cycle[..7].iter()).copied().collect();
    for (rules, winning) in [(Rules::JANGGI, true), (Rules::TRADITIONAL, false), (Rules::MODERN, false)] {
        let mut pos = Position::from_fen(fen, rules).unwrap();
        for m in &moves {
            pos.make_move(Move::parse(m, Notation::Uci).unwrap());
        }
        let limits = Limits { depth: Some(4), ..Limits::default() };
        let out = search::search(&pos, &limits, &Settings::default(), &Shared::new(16), &Silent);
        if winning {
            assert_eq!(out.best, Move::parse("h7i7", Notation::Uci), "{rules}");
            assert!(out.score >= MATE_BOUND, "{rules}: {}", out.score);
        } else {
            assert!(out.score < MATE_BOUND, "{rules}: {}", out.score);
        }
    }
}

#[test]
fn two_threads_return_a_legal_move_and_search_deeper_than_one() {
    let fen = "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1";
    let limits = || Limits { clock: movetime(Duration::from_millis(500)), ..Limits::default() };
    let two = search_fen(fen, Rules::JANGGI, limits(), &Settings { threads: 2, ..Settings::default() });
    let pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
    assert!(two.best.is_some_and(|m| pos.is_legal(m)));
    assert!(two.depth >= 4);
}

#[test]
fn stop_and_ponder_through_the_protocol() {
    let mut e = common::Engine::start_uci();
    e.send("position startpos");
    // An infinite search answers only because of `stop`: its answer coming at all is the check (the guard of
    // `read_until`, 20 s, only turns a hang into a failure).
    for _ in 0..3 {
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        let best = e.best_move("stop");
        assert!(Move::parse(&best, Notation::Uci).is_some_and(|m| Position::startpos(Rules::JANGGI).is_legal(m)));
    }

    e.send("position startpos moves h1g3");
    e.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    let waited = e.read_until_within(Duration::from_millis(700), |l| l.starts_with("bestmove"));
    assert!(waited.is_none(), "no best move while pondering");
    // After ponderhit the clock applies: the search ends by itself (no `stop` is sent), within its own budget.
    let best = e.best_move("ponderhit");
    assert!(e.last_reported_time() < 2000, "{} ms of a 2 s clock", e.last_reported_time());
    let mut pos = Position::startpos(Rules::JANGGI);
    pos.make_move(Move::parse("h1g3", Notation::Uci).unwrap());
    assert!(pos.is_legal(Move::parse(&best, Notation::Uci).unwrap()));
}

#[test]
fn skill_levels_still_play_legal_moves() {
    for skill in [-20, -5, 10] {
        let mut e = common::Engine::start();
        e.send("uci");
        e.send(&format!("setoption name Skill Level value {skill}"));
        e.send("position startpos");
        let best = e.best_move("go depth 8");
        assert!(Position::startpos(Rules::JANGGI).is_legal(Move::parse(&best, Notation::Uci).unwrap()));
    }
}

/// A later saturation of the continuation history, internal iterative reduction from depth 3 instead of the
/// default 6, principal-variation nodes reduced as the table says, and razoring turned off each change the tree of a
/// middlegame search to a fixed depth: they are wired into the search, not only named.
#[test]
fn each_history_ordering_and_depth_condition_changes_the_tree() {
    let fen = "r1ba1abnr/4k4/1cn4c1/p1p1p1p1p/9/2P6/P3P1P1P/1C2B2C1/4K4/RN1A1ABNR w - - 0 1";
    let nodes = |option: Option<(&str, i64)>| {
        let mut params = SearchParams::default();
        if let Some((name, value)) = option {
            params.set(name, value).unwrap();
        }
        let settings = Settings { search: Arc::new(params), ..Settings::default() };
        search_fen(fen, Rules::JANGGI, Limits { depth: Some(9), ..Limits::default() }, &settings).nodes
    };
    let base = nodes(None);
    for option in [("cont_history_limit", 29952), ("iir_min_depth", 3), ("lmr_pv_less", 0), ("razor_max_depth", 0)] {
        assert_ne!(nodes(Some(option)), base, "{option:?} left the tree as it was");
    }
}

/// The iterations a search completed, in order, as it reported them: depth, score and first move.
#[derive(Default)]
struct Iterations(std::sync::Mutex<Vec<(u32, i32, Move)>>);

impl search::Listener for Iterations {
    fn report(&self, report: &search::Report) {
        if report.multipv == 1 && report.bound == search::ScoreBound::Exact {
            self.0.lock().unwrap().push((report.depth, report.score, report.pv[0]));
        }
    }
}

/// A search stopped in the middle of an iteration (here by a node limit) plays the best move of the last
/// iteration it completed, unless another move beat that move in the stopped iteration. Such a move is played
/// whatever its score, the last best's own score having fallen further there.
#[test]
fn a_search_stopped_mid_iteration_plays_the_move_that_beat_the_last_best_there() {
    let settings = Settings::default();
    // (moved off the last best, of which below the last completed iteration's score)
    let (mut moved, mut below) = (0, 0);
    for fen in janggi::search::bench::POSITIONS {
        for nodes in [6_000, 12_000, 24_000, 48_000] {
            let pos = Position::from_fen(fen, Rules::JANGGI).unwrap();
            let listener = Iterations::default();
            let limits = Limits { nodes: Some(nodes), ..Limits::default() };
            let out = search::search(&pos, &limits, &settings, &Shared::new(16), &listener);
            let Some(&(_, score, last_best)) = listener.0.lock().unwrap().last() else { continue };
            let best = out.best.unwrap();
            assert_eq!(out.pv.first(), Some(&best), "{fen}: the line reported starts with the move played");
            if best != last_best {
                moved += 1;
                below += usize::from(out.score <= score);
            }
        }
    }
    assert!(moved > 0, "no search stopped mid-iteration on a new best move");
    assert!(below > 0, "no new move scored below the completed iteration was played");
}
