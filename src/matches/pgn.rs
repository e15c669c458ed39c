//! Writing match games as PGN (the reading side is `records::pgn`): the tags Fairy-Stockfish hosts write, moves
//! in coordinate notation with cutechess-cli's comments. Games are written one at a time and appended.

use super::game::{GameRecord, PlayedMove};
use crate::board::{Color, Notation, Rules};
use crate::score::Score;
use std::io::Write;
use std::path::Path;
use std::time::SystemTime;

/// Movetext lines are wrapped before this column, as the PGN standard asks.
const LINE_WIDTH: usize = 79;

/// The `Variant` tag of a rule set: `Janggi` as the hosts write it, otherwise the rule set's own name.
pub fn variant_tag(rules: Rules) -> String {
    if rules == Rules::JANGGI { "Janggi".to_string() } else { rules.name.to_string() }
}

/// `YYYY.MM.DD` (UTC) of a time.
pub fn date_tag(time: SystemTime) -> String {
    let days = time.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A move's comment as cutechess-cli writes it: the mover's score in pawns (or `+M3`) over the depth, and the
/// time used; in a game with clocks, then the mover's clock after the move as `[%clk H:MM:SS.mmm]`, the clock
/// comment of lichess and ChessBase.
fn move_comment(m: &PlayedMove) -> String {
    let mut time = format!("{:.3}s", m.time.as_secs_f64());
    if let Some(clock) = m.clock {
        let ms = clock.as_millis();
        let (h, m, s, ms) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
        time.push_str(&format!(" [%clk {h}:{m:02}:{s:02}.{ms:03}]"));
    }
    match m.score {
        Some(Score::Cp(cp)) => format!("{{{:+.2}/{} {time}}}", f64::from(cp) / 100.0, m.depth.unwrap_or(0)),
        Some(Score::Mate(n)) => {
            format!("{{{}M{}/{} {time}}}", if n > 0 { "+" } else { "-" }, n.abs(), m.depth.unwrap_or(0))
        }
        None => format!("{{{time}}}"),
    }
}

/// The game as PGN text, ending with a blank line. `limits` (e.g. `depth 4`, `10+0.1`) is written as a `Limits`
/// tag beside `TimeControl`, which has no way to say a fixed depth or node count: a resumed match checks it.
pub fn format_game(record: &GameRecord, event: &str, time_control: &str, limits: &str) -> String {
    let result = record.result_tag();
    let tags = [
        ("Event", event.to_string()),
        ("Site", "?".to_string()),
        ("Date", date_tag(record.started)),
        ("Round", record.round.to_string()),
        ("White", record.names[0].clone()),
        ("Black", record.names[1].clone()),
        ("Result", result.to_string()),
        ("Variant", variant_tag(record.rules)),
        ("FEN", record.opening.clone()),
        ("SetUp", "1".to_string()),
        ("TimeControl", time_control.to_string()),
        ("Limits", limits.to_string()),
        ("Termination", record.termination.tag().to_string()),
        ("PlyCount", record.moves.len().to_string()),
    ];
    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    out.push('\n');

    let fields: Vec<&str> = record.opening.split_ascii_whitespace().collect();
    let mut number: u32 = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1).max(1);
    let mut side = if fields.get(1) == Some(&"b") { Color::Han } else { Color::Cho };
    let mut tokens: Vec<String> = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        if side == Color::Cho {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.mv.display(Notation::Uci).to_string());
        tokens.push(move_comment(m));
        if side == Color::Han {
            number += 1;
        }
        side = !side;
    }
    tokens.push(format!("{{{}}}", record.detail.replace('}', ")")));
    tokens.push(result.to_string());

    let mut line = String::new();
    for word in tokens.iter().flat_map(|t| t.split(' ')) {
        if !line.is_empty() && line.len() + 1 + word.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Appends a game to a PGN file and flushes it to disk, so that no finished game is lost if the match stops.
pub fn append(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    file.write_all(text.as_bytes())?;
    file.flush()?;
    file.sync_data()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Outcome, Position, Reason, START_FEN};
    use crate::matches::game::Termination;
    use crate::records::pgn::parse_games;
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(date_tag(SystemTime::UNIX_EPOCH), "1970.01.01");
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_709_210_096); // 2024-02-29 12:34:56 UTC
        assert_eq!(date_tag(t), "2024.02.29");
    }

    #[test]
    fn a_written_game_reads_back() {
        let mut pos = Position::from_fen(START_FEN, Rules::JANGGI).unwrap();
        let mut moves = Vec::new();
        let clocks = [None, Some(Duration::from_millis(3_723_045)), Some(Duration::from_millis(980))];
        for ((text, score), clock) in
            [("h1g3", Some(Score::Cp(12))), ("e9e9", Some(Score::Mate(-3))), ("e2e2", None)].into_iter().zip(clocks)
        {
            let m = Move::parse(text, Notation::Uci).unwrap();
            assert!(pos.is_legal(m));
            pos.make_move(m);
            moves.push(PlayedMove { mv: m, score, depth: Some(7), time: Duration::from_millis(31), clock });
        }
        let record = GameRecord {
            round: 3,
            names: ["a \"quoted\" name".into(), "b".into()],
            opening: START_FEN.into(),
            rules: Rules::JANGGI,
            moves,
            outcome: Outcome::Win(Color::Han),
            termination: Termination::Rules(Reason::DoublePass),
            detail: "two passes in a row, Han wins on count (72 to 73.5)".into(),
            started: SystemTime::now(),
            setup: Duration::ZERO,
            wall: Duration::ZERO,
            thinking: Duration::ZERO,
        };
        let text = format_game(&record, "test", "1+0.01", "1+0.01");
        let moves =
            "1. h1g3 {+0.12/7 0.031s} e9e9 {-M3/7 0.031s [%clk 1:02:03.045]} 2. e2e2 {0.031s [%clk 0:00:00.980]}";
        assert!(text.replace('\n', " ").contains(moves), "{text}");
        let games = parse_games(&(text.clone() + &text)).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("White"), Some("a \"quoted\" name"));
        assert_eq!(g.tag("Variant"), Some("Janggi"));
        assert_eq!(g.tag("Termination"), Some("normal"));
        assert_eq!(g.result.as_deref(), Some("0-1"));
        assert_eq!(g.moves, vec!["h1g3", "e9e9", "e2e2"]);
        let (end, played) = g.replay().unwrap();
        assert_eq!(played.len(), 3);
        assert_eq!(end.fen(), pos.fen());
    }
}
