//! A real `janggi` process driven line by line, as a host drives it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

pub const TIMEOUT: Duration = Duration::from_secs(20);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// An engine that has finished the UCI handshake.
    pub fn start_uci() -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.read_until(|l| l == "uciok");
        e
    }

    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_janggi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine { child, stdin, lines: rx, transcript: Vec::new() }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Reads lines until one satisfies `done`; returns all lines read, the matching one last.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.read_until_within(TIMEOUT, done).unwrap_or_else(|| {
            panic!("no expected line within {TIMEOUT:?}; transcript:\n{}", self.transcript.join("\n"))
        })
    }

    pub fn read_until_within(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Option<Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    let finished = done(&line);
                    got.push(line);
                    if finished {
                        return Some(got);
                    }
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// Sends `isready` and waits for `readyok`.
    pub fn sync(&mut self) {
        self.send("isready");
        self.read_until(|l| l == "readyok");
    }

    /// Sends `go ...` and returns the best move's text (after `bestmove`).
    pub fn best_move(&mut self, go: &str) -> String {
        self.send(go);
        let lines = self.read_until(|l| l.starts_with("bestmove"));
        lines.last().unwrap().split_whitespace().nth(1).unwrap_or("").to_string()
    }

    /// The lines `eval` prints (read up to the `readyok` of an `isready` sent after it).
    /// The `time` (ms) of the last `info` line read so far: how long the engine itself says it searched.
    pub fn last_reported_time(&self) -> u64 {
        self.transcript
            .iter()
            .rev()
            .filter(|l| l.starts_with("info") && l.contains(" time "))
            .find_map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let at = words.iter().position(|w| *w == "time")?;
                words.get(at + 1)?.parse().ok()
            })
            .expect("an info line with its time")
    }

    pub fn eval_lines(&mut self) -> Vec<String> {
        self.send("eval");
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// The `Fen:` line of `d` (the whole output of `d` is read).
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.read_until(|l| l.starts_with("Variant: "));
        let fen = lines.iter().find(|l| l.starts_with("Fen: ")).expect("d prints a Fen line");
        fen["Fen: ".len()..].to_string()
    }

    /// Waits for the process to exit; true if it exited successfully within the timeout.
    pub fn exits_cleanly(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Our bucket rows as the comparison tool records them: per bucket `material,positional,total` with `*` on
/// the bucket used, then the NNUE evaluation.
pub fn nnue_summaries(output: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut fen = String::new();
    let mut cells: Vec<String> = Vec::new();
    let mut in_table = false;
    for line in output.lines() {
        if let Some(f) = line.strip_prefix("fen: ") {
            fen = f.to_string();
            cells.clear();
            in_table = false;
        } else if line.contains("NNUE network contributions") {
            in_table = true;
        } else if in_table && line.starts_with("|  ") && line.as_bytes()[3].is_ascii_digit() {
            let fields: Vec<String> = line.split('|').skip(2).take(3).map(|f| f.replace(' ', "")).collect();
            let used = if line.contains("this bucket is used") { "*" } else { "" };
            cells.push(format!("{}{used}", fields.join(",")));
        } else if let Some(rest) = line.strip_prefix("NNUE evaluation") {
            cells.push(rest.split_whitespace().next().unwrap().to_string());
            out.push((fen.clone(), cells.join("\t")));
        }
    }
    out
}

/// Flags of every headless Chromium run of the tests: no sandbox (CI runs as root), no GPU, no network activity
/// of the browser's own, and the page's console on stderr.
pub const HEADLESS_CHROMIUM: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
];
