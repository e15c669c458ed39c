//! The tuner end to end: self-play games produce labelled quiet positions, and fitting the weights to them lowers
//! the prediction error.

use janggi::board::{Position, Rules};
use janggi::eval::params::Params;
use janggi::tune::{selfplay, texel};

#[test]
fn selfplay_positions_are_legal_and_labelled() {
    let samples = selfplay::play_game(7, 300, Rules::JANGGI);
    assert!(samples.len() > 10);
    for s in &samples {
        assert!(Position::from_fen(&s.fen, Rules::JANGGI).is_ok(), "{}", s.fen);
        assert!([0.0, 0.5, 1.0].contains(&s.result));
    }
    // One game, one result.
    assert!(samples.iter().all(|s| s.result == samples[0].result));
}

#[test]
fn fitting_lowers_the_error_on_game_positions() {
    let mut text = String::new();
    for seed in 0..6 {
        for s in selfplay::play_game(seed, 300, Rules::JANGGI) {
            text.push_str(&format!("{};{}\n", s.fen, s.result));
        }
    }
    text.push_str("not a position;1\n");
    let start = Params::default();
    let (entries, skipped) = texel::load(&text, &start);
    assert_eq!(skipped, 1);
    let w = texel::as_reals(&start);
    let k = texel::fit_k(&entries, &w);
    let before = texel::error(&entries, &w, k);
    // The fitted weights are rounded to integers: the step must be large enough to move them by whole units on
    // six games' positions (the command's default rate is 30000).
    let (fitted, after) = texel::fit(&entries, &start, &texel::free_mask(&[]), k, 100, 3000.0, |_, _| {});
    assert!(after < before, "error {before} -> {after}");
    let source = texel::weights_source(&fitted);
    assert!(source.contains("pub const WEIGHTS") && source.contains("// material"));
}

#[test]
fn the_traced_coefficients_reproduce_the_evaluation() {
    use janggi::eval::params::MAX_PHASE;
    use janggi::eval::{Coefficients, evaluate, evaluate_traced, phase};
    let params = Params::default();
    for seed in 0..4 {
        for s in selfplay::play_game(100 + seed, 300, Rules::JANGGI) {
            let pos = Position::from_fen(&s.fen, Rules::JANGGI).unwrap();
            let mut c = Coefficients::default();
            let traced = evaluate_traced(&pos, &params, &mut c);
            assert_eq!(traced, evaluate(&pos, &params));
            let ph = phase(&pos);
            let (mut mg, mut eg) = (0i64, 0i64);
            for &(i, n) in &c.terms {
                mg += params.w[i as usize].0 as i64 * n as i64;
                eg += params.w[i as usize].1 as i64 * n as i64;
            }
            let cho_view = (mg * ph as i64 + eg * (MAX_PHASE - ph) as i64) / MAX_PHASE as i64;
            let stm = if pos.side_to_move() == janggi::board::Color::Cho { 1 } else { -1 };
            assert!((cho_view * stm - traced as i64).abs() <= 1, "{}: {} vs {}", s.fen, cho_view * stm, traced);
        }
    }
}
