//! Tuning the evaluation from games: self-play data generation and the Texel fit (`janggi tune`).

pub mod selfplay;
pub mod texel;
