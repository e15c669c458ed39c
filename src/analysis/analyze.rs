//! `janggi analyze`: scripted analysis. Positions (FEN or EPD lines) or PGN games go in; JSON lines come out,
//! one per position or one per game with a per-move list marking blunders. Our engine searches in-process by
//! default; any engine of `engines.toml` can be used instead, driven as the match runner drives it.

use crate::analysis::review::{CLAMP_CP, GameReview, Judgement, MoveReview, PositionFinding, PositionReview};
use crate::batch::shard::Shard;
use crate::board::{Color, Move, Notation, Outcome, Position, Rules};
use crate::eval::evaluator::Evaluator;
use crate::eval::nnue::default_network;
use crate::notation::korean;
use crate::protocol::client::{EngineProcess, EngineSpec, Failure, Reply};
use crate::protocol::command::{Command, Go, StartPosition};
use crate::records::pgn;
use crate::records::positions as openings;
use crate::score::Score;
use crate::search::engine::{self, ClockState, Engine, Finish, Limits};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The depth searched when no limit is given: about a tenth of a second per position with our engine.
pub const DEFAULT_DEPTH: u32 = 12;
pub const DEFAULT_HASH_MB: usize = 16;
/// A move that loses this many centipawns against the best move is marked as a blunder.
pub const DEFAULT_BLUNDER_CP: i32 = 200;
/// An external engine gets this long beyond its limit before it is deemed hung (or this long for depth/nodes).
const EXTERNAL_GRACE: Duration = Duration::from_secs(60);

/// What to analyse and how.
#[derive(Clone, Debug)]
pub struct AnalyzeOptions {
    /// An engine from the config; `None` searches in-process.
    pub engine: Option<EngineSpec>,
    /// The rule set for FEN input (PGN games carry their own `Variant`).
    pub rules: Rules,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub multipv: usize,
    /// Positions analysed at once.
    pub threads: usize,
    pub hash_mb: usize,
    pub blunder_cp: i32,
    /// Analyse only this shard's inputs: every N-th position or game (`crate::batch::shard`).
    pub shard: Option<Shard>,
    /// Moves also in Korean notation (`*_korean` keys beside the coordinate ones).
    pub korean: bool,
    /// The built-in search's evaluation (the embedded default net unless set).
    pub evaluator: Evaluator,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            engine: None,
            rules: Rules::JANGGI,
            depth: None,
            nodes: None,
            movetime: None,
            multipv: 1,
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
            shard: None,
            blunder_cp: DEFAULT_BLUNDER_CP,
            korean: false,
            evaluator: Evaluator::Nnue(default_network()),
        }
    }
}

/// One position to analyse: a start and the moves played from it (so that engines see the game's history).
#[derive(Clone, Debug)]
struct Job {
    start: String,
    moves: Vec<Move>,
    rules: Rules,
}

/// The result of analysing one position.
#[derive(Clone, Debug)]
struct Analysis {
    fen: String,
    side: Color,
    best: Option<Move>,
    /// The best move in Korean notation.
    best_korean: Option<String>,
    score: Score,
    depth: u32,
    nodes: u64,
    pv: Vec<Move>,
    /// Every MultiPV line (best first).
    lines: Vec<(Score, Vec<Move>)>,
    time: Duration,
    /// For a position where the game is over: the outcome and the reason.
    over: Option<(Outcome, &'static str)>,
}

fn score_json(s: Score) -> Value {
    match s {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

fn moves_json(moves: &[Move]) -> Value {
    Value::Array(moves.iter().map(|m| Value::String(m.display(Notation::Uci).to_string())).collect())
}

/// A score as clamped centipawns (mates count as the clamp).
fn clamped(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp.clamp(-CLAMP_CP, CLAMP_CP),
        Score::Mate(n) if n > 0 => CLAMP_CP,
        Score::Mate(_) => -CLAMP_CP,
    }
}

impl Analysis {
    fn to_json(&self, multipv: usize, korean: bool) -> Value {
        let mut v = json!({
            "fen": self.fen,
            "bestmove": self.best.map(|m| m.display(Notation::Uci).to_string()),
            "score": score_json(self.score),
            "depth": self.depth,
            "nodes": self.nodes,
            "pv": moves_json(&self.pv),
            "time_ms": self.time.as_millis() as u64,
        });
        if korean {
            v["bestmove_korean"] = json!(self.best_korean);
        }
        if multipv > 1 {
            v["lines"] = Value::Array(
                self.lines
                    .iter()
                    .enumerate()
                    .map(|(i, (s, pv))| json!({ "multipv": i + 1, "score": score_json(*s), "pv": moves_json(pv) }))
                    .collect(),
            );
        }
        if let Some((outcome, reason)) = self.over {
            let result = match outcome {
                Outcome::Draw => "draw",
                Outcome::Win(c) if c == self.side => "win",
                Outcome::Win(_) => "loss",
            };
            v["game_over"] = json!({ "result": result, "reason": reason });
        }
        v
    }

    /// The side to move's value of the position, clamped: a finished game counts as the clamp or zero.
    fn value(&self) -> i32 {
        match self.over {
            Some((Outcome::Draw, _)) => 0,
            Some((Outcome::Win(c), _)) => {
                if c == self.side {
                    CLAMP_CP
                } else {
                    -CLAMP_CP
                }
            }
            None => clamped(self.score),
        }
    }
}

/// Who analyses: our search in this process, or an engine process.
enum Analyzer {
    InProcess(Box<Engine>),
    External(Box<EngineProcess>),
}

impl Analyzer {
    fn new(opts: &AnalyzeOptions, rules: Rules) -> Result<Analyzer, String> {
        match &opts.engine {
            None => {
                let mut engine = Engine::silent(opts.hash_mb);
                engine.set_evaluator(opts.evaluator.clone());
                engine.set_threads(1);
                engine.set_multipv(opts.multipv.max(1));
                Ok(Analyzer::InProcess(Box::new(engine)))
            }
            Some(spec) => {
                let mut e = EngineProcess::start(spec, rules)?;
                if opts.multipv > 1 {
                    if !e.has_option("MultiPV") {
                        return Err(format!("engine '{}' has no MultiPV option", spec.name));
                    }
                    e.set_option("MultiPV", &opts.multipv.to_string())
                        .map_err(|f| format!("engine '{}': {f}", spec.name))?;
                }
                Ok(Analyzer::External(Box::new(e)))
            }
        }
    }

    /// Analyses a job's final position, and writes the best move in Korean notation too.
    fn analyse(&mut self, job: &Job, opts: &AnalyzeOptions) -> Result<Analysis, String> {
        let mut a = self.analyse_position(job, opts)?;
        if let (Some(best), Ok(pos)) = (a.best, Position::from_fen(&a.fen, job.rules)) {
            a.best_korean = Some(korean::format(&pos, best));
        }
        Ok(a)
    }

    fn analyse_position(&mut self, job: &Job, opts: &AnalyzeOptions) -> Result<Analysis, String> {
        let mut pos = Position::from_fen(&job.start, job.rules).map_err(|e| e.to_string())?;
        for m in &job.moves {
            pos.make_move(*m);
        }
        let fen = pos.fen();
        let side = pos.side_to_move();
        let over = pos.immediate_end().or_else(|| pos.legal_moves().is_empty().then(|| pos.no_move_end()));
        if let Some(end) = over {
            let score = if end.outcome == Outcome::Draw { Score::Cp(0) } else { Score::Mate(0) };
            return Ok(Analysis {
                fen,
                side,
                best: None,
                best_korean: None,
                score,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                lines: Vec::new(),
                time: Duration::ZERO,
                over: Some((end.outcome, end.reason.describe())),
            });
        }
        let start = Instant::now();
        match self {
            Analyzer::InProcess(engine) => {
                // A fresh table for every position keeps results independent of order and thread count.
                engine.clear().map_err(|e| e.to_string())?;
                let limits = Limits {
                    depth: opts.depth,
                    nodes: opts.nodes,
                    clock: ClockState { movetime: opts.movetime, ..ClockState::default() },
                    ..Limits::default()
                };
                engine.set_game(pos.clone());
                let out = match engine.think(&limits) {
                    Finish::Best(out) => out,
                    Finish::NoMove(end) => return Err(format!("no move: {}", end.reason.describe())),
                };
                let lines: Vec<(Score, Vec<Move>)> = if out.lines.is_empty() {
                    vec![(engine::reported_score(out.score), out.pv.clone())]
                } else {
                    out.lines.iter().map(|(s, pv)| (engine::reported_score(*s), pv.clone())).collect()
                };
                Ok(Analysis {
                    fen,
                    side,
                    best: out.best,
                    best_korean: None,
                    score: engine::reported_score(out.score),
                    depth: out.depth,
                    nodes: out.nodes,
                    pv: out.pv,
                    lines,
                    time: start.elapsed(),
                    over: None,
                })
            }
            Analyzer::External(engine) => {
                let notation = engine.dialect().notation();
                let position = Command::Position {
                    start: StartPosition::Fen(job.start.clone()),
                    moves: job.moves.iter().map(|m| m.display(notation).to_string()).collect(),
                };
                let go = Go { depth: opts.depth, nodes: opts.nodes, movetime: opts.movetime, ..Go::default() };
                let timeout = opts.movetime.unwrap_or(Duration::ZERO) + EXTERNAL_GRACE;
                let name = engine.name().to_string();
                let thought = engine.think(&position, &go, timeout, &AtomicBool::new(false)).map_err(|f| match f {
                    Failure::Stalled => format!("engine '{name}' gave no move within {} s", timeout.as_secs()),
                    f => format!("engine '{name}': {f}"),
                })?;
                let best = match thought.reply {
                    Reply::Move(m) if pos.is_legal(m) => Some(m),
                    Reply::Move(m) => return Err(format!("engine '{name}' answers an illegal move {m}")),
                    other => return Err(format!("engine '{name}' answers no move ({other:?})")),
                };
                let lines: Vec<(Score, Vec<Move>)> =
                    thought.lines.iter().filter_map(|i| i.score.map(|s| (s, i.pv.clone()))).collect();
                let (score, pv) = lines.first().cloned().unwrap_or((Score::Cp(0), best.into_iter().collect()));
                Ok(Analysis {
                    fen,
                    side,
                    best,
                    best_korean: None,
                    score,
                    depth: thought.depth.unwrap_or(0),
                    nodes: thought.nodes.unwrap_or(0),
                    pv,
                    lines,
                    time: thought.elapsed,
                    over: None,
                })
            }
        }
    }
}

/// Runs jobs on `opts.threads` analyzers and hands each result, with the job's tag, to `emit` in input order
/// as soon as it and every earlier one are done (so output streams while stdin is still being read).
fn run_jobs<T: Send>(
    opts: &AnalyzeOptions,
    rules: Rules,
    jobs: impl Iterator<Item = (T, Result<Job, String>)> + Send,
    mut emit: impl FnMut(T, Result<Analysis, String>) -> Result<(), String>,
) -> Result<(), String> {
    let threads = opts.threads.max(1);
    let analyzers = (0..threads).map(|_| Analyzer::new(opts, rules)).collect::<Result<Vec<_>, _>>()?;
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, T, Result<Job, String>)>(threads * 2);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (result_tx, result_rx) = mpsc::channel::<(usize, T, Result<Analysis, String>)>();
    std::thread::scope(|scope| {
        for mut analyzer in analyzers {
            let (job_rx, result_tx) = (Arc::clone(&job_rx), result_tx.clone());
            scope.spawn(move || {
                loop {
                    let next = job_rx.lock().ok().and_then(|rx| rx.recv().ok());
                    let Some((i, tag, job)) = next else { break };
                    let result = job.and_then(|j| analyzer.analyse(&j, opts));
                    if result_tx.send((i, tag, result)).is_err() {
                        break;
                    }
                }
                if let Analyzer::External(e) = analyzer {
                    e.quit();
                }
            });
        }
        // Only the analyzers hold the jobs' receiver and the results' sender now, so that each side sees the
        // other go away.
        drop(result_tx);
        drop(job_rx);
        scope.spawn(move || {
            for (i, (tag, job)) in jobs.enumerate() {
                if job_tx.send((i, tag, job)).is_err() {
                    break;
                }
            }
        });
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        // The first output that cannot be written (a closed stdout) ends the run: leaving the loop drops the
        // results' receiver, so the analyzers stop at their next result and the feeder at its next job.
        for (i, tag, result) in result_rx {
            waiting.insert(i, (tag, result));
            while let Some((tag, r)) = waiting.remove(&next) {
                next += 1;
                emit(tag, r)?;
            }
        }
        Ok(())
    })
}

/// Analyses FEN or EPD lines (blank lines and `#` comments skipped) and writes one JSON line per position.
/// A line that is no position gets `{"line": N, "error": ...}`. Returns whether every line was analysed, and
/// what was found per line.
pub fn analyze_positions(
    opts: &AnalyzeOptions,
    input: impl BufRead + Send,
    out: &mut impl Write,
) -> Result<(bool, Vec<PositionReview>), String> {
    let rules = opts.rules;
    let (shard, mut item) = (opts.shard, 0u64);
    let jobs = input.lines().enumerate().filter_map(move |(i, line)| {
        let line = match line {
            Ok(l) => l,
            Err(e) => return Some(((i + 1, None), Err(format!("cannot read input: {e}")))),
        };
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            return None;
        }
        Some(match openings::parse_line(text, rules) {
            Ok(p) => ((i + 1, p.id), Ok(Job { start: p.fen, moves: Vec::new(), rules })),
            Err(e) => ((i + 1, None), Err(e)),
        })
    });
    // Positions (and unreadable lines) are the work items a shard takes every N-th of.
    let jobs = jobs.filter(move |_| {
        item += 1;
        shard.is_none_or(|s| s.takes(item - 1))
    });
    let mut all_ok = true;
    let mut reviews = Vec::new();
    run_jobs(opts, rules, jobs, |(line, id): (usize, Option<String>), result| {
        let value = match &result {
            Ok(a) => {
                let mut v = a.to_json(opts.multipv, opts.korean);
                if let Some(id) = &id {
                    v["id"] = Value::String(id.clone());
                }
                v
            }
            Err(e) => {
                all_ok = false;
                eprintln!("error: line {line}: {e}");
                json!({ "line": line, "error": e })
            }
        };
        reviews.push(PositionReview { line, id, outcome: result.map(|a| a.finding(rules)) });
        writeln!(out, "{value}").and_then(|_| out.flush()).map_err(|e| format!("cannot write output: {e}"))
    })?;
    Ok((all_ok, reviews))
}

impl Analysis {
    fn finding(self, rules: Rules) -> PositionFinding {
        let over = self.over.map(|(outcome, reason)| {
            let result = match outcome {
                Outcome::Draw => "draw",
                Outcome::Win(c) if c == self.side => "win",
                Outcome::Win(_) => "loss",
            };
            (result, reason)
        });
        PositionFinding {
            fen: self.fen,
            rules,
            best: self.best,
            best_korean: self.best_korean,
            score: self.score,
            pv: self.pv,
            depth: self.depth,
            over,
        }
    }
}

/// A game ready for analysis: its tags, start and moves.
struct GameJob {
    number: usize,
    game: pgn::PgnGame,
    start: Position,
    moves: Vec<Move>,
}

/// Analyses every position of every game in PGN text and writes one JSON line per game: its tags and, per
/// move, the score before and after it from the mover's view and whether it was a blunder. An external engine
/// is set to the first game's rule set; games of another rule set are reported as errors. Returns whether
/// every position was analysed, and the games' reviews.
pub fn analyze_games(
    opts: &AnalyzeOptions,
    text: &str,
    out: &mut impl Write,
) -> Result<(bool, Vec<GameReview>), String> {
    let games = pgn::parse_games(text).map_err(|e| format!("PGN {e}"))?;
    analyze_game_list(opts, games, out)
}

/// [`analyze_games`] for games already read (from PGN or another record format).
pub fn analyze_game_list(
    opts: &AnalyzeOptions,
    games: Vec<pgn::PgnGame>,
    out: &mut impl Write,
) -> Result<(bool, Vec<GameReview>), String> {
    let mut all_ok = true;
    let mut reviews = Vec::new();
    let mut ready = Vec::new();
    let mine = |g: &usize| opts.shard.is_none_or(|s| s.takes(*g as u64));
    for (g, game) in games.into_iter().enumerate().filter(|(g, _)| mine(g)) {
        match game.replay().and_then(|(_, moves)| Ok((game.start()?, moves))) {
            Ok((start, moves)) => ready.push(GameJob { number: g + 1, game, start, moves }),
            Err(e) => {
                all_ok = false;
                eprintln!("error: game {}: {e}", g + 1);
                writeln!(out, "{}", json!({ "game": g + 1, "error": e })).map_err(|e| e.to_string())?;
            }
        }
    }
    let Some(first) = ready.first() else {
        return Ok((all_ok, reviews));
    };
    let engine_rules = first.start.rules();
    let external = opts.engine.is_some();
    let jobs = ready.iter().enumerate().flat_map(|(g, job)| {
        let rules = job.start.rules();
        let start = job.start.fen();
        (0..=job.moves.len()).map(move |n| {
            let work = if external && rules != engine_rules {
                Err(format!("the engine plays {engine_rules}, this game {rules}"))
            } else {
                Ok(Job { start: start.clone(), moves: job.moves[..n].to_vec(), rules })
            };
            ((g, n == job.moves.len()), work)
        })
    });
    let mut analyses = Vec::new();
    let (total, started) = (ready.len(), Instant::now());
    run_jobs(opts, engine_rules, jobs, |(g, last), r| {
        analyses.push(r);
        if !last {
            return Ok(());
        }
        let (review, ok) = game_review(&ready[g], std::mem::take(&mut analyses), opts);
        all_ok &= ok;
        let value = game_json(&review, opts.korean);
        // Progress for the person waiting, a line a game (stdout carries only the JSON).
        eprintln!(
            "game {} ({} of {total}): {} moves, blunders {} by Cho and {} by Han; {:.1} s so far",
            review.number,
            g + 1,
            review.moves.len(),
            review.blunders[0],
            review.blunders[1],
            started.elapsed().as_secs_f64()
        );
        reviews.push(review);
        writeln!(out, "{value}").and_then(|_| out.flush()).map_err(|e| format!("cannot write output: {e}"))
    })?;
    Ok((all_ok, reviews))
}

/// Judges every move of a game from the analyses of the positions before and after it. Also says whether
/// every position was analysed.
fn game_review(job: &GameJob, analyses: Vec<Result<Analysis, String>>, opts: &AnalyzeOptions) -> (GameReview, bool) {
    let mut ok = true;
    let mut moves = Vec::new();
    let mut blunders = [0u32; 2];
    let mut pos = job.start.clone();
    for (i, m) in job.moves.iter().enumerate() {
        let fen = pos.fen();
        let side = pos.side_to_move();
        let korean = korean::format(&pos, *m);
        pos.make_move(*m);
        let judgement = match (&analyses[i], &analyses[i + 1]) {
            (Ok(before), Ok(after)) => {
                let before_cp = before.value();
                let after_cp = -after.value();
                let loss = before_cp - after_cp;
                let blunder = loss >= opts.blunder_cp;
                if blunder {
                    blunders[side.index()] += 1;
                }
                Ok(Judgement {
                    best: before.best,
                    best_korean: before.best_korean.clone(),
                    pv: before.pv.clone(),
                    depth: before.depth,
                    score_before: before.score,
                    score_after: negate(after),
                    before_cp,
                    after_cp,
                    loss,
                    blunder,
                    ends_game: after.over.map(|(_, reason)| reason.to_string()),
                })
            }
            (Err(e), _) | (_, Err(e)) => {
                ok = false;
                Err(e.clone())
            }
        };
        moves.push(MoveReview { ply: i + 1, side, played: *m, korean, fen, judgement });
    }
    let tag = |name: &str| job.game.tag(name).map(str::to_string);
    let ended_by = moves.last().and_then(|m| m.judgement.as_ref().ok()).and_then(|j| j.ends_game.clone());
    let review = GameReview {
        number: job.number,
        cho: tag("White"),
        han: tag("Black"),
        result: tag("Result").or_else(|| job.game.result.clone()),
        termination: match (tag("Termination"), ended_by) {
            (Some(t), Some(rule)) => Some(format!("{t} ({rule})")),
            (t, rule) => t.or(rule),
        },
        event: tag("Event"),
        rules: job.start.rules(),
        start_fen: job.start.fen(),
        moves,
        blunders,
        blunder_cp: opts.blunder_cp,
    };
    (review, ok)
}

/// One game's line: tags, blunder counts and the per-move list (with Korean notation when asked).
fn game_json(review: &GameReview, korean: bool) -> Value {
    let uci = |m: Move| m.display(Notation::Uci).to_string();
    let list: Vec<Value> = review
        .moves
        .iter()
        .map(|mv| {
            let mut entry = match &mv.judgement {
                Err(e) => json!({ "ply": mv.ply, "move": uci(mv.played), "error": e }),
                Ok(j) => {
                    let mut entry = json!({
                        "ply": mv.ply,
                        "side": if mv.side == Color::Cho { "cho" } else { "han" },
                        "move": uci(mv.played),
                        "fen": mv.fen,
                        "bestmove": j.best.map(uci),
                        "pv": moves_json(&j.pv),
                        "depth": j.depth,
                        "score_before": score_json(j.score_before),
                        "score_after": j.score_after.map(score_json).unwrap_or(Value::Null),
                        "before_cp": j.before_cp,
                        "after_cp": j.after_cp,
                        "loss": j.loss,
                        "blunder": j.blunder,
                    });
                    if let Some(reason) = &j.ends_game {
                        entry["ends_game"] = Value::String(reason.clone());
                    }
                    if korean {
                        entry["bestmove_korean"] = json!(j.best_korean);
                    }
                    entry
                }
            };
            if korean {
                entry["move_korean"] = Value::String(mv.korean.clone());
            }
            entry
        })
        .collect();
    json!({
        "game": review.number,
        "white": review.cho,
        "black": review.han,
        "result": review.result,
        "variant": review.rules.name,
        "fen": review.start_fen,
        "blunders": { "cho": review.blunders[0], "han": review.blunders[1] },
        "moves": list,
    })
}

/// The score of a position after a move, from the mover's view; `None` when the move ended the game (the
/// entry's `after_cp` and `ends_game` say how).
fn negate(after: &Analysis) -> Option<Score> {
    if after.over.is_some() {
        return None;
    }
    Some(after.score.negated())
}

impl AnalyzeOptions {
    /// Fills in the default limit when none was given.
    pub fn with_default_limit(mut self) -> AnalyzeOptions {
        if self.depth.is_none() && self.nodes.is_none() && self.movetime.is_none() {
            self.depth = Some(DEFAULT_DEPTH);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamps_and_mates() {
        assert_eq!(clamped(Score::Cp(5000)), CLAMP_CP);
        assert_eq!(clamped(Score::Mate(3)), CLAMP_CP);
        assert_eq!(clamped(Score::Mate(-1)), -CLAMP_CP);
        assert_eq!(clamped(Score::Mate(0)), -CLAMP_CP);
        assert_eq!(clamped(Score::Cp(-35)), -35);
    }
}
