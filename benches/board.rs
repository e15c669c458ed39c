//! Micro-benchmarks of the board layer and the evaluation, over the positions of `janggi bench`.
//! `cargo bench` runs them; compare two builds by running both on the same machine in one session.

use criterion::{Criterion, criterion_group, criterion_main};
use janggi::board::perft::perft;
use janggi::board::{Position, Rules, START_FEN};
use janggi::eval::evaluate;
use janggi::eval::params::Params;
use janggi::search::bench::POSITIONS;
use std::hint::black_box;

fn positions() -> Vec<Position> {
    POSITIONS.iter().filter_map(|fen| Position::from_fen(fen, Rules::JANGGI).ok()).collect()
}

fn start_perft(c: &mut Criterion) {
    let mut pos = Position::from_fen(START_FEN, Rules::JANGGI).expect("start position");
    c.bench_function("perft 4 of the start position", |b| b.iter(|| perft(black_box(&mut pos), 4)));
}

fn legal_moves(c: &mut Criterion) {
    let all = positions();
    c.bench_function("legal moves of the bench positions", |b| {
        b.iter(|| all.iter().map(|p| black_box(p).legal_moves().len()).sum::<usize>())
    });
}

fn make_unmake(c: &mut Criterion) {
    let mut all = positions();
    c.bench_function("make and unmake every legal move of the bench positions", |b| {
        b.iter(|| {
            for pos in all.iter_mut() {
                for m in pos.legal_moves().iter().copied() {
                    pos.make_move(m);
                    black_box(pos.key());
                    pos.unmake_move();
                }
            }
        })
    });
}

fn evaluation(c: &mut Criterion) {
    let all = positions();
    let params = Params::default();
    c.bench_function("evaluate the bench positions", |b| {
        b.iter(|| all.iter().map(|p| evaluate(black_box(p), &params)).sum::<i32>())
    });
}

criterion_group!(benches, start_perft, legal_moves, make_unmake, evaluation);
criterion_main!(benches);
