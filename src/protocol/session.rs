//! The engine's command loop: one line in, typed command, effect, lines out. Searches run on their own thread so
//! that `isready`, `stop` and `ponderhit` are answered at once. Bad input never changes the engine's state: it is
//! answered with `info string error: ...`.

use super::command::{self, Command, Go, StartPosition};
use super::dialect::Dialect;
use super::message::{Bound as InfoBound, Info, Message, OptionKind, OptionSpec};
use super::options::{self, Effect, Options};
use crate::board::{GameEnd, Move, Notation, Outcome, Position, START_FEN, SetupError};
use crate::eval;
use crate::eval::evaluator::Evaluator;
use crate::platform::thread::JoinHandle;
use crate::score::Score;
use crate::search::engine::{
    self, Ablation, ClockState, Engine, Limits, Listener, Outcome as SearchOutcome, Report, ScoreBound, Strength,
};
use crate::untrusted::{LineRead, read_line_capped};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const ENGINE_NAME: &str = concat!("janggi ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the janggi developers";

/// Longest input line we read; the rest of a longer line is discarded and the line rejected.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// Where protocol lines go (stdout, or a buffer in tests). Every line is flushed at once.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    pub fn line(&self, text: &str) {
        log::debug!(">> {text}");
        if let Ok(mut w) = self.0.lock() {
            // A host that went away is not our problem to report: the loop ends at EOF on input.
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }
}

/// Sends search reports as `info` lines.
struct InfoListener {
    out: Output,
    dialect: Dialect,
    show_wdl: bool,
}

impl Listener for InfoListener {
    fn report(&self, r: &Report) {
        let info = Info {
            depth: Some(r.depth),
            seldepth: Some(r.seldepth),
            multipv: Some(r.multipv),
            score: Some(engine::reported_score(r.score)),
            bound: match r.bound {
                ScoreBound::Exact => None,
                ScoreBound::Lower => Some(InfoBound::Lower),
                ScoreBound::Upper => Some(InfoBound::Upper),
            },
            wdl: self.show_wdl.then(|| engine::wdl(r.score)),
            nodes: Some(r.nodes),
            nps: Some(r.nps),
            hashfull: Some(r.hashfull),
            time_ms: Some(r.time.as_millis() as u64),
            pv: r.pv.clone(),
            ..Info::default()
        };
        self.out.line(&Message::Info(info).line(self.dialect).to_string());
    }

    fn note(&self, text: &str) {
        self.out.line(&Message::Info(Info::string(text)).line(self.dialect).to_string());
    }

    fn best_move(&self, outcome: &SearchOutcome) {
        let msg = Message::BestMove { best: outcome.best, ponder: outcome.ponder };
        self.out.line(&msg.line(self.dialect).to_string());
    }

    /// The game is over (mate, or it just ended): `info depth 0 score mate 0` (or `cp 0` for a draw) and the
    /// dialect's null best move.
    fn no_move(&self, end: &GameEnd) {
        let score = if end.outcome == Outcome::Draw { Score::Cp(0) } else { Score::Mate(0) };
        let info = Info { depth: Some(0), score: Some(score), ..Info::default() };
        self.out.line(&Message::Info(info).line(self.dialect).to_string());
        self.out.line(&Message::BestMove { best: None, ponder: None }.line(self.dialect).to_string());
    }
}

/// The protocol loop: reads host lines, turns them into calls on the engine, and writes its answers.
pub struct Session {
    dialect: Dialect,
    /// Set by `--protocol`: the handshake word then only confirms it.
    forced: Option<Dialect>,
    options: Options,
    engine: Engine,
    banned: Vec<Move>,
    /// A running `go perft`.
    perft: Option<JoinHandle<()>>,
    out: Output,
    debug: bool,
    /// Under `janggi --tune`: the search's tunable numbers are offered as options.
    tuning: bool,
}

impl Session {
    pub fn new(out: Output, forced: Option<Dialect>) -> Session {
        let options = Options::default();
        let dialect = forced.unwrap_or_default();
        let listener = InfoListener { out: out.clone(), dialect, show_wdl: options.show_wdl };
        let engine = Engine::new(options.hash_mb, Arc::new(listener));
        Session { dialect, forced, options, engine, banned: Vec::new(), perft: None, out, debug: false, tuning: false }
    }

    /// Offers every search parameter as a spin option (`janggi --tune`), for tuning by games.
    pub fn with_tuning(mut self) -> Session {
        self.tuning = true;
        self
    }

    /// Switches parts of the search off (for matches that measure what they are worth).
    pub fn with_ablation(mut self, ablation: Ablation) -> Session {
        self.engine.set_ablation(ablation);
        self
    }

    fn say(&self, msg: Message) {
        self.out.line(&msg.line(self.dialect).to_string());
    }

    fn note(&self, text: &str) {
        self.say(Message::Info(Info::string(text)));
    }

    /// An error goes to the host once, as an `info string`; the log has it at debug level, beside the lines.
    fn error(&self, text: &str) {
        log::debug!("{text}");
        self.note(&format!("error: {text}"));
    }

    fn notation(&self) -> Notation {
        self.dialect.notation()
    }

    /// Reads commands until `quit` or the end of input.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match read_line_capped(&mut input, &mut buffer, MAX_LINE_BYTES) {
                Ok(LineRead::Eof) => break,
                Ok(LineRead::TooLong) => {
                    self.error(&format!("line longer than {MAX_LINE_BYTES} bytes ignored"));
                    continue;
                }
                Ok(LineRead::Line) => {}
                Err(e) => {
                    log::error!("reading input: {e}");
                    break;
                }
            }
            if !self.input(&buffer) {
                break;
            }
        }
        self.stop_job();
    }

    /// Handles one line of input as it came (without its newline): too long a line is refused, bytes that are
    /// not UTF-8 are replaced, blanks around it ignored. Returns false on `quit`.
    pub fn input(&mut self, raw: &[u8]) -> bool {
        if raw.len() > MAX_LINE_BYTES {
            self.error(&format!("line longer than {MAX_LINE_BYTES} bytes ignored"));
            return true;
        }
        let line = String::from_utf8_lossy(raw);
        let line = line.trim();
        log::debug!("<< {}", crate::untrusted::shorten(line));
        line.is_empty() || self.handle(line)
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        self.reap_perft();
        let cmd = match command::parse(self.dialect, line, self.options.usemillisec) {
            Ok(cmd) => cmd,
            Err(e) => {
                self.error(&format!("{e} in '{}'", crate::untrusted::shorten(line)));
                return true;
            }
        };
        match cmd {
            Command::Hello(d) => self.hello(d),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.say(Message::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                self.stop_job();
                let _ = self.engine.clear();
                self.banned.clear();
            }
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::BanMoves(moves) => self.ban_moves(&moves),
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop_job(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::GameOver(_) => self.stop_job(),
            Command::Display => self.display(),
            Command::Eval => {
                for l in eval::describe(self.engine.position(), &eval::params::Params::default()).lines() {
                    self.out.line(l);
                }
                let kernel = eval::nnue::Kernel::detect();
                let net = self.options.nnue().map(|loaded| (&*loaded.net, kernel));
                if let Some((net, kernel)) = net {
                    for l in eval::nnue::eval_report(net, kernel, self.engine.position()).lines() {
                        self.out.line(l);
                    }
                }
                let params = eval::params::Params::default();
                self.out.line(&eval::final_evaluation_line(self.engine.position(), &params, net));
            }
            Command::Quit => {
                self.stop_job();
                if self.dialect == Dialect::Ucci {
                    self.say(Message::Bye);
                }
                return false;
            }
        }
        true
    }

    fn hello(&mut self, d: Dialect) {
        if let Some(forced) = self.forced
            && forced != d
        {
            self.error(&format!("protocol is fixed to {forced}, '{d}' ignored"));
            return;
        }
        self.dialect = d;
        self.say(Message::IdName(ENGINE_NAME.to_string()));
        self.say(Message::IdAuthor(ENGINE_AUTHOR.to_string()));
        for spec in options::specs() {
            let spec = if spec.name == "UCI_Variant" {
                OptionSpec { name: d.variant_option().to_string(), ..spec }
            } else if d == Dialect::Ucci && spec.name == "Hash" {
                OptionSpec { name: "hashsize".to_string(), ..spec }
            } else {
                spec
            };
            self.say(Message::Option(spec));
        }
        if self.tuning {
            for p in engine::tunable_params() {
                let kind = OptionKind::Spin { default: p.default.into(), min: p.min.into(), max: p.max.into() };
                self.say(Message::Option(OptionSpec { name: p.name.to_string(), kind }));
            }
        }
        self.say(Message::HandshakeOk);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if self.tuning && engine::is_tunable(name) {
            let number = value.and_then(|v| v.trim().parse::<i64>().ok());
            let set = number
                .ok_or_else(|| format!("{name} needs an integer value"))
                .and_then(|v| self.engine.set_search_param(name, v).map_err(|e| e.to_string()));
            if let Err(e) = set {
                self.error(&format!("{e}; unchanged"));
            }
            return;
        }
        let mut updated = self.options.clone();
        match updated.set(name, value) {
            Err(e) => {
                // Unknown options are reported and otherwise ignored, as UCI asks.
                self.note(&format!("error: {e}"));
            }
            Ok(options::Applied { effect, notes }) => {
                self.options = updated;
                for n in notes {
                    self.note(&n);
                }
                match effect {
                    Effect::None => {}
                    Effect::VariantChanged => {
                        let rules = self.options.variant;
                        self.engine.set_game(Position::startpos(rules));
                        self.banned.clear();
                        self.note(&format!(
                            "variant {} files 9 ranks 10 pocket 0 template janggi startpos {START_FEN}",
                            rules.name
                        ));
                    }
                    Effect::ResizeHash => {
                        if let Err(e) = self.engine.set_hash(self.options.hash_mb) {
                            self.options.hash_mb = self.engine.hash_mb();
                            self.error(&format!("{e}; keeping {} MB", self.options.hash_mb));
                        }
                    }
                    Effect::ClearHash => {
                        if self.engine.clear().is_err() {
                            self.note("error: Clear Hash ignored during a search");
                        }
                    }
                }
            }
        }
    }

    fn set_position(&mut self, start: StartPosition, moves: &[String]) {
        let rules = self.options.variant;
        let fen = match &start {
            StartPosition::Startpos => START_FEN.to_string(),
            StartPosition::Fen(fen) => fen.clone(),
        };
        match self.engine.set_position(&fen, rules, moves, self.notation()) {
            Ok(()) => {}
            Err(SetupError::Fen(e)) => {
                self.error(&format!("invalid FEN '{}': {e}; position unchanged", crate::untrusted::shorten(&fen)));
                return;
            }
            Err(SetupError::Move(bad)) => self.error(&format!("{bad}; position set up to the move before it")),
        }
        self.banned.clear();
    }

    fn ban_moves(&mut self, moves: &[String]) {
        let mut banned = Vec::new();
        for text in moves {
            match Move::parse(text, self.notation()) {
                Some(m) => banned.push(m),
                None => {
                    self.error(&format!(
                        "banmoves: '{}' is not a move; nothing banned",
                        crate::untrusted::shorten(text)
                    ));
                    return;
                }
            }
        }
        self.banned = banned;
    }

    /// The time `go` gives the move, the side to move's clock resolved from the dialect's clock words; the search
    /// draws its budget from it.
    fn clock_of_side_to_move(&self, go: &Go) -> ClockState {
        let side = self.engine.position().side_to_move().index();
        let clock = if go.clocks.own.time.is_some() { go.clocks.own } else { go.clocks.by_color[side] };
        ClockState {
            movetime: go.movetime,
            time: clock.time,
            inc: clock.inc.unwrap_or_default(),
            movestogo: go.movestogo,
            byoyomi: go.byoyomi,
            overhead: Duration::from_millis(self.options.move_overhead_ms),
        }
    }

    fn go(&mut self, go: Go) {
        self.stop_job();
        for n in &go.adjusted {
            self.note(&format!("go: {n}"));
        }
        if let Some(depth) = go.perft {
            self.start_perft(depth);
            return;
        }
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match Move::parse(text, self.notation()).filter(|m| self.engine.position().is_legal(*m)) {
                Some(m) => searchmoves.push(m),
                None => self
                    .error(&format!("searchmoves: '{}' is not legal here, ignored", crate::untrusted::shorten(text))),
            }
        }
        if searchmoves.is_empty() && !self.banned.is_empty() {
            let legal = self.engine.position().legal_moves();
            searchmoves = legal.iter().copied().filter(|m| !self.banned.contains(m)).collect();
        }
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            mate: go.mate,
            clock: self.clock_of_side_to_move(&go),
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
        };
        self.engine.set_threads(self.options.threads);
        self.engine.set_multipv(self.options.multipv);
        self.engine.set_evaluator(match self.options.nnue() {
            Some(loaded) => Evaluator::Nnue(Arc::clone(&loaded.net)),
            None => Evaluator::Classical,
        });
        self.engine.set_strength(Strength::from_options(
            self.options.skill_level,
            self.options.limit_strength,
            self.options.elo,
            self.engine.position().key(),
        ));
        let listener = InfoListener { out: self.out.clone(), dialect: self.dialect, show_wdl: self.options.show_wdl };
        self.engine.set_listener(Arc::new(listener));
        self.engine.go(limits);
    }

    fn start_perft(&mut self, depth: u32) {
        let pos = self.engine.position().clone();
        let out = self.out.clone();
        let notation = self.notation();
        // Perft beyond this depth would run for days; the request is clamped.
        let depth = depth.min(12);
        self.perft = Some(crate::platform::thread::spawn(move || {
            let divided = crate::board::perft::divide(&pos, depth);
            let mut total = 0;
            for (m, n) in &divided {
                out.line(&format!("{}: {n}", m.display(notation)));
                total += n;
            }
            if depth == 0 {
                total = 1;
            }
            out.line("");
            out.line(&format!("Nodes searched: {total}"));
            out.line("");
        }));
    }

    fn display(&self) {
        let pos = self.engine.position();
        for l in pos.pretty().lines() {
            self.out.line(l);
        }
        let fen = pos.fen();
        self.out.line(&format!("Fen: {fen}"));
        self.out.line(&format!("Sfen: {}", command::fen_to_sfen(&fen)));
        self.out.line(&format!("Key: {:016X}", pos.key()));
        let checkers: Vec<String> = pos.checkers().map(|s| s.display(self.notation()).to_string()).collect();
        self.out.line(&format!("Checkers: {}", checkers.join(" ")));
        let status = match pos.game_end() {
            None => "ongoing".to_string(),
            Some(end) => {
                let who = match end.outcome {
                    Outcome::Win(c) => format!("{c} wins"),
                    Outcome::Draw => "draw".to_string(),
                };
                format!("{who} by {}{}", end.reason, if end.counted { " (count)" } else { "" })
            }
        };
        self.out.line(&format!("Variant: {}, status: {status}", pos.rules().name));
    }

    /// Ends a finished perft, without stopping one that still runs.
    fn reap_perft(&mut self) {
        if self.perft.as_ref().is_some_and(|j| j.is_finished())
            && let Some(j) = self.perft.take()
        {
            let _ = j.join();
        }
    }

    /// Stops the running search (its best move is sent) and waits for it; a perft runs to its end.
    fn stop_job(&mut self) {
        self.engine.stop();
        if let Some(job) = self.perft.take() {
            let _ = job.join();
        }
    }
}
