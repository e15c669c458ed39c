//! Move notations for people, beside the coordinate notations of the protocols (`board::Notation`).

pub mod korean;
