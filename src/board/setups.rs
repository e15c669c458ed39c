//! The 25 starting arrangements: each side chooses one of five back ranks independently.

/// The standard start position: the first of the 25 setups, and `startpos` in the protocols.
pub const START_FEN: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

/// Back ranks as Cho writes them (left to right from Cho's side); Han's mirror image is the lowercase string
/// read the same way in the FEN.
pub const BACK_RANKS: [&str; 5] = ["rnba1abnr", "rbna1anbr", "rnba1anbr", "rbna1abnr", "bnra1arnb"];

/// The FEN of one setup: Han's back rank (as written in the FEN's first rank) and Cho's.
pub fn setup_fen(han: &str, cho: &str) -> String {
    format!(
        "{}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{} w - - 0 1",
        han.to_ascii_lowercase(),
        cho.to_ascii_uppercase()
    )
}

/// All 25 start positions; the first is the standard one.
pub fn all_setups() -> Vec<String> {
    let mut out = vec![START_FEN.to_string()];
    for han in BACK_RANKS {
        for cho in BACK_RANKS {
            let fen = setup_fen(han, cho);
            if fen != START_FEN {
                out.push(fen);
            }
        }
    }
    out
}
