//! The engine's options: their specifications for the handshake and their current values.

use super::message::{OptionKind, OptionSpec};
use crate::board::Rules;
use crate::eval::nnue::{DEFAULT_NET_NAME, Network, default_network};
use std::path::Path;
use std::sync::Arc;

pub const DEFAULT_HASH_MB: i64 = 16;
pub const MAX_HASH_MB: i64 = 65536;
pub const MAX_THREADS: i64 = 256;
pub const MAX_MULTIPV: i64 = 256;
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 30;
pub const MIN_ELO: i64 = 800;
pub const MAX_ELO: i64 = 2800;

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    pub variant: Rules,
    pub threads: usize,
    pub hash_mb: usize,
    pub ponder: bool,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub skill_level: i32,
    pub limit_strength: bool,
    pub elo: i32,
    pub analyse_mode: bool,
    pub show_wdl: bool,
    /// UCCI: times in milliseconds instead of seconds.
    pub usemillisec: bool,
    /// The net of `EvalFile`, read once when the option is set and shared by every thread: the embedded default
    /// net until another file is set; none (the classical evaluation) after `EvalFile` is set empty.
    pub eval_file: Option<LoadedNet>,
    /// `Use NNUE`: evaluate with the net when one is loaded (the classical evaluation otherwise).
    pub use_nnue: bool,
}

/// A net file that was read successfully.
#[derive(Clone, Debug)]
pub struct LoadedNet {
    pub path: String,
    pub net: Arc<Network>,
}

impl LoadedNet {
    /// The embedded default net, under its file name.
    pub fn default_net() -> LoadedNet {
        LoadedNet { path: DEFAULT_NET_NAME.to_string(), net: default_network() }
    }
}

impl Options {
    /// The net to evaluate with: loaded and not switched off.
    pub fn nnue(&self) -> Option<&LoadedNet> {
        self.eval_file.as_ref().filter(|_| self.use_nnue)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Rules::JANGGI,
            threads: 1,
            hash_mb: DEFAULT_HASH_MB as usize,
            ponder: false,
            multipv: 1,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS as u64,
            skill_level: 20,
            limit_strength: false,
            elo: MAX_ELO as i32,
            analyse_mode: false,
            show_wdl: false,
            usemillisec: false,
            eval_file: Some(LoadedNet::default_net()),
            use_nnue: true,
        }
    }
}

/// What setting an option asks the engine to do beyond storing the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    VariantChanged,
    ResizeHash,
    ClearHash,
}

/// The options as announced in the handshake (names as in UCI; the UCCI and USI spellings are derived).
pub fn specs() -> Vec<OptionSpec> {
    let spin = |name: &str, default: i64, min: i64, max: i64| OptionSpec {
        name: name.to_string(),
        kind: OptionKind::Spin { default, min, max },
    };
    let check = |name: &str, default: bool| OptionSpec { name: name.to_string(), kind: OptionKind::Check { default } };
    vec![
        OptionSpec {
            name: "UCI_Variant".into(),
            kind: OptionKind::Combo {
                default: Rules::JANGGI.name.into(),
                vars: Rules::names().map(str::to_string).collect(),
            },
        },
        spin("Threads", 1, 1, MAX_THREADS),
        spin("Hash", DEFAULT_HASH_MB, 1, MAX_HASH_MB),
        OptionSpec { name: "Clear Hash".into(), kind: OptionKind::Button },
        check("Ponder", false),
        spin("MultiPV", 1, 1, MAX_MULTIPV),
        spin("Move Overhead", DEFAULT_MOVE_OVERHEAD_MS, 0, 5000),
        spin("Skill Level", 20, -20, 20),
        check("UCI_LimitStrength", false),
        spin("UCI_Elo", MAX_ELO, MIN_ELO, MAX_ELO),
        check("UCI_AnalyseMode", false),
        check("UCI_ShowWDL", false),
        OptionSpec { name: "EvalFile".into(), kind: OptionKind::String { default: DEFAULT_NET_NAME.into() } },
        check("Use NNUE", true),
    ]
}

/// Normalises an option name across dialects: case, spaces vs underscores, the USI_ and UCI_ prefixes, and
/// UCCI's `hashsize`.
fn canonical(name: &str) -> String {
    let lower = name.trim().to_ascii_lowercase().replace(['_', ' '], "");
    let lower = lower.strip_prefix("usi").map(str::to_string).unwrap_or(lower);
    let lower = lower.strip_prefix("uci").map(str::to_string).unwrap_or(lower);
    match lower.as_str() {
        "hashsize" => "hash".to_string(),
        _ => lower,
    }
}

fn parse_bool(value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Ok(true),
        "false" | "off" | "0" | "no" => Ok(false),
        other => Err(format!("'{}' is not true or false", crate::untrusted::shorten(other))),
    }
}

/// A spin option's value, brought into its range; a value moved there is noted for the host's log.
fn parse_spin(value: &str, min: i64, max: i64, notes: &mut Vec<String>) -> Result<i64, String> {
    let v: i64 = value.trim().parse().map_err(|_| format!("'{}' is not a number", crate::untrusted::shorten(value)))?;
    let used = v.clamp(min, max);
    if used != v {
        notes.push(format!("{v} is outside {min}..{max}: {used} used"));
    }
    Ok(used)
}

/// What setting an option did: its effect, and what the host should read about the value used.
#[derive(Debug, PartialEq, Eq)]
pub struct Applied {
    pub effect: Effect,
    pub notes: Vec<String>,
}

impl Options {
    /// Sets an option by name. Unknown names and bad values are errors, and leave every value as it was.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Applied, String> {
        let mut notes = Vec::new();
        let shown = crate::untrusted::shorten(name.trim());
        let effect = self.set_value(name, value, &mut notes).map_err(|e| format!("option '{shown}': {e}"))?;
        let notes = notes.into_iter().map(|n| format!("option '{shown}': {n}")).collect();
        Ok(Applied { effect, notes })
    }

    fn set_value(&mut self, name: &str, value: Option<&str>, notes: &mut Vec<String>) -> Result<Effect, String> {
        let need = || value.ok_or_else(|| "needs a value".to_string());
        match canonical(name).as_str() {
            "variant" => {
                let v = need()?;
                self.variant = v.parse::<Rules>().map_err(|e| e.to_string())?;
                Ok(Effect::VariantChanged)
            }
            "threads" => {
                self.threads = parse_spin(need()?, 1, MAX_THREADS, notes)? as usize;
                Ok(Effect::None)
            }
            "hash" => {
                self.hash_mb = parse_spin(need()?, 1, MAX_HASH_MB, notes)? as usize;
                Ok(Effect::ResizeHash)
            }
            "clearhash" => Ok(Effect::ClearHash),
            "ponder" => {
                self.ponder = parse_bool(need()?)?;
                Ok(Effect::None)
            }
            "multipv" => {
                self.multipv = parse_spin(need()?, 1, MAX_MULTIPV, notes)? as usize;
                Ok(Effect::None)
            }
            "moveoverhead" => {
                self.move_overhead_ms = parse_spin(need()?, 0, 5000, notes)? as u64;
                Ok(Effect::None)
            }
            "skilllevel" => {
                self.skill_level = parse_spin(need()?, -20, 20, notes)? as i32;
                Ok(Effect::None)
            }
            "limitstrength" => {
                self.limit_strength = parse_bool(need()?)?;
                Ok(Effect::None)
            }
            "elo" => {
                self.elo = parse_spin(need()?, MIN_ELO, MAX_ELO, notes)? as i32;
                Ok(Effect::None)
            }
            "analysemode" => {
                self.analyse_mode = parse_bool(need()?)?;
                Ok(Effect::None)
            }
            "showwdl" => {
                self.show_wdl = parse_bool(need()?)?;
                Ok(Effect::None)
            }
            "usemillisec" => {
                self.usemillisec = parse_bool(need()?)?;
                Ok(Effect::None)
            }
            "evalfile" => {
                let path = value.unwrap_or("").trim();
                // The default name means the embedded net, as in the reference, unless a file of that name is
                // where the engine runs (then that file, as any other path).
                self.eval_file = if path.is_empty() || path == "<empty>" {
                    None
                } else if path == DEFAULT_NET_NAME && !Path::new(path).exists() {
                    Some(LoadedNet::default_net())
                } else {
                    let net = Network::load(Path::new(path)).map_err(|e| e.to_string())?;
                    Some(LoadedNet { path: path.to_string(), net: Arc::new(net) })
                };
                Ok(Effect::None)
            }
            "usennue" => {
                self.use_nnue = parse_bool(need()?)?;
                Ok(Effect::None)
            }
            _ => Err("unknown option".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_case_insensitively_and_across_dialects() {
        let mut o = Options::default();
        o.set("threads", Some("3")).unwrap();
        o.set("HASH", Some("64")).unwrap();
        o.set("USI_Variant", Some("janggimodern")).unwrap();
        o.set("Move_Overhead", Some("100")).unwrap();
        o.set("hashsize", Some("32")).unwrap();
        assert_eq!((o.threads, o.hash_mb, o.variant, o.move_overhead_ms), (3, 32, Rules::MODERN, 100));
    }

    #[test]
    fn bad_values_leave_the_option_unchanged() {
        let mut o = Options::default();
        assert!(o.set("Threads", Some("many")).is_err());
        assert!(o.set("UCI_Variant", Some("chess")).is_err());
        assert_eq!((o.threads, o.variant), (1, Rules::JANGGI));
    }
}
