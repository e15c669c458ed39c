//! The three protocol dialects and how they differ in names: squares, option names, handshake words.

use crate::board::Notation;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    #[default]
    Uci,
    Ucci,
    Usi,
}

impl Dialect {
    pub const ALL: [Dialect; 3] = [Dialect::Uci, Dialect::Ucci, Dialect::Usi];

    pub fn notation(self) -> Notation {
        match self {
            Dialect::Uci => Notation::Uci,
            Dialect::Ucci => Notation::Ucci,
            Dialect::Usi => Notation::Usi,
        }
    }

    /// The command that opens a session in this dialect (`uci`, `ucci`, `usi`).
    pub fn handshake(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
            Dialect::Usi => "usi",
        }
    }

    /// The engine's answer that closes the handshake.
    pub fn handshake_ok(self) -> &'static str {
        match self {
            Dialect::Uci => "uciok",
            Dialect::Ucci => "ucciok",
            Dialect::Usi => "usiok",
        }
    }

    /// The variant option's name in this dialect.
    pub fn variant_option(self) -> &'static str {
        match self {
            Dialect::Usi => "USI_Variant",
            _ => "UCI_Variant",
        }
    }

    pub fn by_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.handshake().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.handshake())
    }
}
