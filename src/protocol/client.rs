//! An engine running as a child process, spoken to in its dialect with `protocol::command` lines and read with
//! `protocol::message`. A reader thread timestamps every line as it arrives, so thinking time is measured up to
//! the engine's own answer, and a writer thread keeps an engine that stops reading from blocking the runner.

use crate::board::{Move, Rules};
use crate::protocol::Dialect;
use crate::protocol::command::{Command, Go, StartPosition};
use crate::protocol::message::{Info, Message, OptionKind, OptionSpec, parse_message};
use crate::untrusted::{LineRead, read_line_capped, shorten};
use log::{debug, warn};
use std::io::{BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::time::{Duration, Instant};

/// How long an engine may take to finish its handshake (`uciok`): Fairy-Stockfish needs about 60 ms.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to answer `isready` (after options, a new game, a hash resize).
pub const READY_TIMEOUT: Duration = Duration::from_secs(10);
/// After a timeout the engine is told to stop; if it answers within this grace it is kept for the next game.
pub const STOP_GRACE: Duration = Duration::from_millis(500);
/// How long `quit` may take before the process is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(300);
/// Longer lines are cut: an engine writing megabytes without a newline must not exhaust memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Lines read ahead of the runner; past this the reader waits (and so, eventually, does a flooding engine).
const EVENT_QUEUE: usize = 4096;
/// How often a wait looks at the abort flag.
const ABORT_POLL: Duration = Duration::from_millis(50);
/// An engine whose output closed usually exits at once; this long is waited for its exit status.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(200);
/// How often a wait for a process to exit looks again.
const EXIT_POLL: Duration = Duration::from_millis(5);

/// What the reader thread sees.
enum Event {
    Line(String, Instant),
    Closed,
}

/// Why an engine could not give an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It exited, closed its output, or stopped reading its input.
    Crashed(String),
    /// It did not answer before the deadline.
    Stalled,
    /// The runner is stopping.
    Aborted,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crashed(why) => f.write_str(why),
            Failure::Stalled => f.write_str("no answer in time"),
            Failure::Aborted => f.write_str("stopped by the runner"),
        }
    }
}

/// The engine's `bestmove`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Move(Move),
    /// `bestmove (none)` (or `0000`): no move although the runner asked for one.
    NoMove,
    /// USI `bestmove resign`.
    Resign,
    /// A `bestmove` line whose move cannot be read (kept as text for the PGN).
    Unreadable(String),
}

/// One search's result.
#[derive(Clone, Debug)]
pub struct Thought {
    pub reply: Reply,
    /// From sending `go` to the `bestmove` line's arrival.
    pub elapsed: Duration,
    /// The last reported line per MultiPV index (index 0 is the best line), with its score.
    pub lines: Vec<Info>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl Thought {
    pub fn best_line(&self) -> Option<&Info> {
        self.lines.first()
    }
}

/// An engine as a client starts it (the match runner, the analysis tool).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    /// The program: a path (relative paths in the file are taken from the file's folder) or a name looked up in
    /// `PATH`.
    pub command: PathBuf,
    pub args: Vec<String>,
    pub dialect: Dialect,
    /// Options sent after the handshake, as (name, value) text.
    pub options: Vec<(String, String)>,
    /// The rule sets this engine may play, when the file restricts them.
    pub variants: Option<Vec<Rules>>,
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    dialect: Dialect,
    /// UCCI: times are sent in milliseconds (`usemillisec` is on).
    millis: bool,
    child: Child,
    writer: Option<Sender<String>>,
    events: Receiver<Event>,
    reaped: bool,
    pub id_name: Option<String>,
    pub announced: Vec<OptionSpec>,
}

/// Option names compared as engines spell them: case, spaces and underscores do not matter.
fn same_option(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.to_ascii_lowercase().replace(['_', ' '], "");
    norm(a) == norm(b)
}

/// An engine's report of an error in what it was sent: our `info string error: ...`, Fairy-Stockfish's
/// `info string ERROR: ...`.
fn is_error_report(line: &str) -> bool {
    line.trim_start()
        .strip_prefix("info string ")
        .is_some_and(|text| text.trim_start().get(..6).is_some_and(|w| w.eq_ignore_ascii_case("error:")))
}

/// What a variant option lists, in short: the Janggi variants among them, or the first few.
fn listed(vars: &[String]) -> String {
    const SHOWN: usize = 8;
    let janggi: Vec<&str> =
        vars.iter().map(String::as_str).filter(|v| v.to_ascii_lowercase().contains("janggi")).collect();
    if vars.is_empty() {
        "lists no variant".to_string()
    } else if !janggi.is_empty() {
        format!("lists only these Janggi variants: {}", janggi.join(", "))
    } else if vars.len() <= SHOWN {
        format!("lists {}", vars.join(", "))
    } else {
        format!("lists {}, ... ({} variants, no Janggi)", vars[..SHOWN].join(", "), vars.len())
    }
}

fn read_lines(stdout: impl Read, tx: SyncSender<Event>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_line_capped(&mut reader, &mut buf, MAX_LINE_BYTES) {
            Ok(LineRead::Line | LineRead::TooLong) => {
                let at = Instant::now();
                let text = String::from_utf8_lossy(&buf).trim_end().to_string();
                if tx.send(Event::Line(text, at)).is_err() {
                    return;
                }
            }
            Ok(LineRead::Eof) | Err(_) => {
                let _ = tx.send(Event::Closed);
                return;
            }
        }
    }
}

impl EngineProcess {
    /// Starts an engine, completes the handshake, sets the rule set and the configured options, and waits for
    /// `readyok`. Refuses an engine whose variant option does not list the rule set.
    pub fn start(spec: &EngineSpec, rules: Rules) -> Result<EngineProcess, String> {
        let name = &spec.name;
        let mut command = std::process::Command::new(&spec.command);
        command.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        // Its own process group: a Ctrl-C at the terminal reaches the runner, which then stops its engines
        // itself, instead of every engine dying mid-game and being blamed for it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child =
            command.spawn().map_err(|e| format!("engine '{name}': cannot start '{}': {e}", spec.command.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("engine '{name}': no pipes to the process"));
        };
        let (tx, events) = std::sync::mpsc::sync_channel(EVENT_QUEUE);
        let (writer, lines) = std::sync::mpsc::channel::<String>();
        let spawned = std::thread::Builder::new()
            .name(format!("{name} out"))
            .spawn(move || read_lines(stdout, tx))
            .and_then(|_| {
                std::thread::Builder::new().name(format!("{name} in")).spawn(move || {
                    let mut stdin = stdin;
                    for line in lines {
                        if stdin.write_all(line.as_bytes()).and_then(|_| stdin.flush()).is_err() {
                            return;
                        }
                    }
                })
            });
        let mut engine = EngineProcess {
            name: name.clone(),
            dialect: spec.dialect,
            millis: false,
            child,
            writer: Some(writer),
            events,
            reaped: false,
            id_name: None,
            announced: Vec::new(),
        };
        if let Err(e) = spawned {
            return Err(format!("engine '{name}': cannot start its reader threads: {e}"));
        }
        engine.handshake().map_err(|f| format!("engine '{name}': handshake failed: {f}"))?;
        engine.configure(spec, rules)?;
        Ok(engine)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn handshake(&mut self) -> Result<(), Failure> {
        self.send(&Command::Hello(self.dialect))?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let (line, _) = self.next_line(deadline, None)?;
            match parse_message(self.dialect, &line) {
                Ok(Message::HandshakeOk) => return Ok(()),
                Ok(Message::IdName(n)) => self.id_name = Some(n),
                Ok(Message::Option(spec)) => self.announced.push(spec),
                Ok(_) => {}
                Err(e) => warn!("{}: unreadable line '{}': {e}", self.name, shorten(&line)),
            }
        }
    }

    fn configure(&mut self, spec: &EngineSpec, rules: Rules) -> Result<(), String> {
        let name = self.name.clone();
        let fail = |f: Failure| format!("engine '{name}': {f}");
        let variant_option = self
            .announced
            .iter()
            .find(|o| same_option(&o.name, "UCI_Variant") || same_option(&o.name, "USI_Variant"))
            .cloned();
        match variant_option {
            Some(OptionSpec { name: option, kind: OptionKind::Combo { vars, .. } }) => {
                if !vars.iter().any(|v| v.eq_ignore_ascii_case(rules.name)) {
                    return Err(format!("engine '{name}' cannot play {rules}: its {option} option {}", listed(&vars)));
                }
                self.send(&Command::SetOption { name: option, value: Some(rules.name.to_string()) }).map_err(fail)?;
            }
            Some(OptionSpec { name: option, .. }) => {
                self.send(&Command::SetOption { name: option, value: Some(rules.name.to_string()) }).map_err(fail)?;
            }
            None if spec.variants.as_ref().is_some_and(|v| v.contains(&rules)) => {}
            None => {
                return Err(format!(
                    "engine '{name}' announces no {} option, so it cannot be asked to play {rules} (add \
                     variants = [\"{rules}\"] to its entry if it plays {rules} without one)",
                    self.dialect.variant_option()
                ));
            }
        }
        if self.dialect == Dialect::Ucci && self.announced.iter().any(|o| same_option(&o.name, "usemillisec")) {
            self.send(&Command::SetOption { name: "usemillisec".into(), value: Some("true".into()) }).map_err(fail)?;
            self.millis = true;
        }
        for (option, value) in &spec.options {
            if !self.announced.iter().any(|o| same_option(&o.name, option)) {
                warn!("engine '{name}' announces no option '{option}'; sending it anyway");
            }
            self.send(&Command::SetOption { name: option.clone(), value: Some(value.clone()) }).map_err(fail)?;
        }
        // An option the engine refused (a net it could not read, say) would leave it playing with something
        // else than the configuration says: the match would measure the wrong engine, so it stops here.
        let refused = self.ready_collecting(READY_TIMEOUT, is_error_report).map_err(fail)?;
        if let Some(line) = refused.first() {
            return Err(format!("engine '{name}' refused its configuration: {line}"));
        }
        // Fairy-Stockfish accepts any `EvalFile` without a word, yet reads a Janggi net only from a file whose
        // name starts with `janggi`; otherwise it plays its classical evaluation and says so only when it
        // searches. A one-ply search shows which evaluation the engine will play with. (An empty `EvalFile`, or
        // `<empty>`, and `Use NNUE = false` ask for the classical evaluation: nothing to check.)
        let net = spec.options.iter().rev().find(|(o, _)| same_option(o, "EvalFile")).map(|(_, v)| v.trim());
        let net_wanted = net.is_some_and(|n| !n.is_empty() && n != "<empty>")
            && !spec.options.iter().any(|(o, v)| same_option(o, "Use NNUE") && v.eq_ignore_ascii_case("false"));
        if net_wanted && let Some(line) = self.classical_report().map_err(fail)? {
            let net = net.unwrap_or_default();
            return Err(format!(
                "engine '{name}' was given EvalFile = {net} but plays without it ('{line}'); Fairy-Stockfish \
                 loads a Janggi net only from a file whose name starts with 'janggi'"
            ));
        }
        Ok(())
    }

    /// Searches the start position one ply deep and returns the engine's report of a classical evaluation
    /// (`info string classical evaluation enabled`), if it made one.
    fn classical_report(&mut self) -> Result<Option<String>, Failure> {
        self.send(&Command::Position { start: StartPosition::Startpos, moves: Vec::new() })?;
        self.send(&Command::Go(Go { depth: Some(1), ..Go::default() }))?;
        let deadline = Instant::now() + READY_TIMEOUT;
        let mut report = None;
        loop {
            let (line, _) = self.next_line(deadline, None)?;
            if line.split_ascii_whitespace().next() == Some("bestmove") {
                return Ok(report);
            }
            let text = line.trim_start().strip_prefix("info string ").unwrap_or("");
            if report.is_none() && text.to_ascii_lowercase().contains("classical evaluation enabled") {
                report = Some(line.trim().to_string());
            }
        }
    }

    /// Sends `isready` and waits for `readyok`, returning the lines before it that `keep` picks.
    fn ready_collecting(&mut self, timeout: Duration, keep: fn(&str) -> bool) -> Result<Vec<String>, Failure> {
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + timeout;
        let mut kept = Vec::new();
        loop {
            let (line, _) = self.next_line(deadline, None)?;
            if let Ok(Message::ReadyOk) = parse_message(self.dialect, &line) {
                return Ok(kept);
            }
            if keep(&line) {
                kept.push(line);
            }
        }
    }

    /// Sends `isready` and waits for `readyok`.
    fn ready(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.ready_collecting(timeout, |_| false).map(|_| ())
    }

    /// Prepares for a new game: `ucinewgame` (or the dialect's form), then `isready`.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.drain()?;
        self.send(&Command::NewGame)?;
        self.ready(READY_TIMEOUT)
    }

    /// Sends an option (e.g. `MultiPV` for analysis) and waits until the engine is ready again.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        self.send(&Command::SetOption { name: name.to_string(), value: Some(value.to_string()) })?;
        self.ready(READY_TIMEOUT)
    }

    pub fn has_option(&self, name: &str) -> bool {
        self.announced.iter().any(|o| same_option(&o.name, name))
    }

    pub fn send(&mut self, cmd: &Command) -> Result<(), Failure> {
        let line = cmd.to_line(self.dialect, self.millis);
        debug!("{} < {line}", self.name);
        let writer = self.writer.as_ref().ok_or_else(|| Failure::Crashed("its input is closed".into()))?;
        writer.send(line + "\n").map_err(|_| Failure::Crashed("stopped reading its input".into()))
    }

    /// Discards lines that arrived unasked (a late `bestmove`, chatter between games).
    fn drain(&mut self) -> Result<(), Failure> {
        loop {
            match self.events.try_recv() {
                Ok(Event::Line(line, _)) => debug!("{} > {line} (ignored)", self.name),
                Ok(Event::Closed) | Err(TryRecvError::Disconnected) => return Err(self.closed()),
                Err(TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// The next line, with its arrival time.
    fn next_line(&mut self, deadline: Instant, abort: Option<&AtomicBool>) -> Result<(String, Instant), Failure> {
        loop {
            let wait = deadline.saturating_duration_since(Instant::now()).min(ABORT_POLL);
            match self.events.recv_timeout(wait) {
                Ok(Event::Line(line, at)) => {
                    debug!("{} > {line}", self.name);
                    return Ok((line, at));
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => return Err(self.closed()),
                Err(RecvTimeoutError::Timeout) => {
                    if Instant::now() >= deadline {
                        return Err(Failure::Stalled);
                    }
                    if abort.is_some_and(|a| a.load(Ordering::Relaxed)) {
                        return Err(Failure::Aborted);
                    }
                }
            }
        }
    }

    /// The failure for an engine whose output closed: its exit status if it has one by now.
    fn closed(&mut self) -> Failure {
        let deadline = Instant::now() + EXIT_STATUS_WAIT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return Failure::Crashed(format!("engine exited ({status})"));
                }
                Ok(None) if Instant::now() < deadline => std::thread::sleep(EXIT_POLL),
                _ => return Failure::Crashed("engine closed its output".into()),
            }
        }
    }

    /// Sends the position and `go`, and waits for `bestmove` until `timeout` after `go`. Info lines are
    /// gathered; anything unreadable is logged and skipped.
    pub fn think(
        &mut self,
        position: &Command,
        go: &Go,
        timeout: Duration,
        abort: &AtomicBool,
    ) -> Result<Thought, Failure> {
        self.drain()?;
        self.send(position)?;
        let start = Instant::now();
        self.send(&Command::Go(go.clone()))?;
        let deadline = start + timeout;
        let mut lines: Vec<Info> = Vec::new();
        let mut depth = None;
        let mut nodes = None;
        loop {
            let (line, at) = self.next_line(deadline, Some(abort))?;
            let is_bestmove = line.split_ascii_whitespace().next() == Some("bestmove");
            let reply = match parse_message(self.dialect, &line) {
                Ok(Message::Info(info)) => {
                    depth = info.depth.or(depth);
                    nodes = info.nodes.or(nodes);
                    if info.score.is_some() && info.string.is_none() {
                        let i = info.multipv.unwrap_or(1).max(1) as usize - 1;
                        if i < lines.len() + 1 {
                            if i == lines.len() {
                                lines.push(info);
                            } else if info.bound.is_none() || lines[i].bound.is_some() {
                                // An exact score is not replaced by a bound from a failed window.
                                lines[i] = info;
                            }
                        }
                    }
                    continue;
                }
                Ok(Message::BestMove { best: Some(m), .. }) => Reply::Move(m),
                Ok(Message::BestMove { best: None, .. }) => {
                    if line.split_ascii_whitespace().nth(1) == Some("resign") {
                        Reply::Resign
                    } else {
                        Reply::NoMove
                    }
                }
                _ if is_bestmove => Reply::Unreadable(line.split_ascii_whitespace().nth(1).unwrap_or("").to_string()),
                Ok(_) => continue,
                Err(e) => {
                    warn!("{}: unreadable line '{}': {e}", self.name, shorten(&line));
                    continue;
                }
            };
            return Ok(Thought { reply, elapsed: at.saturating_duration_since(start), lines, depth, nodes });
        }
    }

    /// After a timeout: sends `stop` and waits briefly for the `bestmove`. True when the engine answered, so it
    /// can be kept for the next game.
    pub fn stop_after_timeout(&mut self) -> bool {
        if self.send(&Command::Stop).is_err() {
            return false;
        }
        let deadline = Instant::now() + STOP_GRACE;
        while let Ok((line, _)) = self.next_line(deadline, None) {
            if line.split_ascii_whitespace().next() == Some("bestmove") {
                return true;
            }
        }
        false
    }

    /// Asks the engine to quit, and kills it if it does not within `QUIT_GRACE`.
    pub fn quit(mut self) {
        let _ = self.send(&Command::Quit);
        self.writer = None;
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.reaped = true;
                return;
            }
            std::thread::sleep(EXIT_POLL);
        }
    }
}

impl Drop for EngineProcess {
    /// A dropped engine is killed and reaped: no process outlives the runner's use of it.
    fn drop(&mut self) {
        self.writer = None;
        if !self.reaped {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A seat for one configured engine that lasts across games: the process starts on first use, is reused
/// while it answers, and is started afresh after a crash or a hang.
pub struct Player {
    pub spec: EngineSpec,
    process: Option<EngineProcess>,
}

impl Player {
    pub fn new(spec: EngineSpec) -> Player {
        Player { spec, process: None }
    }

    /// The engine, ready for a new game. A running process that fails `ucinewgame`/`isready` is replaced once.
    pub fn ready(&mut self, rules: Rules) -> Result<&mut EngineProcess, String> {
        if let Some(mut p) = self.process.take() {
            match p.new_game() {
                Ok(()) => return Ok(self.process.insert(p)),
                Err(f) => warn!("engine '{}' failed to start a new game ({f}); restarting it", self.spec.name),
            }
        }
        let mut p = EngineProcess::start(&self.spec, rules)?;
        p.new_game().map_err(|f| format!("engine '{}': {f}", self.spec.name))?;
        Ok(self.process.insert(p))
    }

    pub fn process(&mut self) -> Option<&mut EngineProcess> {
        self.process.as_mut()
    }

    /// Kills the process (after a crash or a hang); the next game starts a new one.
    pub fn discard(&mut self) {
        self.process = None;
    }

    pub fn quit(&mut self) {
        if let Some(p) = self.process.take() {
            p.quit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_names_compare_loosely() {
        assert!(same_option("Move_Overhead", "move overhead"));
        assert!(same_option("USI_Variant", "usi_variant"));
        assert!(!same_option("Hash", "Threads"));
    }
}
