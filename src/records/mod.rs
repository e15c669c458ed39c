//! Game and position records read from text: PGN games, and FEN or EPD lines. The match runner and the analysis
//! tool both read them.

pub mod pgn;
pub mod positions;
