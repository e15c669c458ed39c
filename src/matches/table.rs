//! The results part of a match's final table: the ranking, each engine pair's trinomial (win/loss/draw) and
//! pentanomial (game-pair) figures, the SPRT, terminations and forfeits. A match run prints it under its header,
//! and `janggi merge` prints the same text for the games of any number of PGN files, so the two can be compared
//! line for line.

use super::pentanomial::Pentanomial;
use super::report::MatchReport;
use super::stats::{Decision, Sprt, Tally, format_elo};
use std::fmt::Write as _;

pub fn decision_text(d: Decision) -> &'static str {
    match d {
        Decision::Continue => "continue",
        Decision::AcceptH0 => "H0 accepted",
        Decision::AcceptH1 => "H1 accepted",
    }
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// "A vs B: W - L - D [score]" for engines i and j.
pub fn pair_text(report: &MatchReport, i: usize, j: usize) -> String {
    let t = report.pair[i][j];
    format!("{} vs {}: {} - {} - {} [{:.3}]", report.names[i], report.names[j], t.wins, t.losses, t.draws, t.score())
}

/// An Elo difference with its 95% error: "+35.2 ± 40.1".
fn with_error(elo: f64, error: f64) -> String {
    format!("{} ± {}", format_elo(elo), format_elo(error).trim_start_matches('+'))
}

pub fn elo_text(t: &Tally) -> String {
    with_error(t.elo(), t.elo_error_95())
}

/// "pairs [LL, LD, WL+DD, WD, WW]: … N pairs, Elo …, nElo …, LOS …" for one engine against another.
fn pentanomial_text(p: &Pentanomial) -> String {
    let c = p.counts;
    format!(
        "pairs [0, 0.5, 1, 1.5, 2 points]: [{}, {}, {}, {}, {}] {} pairs, Elo {} (95%), nElo {}, LOS {}",
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        p.pairs(),
        with_error(p.elo(), p.elo_error_95()),
        with_error(p.nelo(), p.nelo_error_95()),
        percent(p.los())
    )
}

fn sprt_line(model: &str, sprt: &Sprt, llr: f64) -> String {
    let (low, high) = sprt.bounds();
    format!(
        "SPRT ({model}, logistic Elo) elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} [{:.2}, {:.2}], {}",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        llr,
        low,
        high,
        decision_text(sprt.decide(llr))
    )
}

/// The table below a match's header line.
pub fn format_results(report: &MatchReport) -> String {
    let mut out = String::new();
    let width = report.names.iter().map(String::len).max().unwrap_or(6).max(6);
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>5}  {:>5}  {:>5}  {:>5}  {:>6}  {:>7}  {:>6}  {:>6}",
        "Rank", "Engine", "Games", "W", "L", "D", "Score", "Elo", "±95%", "LOS"
    );
    let mut order: Vec<usize> = (0..report.names.len()).collect();
    order.sort_by(|&a, &b| report.total(b).score().total_cmp(&report.total(a).score()));
    for (rank, &i) in order.iter().enumerate() {
        let t = report.total(i);
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>5}  {:>5}  {:>5}  {:>5}  {:>6}  {:>7}  {:>6}  {:>6}",
            rank + 1,
            report.names[i],
            t.games(),
            t.wins,
            t.losses,
            t.draws,
            percent(t.score()),
            format_elo(t.elo()),
            format_elo(t.elo_error_95()).trim_start_matches('+'),
            percent(t.los()),
        );
    }
    if report.names.len() == 2 {
        let t = report.pair[0][1];
        let _ = writeln!(
            out,
            "{} {} games, Elo {} (95%), LOS {}",
            pair_text(report, 0, 1),
            t.games(),
            elo_text(&t),
            percent(t.los())
        );
        let _ = writeln!(out, "{} {}", report.names[0], pentanomial_text(&report.penta[0][1]));
    } else {
        for i in 0..report.names.len() {
            for j in i + 1..report.names.len() {
                let _ = writeln!(out, "  {}", pair_text(report, i, j));
                let _ = writeln!(out, "    {}", pentanomial_text(&report.penta[i][j]));
            }
        }
    }
    let unpaired = report.unpaired_games();
    if unpaired > 0 {
        let _ = writeln!(out, "({unpaired} games without their colour-reversed partner are not in the pair figures)");
    }
    if let Some((sprt, llr, _)) = report.sprt {
        let _ = writeln!(out, "{}", sprt_line("GSPRT", &sprt, llr));
        let _ = writeln!(out, "{}", sprt_line("GSPRT on game pairs", &sprt, report.penta[0][1].llr(&sprt)));
    }
    let terminations: Vec<String> = report.terminations.iter().map(|(t, n)| format!("{t} {n}")).collect();
    let _ = writeln!(
        out,
        "Terminations: {}",
        if terminations.is_empty() { "none".into() } else { terminations.join(", ") }
    );
    let forfeits: Vec<String> = report.forfeits.iter().map(|((name, t), n)| format!("{name} {t} {n}")).collect();
    let _ = writeln!(out, "Forfeits: {}", if forfeits.is_empty() { "none".into() } else { forfeits.join(", ") });
    out
}
