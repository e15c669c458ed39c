//! Game and position records read from text: PGN games, FEN or EPD lines, and Korean `.gib` game records (read
//! into the same `PgnGame` values). The match runner and the analysis tool both read them.

pub mod gib;
pub mod pgn;
pub mod positions;
