//! The referee of one game: asks each engine for its move with the clocks the runner keeps, checks every move
//! against our rules, and ends the game by the rule set (mate, no legal move, bikjang, counting, repetition,
//! the move-count rule), by adjudication, or by a forfeit of an engine that crashes, hangs, plays an illegal
//! move or runs out of time.

use super::config::{MatchSettings, MoveLimits};
use super::schedule::Pairing;
use crate::board::{Color, Move, Notation, Outcome, Position, Reason, Rules};
use crate::protocol::Dialect;
use crate::protocol::client::{Failure, Player, Reply};
use crate::protocol::command::{Clock, Command, Go, StartPosition};
use crate::score::Score;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

/// Mate scores as centipawns for adjudication: beyond any threshold, nearer mates larger.
const MATE_CP: i64 = 100_000;

/// How a game ended, as the PGN `Termination` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The rules ended the game (mate, no legal move, bikjang, repetition, the move-count rule, ...).
    Rules(Reason),
    /// An engine resigned (USI `bestmove resign`).
    Resign,
    /// The runner decided: too many plies, or both engines' scores.
    Adjudication,
    TimeForfeit,
    IllegalMove,
    /// The engine exited or closed its pipes.
    Crash,
    /// The engine did not answer in a game without clocks.
    Stalled,
}

impl Termination {
    /// The `Termination` tag (cutechess-cli's words).
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Rules(_) | Termination::Resign => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "abandoned",
            Termination::Stalled => "stalled connection",
        }
    }

    /// Whether the loser lost through a fault of its engine rather than by play.
    pub fn is_forfeit(self) -> bool {
        matches!(self, Termination::TimeForfeit | Termination::IllegalMove | Termination::Crash | Termination::Stalled)
    }
}

/// One move as played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// The mover's own score, from its point of view.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub time: Duration,
    /// The mover's clock after the move (its increment added), in a game with clocks.
    pub clock: Option<Duration>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub round: u32,
    /// Cho's and Han's engine names.
    pub names: [String; 2],
    pub opening: String,
    pub rules: Rules,
    pub moves: Vec<PlayedMove>,
    pub outcome: Outcome,
    pub termination: Termination,
    /// The end in words, e.g. "Han mates" or "Cho loses on time".
    pub detail: String,
    pub started: SystemTime,
    /// Starting or resetting the engines for the game (`ucinewgame`, `isready`, a restart).
    pub setup: Duration,
    /// From the engines being ready to the end.
    pub wall: Duration,
    /// Time spent inside the engines' searches (from `go` to `bestmove`).
    pub thinking: Duration,
}

impl GameRecord {
    /// The PGN result: `1-0` when Cho wins.
    pub fn result_tag(&self) -> &'static str {
        result_tag(self.outcome)
    }
}

pub fn result_tag(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Color::Cho) => "1-0",
        Outcome::Win(Color::Han) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Cho => "Cho",
        Color::Han => "Han",
    }
}

/// Half points as text: 72 -> "36", 73 -> "36.5".
fn points(half: i32) -> String {
    if half % 2 == 0 { format!("{}", half / 2) } else { format!("{}.5", half / 2) }
}

/// The result of a count, in words: "Cho wins on count (36 to 30.5)".
fn count_text(pos: &Position) -> String {
    let (cho, han) = (pos.count_points(Color::Cho), pos.count_points(Color::Han));
    format!("{} wins on count ({} to {})", side_name(pos.count_winner()), points(cho), points(han))
}

/// The end the rules reached, in words.
fn rules_text(pos: &Position, outcome: Outcome, reason: Reason, counted: bool) -> String {
    let mover = side_name(!pos.side_to_move());
    let to_move = side_name(pos.side_to_move());
    match (reason, outcome) {
        (Reason::Checkmate, _) => format!("{mover} mates"),
        (Reason::Stalemate, Outcome::Draw) => format!("{to_move} has no legal move, draw"),
        (Reason::Stalemate, _) => format!("{to_move} has no legal move and loses"),
        (Reason::PerpetualCheck, Outcome::Win(w)) => format!("perpetual check, {} loses", side_name(!w)),
        (Reason::Shuttle, _) => format!("shuttle rule, {mover} loses"),
        (r, _) if counted => format!("{}, {}", r.describe(), count_text(pos)),
        (r, Outcome::Draw) => format!("{}, draw", r.describe()),
        (r, Outcome::Win(w)) => format!("{}, {} wins", r.describe(), side_name(w)),
    }
}

/// Score as centipawns for adjudication (mates beyond any threshold).
fn score_cp(s: Score) -> i64 {
    match s {
        Score::Cp(c) => i64::from(c),
        Score::Mate(n) if n > 0 => MATE_CP - i64::from(n),
        Score::Mate(n) => -MATE_CP - i64::from(n),
    }
}

/// Cho's view of the last `plies` scores (each mover reports from its own view), if all are known.
fn recent_scores_for_cho(moves: &[PlayedMove], first: Color, plies: usize) -> Option<Vec<i64>> {
    if plies == 0 || moves.len() < plies {
        return None;
    }
    let start = moves.len() - plies;
    (start..moves.len())
        .map(|i| {
            let mover = if i % 2 == 0 { first } else { !first };
            moves[i].score.map(|s| if mover == Color::Cho { score_cp(s) } else { -score_cp(s) })
        })
        .collect()
}

/// The `go` command for the side to move with the runner's clocks, in the way the dialect names clocks.
pub fn go_command(limits: &MoveLimits, dialect: Dialect, side: Color, clocks: [Duration; 2]) -> Go {
    let mut go = Go { depth: limits.depth, nodes: limits.nodes, movetime: limits.movetime, ..Go::default() };
    if let Some((_, inc)) = limits.clock {
        let clock = |c: Color| Clock { time: Some(clocks[c.index()]), inc: Some(inc) };
        if dialect == Dialect::Ucci {
            go.clocks.own = clock(side);
            go.clocks.opp = clock(!side);
        } else {
            go.clocks.by_color = [clock(Color::Cho), clock(Color::Han)];
        }
    }
    go
}

/// How a game is going to end, decided inside the move loop.
struct End {
    outcome: Outcome,
    termination: Termination,
    detail: String,
}

fn forfeit(loser: Color, termination: Termination, detail: String) -> End {
    End { outcome: Outcome::Win(!loser), termination, detail }
}

/// Plays one game. `players` are Cho's and Han's engines. Returns `None` when `abort` was raised before the game
/// ended (a stopped match keeps no half-played game).
pub fn play(
    settings: &MatchSettings,
    pairing: &Pairing,
    players: [&mut Player; 2],
    abort: &AtomicBool,
) -> Option<GameRecord> {
    let started = SystemTime::now();
    let setup_start = Instant::now();
    let mut wall_start = setup_start;
    let rules = settings.rules;
    let opening = settings.openings[pairing.opening % settings.openings.len()].clone();
    let names = [players[0].spec.name.clone(), players[1].spec.name.clone()];
    let mut pos = match Position::from_fen(&opening, rules) {
        Ok(p) => p,
        Err(e) => {
            // Openings are checked when the match is set up; this is a bug, not the engines' fault.
            log::error!("opening '{opening}' is no position: {e}");
            return None;
        }
    };
    let first = pos.side_to_move();
    let mut moves: Vec<PlayedMove> = Vec::new();
    let mut thinking = Duration::ZERO;
    let clock_base = settings.limits.clock.map(|(base, _)| base);
    let inc = settings.limits.clock.map_or(Duration::ZERO, |(_, inc)| inc);
    let mut clocks = [clock_base.unwrap_or(Duration::ZERO); 2];

    let end = 'game: {
        for side in Color::BOTH {
            if let Err(e) = players[side.index()].ready(rules) {
                if abort.load(Ordering::Relaxed) {
                    return None;
                }
                log::warn!("{e}");
                break 'game forfeit(side, Termination::Crash, format!("{} fails to start: {e}", side_name(side)));
            }
        }
        wall_start = Instant::now();
        loop {
            if abort.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(end) = pos.game_end() {
                break 'game End {
                    outcome: end.outcome,
                    termination: Termination::Rules(end.reason),
                    detail: rules_text(&pos, end.outcome, end.reason, end.counted),
                };
            }
            if let Some(end) = adjudicate(settings, &pos, &moves, first) {
                break 'game end;
            }
            let side = pos.side_to_move();
            let Some(engine) = players[side.index()].process() else {
                break 'game forfeit(side, Termination::Crash, format!("{} has no engine", side_name(side)));
            };
            let notation = engine.dialect().notation();
            let position = Command::Position {
                start: StartPosition::Fen(opening.clone()),
                moves: moves.iter().map(|m| m.mv.display(notation).to_string()).collect(),
            };
            let go = go_command(&settings.limits, engine.dialect(), side, clocks);
            let allowed = if clock_base.is_some() { Some(clocks[side.index()]) } else { settings.limits.movetime };
            let timeout = allowed.map_or(settings.move_timeout, |t| t + settings.margin);
            let thought = match engine.think(&position, &go, timeout, abort) {
                Ok(t) => t,
                Err(Failure::Aborted) => return None,
                Err(_) if abort.load(Ordering::Relaxed) => return None,
                Err(Failure::Crashed(why)) => {
                    players[side.index()].discard();
                    break 'game forfeit(side, Termination::Crash, format!("{} disconnects: {why}", side_name(side)));
                }
                Err(Failure::Stalled) => {
                    // The wait for the late answer is the engine's time too, not the runner's.
                    let stopping = Instant::now();
                    if !engine.stop_after_timeout() {
                        players[side.index()].discard();
                    }
                    thinking += timeout + stopping.elapsed();
                    break 'game match allowed {
                        Some(t) => forfeit(
                            side,
                            Termination::TimeForfeit,
                            format!("{} loses on time (no move within {} ms)", side_name(side), t.as_millis()),
                        ),
                        None => forfeit(
                            side,
                            Termination::Stalled,
                            format!(
                                "{}'s connection stalls (no move within {} s)",
                                side_name(side),
                                settings.move_timeout.as_secs_f64()
                            ),
                        ),
                    };
                }
            };
            thinking += thought.elapsed;
            if let Some(t) = allowed
                && thought.elapsed > t + settings.margin
            {
                break 'game forfeit(
                    side,
                    Termination::TimeForfeit,
                    format!(
                        "{} loses on time ({} ms used, {} ms allowed)",
                        side_name(side),
                        thought.elapsed.as_millis(),
                        t.as_millis()
                    ),
                );
            }
            let clock = clock_base.map(|_| {
                let c = &mut clocks[side.index()];
                *c = c.saturating_sub(thought.elapsed) + inc;
                *c
            });
            let mv = match thought.reply {
                Reply::Move(m) if pos.is_legal(m) => m,
                Reply::Move(m) => {
                    break 'game forfeit(
                        side,
                        Termination::IllegalMove,
                        format!("{} makes an illegal move: {}", side_name(side), m.display(notation)),
                    );
                }
                Reply::Unreadable(text) => {
                    break 'game forfeit(
                        side,
                        Termination::IllegalMove,
                        format!("{} makes an illegal move: {}", side_name(side), crate::untrusted::shorten(&text)),
                    );
                }
                Reply::NoMove => {
                    break 'game forfeit(
                        side,
                        Termination::IllegalMove,
                        format!("{} sends no move although it has legal moves", side_name(side)),
                    );
                }
                Reply::Resign => {
                    break 'game forfeit(side, Termination::Resign, format!("{} resigns", side_name(side)));
                }
            };
            let best = thought.best_line();
            moves.push(PlayedMove {
                mv,
                score: best.and_then(|i| i.score),
                depth: thought.depth,
                time: thought.elapsed,
                clock,
            });
            pos.make_move(mv);
        }
    };

    Some(GameRecord {
        round: pairing.round,
        names,
        opening,
        rules,
        moves,
        outcome: end.outcome,
        termination: end.termination,
        detail: end.detail,
        started,
        setup: wall_start.duration_since(setup_start),
        wall: wall_start.elapsed(),
        thinking,
    })
}

/// The runner's own ends: the safety net on the number of plies, and adjudication on the engines' scores.
fn adjudicate(settings: &MatchSettings, pos: &Position, moves: &[PlayedMove], first: Color) -> Option<End> {
    let adj = &settings.adjudication;
    let counts = settings.rules.adjudication == crate::board::rules::Adjudication::Count;
    if let Some(max) = adj.max_plies
        && moves.len() >= max as usize
    {
        let (outcome, text) = if counts {
            (Outcome::Win(pos.count_winner()), count_text(pos))
        } else {
            (Outcome::Draw, "draw".to_string())
        };
        return Some(End {
            outcome,
            termination: Termination::Adjudication,
            detail: format!("adjudication after {max} plies, {text}"),
        });
    }
    if let Some(rule) = adj.resign
        && let Some(scores) = recent_scores_for_cho(moves, first, 2 * rule.moves as usize)
    {
        let threshold = i64::from(rule.score);
        let winner = if scores.iter().all(|&s| s >= threshold) {
            Some(Color::Cho)
        } else if scores.iter().all(|&s| s <= -threshold) {
            Some(Color::Han)
        } else {
            None
        };
        if let Some(w) = winner {
            return Some(End {
                outcome: Outcome::Win(w),
                termination: Termination::Adjudication,
                detail: format!(
                    "adjudication: both engines score {} at least {} cp ahead for {} moves",
                    side_name(w),
                    rule.score,
                    rule.moves
                ),
            });
        }
    }
    if let Some(rule) = adj.draw
        && !counts
        && moves.len() >= rule.after as usize
        && let Some(scores) = recent_scores_for_cho(moves, first, 2 * rule.moves as usize)
        && scores.iter().all(|s| s.abs() <= i64::from(rule.score))
    {
        return Some(End {
            outcome: Outcome::Draw,
            termination: Termination::Adjudication,
            detail: format!("adjudication: draw, both engines within {} cp for {} moves", rule.score, rule.moves),
        });
    }
    None
}

/// The moves of a record in UCI notation (as Fairy-Stockfish hosts write them).
pub fn uci_moves(record: &GameRecord) -> Vec<String> {
    record.moves.iter().map(|m| m.mv.display(Notation::Uci).to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(cp: i32) -> PlayedMove {
        PlayedMove { mv: Move::NONE, score: Some(Score::Cp(cp)), depth: None, time: Duration::ZERO, clock: None }
    }

    #[test]
    fn scores_turn_to_chos_view() {
        // Cho moves first and says +500; Han answers -480 (Han is behind by 480 from its view).
        let moves = [played(500), played(-480), played(520), played(-510)];
        assert_eq!(recent_scores_for_cho(&moves, Color::Cho, 4).unwrap(), vec![500, 480, 520, 510]);
        assert_eq!(recent_scores_for_cho(&moves, Color::Han, 2).unwrap(), vec![-520, -510]);
        assert!(recent_scores_for_cho(&moves, Color::Cho, 6).is_none());
        assert!(score_cp(Score::Mate(3)) > score_cp(Score::Mate(5)));
        assert!(score_cp(Score::Mate(-2)) < -score_cp(Score::Mate(9)) + 100);
    }

    #[test]
    fn clocks_in_each_dialect() {
        let limits =
            MoveLimits { clock: Some((Duration::from_secs(1), Duration::from_millis(10))), ..MoveLimits::default() };
        let clocks = [Duration::from_millis(900), Duration::from_millis(800)];
        let uci = go_command(&limits, Dialect::Uci, Color::Han, clocks);
        assert_eq!(Command::Go(uci).to_line(Dialect::Uci, false), "go wtime 900 btime 800 winc 10 binc 10");
        let usi = go_command(&limits, Dialect::Usi, Color::Han, clocks);
        assert_eq!(Command::Go(usi).to_line(Dialect::Usi, false), "go btime 900 wtime 800 binc 10 winc 10");
        let ucci = go_command(&limits, Dialect::Ucci, Color::Han, clocks);
        assert_eq!(
            Command::Go(ucci).to_line(Dialect::Ucci, true),
            "go time 800 increment 10 opptime 900 oppincrement 10"
        );
    }
}
