//! `engines.toml`: the engines a match or an analysis can start, and named match presets. Everything here is
//! checked before any engine starts, so a mistake in the file ends the program with a clear message instead of
//! a failed game. Every preset setting has a default: a file that lists only engines is a valid config.

use super::stats::{DEFAULT_ALPHA, DEFAULT_BETA, Sprt};
use crate::board::Rules;
use crate::protocol::Dialect;
pub use crate::protocol::client::EngineSpec;
use crate::records::positions as openings;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The config file read when `--config` is not given.
pub const DEFAULT_CONFIG: &str = "engines.toml";
/// The preset used when none is named, if the file has one by this name.
pub const DEFAULT_PRESET: &str = "default";
pub const DEFAULT_GAMES: u32 = 100;
pub const DEFAULT_TC: &str = "10+0.1";
/// Longer clocks than this (about 4 months) are surely a typo.
const MAX_TC_SECONDS: f64 = 1e7;
/// How far past its clock an engine may answer before it loses on time: pipe latency and the runner's own
/// scheduling are not the engine's fault.
pub const DEFAULT_MARGIN_MS: u64 = 50;
/// How long an engine may think in a game limited by depth or nodes only, before it is deemed hung.
pub const DEFAULT_MOVE_TIMEOUT_MS: u64 = 30_000;
/// A safety net against endless games (janggistrict has no move-count rule): after this many plies the game is
/// decided as the rule set decides its other unfinished games (by count, or a draw).
pub const DEFAULT_MAX_PLIES: u32 = 600;
pub const DEFAULT_PGN: &str = "match.pgn";
pub const DEFAULT_EVENT: &str = "janggi match";

/// A config error: the message says what is wrong and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

fn err<T>(text: impl Into<String>) -> Result<T, ConfigError> {
    Err(ConfigError(text.into()))
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    #[serde(default)]
    engine: Vec<EngineEntry>,
    #[serde(default)]
    preset: BTreeMap<String, Preset>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct EngineEntry {
    name: String,
    command: String,
    #[serde(default)]
    args: Vec<String>,
    protocol: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
    variants: Option<Vec<String>>,
}

/// A match preset as written in the file; every field is optional. Command-line flags fill the same fields.
#[derive(Deserialize, Debug, Default, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    pub engines: Option<Vec<String>>,
    pub variant: Option<String>,
    pub games: Option<u32>,
    pub concurrency: Option<usize>,
    /// `BASE+INC` in seconds, e.g. `10+0.1`, or `BASE` alone.
    pub tc: Option<String>,
    /// Fixed time per move in milliseconds.
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// `setups` (the 25 start positions) or a file of FEN or EPD lines.
    pub openings: Option<String>,
    /// Play each opening with both colours.
    pub repeat: Option<bool>,
    pub margin_ms: Option<u64>,
    pub move_timeout_ms: Option<u64>,
    /// Plies after which the game is decided by the rule set's count or drawn; 0 turns the safety net off.
    pub max_plies: Option<u32>,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    pub pgn: Option<String>,
    pub sprt: Option<SprtEntry>,
    pub event: Option<String>,
    /// Draws each pair's opening from the book at random (reproducibly: from this seed and the pair number)
    /// instead of taking the openings in order.
    pub seed: Option<u64>,
}

/// Resign adjudication: both engines agree, for `moves` moves each in a row, that one side is ahead by at least
/// `score` centipawns (mate scores count as beyond any threshold).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ResignRule {
    pub score: i32,
    pub moves: u32,
}

/// Draw adjudication: from ply `after` on, both engines' scores stay within `score` centipawns of zero for
/// `moves` moves each in a row. Ignored in rule sets that count material, where a quiet game is no draw.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct DrawRule {
    pub score: i32,
    pub moves: u32,
    #[serde(default)]
    pub after: u32,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SprtEntry {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: Option<f64>,
    pub beta: Option<f64>,
}

/// What bounds each move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    /// Runner-kept clocks: base time and increment per move.
    pub clock: Option<(Duration, Duration)>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl MoveLimits {
    /// The PGN `TimeControl` tag: `BASE+INC` in seconds, `1/SECONDS` for a fixed time per move, `-` for none.
    pub fn pgn_tag(&self) -> String {
        if let Some((base, inc)) = self.clock {
            if inc.is_zero() { secs(base) } else { format!("{}+{}", secs(base), secs(inc)) }
        } else if let Some(t) = self.movetime {
            format!("1/{}", secs(t))
        } else {
            "-".to_string()
        }
    }

    /// A short human description, e.g. `10+0.1`, `movetime 100 ms`, `depth 4`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.clock.is_some() {
            parts.push(self.pgn_tag());
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime {} ms", t.as_millis()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        parts.join(", ")
    }
}

/// Seconds without trailing zeros: 10, 0.1, 1.25.
fn secs(d: Duration) -> String {
    let text = format!("{:.3}", d.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Ends the game early on the engines' own scores, or after too many plies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchAdjudication {
    pub max_plies: Option<u32>,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

/// A match, fully resolved: every default applied and every name checked.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The preset's name, or `default` when the built-in defaults apply.
    pub preset: String,
    pub engines: Vec<EngineSpec>,
    pub rules: Rules,
    pub games: u32,
    pub concurrency: usize,
    pub limits: MoveLimits,
    /// Opening FENs, in order.
    pub openings: Vec<String>,
    /// Where the openings came from (`setups` or the file's path).
    pub openings_source: String,
    pub repeat: bool,
    pub margin: Duration,
    pub move_timeout: Duration,
    pub adjudication: MatchAdjudication,
    pub pgn: PathBuf,
    pub sprt: Option<Sprt>,
    pub event: String,
    /// Random openings from this seed (see `Preset::seed`); openings in order when absent.
    pub seed: Option<u64>,
}

/// The whole file: engines by name and the presets.
#[derive(Debug)]
pub struct Config {
    pub engines: Vec<EngineSpec>,
    pub presets: BTreeMap<String, Preset>,
    /// The folder that relative paths in the file are taken from.
    pub dir: PathBuf,
}

impl Config {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError(format!("cannot read config '{}': {e}", path.display())))?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Config::parse(&text, &dir).map_err(|e| ConfigError(format!("{}: {e}", path.display())))
    }

    /// Parses config text; relative engine paths are taken from `dir`.
    pub fn parse(text: &str, dir: &Path) -> Result<Config, ConfigError> {
        let file: FileConfig = toml::from_str(text).map_err(|e| ConfigError(e.to_string().trim_end().to_string()))?;
        let mut engines: Vec<EngineSpec> = Vec::new();
        for entry in file.engine {
            let spec = engine_spec(entry, dir)?;
            if engines.iter().any(|e| e.name == spec.name) {
                return err(format!("two engines are named '{}'", spec.name));
            }
            engines.push(spec);
        }
        Ok(Config { engines, presets: file.preset, dir: dir.to_path_buf() })
    }

    pub fn engine(&self, name: &str) -> Result<&EngineSpec, ConfigError> {
        self.engines.iter().find(|e| e.name == name).ok_or_else(|| {
            let known: Vec<&str> = self.engines.iter().map(|e| e.name.as_str()).collect();
            ConfigError(format!("no engine named '{name}' (the config has: {})", list_or_none(&known)))
        })
    }

    /// The settings of a match: the named preset (or `default`, or the built-in defaults) with the command
    /// line's values on top.
    pub fn resolve(&self, preset: Option<&str>, overrides: &Preset) -> Result<MatchSettings, ConfigError> {
        let (name, base) = match preset {
            Some(name) => match self.presets.get(name) {
                Some(p) => (name.to_string(), p.clone()),
                None => {
                    let known: Vec<&str> = self.presets.keys().map(String::as_str).collect();
                    return err(format!("no preset named '{name}' (the config has: {})", list_or_none(&known)));
                }
            },
            None => (DEFAULT_PRESET.to_string(), self.presets.get(DEFAULT_PRESET).cloned().unwrap_or_default()),
        };
        let p = base.overridden_by(overrides);

        let names: Vec<String> = match &p.engines {
            Some(list) => list.clone(),
            None => self.engines.iter().take(2).map(|e| e.name.clone()).collect(),
        };
        if names.len() < 2 {
            return err("a match needs at least two engines (list them with [[engine]] and --engines A,B)");
        }
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return err(format!(
                    "engine '{n}' is listed twice: to play an engine against itself, add a second [[engine]] \
                     entry with another name"
                ));
            }
        }
        let engines = names.iter().map(|n| self.engine(n).cloned()).collect::<Result<Vec<_>, _>>()?;

        let variant = p.variant.as_deref().unwrap_or(Rules::JANGGI.name);
        let rules = variant.parse::<Rules>().map_err(|e| ConfigError(e.to_string()))?;
        for e in &engines {
            if let Some(list) = &e.variants
                && !list.contains(&rules)
            {
                let names: Vec<&str> = list.iter().map(|r| r.name).collect();
                return err(format!(
                    "engine '{}' does not play {} (its variants: {})",
                    e.name,
                    rules,
                    names.join(", ")
                ));
            }
        }

        let games = p.games.unwrap_or(DEFAULT_GAMES);
        if games == 0 {
            return err("games must be at least 1");
        }
        let concurrency = p.concurrency.unwrap_or(1);
        if concurrency == 0 {
            return err("concurrency must be at least 1");
        }
        let limits = move_limits(&p)?;

        let (openings, openings_source) = match p.openings.as_deref() {
            None | Some("setups") => (crate::board::setups::all_setups(), "setups".to_string()),
            Some(file) => {
                // A path from the command line is taken as given; one from the file, from the file's folder.
                let path = if overrides.openings.is_some() { PathBuf::from(file) } else { self.dir.join(file) };
                let list = openings::load(&path, rules).map_err(ConfigError)?;
                (list, path.display().to_string())
            }
        };

        let sprt = match p.sprt {
            None => None,
            Some(s) => {
                if engines.len() != 2 {
                    return err("an SPRT compares two engines, not a round robin");
                }
                Some(
                    Sprt::new(s.elo0, s.elo1, s.alpha.unwrap_or(DEFAULT_ALPHA), s.beta.unwrap_or(DEFAULT_BETA))
                        .map_err(ConfigError)?,
                )
            }
        };
        if let Some(r) = p.resign
            && (r.score <= 0 || r.moves == 0)
        {
            return err("resign adjudication needs a positive score and at least one move");
        }
        if let Some(d) = p.draw
            && (d.score < 0 || d.moves == 0)
        {
            return err("draw adjudication needs a score of at least 0 and at least one move");
        }
        let max_plies = match p.max_plies {
            None => Some(DEFAULT_MAX_PLIES),
            Some(0) => None,
            Some(n) => Some(n),
        };
        Ok(MatchSettings {
            preset: name,
            engines,
            rules,
            games,
            concurrency,
            limits,
            openings,
            openings_source,
            repeat: p.repeat.unwrap_or(true),
            margin: Duration::from_millis(p.margin_ms.unwrap_or(DEFAULT_MARGIN_MS)),
            move_timeout: Duration::from_millis(p.move_timeout_ms.unwrap_or(DEFAULT_MOVE_TIMEOUT_MS).max(1)),
            adjudication: MatchAdjudication { max_plies, resign: p.resign, draw: p.draw },
            pgn: PathBuf::from(p.pgn.as_deref().unwrap_or(DEFAULT_PGN)),
            sprt,
            event: p.event.clone().unwrap_or_else(|| DEFAULT_EVENT.to_string()),
            seed: p.seed,
        })
    }
}

fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() { "none".to_string() } else { names.join(", ") }
}

impl Preset {
    /// This preset with every field that `other` sets replaced. A time limit on the command line replaces all of
    /// the preset's time limits (`--tc` after a `depth` preset plays by the clock only).
    pub fn overridden_by(&self, other: &Preset) -> Preset {
        let mut p = self.clone();
        let limit_given =
            other.tc.is_some() || other.movetime.is_some() || other.depth.is_some() || other.nodes.is_some();
        if limit_given {
            p.tc = None;
            p.movetime = None;
            p.depth = None;
            p.nodes = None;
        }
        macro_rules! take {
            ($($f:ident),*) => { $( if other.$f.is_some() { p.$f = other.$f.clone(); } )* };
        }
        take!(
            engines,
            variant,
            games,
            concurrency,
            tc,
            movetime,
            depth,
            nodes,
            openings,
            repeat,
            margin_ms,
            move_timeout_ms,
            max_plies,
            resign,
            draw,
            pgn,
            sprt,
            event,
            seed
        );
        p
    }
}

fn move_limits(p: &Preset) -> Result<MoveLimits, ConfigError> {
    let mut limits =
        MoveLimits { clock: None, movetime: p.movetime.map(Duration::from_millis), depth: p.depth, nodes: p.nodes };
    if let Some(tc) = &p.tc {
        limits.clock = Some(parse_tc(tc)?);
    }
    if limits.clock.is_some() && limits.movetime.is_some() {
        return err("give either a clock (tc) or a fixed movetime, not both");
    }
    if limits == MoveLimits::default() {
        limits.clock = Some(parse_tc(DEFAULT_TC)?);
    }
    if limits.depth == Some(0) || limits.nodes == Some(0) || limits.movetime == Some(Duration::ZERO) {
        return err("depth, nodes and movetime must be positive");
    }
    Ok(limits)
}

/// Parses `BASE+INC` or `BASE` in seconds (`10+0.1`, `60`).
pub fn parse_tc(text: &str) -> Result<(Duration, Duration), ConfigError> {
    let bad = || ConfigError(format!("bad time control '{text}': write BASE+INC in seconds, e.g. 10+0.1"));
    let (base, inc) = match text.trim().split_once('+') {
        Some((b, i)) => (b, i),
        None => (text.trim(), "0"),
    };
    let seconds = |s: &str| -> Result<Duration, ConfigError> {
        let v: f64 = s.trim().parse().map_err(|_| bad())?;
        if !(0.0..=MAX_TC_SECONDS).contains(&v) {
            return Err(bad());
        }
        Ok(Duration::from_secs_f64(v))
    };
    let (base, inc) = (seconds(base)?, seconds(inc)?);
    if base.is_zero() && inc.is_zero() {
        return Err(bad());
    }
    Ok((base, inc))
}

fn engine_spec(entry: EngineEntry, dir: &Path) -> Result<EngineSpec, ConfigError> {
    let name = entry.name.trim().to_string();
    if name.is_empty() {
        return err("an engine has an empty name");
    }
    if entry.command.trim().is_empty() {
        return err(format!("engine '{name}' has an empty command"));
    }
    let dialect = match entry.protocol.as_deref() {
        None => Dialect::Uci,
        Some(p) => Dialect::by_name(p)
            .ok_or_else(|| ConfigError(format!("engine '{name}': unknown protocol '{p}' (uci, ucci or usi)")))?,
    };
    let mut options = Vec::new();
    for (key, value) in entry.options {
        let text = match value {
            toml::Value::String(s) => s,
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            other => {
                return err(format!(
                    "engine '{name}': option '{key}' must be a number, a boolean or a string, not {}",
                    other.type_str()
                ));
            }
        };
        options.push((key, text));
    }
    let variants = match entry.variants {
        None => None,
        Some(list) => Some(
            list.iter()
                .map(|v| v.parse::<Rules>().map_err(|e| ConfigError(format!("engine '{name}': {e}"))))
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    // A command with a folder in it is a path, taken from the config's folder when relative; a bare name is
    // looked up in PATH when the engine starts.
    let command = PathBuf::from(&entry.command);
    let command = if command.components().count() > 1 && command.is_relative() { dir.join(command) } else { command };
    Ok(EngineSpec { name, command, args: entry.args, dialect, options, variants })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"
[[engine]]
name = "a"
command = "target/release/janggi"
[engine.options]
Hash = 16
"Skill Level" = 3
Ponder = false

[[engine]]
name = "b"
command = "fairy-stockfish"
protocol = "ucci"
variants = ["janggi", "janggimodern"]

[preset.quick]
games = 10
depth = 3
variant = "janggimodern"
resign = { score = 800, moves = 3 }
sprt = { elo0 = 0, elo1 = 10 }
"#;

    #[test]
    fn engines_only_is_a_valid_config() {
        let c = Config::parse(
            "[[engine]]\nname = \"x\"\ncommand = \"x\"\n[[engine]]\nname = \"y\"\ncommand = \"y\"\n",
            Path::new(""),
        )
        .unwrap();
        let m = c.resolve(None, &Preset::default()).unwrap();
        assert_eq!(m.games, DEFAULT_GAMES);
        assert_eq!(m.rules, Rules::JANGGI);
        assert_eq!(m.openings.len(), 25);
        assert_eq!(m.limits.clock, Some((Duration::from_secs(10), Duration::from_millis(100))));
        assert_eq!(m.adjudication.max_plies, Some(DEFAULT_MAX_PLIES));
        assert!(m.repeat);
    }

    #[test]
    fn presets_and_overrides() {
        let c = Config::parse(TWO, Path::new("/cfg")).unwrap();
        assert_eq!(c.engines[0].command, PathBuf::from("/cfg/target/release/janggi"));
        assert_eq!(c.engines[1].command, PathBuf::from("fairy-stockfish"));
        assert_eq!(c.engines[1].dialect, Dialect::Ucci);
        assert!(c.engines[0].options.contains(&("Skill Level".to_string(), "3".to_string())));
        assert!(c.engines[0].options.contains(&("Ponder".to_string(), "false".to_string())));
        let m = c.resolve(Some("quick"), &Preset::default()).unwrap();
        assert_eq!((m.games, m.limits.depth, m.limits.clock, m.rules), (10, Some(3), None, Rules::MODERN));
        assert_eq!(m.sprt.unwrap().alpha, 0.05);
        let flags = Preset { tc: Some("1+0.01".into()), games: Some(4), ..Preset::default() };
        let m = c.resolve(Some("quick"), &flags).unwrap();
        assert_eq!(m.limits.depth, None);
        assert_eq!(m.limits.clock, Some((Duration::from_secs(1), Duration::from_millis(10))));
        assert_eq!(m.limits.pgn_tag(), "1+0.01");
        assert_eq!(m.games, 4);
    }

    #[test]
    fn mistakes_are_clear_errors() {
        let c = Config::parse(TWO, Path::new("")).unwrap();
        let e = c.resolve(Some("nope"), &Preset::default()).unwrap_err();
        assert!(e.0.contains("no preset named 'nope'"), "{e}");
        let flags = Preset { variant: Some("janggistrict".into()), ..Preset::default() };
        assert!(c.resolve(None, &flags).unwrap_err().0.contains("does not play janggistrict"));
        let flags = Preset { engines: Some(vec!["a".into(), "c".into()]), ..Preset::default() };
        assert!(c.resolve(None, &flags).unwrap_err().0.contains("no engine named 'c'"));
        let flags = Preset { tc: Some("fast".into()), ..Preset::default() };
        assert!(c.resolve(None, &flags).unwrap_err().0.contains("bad time control"));
        for bad in [
            "[[engine]]\nname = \"a\"\n",
            "[[engine]]\nname = \"a\"\ncommand = \"x\"\nprotocol = \"xboard\"\n",
            "[[engine]]\nname = \"a\"\ncommand = \"x\"\n[engine.options]\nHash = [1]\n",
            "[[engine]]\nname = \"a\"\ncommand = \"x\"\ncolour = 1\n",
            "[preset.x]\ngames = -1\n",
            "not toml at all [",
        ] {
            assert!(Config::parse(bad, Path::new("")).is_err(), "{bad}");
        }
    }

    #[test]
    fn time_controls() {
        assert_eq!(parse_tc("10+0.1").unwrap(), (Duration::from_secs(10), Duration::from_millis(100)));
        assert_eq!(parse_tc("60").unwrap(), (Duration::from_secs(60), Duration::ZERO));
        for bad in ["", "+", "0+0", "-1+0", "1+x", "inf"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
        let l = MoveLimits { movetime: Some(Duration::from_millis(500)), ..MoveLimits::default() };
        assert_eq!(l.pgn_tag(), "1/0.5");
        assert_eq!(MoveLimits { depth: Some(3), ..MoveLimits::default() }.pgn_tag(), "-");
    }
}
