//! The JSON summary a match shard writes next to its PGN (`match.3-of-8.json` beside `match.3-of-8.pgn`): what
//! it played and how long it took, for the batch system's logs and for checking the shards' balance. The
//! merged result comes from the PGN files (`janggi merge`), which hold every game.

use super::config::MatchSettings;
use super::report::MatchReport;
use serde_json::{Value, json};
use std::path::Path;

/// The summary of a run (non-finite Elo figures become `null`).
pub fn summary(settings: &MatchSettings, report: &MatchReport) -> Value {
    let mut results = Vec::new();
    for i in 0..report.names.len() {
        for j in i + 1..report.names.len() {
            let (t, p) = (report.pair[i][j], report.penta[i][j]);
            results.push(json!({
                "engines": [report.names[i], report.names[j]],
                "wins": t.wins, "losses": t.losses, "draws": t.draws,
                "elo": t.elo(), "elo_error_95": t.elo_error_95(), "los": t.los(),
                "pentanomial": p.counts,
                "pair_elo": p.elo(), "pair_elo_error_95": p.elo_error_95(), "nelo": p.nelo(),
            }));
        }
    }
    json!({
        "shard": report.shard.map(|s| json!({ "index": s.index(), "count": s.count() })),
        "pgn": settings.pgn.display().to_string(),
        "match_games": settings.games,
        "games": report.games(),
        "played": report.played,
        "resumed": report.resumed,
        "interrupted": report.interrupted,
        "results": results,
        "timing": {
            "wall_s": report.wall.as_secs_f64(),
            "games_s": report.game_wall.as_secs_f64(),
            "setup_s": report.setup.as_secs_f64(),
            "thinking_s": report.thinking.as_secs_f64(),
            "moves": report.moves,
            "runner_overhead": report.overhead(),
            "concurrency": settings.concurrency,
        },
    })
}

/// Writes the summary as one JSON document.
pub fn write(path: &Path, settings: &MatchSettings, report: &MatchReport) -> Result<(), String> {
    let text = format!("{:#}\n", summary(settings, report));
    std::fs::write(path, text).map_err(|e| format!("cannot write '{}': {e}", path.display()))
}
