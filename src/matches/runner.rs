//! A whole match: checks every engine before the first game, plays the schedule with N games at once, appends
//! each finished game to the PGN at once, shows progress on stderr, stops early on an SPRT decision or Ctrl-C,
//! continues a stopped match from its PGN (`--resume`), and prints the final table. A shard of a match plays
//! only its share of the game pairs, into its own PGN.

use super::config::MatchSettings;
use super::game::{self, GameRecord};
use super::pgn;
use super::report::{Finished, MatchReport};
use super::schedule::{Pairing, schedule};
use super::stats::Decision;
use super::table::{decision_text, elo_text, format_results, pair_text};
use crate::batch::interrupt;
use crate::batch::shard::Shard;
use crate::board::{Color, Outcome, START_FEN};
use crate::protocol::client::{EngineProcess, Player};
use crate::records::pgn::read_file as read_pgn;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::time::Instant;

/// Raised to end the games in progress: by Ctrl-C, an SPRT decision or a runner error.
static ABORT: AtomicBool = AtomicBool::new(false);
/// Raised by Ctrl-C (a second Ctrl-C exits at once).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Starts each engine once with the match's rule set: a wrong path, a failing handshake or a variant the
/// engine does not list stops the match before any game.
fn check_engines(settings: &MatchSettings) -> Result<(), String> {
    for spec in &settings.engines {
        let engine = EngineProcess::start(spec, settings.rules)?;
        log::info!("engine '{}' is {}", spec.name, engine.id_name.as_deref().unwrap_or("unnamed"));
        engine.quit();
    }
    Ok(())
}

/// The games already in the PGN file, checked against this match's schedule.
fn previous_games(settings: &MatchSettings, plan: &[Pairing], resume: bool) -> Result<Vec<(u32, Finished)>, String> {
    if !settings.pgn.exists() {
        return Ok(Vec::new());
    }
    let games = read_pgn(&settings.pgn)?;
    if games.is_empty() {
        return Ok(Vec::new());
    }
    let path = settings.pgn.display();
    if !resume {
        return Err(format!(
            "'{path}' already holds {} games: continue that match with --resume, or write to another file with --pgn",
            games.len()
        ));
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for g in games {
        let round: u32 = g
            .tag("Round")
            .and_then(|r| r.parse().ok())
            .ok_or_else(|| format!("'{path}': a game has no Round number, so it cannot be resumed"))?;
        let Some(p) = plan.iter().find(|p| p.round == round) else {
            log::warn!("'{path}': game {round} is beyond this match's {} games; not counted", plan.len());
            continue;
        };
        let (white, black) = (g.tag("White").unwrap_or("?"), g.tag("Black").unwrap_or("?"));
        let (cho, han) = (&settings.engines[p.cho].name, &settings.engines[p.han].name);
        if white != cho || black != han {
            return Err(format!(
                "'{path}': game {round} is {white} vs {black}, but this match plays {cho} vs {han} there: is it \
                 the same match (engines, games, openings)?"
            ));
        }
        if g.rules().ok() != Some(settings.rules) {
            return Err(format!("'{path}': game {round} is not {}", settings.rules));
        }
        // One table never mixes two experiments: the clock and the opening must be this match's too.
        let (tc, tc_now) = (g.tag("TimeControl").unwrap_or("?"), settings.limits.pgn_tag());
        if tc != tc_now {
            return Err(format!(
                "'{path}': game {round} was played at TimeControl {tc}, this match plays {tc_now}: resume with the \
                 same limits, or write to another file with --pgn"
            ));
        }
        // A fixed depth or node count writes TimeControl '-': the Limits tag says which (games written before it
        // was added have none, and are taken on their TimeControl alone).
        if let Some(limits) = g.tag("Limits")
            && limits != settings.limits.describe()
        {
            return Err(format!(
                "'{path}': game {round} was played at {limits}, this match plays {}: resume with the same limits, \
                 or write to another file with --pgn",
                settings.limits.describe()
            ));
        }
        let (fen, fen_now) =
            (g.tag("FEN").unwrap_or(START_FEN), &settings.openings[p.opening % settings.openings.len()]);
        if fen != fen_now {
            return Err(format!(
                "'{path}': game {round} started from '{fen}', this match starts it from '{fen_now}': resume with the \
                 same openings (and --seed), or write to another file with --pgn"
            ));
        }
        let outcome = match g.tag("Result").or(g.result.as_deref()) {
            Some("1-0") => Outcome::Win(Color::Cho),
            Some("0-1") => Outcome::Win(Color::Han),
            Some("1/2-1/2") => Outcome::Draw,
            _ => {
                log::warn!("'{path}': game {round} has no result; it will be played again");
                continue;
            }
        };
        if !seen.insert(round) {
            return Err(format!("'{path}': game {round} appears twice"));
        }
        let termination = g.tag("Termination").unwrap_or("normal").to_string();
        let opening = g.tag("FEN").unwrap_or(START_FEN).to_string();
        out.push((round, Finished { round, opening, players: [p.cho, p.han], outcome, termination }));
    }
    Ok(out)
}

/// The progress bar, or plain lines when stderr is no terminal.
struct Progress {
    bar: ProgressBar,
}

impl Progress {
    fn new(total: u64, done: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}  (eta {eta})")
        {
            bar.set_style(style);
        }
        bar.set_position(done);
        Progress { bar }
    }

    fn line(&self, text: &str) {
        if self.bar.is_hidden() {
            eprintln!("{text}");
        } else {
            self.bar.println(text);
        }
    }
}

/// The headline of a two-engine match, or the leader of a round robin.
fn score_line(report: &MatchReport) -> String {
    if report.names.len() == 2 {
        format!("{} Elo {}", pair_text(report, 0, 1), elo_text(&report.pair[0][1]))
    } else {
        let best = (0..report.names.len())
            .max_by(|&a, &b| report.total(a).score().total_cmp(&report.total(b).score()))
            .unwrap_or(0);
        format!("leader {} [{:.3}]", report.names[best], report.total(best).score())
    }
}

fn install_ctrlc() {
    interrupt::install(interrupt::Job {
        stopping: "interrupted: stopping the games in progress (finished games are in the PGN; --resume continues)",
        exiting: "interrupted again: exiting without waiting for the engines",
        stop: &ABORT,
        interrupted: &INTERRUPTED,
        writing: None,
    });
}

fn pair_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    debug_assert_ne!(a, b);
    if a < b {
        let (x, y) = v.split_at_mut(b);
        (&mut x[a], &mut y[0])
    } else {
        let (x, y) = v.split_at_mut(a);
        (&mut y[0], &mut x[b])
    }
}

/// One of the N game threads: takes the next pending game until none is left or the match stops. Its engines
/// live across its games.
fn worker(
    settings: &MatchSettings,
    pending: &[Pairing],
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: Sender<GameRecord>,
) {
    let mut players: Vec<Player> = settings.engines.iter().cloned().map(Player::new).collect();
    while !stop.load(Ordering::SeqCst) && !ABORT.load(Ordering::SeqCst) {
        let Some(p) = pending.get(next.fetch_add(1, Ordering::SeqCst)) else {
            break;
        };
        let (cho, han) = pair_mut(&mut players, p.cho, p.han);
        match game::play(settings, p, [cho, han], &ABORT) {
            Some(record) => {
                if tx.send(record).is_err() {
                    break;
                }
            }
            None => break,
        }
    }
    for p in &mut players {
        p.quit();
    }
}

/// Plays a match, or with `shard` the match's game pairs that belong to that shard (a shard plays on to the end
/// of its share: an SPRT is decided over all shards' games by `janggi merge`). Errors before the first game
/// (engines, an existing PGN) and a PGN that cannot be written are errors; everything an engine does wrong is a
/// forfeit inside a game.
pub fn run(settings: &MatchSettings, resume: bool, shard: Option<Shard>) -> Result<MatchReport, String> {
    ABORT.store(false, Ordering::SeqCst);
    let mut plan =
        schedule(settings.engines.len(), settings.openings.len(), settings.games, settings.repeat, settings.seed);
    plan.retain(|p| shard.is_none_or(|s| s.takes(u64::from(p.pair))));
    let previous = previous_games(settings, &plan, resume)?;
    let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
    let mut report = MatchReport::new(names);
    report.shard = shard;
    let done: BTreeSet<u32> = previous.iter().map(|(r, _)| *r).collect();
    for (_, g) in &previous {
        report.add(g);
    }
    report.resumed = previous.len() as u32;
    let pending: Vec<Pairing> = plan.iter().copied().filter(|p| !done.contains(&p.round)).collect();

    check_engines(settings)?;
    let tc_tag = settings.limits.pgn_tag();
    eprintln!(
        "Match {}{}: {}, {}, {} games{}, {}, openings {}{}, concurrency {}, PGN {}",
        settings.preset,
        shard.map(|s| format!(" shard {s} ({} of {} games)", plan.len(), settings.games)).unwrap_or_default(),
        report.names.join(" vs "),
        settings.rules,
        settings.games,
        if report.resumed > 0 { format!(" ({} done)", report.resumed) } else { String::new() },
        settings.limits.describe(),
        settings.openings_source,
        if settings.repeat { " (both colours)" } else { "" },
        settings.concurrency,
        settings.pgn.display(),
    );
    if let Some(sprt) = settings.sprt {
        let decision = sprt.decision(&report.pair[0][1]);
        report.sprt = Some((sprt, sprt.llr(&report.pair[0][1]), decision));
        if decision != Decision::Continue && shard.is_none() {
            return Ok(report);
        }
    }
    if pending.is_empty() {
        return Ok(report);
    }
    install_ctrlc();

    let progress = Progress::new(plan.len() as u64, report.resumed as u64);
    progress.bar.set_message(score_line(&report));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let workers = settings.concurrency.min(pending.len()).max(1);
    let mut error: Option<String> = None;
    let start = Instant::now();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<GameRecord>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (pending, next, stop) = (&pending, &next, &stop);
            scope.spawn(move || worker(settings, pending, next, stop, tx));
        }
        drop(tx);
        let mut decided = false;
        for record in rx {
            if decided {
                // The SPRT decided on the games before this one: the result stands as it was then.
                continue;
            }
            let text = pgn::format_game(&record, &settings.event, &tc_tag, &settings.limits.describe());
            if let Err(e) = pgn::append(&settings.pgn, &text) {
                error.get_or_insert(format!("cannot write '{}': {e}", settings.pgn.display()));
                stop.store(true, Ordering::SeqCst);
                ABORT.store(true, Ordering::SeqCst);
                continue;
            }
            let cho = settings.engines.iter().position(|e| e.name == record.names[0]).unwrap_or(0);
            let han = settings.engines.iter().position(|e| e.name == record.names[1]).unwrap_or(1);
            report.add(&Finished {
                round: record.round,
                opening: record.opening.clone(),
                players: [cho, han],
                outcome: record.outcome,
                termination: record.termination.tag().to_string(),
            });
            report.played += 1;
            report.moves += record.moves.len() as u64;
            report.game_wall += record.wall;
            report.setup += record.setup;
            report.thinking += record.thinking;
            progress.line(&format!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                record.round,
                record.names[0],
                record.names[1],
                record.result_tag(),
                record.detail
            ));
            progress.bar.inc(1);
            progress.bar.set_message(score_line(&report));
            if let Some(sprt) = settings.sprt {
                let t = report.pair[0][1];
                let decision = sprt.decision(&t);
                report.sprt = Some((sprt, sprt.llr(&t), decision));
                if decision != Decision::Continue && shard.is_none() {
                    decided = true;
                    progress.line(&format!("SPRT decided after {} games: {}", t.games(), decision_text(decision)));
                    stop.store(true, Ordering::SeqCst);
                    ABORT.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    report.wall = start.elapsed();
    progress.bar.finish_and_clear();
    report.interrupted = INTERRUPTED.load(Ordering::SeqCst);
    match error {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// The final table, as printed on stdout.
pub fn format_report(settings: &MatchSettings, report: &MatchReport) -> String {
    let mut out = String::new();
    let games = report.games();
    let _ = writeln!(
        out,
        "Match {}{}: {} games of {} at {}{}",
        settings.preset,
        report.shard.map(|s| format!(" shard {s}")).unwrap_or_default(),
        games,
        settings.rules,
        settings.limits.describe(),
        if report.interrupted { " (interrupted)" } else { "" }
    );
    out.push_str(&format_results(report));
    if report.played > 0 {
        let per_move = if report.moves == 0 {
            0.0
        } else {
            (report.game_wall.saturating_sub(report.thinking)).as_secs_f64() * 1000.0 / report.moves as f64
        };
        let busy = (report.game_wall + report.setup).as_secs_f64()
            / (report.wall.as_secs_f64() * settings.concurrency as f64).max(1e-9);
        let _ = writeln!(
            out,
            "Timing: {} games, {} moves in {:.1} s wall at concurrency {}; games {:.1} s (engine set-up {:.1} s \
             more), engines thinking {:.1} s; runner overhead {:.2}% of game time ({:.3} ms per move), game slots \
             busy {:.1}%",
            report.played,
            report.moves,
            report.wall.as_secs_f64(),
            settings.concurrency,
            report.game_wall.as_secs_f64(),
            report.setup.as_secs_f64(),
            report.thinking.as_secs_f64(),
            100.0 * report.overhead(),
            per_move,
            100.0 * busy.min(1.0)
        );
    }
    if report.resumed > 0 {
        let _ = writeln!(out, "({} games were read from {} and counted above)", report.resumed, settings.pgn.display());
    }
    out
}
