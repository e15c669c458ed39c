//! `janggi diagram`: a position as an SVG board.

use clap::Args;
use janggi::analysis::diagram::{ArrowKind, DiagramOptions};
use janggi::board::{Move, Notation, Position, Rules, START_FEN};
use std::path::PathBuf;

/// `janggi diagram`.
#[derive(Args)]
pub struct DiagramArgs {
    /// The position to draw (before --moves).
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// The rule set the FEN and moves are read under.
    #[arg(long, default_value = "janggi")]
    variant: String,
    /// Moves played from the FEN first (UCI notation); the last one is highlighted.
    #[arg(long, num_args = 0..)]
    moves: Vec<String>,
    /// Moves drawn as arrows (UCI notation).
    #[arg(long, num_args = 0..)]
    arrow: Vec<String>,
    /// Han's view: Han's side at the bottom.
    #[arg(long)]
    flip: bool,
    /// The SVG file to write (stdout without it).
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: DiagramArgs) -> Result<(), String> {
    if let Some(path) = &args.out {
        super::output_path::prepare(path, "--out")?;
    }
    let rules = args.variant.parse::<Rules>().map_err(|e| e.to_string())?;
    let pos = Position::from_fen_moves(&args.fen, rules, &args.moves, Notation::Uci).map_err(|e| e.to_string())?;
    // The last move played is highlighted.
    let last = args.moves.last().and_then(|m| Move::parse(m, Notation::Uci));
    let arrows = args
        .arrow
        .iter()
        .map(|t| Move::parse(t, Notation::Uci).map(|m| (m, ArrowKind::Best)).ok_or_else(|| format!("bad arrow '{t}'")))
        .collect::<Result<Vec<_>, _>>()?;
    let svg = janggi::analysis::diagram::svg(&pos, &DiagramOptions { flip: args.flip, arrows, last_move: last });
    match &args.out {
        Some(path) => std::fs::write(path, svg + "\n").map_err(|e| format!("cannot write '{}': {e}", path.display())),
        None => {
            println!("{svg}");
            Ok(())
        }
    }
}
