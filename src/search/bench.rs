//! `janggi bench`: a fixed set of positions searched to a fixed depth by one thread with a fresh hash table. The
//! total node count is the signature of the search and evaluation: any change to either changes it.

use crate::board::{Position, Rules};
use crate::eval::evaluator::Evaluator;
use crate::platform::clock::Instant;
use crate::search::Limits;
use crate::search::engine::Engine;
use std::time::Duration;

/// Default depth of `janggi bench`.
pub const BENCH_DEPTH: u32 = 13;
/// Hash size of `janggi bench` (MB).
pub const BENCH_HASH_MB: usize = 16;

/// Openings, setups, middlegames and endgames, with Cho and Han to move, passes and bikjang.
pub const POSITIONS: [&str; 37] = [
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 1 1",
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ANBR w - - 0 1",
    "rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
    "rnba1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR w - - 0 1",
    "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1",
    "bnra1arnb/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/BNRA1ARNB w - - 0 1",
    "bnra1arnb/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1",
    "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1",
    "1Pbcka3/3nNn1c1/N2CaC3/1pB6/9/9/5P3/9/4K4/9 w - - 0 23",
    "4k3r/9/9/8p/9/9/P8/9/9/RN2K4 b - - 1 1",
    "rnba1a1R1/3k5/1c7/p1pp2pn1/9/9/c1P3P2/1C1N1K3/9/RB1AA1BN1 w - - 2 9",
    "bn2a1r1b/5a3/1c1k3cn/pp2p1p2/8p/9/2P1P1P1P/2NB1CRCN/5K3/2RA1A2B w - - 3 9",
    "c3k4/4a4/4a4/9/p8/9/9/4K4/9/6p2 w - - 8 71",
    "9/4k4/9/5C2r/9/4P4/4P4/4K4/9/9 w - - 6 41",
    "2n4b1/4a4/4k1c1R/3p1p3/9/2p6/4PP1P1/7C1/4K4/2rA1ABN1 w - - 0 21",
    "C1r1a4/9/1cn2k3/5p1pp/9/P1P1P4/6c1r/1C3A3/4KA3/1BN3N2 w - - 1 21",
    "rnba1anbr/3k5/1c5c1/p2p4p/9/2P3p2/P2p4P/1C5C1/3K5/1RNA1A1BR w - - 0 9",
    "9/3ak4/9/9/9/9/9/1N3K2p/9/3A5 w - - 1 71",
    "9/3k5/6n2/R8/9/9/1b7/9/4K4/8c w - - 1 41",
    "5k3/4a2C1/9/n4p3/9/7P1/1P2P1P2/3K1A3/3A5/9 w - - 11 41",
    "rbRak1bn1/4a4/6cc1/5rpp1/p3p4/3R5/PPB1P2PP/2NC5/4K4/3A1A1NB b - - 16 13",
    "3ak1bn1/4a4/4c4/3bp4/C1p6/9/PP2N1BPP/2N6/3A1B2c/3K1A3 b - - 8 31",
    "3a1a3/4k3n/4c4/4p2P1/2b5P/2N3N2/PP7/9/2cAAB3/3K1C3 b - - 22 51",
    "9/4ka3/4a2P1/9/5N3/9/PP7/9/3AA4/3K5 b - - 2 71",
    "1b1a1a1br/4k4/4cn1c1/1pp1pp3/2n6/1C1r5/PP1BP1P1P/3NC3N/4K4/R2A1AB1R b - - 10 13",
    "3a1a3/4k4/4cn3/p2p5/2R6/4C4/PP2P1P2/2bN4r/BC2K4/3A3c1 b - - 5 31",
    "3a5/3nk4/3bca3/p8/1P6r/P3P4/3B1PN2/2R1C4/4KC3/3A5 b - - 0 51",
    "b1ra1aC1b/4k4/2n3nc1/pp3p1pp/5r3/3R1R3/1PPP2PP1/3NC1N2/4K4/1B1A1Ac2 b - - 1 13",
    "2ra1aC2/5kc2/c1n6/pp1N2bpp/5N3/4R4/1PP1P2P1/4B4/4K4/5A3 b - - 4 31",
    "3a1a1b1/4k4/nc2c4/1pppb1pp1/6n2/9/1P1PPP3/1C1NCN3/4K4/1B1A1A1B1 b - - 1 13",
    "3a1a3/Cc2k4/nC2c4/2ppb1p1p/9/1P2P4/4P2b1/4B4/3N1K3/1B1A1A3 b - - 18 31",
    "3a1a3/4kc3/9/1N4pp1/1p1p2n2/2P1PP3/6b2/2cCB4/B3K4/C2A5 b - - 36 51",
    "5a3/1c2k4/9/6p1p/4n4/7P1/9/3N1C3/B3K4/3Cc4 b - - 1 71",
    "3k5/R8/9/9/9/9/9/8r/4K4/1N7 w - - 0 1",
    "3rr4/3k5/9/9/9/9/9/9/4K4/3CC4 w - - 0 1",
    "4k4/9/4a4/9/9/9/9/9/3K5/R7r b - - 0 1",
];

/// What a bench run measured.
pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with the classical evaluation; `progress` is told each position's
/// nodes.
pub fn run(depth: u32, progress: impl FnMut(usize, &str, u64)) -> BenchResult {
    run_with(depth, &Evaluator::Classical, progress)
}

/// Searches every bench position to `depth` with `evaluator`; `progress` is told each position's nodes.
pub fn run_with(depth: u32, evaluator: &Evaluator, mut progress: impl FnMut(usize, &str, u64)) -> BenchResult {
    let mut nodes = 0;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen, Rules::JANGGI).expect("bench positions are valid");
        // A fresh table for every position keeps each count independent of the order.
        let mut engine = Engine::silent(BENCH_HASH_MB);
        engine.set_game(pos);
        engine.set_evaluator(evaluator.clone());
        let finish = engine.think(&Limits { depth: Some(depth), ..Limits::default() });
        let searched = finish.outcome().map_or(0, |o| o.nodes);
        progress(i, fen, searched);
        nodes += searched;
    }
    BenchResult { nodes, elapsed: start.elapsed() }
}
