//! Game records in formats other than PGN, read into the same `PgnGame` values that analysis takes.

pub mod gib;
