use janggi::board::{Position, Rules};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let mut pos = Position::startpos(Rules::JANGGI);
    let t = Instant::now();
    let n = janggi::perft::perft(&mut pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes {s:.3}s {:.1} Mnps", n as f64 / s / 1e6);
}
