//! `janggi merge`: joins the games of any number of PGN files (the shards of one match, or earlier runs) into
//! the final table a single run prints: per engine pair W/L/D, score, Elo ± 95%, LOS, the game-pair figures and,
//! with an SPRT, its decision. Engines are ordered as the match orders them: by their first game (lowest Round).

use super::report::{Finished, MatchReport};
use super::stats::Sprt;
use super::table::format_results;
use crate::board::{Color, Outcome, START_FEN};
use crate::records::pgn;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The merged games and what their tags say about them.
pub struct Merged {
    pub report: MatchReport,
    pub files: usize,
    /// The `Variant` and `TimeControl` tags met.
    pub variants: BTreeSet<String>,
    pub time_controls: BTreeSet<String>,
}

/// One game's facts, before the engines are numbered.
struct Game {
    round: u32,
    white: String,
    black: String,
    outcome: Outcome,
    opening: String,
    termination: String,
}

fn outcome(result: &str) -> Option<Outcome> {
    match result {
        "1-0" => Some(Outcome::Win(Color::Cho)),
        "0-1" => Some(Outcome::Win(Color::Han)),
        "1/2-1/2" => Some(Outcome::Draw),
        _ => None,
    }
}

/// Reads every file and tallies its finished games. A file that cannot be read or parsed, or a game without a
/// Round number, is an error; a game without a result (a match stopped mid-game) is skipped with a warning.
pub fn merge(paths: &[PathBuf], sprt: Option<Sprt>) -> Result<Merged, String> {
    if paths.is_empty() {
        return Err("merge needs at least one PGN file".into());
    }
    let mut games = Vec::new();
    let (mut variants, mut time_controls) = (BTreeSet::new(), BTreeSet::new());
    for path in paths {
        let list = pgn::read_file(path)?;
        if list.is_empty() {
            log::warn!("'{}' holds no games", path.display());
        } else if list.iter().all(|g| g.tags.is_empty()) {
            return Err(format!(
                "'{}' holds no PGN games (no [Tag \"value\"] lines): is it a PGN file?",
                path.display()
            ));
        }
        for (i, g) in list.into_iter().enumerate() {
            let place = || format!("'{}', game {}", path.display(), i + 1);
            let round = g
                .tag("Round")
                .and_then(|r| r.trim().parse::<u32>().ok())
                .ok_or_else(|| format!("{}: no Round number, so it cannot be paired with its partner", place()))?;
            let Some(outcome) = g.tag("Result").or(g.result.as_deref()).and_then(outcome) else {
                log::warn!("{}: no result; not counted", place());
                continue;
            };
            let (Some(white), Some(black)) = (g.tag("White"), g.tag("Black")) else {
                return Err(format!("{}: no White or Black tag", place()));
            };
            if white == black {
                return Err(format!("{}: '{white}' plays itself", place()));
            }
            variants.insert(g.tag("Variant").unwrap_or("Janggi").to_string());
            time_controls.insert(g.tag("TimeControl").unwrap_or("?").to_string());
            games.push(Game {
                round,
                white: white.to_string(),
                black: black.to_string(),
                outcome,
                opening: g.tag("FEN").unwrap_or(START_FEN).to_string(),
                termination: g.tag("Termination").unwrap_or("normal").to_string(),
            });
        }
    }
    games.sort_by_key(|g| g.round);
    let mut names: Vec<String> = Vec::new();
    for g in &games {
        for n in [&g.white, &g.black] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    let index = |n: &str| names.iter().position(|m| m == n).unwrap_or(0);
    let mut report = MatchReport::new(names.clone());
    for g in &games {
        report.add(&Finished {
            round: g.round,
            opening: g.opening.clone(),
            players: [index(&g.white), index(&g.black)],
            outcome: g.outcome,
            termination: g.termination.clone(),
        });
    }
    if let Some(sprt) = sprt
        && names.len() >= 2
    {
        let llr = sprt.llr(&report.pair[0][1]);
        report.sprt = Some((sprt, llr, sprt.decide(llr)));
    }
    Ok(Merged { report, files: paths.len(), variants, time_controls })
}

/// The merged table: a header line, then exactly the lines a single run prints below its own header.
pub fn format_merged(m: &Merged) -> String {
    let join = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Merged {} PGN file{}: {} games of {}, TimeControl {}",
        m.files,
        if m.files == 1 { "" } else { "s" },
        m.report.games(),
        join(&m.variants),
        join(&m.time_controls)
    );
    out.push_str(&format_results(&m.report));
    out
}
