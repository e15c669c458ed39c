//! The engine's command loop: one line in, typed command, effect, lines out. Searches run on their own thread so
//! that `isready`, `stop` and `ponderhit` are answered at once. Bad input never changes the engine's state: it is
//! answered with `info string error: ...`.

use super::command::{self, Command, Go, StartPosition};
use super::dialect::Dialect;
use super::message::{Bound as InfoBound, Info, Message, OptionSpec, Score};
use super::options::{self, Effect, Options};
use crate::board::{Move, Notation, Outcome, Position, START_FEN};
use crate::eval;
use crate::search::strength::Strength;
use crate::search::time::{ClockState, TimeBudget};
use crate::search::tt::TranspositionTable;
use crate::search::{self, Ablation, Limits, Listener, Report, ScoreBound, Settings, Shared};
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
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

/// Win/draw/loss per mille from a score, by a logistic model: ~+250 cp wins half the games.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    if score.abs() >= search::params::MATE_BOUND {
        return if score > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let win = |s: f64| 1000.0 / (1.0 + (-(s - 250.0) / 90.0).exp());
    let w = win(score as f64).round() as u32;
    let l = win(-score as f64).round() as u32;
    (w, 1000u32.saturating_sub(w + l), l)
}

fn protocol_score(score: i32) -> Score {
    match search::score_to_protocol(score) {
        (true, moves) => Score::Mate(moves),
        (false, cp) => Score::Cp(cp),
    }
}

impl Listener for InfoListener {
    fn report(&self, r: &Report) {
        let info = Info {
            depth: Some(r.depth),
            seldepth: Some(r.seldepth),
            multipv: Some(r.multipv),
            score: Some(protocol_score(r.score)),
            bound: match r.bound {
                ScoreBound::Exact => None,
                ScoreBound::Lower => Some(InfoBound::Lower),
                ScoreBound::Upper => Some(InfoBound::Upper),
            },
            wdl: self.show_wdl.then(|| wdl(r.score)),
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
}

pub struct Engine {
    dialect: Dialect,
    /// Set by `--protocol`: the handshake word then only confirms it.
    forced: Option<Dialect>,
    options: Options,
    position: Position,
    banned: Vec<Move>,
    shared: Arc<Shared>,
    /// The running search (or perft) thread.
    job: Option<JoinHandle<()>>,
    out: Output,
    debug: bool,
    /// A `Hash` change that waits for the running search to end.
    pending_hash: bool,
    /// Search parts switched off for measurements (`--ablate`).
    ablation: Ablation,
}

impl Engine {
    pub fn new(out: Output, forced: Option<Dialect>) -> Engine {
        let options = Options::default();
        Engine {
            dialect: forced.unwrap_or_default(),
            forced,
            position: Position::startpos(options.variant),
            shared: Arc::new(Shared::new(options.hash_mb)),
            options,
            banned: Vec::new(),
            job: None,
            out,
            debug: false,
            pending_hash: false,
            ablation: Ablation::default(),
        }
    }

    /// Switches parts of the search off (for matches that measure what they are worth).
    pub fn with_ablation(mut self, ablation: Ablation) -> Engine {
        self.ablation = ablation;
        self
    }

    fn say(&self, msg: Message) {
        self.out.line(&msg.line(self.dialect).to_string());
    }

    fn note(&self, text: &str) {
        self.say(Message::Info(Info::string(text)));
    }

    fn error(&self, text: &str) {
        log::warn!("{text}");
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
            match read_line_capped(&mut input, &mut buffer) {
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
            let line = String::from_utf8_lossy(&buffer);
            let line = line.trim();
            log::debug!("<< {}", command::shorten(line));
            if line.is_empty() {
                continue;
            }
            if !self.handle(line) {
                break;
            }
        }
        self.stop_job();
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        self.reap_job();
        let cmd = match command::parse(self.dialect, line, self.options.usemillisec) {
            Ok(cmd) => cmd,
            Err(e) => {
                self.error(&format!("{e} in '{}'", command::shorten(line)));
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
                self.apply_pending_hash();
                self.shared.clear();
                self.banned.clear();
            }
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::BanMoves(moves) => self.ban_moves(&moves),
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop_job(),
            Command::PonderHit => {
                self.shared.ponderhit.store(true, Ordering::Relaxed);
                self.shared.pondering.store(false, Ordering::Relaxed);
            }
            Command::GameOver(_) => self.stop_job(),
            Command::Display => self.display(),
            Command::Eval => {
                for l in eval::describe(&self.position, &eval::params::Params::default()).lines() {
                    self.out.line(l);
                }
                if let Some(loaded) = self.options.nnue() {
                    let kernel = eval::nnue::Kernel::detect();
                    for l in eval::nnue::eval_report(&loaded.net, kernel, &self.position).lines() {
                        self.out.line(l);
                    }
                }
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
        self.say(Message::HandshakeOk);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut updated = self.options.clone();
        match updated.set(name, value) {
            Err(e) => {
                // Unknown options are reported and otherwise ignored, as UCI asks.
                self.note(&format!("error: {e}"));
            }
            Ok(effect) => {
                self.options = updated;
                match effect {
                    Effect::None => {}
                    Effect::VariantChanged => {
                        let rules = self.options.variant;
                        self.position = Position::startpos(rules);
                        self.banned.clear();
                        self.note(&format!(
                            "variant {} files 9 ranks 10 pocket 0 template janggi startpos {START_FEN}",
                            rules.name
                        ));
                    }
                    Effect::ResizeHash => {
                        self.pending_hash = true;
                        if self.job.is_none() {
                            self.apply_pending_hash();
                        }
                    }
                    Effect::ClearHash => {
                        if self.job.is_none() {
                            self.shared.clear();
                        } else {
                            self.note("error: Clear Hash ignored during a search");
                        }
                    }
                }
            }
        }
    }

    fn apply_pending_hash(&mut self) {
        if self.pending_hash && self.job.is_none() {
            self.pending_hash = false;
            if self.shared.tt.megabytes() != self.options.hash_mb {
                match TranspositionTable::try_new(self.options.hash_mb) {
                    Ok(tt) => self.shared = Arc::new(Shared::with_table(tt)),
                    Err(e) => {
                        self.options.hash_mb = self.shared.tt.megabytes();
                        self.error(&format!("{e}; keeping {} MB", self.options.hash_mb));
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
        let mut pos = match Position::from_fen(&fen, rules) {
            Ok(pos) => pos,
            Err(e) => {
                self.error(&format!("invalid FEN '{}': {e}; position unchanged", command::shorten(&fen)));
                return;
            }
        };
        for (i, text) in moves.iter().enumerate() {
            match Move::parse(text, self.notation()) {
                Some(m) if pos.is_legal(m) => pos.make_move(m),
                parsed => {
                    let why = if parsed.is_none() {
                        "not a move in this notation".to_string()
                    } else if pos.ended_by_last_move() {
                        "the game is already over".to_string()
                    } else {
                        "illegal in this position".to_string()
                    };
                    self.error(&format!(
                        "move {} '{}' {why}; position set up to the move before it",
                        i + 1,
                        command::shorten(text)
                    ));
                    break;
                }
            }
        }
        self.position = pos;
        self.banned.clear();
    }

    fn ban_moves(&mut self, moves: &[String]) {
        let mut banned = Vec::new();
        for text in moves {
            match Move::parse(text, self.notation()) {
                Some(m) => banned.push(m),
                None => {
                    self.error(&format!("banmoves: '{}' is not a move; nothing banned", command::shorten(text)));
                    return;
                }
            }
        }
        self.banned = banned;
    }

    /// Resolves the clock of the side to move from the dialect's clock words.
    fn clock_of_side_to_move(&self, go: &Go) -> Option<ClockState> {
        let side = self.position.side_to_move().index();
        let clock = if go.clocks.own.time.is_some() { go.clocks.own } else { go.clocks.by_color[side] };
        let time = clock.time?;
        Some(ClockState {
            time,
            inc: clock.inc.unwrap_or_default(),
            movestogo: go.movestogo,
            byoyomi: go.byoyomi.unwrap_or_default(),
        })
    }

    fn go(&mut self, go: Go) {
        self.stop_job();
        self.apply_pending_hash();
        if let Some(depth) = go.perft {
            self.start_perft(depth);
            return;
        }
        let overhead = Duration::from_millis(self.options.move_overhead_ms);
        let time = if let Some(t) = go.movetime {
            Some(TimeBudget::fixed(t, overhead))
        } else if go.infinite {
            None
        } else {
            self.clock_of_side_to_move(&go)
                .map(|c| TimeBudget::from_clock(&c, overhead))
                .or_else(|| go.byoyomi.map(|b| TimeBudget::fixed(b, overhead)))
        };
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match Move::parse(text, self.notation()).filter(|m| self.position.is_legal(*m)) {
                Some(m) => searchmoves.push(m),
                None => self.error(&format!("searchmoves: '{}' is not legal here, ignored", command::shorten(text))),
            }
        }
        if searchmoves.is_empty() && !self.banned.is_empty() {
            searchmoves = self.position.legal_moves().iter().copied().filter(|m| !self.banned.contains(m)).collect();
        }
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            mate: go.mate,
            time,
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
        };
        let settings = Settings {
            threads: self.options.threads,
            multipv: self.options.multipv,
            strength: Strength::from_options(
                self.options.skill_level,
                self.options.limit_strength,
                self.options.elo,
                self.position.key(),
            ),
            ablation: self.ablation,
            ..Settings::default()
        };
        let pos = self.position.clone();
        let shared = Arc::clone(&self.shared);
        let listener = InfoListener { out: self.out.clone(), dialect: self.dialect, show_wdl: self.options.show_wdl };
        let out = self.out.clone();
        let dialect = self.dialect;
        shared.ready();
        self.job = Some(std::thread::spawn(move || {
            if pos.legal_moves().is_empty() {
                announce_no_move(&pos, &out, dialect, &limits, &shared);
                return;
            }
            let outcome = search::search(&pos, &limits, &settings, &shared, &listener);
            let msg = Message::BestMove { best: outcome.best, ponder: outcome.ponder };
            out.line(&msg.line(dialect).to_string());
        }));
    }

    fn start_perft(&mut self, depth: u32) {
        let pos = self.position.clone();
        let out = self.out.clone();
        let notation = self.notation();
        // Perft beyond this depth would run for days; the request is clamped.
        let depth = depth.min(12);
        self.job = Some(std::thread::spawn(move || {
            let divided = crate::perft::divide(&pos, depth);
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
        let pos = &self.position;
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

    /// Ends a finished job, without stopping one that still runs.
    fn reap_job(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.is_finished()) {
            if let Some(j) = self.job.take() {
                let _ = j.join();
            }
            self.apply_pending_hash();
        }
    }

    /// Stops the running search (its best move is sent) and waits for it.
    fn stop_job(&mut self) {
        if let Some(job) = self.job.take() {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.shared.pondering.store(false, Ordering::Relaxed);
            let _ = job.join();
        }
    }
}

/// No legal move (mate, or the game just ended): `info depth 0 score mate 0` (or `cp 0` for a draw) and the
/// dialect's null best move, sent once the host may receive it (after `stop` in infinite or ponder mode).
fn announce_no_move(pos: &Position, out: &Output, dialect: Dialect, limits: &Limits, shared: &Shared) {
    let drawn = pos.game_end().is_some_and(|e| e.outcome == Outcome::Draw);
    let info =
        Info { depth: Some(0), score: Some(if drawn { Score::Cp(0) } else { Score::Mate(0) }), ..Info::default() };
    out.line(&Message::Info(info).line(dialect).to_string());
    while (limits.infinite || shared.pondering.load(Ordering::Relaxed)) && !shared.stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    out.line(&Message::BestMove { best: None, ponder: None }.line(dialect).to_string());
}

enum LineRead {
    Line,
    TooLong,
    Eof,
}

/// Reads one line into `buf`, keeping at most `MAX_LINE_BYTES`; a longer line is drained and reported.
fn read_line_capped(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<LineRead> {
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if !any {
                LineRead::Eof
            } else if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
        any = true;
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            let room = MAX_LINE_BYTES.saturating_sub(buf.len());
            let take = used.min(room);
            buf.extend_from_slice(&chunk[..take]);
            if used > room {
                too_long = true;
                buf.clear();
            }
        }
        input.consume(used);
        if done {
            return Ok(if too_long { LineRead::TooLong } else { LineRead::Line });
        }
    }
}
